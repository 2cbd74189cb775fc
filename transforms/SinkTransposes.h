#ifndef XSTITCH_TRANSFORMS_SINKTRANSPOSES_H
#define XSTITCH_TRANSFORMS_SINKTRANSPOSES_H

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// Transposes move toward the results, through the ops that do not care in
/// which order their elements are laid out, until they meet their inverse:
///   - an element-wise op whose operands are transposes by one perm p,
///     broadcasts, or splat constants runs in the transposes' operand order,
///     and one transpose by p moves to its result:
///       sub(transpose(x, p), broadcast(m)) -> transpose(sub(x, broadcast'(m)), p)
///     (a broadcast is kept only where its dims mapping, in that order, is
///     still increasing);
///   - a reduction of a transpose reduces the transpose's operand over the
///     dims they were, where those are one run of adjacent dims; a transpose
///     of what the reduction keeps follows it where the kept dims change
///     order.
/// A LayerNorm over the channels of [B, C, H, W], as PyTorch exports
/// ConvNeXt's (permute to channels last, normalize, permute back), then
/// reduces over C in place and the two permutes meet and cancel (through
/// algebraic-simplify, which composes transposes). Values are unchanged
/// (the same ops on the same elements; a sum may add in another order).
/// Precondition: types known. Returns whether the function changed.
absl::StatusOr<bool> runSinkTransposes(Function &function);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_SINKTRANSPOSES_H
