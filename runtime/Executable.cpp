#include "runtime/Executable.h"

namespace xs {

absl::StatusOr<std::vector<Tensor>> Executable::run(const std::vector<TensorView> &inputs,
                                                    RunStats *stats) const {
  RunRequest request;
  request.inputs = inputs;
  absl::StatusOr<RunResult> result = execute(request, stats);
  if (!result.ok())
    return result.status();
  std::vector<Tensor> outputs;
  outputs.reserve(result->outputs.size());
  for (std::optional<Tensor> &output : result->outputs)
    outputs.push_back(*std::move(output));
  return outputs;
}

} // namespace xs
