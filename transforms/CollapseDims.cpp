#include "transforms/CollapseDims.h"

#include <algorithm>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "ir/Builder.h"
#include "ir/ValueFacts.h"
#include "transforms/DCE.h"

namespace xs {

namespace {

/// `shape` with dims `first` and `first + 1` merged into their product.
std::vector<DimExpr> mergedShape(const std::vector<DimExpr> &shape, int64_t first) {
  auto d = static_cast<size_t>(first);
  std::vector<DimExpr> merged(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(d));
  merged.push_back(shape[d] * shape[d + 1]);
  merged.insert(merged.end(), shape.begin() + static_cast<std::ptrdiff_t>(d + 2), shape.end());
  return merged;
}

/// Values a region reads in the merged shape through a new op (a reshape,
/// or a splat in that shape) instead of changing their own type.
bool isBoundary(const Value &value) {
  const Operation *def = value.definingOp();
  return def == nullptr || def->kind() == OpKind::Reshape || def->kind() == OpKind::Constant;
}

/// A splat is made again in whatever shape a reader wants.
bool isSplat(const Value &value) {
  const Operation *def = value.definingOp();
  return def != nullptr && isScalarConstant(*def);
}

/// Where the merged pair is in each value of one op: the first of the two
/// dims, or nullopt for a value without them (the result of a reduction
/// over both, the operand of a broadcast that adds both).
struct OpPairs {
  std::optional<int64_t> result;
  std::vector<std::optional<int64_t>> operands;
};

/// Broadcast: operand dims k and k + 1 land on adjacent result dims, each
/// kept as it is, or both of size 1 and expanded together.
bool broadcastKeepsPair(const Function &f, const Operation &op, size_t k) {
  const std::vector<int64_t> &dims = op.attr("dims")->getIntList();
  if (k + 1 >= dims.size() || dims[k + 1] != dims[k] + 1)
    return false;
  const TensorType &from = op.operand(0)->type();
  const TensorType &to = op.type();
  auto kd = static_cast<int64_t>(k);
  const ConstraintStore &c = f.constraints();
  bool kept = c.provablyEqual(from.dim(kd), to.dim(dims[k])) &&
              c.provablyEqual(from.dim(kd + 1), to.dim(dims[k + 1]));
  bool expanded = from.dim(kd) == DimExpr(1) && from.dim(kd + 1) == DimExpr(1);
  return kept || expanded;
}

/// What one value of `op` holding the pair at `first` asks of its other
/// values: `known` is that value's operand index, or -1 for the result.
/// nullopt when `op` cannot treat the two dims as one.
std::optional<OpPairs> pairsOf(const Function &f, const Operation &op, int known, int64_t first) {
  size_t n = op.numOperands();
  if (op.info().isElementwise())
    return OpPairs{first, std::vector<std::optional<int64_t>>(n, first)};
  switch (op.kind()) {
  case OpKind::Broadcast: {
    const std::vector<int64_t> &dims = op.attr("dims")->getIntList();
    if (known == 0) {
      auto k = static_cast<size_t>(first);
      if (!broadcastKeepsPair(f, op, k))
        return std::nullopt;
      return OpPairs{dims[k], {first}};
    }
    auto at = [&](int64_t d) { return std::find(dims.begin(), dims.end(), d); };
    if (at(first) == dims.end() && at(first + 1) == dims.end())
      return OpPairs{first, {std::nullopt}};
    auto k = static_cast<size_t>(at(first) - dims.begin());
    if (at(first) == dims.end() || !broadcastKeepsPair(f, op, k))
      return std::nullopt;
    return OpPairs{first, {static_cast<int64_t>(k)}};
  }
  case OpKind::ReduceSum:
  case OpKind::ReduceMax:
  case OpKind::ReduceMin:
  case OpKind::ReduceProd: {
    const std::vector<int64_t> &dims = op.attr("dims")->getIntList();
    auto reduced = [&](int64_t d) { return std::find(dims.begin(), dims.end(), d) != dims.end(); };
    if (known == 0) {
      bool a = reduced(first), b = reduced(first + 1);
      if (a != b)
        return std::nullopt;
      if (a)
        return OpPairs{std::nullopt, {first}};
      auto before = std::count_if(dims.begin(), dims.end(), [&](int64_t d) { return d < first; });
      return OpPairs{first - before, {first}};
    }
    std::vector<int64_t> kept;
    for (int64_t d = 0; d < op.operand(0)->type().rank(); ++d)
      if (!reduced(d))
        kept.push_back(d);
    auto i = static_cast<size_t>(first);
    if (kept[i + 1] != kept[i] + 1)
      return std::nullopt;
    return OpPairs{first, {kept[i]}};
  }
  case OpKind::Iota: {
    int64_t dim = op.intAttrOr("dim", 0);
    if (dim == first || dim == first + 1)
      return std::nullopt;
    return OpPairs{first, {}};
  }
  case OpKind::Reshape:
    // Reads the merged operand in place: its result keeps its shape.
    return OpPairs{std::nullopt, {first}};
  default:
    return std::nullopt;
  }
}

using Users = absl::flat_hash_map<const Value *, std::vector<Operation *>>;

/// A set of values that merge the same two dims, and the ops among them.
struct Region {
  /// Values in the region: the first dim of their pair. Computed values
  /// change their own type; boundary values (not splats) are read through
  /// one reshape by every reader, all of which are in the region.
  absl::flat_hash_map<Value *, int64_t> merged;
  /// Operands reading a boundary value merged: (op, operand index) -> pair.
  absl::flat_hash_map<std::pair<Operation *, size_t>, int64_t> boundaryReads;
  std::vector<Operation *> ops;

  int64_t operandPair(Operation *op, size_t i) const {
    if (auto it = boundaryReads.find({op, i}); it != boundaryReads.end())
      return it->second;
    return merged.at(op->operand(i));
  }
};

/// Grows the region of `start` merging dims (first, first + 1) over every
/// op that reads or writes a value of it; false where one cannot.
bool growRegion(const Function &f, const Users &users, Value *start, int64_t first,
                Region &region) {
  std::vector<Operation *> work;
  absl::flat_hash_set<Operation *> queued;
  auto enqueue = [&](Operation *op) {
    if (op != nullptr && queued.insert(op).second)
      work.push_back(op);
  };
  // Only the innermost dims, the columns of a mapping, whose length is what
  // merging changes (rows are flattened whatever their dims); and a dim of
  // rows stays (one row leaves a mapping only its column splits to spread
  // over blocks). A value read by ops outside the region would be read in
  // two layouts, which the planner cannot stitch as one stream: its readers
  // all join.
  auto innermost = [](const Value &value, int64_t pair) {
    return pair == value.type().rank() - 2 && pair >= 1;
  };
  auto assign = [&](Value *value, int64_t pair) {
    if (!innermost(*value, pair))
      return false;
    auto [it, inserted] = region.merged.try_emplace(value, pair);
    if (!inserted)
      return it->second == pair;
    if (!isBoundary(*value))
      enqueue(value->definingOp());
    if (auto u = users.find(value); u != users.end())
      for (Operation *user : u->second)
        enqueue(user);
    return true;
  };
  if (!assign(start, first))
    return false;
  while (!work.empty()) {
    Operation *op = work.back();
    work.pop_back();
    region.ops.push_back(op);
    int known = -1;
    int64_t pair = 0;
    if (auto it = region.merged.find(op->result()); it != region.merged.end()) {
      pair = it->second;
    } else {
      for (size_t i = 0; i < op->numOperands(); ++i)
        if (auto m = region.merged.find(op->operand(i)); m != region.merged.end()) {
          known = static_cast<int>(i);
          pair = m->second;
          break;
        }
    }
    std::optional<OpPairs> pairs = pairsOf(f, *op, known, pair);
    if (!pairs)
      return false;
    // A reshape's result keeps its type whatever its operand's.
    if (pairs->result ? !assign(op->result(), *pairs->result)
                      : !isBoundary(*op->result()) && region.merged.contains(op->result()))
      return false;
    for (size_t i = 0; i < op->numOperands(); ++i) {
      Value *operand = op->operand(i);
      const std::optional<int64_t> &p = pairs->operands[i];
      if (isSplat(*operand)) {
        if (p && !innermost(*operand, *p))
          return false;
        if (p)
          region.boundaryReads[{op, i}] = *p;
        continue;
      }
      if (p ? !assign(operand, *p) : region.merged.contains(operand))
        return false;
      if (p && isBoundary(*operand) && op->kind() != OpKind::Reshape)
        region.boundaryReads[{op, i}] = *p;
    }
  }
  return true;
}

/// `dims` (of a broadcast's result or a reduction's operand) after dims
/// `first` and `first + 1` become one.
std::vector<int64_t> mergedDimList(const std::vector<int64_t> &dims, int64_t first) {
  std::vector<int64_t> out;
  for (int64_t d : dims)
    if (d != first + 1)
      out.push_back(d > first + 1 ? d - 1 : d);
  return out;
}

absl::Status applyRegion(Function &f, Region &region) {
  // Attributes first: they are read against the pairs, not the types.
  for (Operation *op : region.ops) {
    if (op->kind() == OpKind::Broadcast)
      op->setAttr("dims", Attribute::intList(mergedDimList(op->attr("dims")->getIntList(),
                                                           region.merged.at(op->result()))));
    else if (op->info().rule == TypeRule::Reduce)
      op->setAttr("dims", Attribute::intList(mergedDimList(op->attr("dims")->getIntList(),
                                                           region.operandPair(op, 0))));
    else if (op->kind() == OpKind::Iota && op->intAttrOr("dim", 0) > region.merged.at(op->result()))
      op->setAttr("dim", Attribute::integer(op->intAttrOr("dim", 0) - 1));
  }
  absl::flat_hash_map<const Value *, TensorType> returnedType;
  for (const FunctionResult &r : f.results())
    if (region.merged.contains(r.value) && !isBoundary(*r.value))
      returnedType.try_emplace(r.value, r.value->type());
  for (auto &[value, pair] : region.merged)
    if (!isBoundary(*value))
      value->setType(
          TensorType(value->type().elementType(), mergedShape(value->type().shape(), pair)));

  // Boundary values are read in the merged shape through one new op each,
  // placed before their first reader.
  absl::flat_hash_map<const Operation *, size_t> position;
  for (size_t i = 0; i < f.ops().size(); ++i)
    position[f.ops()[i].get()] = i;
  std::vector<std::pair<std::pair<Operation *, size_t>, int64_t>> reads(
      region.boundaryReads.begin(), region.boundaryReads.end());
  std::sort(reads.begin(), reads.end(), [&](const auto &a, const auto &b) {
    return std::pair(position.at(a.first.first), a.first.second) <
           std::pair(position.at(b.first.first), b.first.second);
  });
  absl::flat_hash_map<std::pair<const Value *, int64_t>, Value *> readAs;
  for (const auto &[slot, pair] : reads) {
    auto [op, index] = slot;
    Value *value = op->operand(index);
    Value *&merged = readAs[{value, pair}];
    if (merged == nullptr) {
      TensorType type(value->type().elementType(), mergedShape(value->type().shape(), pair));
      const Operation *def = value->definingOp();
      Builder b(f, op, op->loc());
      if (isSplat(*value)) {
        XS_ASSIGN_OR_RETURN(merged, b.create(OpKind::Constant, {}, def->attrs(), type));
      } else {
        Value *source = def != nullptr && def->kind() == OpKind::Reshape ? def->operand(0) : value;
        if (source->type() == type) {
          merged = source;
        } else {
          XS_ASSIGN_OR_RETURN(merged, b.create(OpKind::Reshape, {source}, {}, type));
        }
      }
    }
    op->setOperand(index, merged);
  }

  absl::flat_hash_map<const Value *, Value *> returnedAs;
  for (FunctionResult &r : f.results()) {
    auto declared = returnedType.find(r.value);
    if (declared == returnedType.end())
      continue;
    Value *&back = returnedAs[r.value];
    if (back == nullptr) {
      Builder b(f, nullptr, r.loc);
      XS_ASSIGN_OR_RETURN(back, b.create(OpKind::Reshape, {r.value}, {}, declared->second));
    }
    r.value = back;
  }
  return absl::OkStatus();
}

/// Whether the region broadcasts or reduces: element-wise ops alone walk
/// their elements in order whatever the dims (a row of the region's mapping
/// is as long as it was), while a broadcast back over the merged dims reads
/// at the loop's own column instead of at an index divided back into the
/// two dims, and a reduction's rows and columns line up with the
/// element-wise ops' of the same values.
bool readsAcrossRows(const Region &region) {
  return std::any_of(region.ops.begin(), region.ops.end(), [](const Operation *op) {
    return op->kind() == OpKind::Broadcast || op->info().rule == TypeRule::Reduce;
  });
}

Users usersOf(const Function &f) {
  Users users;
  for (const auto &op : f.ops())
    for (const Value *operand : op->operands())
      users[operand].push_back(op.get());
  return users;
}

} // namespace

absl::StatusOr<bool> runCollapseDims(Function &function) {
  bool changed = false;
  for (bool progress = true; progress;) {
    // Ops nothing reads would tie a region to the dims they read (the
    // transposes sink-transposes leaves behind, the reshapes and splats a
    // merge leaves).
    XS_ASSIGN_OR_RETURN(bool erased, runDCE(function));
    changed |= erased;
    progress = false;
    Users users = usersOf(function);
    // A region that cannot merge fails from any of its values alike.
    absl::flat_hash_set<std::pair<const Value *, int64_t>> failed;
    for (const auto &op : function.ops()) {
      Value *start = op->result();
      int64_t rank = start->type().rank();
      if (isBoundary(*start) || rank < 3 || failed.contains({start, rank - 2}))
        continue;
      Region region;
      if (!growRegion(function, users, start, rank - 2, region) || !readsAcrossRows(region)) {
        for (const auto &[value, pair] : region.merged)
          failed.insert({value, pair});
        continue;
      }
      if (absl::Status s = applyRegion(function, region); !s.ok())
        return s;
      progress = changed = true;
      break;
    }
  }
  return changed;
}

} // namespace xs
