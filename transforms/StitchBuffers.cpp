// Where a stitched kernel's values live and what a variant moves
// (KernelStitcher.h): tiles kept in results, tiles of sub-dominants shared
// between groups, and the cost model's bytes.

#include "transforms/KernelStitcher.h"

namespace xs::plan {

const Value *KernelStitcher::resultHome(const Value *value, size_t reader) const {
  const Operation &dominant = *dominants_[reader];
  const Operation *producer = value->definingOp();
  if (!target_.resultTilesAsBlockBuffers || !producer || !results_.contains(dominant.result()) ||
      dominant.type() != value->type() ||
      classifyMapping(dominant).kind != MappingKind::Elementwise)
    return nullptr;
  // Outputs are stored in op order, the dominant last: an earlier output
  // would be computed after the dominant overwrote the tile it reads.
  for (const Operation *op : inputs_[reader].inlined)
    if (results_.contains(op->result()))
      return nullptr;
  if (!readsRowLocally(dominant, *producer, static_cast<size_t>(value->type().rank())))
    return nullptr;
  return dominant.result();
}

void KernelStitcher::placeTilesInResults(
    KernelVariant &v, const absl::flat_hash_map<const Value *, const Value *> &claimed) const {
  absl::flat_hash_set<const Value *> buffered, used;
  for (const PlanBuffer &b : v.buffers)
    if (b.level != BufferLevel::Register)
      buffered.insert(b.value);
  std::vector<PlanBuffer *> order;
  for (PlanBuffer &b : v.buffers)
    if (claimed.contains(b.value))
      order.push_back(&b);
  for (PlanBuffer &b : v.buffers)
    if (!claimed.contains(b.value))
      order.push_back(&b);
  for (PlanBuffer *buffer : order) {
    PlanBuffer &b = *buffer;
    if (b.level != BufferLevel::Block || b.accumulators || b.staging || b.partials)
      continue;
    std::optional<size_t> reader;
    bool one = true;
    for (const PlanEdge &e : v.edges)
      if (e.value == b.value) {
        one = one && (!reader || *reader == static_cast<size_t>(e.consumer));
        reader = static_cast<size_t>(e.consumer);
      }
    if (!reader || !one || *reader >= dominants_.size())
      continue;
    const PlanGroup &group = v.groups[*reader];
    bool writesOnlyDominant =
        std::none_of(group.ops.begin(), group.ops.end(), [&](const Operation *op) {
          return op != group.dominant &&
                 (results_.contains(op->result()) || buffered.contains(op->result()));
        });
    const Value *home = writesOnlyDominant ? resultHome(b.value, *reader) : nullptr;
    if (std::optional<int64_t> bound = sizeBound(b.elements, v.predicates);
        !claimed.contains(b.value) && bound &&
        *bound * elementByteSize(b.value->type().elementType()) <= target_.resultTileMinBytes)
      home = nullptr;
    if (home && used.insert(home).second)
      b.inResult = home;
  }
}

bool KernelStitcher::worthSharing(const Operation &op) const {
  if (op.info().category == OpCategory::ExpensiveElementwise)
    return true;
  ElementType from = op.operand(0)->type().elementType();
  return target_.keepsWidenedHalves && op.kind() == OpKind::Cast &&
         (from == ElementType::F16 || from == ElementType::BF16) &&
         op.type().elementType() == ElementType::F32;
}

void KernelStitcher::shareSubDominants(
    KernelVariant &v, const std::vector<std::optional<size_t>> &rowDims,
    const std::vector<int> &phase, const std::vector<int> &stage, int64_t rowsPerBlock,
    const absl::flat_hash_set<const Value *> &demoted,
    absl::flat_hash_map<const Value *, const Value *> &claimed) const {
  // A shared value is read from its buffer by every group emitted after its
  // writer, so every other group that computes it must be a reader: same
  // phase, later stage, reading only rows of its own block.
  size_t numGroups = dominants_.size();
  absl::flat_hash_map<const Value *, size_t> shared; // value -> the group writing it
  std::vector<bool> changed(numGroups, false);
  for (size_t g = 0; g < numGroups; ++g) {
    MappingKind kind = v.groups[g].mapping.kind;
    if (!rowDims[g] || (kind != MappingKind::RowReduce && kind != MappingKind::Elementwise))
      continue;
    const std::vector<DimExpr> &tileShape = kind == MappingKind::RowReduce
                                                ? dominants_[g]->operand(0)->type().shape()
                                                : dominants_[g]->type().shape();
    DimExpr elements = DimExpr(rowsPerBlock) * dimProduct(suffixFrom(tileShape, *rowDims[g]));
    for (const Operation *op : inputs_[g].inlined) {
      const Value *value = op->result();
      if (!worthSharing(*op) || shared.contains(value) || demoted.contains(value) ||
          value->type().shape() != tileShape)
        continue;
      std::vector<size_t> readers;
      bool readable = true;
      for (size_t h = 0; h < numGroups && readable; ++h) {
        const std::vector<const Operation *> &ops = inputs_[h].inlined;
        if (h == g || std::find(ops.begin(), ops.end(), op) == ops.end())
          continue;
        readable = rowDims[h] && phase[h] == phase[g] && stage[h] > stage[g] &&
                   readsRowLocally(*dominants_[h], *op, *rowDims[g]);
        readers.push_back(h);
      }
      std::optional<int64_t> count = sizeBound(elements, v.predicates);
      bool fits = count &&
                  *count * elementByteSize(value->type().elementType()) <= target_.blockBufferBytes;
      const Value *home = readable && readers.size() == 1 ? resultHome(value, readers[0]) : nullptr;
      bool homeFree = home && std::none_of(claimed.begin(), claimed.end(),
                                           [&](const auto &c) { return c.second == home; });
      if (!readable || readers.empty() || (!fits && !homeFree))
        continue;
      if (!fits)
        claimed.emplace(value, home);
      shared.emplace(value, g);
      v.buffers.push_back(PlanBuffer{value, BufferLevel::Block, elements});
      for (size_t h : readers) {
        v.edges.push_back(
            {value, static_cast<int>(g), static_cast<int>(h), StitchScheme::Regional});
        changed[h] = true;
      }
    }
  }
  for (size_t h = 0; h < numGroups; ++h) {
    if (!changed[h])
      continue;
    // The group now inlines only what it reaches without passing a value
    // read from a block buffer.
    absl::flat_hash_set<const Operation *> reached;
    std::vector<const Operation *> stack{dominants_[h]};
    while (!stack.empty()) {
      const Operation *op = stack.back();
      stack.pop_back();
      for (const Value *operand : op->operands()) {
        const Operation *def = operand->definingOp();
        auto writer = shared.find(operand);
        bool readFromBuffer = writer != shared.end() && writer->second != h;
        if (def && !groupOf_.contains(operand) && !readFromBuffer && reached.insert(def).second)
          stack.push_back(def);
      }
    }
    std::vector<const Operation *> &ops = v.groups[h].ops;
    ops.erase(std::remove_if(ops.begin(), ops.end(),
                             [&](const Operation *op) {
                               return op != dominants_[h] && !reached.contains(op);
                             }),
              ops.end());
    // Edges whose value the group no longer reads go.
    auto reads = [&](const Value *value) {
      for (const Operation *op : ops)
        for (const Value *operand : op->operands())
          if (operand == value)
            return true;
      return false;
    };
    v.edges.erase(std::remove_if(v.edges.begin(), v.edges.end(),
                                 [&](const PlanEdge &e) {
                                   return e.consumer == static_cast<int>(h) && !reads(e.value);
                                 }),
                  v.edges.end());
  }
  // A shared value whose readers all read a later shared value instead
  // (softmax's e / s when log(e / s) is shared too) needs no buffer.
  v.buffers.erase(
      std::remove_if(v.buffers.begin(), v.buffers.end(),
                     [&](const PlanBuffer &b) {
                       return shared.contains(b.value) &&
                              std::none_of(v.edges.begin(), v.edges.end(),
                                           [&](const PlanEdge &e) { return e.value == b.value; });
                     }),
      v.buffers.end());
}

DimExpr KernelStitcher::estimateBytes(const KernelVariant &v,
                                      const std::vector<std::optional<size_t>> &rowDims,
                                      const std::vector<int> &phase) const {
  // Groups that share the main rows read their block's tiles while they are
  // in cache: a parameter costs one pass per phase that reads it. Other
  // groups read theirs on their own. A value crossing a grid barrier costs
  // its write and one read per phase that reads it; block buffers nothing.
  DimExpr bytes(0);
  absl::flat_hash_set<std::pair<const Value *, int>> read;
  for (size_t g = 0; g < dominants_.size(); ++g) {
    for (const Value *param : inputs_[g].params) {
      if (rowDims[g] && !read.insert({param, phase[g]}).second)
        continue;
      bytes = bytes + tensorBytes(param->type());
    }
    if (results_.contains(dominants_[g]->result()))
      bytes = bytes + tensorBytes(dominants_[g]->type());
  }
  absl::flat_hash_set<const Value *> written;
  for (const PlanEdge &e : v.edges) {
    // Partials are counted by planVariant.
    if (e.scheme != StitchScheme::Global ||
        isPartial(v.groups[static_cast<size_t>(e.producer)].mapping.kind))
      continue;
    if (!results_.contains(e.value) && written.insert(e.value).second)
      bytes = bytes + tensorBytes(e.value->type());
    if (read.insert({e.value, phase[static_cast<size_t>(e.consumer)]}).second)
      bytes = bytes + tensorBytes(e.value->type());
  }
  return bytes;
}

} // namespace xs::plan
