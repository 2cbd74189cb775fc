#ifndef XSTITCH_TOOLS_COMMON_EXITCODES_H
#define XSTITCH_TOOLS_COMMON_EXITCODES_H

// Exit codes shared by the xstitch tools.

#include "absl/status/status.h"

namespace xs {

inline constexpr int kExitOk = 0;
inline constexpr int kExitMismatch = 1; // a comparison failed
// Bad file, flag, shape, dtype, unbound dim, unsupported op, or inputs the
// graph refuses (an index out of range, an integer division by zero).
inline constexpr int kExitUserError = 2;
inline constexpr int kExitInternal = 3; // a bug in xstitch

/// User mistakes (InvalidArgument, Unimplemented, NotFound, OutOfRange,
/// FailedPrecondition, ResourceExhausted, DataLoss: a corrupt file) exit 2;
/// everything else 3.
inline int exitCodeFor(const absl::Status &s) {
  switch (s.code()) {
  case absl::StatusCode::kOk:
    return kExitOk;
  case absl::StatusCode::kInvalidArgument:
  case absl::StatusCode::kUnimplemented:
  case absl::StatusCode::kNotFound:
  case absl::StatusCode::kOutOfRange:
  case absl::StatusCode::kFailedPrecondition:
  case absl::StatusCode::kResourceExhausted:
  case absl::StatusCode::kDataLoss:
    return kExitUserError;
  default:
    return kExitInternal;
  }
}

} // namespace xs

#endif // XSTITCH_TOOLS_COMMON_EXITCODES_H
