// Amplified chains and rows gathered along themselves (AmplifiedChains.h):
// element-wise chains the stitch planner computes once, as dominants.

#include "transforms/AmplifiedChains.h"

#include <vector>

#include "transforms/KernelStitcher.h"

namespace xs::plan {

namespace {

/// Whether `op` is a transcendental function: tens of instructions an
/// element where a division is one.
bool isTranscendental(const Operation &op) {
  switch (op.kind()) {
  case OpKind::Exp:
  case OpKind::Log:
  case OpKind::Log1p:
  case OpKind::Tanh:
  case OpKind::Sigmoid:
  case OpKind::Erf:
  case OpKind::Sin:
  case OpKind::Cos:
  case OpKind::Pow:
    return true;
  default:
    return false;
  }
}

/// What the element-wise ops computing `op`'s value (op among them,
/// following operands up to parameters, literals, sources, broadcasts,
/// reductions and scans) cost, an expensive op (a division, a
/// transcendental) as kExpensiveOpCost light ones, counted up to `enough`;
/// and whether a transcendental is among them.
struct ChainCost {
  int64_t total = 0;
  bool hasTranscendental = false;
};
ChainCost elementwiseChainCost(const Operation &op, int64_t enough) {
  absl::flat_hash_set<const Operation *> seen;
  std::vector<const Operation *> stack{&op};
  ChainCost cost;
  while (!stack.empty() && cost.total < enough) {
    const Operation *at = stack.back();
    stack.pop_back();
    OpCategory category = at->info().category;
    if (category != OpCategory::LightElementwise && category != OpCategory::ExpensiveElementwise)
      continue;
    if (!seen.insert(at).second)
      continue;
    cost.total += category == OpCategory::ExpensiveElementwise ? kExpensiveOpCost : 1;
    cost.hasTranscendental |= isTranscendental(*at);
    for (const Value *operand : at->operands())
      if (const Operation *def = operand->definingOp())
        stack.push_back(def);
  }
  return cost;
}

/// Whether `broadcast` varies along its result's last dim: an operand dim
/// maps to it unrepeated.
bool variesAlongLastDim(const Operation &broadcast) {
  const std::vector<int64_t> &dims = broadcast.attr("dims")->getIntList();
  const int64_t last = broadcast.type().rank() - 1;
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] == last)
      return broadcast.operand(0)->type().dim(static_cast<int64_t>(i)) ==
             broadcast.type().dim(last);
  return false;
}

bool isMove(const Operation &op) {
  return op.kind() == OpKind::Gather || op.kind() == OpKind::Transpose ||
         op.kind() == OpKind::Reshape;
}

/// Whether `op` is a gather whose indices are an amplified chain, or a
/// transpose or reshape of one: T5's bias per head, f32, gathered by its
/// position buckets.
bool gathersByAmplifiedChain(const Operation &op, const Function &body) {
  const Operation *at = &op;
  while (at != nullptr && (at->kind() == OpKind::Transpose || at->kind() == OpKind::Reshape))
    at = at->operand(0)->definingOp();
  if (at == nullptr || at->kind() != OpKind::Gather)
    return false;
  const Operation *indices = at->operand(1)->definingOp();
  return indices != nullptr && isAmplifiedChain(*indices, body);
}

/// Whether a transpose or reshape reads `op`'s value: the last of the moves
/// is the one to compute once, in the layout its readers read.
bool isMovedFurther(const Operation &op, const Function &body) {
  for (const auto &user : body.ops())
    if ((user->kind() == OpKind::Transpose || user->kind() == OpKind::Reshape) &&
        user->operand(0) == op.result())
      return true;
  return false;
}

/// Whether `op` computes its elements: an element-wise op, or a reshape or
/// concat of values some element-wise op computes (a resize's rows, written
/// as the concat of each phase's rows reshaped into one dim: three levels;
/// a bounded depth keeps concats of shared concats from being walked again
/// and again).
bool computesElements(const Operation &op, int depth = 3) {
  OpCategory category = op.info().category;
  if (category == OpCategory::LightElementwise || category == OpCategory::ExpensiveElementwise)
    return true;
  if ((op.kind() != OpKind::Reshape && op.kind() != OpKind::Concat) || depth == 0)
    return false;
  for (const Value *operand : op.operands())
    if (const Operation *def = operand->definingOp(); def && computesElements(*def, depth - 1))
      return true;
  return false;
}

} // namespace

bool isAmplifiedChain(const Operation &op, const Function &body) {
  const int64_t elements = representativeValue(dimProduct(op.type().shape()));
  bool amplified = false, alongRows = false;
  // Readers are followed through moves that read each element once or
  // more (transpose, reshape, a gather's result): T5's position buckets
  // index an embedding whose rows are transposed and broadcast over the
  // batch.
  std::vector<const Value *> pending{op.result()};
  while (!pending.empty()) {
    const Value *value = pending.back();
    pending.pop_back();
    for (const auto &user : body.ops())
      for (size_t i = 0; i < user->numOperands(); ++i) {
        if (user->operand(i) != value)
          continue;
        bool reads =
            user->kind() == OpKind::Broadcast || (user->kind() == OpKind::Gather && i == 1);
        if (reads &&
            representativeValue(dimProduct(user->type().shape())) / kMinAmplification >= elements) {
          amplified = true;
          alongRows |= user->kind() == OpKind::Broadcast && variesAlongLastDim(*user);
        }
        if ((user->kind() == OpKind::Gather && i == 1) || user->kind() == OpKind::Transpose ||
            user->kind() == OpKind::Reshape)
          pending.push_back(user->result());
      }
  }
  if (!amplified)
    return false;
  if (isMove(op))
    return gathersByAmplifiedChain(op, body) && !isMovedFurther(op, body);
  ChainCost cost = elementwiseChainCost(op, kMinAmplifiedChainCost);
  return cost.total >= kMinAmplifiedChainCost || (alongRows && cost.hasTranscendental);
}

bool isGatheredAlongRows(const Operation &op, const Function &body) {
  if (!computesElements(op) || op.type().rank() < 2)
    return false;
  for (const auto &user : body.ops())
    if (user->kind() == OpKind::Gather && user->operand(0) == op.result() &&
        user->intAttrOr("dim", 0) == op.type().rank() - 1)
      return true;
  return false;
}

} // namespace xs::plan
