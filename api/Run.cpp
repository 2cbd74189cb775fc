// Runs: DLPack tensors in, results written into the caller's tensors or
// handed out as DLManagedTensors; and the process's counters.

#include <atomic>

#include "api/ApiObjects.h"
#include "api/DLPackTensors.h"
#include "driver/CompileCache.h"
#include "ir/Diagnostics.h"
#include "runtime/HostPlanExecution.h"

using namespace xs;
using namespace xs::api;

namespace {

std::atomic<uint64_t> runCount{0};
std::atomic<uint64_t> bytesCopiedCount{0};

absl::Status runExecutable(const xs_executable_t *executable, const xs_run_args_t *args) {
  XS_ASSIGN_OR_RETURN(ApiObject * object,
                      lookupObject(executable, ObjectKind::Executable, "executable"));
  const auto &exe = *static_cast<const xs_executable_s *>(object);
  if (args == nullptr)
    return absl::InvalidArgumentError("xs_executable_run: args is NULL");
  if (args->struct_size < offsetof(xs_run_args_t, num_inputs) + sizeof(args->num_inputs))
    return absl::InvalidArgumentError(
        "xs_executable_run: args->struct_size is not set; call xs_run_args_init first");
  XS_ASSIGN_OR_RETURN(RunTensors tensors, viewInputs(exe, XS_API_FIELD(args, inputs, nullptr),
                                                     XS_API_FIELD(args, num_inputs, size_t{0})));
  XS_RETURN_IF_ERROR(viewOutputs(exe, XS_API_FIELD(args, outputs, nullptr),
                                 XS_API_FIELD(args, num_outputs, size_t{0}), tensors));
  DLManagedTensor **managed = XS_API_FIELD(args, out_managed, nullptr);
  size_t numOutputs = exe.outputs.size();
  bool allProvided = tensors.outputs.size() == numOutputs;
  for (const TensorView &view : tensors.outputs)
    allProvided &= view.data != nullptr;
  if (!allProvided && managed == nullptr && numOutputs > 0)
    return absl::InvalidArgumentError(
        "xs_executable_run: out_managed is NULL but not every output is provided in outputs; "
        "pass an array of one DLManagedTensor* per output");

  RunRequest request;
  request.inputs = std::move(tensors.inputs);
  request.outputs = std::move(tensors.outputs);
  request.deviceMemory = tensors.deviceMemory;
  request.stream = exe.gpu ? XS_API_FIELD(args, stream, nullptr) : nullptr;
  auto stepTimer = XS_API_FIELD(args, step_timer, nullptr);
  RunStats stats;
  XS_ASSIGN_OR_RETURN(RunResult result,
                      exe.executable->execute(request, stepTimer != nullptr ? &stats : nullptr));

  DLDevice device{kDLCPU, 0};
  if (request.deviceMemory)
    device = *exe.gpu;
  // Hand out every allocated output, or none: an error frees what was made.
  std::vector<DLManagedTensor *> made(numOutputs, nullptr);
  try {
    for (size_t i = 0; i < numOutputs; ++i)
      if (result.outputs[i])
        made[i] = newManagedTensor(result.outputs[i]->storage(), exe.outputs[i].type,
                                   result.shapes[i], device);
  } catch (...) {
    for (DLManagedTensor *t : made)
      if (t != nullptr)
        t->deleter(t);
    throw;
  }
  if (managed != nullptr)
    for (size_t i = 0; i < numOutputs; ++i)
      managed[i] = made[i];
  runCount.fetch_add(1, std::memory_order_relaxed);
  if (stepTimer != nullptr) {
    void *data = XS_API_FIELD(args, step_timer_data, nullptr);
    for (const KernelTiming &step : stats.steps)
      stepTimer(data, step.kernel.c_str(), step.seconds);
  }
  bytesCopiedCount.fetch_add(static_cast<uint64_t>(result.bytesCopied + tensors.bytesCopied),
                             std::memory_order_relaxed);
  return absl::OkStatus();
}

absl::Status outputShapes(const xs_executable_t *executable, const DLTensor *inputs,
                          size_t numInputs, int64_t *out_shapes, size_t capacity,
                          size_t *out_count) {
  XS_ASSIGN_OR_RETURN(ApiObject * object,
                      lookupObject(executable, ObjectKind::Executable, "executable"));
  const auto &exe = *static_cast<const xs_executable_s *>(object);
  if (out_count == nullptr)
    return absl::InvalidArgumentError("xs_executable_output_shapes: out_count is NULL");
  if (capacity > 0 && out_shapes == nullptr)
    return absl::InvalidArgumentError("xs_executable_output_shapes: out_shapes is NULL");
  XS_ASSIGN_OR_RETURN(RunTensors tensors, viewInputs(exe, inputs, numInputs));
  XS_ASSIGN_OR_RETURN(const Executable *resolved, exe.executable->resolve(tensors.inputs));
  const HostPlan &plan = resolved->plan();
  if (plan.hostSymbols != nullptr && tensors.deviceMemory)
    return absl::UnimplementedError(
        strCat("@", exe.function,
               " computes dims from its inputs' values; pass its inputs "
               "in host memory to know the output shapes ahead of a run"));
  XS_ASSIGN_OR_RETURN(DimBindings dims, bindInputDims(plan, tensors.inputs));
  XS_ASSIGN_OR_RETURN(BufferLayout layout, layoutBuffers(plan, dims));
  std::vector<int64_t> values;
  for (int output : plan.outputs)
    for (int64_t d : layout.shapes[static_cast<size_t>(output)])
      values.push_back(d);
  if (capacity >= values.size())
    std::copy(values.begin(), values.end(), out_shapes);
  else if (capacity > 0)
    return absl::InvalidArgumentError(strCat("xs_executable_output_shapes: the shapes need ",
                                             values.size(), " values but capacity is ", capacity));
  *out_count = values.size();
  return absl::OkStatus();
}

} // namespace

extern "C" {

xs_status_t xs_executable_run(const xs_executable_t *executable, const xs_run_args_t *args) {
  return guarded([&] { return runExecutable(executable, args); });
}

xs_status_t xs_executable_output_shapes(const xs_executable_t *executable, const DLTensor *inputs,
                                        size_t num_inputs, int64_t *out_shapes, size_t capacity,
                                        size_t *out_count) {
  return guarded([&] {
    return outputShapes(executable, inputs, num_inputs, out_shapes, capacity, out_count);
  });
}

xs_status_t xs_tensor_share(const DLManagedTensor *tensor, DLManagedTensor **out_tensor) {
  return guarded([&]() -> absl::Status {
    if (out_tensor == nullptr)
      return absl::InvalidArgumentError("xs_tensor_share: out_tensor is NULL");
    DLManagedTensor *shared = shareManagedTensor(tensor);
    if (shared == nullptr)
      return absl::InvalidArgumentError(
          "xs_tensor_share: the tensor was not allocated by xstitch (only out_managed tensors "
          "of xs_executable_run can be shared)");
    *out_tensor = shared;
    return absl::OkStatus();
  });
}

xs_status_t xs_stats_get(xs_stats_t *out_stats) {
  return guarded([&]() -> absl::Status {
    if (out_stats == nullptr)
      return absl::InvalidArgumentError("xs_stats_get: out_stats is NULL");
    if (out_stats->struct_size < offsetof(xs_stats_t, compilations) + sizeof(uint64_t))
      return absl::InvalidArgumentError(
          "xs_stats_get: out_stats->struct_size is not set; call xs_stats_init first");
    CompilerCounters compiler = compilerCounters();
    XS_API_SET(out_stats, compilations, static_cast<uint64_t>(compiler.compilations));
    XS_API_SET(out_stats, compile_cache_hits, static_cast<uint64_t>(compiler.cacheHits));
    XS_API_SET(out_stats, runs, runCount.load(std::memory_order_relaxed));
    XS_API_SET(out_stats, bytes_copied, bytesCopiedCount.load(std::memory_order_relaxed));
    XS_API_SET(out_stats, disk_cache_loads, static_cast<uint64_t>(compiler.diskLoads));
    XS_API_SET(out_stats, bundle_loads, static_cast<uint64_t>(compiler.bundleLoads));
    return absl::OkStatus();
  });
}

} // extern "C"
