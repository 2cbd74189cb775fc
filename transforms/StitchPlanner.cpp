// The stitch planner of one kernel (StitchPlanner.h, KernelStitcher.h):
// dominants, groups, row alignment with the main dominant, edge schemes,
// phases, stages, buffer levels and the block-buffer budget, for one choice
// of values to recompute (StitchCostModel.cpp compares the choices).

#include "transforms/StitchPlanner.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "transforms/AmplifiedChains.h"
#include "transforms/KernelStitcher.h"

namespace xs::plan {

namespace {

/// `expr` as K*SYMBOL + D of its one symbol, K a positive constant and D a
/// constant (a resize's 2*W - 1); nullopt for any other form.
struct AffineDim {
  std::string symbol;
  int64_t factor = 1;
  int64_t offset = 0;
};
std::optional<AffineDim> affineInOneSymbol(const DimExpr &expr) {
  std::vector<std::string> symbols = expr.symbols();
  if (symbols.size() != 1)
    return std::nullopt;
  absl::StatusOr<int64_t> offset = expr.evaluate({{symbols[0], 0}});
  std::optional<DimExpr> multiple =
      offset.ok() ? DimExpr::exactDiv(expr - DimExpr(*offset), DimExpr::symbol(symbols[0]))
                  : std::nullopt;
  std::optional<int64_t> factor = multiple ? multiple->constantValue() : std::nullopt;
  if (!factor || *factor < 1)
    return std::nullopt;
  return AffineDim{symbols[0], *factor, *offset};
}

} // namespace

/// The largest value of `size` (a tile size: it grows with every symbol)
/// under `predicates`, from bounds of the form `K*SYMBOL + D <= C` or
/// `K*SYMBOL + D < C` (K a positive constant, 1 included; D a constant, 0
/// included); nullopt when some symbol is unbounded.
std::optional<int64_t> sizeBound(const DimExpr &size, const std::vector<DimPredicate> &predicates) {
  if (std::optional<int64_t> value = size.constantValue())
    return value;
  DimBindings bounds;
  for (const std::string &symbol : size.symbols())
    for (const DimPredicate &p : predicates) {
      std::optional<int64_t> limit = p.rhs.constantValue();
      std::optional<AffineDim> lhs = affineInOneSymbol(p.lhs);
      if (!limit || !lhs || lhs->symbol != symbol || *limit - lhs->offset < 0)
        continue;
      if (p.op == DimPredicate::Op::LE)
        bounds[symbol] = (*limit - lhs->offset) / lhs->factor;
      else if (p.op == DimPredicate::Op::LT && *limit - lhs->offset >= 1)
        bounds[symbol] = (*limit - lhs->offset - 1) / lhs->factor;
    }
  absl::StatusOr<int64_t> value = size.evaluate(bounds);
  return value.ok() ? std::optional<int64_t>(*value) : std::nullopt;
}

/// `value` with every symbol at kRepresentativeDim (the cost model's point
/// of comparison); the largest int64 when it does not evaluate.
int64_t representativeValue(const DimExpr &value) {
  DimBindings dims;
  for (const std::string &symbol : value.symbols())
    dims[symbol] = kRepresentativeDim;
  absl::StatusOr<int64_t> result = value.evaluate(dims);
  return result.ok() ? *result : std::numeric_limits<int64_t>::max();
}

void KernelStitcher::chooseDominants() {
  for (const FunctionResult &r : body_.results())
    results_.insert(r.value);
  // Uses of each value, weighted by how often the inlined ops that use it
  // are themselves recomputed; walked from the last op back.
  absl::flat_hash_map<const Value *, int64_t> weight;
  absl::flat_hash_set<const Operation *> dominant;
  const auto &ops = body_.ops();
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    const Operation &op = **it;
    // A literal is recomputed wherever it is read, unless it is written.
    if (op.kind() == OpKind::Constant && !results_.contains(op.result()))
      continue;
    OpCategory category = op.info().category;
    bool feedsBroadcast = false;
    int64_t uses = 0;
    for (const auto &user : ops)
      for (const Value *operand : user->operands())
        if (operand == op.result()) {
          feedsBroadcast |= user->kind() == OpKind::Broadcast;
          uses += dominant.contains(user.get()) ? 1 : weight[user->result()];
        }
    int64_t maxUses = recompute_.contains(op.result()) ? kMaxRecomputedUses : kMaxInlinedUses;
    bool promoted = !recompute_.contains(op.result()) &&
                    ((feedsBroadcast && category == OpCategory::ExpensiveElementwise) ||
                     isAmplifiedChain(op, body_) || isGatheredAlongRows(op, body_));
    bool isDominant =
        results_.contains(op.result()) || isReduction(op) || isScan(op) || promoted ||
        (uses > maxUses && category != OpCategory::Broadcast && category != OpCategory::Source);
    if (isDominant)
      dominant.insert(&op);
    weight[op.result()] = isDominant ? 1 : std::max<int64_t>(uses, 1);
  }
  for (const auto &op : ops)
    if (dominant.contains(op.get())) {
      groupOf_[op->result()] = static_cast<int>(dominants_.size());
      dominants_.push_back(op.get());
    }
  // Each group's inlined ops, and the dominants and parameters it reads:
  // everything reachable from its dominant through inlined ops.
  inputs_.resize(dominants_.size());
  for (size_t g = 0; g < dominants_.size(); ++g) {
    GroupInputs &in = inputs_[g];
    absl::flat_hash_set<const Operation *> seen;
    absl::flat_hash_set<const Value *> params;
    std::vector<const Operation *> stack{dominants_[g]};
    while (!stack.empty()) {
      const Operation *op = stack.back();
      stack.pop_back();
      for (const Value *operand : op->operands()) {
        if (auto read = groupOf_.find(operand); read != groupOf_.end()) {
          if (std::find(in.reads.begin(), in.reads.end(), read->second) == in.reads.end())
            in.reads.push_back(read->second);
        } else if (operand->isParam()) {
          if (params.insert(operand).second)
            in.params.push_back(operand);
        } else if (const Operation *def = operand->definingOp(); def && seen.insert(def).second) {
          stack.push_back(def);
        }
      }
    }
    std::sort(in.reads.begin(), in.reads.end());
    for (const auto &op : ops)
      if (seen.contains(op.get()))
        in.inlined.push_back(op.get());
  }
  readers_.assign(dominants_.size(), 0);
  for (const GroupInputs &in : inputs_)
    for (int p : in.reads)
      ++readers_[static_cast<size_t>(p)];
  // The main dominant: the last row reduction; else the last batch-column
  // reduction whose blocks own whole batches (the statistics of [B, L, C]
  // over L: what reads them per (b, c) stays in the batch's block); else
  // the last scan (its blocks hold whole lines, so the rows are the dims
  // before the scanned one, which element-wise groups can share); else the
  // last dominant.
  main_ = -1;
  for (size_t g = 0; g < dominants_.size(); ++g)
    if (classifyMapping(*dominants_[g]).kind == MappingKind::RowReduce)
      main_ = static_cast<int>(g);
  for (size_t g = 0; g < dominants_.size() && main_ < 0; ++g)
    if (ownsWholeBatches(*dominants_[dominants_.size() - 1 - g]))
      main_ = static_cast<int>(dominants_.size() - 1 - g);
  for (size_t g = 0; g < dominants_.size() && main_ < 0; ++g)
    if (isScan(*dominants_[dominants_.size() - 1 - g]))
      main_ = static_cast<int>(dominants_.size() - 1 - g);
  for (size_t g = 0; g < dominants_.size() && main_ < 0; ++g)
    if (splitsBatchColumns(*dominants_[dominants_.size() - 1 - g]))
      main_ = static_cast<int>(dominants_.size() - 1 - g);
  if (main_ < 0)
    main_ = static_cast<int>(dominants_.size()) - 1;
}

bool KernelStitcher::ownsWholeBatches(const Operation &dominant) const {
  MappingShape shape = classifyMapping(dominant);
  if (shape.kind != MappingKind::BatchColumnReduce)
    return false;
  // A copy: the variants are a temporary.
  const ThreadMapping mapping = planVariants(dominant, target_).back().groups[0].mapping;
  std::optional<int64_t> cols = shape.cols.constantValue();
  return mapping.colsPerBlock == 0 || (cols && mapping.colsPerBlock >= *cols);
}

std::optional<size_t> KernelStitcher::alignedRowDims(const Operation &dominant,
                                                     const std::vector<DimExpr> &rows) const {
  MappingShape shape = classifyMapping(dominant);
  if (shape.kind == MappingKind::RowReduce) {
    const std::vector<DimExpr> &in = dominant.operand(0)->type().shape();
    if (shape.rows != dimProduct(rows) || prefixOf(in, rows.size()) != rows)
      return std::nullopt;
    // The kept dims must be exactly the row dims.
    if (dimProduct(suffixFrom(in, rows.size())) != shape.cols)
      return std::nullopt;
    return rows.size();
  }
  if (shape.kind == MappingKind::BatchColumnReduce) {
    // Its batch dims are the rows, and its block holds all their columns.
    const std::vector<DimExpr> &in = dominant.operand(0)->type().shape();
    if (shape.batch != dimProduct(rows) || prefixOf(in, rows.size()) != rows ||
        !ownsWholeBatches(dominant))
      return std::nullopt;
    return rows.size();
  }
  if (shape.kind != MappingKind::Elementwise && shape.kind != MappingKind::Scan)
    return std::nullopt;
  const std::vector<DimExpr> &result = dominant.type().shape();
  if (result.size() < rows.size() || prefixOf(result, rows.size()) != rows)
    return std::nullopt;
  // A scan's block walks whole lines: the scanned dim is not a row dim.
  if (shape.kind == MappingKind::Scan &&
      rows.size() > static_cast<size_t>(dominant.intAttrOr("dim", 0)))
    return std::nullopt;
  return rows.size();
}

bool KernelStitcher::splitAlongRows(const Operation &dominant, const std::vector<DimExpr> &rows,
                                    const ThreadMapping &mainMapping, PlanGroup &group) const {
  std::optional<size_t> rowDims = alignedRowDims(dominant, rows);
  if (!rowDims)
    return false;
  MappingShape shape = classifyMapping(dominant);
  ThreadMapping &m = group.mapping;
  if (shape.kind == MappingKind::RowReduce && dominant.info().rule != TypeRule::ArgReduce) {
    m.kind = MappingKind::RowPartial;
    m.cols = shape.cols;
  } else if (shape.kind == MappingKind::Elementwise) {
    m.cols = dimProduct(suffixFrom(dominant.type().shape(), *rowDims));
  } else {
    return false;
  }
  m.rows = mainMapping.rows;
  m.rowsPerBlock = 1;
  m.colsPerBlock = mainMapping.colsPerBlock;
  group.blocks = m.rows * DimExpr::ceilDiv(m.cols, m.colsPerBlock);
  return true;
}

bool KernelStitcher::readsRowLocally(const Operation &consumer, const Operation &producer,
                                     size_t rowDims) const {
  // (value, guaranteed prefix) pairs already shown to be fine.
  absl::flat_hash_set<std::pair<const Value *, size_t>> done;
  std::function<bool(const Value *, size_t)> value;
  std::function<bool(const Operation &, size_t)> operation = [&](const Operation &op,
                                                                 size_t prefix) {
    bool elementwise = op.info().isElementwise();
    for (size_t i = 0; i < op.operands().size(); ++i) {
      const Value *operand = op.operand(static_cast<int>(i));
      size_t kept = 0;
      if (elementwise && operand->type().shape() == op.type().shape()) {
        kept = prefix;
      } else if (op.kind() == OpKind::Broadcast) {
        const std::vector<int64_t> &dims = op.attr("dims")->getIntList();
        const std::vector<DimExpr> &from = operand->type().shape();
        while (kept < prefix && kept < from.size() && dims[kept] == static_cast<int64_t>(kept) &&
               from[kept] == op.type().shape()[kept])
          ++kept;
      } else if (op.kind() == OpKind::Reshape) {
        // Row-major: leading dims both shapes share index the same elements
        // (ONNX's Unsqueeze and Squeeze of a row's statistic, say).
        const std::vector<DimExpr> &from = operand->type().shape();
        const std::vector<DimExpr> &to = op.type().shape();
        while (kept < prefix && kept < from.size() && kept < to.size() && from[kept] == to[kept])
          ++kept;
      } else if (op.kind() == OpKind::Concat) {
        // The operands share every dim but the concatenated one.
        kept = std::min(prefix, static_cast<size_t>(op.attr("dim")->getInt()));
      } else if (isScan(op)) {
        // An element depends on its line: the dims before the scanned one.
        kept = std::min(prefix, static_cast<size_t>(op.intAttrOr("dim", 0)));
      } else if (op.kind() == OpKind::TakeAlongAxis) {
        // y[..., i, ...] = x[..., idx[..., i, ...], ...] picks along `dim`
        // only: the dims before it are the result's (a row's label pick).
        size_t dim = static_cast<size_t>(op.attr("dim")->getInt());
        kept = i == 0 ? std::min(prefix, dim) : prefix;
      } else if (op.kind() == OpKind::Gather && i == 0) {
        // The dims before `dim` are the result's; the indices' dims take
        // the result's from `dim` on, so they keep none.
        kept = std::min(prefix, static_cast<size_t>(op.attr("dim")->getInt()));
      }
      if (!value(operand, kept))
        return false;
    }
    return true;
  };
  value = [&](const Value *v, size_t prefix) {
    if (v == producer.result())
      return prefix >= rowDims;
    const Operation *def = v->definingOp();
    if (!def || groupOf_.contains(v))
      return true; // a parameter or another dominant: read from memory
    if (!done.insert({v, prefix}).second)
      return true;
    return operation(*def, prefix);
  };
  // A row reduction reads its operand at (row..., reduced...).
  if (isReduction(consumer))
    return value(consumer.operand(0), static_cast<size_t>(consumer.operand(0)->type().rank()));
  return operation(consumer, static_cast<size_t>(consumer.type().rank()));
}

void KernelStitcher::addBoundedVariant(const KernelVariant &catchAll, StitchedKernel &out) const {
  const ThreadMapping &mapping = catchAll.groups[0].mapping;
  bool rowMajor =
      mapping.kind == MappingKind::RowReduce || mapping.kind == MappingKind::Elementwise;
  if (!rowMajor || mapping.colsPerBlock != 0 || !catchAll.predicates.empty())
    return;
  // Rows of one symbol's length, or of K*S + C (a resize's 2*W or 2*W - 1):
  // the bound is on the symbol, which tiles' sizes are bounded by
  // (sizeBound).
  std::optional<AffineDim> cols = affineInOneSymbol(mapping.cols);
  if (!cols)
    return;
  DimExpr symbol = DimExpr::symbol(cols->symbol);
  int64_t elements =
      target_.blockBufferBytes / (2 * 4 * std::max<int64_t>(mapping.rowsPerBlock, 1));
  int64_t limit = (elements - cols->offset) / cols->factor;
  if (limit < 1)
    return;
  // An earlier variant covering every such row length would shadow it.
  for (const KernelVariant &earlier : out.variants)
    for (const DimPredicate &p : earlier.predicates)
      if (p.lhs == symbol && p.op == DimPredicate::Op::LE && p.rhs.constantValue() &&
          *p.rhs.constantValue() >= limit)
        return;
  KernelVariant bounded = catchAll;
  bounded.predicates.push_back(DimPredicate{symbol, DimPredicate::Op::LE, DimExpr(limit)});
  StitchedKernel trial = out;
  KernelVariant boundedPlan = planWithinBudget(bounded, trial);
  auto blockBuffers = [](const KernelVariant &v) {
    return std::count_if(v.buffers.begin(), v.buffers.end(),
                         [](const PlanBuffer &b) { return b.level == BufferLevel::Block; });
  };
  if (blockBuffers(boundedPlan) <= blockBuffers(out.variants.back()))
    return;
  trial.variants.insert(trial.variants.end() - 1, std::move(boundedPlan));
  out = std::move(trial);
}

std::vector<KernelVariant> KernelStitcher::packedGroupVariants(const KernelVariant &v) const {
  std::vector<KernelVariant> packed;
  // Only beside the main's catch-all: under the main's own conditions the
  // pairs would multiply the variants, often to ones no dims reach.
  if (!v.predicates.empty())
    return packed;
  for (size_t g = 0; g < v.groups.size(); ++g) {
    const PlanGroup &group = v.groups[g];
    const ThreadMapping &mapping = group.mapping;
    if (static_cast<int>(g) == main_ || group.blocks == v.grid ||
        mapping.kind != MappingKind::Elementwise || mapping.rowsPerBlock != 1 ||
        mapping.colsPerBlock != 0 || mapping.cols.constantValue())
      continue;
    for (const KernelVariant &own :
         planVariants(*group.dominant, target_, target_.minElementsPerBlock)) {
      const ThreadMapping &ownMapping = own.groups[0].mapping;
      if (own.predicates.empty() || ownMapping.rowsPerBlock <= 1 || ownMapping.colsPerBlock != 0)
        continue;
      KernelVariant variant = v;
      variant.groups[g].mapping = ownMapping;
      variant.groups[g].blocks = own.grid;
      variant.predicates.insert(variant.predicates.end(), own.predicates.begin(),
                                own.predicates.end());
      packed.push_back(std::move(variant));
    }
    if (!packed.empty())
      break;
  }
  return packed;
}

bool KernelStitcher::splitsOverRows(size_t g, const std::vector<DimExpr> &rows,
                                    const ThreadMapping &mainMapping) const {
  const Operation &op = *dominants_[g];
  if (mainMapping.rowsPerBlock < kMinSplitRows || op.info().rule == TypeRule::ArgReduce)
    return false;
  MappingShape shape = classifyMapping(op);
  // Only a column reduction splits; other dominants may have no operand.
  if (shape.kind != MappingKind::ColumnReduce)
    return false;
  const std::vector<DimExpr> &in = op.operand(0)->type().shape();
  if (prefixOf(in, rows.size()) != rows || dimProduct(suffixFrom(in, rows.size())) != shape.cols)
    return false;
  for (const GroupInputs &other : inputs_)
    if (std::find(other.reads.begin(), other.reads.end(), static_cast<int>(g)) != other.reads.end())
      return false;
  return true;
}

KernelVariant KernelStitcher::planWithinBudget(const KernelVariant &mainVariant,
                                               StitchedKernel &out) const {
  absl::flat_hash_set<const Value *> demoted;
  while (true) {
    StitchedKernel trial = out;
    KernelVariant v = planVariant(mainVariant, trial, demoted);
    int64_t total = 0, largestBytes = 0;
    const Value *largest = nullptr;
    for (const PlanBuffer &b : v.buffers) {
      if (b.level != BufferLevel::Block || b.accumulators || b.staging || b.inResult)
        continue;
      // Block buffers are bounded when planned (sizeBound); an unbounded
      // one counts as the whole budget.
      std::optional<int64_t> count = sizeBound(b.elements, v.predicates);
      int64_t bytes = count ? *count * elementByteSize(b.value->type().elementType())
                            : target_.blockBufferBytes;
      total += bytes;
      if (bytes > largestBytes) {
        largestBytes = bytes;
        largest = b.value;
      }
    }
    if (total <= target_.blockBufferBytes || !largest) {
      out = std::move(trial);
      return v;
    }
    demoted.insert(largest);
  }
}

KernelVariant KernelStitcher::planVariant(const KernelVariant &mainVariant, StitchedKernel &out,
                                          const absl::flat_hash_set<const Value *> &demoted) const {
  const Operation &mainOp = *dominants_[static_cast<size_t>(main_)];
  const ThreadMapping &mainMapping = mainVariant.groups[0].mapping;
  KernelVariant v;
  v.predicates = mainVariant.predicates;
  v.grid = mainVariant.grid;
  v.estimatedBytes = DimExpr(0);
  // Tiles admitted beyond the budget because they will live in a result.
  absl::flat_hash_map<const Value *, const Value *> claimed;

  // The rows every aligned group shares.
  std::optional<std::vector<DimExpr>> rows;
  bool rowMajor =
      mainMapping.colsPerBlock == 0 &&
      (mainMapping.kind == MappingKind::RowReduce || mainMapping.kind == MappingKind::Elementwise ||
       mainMapping.kind == MappingKind::ColumnPartial || mainMapping.kind == MappingKind::Scan);
  // A split row reduction's rows: groups over them split their rows into the
  // same chunks, and every edge is Global (no block owns a whole row).
  bool splitRows = mainMapping.kind == MappingKind::RowPartial;
  // A batch-column main: its batch indices are the rows, a block each.
  bool batchMajor = mainMapping.kind == MappingKind::BatchColumnReduce && ownsWholeBatches(mainOp);
  // A batch-column main over column strips: groups follow its blocks,
  // a batch index's strip each (StitchStrips.cpp).
  bool batchStrips = mainMapping.kind == MappingKind::BatchColumnReduce && !batchMajor &&
                     mainMapping.colsPerBlock > 0;
  StripLayout layout = batchStrips ? stripLayout(mainOp) : StripLayout{};
  // What the aligned groups' row count is: the main's rows, or its batch.
  DimExpr mainRows = batchMajor || batchStrips ? mainMapping.batch : mainMapping.rows;
  if (rowMajor || splitRows || batchMajor || batchStrips) {
    const std::vector<DimExpr> &result = mainOp.type().shape();
    if (mainMapping.kind == MappingKind::RowReduce || splitRows)
      rows = result;
    else if (mainMapping.kind == MappingKind::ColumnPartial)
      rows = prefixOf(mainOp.operand(0)->type().shape(),
                      static_cast<size_t>(mainOp.operand(0)->type().rank()) - result.size());
    else if (batchMajor || batchStrips) {
      const std::vector<int64_t> &reduced = mainOp.attr("dims")->getIntList();
      rows = prefixOf(mainOp.operand(0)->type().shape(),
                      static_cast<size_t>(*std::min_element(reduced.begin(), reduced.end())));
    } else if (mainMapping.kind == MappingKind::Scan)
      rows = prefixOf(result, static_cast<size_t>(mainOp.intAttrOr("dim", 0)));
    else
      rows = prefixOf(result, result.empty() ? 0 : result.size() - 1);
    if (dimProduct(*rows) != mainRows)
      rows.reset();
  }

  size_t numGroups = dominants_.size();
  std::vector<std::optional<size_t>> rowDims(numGroups);
  // Split column reductions and the mapping of the group that combines them.
  std::vector<std::pair<size_t, KernelVariant>> splits;
  for (size_t g = 0; g < numGroups; ++g) {
    const Operation &dominant = *dominants_[g];
    PlanGroup group;
    group.dominant = &dominant;
    group.ops = inputs_[g].inlined;
    group.ops.push_back(&dominant);
    if (static_cast<int>(g) == main_) {
      group.mapping = mainMapping;
      group.blocks = v.grid;
      rowDims[g] = rows && !splitRows ? std::optional<size_t>(rows->size()) : std::nullopt;
      if (isPartial(mainMapping.kind))
        splits.emplace_back(g, planVariants(dominant, target_).back());
    } else {
      std::vector<KernelVariant> own = planVariants(dominant, target_);
      const KernelVariant &fallback = own.back();
      group.mapping = fallback.groups[0].mapping;
      group.blocks = fallback.grid;
      std::optional<ThreadMapping> strip;
      if (batchStrips && rows && (strip = stripMapping(dominant, layout, mainMapping))) {
        group.mapping = *strip;
        group.blocks = v.grid;
        rowDims[g] = rows->size();
      } else if (batchStrips) {
        // Blocks of its own.
      } else if (splitRows) {
        if (rows && splitAlongRows(dominant, *rows, mainMapping, group))
          if (group.mapping.kind == MappingKind::RowPartial)
            splits.emplace_back(g, fallback);
      } else if (rows && splitsOverRows(g, *rows, mainMapping)) {
        // AStitch's task splitting: each row block reduces its own rows,
        // where its producers' tiles are still in block buffers.
        group.mapping.kind = MappingKind::ColumnPartial;
        group.mapping.rows = mainMapping.rows;
        group.mapping.rowsPerBlock = mainMapping.rowsPerBlock;
        group.mapping.colsPerBlock = 0;
        group.blocks = v.grid;
        rowDims[g] = rows->size();
        splits.emplace_back(g, fallback);
      } else if (rows) {
        rowDims[g] = alignedRowDims(dominant, *rows);
        // A batch-column block holds one batch index: the main's blocks
        // must hold one row each.
        if (group.mapping.kind == MappingKind::BatchColumnReduce && mainMapping.rowsPerBlock != 1)
          rowDims[g].reset();
      }
      if (!rowDims[g]) {
        for (const PlanBuffer &b : fallback.buffers)
          v.buffers.push_back(b);
      } else if (batchStrips) {
        for (const PlanBuffer &b : fallback.buffers)
          if (b.accumulators)
            v.buffers.push_back(b);
      } else if (group.mapping.kind == MappingKind::BatchColumnReduce) {
        // Its own mapping already gives each batch index one block.
        group.blocks = v.grid;
        for (const PlanBuffer &b : fallback.buffers)
          if (b.accumulators)
            v.buffers.push_back(b);
      } else if (group.mapping.kind != MappingKind::ColumnPartial) {
        const std::vector<DimExpr> &shape = group.mapping.kind == MappingKind::RowReduce
                                                ? dominant.operand(0)->type().shape()
                                                : dominant.type().shape();
        group.mapping.rows = mainRows;
        group.mapping.cols = dimProduct(suffixFrom(shape, *rowDims[g]));
        group.mapping.rowsPerBlock = mainMapping.rowsPerBlock;
        group.mapping.colsPerBlock = 0;
        group.blocks = v.grid;
      }
    }
    v.groups.push_back(std::move(group));
  }
  for (const PlanBuffer &b : mainVariant.buffers)
    v.buffers.push_back(b);

  // Edges, phases and stages in program order.
  std::vector<int> phase(numGroups, 0), stage(numGroups, 0);
  std::vector<bool> globalReader(numGroups, false), blockReader(numGroups, false);
  std::vector<std::vector<std::pair<int, bool>>> edgesInto(numGroups); // (producer, regional)
  for (size_t g = 0; g < numGroups; ++g) {
    const std::vector<int> &reads = inputs_[g].reads;
    std::vector<std::pair<int, bool>> &edges = edgesInto[g];
    for (int p : reads) {
      size_t pi = static_cast<size_t>(p);
      bool regional =
          rowDims[g] && rowDims[pi] &&
          (batchStrips ? readsStripInPlace(*dominants_[g], *dominants_[pi], layout)
                       : readsRowLocally(*dominants_[g], *dominants_[pi], *rowDims[pi]));
      if (regional && demoted.contains(dominants_[pi]->result()))
        regional = false;
      const Value *produced = dominants_[pi]->result();
      const Value *home = readers_[pi] == 1 ? resultHome(produced, g) : nullptr;
      // A strip's tile is one row of columns; a result's is several.
      bool homeFree = home && !batchStrips &&
                      std::none_of(claimed.begin(), claimed.end(),
                                   [&](const auto &c) { return c.second == home; });
      if (regional && !results_.contains(produced) && homeFree) {
        // Its tile will live in its only reader's result: no size limit.
        claimed.emplace(produced, home);
      } else if (regional && !results_.contains(produced)) {
        // The producer's tile must fit the block buffer.
        const std::vector<DimExpr> &shape = dominants_[pi]->type().shape();
        DimExpr elements = batchStrips ? DimExpr(mainMapping.colsPerBlock)
                                       : DimExpr(mainMapping.rowsPerBlock) *
                                             dimProduct(suffixFrom(shape, *rowDims[pi]));
        std::optional<int64_t> count = sizeBound(elements, v.predicates);
        regional = count && *count * elementByteSize(dominants_[pi]->type().elementType()) <=
                                target_.blockBufferBytes;
      }
      edges.emplace_back(p, regional);
      // A split reduction is complete after the phase of its combine.
      int after = regional ? 0 : isPartial(v.groups[pi].mapping.kind) ? 2 : 1;
      phase[g] = std::max(phase[g], phase[pi] + after);
    }
  }
  // A group read only through Regional edges whose readers all come in a
  // later phase moves into theirs (a resize's interpolated rows, which read
  // only parameters, beside taps computed a phase before their reader):
  // otherwise its edges would cross a grid barrier. Only a group that reads
  // nothing through Regional edges itself moves, so no edge into it breaks.
  for (size_t g = numGroups; g-- > 0;) {
    bool movable = std::none_of(edgesInto[g].begin(), edgesInto[g].end(),
                                [](const auto &edge) { return edge.second; });
    int readersPhase = std::numeric_limits<int>::max();
    for (size_t r = 0; r < numGroups && movable; ++r)
      for (auto [p, regional] : edgesInto[r])
        if (p == static_cast<int>(g)) {
          movable &= regional;
          readersPhase = std::min(readersPhase, phase[r]);
        }
    if (movable && readersPhase != std::numeric_limits<int>::max() && readersPhase > phase[g])
      phase[g] = readersPhase;
  }
  for (size_t g = 0; g < numGroups; ++g) {
    for (auto [p, regional] : edgesInto[g]) {
      size_t pi = static_cast<size_t>(p);
      const Value *value = dominants_[pi]->result();
      if (regional && phase[pi] == phase[g]) {
        stage[g] = std::max(stage[g], stage[pi] + 1);
        blockReader[pi] = true;
        v.edges.push_back({value, p, static_cast<int>(g), StitchScheme::Regional});
      } else {
        globalReader[pi] = true;
        v.edges.push_back({value, p, static_cast<int>(g), StitchScheme::Global});
      }
    }
  }
  // Each split reduction is combined in the phase after its partials; its
  // readers read what the combine writes.
  for (const auto &[g, fallback] : splits) {
    const Operation &dominant = *dominants_[g];
    // A copy: v.groups grows below.
    const ThreadMapping partial = v.groups[g].mapping;
    PlanGroup combine;
    combine.dominant = &dominant;
    combine.ops = {&dominant};
    DimExpr partialRows;
    if (partial.kind == MappingKind::ColumnPartial) {
      combine.mapping = fallback.groups[0].mapping;
      combine.mapping.kind = MappingKind::ColumnCombine;
      combine.mapping.rows = v.grid;
      combine.blocks = fallback.grid;
      partialRows = v.grid;
    } else {
      combine.mapping = partial;
      combine.mapping.kind = MappingKind::RowCombine;
      combine.mapping.cols = DimExpr::ceilDiv(partial.cols, partial.colsPerBlock);
      combine.mapping.colsPerBlock = 0;
      combine.blocks = partial.rows;
      partialRows = partial.rows;
    }
    DimExpr partialCols =
        partial.kind == MappingKind::ColumnPartial ? partial.cols : combine.mapping.cols;
    DimExpr elements = partialRows * partialCols;
    int c = static_cast<int>(v.groups.size());
    v.groups.push_back(std::move(combine));
    phase.push_back(phase[g] + 1);
    stage.push_back(0);
    for (PlanEdge &e : v.edges)
      if (e.producer == static_cast<int>(g))
        e.producer = c;
    v.edges.push_back({dominant.result(), static_cast<int>(g), c, StitchScheme::Global});
    v.buffers.push_back(PlanBuffer{dominant.result(), BufferLevel::Global, elements,
                                   /*accumulators=*/false,
                                   /*partials=*/true});
    // Half-precision states compute (and are stored) in f32.
    ElementType type = columnAccumulationType(dominant);
    if (type == ElementType::F16 || type == ElementType::BF16)
      type = ElementType::F32;
    auto known = std::find_if(out.partials.begin(), out.partials.end(), [&](const PlanPartials &p) {
      return p.reduction == dominant.result();
    });
    if (known == out.partials.end())
      out.partials.push_back(PlanPartials{dominant.result(), type, partialRows, partialCols});
    else if (representativeValue(partialRows) > representativeValue(known->blocks))
      known->blocks = partialRows;
  }
  int numPhases = v.groups.empty() ? 1 : *std::max_element(phase.begin(), phase.end()) + 1;
  v.phases.resize(static_cast<size_t>(numPhases));
  for (size_t g = 0; g < v.groups.size(); ++g) {
    PlanPhase &p = v.phases[static_cast<size_t>(phase[g])];
    if (p.stages.size() <= static_cast<size_t>(stage[g]))
      p.stages.resize(static_cast<size_t>(stage[g]) + 1);
    p.stages[static_cast<size_t>(stage[g])].groups.push_back(static_cast<int>(g));
  }
  // Stages left empty by the numbering are dropped.
  for (PlanPhase &p : v.phases)
    p.stages.erase(std::remove_if(p.stages.begin(), p.stages.end(),
                                  [](const PlanStage &s) { return s.groups.empty(); }),
                   p.stages.end());

  // Sub-dominants share row tiles; a strip's groups keep theirs apart.
  if (!batchStrips)
    shareSubDominants(v, rowDims, phase, stage, mainMapping.rowsPerBlock, demoted, claimed);
  for (size_t g = 0; g < numGroups; ++g) {
    const Value *value = dominants_[g]->result();
    if (results_.contains(value) || (!globalReader[g] && !blockReader[g]))
      continue;
    if (globalReader[g]) {
      v.buffers.push_back(PlanBuffer{value, BufferLevel::Global, value->type().numElements()});
      if (std::find(out.scratch.begin(), out.scratch.end(), value) == out.scratch.end())
        out.scratch.push_back(value);
    } else {
      v.buffers.push_back(
          PlanBuffer{value, BufferLevel::Block,
                     batchStrips ? DimExpr(mainMapping.colsPerBlock)
                                 : DimExpr(mainMapping.rowsPerBlock) *
                                       dimProduct(suffixFrom(value->type().shape(), *rowDims[g]))});
    }
  }
  // One launch has one block size: every group's lanes are the main
  // group's (the same on CPU; on GPUs the main group's rows decide).
  // A packed block's row groups are the main group's too, for the groups
  // that walk its rows.
  for (PlanGroup &group : v.groups) {
    group.mapping.lanes = mainMapping.lanes;
    // Blocks of several groups share their ids (ThreadMapping::rowBlocksFirst).
    if (v.groups.size() > 1)
      group.mapping.rowBlocksFirst = false;
    bool walksRows = group.mapping.kind == MappingKind::Elementwise ||
                     group.mapping.kind == MappingKind::RowReduce;
    if (walksRows)
      group.mapping.rowLanes =
          group.mapping.rowsPerBlock == mainMapping.rowsPerBlock ? mainMapping.rowLanes : 0;
  }
  if (!batchStrips)
    placeTilesInResults(v, claimed);
  v.estimatedBytes = estimateBytes(v, rowDims, phase);
  // Partials are written once and read once.
  for (const PlanBuffer &b : v.buffers)
    if (b.partials)
      v.estimatedBytes =
          v.estimatedBytes +
          DimExpr(2 * elementByteSize(columnAccumulationType(*b.value->definingOp()))) * b.elements;
  return v;
}

StitchedKernel KernelStitcher::run() {
  chooseDominants();
  StitchedKernel out;
  if (dominants_.empty())
    return out;
  const Operation &mainOp = *dominants_[static_cast<size_t>(main_)];
  // A column reduction beside the main rows may be split over their blocks:
  // its partials, a row per block, then need blocks of many rows.
  bool columnReductions = std::any_of(dominants_.begin(), dominants_.end(), [](const Operation *d) {
    return classifyMapping(*d).kind == MappingKind::ColumnReduce;
  });
  std::vector<KernelVariant> mains =
      planVariants(mainOp, target_, columnReductions ? target_.minElementsPerBlock : 0);
  if (std::optional<KernelVariant> split = splitColumnVariant(mainOp, target_)) {
    // Unconditional: the strip variants would never be chosen.
    if (split->predicates.empty())
      mains.clear();
    mains.insert(mains.begin(), std::move(*split));
  }
  if (std::optional<KernelVariant> split = splitRowVariant(mainOp, target_)) {
    if (split->predicates.empty())
      mains.clear();
    mains.insert(mains.begin(), std::move(*split));
  }
  for (const KernelVariant &mainVariant : mains) {
    KernelVariant v = planWithinBudget(mainVariant, out);
    for (KernelVariant &packed : packedGroupVariants(v))
      out.variants.push_back(std::move(packed));
    out.variants.push_back(std::move(v));
  }
  addBoundedVariant(mains.back(), out);
  // Scratch in program order, so plans print the same every time.
  std::vector<const Value *> ordered;
  for (const Operation *d : dominants_)
    if (std::find(out.scratch.begin(), out.scratch.end(), d->result()) != out.scratch.end())
      ordered.push_back(d->result());
  out.scratch = std::move(ordered);
  return out;
}

} // namespace xs::plan
