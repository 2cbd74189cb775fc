#ifndef XSTITCH_BACKENDS_COMMON_GROUPEMITTER_H
#define XSTITCH_BACKENDS_COMMON_GROUPEMITTER_H

// The per-block loops of each mapping kind of KernelPlan.h (element-wise in
// GroupEmitter.cpp, reductions in ReductionEmitter.cpp).
//
// Block layout (the planner's grid must match):
//   Elementwise: rows x cols of the dominant's result (cols = its last dim);
//     block b covers rows [r*rowsPerBlock, ...) and, with colsPerBlock > 0,
//     cols [c*colsPerBlock, ...), where r = b / colBlocks, c = b % colBlocks
//     and colBlocks = ceil(cols / colsPerBlock) (1 when colsPerBlock is 0).
//   RowReduce: block b reduces rows [b*rowsPerBlock, ...) (colsPerBlock 0).
//   ColumnReduce / BatchColumnReduce: block b reduces columns
//     [c*colsPerBlock, ...) of batch index b / colBlocks, c = b % colBlocks.
//   Generic: block b computes result elements [b*rowsPerBlock, ...).
// Blocks past the end do nothing.

#include <vector>

#include "backends/common/ElementGenerator.h"
#include "transforms/KernelPlan.h"

namespace xs {

/// A value the group writes: `value` goes to argument buffer `buffer`.
struct GroupOutput {
  const Value *value = nullptr;
  int buffer = -1;
};

/// One group's emission: the generator, the group and its outputs.
struct GroupEmission {
  ElementGenerator &gen;
  const PlanGroup &group;
  std::vector<GroupOutput> outputs;
  const TargetDescription &description;
};

/// The value of reduction `op` at result index `resultIndex`, looping over
/// every reduced index (the Generic mapping; also a reduction computed inside
/// another group).
llvm::Value *emitReduceAt(ElementGenerator &gen, const Operation &op,
                          const std::vector<llvm::Value *> &resultIndex);

/// Stores every output of the group whose value has the shape `shape` at
/// multi-index `index` (row-major position `linear`).
void storeGroupOutputs(GroupEmission &group, const std::vector<DimExpr> &shape,
                       const std::vector<llvm::Value *> &index, llvm::Value *linear);

/// One block of each mapping kind.
void emitElementwiseBlock(GroupEmission &group, llvm::Value *blockId);
void emitRowReduceBlock(GroupEmission &group, llvm::Value *blockId);
void emitColumnReduceBlock(GroupEmission &group, llvm::Value *blockId);
void emitGenericBlock(GroupEmission &group, llvm::Value *blockId);

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_GROUPEMITTER_H
