// KernelPlan -> LLVM IR. A variant is one function per phase (the runtime's
// rounds over the grid are the barrier between them) and, on targets with a
// grid barrier, also one cooperative kernel of every phase with grid
// barriers between them (Target::hasGridBarrier). A function loads
// its argument pointers and dims once in the entry block, allocates the
// phase's block buffers, then runs the target's block loop; each block runs
// the phase's stages in order, each group with the loops of its mapping kind
// (GroupEmitter.h), and a block barrier between stages. Values written to
// memory by a group are read back by later stages and phases instead of
// being recomputed.

#include "backends/common/KernelEmitter.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "backends/common/BufferAliasing.h"
#include "backends/common/ElementGenerator.h"
#include "backends/common/GroupEmitter.h"
#include "backends/common/LoopBuilder.h"
#include "backends/common/TypeLowering.h"
#include "ir/Diagnostics.h"
#include "transforms/BlockBuffers.h"

namespace xs {

std::string kernelSymbol(const KernelPlan &plan, size_t variant) {
  return strCat(plan.name, ".v", variant);
}

namespace {

/// Where each group sits in a variant, and where each value lives.
struct VariantLayout {
  std::vector<int> phaseOf; // per group
  std::vector<int> stageOf; // per group
  /// The group that computes each written value (its op is in group.ops).
  absl::flat_hash_map<const Value *, int> writer;
  /// Kernel-argument index of each value kept in global memory.
  absl::flat_hash_map<const Value *, int> globalArg;
  absl::flat_hash_map<const Value *, const PlanBuffer *> blockBuffer;
  /// Block tiles kept in a result's global buffer (PlanBuffer::inResult):
  /// the kernel-argument index of that result.
  absl::flat_hash_map<const Value *, int> inResultArg;
  /// Kernel-argument index of each split reduction's partials.
  absl::flat_hash_map<const Value *, int> partialArg;
};

bool groupReads(const PlanGroup &group, const Value *value) {
  // A split reduction's combine reads the partial states, not the operand of
  // its reduction (which another group of the phase before may keep in a
  // block buffer).
  if (group.mapping.kind == MappingKind::RowCombine ||
      group.mapping.kind == MappingKind::ColumnCombine)
    return false;
  for (const Operation *op : group.ops)
    for (const Value *operand : op->operands())
      if (operand == value)
        return true;
  return false;
}

/// Checks what the emitter relies on and lays the variant out.
absl::StatusOr<VariantLayout> layoutVariant(const KernelPlan &plan, const KernelVariant &variant) {
  auto bad = [&](auto &&...pieces) {
    return absl::InternalError(strCat("kernel ", plan.name, ": ", pieces...));
  };
  const Function &body = *plan.body;
  VariantLayout layout;
  size_t numGroups = variant.groups.size();
  layout.phaseOf.assign(numGroups, -1);
  layout.stageOf.assign(numGroups, -1);
  for (size_t p = 0; p < variant.phases.size(); ++p)
    for (size_t s = 0; s < variant.phases[p].stages.size(); ++s)
      for (int g : variant.phases[p].stages[s].groups) {
        if (g < 0 || static_cast<size_t>(g) >= numGroups)
          return bad("stage refers to group ", g);
        if (layout.phaseOf[static_cast<size_t>(g)] >= 0)
          return bad("group ", g, " is in two stages");
        layout.phaseOf[static_cast<size_t>(g)] = static_cast<int>(p);
        layout.stageOf[static_cast<size_t>(g)] = static_cast<int>(s);
      }
  for (size_t g = 0; g < numGroups; ++g) {
    const PlanGroup &group = variant.groups[g];
    if (!group.dominant)
      return bad("group ", g, " has no dominant");
    if (layout.phaseOf[g] < 0)
      return bad("group ", g, " is in no stage");
    // A partial group writes partials, not its reduction (its combine does).
    for (const Operation *op : group.ops)
      if (!(isPartial(group.mapping.kind) && op == group.dominant))
        layout.writer.emplace(op->result(), static_cast<int>(g));
  }
  auto writable = [&](const PlanGroup &group, const Value *value) {
    const Operation &dominant = *group.dominant;
    return value->type().shape() == dominant.type().shape() ||
           (group.mapping.kind == MappingKind::RowReduce &&
            value->type().shape() == dominant.operand(0)->type().shape());
  };

  int numParams = static_cast<int>(body.params().size());
  for (size_t r = 0; r < body.results().size(); ++r)
    layout.globalArg.emplace(body.results()[r].value, numParams + static_cast<int>(r));
  int firstScratch = numParams + static_cast<int>(body.results().size());
  for (size_t i = 0; i < plan.scratch.size(); ++i)
    layout.globalArg.emplace(plan.scratch[i], firstScratch + static_cast<int>(i));
  int firstPartials = firstScratch + static_cast<int>(plan.scratch.size());
  for (size_t i = 0; i < plan.partials.size(); ++i)
    layout.partialArg.emplace(plan.partials[i].reduction, firstPartials + static_cast<int>(i));
  for (size_t g = 0; g < numGroups; ++g) {
    const PlanGroup &group = variant.groups[g];
    if (usesPartials(group.mapping.kind) && !layout.partialArg.contains(group.dominant->result()))
      return bad("group ", g, " splits %", group.dominant->result()->name(),
                 " but the kernel has no partials for it");
  }

  for (const auto &[value, group] : layout.writer)
    if (layout.globalArg.contains(value) &&
        !writable(variant.groups[static_cast<size_t>(group)], value))
      return bad("group ", group, " cannot write %", value->name(), ": its shape is not the",
                 " dominant's");
  for (const PlanBuffer &buffer : variant.buffers) {
    if (buffer.accumulators || buffer.staging || buffer.level == BufferLevel::Register)
      continue;
    auto writer = layout.writer.find(buffer.value);
    if (writer == layout.writer.end())
      return bad("no group computes %", buffer.value->name(), ", which has a ",
                 bufferLevelName(buffer.level), " buffer");
    size_t w = static_cast<size_t>(writer->second);
    if (buffer.level == BufferLevel::Global) {
      if (!layout.globalArg.contains(buffer.value))
        return bad("%", buffer.value->name(), " is kept in global memory but is neither a result",
                   " nor scratch");
      continue;
    }
    if (!writable(variant.groups[w], buffer.value))
      return bad("group ", w, " cannot write %", buffer.value->name(), ": its shape is not the",
                 " dominant's");
    if (variant.groups[w].blocks != variant.grid)
      return bad("group ", w, " keeps %", buffer.value->name(),
                 " in a block buffer but does not run one block per grid block");
    layout.blockBuffer[buffer.value] = &buffer;
    if (buffer.inResult) {
      auto home = layout.globalArg.find(buffer.inResult);
      if (home == layout.globalArg.end() ||
          !std::any_of(body.results().begin(), body.results().end(),
                       [&](const FunctionResult &r) { return r.value == buffer.inResult; }) ||
          buffer.inResult->type() != buffer.value->type())
        return bad("the tile of %", buffer.value->name(), " is kept in %", buffer.inResult->name(),
                   ", which is not a result of its type");
      layout.inResultArg[buffer.value] = home->second;
    }
    for (size_t g = 0; g < numGroups; ++g) {
      if (g == w || !groupReads(variant.groups[g], buffer.value))
        continue;
      if (layout.phaseOf[g] != layout.phaseOf[w] || layout.stageOf[g] <= layout.stageOf[w])
        return bad("group ", g, " reads the block buffer of %", buffer.value->name(),
                   " outside the later stages of its phase");
    }
  }
  return layout;
}

void emitGroup(GroupEmission &emission, llvm::Value *blockId) {
  switch (emission.group.mapping.kind) {
  case MappingKind::Elementwise:
    return emitElementwiseBlock(emission, blockId);
  case MappingKind::RowReduce:
  case MappingKind::RowPartial:
    return emitRowReduceBlock(emission, blockId);
  case MappingKind::ColumnReduce:
  case MappingKind::BatchColumnReduce:
    return emitColumnReduceBlock(emission, blockId);
  case MappingKind::Generic:
    return emitGenericBlock(emission, blockId);
  case MappingKind::ColumnPartial:
    return emitColumnPartialBlock(emission, blockId);
  case MappingKind::ColumnCombine:
    return emitColumnCombineBlock(emission, blockId);
  case MappingKind::RowCombine:
    return emitRowCombineBlock(emission, blockId);
  case MappingKind::Scan:
    return emitScanBlock(emission, blockId);
  }
}

/// Phases [first, last] of a variant as one function: each phase is a loop
/// over the blocks, with a grid barrier between phases. A phase function
/// (first == last) runs the blocks the runtime gives it; the cooperative
/// kernel (`cooperative`, every phase) strides over the whole grid.
absl::Status emitPhases(const ProgramPlan &program, const KernelPlan &plan, size_t index,
                        const VariantLayout &layout, int first, int last, bool cooperative,
                        Target &target, llvm::Module &module) {
  const KernelVariant &variant = plan.variants[index];
  llvm::IRBuilder<> b(module.getContext());
  std::string symbol = kernelSymbol(plan, index);
  llvm::Function *function = target.createKernel(
      module, cooperative ? cooperativeSymbol(symbol) : phaseSymbol(symbol, first),
      blockLanes(variant), b);
  KernelContext ctx{b, target, *plan.body, plan.name, {}, {}, {}, nullptr, absl::OkStatus()};
  size_t numArgs = plan.body->params().size() + plan.body->results().size() + plan.scratch.size() +
                   plan.partials.size();
  for (size_t i = 0; i < numArgs; ++i)
    ctx.buffers.push_back(target.bufferArg(b, static_cast<int>(i)));
  for (size_t i = 0; i < program.host.symbols.size(); ++i)
    ctx.symbols[program.host.symbols[i]] = target.dimArg(b, static_cast<int>(i));
  // The body's data checks (HostPlan::checks): raised codes accumulate in
  // the kernel's own word, flushed to the run's status word at the end.
  for (size_t c = 0; c < program.host.checks.size(); ++c) {
    const HostCheck &check = program.host.checks[c];
    if (check.kernel != plan.name || check.onHost())
      continue;
    const auto &ops = plan.body->ops();
    if (check.opIndex < 0 || static_cast<size_t>(check.opIndex) >= ops.size())
      return absl::InternalError(strCat("kernel ", plan.name, ": check ", c, " names op ",
                                        check.opIndex, " of ", ops.size()));
    ctx.checkCodes[ops[static_cast<size_t>(check.opIndex)].get()] = static_cast<int>(c);
  }
  if (!ctx.checkCodes.empty()) {
    ctx.raised = b.CreateAlloca(b.getInt64Ty(), nullptr, "raised");
    b.CreateStore(b.getInt64(0), ctx.raised);
    // The kernel writes the status word after the symbols' values.
    function->removeParamAttr(1, llvm::Attribute::ReadOnly);
  }
  ElementGenerator gen(ctx);

  // What earlier functions left in global memory is read, not recomputed.
  for (auto [value, group] : layout.writer)
    if (layout.phaseOf[static_cast<size_t>(group)] < first && layout.globalArg.contains(value))
      gen.setMaterialized(value, ctx.buffers[static_cast<size_t>(layout.globalArg.at(value))]);

  absl::flat_hash_map<const Value *, llvm::Value *> blockBase, stagingBase;
  // In the plan's order, not the map's: the code (buffer offsets) must not
  // depend on where values happen to be in memory.
  for (const PlanBuffer &planned : variant.buffers) {
    if (planned.staging && planned.level == BufferLevel::Block) {
      auto writer = layout.writer.find(planned.value);
      int phase =
          writer == layout.writer.end() ? -1 : layout.phaseOf[static_cast<size_t>(writer->second)];
      if (phase >= first && phase <= last && !stagingBase.contains(planned.value))
        stagingBase[planned.value] = ctx.allocateBlockBuffer(
            storageType(b.getContext(), planned.value->type().elementType()), planned.elements,
            gen.dim(planned.elements));
      continue;
    }
    auto found = layout.blockBuffer.find(planned.value);
    if (found == layout.blockBuffer.end() || found->second != &planned)
      continue;
    auto [value, buffer] = *found;
    int phase = layout.phaseOf[static_cast<size_t>(layout.writer.at(value))];
    if (phase >= first && phase <= last && !buffer->inResult)
      blockBase[value] =
          ctx.allocateBlockBuffer(storageType(b.getContext(), value->type().elementType()),
                                  buffer->elements, gen.dim(buffer->elements));
  }
  // A grid of 0 blocks runs one when some group has blocks of its own
  // (HostLaunchVariant::ownBlockGroups): the groups of the grid's blocks
  // skip it, the others stride over it as their one slot.
  llvm::Value *grid = gen.dim(variant.grid);
  llvm::Value *launched = emitMax(b, grid, b.getInt64(1));
  const bool ownBlockGroups = variant.hasOwnBlockGroups();

  for (int phase = first; phase <= last; ++phase) {
    const std::vector<PlanStage> &stages = variant.phases[static_cast<size_t>(phase)].stages;
    std::vector<const Value *> blockLocal;
    // A group's emission: where each value it computes is stored.
    auto groupEmission = [&](int g) {
      const PlanGroup &group = variant.groups[static_cast<size_t>(g)];
      GroupEmission emission{gen, group, {}, target.description()};
      if (auto arg = layout.partialArg.find(group.dominant->result());
          arg != layout.partialArg.end())
        emission.partials = ctx.buffers[static_cast<size_t>(arg->second)];
      if (auto staging = stagingBase.find(group.dominant->result()); staging != stagingBase.end())
        emission.staging = staging->second;
      for (const Operation *op : group.ops) {
        const Value *value = op->result();
        if (isPartial(group.mapping.kind) && op == group.dominant)
          continue;
        // Scratch is the kernel's, for every variant: a variant that keeps
        // the value in its blocks does not write it there too.
        if (auto base = blockBase.find(value); base != blockBase.end())
          emission.outputs.push_back({value, base->second, true, nullptr});
        else if (auto arg = layout.globalArg.find(value); arg != layout.globalArg.end())
          emission.outputs.push_back(
              {value, ctx.buffers[static_cast<size_t>(arg->second)], false, nullptr});
        else if (auto home = layout.inResultArg.find(value); home != layout.inResultArg.end())
          // At the element's own position in the result's buffer.
          emission.outputs.push_back(
              {value, ctx.buffers[static_cast<size_t>(home->second)], false, nullptr});
      }
      return emission;
    };
    // Later groups read what the group stored instead of recomputing it.
    auto materialize = [&](const GroupEmission &emission) {
      for (const GroupOutput &output : emission.outputs) {
        if (output.blockLocal && !output.origin)
          continue;
        gen.setMaterialized(output.value, output.base, output.blockLocal ? output.origin : nullptr);
        // A tile in a result is overwritten by its reader: it dies with the
        // phase like a block buffer.
        if (output.blockLocal || layout.inResultArg.contains(output.value))
          blockLocal.push_back(output.value);
      }
    };
    // Which groups one pass over the stages emits: the kernel's groups have
    // the grid's blocks or their own (strided over the grid's).
    enum class Pass { All, GridBlocks, OwnBlocks };
    auto emitStages = [&](llvm::Value *blockId, Pass pass) {
      for (size_t s = 0; s < stages.size(); ++s) {
        // Sibling reductions of the stage share one pass over their rows.
        std::vector<std::vector<int>> batches = siblingBatches(variant, stages[s].groups);
        for (const std::vector<int> &batch : batches) {
          if (batch.size() > 1) {
            if (pass == Pass::OwnBlocks)
              continue;
            std::vector<GroupEmission> siblings;
            for (int g : batch)
              siblings.push_back(groupEmission(g));
            if (siblings.front().group.mapping.kind == MappingKind::ColumnPartial)
              emitColumnPartialSiblings(siblings, blockId);
            else
              emitRowReduceSiblings(siblings, blockId);
            for (const GroupEmission &sibling : siblings)
              materialize(sibling);
            continue;
          }
          int g = batch.front();
          const PlanGroup &group = variant.groups[static_cast<size_t>(g)];
          const bool gridBlocks = group.blocks == variant.grid;
          if ((pass == Pass::GridBlocks && !gridBlocks) || (pass == Pass::OwnBlocks && gridBlocks))
            continue;
          GroupEmission emission = groupEmission(g);
          if (gridBlocks) {
            emitGroup(emission, blockId);
          } else {
            // A group with its own block count: grid blocks `spread` apart
            // take its blocks (so that few blocks land in different workers'
            // ranges), each slot s taking blocks s, s + slots, ...
            llvm::Value *groupBlocks = gen.dim(group.blocks);
            llvm::Value *spread = emitMax(
                b, b.CreateUDiv(launched, emitMax(b, groupBlocks, b.getInt64(1))), b.getInt64(1));
            llvm::Value *slots = b.CreateUDiv(launched, spread);
            llvm::Value *slot = b.CreateUDiv(blockId, spread);
            llvm::Value *owns =
                b.CreateAnd(b.CreateICmpEQ(b.CreateURem(blockId, spread), b.getInt64(0)),
                            b.CreateICmpSLT(slot, groupBlocks));
            llvm::Value *count =
                b.CreateSelect(owns,
                               b.CreateUDiv(b.CreateAdd(b.CreateSub(groupBlocks, slot),
                                                        b.CreateSub(slots, b.getInt64(1))),
                                            slots),
                               b.getInt64(0));
            LoopResult stride = emitLoop(
                b, b.getInt64(0), count, {},
                [&](llvm::Value *k, llvm::ArrayRef<llvm::Value *>) {
                  emitGroup(emission, b.CreateAdd(slot, b.CreateMul(k, slots)));
                  return std::vector<llvm::Value *>{};
                },
                "stride");
            target.annotateRowLoop(stride.latch);
          }
          materialize(emission);
        }
        // Groups of their own blocks share no tiles, so need no barrier.
        if (s + 1 < stages.size() && pass != Pass::OwnBlocks)
          target.emitBlockBarrier(b);
      }
    };
    auto blocks = [&](llvm::Value *blockId) {
      if (!ownBlockGroups) {
        emitStages(blockId, Pass::All);
        return;
      }
      // The one block of an empty grid runs only the groups of their own
      // blocks. Within a phase those read no tile of the others (theirs
      // are other blocks), so they can follow them.
      emitIfElseValues(
          b, b.CreateICmpSLT(blockId, grid),
          [&] {
            emitStages(blockId, Pass::GridBlocks);
            return std::vector<llvm::Value *>{};
          },
          [] { return std::vector<llvm::Value *>{}; });
      emitStages(blockId, Pass::OwnBlocks);
    };
    if (cooperative)
      target.emitGridStrideLoop(b, ownBlockGroups ? launched : grid, blocks);
    else
      target.emitBlockLoop(b, blocks);
    // Block tiles die with the phase (their origins live in its loop).
    for (const Value *value : blockLocal)
      gen.forget(value);
    // The launch's barrier word follows the kernel's buffers.
    if (phase < last)
      target.emitGridBarrier(b, static_cast<int>(numArgs));
  }
  if (ctx.raised) {
    llvm::Value *raised = b.CreateLoad(b.getInt64Ty(), ctx.raised);
    llvm::Value *status = target.dimSlot(b, static_cast<int>(program.host.symbols.size()));
    emitIfElseValues(
        b, b.CreateICmpNE(raised, b.getInt64(0)),
        [&] {
          b.CreateAtomicRMW(llvm::AtomicRMWInst::UMax, status, raised, llvm::Align(8),
                            llvm::AtomicOrdering::Monotonic);
          return std::vector<llvm::Value *>{};
        },
        [] { return std::vector<llvm::Value *>{}; });
  }
  b.CreateRetVoid();
  if (ctx.status.ok()) {
    std::vector<DimExpr> bound = phaseBlockBufferBytes(variant, target.description());
    DimExpr planned(0);
    for (int p = first; p <= last; ++p)
      planned = planned + bound[static_cast<size_t>(p)];
    if (planned != ctx.blockBufferBytes)
      ctx.fail(strCat("variant ", index, " phases ", first, "..", last, " allocate ",
                      ctx.blockBufferBytes.str(),
                      " bytes of block buffers, but the plan bounds them at ", planned.str()));
  }
  if (!ctx.status.ok()) {
    function->eraseFromParent();
    return ctx.status;
  }
  markArgumentBuffersDistinct(*function, ctx.buffers, plan.body->params().size());
  return absl::OkStatus();
}

absl::Status emitVariant(const ProgramPlan &program, const KernelPlan &plan, size_t index,
                         int onlyPhase, Target &target, llvm::Module &module) {
  absl::StatusOr<VariantLayout> layout = layoutVariant(plan, plan.variants[index]);
  if (!layout.ok())
    return layout.status();
  int phases = static_cast<int>(plan.variants[index].phases.size());
  for (int p = 0; p < phases; ++p) {
    if (onlyPhase >= 0 && p != onlyPhase)
      continue;
    if (absl::Status s =
            emitPhases(program, plan, index, *layout, p, p, /*cooperative=*/false, target, module);
        !s.ok())
      return s;
  }
  if (target.hasGridBarrier() && phases > 1 && onlyPhase < 0)
    return emitPhases(program, plan, index, *layout, 0, phases - 1, /*cooperative=*/true, target,
                      module);
  return absl::OkStatus();
}

} // namespace

std::vector<KernelPiece> programPieces(const ProgramPlan &program) {
  std::vector<KernelPiece> pieces;
  for (size_t k = 0; k < program.kernels.size(); ++k)
    if (program.kernels[k].codeOf.empty())
      for (size_t v = 0; v < program.kernels[k].variants.size(); ++v)
        pieces.push_back({k, v, -1});
  return pieces;
}

absl::Status emitProgramKernels(const ProgramPlan &program, Target &target, llvm::Module &module) {
  return emitProgramKernels(program, programPieces(program), target, module);
}

absl::Status emitProgramKernels(const ProgramPlan &program, const std::vector<KernelPiece> &pieces,
                                Target &target, llvm::Module &module) {
  for (const KernelPiece &piece : pieces) {
    const KernelPlan &plan = program.kernels[piece.kernel];
    if (!plan.body)
      return absl::InternalError(strCat("kernel ", plan.name, " has no body"));
    if (absl::Status s = emitVariant(program, plan, piece.variant, piece.phase, target, module);
        !s.ok())
      return s;
  }
  return absl::OkStatus();
}

} // namespace xs
