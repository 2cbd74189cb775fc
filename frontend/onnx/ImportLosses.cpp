// ONNX losses: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (a
// log_softmax over the class dim, then the same loss), written out with
// take_along_axis for the picked classes and gather for their weights.

#include "frontend/onnx/OpImporters.h"
#include "ir/Diagnostics.h"

namespace xs {

namespace {

/// -input[n, target[n, ...], ...] * weight[target], reduced as `reduction`
/// says; targets equal to ignore_index weigh 0 (and do not count in the
/// mean).
absl::StatusOr<Value *> negativeLogLikelihood(ImportContext &c, Value *input, Value *target,
                                              Value *weight) {
  const TensorType &in = input->type();
  const TensorType &tt = target->type();
  if (in.rank() < 2 || tt.rank() != in.rank() - 1)
    return c.error(
        strCat("needs input [N, C, ...] and target [N, ...], got ", in.str(), " and ", tt.str()));
  if (isFloat(tt.elementType()))
    return c.error(strCat("the target must hold integers, got ", tt.str()));
  std::string reduction = c.stringAttr("reduction", "mean");
  if (reduction != "mean" && reduction != "sum" && reduction != "none")
    return c.error(strCat("unknown reduction '", reduction, "'"));
  bool ignoring = c.hasAttr("ignore_index");
  Value *safe = target;
  Value *kept = nullptr; // i1: the target is not ignore_index
  if (ignoring) {
    XS_ASSIGN_OR_RETURN(Value * ignore,
                        c.scalarLike(static_cast<double>(c.intAttr("ignore_index", 0)), target));
    XS_ASSIGN_OR_RETURN(kept, c.compare("ne", target, ignore));
    XS_ASSIGN_OR_RETURN(Value * zero, c.scalarLike(0, target));
    XS_ASSIGN_OR_RETURN(safe, c.select(kept, target, zero));
  }
  std::vector<DimExpr> pickShape = tt.shape();
  pickShape.insert(pickShape.begin() + 1, DimExpr(1));
  XS_ASSIGN_OR_RETURN(Value * index, c.reshape(safe, pickShape));
  XS_ASSIGN_OR_RETURN(Value * picked, c.create(OpKind::TakeAlongAxis, {input, index},
                                               {{"dim", Attribute::integer(1)}}));
  XS_ASSIGN_OR_RETURN(picked, c.reshape(picked, tt.shape()));
  XS_ASSIGN_OR_RETURN(Value * loss, c.unary(OpKind::Neg, picked));
  Value *weights = nullptr; // per element, when not all 1
  if (weight) {
    XS_ASSIGN_OR_RETURN(weights,
                        c.create(OpKind::Gather, {weight, safe}, {{"dim", Attribute::integer(0)}}));
  }
  if (kept) {
    XS_ASSIGN_OR_RETURN(Value * mask, c.cast(kept, in.elementType()));
    if (weights) {
      XS_ASSIGN_OR_RETURN(weights, c.binary(OpKind::Mul, weights, mask));
    } else {
      weights = mask;
    }
  }
  if (weights) {
    XS_ASSIGN_OR_RETURN(loss, c.binary(OpKind::Mul, loss, weights));
  }
  if (reduction == "none")
    return loss;
  std::vector<int64_t> all;
  for (int64_t d = 0; d < tt.rank(); ++d)
    all.push_back(d);
  XS_ASSIGN_OR_RETURN(Value * total,
                      c.create(OpKind::ReduceSum, {loss}, {{"dims", Attribute::intList(all)}}));
  if (reduction == "sum")
    return total;
  Value *count = nullptr;
  if (weights) {
    XS_ASSIGN_OR_RETURN(
        count, c.create(OpKind::ReduceSum, {weights}, {{"dims", Attribute::intList(all)}}));
  } else {
    XS_ASSIGN_OR_RETURN(count, c.dimScalar(tt.numElements(), in.elementType()));
  }
  return c.binary(OpKind::Div, total, count);
}

absl::Status importNegativeLogLikelihoodLoss(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * input, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * target, c.input(1));
  XS_ASSIGN_OR_RETURN(Value * weight, c.optionalInput(2));
  XS_ASSIGN_OR_RETURN(Value * loss, negativeLogLikelihood(c, input, target, weight));
  c.setOutput(0, loss);
  return absl::OkStatus();
}

absl::Status importSoftmaxCrossEntropyLoss(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * scores, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * labels, c.input(1));
  XS_ASSIGN_OR_RETURN(Value * weight, c.optionalInput(2));
  if (scores->type().rank() < 2)
    return c.error(strCat("needs scores [N, C, ...], got ", scores->type().str()));
  XS_ASSIGN_OR_RETURN(Value * logProb,
                      c.create(OpKind::LogSoftmax, {scores}, {{"axis", Attribute::integer(1)}}));
  XS_ASSIGN_OR_RETURN(Value * loss, negativeLogLikelihood(c, logProb, labels, weight));
  c.setOutput(0, loss);
  c.setOutput(1, logProb);
  return absl::OkStatus();
}

} // namespace

void addLossImporters(ImporterTable &table) {
  table["NegativeLogLikelihoodLoss"] = {importNegativeLogLikelihoodLoss, 12};
  table["SoftmaxCrossEntropyLoss"] = {importSoftmaxCrossEntropyLoss, 12};
}

} // namespace xs
