// ONNX data-movement operators: Transpose, Concat, Split, Slice, Pad, Tile,
// Gather, GatherElements and OneHot. Concat, Gather and Slice of shape vectors
// (Shape -> Gather -> Concat -> Reshape chains) stay dims known at import.

#include <limits>

#include "frontend/onnx/OpImporters.h"
#include "ir/Diagnostics.h"

namespace xs {

namespace {

absl::Status importTranspose(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  int64_t rank = x->type().rank();
  std::vector<int64_t> perm = c.intsAttr("perm");
  if (!c.hasAttr("perm"))
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  XS_ASSIGN_OR_RETURN(Value * y,
                      c.create(OpKind::Transpose, {x}, {{"perm", Attribute::intList(perm)}}));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// The input as a vector of dims when it is one (dims known at import or a
/// constant integer vector).
std::optional<std::vector<DimExpr>> dimsVector(ImportContext &c, int i) {
  if (!c.inputIsDims(i))
    return std::nullopt;
  absl::StatusOr<std::vector<DimExpr>> dims = c.dimsInput(i, "");
  if (!dims.ok())
    return std::nullopt;
  return *dims;
}

absl::Status importConcat(ImportContext &c) {
  bool anySymbolic = false, allDims = true;
  for (int i = 0; i < c.numInputs(); ++i) {
    const OnnxValue *v = c.onnxInput(i);
    anySymbolic |= v && v->dims && !v->value;
    allDims &= c.inputIsDims(i);
  }
  if (anySymbolic && allDims) {
    std::vector<DimExpr> out;
    for (int i = 0; i < c.numInputs(); ++i) {
      std::optional<std::vector<DimExpr>> dims = dimsVector(c, i);
      if (!dims)
        return c.error(strCat("input ", i, " is not a vector of dims"));
      out.insert(out.end(), dims->begin(), dims->end());
    }
    c.setOutputDims(0, out);
    return absl::OkStatus();
  }
  XS_ASSIGN_OR_RETURN(std::vector<Value *> inputs, c.inputs());
  XS_ASSIGN_OR_RETURN(int64_t axis,
                      c.normalizeAxis(c.intAttr("axis", 0), inputs[0]->type().rank(), "axis"));
  XS_ASSIGN_OR_RETURN(Value * y,
                      c.create(OpKind::Concat, inputs, {{"dim", Attribute::integer(axis)}}));
  c.setOutput(0, y);
  return absl::OkStatus();
}

absl::Status importSplit(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(int64_t axis,
                      c.normalizeAxis(c.intAttr("axis", 0), x->type().rank(), "axis"));
  const DimExpr &total = x->type().dim(axis);
  std::vector<DimExpr> sizes;
  if (c.opset() < 13 && c.hasAttr("split")) {
    for (int64_t s : c.intsAttr("split"))
      sizes.push_back(DimExpr(s));
  } else if (c.opset() >= 13 && c.hasInput(1)) {
    // Sizes known only at run time are host symbols that must add up to
    // the dim, a fact checked at each call.
    bool runtime = c.inputIsRuntime(1);
    XS_ASSIGN_OR_RETURN(sizes, c.sizesInput(1, "the split sizes"));
    DimExpr sum(0);
    for (const DimExpr &size : sizes)
      sum = sum + size;
    if (runtime)
      if (absl::Status s = c.function().constraints().addEqual(total, sum); !s.ok())
        return c.error(strCat("the split sizes computed at run time cannot add up to dim ", axis,
                              ": ", s.message()));
  } else {
    int64_t n = c.numOutputs();
    if (std::optional<int64_t> t = total.constantValue()) {
      if (*t % n != 0)
        return c.error(strCat("dim ", axis, " (", *t, ") does not split into ", n, " equal parts"));
      sizes.assign(static_cast<size_t>(n), DimExpr(*t / n));
    } else {
      XS_RETURN_IF_ERROR(c.function().constraints().addDivisible(total, n));
      sizes.assign(static_cast<size_t>(n), DimExpr::floorDiv(total, n));
    }
  }
  XS_RETURN_IF_ERROR(c.checkShape(sizes, "the split sizes"));
  if (static_cast<int>(sizes.size()) != c.numOutputs())
    return c.error(strCat(sizes.size(), " split sizes for ", c.numOutputs(), " outputs"));
  DimExpr start(0);
  for (int i = 0; i < c.numOutputs(); ++i) {
    std::vector<DimExpr> begin(static_cast<size_t>(x->type().rank()), DimExpr(0));
    std::vector<DimExpr> limit = x->type().shape();
    begin[static_cast<size_t>(axis)] = start;
    limit[static_cast<size_t>(axis)] = start + sizes[static_cast<size_t>(i)];
    start = limit[static_cast<size_t>(axis)];
    XS_ASSIGN_OR_RETURN(Value * part, c.create(OpKind::Slice, {x},
                                               {{"start", Attribute::dimList(begin)},
                                                {"limit", Attribute::dimList(limit)}}));
    c.setOutput(i, part);
  }
  return absl::OkStatus();
}

/// One axis of a Slice after numpy's clamping.
struct SliceAxis {
  int64_t axis = 0;
  DimExpr start, limit;
  int64_t step = 1;
  std::vector<int64_t> indices; // a negative step on a static dim: the indices taken
  // A negative step over a whole symbolic dim (torch.flip): the number of
  // indices taken, start + step*i for i below it.
  std::optional<DimExpr> reversedCount;
};

absl::StatusOr<SliceAxis> clampSliceAxis(ImportContext &c, const DimExpr &dim, int64_t axis,
                                         int64_t start, int64_t end, int64_t step) {
  if (step == 0)
    return c.error("a step of 0");
  SliceAxis s;
  s.axis = axis;
  s.step = step;
  std::optional<int64_t> d = dim.constantValue();
  if (d) {
    if (step > 0) {
      start = std::clamp(start < 0 ? start + *d : start, int64_t(0), *d);
      end = std::clamp(end < 0 ? end + *d : end, int64_t(0), *d);
      s.start = DimExpr(start);
      s.limit = DimExpr(std::max(start, end));
    } else {
      start = std::clamp(start < 0 ? start + *d : start, int64_t(-1), *d - 1);
      end = std::clamp(end < 0 ? end + *d : end, int64_t(-1), *d - 1);
      for (int64_t i = start; i > end; i += step)
        s.indices.push_back(i);
    }
    return s;
  }
  // Symbolic dim: bounds past the end mean the end; negative ones count from it.
  constexpr int64_t kHuge = std::numeric_limits<int32_t>::max();
  if (step < 0) {
    // From the last element through the first, as torch.flip exports it:
    // other bounds would clamp differently for different sizes.
    if ((start != -1 && start < kHuge) || end > -kHuge)
      return c.unsupported(strCat("a negative step over the symbolic dim ", dim.str(),
                                  " that does not run from its last element through its first"));
    s.start = dim - DimExpr(1);
    s.reversedCount = DimExpr::ceilDiv(dim, -step);
    return s;
  }
  s.start = start < 0 ? dim + DimExpr(start) : DimExpr(start);
  s.limit = end >= kHuge ? dim : end < 0 ? dim + DimExpr(end) : DimExpr(end);
  return s;
}

/// The steps of a Slice (1 where absent), each within [-2^31, 2^31]
/// (kMaxSliceStep): dims are at most 2^31 (ImportContext::checkShape), so a
/// longer step takes the same elements.
absl::StatusOr<std::vector<int64_t>> sliceSteps(ImportContext &c, size_t count) {
  std::vector<int64_t> steps(count, 1);
  if (c.hasInput(4)) {
    XS_ASSIGN_OR_RETURN(steps, c.constantInts(4, "the steps of Slice"));
  }
  for (int64_t &step : steps)
    step = std::clamp(step, -kMaxSliceStep, kMaxSliceStep);
  return steps;
}

/// Slice with starts or ends known only at run time (positive steps): each
/// bound is clamped as numpy does (negative counts from the end, then into
/// [0, dim], the end at least the start); the start and the length become
/// host symbols.
absl::Status importRuntimeSlice(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * startsValue, c.input(1));
  XS_ASSIGN_OR_RETURN(Value * endsValue, c.input(2));
  XS_ASSIGN_OR_RETURN(std::vector<Value *> starts,
                      c.runtimeEntries(startsValue, "the starts of Slice"));
  XS_ASSIGN_OR_RETURN(std::vector<Value *> ends, c.runtimeEntries(endsValue, "the ends of Slice"));
  if (starts.size() != ends.size())
    return c.error("starts and ends differ in length");
  std::vector<int64_t> axes;
  if (c.hasInput(3)) {
    XS_ASSIGN_OR_RETURN(axes, c.constantInts(3, "the axes of Slice"));
  } else {
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(static_cast<int64_t>(i));
  }
  XS_ASSIGN_OR_RETURN(std::vector<int64_t> steps, sliceSteps(c, starts.size()));
  if (axes.size() != starts.size() || steps.size() != starts.size())
    return c.error("starts, ends, axes and steps differ in length");

  const int64_t rank = x->type().rank();
  XS_ASSIGN_OR_RETURN(Value * zero, c.dimScalar(DimExpr(0), ElementType::I64));
  std::vector<Value *> bounds;
  std::vector<int64_t> sliceAxes;
  for (size_t i = 0; i < starts.size(); ++i) {
    XS_ASSIGN_OR_RETURN(int64_t axis, c.normalizeAxis(axes[i], rank, "axis"));
    if (steps[i] == 0)
      return c.error("a step of 0");
    if (steps[i] < 0)
      return c.unsupported("a slice whose bounds are computed at run time needs positive steps");
    XS_ASSIGN_OR_RETURN(Value * dim, c.dimScalar(x->type().dim(axis), ElementType::I64));
    auto clamp = [&](Value *bound) -> absl::StatusOr<Value *> {
      XS_ASSIGN_OR_RETURN(Value * negative, c.compare("lt", bound, zero));
      XS_ASSIGN_OR_RETURN(Value * fromEnd, c.binary(OpKind::Add, bound, dim));
      XS_ASSIGN_OR_RETURN(bound, c.select(negative, fromEnd, bound));
      XS_ASSIGN_OR_RETURN(bound, c.binary(OpKind::Max, bound, zero));
      return c.binary(OpKind::Min, bound, dim);
    };
    XS_ASSIGN_OR_RETURN(Value * start, clamp(starts[i]));
    XS_ASSIGN_OR_RETURN(Value * end, clamp(ends[i]));
    XS_ASSIGN_OR_RETURN(end, c.binary(OpKind::Max, end, start));
    // The start and the length, so that the result's dim is one symbol.
    XS_ASSIGN_OR_RETURN(Value * length, c.binary(OpKind::Sub, end, start));
    bounds.push_back(start);
    bounds.push_back(length);
    sliceAxes.push_back(axis);
  }
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> dims, c.hostDims(bounds, "the bounds of Slice"));
  std::vector<DimExpr> begin(static_cast<size_t>(rank), DimExpr(0));
  std::vector<DimExpr> limit = x->type().shape();
  std::vector<int64_t> stride(static_cast<size_t>(rank), 1);
  for (size_t i = 0; i < sliceAxes.size(); ++i) {
    size_t axis = static_cast<size_t>(sliceAxes[i]);
    begin[axis] = dims[2 * i];
    limit[axis] = dims[2 * i] + dims[2 * i + 1];
    stride[axis] = steps[i];
  }
  XS_ASSIGN_OR_RETURN(Value * y, c.create(OpKind::Slice, {x},
                                          {{"start", Attribute::dimList(begin)},
                                           {"limit", Attribute::dimList(limit)},
                                           {"step", Attribute::intList(stride)}}));
  c.setOutput(0, y);
  return absl::OkStatus();
}

absl::Status importSlice(ImportContext &c) {
  if (c.opset() >= 10 && (c.inputIsRuntime(1) || c.inputIsRuntime(2)))
    return importRuntimeSlice(c);
  // Bounds may be computed from shapes: symbolic starts and ends are taken
  // as they are (within the dim); numbers are clamped as numpy does.
  std::vector<DimExpr> startDims, endDims;
  std::vector<int64_t> axes, steps;
  if (c.opset() < 10) {
    for (int64_t v : c.intsAttr("starts"))
      startDims.push_back(DimExpr(v));
    for (int64_t v : c.intsAttr("ends"))
      endDims.push_back(DimExpr(v));
    axes = c.intsAttr("axes");
  } else {
    XS_ASSIGN_OR_RETURN(startDims, c.dimsInput(1, "the starts of Slice"));
    XS_ASSIGN_OR_RETURN(endDims, c.dimsInput(2, "the ends of Slice"));
    if (c.hasInput(3)) {
      XS_ASSIGN_OR_RETURN(axes, c.constantInts(3, "the axes of Slice"));
    }
  }
  XS_ASSIGN_OR_RETURN(steps, sliceSteps(c, startDims.size()));
  if (startDims.size() != endDims.size())
    return c.error("starts and ends differ in length");
  // Numbers stand in for symbolic bounds in the checks below; the loop over
  // the axes takes the symbolic ones as they are.
  std::vector<int64_t> starts, ends;
  bool symbolicBounds = false;
  for (size_t i = 0; i < startDims.size(); ++i) {
    starts.push_back(startDims[i].constantValue().value_or(0));
    ends.push_back(endDims[i].constantValue().value_or(0));
    symbolicBounds |= !startDims[i].isConstant() || !endDims[i].isConstant();
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(static_cast<int64_t>(i));
  if (axes.size() != starts.size() || steps.size() != starts.size())
    return c.error("starts, ends, axes and steps differ in length");

  // A slice of a vector of dims stays dims.
  const OnnxValue *in = c.onnxInput(0);
  if (in && in->dims && !in->value) {
    if (symbolicBounds)
      return c.unsupported("a slice of a vector of dims with symbolic bounds");
    std::vector<DimExpr> dims = *in->dims;
    int64_t n = static_cast<int64_t>(dims.size());
    XS_ASSIGN_OR_RETURN(SliceAxis s,
                        clampSliceAxis(c, DimExpr(n), 0, starts[0], ends[0], steps[0]));
    std::vector<DimExpr> out;
    if (!s.indices.empty() || s.step < 0) {
      for (int64_t i : s.indices)
        out.push_back(dims[static_cast<size_t>(i)]);
    } else {
      for (int64_t i = *s.start.constantValue(); i < *s.limit.constantValue(); i += s.step)
        out.push_back(dims[static_cast<size_t>(i)]);
    }
    c.setOutputDims(0, out);
    return absl::OkStatus();
  }

  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  int64_t rank = x->type().rank();
  std::vector<DimExpr> begin(static_cast<size_t>(rank), DimExpr(0));
  std::vector<DimExpr> limit = x->type().shape();
  std::vector<int64_t> stride(static_cast<size_t>(rank), 1);
  std::vector<SliceAxis> reversed;
  for (size_t i = 0; i < starts.size(); ++i) {
    XS_ASSIGN_OR_RETURN(int64_t axis, c.normalizeAxis(axes[i], rank, "axis"));
    if (!startDims[i].isConstant() || !endDims[i].isConstant()) {
      if (steps[i] <= 0)
        return c.unsupported("a slice with symbolic bounds and a step that is not positive");
      // A number beside a symbolic bound counts from the end when negative
      // and means the end when past it.
      const DimExpr &dim = x->type().dim(axis);
      auto bound = [&dim](const DimExpr &b) {
        std::optional<int64_t> k = b.constantValue();
        if (!k)
          return b;
        if (*k < 0)
          return dim + b;
        if (*k >= std::numeric_limits<int32_t>::max())
          return dim;
        return b;
      };
      begin[static_cast<size_t>(axis)] = bound(startDims[i]);
      limit[static_cast<size_t>(axis)] = bound(endDims[i]);
      stride[static_cast<size_t>(axis)] = steps[i];
      continue;
    }
    XS_ASSIGN_OR_RETURN(SliceAxis s,
                        clampSliceAxis(c, x->type().dim(axis), axis, starts[i], ends[i], steps[i]));
    if (s.step < 0) {
      reversed.push_back(s);
      continue;
    }
    begin[static_cast<size_t>(axis)] = s.start;
    limit[static_cast<size_t>(axis)] = s.limit;
    stride[static_cast<size_t>(axis)] = s.step;
  }
  Value *y = x;
  if (begin != std::vector<DimExpr>(static_cast<size_t>(rank), DimExpr(0)) ||
      limit != x->type().shape() || stride != std::vector<int64_t>(static_cast<size_t>(rank), 1)) {
    XS_ASSIGN_OR_RETURN(y, c.create(OpKind::Slice, {x},
                                    {{"start", Attribute::dimList(begin)},
                                     {"limit", Attribute::dimList(limit)},
                                     {"step", Attribute::intList(stride)}}));
  }
  // Negative steps take their indices with a gather.
  for (const SliceAxis &s : reversed) {
    Value *idx = nullptr;
    if (s.reversedCount) {
      XS_ASSIGN_OR_RETURN(Value * i, c.create(OpKind::Iota, {}, {{"dim", Attribute::integer(0)}},
                                              TensorType(ElementType::I64, {*s.reversedCount})));
      XS_ASSIGN_OR_RETURN(Value * step, c.scalarLike(static_cast<double>(s.step), i));
      XS_ASSIGN_OR_RETURN(Value * offsets, c.binary(OpKind::Mul, i, step));
      XS_ASSIGN_OR_RETURN(Value * last, c.dimScalar(s.start, ElementType::I64));
      XS_ASSIGN_OR_RETURN(idx, c.binary(OpKind::Add, offsets, last));
    } else {
      HostTensor indices(ElementType::I64, {static_cast<int64_t>(s.indices.size())});
      indices.ints() = s.indices;
      XS_ASSIGN_OR_RETURN(idx, c.constant(indices));
    }
    XS_ASSIGN_OR_RETURN(y,
                        c.create(OpKind::Gather, {y, idx}, {{"dim", Attribute::integer(s.axis)}}));
  }
  c.setOutput(0, y);
  return absl::OkStatus();
}

absl::Status importPad(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  int64_t rank = x->type().rank();
  std::vector<int64_t> pads;
  double value = 0;
  if (c.opset() < 11) {
    pads = c.intsAttr(c.opset() < 2 ? "paddings" : "pads");
    value = c.floatAttr("value", 0);
  } else {
    XS_ASSIGN_OR_RETURN(pads, c.constantInts(1, "the pads of Pad"));
    if (c.hasInput(2)) {
      XS_ASSIGN_OR_RETURN(HostTensor v, c.constantInput(2, "the constant value of Pad"));
      if (v.numElements() != 1)
        return c.error("the constant value must be a scalar");
      value = v.getDouble(0);
    }
  }
  if (static_cast<int64_t>(pads.size()) != 2 * rank)
    return c.error(strCat(pads.size(), " pads for rank ", rank, " (needs ", 2 * rank, ")"));
  std::string mode = c.stringAttr("mode", "constant");
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    return c.unsupported(strCat("mode '", mode, "'"));
  // Negative pads remove elements: a slice after padding by the positive ones.
  std::vector<int64_t> low(static_cast<size_t>(rank)), high(static_cast<size_t>(rank));
  std::vector<DimExpr> begin(static_cast<size_t>(rank), DimExpr(0));
  bool crop = false;
  for (int64_t d = 0; d < rank; ++d) {
    low[static_cast<size_t>(d)] = std::max<int64_t>(0, pads[static_cast<size_t>(d)]);
    high[static_cast<size_t>(d)] = std::max<int64_t>(0, pads[static_cast<size_t>(d + rank)]);
    crop |= pads[static_cast<size_t>(d)] < 0 || pads[static_cast<size_t>(d + rank)] < 0;
  }
  XS_ASSIGN_OR_RETURN(Value * y, c.create(OpKind::Pad, {x},
                                          {{"low", Attribute::intList(low)},
                                           {"high", Attribute::intList(high)},
                                           {"value", Attribute::floating(value)},
                                           {"mode", Attribute::enumeration(mode)}}));
  if (crop) {
    std::vector<DimExpr> limit = y->type().shape();
    for (int64_t d = 0; d < rank; ++d) {
      begin[static_cast<size_t>(d)] = DimExpr(-std::min<int64_t>(0, pads[static_cast<size_t>(d)]));
      limit[static_cast<size_t>(d)] =
          limit[static_cast<size_t>(d)] +
          DimExpr(std::min<int64_t>(0, pads[static_cast<size_t>(d + rank)]));
    }
    XS_ASSIGN_OR_RETURN(
        y, c.create(OpKind::Slice, {y},
                    {{"start", Attribute::dimList(begin)}, {"limit", Attribute::dimList(limit)}}));
  }
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// Tile: each dim d repeated r times is a broadcast to [.., r, d, ..] and a
/// reshape to [.., r*d, ..].
absl::Status importTile(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> repeats, c.sizesInput(1, "the repeats of Tile"));
  int64_t rank = x->type().rank();
  if (static_cast<int64_t>(repeats.size()) != rank)
    return c.error(strCat(repeats.size(), " repeats for rank ", rank));
  XS_RETURN_IF_ERROR(c.checkShape(repeats, "the repeats of Tile"));
  std::vector<DimExpr> wide, tiled;
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d) {
    wide.push_back(repeats[static_cast<size_t>(d)]);
    dims.push_back(static_cast<int64_t>(wide.size()));
    wide.push_back(x->type().dim(d));
    tiled.push_back(repeats[static_cast<size_t>(d)] * x->type().dim(d));
  }
  XS_ASSIGN_OR_RETURN(Value * b,
                      c.create(OpKind::Broadcast, {x}, {{"dims", Attribute::intList(dims)}},
                               TensorType(x->type().elementType(), wide)));
  XS_ASSIGN_OR_RETURN(Value * y, c.reshape(b, tiled));
  c.setOutput(0, y);
  return absl::OkStatus();
}

absl::Status importGather(ImportContext &c) {
  const OnnxValue *in = c.onnxInput(0);
  if (in && in->dims && !in->value && c.intAttr("axis", 0) == 0) {
    XS_ASSIGN_OR_RETURN(HostTensor idx, c.constantInput(1, "the indices of a Gather of dims"));
    if (idx.rank() <= 1) {
      std::vector<DimExpr> out;
      int64_t n = static_cast<int64_t>(in->dims->size());
      for (int64_t k = 0; k < idx.numElements(); ++k) {
        int64_t i = idx.getInt(k);
        if (i < -n || i >= n)
          return c.error(strCat("index ", i, " is out of range for ", n, " dims"));
        out.push_back((*in->dims)[static_cast<size_t>(i < 0 ? i + n : i)]);
      }
      c.setOutputDims(0, out, idx.rank() == 0);
      return absl::OkStatus();
    }
  }
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * idx, c.input(1));
  XS_ASSIGN_OR_RETURN(int64_t axis,
                      c.normalizeAxis(c.intAttr("axis", 0), x->type().rank(), "axis"));
  XS_ASSIGN_OR_RETURN(Value * y,
                      c.create(OpKind::Gather, {x, idx}, {{"dim", Attribute::integer(axis)}}));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// OneHot: `values[1]` where the new axis's position equals the index,
/// `values[0]` elsewhere (negative indices count from the end; indices out
/// of range give a line of `values[0]`). The depth fixes the result's shape,
/// so it must be known at import; the values may be computed.
absl::Status importOneHot(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * indices, c.input(0));
  XS_ASSIGN_OR_RETURN(HostTensor depthValue, c.constantInput(1, "the depth of OneHot"));
  if (depthValue.numElements() != 1)
    return c.error(
        strCat("the depth of OneHot must be one number, not ", depthValue.numElements()));
  const int64_t depth = static_cast<int64_t>(depthValue.getDouble(0));
  if (depth < 1)
    return c.error(strCat("the depth of OneHot must be at least 1, not ", depth));
  XS_ASSIGN_OR_RETURN(Value * values, c.input(2));
  if (values->type().rank() != 1 || values->type().dim(0) != DimExpr(2))
    return c.error("the values of OneHot must be a vector of 2 elements: [off, on]");
  const TensorType &type = indices->type();
  XS_ASSIGN_OR_RETURN(int64_t axis,
                      c.normalizeAxis(c.intAttr("axis", -1), type.rank() + 1, "axis"));
  if (type.elementType() != ElementType::I64) {
    XS_ASSIGN_OR_RETURN(indices, c.cast(indices, ElementType::I64));
  }
  // Negative indices count from the end: i + depth where i < 0.
  XS_ASSIGN_OR_RETURN(Value * zero, c.scalarLike(0, indices));
  XS_ASSIGN_OR_RETURN(Value * negative, c.compare("lt", indices, zero));
  XS_ASSIGN_OR_RETURN(Value * depthScalar, c.scalarLike(static_cast<double>(depth), indices));
  XS_ASSIGN_OR_RETURN(Value * wrapped, c.binary(OpKind::Add, indices, depthScalar));
  XS_ASSIGN_OR_RETURN(indices, c.select(negative, wrapped, indices));
  std::vector<DimExpr> shape = type.shape();
  shape.insert(shape.begin() + axis, DimExpr(depth));
  std::vector<int64_t> dims;
  for (int64_t d = 0; d <= type.rank(); ++d)
    if (d != axis)
      dims.push_back(d);
  TensorType indexType(ElementType::I64, shape);
  XS_ASSIGN_OR_RETURN(Value * wide, c.create(OpKind::Broadcast, {indices},
                                             {{"dims", Attribute::intList(dims)}}, indexType));
  XS_ASSIGN_OR_RETURN(Value * position,
                      c.create(OpKind::Iota, {}, {{"dim", Attribute::integer(axis)}}, indexType));
  XS_ASSIGN_OR_RETURN(Value * hot, c.compare("eq", wide, position));
  // values[hot]: 0 picks off, 1 picks on.
  XS_ASSIGN_OR_RETURN(Value * pick, c.cast(hot, ElementType::I64));
  XS_ASSIGN_OR_RETURN(Value * y,
                      c.create(OpKind::Gather, {values, pick}, {{"dim", Attribute::integer(0)}}));
  c.setOutput(0, y);
  return absl::OkStatus();
}

absl::Status importGatherElements(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * idx, c.input(1));
  XS_ASSIGN_OR_RETURN(int64_t axis,
                      c.normalizeAxis(c.intAttr("axis", 0), x->type().rank(), "axis"));
  XS_ASSIGN_OR_RETURN(
      Value * y, c.create(OpKind::TakeAlongAxis, {x, idx}, {{"dim", Attribute::integer(axis)}}));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// Trilu keeps the elements on and below (upper = 0) or on and above the
/// k-th diagonal of the last two dims and zeroes the rest: a select on
/// column - row, which stitches into the kernel that reads it (causal masks
/// are written this way by exporters).
absl::Status importTrilu(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  const TensorType &type = x->type();
  if (type.rank() < 2)
    return c.error(strCat("needs an input of rank 2 or more, got ", type.str()));
  int64_t k = 0;
  if (c.hasInput(1)) {
    XS_ASSIGN_OR_RETURN(std::vector<int64_t> ks, c.constantInts(1, "Trilu's k"));
    if (ks.size() != 1)
      return c.error(strCat("k must be one integer, got ", ks.size()));
    k = ks[0];
  }
  TensorType indexType(ElementType::I64, type.shape());
  auto iota = [&](int64_t dim) {
    return c.create(OpKind::Iota, {}, {{"dim", Attribute::integer(dim)}}, indexType);
  };
  XS_ASSIGN_OR_RETURN(Value * row, iota(type.rank() - 2));
  XS_ASSIGN_OR_RETURN(Value * col, iota(type.rank() - 1));
  XS_ASSIGN_OR_RETURN(Value * diagonal, c.binary(OpKind::Sub, col, row));
  XS_ASSIGN_OR_RETURN(Value * kValue, c.splat(static_cast<double>(k), indexType));
  XS_ASSIGN_OR_RETURN(Value * keep,
                      c.compare(c.intAttr("upper", 1) != 0 ? "ge" : "le", diagonal, kValue));
  XS_ASSIGN_OR_RETURN(Value * zero, c.splat(0.0, type));
  XS_ASSIGN_OR_RETURN(Value * y, c.select(keep, x, zero));
  c.setOutput(0, y);
  return absl::OkStatus();
}

} // namespace

void addMovementImporters(ImporterTable &table) {
  table["Trilu"] = {importTrilu, 14};
  table["Transpose"] = {importTranspose, 1};
  table["Concat"] = {importConcat, 4};
  table["Split"] = {importSplit, 2};
  table["Slice"] = {importSlice, 1};
  table["Pad"] = {importPad, 2};
  table["Tile"] = {importTile, 6};
  table["Gather"] = {importGather, 1};
  table["GatherElements"] = {importGatherElements, 11};
  table["OneHot"] = {importOneHot, 11};
}

} // namespace xs
