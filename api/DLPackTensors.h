#ifndef XSTITCH_API_DLPACKTENSORS_H
#define XSTITCH_API_DLPACKTENSORS_H

// DLPack tensors and the runtime's: element types, the checks a caller's
// DLTensor must pass (type, device, strides), compact copies of strided CPU
// inputs, and the DLManagedTensors xstitch hands out.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "api/ApiObjects.h"
#include "runtime/Tensor.h"
#include "runtime/devices/DeviceSpec.h"

namespace xs::api {

/// The DLPack device of a GPU device (cuda:N: kDLCUDA, hip:N: kDLROCM);
/// nullopt for devices whose tensors are in host memory.
std::optional<DLDevice> dlpackGpuOf(const DeviceSpec &device);

/// The DLPack type of an element type (i1 as uint8: DLPack 0.6 has no bool).
DLDataType dlpackType(ElementType type);
/// Whether a caller's tensor of `dtype` can be an `expected` one (i1 also
/// takes DLPack's bool, code 6).
bool acceptsDlpackType(ElementType expected, DLDataType dtype);
/// "float32", "bfloat16", "uint8", "int64x4", ...
std::string dlpackTypeName(DLDataType dtype);

/// The runtime's views of a run's tensors, and what they keep alive.
struct RunTensors {
  std::vector<TensorView> inputs;
  std::vector<TensorView> outputs; // empty, or one per output (data null: allocated)
  bool deviceMemory = false;       // on the executable's GPU
  std::vector<std::shared_ptr<void>> compactCopies;
  int64_t bytesCopied = 0;
};

/// Checks `inputs` against the executable's inputs (count, dtype, rank,
/// device, strides) and views them; strided CPU inputs are read through a
/// compact copy. Errors are InvalidArgument naming the input.
absl::StatusOr<RunTensors> viewInputs(const xs_executable_s &executable, const DLTensor *inputs,
                                      size_t numInputs);

/// Adds views of caller-provided `outputs` (as xs_run_args_t::outputs) to
/// `tensors`; they must be compact and on the inputs' side (host or GPU).
absl::Status viewOutputs(const xs_executable_s &executable, const DLTensor *outputs,
                         size_t numOutputs, RunTensors &tensors);

/// A DLManagedTensor over `storage` (which it keeps alive) on `device`;
/// deleted with its own deleter.
DLManagedTensor *newManagedTensor(std::shared_ptr<void> storage, ElementType type,
                                  const std::vector<int64_t> &shape, DLDevice device);
/// Another managed tensor sharing a tensor newManagedTensor made, or
/// nullptr when `tensor` is not one.
DLManagedTensor *shareManagedTensor(const DLManagedTensor *tensor);

} // namespace xs::api

#endif // XSTITCH_API_DLPACKTENSORS_H
