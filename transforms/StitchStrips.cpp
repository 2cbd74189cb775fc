// Batch-column strips (KernelStitcher.h): statistics over the middle axis of
// [B, C, N] whose batch slabs are too large for one block ([B, 96, 56*56],
// ConvNeXt's channels-first LayerNorm) are reduced a column strip at a time,
// block b owning batch b / strips and strip b % strips. Groups over
// [B, M, N] with M constant follow the same blocks (rows [b*M, (b+1)*M),
// the strip's columns), so a strip's mean, variance and normalization stay
// in the block where they read it at the columns they write.

#include "transforms/KernelStitcher.h"

namespace xs::plan {

StripLayout stripLayout(const Operation &reduction) {
  const std::vector<DimExpr> &in = reduction.operand(0)->type().shape();
  std::vector<int64_t> dims = reduction.attr("dims")->getIntList();
  auto [first, last] = std::minmax_element(dims.begin(), dims.end());
  return {prefixOf(in, static_cast<size_t>(*first)),
          suffixFrom(in, static_cast<size_t>(*last) + 1)};
}

std::optional<ThreadMapping> KernelStitcher::stripMapping(const Operation &dominant,
                                                          const StripLayout &layout,
                                                          const ThreadMapping &mainMapping) const {
  size_t batchDims = layout.batch.size(), colDims = layout.cols.size();
  auto framed = [&](const std::vector<DimExpr> &shape) {
    return shape.size() >= batchDims + colDims && prefixOf(shape, batchDims) == layout.batch &&
           suffixFrom(shape, shape.size() - colDims) == layout.cols;
  };
  MappingShape shape = classifyMapping(dominant);
  if (shape.kind == MappingKind::BatchColumnReduce) {
    if (!framed(dominant.operand(0)->type().shape()) || shape.batch != dimProduct(layout.batch) ||
        shape.cols != dimProduct(layout.cols))
      return std::nullopt;
    ThreadMapping own = planVariants(dominant, target_).back().groups[0].mapping;
    if (own.colsPerBlock != mainMapping.colsPerBlock)
      return std::nullopt;
    return own;
  }
  if (shape.kind != MappingKind::Elementwise)
    return std::nullopt;
  const std::vector<DimExpr> &result = dominant.type().shape();
  if (!framed(result))
    return std::nullopt;
  std::vector<DimExpr> middle(result.begin() + static_cast<std::ptrdiff_t>(batchDims),
                              result.end() - static_cast<std::ptrdiff_t>(colDims));
  std::optional<int64_t> rowsPerBatch = dimProduct(middle).constantValue();
  if (!rowsPerBatch || *rowsPerBatch < 1)
    return std::nullopt;
  ThreadMapping m = planVariants(dominant, target_).back().groups[0].mapping;
  m.rows = dimProduct(prefixOf(result, result.size() - colDims));
  m.cols = dimProduct(layout.cols);
  m.rowsPerBlock = *rowsPerBatch;
  m.colsPerBlock = mainMapping.colsPerBlock;
  return m;
}

bool KernelStitcher::splitsBatchColumns(const Operation &dominant) const {
  if (!target_.stitchesColumnStrips ||
      classifyMapping(dominant).kind != MappingKind::BatchColumnReduce ||
      ownsWholeBatches(dominant))
    return false;
  const ThreadMapping own = planVariants(dominant, target_).back().groups[0].mapping;
  if (own.colsPerBlock <= 0)
    return false;
  StripLayout layout = stripLayout(dominant);
  return std::any_of(dominants_.begin(), dominants_.end(), [&](const Operation *other) {
    return other != &dominant && stripMapping(*other, layout, own) &&
           readsStripInPlace(*other, dominant, layout);
  });
}

bool KernelStitcher::readsStripInPlace(const Operation &consumer, const Operation &producer,
                                       const StripLayout &layout) const {
  size_t batchDims = layout.batch.size(), colDims = layout.cols.size();
  // The producer's tile is its strip of columns: only one row per batch.
  const std::vector<DimExpr> &produced = producer.type().shape();
  if (produced.size() < batchDims + colDims ||
      dimProduct({produced.begin() + static_cast<std::ptrdiff_t>(batchDims),
                  produced.end() - static_cast<std::ptrdiff_t>(colDims)}) != DimExpr(1))
    return false;
  // A value is "in place" when the consumer's element reads it at an index
  // whose first batchDims dims are the consumer's batch index and whose
  // last colDims dims its column index.
  auto framesMatch = [&](const std::vector<DimExpr> &a, const std::vector<DimExpr> &b) {
    return a.size() >= batchDims + colDims && b.size() >= batchDims + colDims &&
           prefixOf(a, batchDims) == prefixOf(b, batchDims) &&
           suffixFrom(a, a.size() - colDims) == suffixFrom(b, b.size() - colDims);
  };
  absl::flat_hash_set<std::pair<const Value *, bool>> done;
  std::function<bool(const Value *, bool)> value;
  std::function<bool(const Operation &)> operation = [&](const Operation &op) {
    const std::vector<DimExpr> &to = op.type().shape();
    for (size_t i = 0; i < op.operands().size(); ++i) {
      const Value *operand = op.operand(static_cast<int>(i));
      const std::vector<DimExpr> &from = operand->type().shape();
      bool inPlace = false;
      if (op.info().isElementwise() && from == to) {
        inPlace = true;
      } else if (op.kind() == OpKind::Broadcast && framesMatch(from, to)) {
        const std::vector<int64_t> &dims = op.attr("dims")->getIntList();
        inPlace = true;
        for (size_t d = 0; d < batchDims; ++d)
          inPlace &= dims[d] == static_cast<int64_t>(d);
        for (size_t d = 0; d < colDims; ++d)
          inPlace &=
              dims[from.size() - colDims + d] == static_cast<int64_t>(to.size() - colDims + d);
      } else if (op.kind() == OpKind::Reshape) {
        // Row-major: the middle dims regroup among themselves.
        inPlace = framesMatch(from, to);
      }
      if (!value(operand, inPlace))
        return false;
    }
    return true;
  };
  value = [&](const Value *v, bool inPlace) {
    if (v == producer.result())
      return inPlace;
    const Operation *def = v->definingOp();
    if (!def || groupOf_.contains(v))
      return true; // a parameter or another dominant: read from memory
    if (!done.insert({v, inPlace}).second)
      return true;
    // Past an op that moves elements, the index is no longer the consumer's.
    if (!inPlace)
      return !reaches(*def, producer);
    return operation(*def);
  };
  // A batch-column reduction reads its operand at (batch, reduced, columns).
  if (isReduction(consumer))
    return value(consumer.operand(0), true);
  return operation(consumer);
}

bool KernelStitcher::reaches(const Operation &from, const Operation &producer) const {
  absl::flat_hash_set<const Operation *> seen;
  std::vector<const Operation *> stack{&from};
  while (!stack.empty()) {
    const Operation *op = stack.back();
    stack.pop_back();
    for (const Value *operand : op->operands()) {
      if (operand == producer.result())
        return true;
      const Operation *def = operand->definingOp();
      if (def && !groupOf_.contains(operand) && seen.insert(def).second)
        stack.push_back(def);
    }
  }
  return false;
}

} // namespace xs::plan
