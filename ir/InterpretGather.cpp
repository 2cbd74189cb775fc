// Indexed reads: gather (numpy take) and take_along_axis. Negative indices
// count from the end; an index outside [-d, d) is a run-time error naming
// the index, its position and the dim.

#include "absl/strings/str_join.h"
#include "ir/InterpreterInternal.h"

namespace xs::interp {
namespace {

/// Resolves a possibly negative index into [0, dim), or reports it.
absl::StatusOr<int64_t> resolveIndex(const OpContext &ctx, const HostTensor &indices,
                                     int64_t position, int64_t dim) {
  int64_t raw = indices.ints()[static_cast<size_t>(position)];
  int64_t resolved = raw < 0 ? raw + dim : raw;
  if (resolved < 0 || resolved >= dim) {
    std::vector<int64_t> where;
    unravelIndex(position, indices.shape(), where);
    return ctx.error("index ", raw, " at position [", absl::StrJoin(where, ", "),
                     "] of the indices is out of range for a dim of size ", dim, " (valid: ", -dim,
                     " to ", dim - 1, ")");
  }
  return resolved;
}

absl::Status checkIndices(const OpContext &ctx, const HostTensor &indices) {
  if (indices.isFloat() || indices.elementType() == ElementType::I1)
    return ctx.error("indices are ", indices.typeStr(), " but must be an integer type");
  return absl::OkStatus();
}

absl::StatusOr<HostTensor> evaluateGatherOp(const OpContext &ctx) {
  const HostTensor &x = ctx.operand(0);
  const HostTensor &indices = ctx.operand(1);
  int64_t axis = ctx.op.intAttrOr("dim", 0);
  if (absl::Status s = checkAxis(ctx, "dim", axis, x.rank()); !s.ok())
    return s;
  if (absl::Status s = checkIndices(ctx, indices); !s.ok())
    return s;
  size_t k = static_cast<size_t>(axis);
  std::vector<int64_t> expected(x.shape().begin(), x.shape().begin() + axis);
  expected.insert(expected.end(), indices.shape().begin(), indices.shape().end());
  expected.insert(expected.end(), x.shape().begin() + axis + 1, x.shape().end());
  if (expected != ctx.resultShape)
    return ctx.error("operands ", x.typeStr(), " and ", indices.typeStr(),
                     " do not give the result shape [", absl::StrJoin(ctx.resultShape, ", "), "]");
  HostTensor result = ctx.makeResult();
  std::vector<int64_t> xStrides = x.strides();
  std::vector<int64_t> indexStrides = indices.strides();
  size_t indexRank = static_cast<size_t>(indices.rank());
  std::vector<int64_t> index;
  for (int64_t i = 0; i < result.numElements(); ++i) {
    unravelIndex(i, ctx.resultShape, index);
    int64_t position = 0;
    for (size_t j = 0; j < indexRank; ++j)
      position += index[k + j] * indexStrides[j];
    absl::StatusOr<int64_t> selected = resolveIndex(ctx, indices, position, x.shape()[k]);
    if (!selected.ok())
      return selected.status();
    int64_t source = *selected * xStrides[k];
    for (size_t d = 0; d < k; ++d)
      source += index[d] * xStrides[d];
    for (size_t d = k + 1; d < static_cast<size_t>(x.rank()); ++d)
      source += index[d - 1 + indexRank] * xStrides[d];
    copyElement(x, source, result, i);
  }
  return result;
}

absl::StatusOr<HostTensor> evaluateTakeAlongAxis(const OpContext &ctx) {
  const HostTensor &x = ctx.operand(0);
  const HostTensor &indices = ctx.operand(1);
  int64_t axis = ctx.op.intAttrOr("dim", 0);
  if (absl::Status s = checkAxis(ctx, "dim", axis, x.rank()); !s.ok())
    return s;
  if (absl::Status s = checkIndices(ctx, indices); !s.ok())
    return s;
  size_t k = static_cast<size_t>(axis);
  bool matches = indices.rank() == x.rank() && indices.shape() == ctx.resultShape;
  for (size_t d = 0; matches && d < static_cast<size_t>(x.rank()); ++d)
    matches = d == k || indices.shape()[d] == x.shape()[d];
  if (!matches)
    return ctx.error("indices ", indices.typeStr(), " must have the dims of ", x.typeStr(),
                     " except dim ", axis);
  HostTensor result = ctx.makeResult();
  std::vector<int64_t> xStrides = x.strides();
  std::vector<int64_t> index;
  for (int64_t i = 0; i < result.numElements(); ++i) {
    unravelIndex(i, ctx.resultShape, index);
    absl::StatusOr<int64_t> selected = resolveIndex(ctx, indices, i, x.shape()[k]);
    if (!selected.ok())
      return selected.status();
    index[k] = *selected;
    copyElement(x, linearIndex(index, xStrides), result, i);
  }
  return result;
}

} // namespace

absl::StatusOr<HostTensor> evaluateGather(const OpContext &ctx) {
  if (ctx.operand(0).elementType() != ctx.resultType)
    return ctx.error("operand ", ctx.operand(0).typeStr(),
                     " does not have the result's element type");
  if (ctx.op.kind() == OpKind::Gather)
    return evaluateGatherOp(ctx);
  return evaluateTakeAlongAxis(ctx);
}

} // namespace xs::interp
