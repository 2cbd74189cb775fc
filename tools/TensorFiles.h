#ifndef XSTITCH_TOOLS_TENSORFILES_H
#define XSTITCH_TOOLS_TENSORFILES_H

// Tensor files by extension: `.pb` is a serialized ONNX TensorProto (ONNX
// test data), anything else NumPy's .npy.

#include <string>

#include "absl/status/statusor.h"
#include "ir/HostTensor.h"

namespace xs {

absl::StatusOr<HostTensor> readTensorFile(const std::string &path);
absl::Status writeTensorFile(const std::string &path, const HostTensor &tensor);

} // namespace xs

#endif // XSTITCH_TOOLS_TENSORFILES_H
