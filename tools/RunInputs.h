#ifndef XSTITCH_TOOLS_RUNINPUTS_H
#define XSTITCH_TOOLS_RUNINPUTS_H

// xstitch-run's input binding: turns --input, --dim and --seed into one
// HostTensor per function parameter and the values of every symbolic dim.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/HostTensor.h"
#include "ir/IR.h"

namespace xs {

struct InputRequest {
  std::vector<std::string> inputs; // NAME=PATH or NAME=random[:LO:HI]
  std::vector<std::string> dims;   // SYM=N
  uint64_t seed = 0;
  /// Parameters without an --input are random (--random-inputs); false:
  /// they are an error that names them all.
  bool randomUnspecified = false;
  /// How the user spells a symbol in --dim where it differs from the
  /// symbol: an ONNX dim_param ("batch size" for batch_size).
  std::map<std::string, std::string> dimSpellings;
};

struct BoundInputs {
  std::vector<HostTensor> tensors;  // one per parameter, in order
  DimBindings dims;                 // every symbol of the signature
  std::vector<std::string> sources; // per parameter: the path or "random"
  /// What was generated: "%ids: i64[2, 5] in [0, 30522) (indices into a
  /// dim of 30522)", one per random parameter.
  std::vector<std::string> randomDescriptions;
};

/// Parameters given `random` (or, with randomUnspecified, not given) are
/// random: floats in [-2, 2), integers in
/// a range valid for what they feed (indices within the dim they index,
/// 0 and 1 where they are compared or cast to i1), else [0, 8). Dims come
/// from .npy shapes and --dim; random inputs whose shapes mention unbound
/// symbols are an error that says which --dim to pass for each.
absl::StatusOr<BoundInputs> bindInputs(const Function &function, const InputRequest &request);

/// Splits `NAME=VALUE`; the error mentions `flag`.
absl::StatusOr<std::pair<std::string, std::string>> splitAssignment(const std::string &text,
                                                                    std::string_view flag);

} // namespace xs

#endif // XSTITCH_TOOLS_RUNINPUTS_H
