#ifndef XSTITCH_TOOLS_RUNINPUTS_H
#define XSTITCH_TOOLS_RUNINPUTS_H

// xstitch-run's input binding: turns --input, --dim and --seed into one
// HostTensor per function parameter and the values of every symbolic dim.

#include <cstdint>
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
};

struct BoundInputs {
  std::vector<HostTensor> tensors;  // one per parameter, in order
  DimBindings dims;                 // every symbol of the signature
  std::vector<std::string> sources; // per parameter: the path or "random"
};

/// Parameters without an --input are random. Dims come from .npy shapes and
/// --dim; a random input whose shape mentions an unbound symbol is an error
/// that says which --dim to pass.
absl::StatusOr<BoundInputs> bindInputs(const Function &function, const InputRequest &request);

/// Splits `NAME=VALUE`; the error mentions `flag`.
absl::StatusOr<std::pair<std::string, std::string>> splitAssignment(const std::string &text,
                                                                    std::string_view flag);

} // namespace xs

#endif // XSTITCH_TOOLS_RUNINPUTS_H
