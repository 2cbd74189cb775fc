// Typing rules of reductions, composites (normalizations, softmax, gelu) and
// dot.

#include "ir/TypeRulesSupport.h"

namespace xs::rules {

namespace {

std::vector<DimExpr> removeDims(const TensorType &x, const std::vector<int64_t> &dims) {
  std::vector<DimExpr> shape;
  for (int64_t i = 0; i < x.rank(); ++i)
    if (!std::ranges::count(dims, i))
      shape.push_back(x.dim(i));
  return shape;
}

absl::StatusOr<TensorType> inferReduce(const Operation &op) {
  const TensorType &x = op.operand(0)->type();
  if (absl::Status s = requireNumeric(op, 0); !s.ok())
    return s;
  const std::vector<int64_t> &dims = op.attr("dims")->getIntList();
  if (absl::Status s = requireDimList(op, "dims", dims, x.rank(), x); !s.ok())
    return s;
  return x.withShape(removeDims(x, dims));
}

absl::StatusOr<TensorType> inferArgReduce(const Operation &op) {
  const TensorType &x = op.operand(0)->type();
  if (absl::Status s = requireNumeric(op, 0); !s.ok())
    return s;
  int64_t k = op.attr("dim")->getInt();
  if (absl::Status s = requireAxis(op, "dim", k, x.rank(), x); !s.ok())
    return s;
  return TensorType(ElementType::I64, removeDims(x, {k}));
}

// The axis of a composite (default: the last dim), checked against the rank.
absl::StatusOr<int64_t> compositeAxis(const Operation &op) {
  const TensorType &x = op.operand(0)->type();
  int64_t axis = op.intAttrOr("axis", x.rank() - 1);
  if (absl::Status s = requireAxis(op, "axis", axis, x.rank(), x); !s.ok())
    return s;
  return axis;
}

// layer_norm and rms_norm: the optional scale/offset operands have the shape
// x.shape[axis:] and x's element type.
absl::StatusOr<TensorType> inferNorm(const Operation &op, DimUnifier &u) {
  const TensorType &x = op.operand(0)->type();
  if (absl::Status s = requireFloat(op, 0); !s.ok())
    return s;
  absl::StatusOr<int64_t> axis = compositeAxis(op);
  if (!axis.ok())
    return axis.status();
  if (const Attribute *eps = op.attr("epsilon"); eps && !(eps->getFloat() >= 0))
    return opError(op, "epsilon = ", formatFloat(eps->getFloat()), " must be non-negative");
  std::vector<DimExpr> normalized(x.shape().begin() + *axis, x.shape().end());
  TensorType expected = x.withShape(normalized);
  for (size_t i = 1; i < op.numOperands(); ++i) {
    const TensorType &t = op.operand(i)->type();
    std::string message = absl::StrCat(
        "operand ", i, " has type ", t.str(), ", but it must be ", expected.str(),
        " (the operand's type over the normalized dims ", *axis, "..", x.rank() - 1, ")");
    if (t.elementType() != x.elementType() || t.rank() != expected.rank())
      return opError(op, message);
    for (int64_t d = 0; d < t.rank(); ++d)
      if (absl::Status s = requireDimEqual(op, u, expected.dim(d), t.dim(d), message); !s.ok())
        return s;
  }
  return x;
}

absl::StatusOr<TensorType> inferDot(const Operation &op, DimUnifier &u) {
  const TensorType &a = op.operand(0)->type(), &b = op.operand(1)->type();
  for (size_t i = 0; i < 2; ++i)
    if (absl::Status s = requireNumeric(op, i); !s.ok())
      return s;
  if (absl::Status s = requireSameElementType(
          op, 0, 1, "dot operands must have the same element type (insert a cast)");
      !s.ok())
    return s;
  if (a.rank() < 2 || a.rank() != b.rank())
    return opError(op, "operands ", a.str(), " and ", b.str(),
                   " must have the same rank, at least 2 ([..., M, K] and [..., K, N])");
  int64_t r = a.rank();
  std::string kMessage =
      absl::StrCat("the contracted dims differ: ", a.str(), " has K = ", a.dim(r - 1).str(),
                   " but ", b.str(), " has K = ", b.dim(r - 2).str());
  if (absl::Status s = requireDimEqual(op, u, a.dim(r - 1), b.dim(r - 2), kMessage); !s.ok())
    return s;
  std::vector<DimExpr> shape;
  for (int64_t d = 0; d < r - 2; ++d) {
    std::string message = absl::StrCat("batch dim ", d, " differs: ", a.str(), " and ", b.str(),
                                       " must have the same leading dims");
    if (absl::Status s = requireDimEqual(op, u, a.dim(d), b.dim(d), message); !s.ok())
      return s;
    shape.push_back(a.dim(d));
  }
  shape.push_back(a.dim(r - 2));
  shape.push_back(b.dim(r - 1));
  return a.withShape(std::move(shape));
}

} // namespace

absl::StatusOr<TensorType> inferReduction(const Operation &op, DimUnifier &u) {
  switch (op.info().rule) {
  case TypeRule::Reduce:
    return inferReduce(op);
  case TypeRule::ArgReduce:
    return inferArgReduce(op);
  case TypeRule::LayerNorm:
  case TypeRule::RmsNorm:
    return inferNorm(op, u);
  case TypeRule::Softmax: {
    if (absl::Status s = requireFloat(op, 0); !s.ok())
      return s;
    absl::StatusOr<int64_t> axis = compositeAxis(op);
    if (!axis.ok())
      return axis.status();
    return op.operand(0)->type();
  }
  case TypeRule::Gelu:
    if (absl::Status s = requireFloat(op, 0); !s.ok())
      return s;
    if (absl::Status s = requireEnum(op, "approximate", {"none", "tanh"}); !s.ok())
      return s;
    return op.operand(0)->type();
  case TypeRule::Scan: {
    // cumsum: numbers along one dim, the flags 0 or 1.
    const TensorType &x = op.operand(0)->type();
    if (absl::Status s = requireNumeric(op, 0); !s.ok())
      return s;
    if (absl::Status s = requireAxis(op, "dim", op.intAttrOr("dim", 0), x.rank(), x); !s.ok())
      return s;
    for (const char *flag : {"exclusive", "reverse"})
      if (int64_t v = op.intAttrOr(flag, 0); v != 0 && v != 1)
        return opError(op, "'", flag, "' is ", v, " but must be 0 or 1");
    return x;
  }
  case TypeRule::TopK: {
    // top_k: the indices of the k first elements of each line along `dim`
    // in the order (largest or smallest first).
    const TensorType &x = op.operand(0)->type();
    if (absl::Status s = requireNumeric(op, 0); !s.ok())
      return s;
    int64_t dim = op.attr("dim")->getInt();
    if (absl::Status s = requireAxis(op, "dim", dim, x.rank(), x); !s.ok())
      return s;
    if (int64_t v = op.intAttrOr("largest", 1); v != 0 && v != 1)
      return opError(op, "'largest' is ", v, " but must be 0 or 1");
    int64_t k = op.attr("k")->getInt();
    if (k < 0 || k > kMaxTopK)
      return opError(op, "'k' is ", k, " but must be in 0 to ", kMaxTopK,
                     " (each line keeps its k best elements while it is walked)");
    const DimExpr &length = x.dim(dim);
    if (std::optional<int64_t> n = length.constantValue(); n && *n < k)
      return opError(op, "'k' is ", k, " but dim ", dim, " of ", x.str(), " has only ", *n,
                     " elements");
    std::vector<DimExpr> shape = x.shape();
    shape[static_cast<size_t>(dim)] = DimExpr(k);
    return TensorType(ElementType::I64, std::move(shape));
  }
  case TypeRule::Dot:
    return inferDot(op, u);
  default:
    break;
  }
  assert(false && "not a reduction rule");
  return opError(op, "internal error: not a reduction rule");
}

} // namespace xs::rules
