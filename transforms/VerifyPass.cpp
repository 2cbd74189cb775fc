#include "transforms/VerifyPass.h"

#include "ir/Verifier.h"

namespace xs {

absl::StatusOr<bool> runVerifyPass(Function &function) {
  VerifyOptions options;
  options.requireKnownTypes = false;
  if (absl::Status s = verifyFunction(function, options); !s.ok())
    return s;
  return false;
}

} // namespace xs
