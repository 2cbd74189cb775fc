// ONNX reductions (ReduceSum ... ReduceLogSumExp, ArgMax, ArgMin), CumSum,
// TopK, and MatMul and Gemm, which become the one library op (dot).
// Reductions keep their dims (keepdims = 1) by a reshape after the xstitch
// reduction, which removes them.

#include <limits>

#include "frontend/onnx/OpImporters.h"
#include "ir/Diagnostics.h"
#include "ir/ScalarConversions.h"

namespace xs {

namespace {

enum class Reduction { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare };

/// The reduced dims, sorted; nullopt: the input passes through unchanged
/// (ReduceSum's noop_with_empty_axes).
absl::StatusOr<std::optional<std::vector<int64_t>>> reducedDims(ImportContext &c, int64_t rank) {
  std::vector<int64_t> axes;
  bool given = false;
  if (c.node().op_type() == "ReduceSum" && c.opset() >= 13) {
    if (c.hasInput(1)) {
      XS_ASSIGN_OR_RETURN(axes, c.constantInts(1, "the axes of ReduceSum"));
      given = true;
    }
  } else if (c.hasAttr("axes")) {
    axes = c.intsAttr("axes");
    given = true;
  }
  if (axes.empty()) {
    if (given && c.intAttr("noop_with_empty_axes", 0) != 0)
      return std::optional<std::vector<int64_t>>();
    if (!given && c.intAttr("noop_with_empty_axes", 0) != 0)
      return std::optional<std::vector<int64_t>>();
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
    return std::optional<std::vector<int64_t>>(axes);
  }
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    XS_ASSIGN_OR_RETURN(int64_t axis, c.normalizeAxis(a, rank, "axis"));
    seen[static_cast<size_t>(axis)] = true;
  }
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (seen[static_cast<size_t>(d)])
      dims.push_back(d);
  return std::optional<std::vector<int64_t>>(dims);
}

absl::StatusOr<Value *> reduce(ImportContext &c, OpKind kind, Value *x,
                               const std::vector<int64_t> &dims) {
  if (dims.empty())
    return x;
  return c.create(kind, {x}, {{"dims", Attribute::intList(dims)}});
}

/// The reduction's result with its reduced dims back as 1s.
absl::StatusOr<Value *> keepDims(ImportContext &c, Value *y, const TensorType &input,
                                 const std::vector<int64_t> &dims) {
  std::vector<DimExpr> shape = input.shape();
  for (int64_t d : dims)
    shape[static_cast<size_t>(d)] = DimExpr(1);
  return c.reshape(y, shape);
}

template <Reduction R> absl::Status importReduce(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  const TensorType type = x->type();
  XS_ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> reduced, reducedDims(c, type.rank()));
  if (!reduced) {
    c.setOutput(0, x);
    return absl::OkStatus();
  }
  const std::vector<int64_t> &dims = *reduced;
  Value *y = nullptr;
  switch (R) {
  case Reduction::Sum:
  case Reduction::Mean:
  case Reduction::LogSum: {
    XS_ASSIGN_OR_RETURN(y, reduce(c, OpKind::ReduceSum, x, dims));
    if (R == Reduction::Mean) {
      DimExpr count(1);
      for (int64_t d : dims)
        count = count * type.dim(d);
      XS_ASSIGN_OR_RETURN(Value * divisor, c.dimScalar(count, y->type().elementType()));
      XS_ASSIGN_OR_RETURN(y, c.binary(OpKind::Div, y, divisor));
    }
    if (R == Reduction::LogSum) {
      XS_ASSIGN_OR_RETURN(y, c.unary(OpKind::Log, y));
    }
    break;
  }
  case Reduction::Max: {
    XS_ASSIGN_OR_RETURN(y, reduce(c, OpKind::ReduceMax, x, dims));
    break;
  }
  case Reduction::Min: {
    XS_ASSIGN_OR_RETURN(y, reduce(c, OpKind::ReduceMin, x, dims));
    break;
  }
  case Reduction::Prod: {
    XS_ASSIGN_OR_RETURN(y, reduce(c, OpKind::ReduceProd, x, dims));
    break;
  }
  case Reduction::L1: {
    XS_ASSIGN_OR_RETURN(Value * a, c.unary(OpKind::Abs, x));
    XS_ASSIGN_OR_RETURN(y, reduce(c, OpKind::ReduceSum, a, dims));
    break;
  }
  case Reduction::L2:
  case Reduction::SumSquare: {
    XS_ASSIGN_OR_RETURN(Value * sq, c.binary(OpKind::Mul, x, x));
    XS_ASSIGN_OR_RETURN(y, reduce(c, OpKind::ReduceSum, sq, dims));
    if (R == Reduction::L2) {
      if (isFloat(type.elementType())) {
        XS_ASSIGN_OR_RETURN(y, c.unary(OpKind::Sqrt, y));
      } else {
        // Integer L2 norms: the square root in f64, truncated back.
        XS_ASSIGN_OR_RETURN(Value * f, c.cast(y, ElementType::F64));
        XS_ASSIGN_OR_RETURN(f, c.unary(OpKind::Sqrt, f));
        XS_ASSIGN_OR_RETURN(y, c.cast(f, type.elementType()));
      }
    }
    break;
  }
  case Reduction::LogSumExp: {
    // m + log(sum(exp(x - m))), m the maximum (finite where x is).
    XS_ASSIGN_OR_RETURN(Value * m, reduce(c, OpKind::ReduceMax, x, dims));
    XS_ASSIGN_OR_RETURN(Value * mk, keepDims(c, m, type, dims));
    XS_ASSIGN_OR_RETURN(Value * inf, c.unary(OpKind::IsInf, mk));
    XS_ASSIGN_OR_RETURN(Value * zero, c.scalarLike(0.0, mk));
    XS_ASSIGN_OR_RETURN(Value * shift, c.select(inf, zero, mk));
    XS_ASSIGN_OR_RETURN(Value * centered, c.binary(OpKind::Sub, x, shift));
    XS_ASSIGN_OR_RETURN(Value * e, c.unary(OpKind::Exp, centered));
    XS_ASSIGN_OR_RETURN(Value * s, reduce(c, OpKind::ReduceSum, e, dims));
    XS_ASSIGN_OR_RETURN(Value * l, c.unary(OpKind::Log, s));
    std::vector<DimExpr> reducedShape;
    for (int64_t d = 0; d < type.rank(); ++d)
      if (std::find(dims.begin(), dims.end(), d) == dims.end())
        reducedShape.push_back(type.dim(d));
    XS_ASSIGN_OR_RETURN(Value * shiftReduced, c.reshape(shift, reducedShape));
    XS_ASSIGN_OR_RETURN(y, c.binary(OpKind::Add, l, shiftReduced));
    break;
  }
  }
  if (c.intAttr("keepdims", 1) != 0) {
    XS_ASSIGN_OR_RETURN(y, keepDims(c, y, type, dims));
  }
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// ArgMax and ArgMin; select_last_index reverses the axis first.
template <OpKind Kind> absl::Status importArgReduce(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  const TensorType type = x->type();
  XS_ASSIGN_OR_RETURN(int64_t axis, c.normalizeAxis(c.intAttr("axis", 0), type.rank(), "axis"));
  bool last = c.intAttr("select_last_index", 0) != 0;
  Value *in = x;
  std::optional<int64_t> n = type.dim(axis).constantValue();
  if (last) {
    if (!n)
      return c.unsupported("select_last_index over a symbolic dim");
    HostTensor reversed(ElementType::I64, {*n});
    for (int64_t i = 0; i < *n; ++i)
      reversed.ints()[static_cast<size_t>(i)] = *n - 1 - i;
    XS_ASSIGN_OR_RETURN(Value * idx, c.constant(reversed));
    XS_ASSIGN_OR_RETURN(in,
                        c.create(OpKind::Gather, {x, idx}, {{"dim", Attribute::integer(axis)}}));
  }
  XS_ASSIGN_OR_RETURN(Value * y, c.create(Kind, {in}, {{"dim", Attribute::integer(axis)}}));
  if (last) {
    XS_ASSIGN_OR_RETURN(Value * top, c.scalarLike(static_cast<double>(*n - 1), y));
    XS_ASSIGN_OR_RETURN(y, c.binary(OpKind::Sub, top, y));
  }
  if (c.intAttr("keepdims", 1) != 0) {
    XS_ASSIGN_OR_RETURN(y, keepDims(c, y, type, {axis}));
  }
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// CumSum: the axis a constant input (a scalar or one element), the flags
/// attributes.
absl::Status importCumSum(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(std::vector<int64_t> axes, c.constantInts(1, "the axis of CumSum"));
  if (axes.size() != 1)
    return c.error(strCat("the axis of CumSum must be one integer, not ", axes.size()));
  int64_t rank = x->type().rank();
  if (rank == 0)
    return c.error("CumSum needs an input of rank 1 or more");
  XS_ASSIGN_OR_RETURN(int64_t axis, c.normalizeAxis(axes[0], rank, "axis"));
  AttrDict attrs{{"dim", Attribute::integer(axis)}};
  for (const char *flag : {"exclusive", "reverse"})
    if (int64_t v = c.intAttr(flag, 0); v != 0)
      attrs.emplace(flag, Attribute::integer(v));
  XS_ASSIGN_OR_RETURN(Value * y, c.create(OpKind::CumSum, {x}, std::move(attrs)));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// TopK: the indices by one top_k (the elements of each line in the order
/// larger or smaller first, of equal values the lower index first, NaN
/// the largest value as in PyTorch; `sorted` = 0 allows any order, and
/// this one is allowed), the values the input's elements at them (exact,
/// NaN included).
absl::Status importTopK(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  const TensorType type = x->type();
  ElementType element = type.elementType();
  if (!isFloat(element) && !isInteger(element))
    return c.unsupported(strCat("TopK of ", elementTypeName(element)));
  int64_t rank = type.rank();
  if (rank == 0)
    return c.error("TopK needs an input of rank 1 or more");
  XS_ASSIGN_OR_RETURN(int64_t axis, c.normalizeAxis(c.intAttr("axis", -1), rank, "axis"));
  if (const OnnxValue *given = c.onnxInput(1); given && given->dims && !given->value) {
    XS_ASSIGN_OR_RETURN(std::vector<DimExpr> kDims, c.dimsInput(1, "K of TopK"));
    if (kDims.size() == 1 && !kDims[0].constantValue())
      return c.unsupported(strCat("TopK with K = ", kDims[0].str(),
                                  ", a symbolic dim (a whole line sorted, as torch.sort and "
                                  "torch.argsort export): xstitch keeps a constant K of up to ",
                                  kMaxTopK, " elements per line"));
  }
  XS_ASSIGN_OR_RETURN(std::vector<int64_t> ks, c.constantInts(1, "K of TopK"));
  if (ks.size() != 1 || ks[0] < 0)
    return c.error("K of TopK must be one integer of 0 or more");
  int64_t k = ks[0];
  if (k > kMaxTopK)
    return c.unsupported(strCat("TopK with K = ", k, ": xstitch keeps up to ", kMaxTopK,
                                " elements per line while it walks the line"));
  const DimExpr &length = type.dim(axis);
  if (std::optional<int64_t> n = length.constantValue(); n && *n < k)
    return c.error(strCat("K of TopK is ", k, " but the axis has ", *n, " elements"));
  if (!length.constantValue() && length.isSymbol())
    XS_RETURN_IF_ERROR(c.function().constraints().addRange(length.symbolName(), k, INT64_MAX));
  int64_t largest = c.intAttr("largest", 1) != 0 ? 1 : 0;
  XS_ASSIGN_OR_RETURN(Value * index, c.create(OpKind::TopK, {x},
                                              {{"dim", Attribute::integer(axis)},
                                               {"k", Attribute::integer(k)},
                                               {"largest", Attribute::integer(largest)}}));
  XS_ASSIGN_OR_RETURN(Value * values, c.create(OpKind::TakeAlongAxis, {x, index},
                                               {{"dim", Attribute::integer(axis)}}));
  c.setOutput(0, values);
  c.setOutput(1, index);
  return absl::OkStatus();
}

/// MatMul with numpy's rules: 1-D operands gain a dim that the result loses,
/// batch dims broadcast.
absl::Status importMatMul(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * a, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * b, c.input(1));
  bool vectorA = a->type().rank() == 1, vectorB = b->type().rank() == 1;
  if (a->type().rank() == 0 || b->type().rank() == 0)
    return c.error("MatMul needs operands of rank 1 or more");
  if (vectorA) {
    XS_ASSIGN_OR_RETURN(a, c.reshape(a, {DimExpr(1), a->type().dim(0)}));
  }
  if (vectorB) {
    XS_ASSIGN_OR_RETURN(b, c.reshape(b, {b->type().dim(0), DimExpr(1)}));
  }
  const std::vector<DimExpr> &sa = a->type().shape(), &sb = b->type().shape();
  if (sb.size() == 2 && sa.size() > 2) {
    // A batch against one matrix (a Linear layer): the batch's rows as one
    // matrix product, without copying the matrix per batch.
    std::vector<DimExpr> rows(sa.begin(), sa.end() - 1);
    XS_ASSIGN_OR_RETURN(Value * flat, c.reshape(a, {dimProduct(rows), sa.back()}));
    XS_ASSIGN_OR_RETURN(Value * product, c.create(OpKind::Dot, {flat, b}));
    std::vector<DimExpr> out = rows;
    out.push_back(sb.back());
    if (vectorB)
      out.pop_back();
    XS_ASSIGN_OR_RETURN(Value * y, c.reshape(product, out));
    c.setOutput(0, y);
    return absl::OkStatus();
  }
  TensorType batchA(a->type().elementType(), {sa.begin(), sa.end() - 2});
  TensorType batchB(b->type().elementType(), {sb.begin(), sb.end() - 2});
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> batch, c.broadcastShape({batchA, batchB}));
  std::vector<DimExpr> shapeA = batch, shapeB = batch;
  shapeA.insert(shapeA.end(), sa.end() - 2, sa.end());
  shapeB.insert(shapeB.end(), sb.end() - 2, sb.end());
  XS_ASSIGN_OR_RETURN(a, c.broadcastTo(a, shapeA));
  XS_ASSIGN_OR_RETURN(b, c.broadcastTo(b, shapeB));
  XS_ASSIGN_OR_RETURN(Value * y, c.create(OpKind::Dot, {a, b}));
  std::vector<DimExpr> out = y->type().shape();
  if (vectorB)
    out.erase(out.end() - 1);
  if (vectorA)
    out.erase(out.end() - (vectorB ? 1 : 2));
  XS_ASSIGN_OR_RETURN(y, c.reshape(y, out));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// Gemm: alpha * A' B' + beta * C, with A' and B' transposed when transA and
/// transB say (PyTorch's nn.Linear on a matrix: transB = 1 over the weight,
/// whose transpose constant folding moves once at compile time).
absl::Status importGemm(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * a, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * b, c.input(1));
  if (a->type().rank() != 2 || b->type().rank() != 2)
    return c.error(strCat("Gemm needs matrices (rank 2), got ranks ", a->type().rank(), " and ",
                          b->type().rank()));
  auto transposeIf = [&](Value *x, const char *attr) -> absl::StatusOr<Value *> {
    if (c.intAttr(attr, 0) == 0)
      return x;
    return c.create(OpKind::Transpose, {x}, {{"perm", Attribute::intList({1, 0})}});
  };
  XS_ASSIGN_OR_RETURN(a, transposeIf(a, "transA"));
  XS_ASSIGN_OR_RETURN(b, transposeIf(b, "transB"));
  XS_ASSIGN_OR_RETURN(Value * y, c.create(OpKind::Dot, {a, b}));
  double alpha = c.floatAttr("alpha", 1.0), beta = c.floatAttr("beta", 1.0);
  bool floats = isFloat(y->type().elementType());
  if (!floats && (alpha != 1.0 || (beta != 1.0 && c.hasInput(2))))
    return c.unsupported("Gemm of integers with alpha or beta other than 1");
  if (alpha != 1.0) {
    XS_ASSIGN_OR_RETURN(Value * scale, c.scalarLike(alpha, y));
    XS_ASSIGN_OR_RETURN(y, c.binary(OpKind::Mul, y, scale));
  }
  if (c.hasInput(2)) {
    XS_ASSIGN_OR_RETURN(Value * bias, c.input(2));
    if (bias->type().rank() > 2)
      return c.error(
          strCat("Gemm's C must broadcast to the [M, N] result, got rank ", bias->type().rank()));
    if (beta != 1.0) {
      XS_ASSIGN_OR_RETURN(Value * scale, c.scalarLike(beta, bias));
      XS_ASSIGN_OR_RETURN(bias, c.binary(OpKind::Mul, bias, scale));
    }
    XS_ASSIGN_OR_RETURN(y, c.binary(OpKind::Add, y, bias));
  }
  c.setOutput(0, y);
  return absl::OkStatus();
}

} // namespace

void addReductionImporters(ImporterTable &table) {
  table["ReduceSum"] = {importReduce<Reduction::Sum>, 1};
  table["ReduceMean"] = {importReduce<Reduction::Mean>, 1};
  table["ReduceMax"] = {importReduce<Reduction::Max>, 1};
  table["ReduceMin"] = {importReduce<Reduction::Min>, 1};
  table["ReduceProd"] = {importReduce<Reduction::Prod>, 1};
  table["ReduceL1"] = {importReduce<Reduction::L1>, 1};
  table["ReduceL2"] = {importReduce<Reduction::L2>, 1};
  table["ReduceLogSum"] = {importReduce<Reduction::LogSum>, 1};
  table["ReduceLogSumExp"] = {importReduce<Reduction::LogSumExp>, 1};
  table["ReduceSumSquare"] = {importReduce<Reduction::SumSquare>, 1};
  table["ArgMax"] = {importArgReduce<OpKind::ArgMax>, 1};
  table["ArgMin"] = {importArgReduce<OpKind::ArgMin>, 1};
  table["MatMul"] = {importMatMul, 1};
  table["Gemm"] = {importGemm, 7};
  table["CumSum"] = {importCumSum, 11};
  table["TopK"] = {importTopK, 10};
}

} // namespace xs
