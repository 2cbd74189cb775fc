// ONNX operators that make or change shapes: Constant, ConstantOfShape,
// Shape, Size, Range, Reshape, Flatten, Squeeze, Unsqueeze and Expand.
// Shapes may be computed in the graph; they arrive here as dims known at
// import time (ImportContext::dimsInput), symbolic ones included.

#include <cmath>
#include <optional>

#include "frontend/onnx/OnnxTensor.h"
#include "frontend/onnx/OpImporters.h"
#include "ir/Diagnostics.h"

namespace xs {

namespace {

absl::StatusOr<HostTensor> constantValue(ImportContext &c) {
  if (const onnx::AttributeProto *a = c.attr("value"))
    return hostTensorFromOnnx(a->t(), "the value of Constant");
  if (const onnx::AttributeProto *a = c.attr("value_float")) {
    HostTensor t(ElementType::F32, {});
    t.setDouble(0, a->f());
    return t;
  }
  if (const onnx::AttributeProto *a = c.attr("value_int")) {
    HostTensor t(ElementType::I64, {});
    t.setInt(0, a->i());
    return t;
  }
  if (const onnx::AttributeProto *a = c.attr("value_floats")) {
    HostTensor t(ElementType::F32, {static_cast<int64_t>(a->floats_size())});
    for (int i = 0; i < a->floats_size(); ++i)
      t.setDouble(i, a->floats(i));
    return t;
  }
  if (const onnx::AttributeProto *a = c.attr("value_ints")) {
    HostTensor t(ElementType::I64, {static_cast<int64_t>(a->ints_size())});
    for (int i = 0; i < a->ints_size(); ++i)
      t.setInt(i, a->ints(i));
    return t;
  }
  return absl::UnimplementedError(
      "only tensor, float, int, floats and ints values are supported (not sparse or string)");
}

absl::Status importConstant(ImportContext &c) {
  absl::StatusOr<HostTensor> value = constantValue(c);
  if (!value.ok())
    return c.unsupported(std::string(value.status().message()));
  XS_ASSIGN_OR_RETURN(Value * y, c.constant(*value));
  c.setOutput(0, y);
  return absl::OkStatus();
}

absl::Status importConstantOfShape(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> shape, c.sizesInput(0, "the shape of ConstantOfShape"));
  XS_RETURN_IF_ERROR(c.checkShape(shape, "the shape of ConstantOfShape"));
  HostTensor value(ElementType::F32, {}); // the default: f32 0
  if (const onnx::AttributeProto *a = c.attr("value")) {
    absl::StatusOr<HostTensor> t = hostTensorFromOnnx(a->t(), "the value of ConstantOfShape");
    if (!t.ok())
      return c.unsupported(std::string(t.status().message()));
    if (t->numElements() != 1)
      return c.error("the value must have one element");
    value = std::move(*t);
  }
  XS_ASSIGN_OR_RETURN(Value * y, c.splat(value, TensorType(value.elementType(), shape)));
  c.setOutput(0, y);
  return absl::OkStatus();
}

absl::Status importShape(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(TensorType type, c.inputType(0));
  int64_t rank = type.rank();
  int64_t start = c.intAttr("start", 0), end = c.intAttr("end", rank);
  auto clamp = [rank](int64_t i) { return std::clamp(i < 0 ? i + rank : i, int64_t(0), rank); };
  start = clamp(start);
  end = clamp(end);
  std::vector<DimExpr> dims;
  for (int64_t d = start; d < end; ++d)
    dims.push_back(type.dim(d));
  c.setOutputDims(0, dims);
  return absl::OkStatus();
}

absl::Status importSize(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(TensorType type, c.inputType(0));
  c.setOutputDims(0, {type.numElements()}, /*scalar=*/true);
  return absl::OkStatus();
}

/// Range whose bounds are known only at run time: its length
/// max(ceil((limit - start) / delta), 0) is a host symbol H and its values
/// start + delta * iota(H).
absl::Status importRuntimeRange(ImportContext &c, ElementType type) {
  std::vector<Value *> bounds;
  for (int i = 0; i < 3; ++i) {
    XS_ASSIGN_OR_RETURN(Value * v, c.input(i));
    if (v->type().numElements() != DimExpr(1))
      return c.error(strCat("start, limit and delta must be scalars, got ", v->type().str()));
    XS_ASSIGN_OR_RETURN(v, c.reshape(v, {}));
    bounds.push_back(v);
  }
  std::vector<Value *> wide;
  for (Value *v : bounds) {
    XS_ASSIGN_OR_RETURN(Value * w, c.cast(v, ElementType::F64));
    wide.push_back(w);
  }
  XS_ASSIGN_OR_RETURN(Value * span, c.binary(OpKind::Sub, wide[1], wide[0]));
  XS_ASSIGN_OR_RETURN(Value * steps, c.binary(OpKind::Div, span, wide[2]));
  XS_ASSIGN_OR_RETURN(steps, c.unary(OpKind::Ceil, steps));
  XS_ASSIGN_OR_RETURN(Value * none, c.scalarLike(0, steps));
  XS_ASSIGN_OR_RETURN(steps, c.binary(OpKind::Max, steps, none));
  XS_ASSIGN_OR_RETURN(Value * count, c.cast(steps, ElementType::I64));
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> length, c.hostDims(count, "the length of Range"));
  XS_ASSIGN_OR_RETURN(Value * index, c.create(OpKind::Iota, {}, {{"dim", Attribute::integer(0)}},
                                              TensorType(type, length)));
  XS_ASSIGN_OR_RETURN(Value * scaled, c.binary(OpKind::Mul, index, bounds[2]));
  XS_ASSIGN_OR_RETURN(Value * y, c.binary(OpKind::Add, scaled, bounds[0]));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// The dim a scalar holds when it is one taken from a shape, through
/// reshapes and casts to types that hold it (`torch.arange(x.shape[1],
/// dtype=torch.float)` casts the dim to f32, exact up to 2^24, before its
/// Range); nullopt otherwise.
std::optional<DimExpr> dimBehind(const Value *v) {
  while (const Operation *def = v->definingOp()) {
    if (def->kind() == OpKind::DimValue) {
      const std::vector<DimExpr> &dims = def->attr("dims")->getDimList();
      if (dims.size() != 1)
        return std::nullopt;
      return dims[0];
    }
    ElementType to = def->type().elementType();
    bool holdsDims = to == ElementType::I64 || to == ElementType::I32 || to == ElementType::F32 ||
                     to == ElementType::F64;
    if (def->kind() != OpKind::Reshape && (def->kind() != OpKind::Cast || !holdsDims))
      return std::nullopt;
    v = def->operand(0);
  }
  return std::nullopt;
}

/// Range with constant bounds; a limit that is a symbolic dim (of any
/// element type) is an iota when start is 0 and delta a positive integer;
/// other bounds known only at run time make a host symbol of the length.
absl::Status importRange(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(TensorType type, c.inputType(0));
  auto symbolic = [&](int i) { return c.inputIsDims(i) && !c.onnxInput(i)->value; };
  auto known = [&](int i) {
    const OnnxValue *v = c.onnxInput(i);
    return v && v->value && c.knownValue(v->value);
  };
  std::optional<DimExpr> dimLimit;
  if (symbolic(1)) {
    XS_ASSIGN_OR_RETURN(std::vector<DimExpr> dims, c.dimsInput(1, "the limit of Range"));
    if (dims.size() == 1)
      dimLimit = dims[0];
  } else if (const OnnxValue *v = c.onnxInput(1); v && v->value && !known(1)) {
    dimLimit = dimBehind(v->value);
  }
  if (dimLimit && known(0) && known(2)) {
    XS_ASSIGN_OR_RETURN(HostTensor start, c.constantInput(0, "the start of Range"));
    XS_ASSIGN_OR_RETURN(HostTensor delta, c.constantInput(2, "the delta of Range"));
    double d = delta.numElements() == 1 ? delta.getDouble(0) : 0;
    if (start.numElements() == 1 && start.getDouble(0) == 0 && d >= 1 && d == std::floor(d) &&
        d < double(int64_t(1) << 31)) {
      int64_t step = static_cast<int64_t>(d);
      DimExpr count =
          step == 1 ? *dimLimit : DimExpr::floorDiv(*dimLimit + DimExpr(step - 1), step);
      XS_ASSIGN_OR_RETURN(Value * y, c.create(OpKind::Iota, {}, {{"dim", Attribute::integer(0)}},
                                              TensorType(type.elementType(), {count})));
      if (step != 1) {
        XS_ASSIGN_OR_RETURN(Value * stepValue, c.scalarLike(d, y));
        XS_ASSIGN_OR_RETURN(y, c.binary(OpKind::Mul, y, stepValue));
      }
      c.setOutput(0, y);
      return absl::OkStatus();
    }
  }
  for (int i = 0; i < 3; ++i)
    if (symbolic(i) || c.inputIsRuntime(i))
      return importRuntimeRange(c, type.elementType());
  XS_ASSIGN_OR_RETURN(HostTensor start, c.constantInput(0, "the start of Range"));
  XS_ASSIGN_OR_RETURN(HostTensor limit, c.constantInput(1, "the limit of Range"));
  XS_ASSIGN_OR_RETURN(HostTensor delta, c.constantInput(2, "the delta of Range"));
  if (start.numElements() != 1 || limit.numElements() != 1 || delta.numElements() != 1)
    return c.error("start, limit and delta must be scalars");
  double s = start.getDouble(0), l = limit.getDouble(0), d = delta.getDouble(0);
  if (d == 0)
    return c.error("delta must not be 0");
  double count = std::ceil((l - s) / d);
  if (!(count < double(int64_t(1) << 28)))
    return c.unsupported(strCat("a Range of ", count, " elements (more than 2^28)"));
  int64_t n = std::max<int64_t>(0, static_cast<int64_t>(count));
  HostTensor out(type.elementType(), {n});
  for (int64_t i = 0; i < n; ++i) {
    if (out.isFloat())
      out.setDouble(i, s + static_cast<double>(i) * d);
    else
      out.setInt(i, start.getInt(0) + i * delta.getInt(0));
  }
  XS_ASSIGN_OR_RETURN(Value * y, c.constant(out));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// The dim a -1 in a target shape stands for: the input's element count
/// over the other target dims, cancelling equal dims first so that symbolic
/// ones divide out.
/// The -1 of a target shape whose other dims are products of the input's
/// (`[B, S, 8]` to `[B*S, -1]`): the product of the input dims left over
/// once some of them multiply (with a constant ratio) to the other target
/// dims.
absl::StatusOr<DimExpr> dividedBySubset(ImportContext &c, const std::vector<DimExpr> &input,
                                        const std::vector<DimExpr> &target, size_t hole) {
  std::vector<DimExpr> others;
  for (size_t i = 0; i < target.size(); ++i)
    if (i != hole)
      others.push_back(target[i]);
  DimExpr wanted = dimProduct(others);
  DimBindings ones;
  for (const DimExpr &d : input)
    for (const std::string &symbol : d.symbols())
      ones[symbol] = 1;
  for (const std::string &symbol : wanted.symbols())
    ones[symbol] = 1;
  absl::StatusOr<int64_t> wantedAtOnes = wanted.evaluate(ones);
  const size_t n = input.size();
  for (uint64_t subset = 0; n < 16 && subset < (uint64_t{1} << n); ++subset) {
    std::vector<DimExpr> in, out;
    for (size_t i = 0; i < n; ++i)
      ((subset >> i) & 1 ? in : out).push_back(input[i]);
    DimExpr covered = dimProduct(in), left = dimProduct(out);
    if (covered == wanted)
      return left;
    absl::StatusOr<int64_t> coveredAtOnes = covered.evaluate(ones);
    if (!wantedAtOnes.ok() || !coveredAtOnes.ok() || *wantedAtOnes == 0 || *coveredAtOnes == 0)
      continue;
    if (*coveredAtOnes % *wantedAtOnes == 0) {
      int64_t ratio = *coveredAtOnes / *wantedAtOnes;
      if (covered == wanted * DimExpr(ratio))
        return left * DimExpr(ratio);
    }
  }
  return c.unsupported(strCat("cannot infer the -1 of the shape: the dims ", wanted.str(),
                              " do not divide the input's element count"));
}

absl::StatusOr<DimExpr> inferredDim(ImportContext &c, const std::vector<DimExpr> &input,
                                    const std::vector<DimExpr> &target, size_t hole) {
  std::vector<DimExpr> remaining = input;
  int64_t divisor = 1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (i == hole)
      continue;
    auto same = std::find(remaining.begin(), remaining.end(), target[i]);
    if (same != remaining.end()) {
      remaining.erase(same);
      continue;
    }
    std::optional<int64_t> k = target[i].constantValue();
    if (!k)
      return dividedBySubset(c, input, target, hole);
    constexpr int64_t kMaxElements = int64_t(1) << 40;
    if (*k != 0 && divisor > kMaxElements / *k)
      return c.error("the shape's entries beside its -1 hold more than 2^40 elements, beyond "
                     "xstitch's bound on a tensor");
    divisor *= *k;
  }
  // ONNX leaves a -1 beside a 0 dim undefined: any size gives no elements.
  if (divisor == 0)
    return c.error("the shape has a -1 and a dim of 0, so the -1 cannot be inferred: "
                   "give that dim's size instead of -1");
  DimExpr product = dimProduct(remaining);
  if (divisor == 1)
    return product;
  if (std::optional<int64_t> total = product.constantValue()) {
    if (*total % divisor != 0)
      return c.error(strCat("cannot infer the -1 of the shape: its other entries' product ",
                            divisor, " does not divide ", *total,
                            ", the element count of the input's dims they do not repeat"));
    return DimExpr(*total / divisor);
  }
  // Peel constant factors off the product: B*S*768 / 768 = B*S.
  std::vector<DimExpr> symbolic;
  int64_t constant = 1;
  for (const DimExpr &d : remaining) {
    if (std::optional<int64_t> k = d.constantValue())
      constant *= *k;
    else
      symbolic.push_back(d);
  }
  if (constant % divisor == 0)
    return dimProduct(symbolic) * DimExpr(constant / divisor);
  return DimExpr::floorDiv(product, divisor);
}

constexpr int64_t kMaxShapeEntry = int64_t(1) << 31;

absl::StatusOr<std::vector<DimExpr>> reshapeTarget(ImportContext &c, const TensorType &input,
                                                   std::vector<DimExpr> target, bool allowZero) {
  std::optional<size_t> hole;
  for (size_t i = 0; i < target.size(); ++i) {
    std::optional<int64_t> k = target[i].constantValue();
    if (k && *k == 0 && !allowZero) {
      if (static_cast<int64_t>(i) >= input.rank())
        return c.error(strCat("shape entry ", i,
                              " is 0 (copy the input's dim) but the input has "
                              "rank ",
                              input.rank()));
      target[i] = input.dim(static_cast<int64_t>(i));
    } else if (k && *k == -1) {
      if (hole)
        return c.error("the shape has more than one -1");
      hole = i;
    } else if (k && *k < 0) {
      return c.error(strCat("shape entry ", i, " is ", *k));
    }
    // Bounded as every dim from the graph is (ImportContext::checkShape),
    // before the -1 is inferred from their product.
    for (const DimTerm &term : target[i].terms())
      if (term.coefficient > kMaxShapeEntry || term.coefficient < -kMaxShapeEntry)
        return c.error(strCat("shape entry ", i, " is ", target[i].str(),
                              ", beyond xstitch's bound of 2^31 on a dim"));
  }
  if (hole) {
    XS_ASSIGN_OR_RETURN(target[*hole], inferredDim(c, input.shape(), target, *hole));
  }
  return target;
}

/// Reshape's target shape when it is known only at run time: ONNX's 0
/// (the input's dim) and -1 (what the other entries leave of the element
/// count) are resolved by ops, the entries become host symbols, and the
/// element count a fact checked at each call.
absl::StatusOr<std::vector<DimExpr>> runtimeReshapeTarget(ImportContext &c, const TensorType &input,
                                                          Value *shape, bool allowZero) {
  XS_ASSIGN_OR_RETURN(std::vector<Value *> entries,
                      c.runtimeEntries(shape, "the shape of Reshape"));
  const int64_t length = static_cast<int64_t>(entries.size());
  XS_ASSIGN_OR_RETURN(Value * zero, c.dimScalar(DimExpr(0), ElementType::I64));
  XS_ASSIGN_OR_RETURN(Value * one, c.dimScalar(DimExpr(1), ElementType::I64));
  XS_ASSIGN_OR_RETURN(Value * minusOne, c.scalarLike(-1, one));
  for (int64_t k = 0; k < length && !allowZero && k < input.rank(); ++k) {
    XS_ASSIGN_OR_RETURN(Value * isZero, c.compare("eq", entries[k], zero));
    XS_ASSIGN_OR_RETURN(Value * dim, c.dimScalar(input.dim(k), ElementType::I64));
    XS_ASSIGN_OR_RETURN(entries[k], c.select(isZero, dim, entries[k]));
  }
  // At most one entry is -1 (more break the element-count fact). The
  // divisor is at least 1 so that a shape without -1 never divides by 0.
  Value *known = one;
  std::vector<Value *> isHole;
  for (Value *e : entries) {
    XS_ASSIGN_OR_RETURN(Value * hole, c.compare("eq", e, minusOne));
    XS_ASSIGN_OR_RETURN(Value * factor, c.select(hole, one, e));
    XS_ASSIGN_OR_RETURN(known, c.binary(OpKind::Mul, known, factor));
    isHole.push_back(hole);
  }
  XS_ASSIGN_OR_RETURN(Value * divisor, c.binary(OpKind::Max, known, one));
  XS_ASSIGN_OR_RETURN(Value * total, c.dimScalar(input.numElements(), ElementType::I64));
  XS_ASSIGN_OR_RETURN(Value * rest, c.binary(OpKind::Div, total, divisor));
  for (size_t k = 0; k < entries.size(); ++k) {
    XS_ASSIGN_OR_RETURN(entries[k], c.select(isHole[k], rest, entries[k]));
  }
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> target, c.hostDims(entries, "the shape of Reshape"));
  if (absl::Status s = c.function().constraints().addEqual(input.numElements(), dimProduct(target));
      !s.ok())
    return c.error(
        strCat("the shape computed at run time cannot hold the input's elements: ", s.message()));
  return target;
}

absl::Status importReshape(ImportContext &c) {
  const bool allowZero = c.intAttr("allowzero", 0) != 0;
  std::vector<DimExpr> shape;
  Value *x = nullptr;
  if (c.inputIsRuntime(1)) {
    XS_ASSIGN_OR_RETURN(x, c.input(0));
    XS_ASSIGN_OR_RETURN(Value * target, c.input(1));
    XS_ASSIGN_OR_RETURN(shape, runtimeReshapeTarget(c, x->type(), target, allowZero));
  } else {
    XS_ASSIGN_OR_RETURN(std::vector<DimExpr> target, c.dimsInput(1, "the shape of Reshape"));
    const OnnxValue *in = c.onnxInput(0);
    // A vector of dims reshaped to a vector (or scalar) stays dims.
    if (in && in->dims && !in->value && target.size() <= 1) {
      c.setOutputDims(0, *in->dims, target.empty());
      return absl::OkStatus();
    }
    XS_ASSIGN_OR_RETURN(x, c.input(0));
    XS_ASSIGN_OR_RETURN(shape, reshapeTarget(c, x->type(), target, allowZero));
  }
  XS_ASSIGN_OR_RETURN(Value * y, c.reshape(x, shape));
  c.setOutput(0, y);
  return absl::OkStatus();
}

absl::Status importFlatten(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  int64_t rank = x->type().rank();
  int64_t axis = c.intAttr("axis", 1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank)
    return c.error(strCat("axis ", c.intAttr("axis", 1), " is out of range for rank ", rank));
  const std::vector<DimExpr> &dims = x->type().shape();
  std::vector<DimExpr> outer(dims.begin(), dims.begin() + axis);
  std::vector<DimExpr> inner(dims.begin() + axis, dims.end());
  XS_ASSIGN_OR_RETURN(Value * y, c.reshape(x, {dimProduct(outer), dimProduct(inner)}));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// Squeeze's and Unsqueeze's axes: an attribute before opset 13, then an
/// optional input.
absl::StatusOr<std::optional<std::vector<int64_t>>> axesOf(ImportContext &c, int inputIndex,
                                                           int inputSince) {
  if (c.opset() < inputSince) {
    if (!c.hasAttr("axes"))
      return std::optional<std::vector<int64_t>>();
    return std::optional<std::vector<int64_t>>(c.intsAttr("axes"));
  }
  if (!c.hasInput(inputIndex))
    return std::optional<std::vector<int64_t>>();
  XS_ASSIGN_OR_RETURN(std::vector<int64_t> axes, c.constantInts(inputIndex, "the axes"));
  return std::optional<std::vector<int64_t>>(axes);
}

absl::Status importSqueeze(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> axes, axesOf(c, 1, 13));
  const OnnxValue *in = c.onnxInput(0);
  if (in && in->dims && !in->value && !in->scalarDims && in->dims->size() == 1) {
    c.setOutputDims(0, *in->dims, /*scalar=*/true);
    return absl::OkStatus();
  }
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  int64_t rank = x->type().rank();
  std::vector<bool> drop(static_cast<size_t>(rank), false);
  if (axes) {
    for (int64_t a : *axes) {
      XS_ASSIGN_OR_RETURN(int64_t axis, c.normalizeAxis(a, rank, "axis"));
      if (x->type().dim(axis) != DimExpr(1) && x->type().dim(axis).isConstant())
        return c.error(strCat("axis ", a, " has size ", x->type().dim(axis).str(), ", not 1"));
      drop[static_cast<size_t>(axis)] = true;
    }
  } else {
    for (int64_t d = 0; d < rank; ++d)
      drop[static_cast<size_t>(d)] = x->type().dim(d) == DimExpr(1);
  }
  std::vector<DimExpr> shape;
  for (int64_t d = 0; d < rank; ++d)
    if (!drop[static_cast<size_t>(d)])
      shape.push_back(x->type().dim(d));
  XS_ASSIGN_OR_RETURN(Value * y, c.reshape(x, shape));
  c.setOutput(0, y);
  return absl::OkStatus();
}

absl::Status importUnsqueeze(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> axes, axesOf(c, 1, 13));
  if (!axes)
    return c.error("needs axes");
  const OnnxValue *in = c.onnxInput(0);
  if (in && in->dims && !in->value && in->scalarDims && axes->size() == 1) {
    c.setOutputDims(0, *in->dims);
    return absl::OkStatus();
  }
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  int64_t rank = x->type().rank() + static_cast<int64_t>(axes->size());
  std::vector<bool> inserted(static_cast<size_t>(rank), false);
  for (int64_t a : *axes) {
    XS_ASSIGN_OR_RETURN(int64_t axis, c.normalizeAxis(a, rank, "axis"));
    if (inserted[static_cast<size_t>(axis)])
      return c.error(strCat("axis ", a, " appears twice"));
    inserted[static_cast<size_t>(axis)] = true;
  }
  std::vector<DimExpr> shape;
  int64_t next = 0;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(inserted[static_cast<size_t>(d)] ? DimExpr(1) : x->type().dim(next++));
  XS_ASSIGN_OR_RETURN(Value * y, c.reshape(x, shape));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// Expand broadcasts both ways: the result has the broadcast of the input's
/// shape and the given one.
/// Expand to a shape known only at run time. Where the input's dim is not
/// 1 the result keeps it, and the shape's entry must be 1 or equal to it:
/// the entry (1 read as the input's dim) becomes a host symbol recorded
/// equal to the input's dim, a fact checked at each call.
absl::Status importRuntimeExpand(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * shape, c.input(1));
  XS_ASSIGN_OR_RETURN(std::vector<Value *> entries, c.runtimeEntries(shape, "the shape of Expand"));
  const int64_t length = static_cast<int64_t>(entries.size());
  const int64_t rank = std::max(x->type().rank(), length);
  const int64_t inputOffset = rank - x->type().rank(), shapeOffset = rank - length;
  XS_ASSIGN_OR_RETURN(Value * one, c.dimScalar(DimExpr(1), ElementType::I64));
  std::vector<bool> keepsInputDim(static_cast<size_t>(length), false);
  for (int64_t k = 0; k < length; ++k) {
    int64_t d = shapeOffset + k - inputOffset;
    if (d < 0 || x->type().dim(d) == DimExpr(1))
      continue;
    keepsInputDim[static_cast<size_t>(k)] = true;
    XS_ASSIGN_OR_RETURN(Value * isOne, c.compare("eq", entries[k], one));
    XS_ASSIGN_OR_RETURN(Value * dim, c.dimScalar(x->type().dim(d), ElementType::I64));
    XS_ASSIGN_OR_RETURN(entries[k], c.select(isOne, dim, entries[k]));
  }
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> dims, c.hostDims(entries, "the shape of Expand"));
  std::vector<DimExpr> target;
  for (int64_t p = 0; p < rank; ++p) {
    int64_t k = p - shapeOffset, d = p - inputOffset;
    if (k < 0) {
      target.push_back(x->type().dim(d));
    } else if (keepsInputDim[static_cast<size_t>(k)]) {
      if (absl::Status s = c.function().constraints().addEqual(dims[k], x->type().dim(d)); !s.ok())
        return c.error(std::string(s.message()));
      target.push_back(x->type().dim(d));
    } else {
      target.push_back(dims[k]);
    }
  }
  XS_ASSIGN_OR_RETURN(Value * y, c.broadcastTo(x, target));
  c.setOutput(0, y);
  return absl::OkStatus();
}

absl::Status importExpand(ImportContext &c) {
  if (c.inputIsRuntime(1))
    return importRuntimeExpand(c);
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> shape, c.dimsInput(1, "the shape of Expand"));
  XS_RETURN_IF_ERROR(c.checkShape(shape, "the shape of Expand"));
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> target,
                      c.broadcastShape({x->type(), TensorType(x->type().elementType(), shape)}));
  XS_ASSIGN_OR_RETURN(Value * y, c.broadcastTo(x, target));
  c.setOutput(0, y);
  return absl::OkStatus();
}

} // namespace

void addShapeImporters(ImporterTable &table) {
  table["Constant"] = {importConstant, 1};
  table["ConstantOfShape"] = {importConstantOfShape, 9};
  table["Shape"] = {importShape, 1};
  table["Size"] = {importSize, 1};
  table["Range"] = {importRange, 11};
  table["Reshape"] = {importReshape, 5};
  table["Flatten"] = {importFlatten, 1};
  table["Squeeze"] = {importSqueeze, 1};
  table["Unsqueeze"] = {importUnsqueeze, 1};
  table["Expand"] = {importExpand, 8};
}

} // namespace xs
