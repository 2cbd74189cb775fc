// Source ops: constant and iota. Their shapes come from the result type.

#include "absl/strings/str_join.h"
#include "ir/InterpreterInternal.h"
#include "ir/ScalarConversions.h"

namespace xs::interp {
namespace {

/// Stores literal element `from` into `result` element `to`: a float type
/// takes the value rounded to it, an integer type wraps (cast semantics), so
/// a constant holds exactly what a tensor of its type can hold.
void storeLiteral(const LiteralValue &literal, int64_t from, HostTensor &result, int64_t to) {
  size_t k = static_cast<size_t>(to);
  size_t f = static_cast<size_t>(from);
  ElementType type = result.elementType();
  if (result.isFloat())
    result.floats()[k] = literal.isInteger ? convertIntegerToFloat(literal.asInt(f), type)
                                           : roundToFloatType(literal.asDouble(f), type);
  else
    result.ints()[k] = literal.isInteger ? wrapToIntegerType(literal.asInt(f), type)
                                         : convertDoubleToInteger(literal.asDouble(f), type);
}

absl::StatusOr<HostTensor> evaluateConstant(const OpContext &ctx) {
  const Attribute *value = ctx.op.attr("value");
  if (!value || value->kind() != AttrKind::Literal)
    return ctx.error("needs a literal 'value' attribute");
  const LiteralValue &literal = value->getLiteral();
  HostTensor result = ctx.makeResult();
  if (literal.shape.empty()) {
    if (literal.size() != 1)
      return ctx.error("scalar 'value' holds ", literal.size(), " elements");
    for (int64_t i = 0; i < result.numElements(); ++i)
      storeLiteral(literal, 0, result, i);
    return result;
  }
  if (literal.shape != ctx.resultShape || literal.size() != result.numElements())
    return ctx.error("'value' has shape [", absl::StrJoin(literal.shape, ", "),
                     "] but the result type is ", result.typeStr());
  for (int64_t i = 0; i < result.numElements(); ++i)
    storeLiteral(literal, i, result, i);
  return result;
}

absl::StatusOr<HostTensor> evaluateIota(const OpContext &ctx) {
  int64_t dim = ctx.op.intAttrOr("dim", 0);
  int64_t rank = static_cast<int64_t>(ctx.resultShape.size());
  if (absl::Status s = checkAxis(ctx, "dim", dim, rank); !s.ok())
    return s;
  HostTensor result = ctx.makeResult();
  std::vector<int64_t> index;
  for (int64_t i = 0; i < result.numElements(); ++i) {
    unravelIndex(i, ctx.resultShape, index);
    result.setInt(i, index[static_cast<size_t>(dim)]);
  }
  return result;
}

absl::StatusOr<HostTensor> evaluateDimValue(const OpContext &ctx) {
  const std::vector<DimExpr> &dims = ctx.op.attr("dims")->getDimList();
  HostTensor result = ctx.makeResult();
  for (int64_t i = 0; i < result.numElements(); ++i) {
    absl::StatusOr<int64_t> v =
        dims[dims.size() == 1 ? 0 : static_cast<size_t>(i)].evaluate(ctx.bindings);
    if (!v.ok())
      return ctx.error(v.status().message());
    result.setDouble(i, static_cast<double>(*v));
  }
  return result;
}

} // namespace

absl::StatusOr<HostTensor> evaluateSource(const OpContext &ctx) {
  if (ctx.op.kind() == OpKind::Constant)
    return evaluateConstant(ctx);
  if (ctx.op.kind() == OpKind::DimValue)
    return evaluateDimValue(ctx);
  return evaluateIota(ctx);
}

} // namespace xs::interp
