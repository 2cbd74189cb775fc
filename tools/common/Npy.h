#ifndef XSTITCH_TOOLS_COMMON_NPY_H
#define XSTITCH_TOOLS_COMMON_NPY_H

// Reading and writing NumPy .npy files (format versions 1-3, little-endian,
// C order). bf16 has no NumPy dtype: bf16 tensors are written as f32 files and
// read from f32 files, rounded to bf16.

#include <string>

#include "absl/status/statusor.h"
#include "ir/HostTensor.h"

namespace xs {

/// Reads `path`. The error names the file and what is wrong with it.
absl::StatusOr<HostTensor> readNpy(const std::string &path);
/// Writes `tensor` to `path` (bf16 as f32).
absl::Status writeNpy(const std::string &path, const HostTensor &tensor);

/// The .npy dtype string for an element type (`<f4`, `|b1`, ...).
std::string npyDescr(ElementType t);

} // namespace xs

#endif // XSTITCH_TOOLS_COMMON_NPY_H
