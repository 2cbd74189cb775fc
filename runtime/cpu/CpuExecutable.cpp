#include "runtime/cpu/CpuExecutable.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "absl/status/status.h"
#include "ir/Diagnostics.h"
#include "runtime/HostPlanExecution.h"
#include "runtime/JitCall.h"
#include "runtime/ResultPlacement.h"
#include "runtime/cpu/DenormalFlush.h"
#include "runtime/cpu/LibraryOps.h"
#include "tbb/blocked_range.h"
#include "tbb/parallel_for.h"
#include "tbb/partitioner.h"

namespace xs {

namespace {

XSTITCH_CALLS_JIT_CODE
void callKernel(CpuKernelFn fn, void *const *buffers, int64_t *dims, int64_t begin, int64_t end,
                uint64_t streamMask) {
  fn(buffers, dims, begin, end, streamMask);
}

} // namespace

/// Everything one call of run() owns.
struct CpuExecutable::CallState {
  DimBindings dims;
  BufferLayout layout;
  std::vector<int64_t> symbolValues;
  std::vector<void *> data;                 // per buffer
  std::vector<std::shared_ptr<void>> owned; // per buffer: Output storage, copied inputs
  std::shared_ptr<void> arena;              // temporaries
};

absl::StatusOr<std::shared_ptr<CpuExecutable>>
CpuExecutable::create(CompiledProgram program, std::shared_ptr<CachingAllocator> allocator,
                      std::shared_ptr<tbb::task_arena> arena, const CpuDeviceOptions &options) {
  if (absl::Status s = checkHostPlan(program.host); !s.ok())
    return s;
  std::shared_ptr<CpuExecutable> executable(new CpuExecutable());
  executable->plan_ = std::move(program.host);
  executable->allocator_ = std::move(allocator);
  executable->arena_ = std::move(arena);
  executable->flushDenormals_ = options.flushDenormals;
  executable->deviceName_ = options.name;
  executable->inputAlignment_ = std::max<int64_t>(options.inputAlignment, 1);
  executable->streamingStoreBytes_ = program.streamingStoreBytes;
  const HostPlan &plan = executable->plan_;

  std::vector<std::string> kernelNames;
  for (const HostStep &step : plan.steps)
    if (step.kind == HostStep::Kind::Launch)
      kernelNames.push_back(step.kernel);
  if (!kernelNames.empty()) {
    if (program.objectFormat != "x86_64-elf")
      return absl::InternalError(strCat("the CPU device cannot load object format '",
                                        program.objectFormat, "' (kernels of @", plan.function,
                                        ")"));
    absl::StatusOr<std::unique_ptr<LoadedObject>> object =
        LoadedObject::load(program.objects, kernelNames, options.hostSymbols);
    if (!object.ok())
      return object.status();
    executable->object_ = *std::move(object);
  }
  executable->kernels_.resize(plan.steps.size());
  executable->cooperative_.resize(plan.steps.size());
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const HostStep &step = plan.steps[s];
    if (step.kind != HostStep::Kind::Launch)
      continue;
    for (const HostLaunchVariant &variant : step.variants) {
      CpuKernelFn cooperative = nullptr;
      if (variant.cooperative && options.cooperativeLaunches) {
        absl::StatusOr<CpuKernelFn> fn =
            executable->object_->lookup(step.kernel, cooperativeSymbol(variant.symbol));
        if (!fn.ok())
          return fn.status();
        cooperative = *fn;
      }
      executable->cooperative_[s].push_back(cooperative);
      std::vector<CpuKernelFn> phases;
      for (int p = 0; p < variant.phases; ++p) {
        absl::StatusOr<CpuKernelFn> fn =
            executable->object_->lookup(step.kernel, phaseSymbol(variant.symbol, p));
        if (!fn.ok())
          return fn.status();
        phases.push_back(*fn);
      }
      executable->kernels_[s].push_back(std::move(phases));
    }
  }

  executable->constants_.resize(plan.buffers.size());
  for (size_t b = 0; b < plan.buffers.size(); ++b) {
    const HostBuffer &buffer = plan.buffers[b];
    if (buffer.kind != HostBuffer::Kind::Constant)
      continue;
    XS_ASSIGN_OR_RETURN(executable->constants_[b], constantTensor(buffer));
  }
  return executable;
}

absl::StatusOr<RunResult> CpuExecutable::execute(const RunRequest &request, RunStats *stats) const {
  const std::vector<TensorView> &inputs = request.inputs;
  CallState call;
  XS_ASSIGN_OR_RETURN(call.dims, bindInputDims(plan_, inputs));
  XS_ASSIGN_OR_RETURN(call.layout, layoutBuffers(plan_, call.dims));
  XS_ASSIGN_OR_RETURN(call.symbolValues, symbolValues(plan_, call.dims));
  XS_ASSIGN_OR_RETURN(
      ResultPlacement placement,
      placeResults(plan_, call.layout, request.outputs, /*kernelsReach=*/true, inputAlignment_));
  RunResult result;

  size_t numBuffers = plan_.buffers.size();
  call.data.assign(numBuffers, nullptr);
  call.owned.resize(numBuffers);
  if (call.layout.arenaBytes > 0) {
    call.arena = allocator_->allocate(call.layout.arenaBytes);
    if (call.arena == nullptr)
      return absl::ResourceExhaustedError(strCat("out of memory allocating ",
                                                 call.layout.arenaBytes,
                                                 " bytes of temporaries for @", plan_.function));
  }
  for (size_t b = 0; b < numBuffers; ++b) {
    const HostBuffer &buffer = plan_.buffers[b];
    switch (buffer.kind) {
    case HostBuffer::Kind::Input: {
      const TensorView &input = inputs[static_cast<size_t>(buffer.paramIndex)];
      call.data[b] = input.data;
      int64_t alignment = std::max(inputAlignment_, elementByteSize(input.type));
      if (call.layout.bytes[b] == 0 ||
          reinterpret_cast<uintptr_t>(input.data) % static_cast<uintptr_t>(alignment) == 0)
        break;
      // Less aligned than the kernels rely on: they read a copy.
      call.owned[b] = allocator_->allocate(call.layout.bytes[b]);
      if (call.owned[b] == nullptr)
        return absl::ResourceExhaustedError(strCat("out of memory copying input %", buffer.name,
                                                   " (", call.layout.bytes[b], " bytes)"));
      std::memcpy(call.owned[b].get(), input.data, static_cast<size_t>(call.layout.bytes[b]));
      result.bytesCopied += call.layout.bytes[b];
      call.data[b] = call.owned[b].get();
      break;
    }
    case HostBuffer::Kind::Output:
      if (int r = placement.writtenInto[b]; r >= 0) {
        call.data[b] = request.outputs[static_cast<size_t>(r)].data;
        break;
      }
      call.owned[b] = allocator_->allocate(call.layout.bytes[b]);
      if (call.owned[b] == nullptr)
        return absl::ResourceExhaustedError(strCat("out of memory allocating output %", buffer.name,
                                                   " (", call.layout.bytes[b], " bytes)"));
      call.data[b] = call.owned[b].get();
      break;
    case HostBuffer::Kind::Temporary:
      call.data[b] = static_cast<char *>(call.arena.get()) +
                     call.layout.slotOffsets[static_cast<size_t>(buffer.slot)];
      break;
    case HostBuffer::Kind::Constant:
      // Kernels only read constants; the ABI passes every buffer as void*.
      call.data[b] = const_cast<void *>(constants_[b]->data());
      break;
    case HostBuffer::Kind::Alias:
      break;
    }
  }
  // Aliases view their (possibly aliased) source.
  for (size_t b = 0; b < numBuffers; ++b)
    call.data[b] = call.data[aliasTarget(plan_, b)];

  if (stats != nullptr) {
    stats->dims = call.dims;
    stats->steps.clear();
  }
  absl::Status status;
  arena_->execute([&] { status = runSteps(call, stats); });
  if (!status.ok())
    return status;
  // What the kernels' data checks found (an index out of range, ...).
  XS_RETURN_IF_ERROR(checkStatusWord(
      plan_, static_cast<uint64_t>(call.symbolValues[plan_.symbols.size()]), call.dims));

  ResultDelivery delivery;
  delivery.memory = "host";
  delivery.allocate = [&](int64_t bytes) { return allocator_->allocate(bytes); };
  delivery.copy = [&](void *destination, size_t buffer, int64_t bytes) {
    std::memcpy(destination, call.data[buffer], static_cast<size_t>(bytes));
    return absl::OkStatus();
  };
  XS_RETURN_IF_ERROR(
      deliverResults(plan_, call.layout, placement, request.outputs, call.owned, delivery, result));
  return result;
}

absl::Status CpuExecutable::runSteps(CallState &call, RunStats *stats) const {
  return runHostSteps(plan_, stats, [&](const HostStep &step, size_t index) {
    return step.kind == HostStep::Kind::Launch ? launch(step, index, call) : runLibrary(step, call);
  });
}

absl::Status CpuExecutable::launch(const HostStep &step, size_t stepIndex, CallState &call) const {
  absl::StatusOr<size_t> variant = chooseVariant(step, call.dims);
  if (!variant.ok())
    return variant.status();
  absl::StatusOr<int64_t> grid =
      launchQuantity(step, "grid", step.variants[*variant].grid, call.dims);
  if (!grid.ok())
    return grid.status();
  if (*grid == 0 && !step.variants[*variant].ownBlockGroups)
    return absl::OkStatus();
  *grid = std::max<int64_t>(*grid, 1);
  std::vector<void *> arguments;
  arguments.reserve(step.buffers.size());
  uint64_t streamMask = 0;
  for (size_t a = 0; a < step.buffers.size(); ++a) {
    size_t b = static_cast<size_t>(step.buffers[a]);
    arguments.push_back(call.data[b]);
    if (streamingStoreBytes_ > 0 && a < kStreamMaskBits &&
        call.layout.bytes[b] >= streamingStoreBytes_)
      streamMask |= uint64_t(1) << a;
  }
  int64_t *dims = call.symbolValues.data();
  int64_t workers = std::max(1, tbb::this_task_arena::max_concurrency());
  // The plan's vertical packing: a task runs up to blocksPerTask
  // consecutive blocks.
  absl::StatusOr<int64_t> packed =
      launchQuantity(step, "blocks per task", step.variants[*variant].blocksPerTask, call.dims);
  if (!packed.ok())
    return packed.status();
  int64_t grain = std::max<int64_t>(1, *packed);
  if (CpuKernelFn cooperative = cooperative_[stepIndex][*variant]) {
    // It runs its blocks together, waiting for each other between phases.
    ScopedDenormalFlush flush(flushDenormals_);
    callKernel(cooperative, arguments.data(), dims, 0, *grid, streamMask);
    return absl::OkStatus();
  }
  // Each phase is one parallel round over the grid; the end of the round is
  // the grid barrier.
  for (CpuKernelFn fn : kernels_[stepIndex][*variant]) {
    if (*grid == 1 || workers == 1) {
      // One block or one worker: run on the calling thread, without TBB.
      ScopedDenormalFlush flush(flushDenormals_);
      callKernel(fn, arguments.data(), dims, 0, *grid, streamMask);
      continue;
    }
    tbb::parallel_for(
        tbb::blocked_range<int64_t>(0, *grid, static_cast<size_t>(grain)),
        [&](const tbb::blocked_range<int64_t> &range) {
          ScopedDenormalFlush flush(flushDenormals_);
          callKernel(fn, arguments.data(), dims, range.begin(), range.end(), streamMask);
        },
        tbb::simple_partitioner());
  }
  return absl::OkStatus();
}

absl::Status CpuExecutable::runLibrary(const HostStep &step, CallState &call) const {
  auto view = [&](int index) {
    size_t b = static_cast<size_t>(index);
    TensorView v;
    v.type = plan_.buffers[b].type.elementType();
    v.shape = call.layout.shapes[b];
    v.data = call.data[b];
    return v;
  };
  std::vector<TensorView> operands;
  for (size_t i = 0; i + 1 < step.buffers.size(); ++i)
    operands.push_back(view(step.buffers[i]));
  return runCpuLibraryOp(step.libraryOp, operands, view(step.buffers.back()));
}

} // namespace xs
