#include "runtime/ResultPlacement.h"

#include <algorithm>

#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"

namespace xs {

std::string resultName(const HostPlan &plan, size_t index) {
  return strCat("%", plan.buffers[static_cast<size_t>(plan.outputs[index])].name);
}

absl::StatusOr<ResultPlacement> placeResults(const HostPlan &plan, const BufferLayout &layout,
                                             const std::vector<TensorView> &outputs,
                                             bool kernelsReach, int64_t alignment) {
  size_t numResults = plan.outputs.size();
  if (!outputs.empty() && outputs.size() != numResults)
    return absl::InvalidArgumentError(strCat("@", plan.function, " has ", numResults,
                                             " results but ", outputs.size(),
                                             " outputs were given"));
  ResultPlacement placement;
  placement.source.resize(numResults);
  placement.writtenInto.assign(plan.buffers.size(), -1);
  placement.handedOver.assign(numResults, false);
  placement.provided.assign(numResults, false);
  std::vector<bool> taken(plan.buffers.size(), false);
  for (size_t r = 0; r < numResults; ++r) {
    size_t source = aliasTarget(plan, static_cast<size_t>(plan.outputs[r]));
    placement.source[r] = source;
    const HostBuffer &buffer = plan.buffers[source];
    const std::vector<int64_t> &shape = layout.shapes[static_cast<size_t>(plan.outputs[r])];
    ElementType type = plan.buffers[static_cast<size_t>(plan.outputs[r])].type.elementType();
    bool isOwnOutput = buffer.kind == HostBuffer::Kind::Output && !taken[source];
    if (!outputs.empty() && outputs[r].data != nullptr) {
      const TensorView &out = outputs[r];
      if (out.type != type || out.shape != shape)
        return absl::InvalidArgumentError(
            strCat("output ", r, " (result ", resultName(plan, r), ") must be ",
                   elementTypeName(type), "[", absl::StrJoin(shape, ", "), "] but is ",
                   elementTypeName(out.type), "[", absl::StrJoin(out.shape, ", "), "]"));
      placement.provided[r] = true;
      int64_t needed = std::max(alignment, elementByteSize(type));
      bool aligned = reinterpret_cast<uintptr_t>(out.data) % static_cast<uintptr_t>(needed) == 0;
      if (isOwnOutput && kernelsReach && aligned) {
        placement.writtenInto[source] = static_cast<int>(r);
        taken[source] = true;
      }
      continue;
    }
    if (isOwnOutput) {
      placement.handedOver[r] = true;
      taken[source] = true;
    }
  }
  return placement;
}

absl::Status deliverResults(const HostPlan &plan, const BufferLayout &layout,
                            const ResultPlacement &placement,
                            const std::vector<TensorView> &requestedOutputs,
                            const std::vector<std::shared_ptr<void>> &owned,
                            const ResultDelivery &delivery, RunResult &result) {
  size_t numResults = plan.outputs.size();
  result.outputs.resize(numResults);
  result.shapes.resize(numResults);
  for (size_t r = 0; r < numResults; ++r) {
    size_t b = static_cast<size_t>(plan.outputs[r]);
    size_t source = placement.source[r];
    int64_t bytes = layout.bytes[b];
    ElementType type = plan.buffers[b].type.elementType();
    result.shapes[r] = layout.shapes[b];
    if (placement.writtenInto[source] == static_cast<int>(r))
      continue;
    if (delivery.handOver && placement.handedOver[r]) {
      result.outputs[r].emplace(type, result.shapes[r], owned[source]);
      continue;
    }
    // An input, a constant, a buffer another result has, a less aligned
    // destination, or memory on the other side: the result is a copy.
    void *destination = placement.provided[r] ? requestedOutputs[r].data : nullptr;
    std::shared_ptr<void> storage;
    if (destination == nullptr) {
      storage = delivery.allocate(bytes);
      if (storage == nullptr)
        return absl::ResourceExhaustedError(strCat("out of ", delivery.memory,
                                                   " memory for result ", resultName(plan, r), " (",
                                                   bytes, " bytes)"));
      destination = storage.get();
    }
    if (bytes > 0)
      XS_RETURN_IF_ERROR(delivery.copy(destination, source, bytes));
    result.bytesCopied += bytes;
    if (storage != nullptr)
      result.outputs[r].emplace(type, result.shapes[r], std::move(storage));
  }
  return absl::OkStatus();
}

} // namespace xs
