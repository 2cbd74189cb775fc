// Block-buffer bounds of kernel variants: see BlockBuffers.h.

#include "transforms/BlockBuffers.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "ir/HostPlan.h"

namespace xs {

std::vector<std::vector<int>> siblingBatches(const KernelVariant &variant,
                                             const std::vector<int> &groups) {
  std::vector<std::vector<int>> batches;
  auto fusible = [&](const PlanGroup &group) {
    return (group.mapping.kind == MappingKind::RowReduce ||
            group.mapping.kind == MappingKind::ColumnPartial) &&
           group.mapping.colsPerBlock == 0 && group.blocks == variant.grid;
  };
  for (int g : groups) {
    const PlanGroup &group = variant.groups[static_cast<size_t>(g)];
    auto sibling = std::find_if(batches.begin(), batches.end(), [&](const std::vector<int> &b) {
      const PlanGroup &first = variant.groups[static_cast<size_t>(b.front())];
      return fusible(group) && fusible(first) && first.mapping.kind == group.mapping.kind &&
             first.mapping.rowsPerBlock == group.mapping.rowsPerBlock &&
             first.dominant->operand(0)->type() == group.dominant->operand(0)->type() &&
             first.dominant->attr("dims") && group.dominant->attr("dims") &&
             first.dominant->attr("dims")->getIntList() ==
                 group.dominant->attr("dims")->getIntList();
    });
    if (sibling != batches.end())
      sibling->push_back(g);
    else
      batches.push_back({g});
  }
  return batches;
}

std::vector<int64_t> columnStateBytes(const Operation &reduction) {
  bool isArg = reduction.info().rule == TypeRule::ArgReduce;
  ElementType accumulate =
      isArg ? reduction.operand(0)->type().elementType() : columnAccumulationType(reduction);
  int64_t bytes = accumulate == ElementType::F16 || accumulate == ElementType::BF16
                      ? 4
                      : elementByteSize(accumulate);
  std::vector<int64_t> states{bytes};
  if (isArg)
    states.push_back(8);
  return states;
}

DimExpr alignedBlockBufferBytes(const DimExpr &bytes) {
  return DimExpr::ceilDiv(bytes, kBlockBufferAlignment) * kBlockBufferAlignment;
}

namespace {

bool reducesColumns(MappingKind kind) {
  return kind == MappingKind::ColumnReduce || kind == MappingKind::BatchColumnReduce ||
         kind == MappingKind::ColumnPartial || kind == MappingKind::ColumnCombine;
}

/// The accumulator tiles of one batch of column-reducing groups, which
/// share one pass over their rows and so one tile width.
DimExpr accumulatorBytes(const KernelVariant &variant, const std::vector<int> &batch,
                         const TargetDescription &target) {
  const ThreadMapping &mapping = variant.groups[static_cast<size_t>(batch.front())].mapping;
  std::vector<std::vector<int64_t>> states;
  int64_t stateBytes = 0;
  for (int g : batch) {
    states.push_back(columnStateBytes(*variant.groups[static_cast<size_t>(g)].dominant));
    for (int64_t bytes : states.back())
      stateBytes += bytes;
  }
  int64_t rowGroups = columnRowGroups(mapping.colsPerBlock, target);
  int64_t tile = columnAccumulatorTile(mapping.colsPerBlock, stateBytes, rowGroups, target);
  DimExpr total(0);
  for (const std::vector<int64_t> &reduction : states)
    for (int64_t bytes : reduction)
      total = total + alignedBlockBufferBytes(DimExpr(tile * rowGroups * bytes));
  return total;
}

} // namespace

std::vector<DimExpr> phaseBlockBufferBytes(const KernelVariant &variant,
                                           const TargetDescription &target) {
  std::vector<DimExpr> bytes(variant.phases.size(), DimExpr(0));
  std::vector<int> phaseOf(variant.groups.size(), -1);
  for (size_t p = 0; p < variant.phases.size(); ++p)
    for (const PlanStage &stage : variant.phases[p].stages)
      for (int g : stage.groups)
        phaseOf[static_cast<size_t>(g)] = static_cast<int>(p);
  // The group that stores each value (a partial group stores partials, not
  // its reduction).
  absl::flat_hash_map<const Value *, int> writerPhase;
  for (size_t g = 0; g < variant.groups.size(); ++g) {
    const PlanGroup &group = variant.groups[g];
    for (const Operation *op : group.ops)
      if (!(isPartial(group.mapping.kind) && op == group.dominant))
        writerPhase.emplace(op->result(), phaseOf[g]);
  }
  auto add = [&](const Value *value, const DimExpr &elements) {
    auto writer = writerPhase.find(value);
    if (writer == writerPhase.end() || writer->second < 0)
      return;
    DimExpr &phase = bytes[static_cast<size_t>(writer->second)];
    phase =
        phase + alignedBlockBufferBytes(elements * elementByteSize(value->type().elementType()));
  };
  // A value's tile: the last block buffer planned for it.
  absl::flat_hash_map<const Value *, const PlanBuffer *> tileOf;
  for (const PlanBuffer &buffer : variant.buffers)
    if (buffer.level == BufferLevel::Block && !buffer.accumulators && !buffer.staging)
      tileOf[buffer.value] = &buffer;
  absl::flat_hash_set<const Value *> staged;
  for (const PlanBuffer &buffer : variant.buffers) {
    if (buffer.level != BufferLevel::Block)
      continue;
    if (buffer.staging) {
      if (staged.insert(buffer.value).second)
        add(buffer.value, buffer.elements);
    } else if (!buffer.accumulators && tileOf.at(buffer.value) == &buffer && !buffer.inResult) {
      add(buffer.value, buffer.elements);
    }
  }
  for (size_t p = 0; p < variant.phases.size(); ++p)
    for (const PlanStage &stage : variant.phases[p].stages)
      for (const std::vector<int> &batch : siblingBatches(variant, stage.groups))
        if (reducesColumns(variant.groups[static_cast<size_t>(batch.front())].mapping.kind))
          bytes[p] = bytes[p] + accumulatorBytes(variant, batch, target);
  return bytes;
}

} // namespace xs
