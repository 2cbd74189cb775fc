// KernelPlan -> LLVM IR: one function per kernel variant. The function loads
// its argument pointers and dims once in the entry block, then runs the
// target's block loop; each block runs the variant's stages in order, each
// group with the loops of its mapping kind (GroupEmitter.h), and a block
// barrier between stages.

#include "backends/common/KernelEmitter.h"

#include "backends/common/ElementGenerator.h"
#include "backends/common/GroupEmitter.h"
#include "ir/Diagnostics.h"

namespace xs {

std::string kernelSymbol(const KernelPlan &plan, size_t variant) {
  return strCat(plan.name, ".v", variant);
}

namespace {

/// The buffers a group writes: its ops that are results of the kernel body.
std::vector<GroupOutput> groupOutputs(const Function &body, const PlanGroup &group) {
  std::vector<GroupOutput> outputs;
  int numParams = static_cast<int>(body.params().size());
  for (const Operation *op : group.ops)
    for (size_t j = 0; j < body.results().size(); ++j)
      if (body.results()[j].value == op->result())
        outputs.push_back({op->result(), numParams + static_cast<int>(j)});
  return outputs;
}

/// Checks what this emitter supports before emitting anything.
absl::Status checkVariant(const KernelPlan &plan, const KernelVariant &variant) {
  if (variant.phases.size() != 1)
    return absl::InternalError(strCat("kernel ", plan.name, ": ", variant.phases.size(),
                                      " phases; grid barriers are not supported on this target"));
  for (const PlanBuffer &buffer : variant.buffers) {
    // The accumulators of a column reduction are allocated by its loops.
    bool columnAccumulators = false;
    for (const PlanGroup &group : variant.groups)
      columnAccumulators =
          columnAccumulators || (buffer.level == BufferLevel::Block && group.dominant &&
                                 buffer.value == group.dominant->result() &&
                                 (group.mapping.kind == MappingKind::ColumnReduce ||
                                  group.mapping.kind == MappingKind::BatchColumnReduce));
    if (buffer.level != BufferLevel::Register && !columnAccumulators)
      return absl::InternalError(strCat("kernel ", plan.name, ": ", bufferLevelName(buffer.level),
                                        " buffers are not supported yet"));
  }
  for (const PlanGroup &group : variant.groups)
    if (!group.dominant)
      return absl::InternalError(strCat("kernel ", plan.name, ": a group without a dominant"));
  for (const PlanStage &stage : variant.phases[0].stages)
    for (int g : stage.groups)
      if (g < 0 || static_cast<size_t>(g) >= variant.groups.size())
        return absl::InternalError(strCat("kernel ", plan.name, ": stage refers to group ", g));
  return absl::OkStatus();
}

void emitGroup(GroupEmission &emission, llvm::Value *blockId) {
  switch (emission.group.mapping.kind) {
  case MappingKind::Elementwise:
    return emitElementwiseBlock(emission, blockId);
  case MappingKind::RowReduce:
    return emitRowReduceBlock(emission, blockId);
  case MappingKind::ColumnReduce:
  case MappingKind::BatchColumnReduce:
    return emitColumnReduceBlock(emission, blockId);
  case MappingKind::Generic:
    return emitGenericBlock(emission, blockId);
  }
}

absl::Status emitVariant(const ProgramPlan &program, const KernelPlan &plan, size_t index,
                         Target &target, llvm::Module &module) {
  const KernelVariant &variant = plan.variants[index];
  if (absl::Status s = checkVariant(plan, variant); !s.ok())
    return s;
  llvm::IRBuilder<> b(module.getContext());
  llvm::Function *function = target.createKernel(module, kernelSymbol(plan, index), b);
  KernelContext ctx{b, target, *plan.body, plan.name, {}, {}, absl::OkStatus()};
  size_t numBuffers = plan.body->params().size() + plan.body->results().size();
  for (size_t i = 0; i < numBuffers; ++i)
    ctx.buffers.push_back(target.bufferArg(b, static_cast<int>(i)));
  for (size_t i = 0; i < program.host.symbols.size(); ++i)
    ctx.symbols[program.host.symbols[i]] = target.dimArg(b, static_cast<int>(i));
  ElementGenerator gen(ctx);

  const std::vector<PlanStage> &stages = variant.phases[0].stages;
  target.emitBlockLoop(b, [&](llvm::Value *blockId) {
    for (size_t s = 0; s < stages.size(); ++s) {
      for (int g : stages[s].groups) {
        const PlanGroup &group = variant.groups[static_cast<size_t>(g)];
        GroupEmission emission{gen, group, groupOutputs(*plan.body, group), target.description()};
        emitGroup(emission, blockId);
      }
      if (s + 1 < stages.size())
        target.emitBlockBarrier(b);
    }
  });
  b.CreateRetVoid();
  if (!ctx.status.ok()) {
    function->eraseFromParent();
    return ctx.status;
  }
  return absl::OkStatus();
}

} // namespace

absl::Status emitProgramKernels(const ProgramPlan &program, Target &target, llvm::Module &module) {
  for (const KernelPlan &plan : program.kernels) {
    if (!plan.body)
      return absl::InternalError(strCat("kernel ", plan.name, " has no body"));
    for (size_t v = 0; v < plan.variants.size(); ++v)
      if (absl::Status s = emitVariant(program, plan, v, target, module); !s.ok())
        return s;
  }
  return absl::OkStatus();
}

} // namespace xs
