#include "backends/common/Reduction.h"

namespace xs {

void storeReduced(GroupEmission &group, llvm::Value *value, const std::vector<llvm::Value *> &index,
                  llvm::Value *linear) {
  KernelContext &ctx = group.gen.context();
  const Value *dominant = group.group.dominant->result();
  const GroupOutput *stored = nullptr;
  for (const GroupOutput &output : group.outputs) {
    if (output.value != dominant)
      continue;
    llvm::Value *position = linear;
    if (output.blockLocal)
      position = ctx.b.CreateSub(linear, output.origin, "", /*HasNUW=*/true, /*HasNSW=*/true);
    storeElement(ctx.b, dominant->type().elementType(), value, output.base, position,
                 ctx.target.bfloatRounding());
    stored = &output;
  }
  if (!stored) {
    ctx.fail("the reduction " + dominant->name() + " is not written to memory");
    return;
  }
  group.gen.setMaterialized(dominant, stored->base, stored->blockLocal ? stored->origin : nullptr);
  GroupEmission others{group.gen, group.group, {}, group.description};
  for (const GroupOutput &output : group.outputs)
    if (output.value != dominant)
      others.outputs.push_back(output);
  storeGroupOutputs(others, dominant->type().shape(), index, linear);
}

std::pair<llvm::Value *, llvm::Value *> blockRange(llvm::IRBuilder<> &b, llvm::Value *block,
                                                   int64_t perBlock, llvm::Value *total) {
  perBlock = std::max<int64_t>(perBlock, 1);
  llvm::Value *begin = b.CreateMul(block, b.getInt64(perBlock));
  return {begin, emitMin(b, b.CreateAdd(begin, b.getInt64(perBlock)), total)};
}

} // namespace xs
