#include "runtime/gpu/GpuExecutable.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>

#include "backends/common/KernelABI.h"
#include "ir/Diagnostics.h"
#include "runtime/HostPlanExecution.h"
#include "runtime/ResultPlacement.h"
#include "runtime/cpu/LibraryOps.h"

namespace xs::gpu {

namespace {

/// With GpuContextOptions::syncLaunches, waits for the launch just queued
/// on `stream`: a fault surfaces here, named after its kernel, rather than
/// at a later call.
absl::Status finishLaunch(const GpuContext &ctx, StreamHandle stream, const std::string &kernel) {
  if (!ctx.syncLaunches())
    return absl::OkStatus();
  absl::Status status = ctx.check(ctx.driver().synchronizeStream(stream));
  if (status.ok())
    return status;
  return absl::Status(status.code(), strCat("kernel ", kernel,
                                            " failed on the GPU (launches "
                                            "synchronized): ",
                                            status.message()));
}

/// The largest gridDim.x; longer grids are several launches (blockBegin).
constexpr int64_t kMaxGridX = std::numeric_limits<int32_t>::max();

DevicePointer address(const std::shared_ptr<void> &block) {
  return static_cast<DevicePointer>(reinterpret_cast<uintptr_t>(block.get()));
}

DevicePointer address(const void *pointer) {
  return static_cast<DevicePointer>(reinterpret_cast<uintptr_t>(pointer));
}

} // namespace

/// Everything one call of execute() owns. The stream is declared last so that
/// it is synchronized (PooledStream's destructor) before any block returns
/// to the allocator, also when the call stops at an error.
struct GpuExecutable::CallState {
  DimBindings dims;
  BufferLayout layout;
  std::vector<DevicePointer> data;          // per buffer: its device address
  std::vector<std::shared_ptr<void>> owned; // per buffer: device blocks of inputs and outputs
  std::shared_ptr<void> arena;              // temporaries
  /// The dims array, then each launch step's buffer pointers (a launch
  /// step with a cooperative variant: then the address of its barrier
  /// word), then the barrier words, zero.
  std::shared_ptr<void> table;
  std::vector<int64_t> stepTableOffset; // per step: byte offset of its pointers in `table`
  /// Other memory the queued work uses: the table's pinned staging, the
  /// BLAS library's workspaces.
  std::vector<std::shared_ptr<void>> held;
  std::optional<PooledStream> stream;
};

absl::StatusOr<std::shared_ptr<GpuExecutable>>
GpuExecutable::create(CompiledProgram program, std::shared_ptr<GpuContext> context) {
  XS_RETURN_IF_ERROR(checkHostPlan(program.host));
  std::shared_ptr<GpuExecutable> executable(new GpuExecutable());
  executable->plan_ = std::move(program.host);
  executable->context_ = std::move(context);
  const HostPlan &plan = executable->plan_;
  GpuContext &ctx = *executable->context_;
  const GpuDriver &driver = ctx.driver();
  XS_ASSIGN_OR_RETURN(GpuContext::CurrentScope current, ctx.makeCurrent());

  bool hasLaunches = std::any_of(plan.steps.begin(), plan.steps.end(), [](const HostStep &step) {
    return step.kind == HostStep::Kind::Launch;
  });
  if (hasLaunches) {
    if (program.objectFormat != driver.codeFormat() || program.objects.size() != 1)
      return absl::InternalError(
          strCat("the ", driver.platform(), " device loads one ", driver.codeFormat(),
                 " module, not ", program.objects.size(), " of format '", program.objectFormat,
                 "' (kernels of @", plan.function, ")"));
    XS_RETURN_IF_ERROR(driver.checkCodeObject(program.objects[0], ctx.info(), plan.function));
    std::string log;
    GpuCall loaded = driver.loadModule(program.objects[0], &executable->module_, &log);
    if (absl::Status s = ctx.check(loaded); !s.ok())
      return absl::InternalError(strCat("the ", driver.vendor(), " driver cannot load the ",
                                        driver.codeName(), " of @", plan.function, ": ",
                                        s.message(), log.empty() ? "" : "\n", log));
  }

  int sharedLimit = ctx.info().sharedBytesPerBlock;
  executable->kernels_.resize(plan.steps.size());
  executable->cooperative_.resize(plan.steps.size());
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const HostStep &step = plan.steps[s];
    if (step.kind != HostStep::Kind::Launch)
      continue;
    for (const HostLaunchVariant &variant : step.variants) {
      std::vector<Kernel> phases;
      for (const std::string &planSymbol : launchSymbols(variant)) {
        std::string symbol = driver.kernelSymbol(planSymbol);
        Kernel kernel;
        if (absl::Status found =
                ctx.check(driver.function(executable->module_, symbol, &kernel.function));
            !found.ok())
          return absl::InternalError(strCat("kernel ", step.kernel, ": the ", driver.codeName(),
                                            " of @", plan.function, " has no kernel ", symbol, " (",
                                            found.message(), ")"));
        XS_RETURN_IF_ERROR(
            ctx.check(driver.staticSharedBytes(kernel.function, &kernel.staticSharedBytes)));
        // Launches may ask for up to the GPU's shared memory per block
        // (on NVIDIA 48 KiB without an opt-in); the launch's own size is
        // what counts for occupancy.
        if (sharedLimit > kernel.staticSharedBytes)
          XS_RETURN_IF_ERROR(ctx.check(driver.allowDynamicSharedBytes(
              kernel.function, sharedLimit - kernel.staticSharedBytes)));
        phases.push_back(kernel);
      }
      Kernel cooperative;
      if (variant.cooperative) {
        cooperative = phases.back();
        phases.pop_back();
      }
      executable->kernels_[s].push_back(std::move(phases));
      executable->cooperative_[s].push_back(cooperative);
    }
  }

  executable->constants_.resize(plan.buffers.size());
  for (size_t b = 0; b < plan.buffers.size(); ++b) {
    const HostBuffer &buffer = plan.buffers[b];
    if (buffer.kind != HostBuffer::Kind::Constant)
      continue;
    XS_ASSIGN_OR_RETURN(Tensor host, constantTensor(buffer));
    int64_t bytes = host.view().byteSize();
    std::shared_ptr<void> block = ctx.deviceMemory()->allocate(bytes);
    if (block == nullptr)
      return absl::ResourceExhaustedError(strCat("out of GPU memory uploading constant %",
                                                 buffer.name, " (", bytes, " bytes) on ",
                                                 ctx.name()));
    if (bytes > 0)
      XS_RETURN_IF_ERROR(
          ctx.check(driver.copyToDevice(address(block), host.data(), static_cast<size_t>(bytes))));
    executable->constants_[b] = std::move(block);
  }
  return executable;
}

GpuExecutable::~GpuExecutable() {
  if (module_ == nullptr)
    return;
  if (absl::StatusOr<GpuContext::CurrentScope> current = context_->makeCurrent(); current.ok())
    (void)context_->driver().unloadModule(module_);
}

absl::StatusOr<RunResult> GpuExecutable::execute(const RunRequest &request, RunStats *stats) const {
  GpuContext &ctx = *context_;
  const GpuDriver &driver = ctx.driver();
  const bool resident = request.deviceMemory;
  // Current until the call's stream and memory are given back (declared
  // first, left last).
  XS_ASSIGN_OR_RETURN(GpuContext::CurrentScope current, ctx.makeCurrent());
  XS_RETURN_IF_ERROR(ctx.faultStatus());
  // Memory of earlier runs their streams are done with goes back to the
  // allocators before this run takes its own.
  ctx.reapReleases();
  CallState call;
  RunResult result;
  if (request.stream != nullptr) {
    call.stream.emplace(PooledStream::borrow(ctx, request.stream));
  } else {
    XS_ASSIGN_OR_RETURN(PooledStream stream, PooledStream::acquire(ctx));
    call.stream.emplace(std::move(stream));
  }
  StreamHandle s = call.stream->get();

  // Host symbols read the elements of some inputs on the host: device
  // inputs they read are copied there first.
  std::vector<TensorView> bindingInputs = request.inputs;
  std::vector<std::shared_ptr<void>> hostCopies;
  if (resident && plan_.hostSymbols != nullptr) {
    for (size_t p : plan_.hostSymbols->dataParams()) {
      if (p >= bindingInputs.size())
        continue;
      TensorView &view = bindingInputs[p];
      int64_t bytes = view.byteSize();
      std::shared_ptr<void> host = ctx.hostMemory()->allocate(bytes);
      if (host == nullptr)
        return absl::ResourceExhaustedError(
            strCat("out of host memory for input ", inputName(plan_, p)));
      if (bytes > 0 && view.data != nullptr)
        XS_RETURN_IF_ERROR(ctx.check(
            driver.copyToHostAsync(host.get(), address(view.data), static_cast<size_t>(bytes), s)));
      result.bytesCopied += bytes;
      view.data = host.get();
      hostCopies.push_back(std::move(host));
    }
    XS_RETURN_IF_ERROR(call.stream->synchronize());
  }
  XS_ASSIGN_OR_RETURN(call.dims, bindInputDims(plan_, bindingInputs));
  XS_ASSIGN_OR_RETURN(call.layout, layoutBuffers(plan_, call.dims));
  XS_ASSIGN_OR_RETURN(std::vector<int64_t> symbols, symbolValues(plan_, call.dims));
  // Kernels write device memory: host destinations are copied into.
  XS_ASSIGN_OR_RETURN(ResultPlacement placement,
                      placeResults(plan_, call.layout, request.outputs, /*kernelsReach=*/resident,
                                   kGpuBufferAlignment));

  auto allocate = [&](int64_t bytes, auto &&...what) -> absl::StatusOr<std::shared_ptr<void>> {
    std::shared_ptr<void> block = ctx.deviceMemory()->allocate(bytes);
    if (block == nullptr)
      return absl::ResourceExhaustedError(strCat("out of GPU memory on ", ctx.name(),
                                                 " allocating ", what..., " (", bytes,
                                                 " bytes) for @", plan_.function));
    return block;
  };
  size_t numBuffers = plan_.buffers.size();
  call.data.assign(numBuffers, 0);
  call.owned.resize(numBuffers);
  if (call.layout.arenaBytes > 0) {
    XS_ASSIGN_OR_RETURN(call.arena, allocate(call.layout.arenaBytes, "temporaries"));
  }
  for (size_t b = 0; b < numBuffers; ++b) {
    const HostBuffer &buffer = plan_.buffers[b];
    int64_t bytes = call.layout.bytes[b];
    switch (buffer.kind) {
    case HostBuffer::Kind::Input: {
      const TensorView &input = request.inputs[static_cast<size_t>(buffer.paramIndex)];
      DevicePointer given = address(input.data);
      if (resident && given % static_cast<DevicePointer>(kGpuBufferAlignment) == 0) {
        call.data[b] = given; // read where it is
        break;
      }
      XS_ASSIGN_OR_RETURN(call.owned[b], allocate(bytes, "input %", buffer.name));
      if (bytes > 0)
        XS_RETURN_IF_ERROR(
            ctx.check(resident ? driver.copyOnDeviceAsync(address(call.owned[b]), given,
                                                          static_cast<size_t>(bytes), s)
                               : driver.copyToDeviceAsync(address(call.owned[b]), input.data,
                                                          static_cast<size_t>(bytes), s)));
      result.bytesCopied += bytes;
      call.data[b] = address(call.owned[b]);
      break;
    }
    case HostBuffer::Kind::Output: {
      if (int r = placement.writtenInto[b]; r >= 0) {
        call.data[b] = address(request.outputs[static_cast<size_t>(r)].data);
        break;
      }
      XS_ASSIGN_OR_RETURN(call.owned[b], allocate(bytes, "output %", buffer.name));
      call.data[b] = address(call.owned[b]);
      break;
    }
    case HostBuffer::Kind::Temporary:
      call.data[b] =
          address(call.arena) +
          static_cast<DevicePointer>(call.layout.slotOffsets[static_cast<size_t>(buffer.slot)]);
      break;
    case HostBuffer::Kind::Constant:
      call.data[b] = address(constants_[b]);
      break;
    case HostBuffer::Kind::Alias:
      break;
    }
  }
  // Aliases view their (possibly aliased) source.
  for (size_t b = 0; b < numBuffers; ++b)
    call.data[b] = call.data[aliasTarget(plan_, b)];

  // One upload for every launch's arguments: the dims, then each launch
  // step's buffer addresses and, for a step that may launch cooperatively,
  // the address of a barrier word of its own, then those words (zero). A
  // step runs once per call, so a word serves every grid barrier of its one
  // launch (the barrier needs no reset between them).
  std::vector<uint64_t> table(symbols.begin(), symbols.end());
  call.stepTableOffset.assign(plan_.steps.size(), 0);
  std::vector<size_t> barrierSlots; // entries of `table` holding a word's address
  for (size_t i = 0; i < plan_.steps.size(); ++i) {
    if (plan_.steps[i].kind != HostStep::Kind::Launch)
      continue;
    call.stepTableOffset[i] = static_cast<int64_t>(table.size() * sizeof(uint64_t));
    for (int b : plan_.steps[i].buffers) {
      DevicePointer data = call.data[static_cast<size_t>(b)];
      // The allocator's blocks and the arena's slots keep the alignment the
      // kernels' vector accesses rely on (KernelABI.h).
      if (data % static_cast<DevicePointer>(kGpuBufferAlignment) != 0)
        return absl::InternalError(strCat("buffer %", plan_.buffers[static_cast<size_t>(b)].name,
                                          " of kernel ", plan_.steps[i].kernel, " is not ",
                                          kGpuBufferAlignment, "-byte aligned"));
      table.push_back(data);
    }
    const std::vector<HostLaunchVariant> &variants = plan_.steps[i].variants;
    if (std::any_of(variants.begin(), variants.end(),
                    [](const HostLaunchVariant &v) { return v.cooperative; })) {
      barrierSlots.push_back(table.size());
      table.push_back(0);
    }
  }
  size_t firstWord = table.size();
  table.resize(table.size() + barrierSlots.size(), 0);
  if (!table.empty()) {
    int64_t bytes = static_cast<int64_t>(table.size() * sizeof(uint64_t));
    XS_ASSIGN_OR_RETURN(call.table, allocate(bytes, "kernel arguments"));
    for (size_t k = 0; k < barrierSlots.size(); ++k)
      table[barrierSlots[k]] = address(call.table) + (firstWord + k) * sizeof(uint64_t);
    // Staged in pinned memory, so the upload is queued like the launches
    // (from pageable memory the driver may wait for the stream first).
    std::shared_ptr<void> staging = ctx.hostMemory()->allocate(bytes);
    if (staging == nullptr)
      return absl::ResourceExhaustedError(
          strCat("out of pinned host memory for the kernel arguments of @", plan_.function));
    std::memcpy(staging.get(), table.data(), static_cast<size_t>(bytes));
    XS_RETURN_IF_ERROR(ctx.check(driver.copyToDeviceAsync(address(call.table), staging.get(),
                                                          static_cast<size_t>(bytes), s)));
    call.held.push_back(std::move(staging));
  }

  if (stats != nullptr) {
    stats->dims = call.dims;
    stats->steps.clear();
  }
  XS_RETURN_IF_ERROR(runSteps(call, stats));

  // Results the kernels did not write in place: device results are handed
  // over or copied on the device, host results copied back.
  ResultDelivery delivery;
  delivery.memory = resident ? "GPU" : "host";
  delivery.handOver = resident;
  delivery.allocate = [&](int64_t bytes) {
    return resident ? ctx.deviceMemory()->allocate(bytes) : ctx.hostMemory()->allocate(bytes);
  };
  delivery.copy = [&](void *destination, size_t buffer, int64_t bytes) {
    size_t size = static_cast<size_t>(bytes);
    if (!resident)
      return ctx.check(driver.copyToHostAsync(destination, call.data[buffer], size, s));
    return ctx.check(driver.copyOnDeviceAsync(address(destination), call.data[buffer], size, s));
  };
  XS_RETURN_IF_ERROR(
      deliverResults(plan_, call.layout, placement, request.outputs, call.owned, delivery, result));
  // On the caller's stream with every tensor on the GPU, the run returns
  // once its work is queued, as CUDA and HIP libraries do: its memory is kept from
  // reuse until the stream has done the work. Otherwise (results copied to
  // the host, a stream of xstitch's own, timed or synchronized launches) it
  // waits for the stream.
  if (resident && call.stream->borrowed() && stats == nullptr && !ctx.syncLaunches() &&
      plan_.checks.empty()) {
    std::vector<std::shared_ptr<void>> blocks = std::move(call.held);
    for (std::shared_ptr<void> &block : call.owned)
      if (block != nullptr)
        blocks.push_back(std::move(block));
    for (std::shared_ptr<void> *block : {&call.arena, &call.table})
      if (*block != nullptr)
        blocks.push_back(std::move(*block));
    XS_RETURN_IF_ERROR(ctx.releaseAfter(s, std::move(blocks)));
    call.stream->leaveQueued();
    return result;
  }
  // The kernels' data checks (an index out of range, ...) leave their
  // verdict in the status word after the dims: read once the stream is
  // done. Programs with checks therefore always wait for their stream.
  uint64_t statusWord = 0;
  std::shared_ptr<void> statusCopy;
  if (!plan_.checks.empty() && call.table != nullptr) {
    statusCopy = ctx.hostMemory()->allocate(sizeof(uint64_t));
    if (statusCopy == nullptr)
      return absl::ResourceExhaustedError("out of pinned host memory for the run's status word");
    XS_RETURN_IF_ERROR(ctx.check(driver.copyToHostAsync(
        statusCopy.get(), address(call.table) + plan_.symbols.size() * sizeof(uint64_t),
        sizeof(uint64_t), s)));
  }
  XS_RETURN_IF_ERROR(call.stream->synchronize());
  if (statusCopy != nullptr)
    std::memcpy(&statusWord, statusCopy.get(), sizeof(statusWord));
  XS_RETURN_IF_ERROR(checkStatusWord(plan_, statusWord, call.dims));
  return result;
}

absl::Status GpuExecutable::runSteps(CallState &call, RunStats *stats) const {
  auto runStep = [&](const HostStep &step, size_t index) {
    return step.kind == HostStep::Kind::Launch ? launch(step, index, call) : runLibrary(step, call);
  };
  if (stats == nullptr)
    return runHostSteps(plan_, nullptr, runStep, nullptr);
  // Steps are timed by events around them on the call's stream (the
  // GPU's own clock, nothing waits between kernels). A library step that
  // runs on the host waits for the stream and queues its result's upload
  // after its work, so its events span that work too.
  const GpuDriver &driver = context_->driver();
  StreamHandle stream = call.stream->get();
  struct Timed {
    size_t stat;
    EventHandle start = nullptr, end = nullptr;
  };
  std::vector<Timed> timed;
  auto destroyEvents = [&] {
    for (Timed &t : timed)
      for (EventHandle event : {t.start, t.end})
        if (event != nullptr)
          (void)driver.destroyEvent(event);
  };
  absl::Status status = [&]() -> absl::Status {
    for (size_t i = 0; i < plan_.steps.size(); ++i) {
      const HostStep &step = plan_.steps[i];
      if (step.kind == HostStep::Kind::Alias)
        continue;
      stats->steps.push_back({hostStepName(step), 0});
      Timed &t = timed.emplace_back(Timed{stats->steps.size() - 1});
      XS_RETURN_IF_ERROR(context_->check(driver.createEvent(/*timing=*/true, &t.start)));
      XS_RETURN_IF_ERROR(context_->check(driver.createEvent(/*timing=*/true, &t.end)));
      XS_RETURN_IF_ERROR(context_->check(driver.recordEvent(t.start, stream)));
      XS_RETURN_IF_ERROR(runStep(step, i));
      XS_RETURN_IF_ERROR(context_->check(driver.recordEvent(t.end, stream)));
    }
    XS_RETURN_IF_ERROR(call.stream->synchronize());
    for (const Timed &t : timed) {
      float milliseconds = 0;
      XS_RETURN_IF_ERROR(
          context_->check(driver.elapsedMilliseconds(t.start, t.end, &milliseconds)));
      stats->steps[t.stat].seconds = milliseconds * 1e-3;
    }
    return absl::OkStatus();
  }();
  destroyEvents();
  return status;
}

absl::Status GpuExecutable::launch(const HostStep &step, size_t stepIndex, CallState &call) const {
  const GpuContext &ctx = *context_;
  XS_ASSIGN_OR_RETURN(size_t index, chooseVariant(step, call.dims));
  const HostLaunchVariant &variant = step.variants[index];
  XS_ASSIGN_OR_RETURN(int64_t grid, launchQuantity(step, "grid", variant.grid, call.dims));
  if (grid == 0 && !variant.ownBlockGroups)
    return absl::OkStatus();
  grid = std::max<int64_t>(grid, 1);
  XS_ASSIGN_OR_RETURN(int64_t shared, launchQuantity(step, "block-buffer bytes",
                                                     variant.totalBlockBufferBytes(), call.dims));
  int64_t lanes = variant.lanes;
  if (lanes < 1 || lanes > ctx.info().maxThreadsPerBlock)
    return absl::InternalError(strCat("kernel ", step.kernel, ": blocks of ", lanes,
                                      " threads, but ", ctx.name(), " runs at most ",
                                      ctx.info().maxThreadsPerBlock));

  DevicePointer dims = address(call.table);
  DevicePointer buffers = dims + static_cast<DevicePointer>(call.stepTableOffset[stepIndex]);
  const Kernel &cooperative = cooperative_[stepIndex][index];
  // The cooperative kernel holds every phase's block buffers at once: only
  // where their bound fits the GPU's shared memory in full (a phase kernel
  // needs its own only).
  if (cooperative.function != nullptr && ctx.info().cooperativeLaunch &&
      ctx.driver().hasCooperativeLaunch() &&
      shared <= ctx.info().sharedBytesPerBlock - cooperative.staticSharedBytes) {
    int perMultiprocessor = 0;
    XS_RETURN_IF_ERROR(
        ctx.check(ctx.driver().occupancy(cooperative.function, static_cast<int>(lanes),
                                         static_cast<size_t>(shared), &perMultiprocessor),
                  step.kernel));
    if (perMultiprocessor > 0) {
      // Every block launched stays resident, so the grid barrier holds;
      // the kernel strides over the grid's blocks.
      int64_t blocks =
          std::min(grid, static_cast<int64_t>(perMultiprocessor) * ctx.info().multiprocessors);
      int64_t blockBegin = 0;
      void *params[] = {&buffers, &dims, &blockBegin};
      XS_RETURN_IF_ERROR(ctx.check(
          ctx.driver().launchCooperative(cooperative.function, static_cast<unsigned>(blocks),
                                         static_cast<unsigned>(lanes),
                                         static_cast<unsigned>(shared), call.stream->get(), params),
          step.kernel));
      return finishLaunch(ctx, call.stream->get(), step.kernel);
    }
  }
  const std::vector<Kernel> &phases = kernels_[stepIndex][index];
  for (size_t phase = 0; phase < phases.size(); ++phase) {
    const Kernel &kernel = phases[phase];
    // What a block of the phase allocates, exactly (transforms/BlockBuffers.h).
    DimExpr bytes = variant.blockBufferBytes(static_cast<int>(phase));
    XS_ASSIGN_OR_RETURN(int64_t dynamicShared,
                        launchQuantity(step, "block-buffer bytes", bytes, call.dims));
    if (int64_t available = ctx.info().sharedBytesPerBlock - kernel.staticSharedBytes;
        dynamicShared > available)
      return absl::ResourceExhaustedError(strCat(
          "kernel ", step.kernel, phases.size() > 1 ? strCat(" phase ", phase) : std::string(),
          ": a block needs ", dynamicShared, " bytes of shared memory for its block buffers",
          bytes.isConstant() ? std::string() : strCat(" (", bytes.str(), ")"), ", but ", ctx.name(),
          " gives a block at most ", available, " (", ctx.info().sharedBytesPerBlock, " less ",
          kernel.staticSharedBytes,
          " of the kernel's own); compile the program for this GPU (--target=", ctx.name(),
          ") so that its plan fits"));
    for (int64_t begin = 0; begin < grid; begin += kMaxGridX) {
      int64_t blocks = std::min(grid - begin, kMaxGridX);
      int64_t blockBegin = begin;
      void *params[] = {&buffers, &dims, &blockBegin};
      XS_RETURN_IF_ERROR(ctx.check(
          ctx.driver().launch(kernel.function, static_cast<unsigned>(blocks),
                              static_cast<unsigned>(lanes), static_cast<unsigned>(dynamicShared),
                              call.stream->get(), params),
          step.kernel));
      XS_RETURN_IF_ERROR(finishLaunch(ctx, call.stream->get(), step.kernel));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> GpuExecutable::runDotOnGpu(const HostStep &step, CallState &call) const {
  if (step.libraryOp != OpKind::Dot || step.buffers.size() != 3)
    return false;
  size_t a = static_cast<size_t>(step.buffers[0]), b = static_cast<size_t>(step.buffers[1]),
         c = static_cast<size_t>(step.buffers[2]);
  ElementType type = plan_.buffers[c].type.elementType();
  const std::vector<int64_t> &lhs = call.layout.shapes[a], &rhs = call.layout.shapes[b];
  if (lhs.size() < 2 || rhs.size() != lhs.size())
    return false;
  MatmulShape shape;
  for (size_t d = 0; d + 2 < lhs.size(); ++d)
    shape.batches *= lhs[d];
  shape.m = lhs[lhs.size() - 2];
  shape.k = lhs.back();
  shape.n = rhs.back();
  // A product over nothing is zeros, which the host path writes; sizes
  // beyond the libraries' 32-bit counts go there too.
  constexpr int64_t kMaxLibrarySize = std::numeric_limits<int32_t>::max();
  if (shape.k == 0 || shape.batches > kMaxLibrarySize || shape.m > kMaxLibrarySize ||
      shape.n > kMaxLibrarySize || shape.k > kMaxLibrarySize)
    return false;
  absl::StatusOr<GpuMatmul *> matmul = context_->matmul();
  // No library installed (docs/nvidia.md, docs/amd.md), or not this type:
  // the host path.
  if (!matmul.ok() || !(*matmul)->supports(type))
    return false;
  XS_ASSIGN_OR_RETURN(int64_t workspaceBytes, (*matmul)->workspaceBytes(type, shape));
  DevicePointer workspace = 0;
  if (workspaceBytes > 0) {
    std::shared_ptr<void> block = context_->deviceMemory()->allocate(workspaceBytes);
    if (block == nullptr)
      return absl::ResourceExhaustedError(strCat("out of GPU memory on ", context_->name(),
                                                 " allocating the BLAS library's workspace (",
                                                 workspaceBytes, " bytes) for @", plan_.function));
    workspace = address(block);
    call.held.push_back(std::move(block));
  }
  XS_RETURN_IF_ERROR((*matmul)->run(type, shape, call.data[a], call.data[b], call.data[c],
                                    workspace, call.stream->get()));
  return true;
}

absl::Status GpuExecutable::runLibrary(const HostStep &step, CallState &call) const {
  XS_ASSIGN_OR_RETURN(bool onGpu, runDotOnGpu(step, call));
  if (onGpu)
    return finishLaunch(*context_, call.stream->get(), std::string(mnemonic(step.libraryOp)));
  const GpuContext &ctx = *context_;
  const GpuDriver &driver = ctx.driver();
  StreamHandle s = call.stream->get();
  // Operands on the host: copied back once the work queued before is done.
  std::vector<std::shared_ptr<void>> host;
  std::vector<TensorView> views;
  for (int index : step.buffers) {
    size_t b = static_cast<size_t>(index);
    int64_t bytes = call.layout.bytes[b];
    host.push_back(ctx.hostMemory()->allocate(bytes));
    if (host.back() == nullptr)
      return absl::ResourceExhaustedError(strCat("out of host memory for %", plan_.buffers[b].name,
                                                 " of ", mnemonic(step.libraryOp)));
    TensorView view;
    view.type = plan_.buffers[b].type.elementType();
    view.shape = call.layout.shapes[b];
    view.data = host.back().get();
    views.push_back(std::move(view));
  }
  for (size_t i = 0; i + 1 < step.buffers.size(); ++i) {
    size_t b = static_cast<size_t>(step.buffers[i]);
    if (call.layout.bytes[b] > 0)
      XS_RETURN_IF_ERROR(ctx.check(driver.copyToHostAsync(
          views[i].data, call.data[b], static_cast<size_t>(call.layout.bytes[b]), s)));
  }
  XS_RETURN_IF_ERROR(call.stream->synchronize());
  TensorView result = views.back();
  views.pop_back();
  XS_RETURN_IF_ERROR(runCpuLibraryOp(step.libraryOp, views, result));
  size_t b = static_cast<size_t>(step.buffers.back());
  if (call.layout.bytes[b] > 0) {
    XS_RETURN_IF_ERROR(ctx.check(driver.copyToDeviceAsync(
        call.data[b], result.data, static_cast<size_t>(call.layout.bytes[b]), s)));
    // The host copy returns to its cache when this function ends.
    XS_RETURN_IF_ERROR(call.stream->synchronize());
  }
  return absl::OkStatus();
}

} // namespace xs::gpu
