#ifndef XSTITCH_RUNTIME_CPU_LIBRARYOPS_H
#define XSTITCH_RUNTIME_CPU_LIBRARYOPS_H

// Library ops the CPU runtime runs itself (HostStep::Kind::Library): ops that
// are not memory-intensive and so are not compiled into kernels. They run on
// the calling thread's TBB arena (CpuExecutable calls them inside its arena).

#include <vector>

#include "absl/status/status.h"
#include "ir/OpInfo.h"
#include "runtime/Tensor.h"

namespace xs {

/// Batched matrix product [..., M, K] x [..., K, N] -> [..., M, N] into
/// `result` (memory of the right size). Every element type: f32/f64
/// accumulate in their own type, f16/bf16 in f32 (rounded once to the
/// result type), integers modulo 2^64 wrapped to the width, i1 as "any".
absl::Status cpuDot(const TensorView &lhs, const TensorView &rhs, const TensorView &result);

/// Runs library op `op` on `operands` into `result`; an op the CPU runtime
/// does not implement is an Unimplemented error.
absl::Status runCpuLibraryOp(OpKind op, const std::vector<TensorView> &operands,
                             const TensorView &result);

} // namespace xs

#endif // XSTITCH_RUNTIME_CPU_LIBRARYOPS_H
