// ONNX operators of image models' [N, C, spatial...] tensors that move or
// reduce memory only: GlobalAveragePool and GlobalMaxPool (the squeeze of
// squeeze-and-excitation blocks, CNN heads), DepthToSpace and SpaceToDepth
// (pixel shuffles), each as reductions, reshapes and one transpose, and
// nearest-neighbour Resize (upsampling in U-Nets and feature pyramids) as
// gathers and repeats.

#include <algorithm>
#include <cmath>

#include "frontend/onnx/OpImporters.h"

namespace xs {

namespace {

/// The mean (ReduceSum then a division) or maximum over every dim after N
/// and C, the reduced dims kept as 1s.
template <OpKind Kind> absl::Status importGlobalPool(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  const TensorType type = x->type();
  if (type.rank() < 2)
    return c.error(strCat("expects an input of rank at least 2 ([N, C, ...]), got ", type.str()));
  if (!isFloat(type.elementType()))
    return c.unsupported(strCat("needs a float input, got ", type.str()));
  std::vector<int64_t> spatial;
  DimExpr count(1);
  std::vector<DimExpr> kept = type.shape();
  for (int64_t d = 2; d < type.rank(); ++d) {
    spatial.push_back(d);
    count = count * type.dim(d);
    kept[static_cast<size_t>(d)] = DimExpr(1);
  }
  Value *y = x;
  if (!spatial.empty()) {
    XS_ASSIGN_OR_RETURN(y, c.create(Kind, {x}, {{"dims", Attribute::intList(spatial)}}));
  }
  if (Kind == OpKind::ReduceSum) {
    XS_ASSIGN_OR_RETURN(Value * divisor, c.dimScalar(count, type.elementType()));
    XS_ASSIGN_OR_RETURN(y, c.binary(OpKind::Div, y, divisor));
  }
  XS_ASSIGN_OR_RETURN(y, c.reshape(y, kept));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// DepthToSpace's and SpaceToDepth's block size, for an input of type
/// `type`, which must be [N, C, H, W].
absl::StatusOr<int64_t> blockSizeOfNCHW(ImportContext &c, const TensorType &type) {
  if (type.rank() != 4)
    return c.error(strCat("expects an input of rank 4 ([N, C, H, W]), got ", type.str()));
  if (!c.hasAttr("blocksize"))
    return c.error("needs the attribute blocksize");
  int64_t b = c.intAttr("blocksize", 0);
  if (b < 1)
    return c.error(strCat("blocksize is ", b, "; it must be at least 1"));
  return b;
}

/// reshape(x, split), transpose(perm), reshape to `shape`.
absl::StatusOr<Value *> splitPermuteMerge(ImportContext &c, Value *x, std::vector<DimExpr> split,
                                          std::vector<int64_t> perm, std::vector<DimExpr> shape) {
  XS_ASSIGN_OR_RETURN(Value * s, c.reshape(x, std::move(split)));
  XS_ASSIGN_OR_RETURN(Value * t,
                      c.create(OpKind::Transpose, {s}, {{"perm", Attribute::intList(perm)}}));
  return c.reshape(t, std::move(shape));
}

/// [N, C, H, W] -> [N, C/b^2, H*b, W*b]: channel c*b*b + i*b + j (CRD) or
/// (i*b + j)*C/b^2 + c (DCR, the default) moves to row h*b + i, column w*b + j.
absl::Status importDepthToSpace(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  const TensorType type = x->type();
  XS_ASSIGN_OR_RETURN(int64_t b, blockSizeOfNCHW(c, type));
  const std::string mode = c.stringAttr("mode", "DCR");
  if (mode != "DCR" && mode != "CRD")
    return c.error(strCat("mode is '", mode, "'; it must be DCR or CRD"));
  const DimExpr n = type.dim(0), h = type.dim(2), w = type.dim(3);
  const DimExpr depth = DimExpr::floorDiv(type.dim(1), b * b);
  std::vector<DimExpr> shape = {n, depth, h * DimExpr(b), w * DimExpr(b)};
  Value *y = nullptr;
  if (mode == "DCR") {
    XS_ASSIGN_OR_RETURN(
        y, splitPermuteMerge(c, x, {n, b, b, depth, h, w}, {0, 3, 4, 1, 5, 2}, std::move(shape)));
  } else {
    XS_ASSIGN_OR_RETURN(
        y, splitPermuteMerge(c, x, {n, depth, b, b, h, w}, {0, 1, 4, 2, 5, 3}, std::move(shape)));
  }
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// [N, C, H, W] -> [N, C*b^2, H/b, W/b], DepthToSpace's DCR inverse: row
/// h*b + i, column w*b + j moves to channel (i*b + j)*C + c.
absl::Status importSpaceToDepth(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  const TensorType type = x->type();
  XS_ASSIGN_OR_RETURN(int64_t b, blockSizeOfNCHW(c, type));
  const DimExpr n = type.dim(0), ch = type.dim(1);
  const DimExpr h = DimExpr::floorDiv(type.dim(2), b), w = DimExpr::floorDiv(type.dim(3), b);
  XS_ASSIGN_OR_RETURN(Value * y, splitPermuteMerge(c, x, {n, ch, h, b, w, b}, {0, 3, 5, 1, 2, 4},
                                                   {n, ch * DimExpr(b * b), h, w}));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// Resize's nearest-neighbour source of output position `o` along a dim of
/// `in` elements resized to `out` (scale the factor the formulas use), or
/// nullopt for a mode xstitch does not import.
struct NearestSource {
  std::string coordinates, rounding;

  std::optional<int64_t> operator()(int64_t o, int64_t in, int64_t out, double scale) const {
    double x;
    if (coordinates == "half_pixel")
      x = (o + 0.5) / scale - 0.5;
    else if (coordinates == "pytorch_half_pixel")
      x = out > 1 ? (o + 0.5) / scale - 0.5 : 0.0;
    else if (coordinates == "align_corners")
      x = out > 1 ? o * static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0.0;
    else if (coordinates == "asymmetric")
      x = o / scale;
    else if (coordinates == "tf_half_pixel_for_nn")
      x = (o + 0.5) / scale;
    else
      return std::nullopt;
    double i;
    if (rounding == "round_prefer_floor")
      i = x == std::floor(x) + 0.5 ? std::floor(x) : std::round(x);
    else if (rounding == "round_prefer_ceil")
      i = x == std::floor(x) + 0.5 ? std::ceil(x) : std::round(x);
    else if (rounding == "floor")
      i = std::floor(x);
    else if (rounding == "ceil")
      i = std::ceil(x);
    else
      return std::nullopt;
    return std::clamp(static_cast<int64_t>(i), int64_t(0), std::max<int64_t>(in - 1, 0));
  }
};

/// Whether the source of every output position is `k*o + offset` (over a
/// symbolic dim, a repeat or a stride must hold for every length): checked
/// on lengths up to 64, where a mode that depends on the length (such as
/// align_corners) shows.
bool sourceIsAffine(const NearestSource &source, int64_t upscale, int64_t stride, int64_t offset) {
  for (int64_t in = 1; in <= 64; ++in) {
    const int64_t out = upscale > 1 ? in * upscale : in / stride;
    const double scale =
        upscale > 1 ? static_cast<double>(upscale) : 1.0 / static_cast<double>(stride);
    for (int64_t o = 0; o < out; ++o) {
      const int64_t want = upscale > 1 ? o / upscale : o * stride + offset;
      if (source(o, in, out, scale) != want)
        return false;
    }
  }
  return true;
}

/// Resize with mode "nearest" (F.interpolate's default, nn.Upsample): a
/// gather of the source positions along each resized dim of constant size;
/// over a symbolic dim an integer upscale repeats each element (a broadcast,
/// no gather) and an integer downscale takes every k-th one.
absl::Status importResize(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  const TensorType type = x->type();
  const std::string mode = c.stringAttr("mode", "nearest");
  if (mode != "nearest")
    return c.unsupported(strCat("mode '", mode, "' (only nearest imports)"));
  const NearestSource source{c.stringAttr("coordinate_transformation_mode", "half_pixel"),
                             c.stringAttr("nearest_mode", "round_prefer_floor")};
  if (!source(0, 1, 1, 1.0))
    return c.unsupported(strCat("coordinate_transformation_mode '", source.coordinates,
                                "' with nearest_mode '", source.rounding, "'"));
  const int64_t rank = type.rank();
  std::vector<double> scales;
  std::vector<DimExpr> sizes;
  if (c.hasInput(3)) {
    XS_ASSIGN_OR_RETURN(sizes, c.dimsInput(3, "the sizes of Resize"));
  } else if (c.hasInput(2)) {
    XS_ASSIGN_OR_RETURN(HostTensor t, c.constantInput(2, "the scales of Resize"));
    for (int64_t i = 0; i < t.numElements(); ++i)
      scales.push_back(t.getDouble(i));
  }
  if (static_cast<int64_t>(sizes.size() + scales.size()) != rank)
    return c.error(strCat("needs ", rank, " scales or sizes (one per dim of ", type.str(), ")"));

  Value *y = x;
  for (int64_t d = 0; d < rank; ++d) {
    const DimExpr &dim = type.dim(d);
    std::optional<int64_t> in = dim.constantValue();
    if (in) {
      double scale;
      int64_t out;
      if (!sizes.empty()) {
        std::optional<int64_t> k = sizes[static_cast<size_t>(d)].constantValue();
        if (!k)
          return c.unsupported(strCat("a size of ", sizes[static_cast<size_t>(d)].str(),
                                      " for the dim of constant size ", *in));
        out = *k;
        scale = *in == 0 ? 1.0 : static_cast<double>(out) / static_cast<double>(*in);
      } else {
        scale = scales[static_cast<size_t>(d)];
        if (!(scale > 0))
          return c.error(strCat("scale ", scale, " of dim ", d, " is not positive"));
        out = static_cast<int64_t>(std::floor(static_cast<double>(*in) * scale));
      }
      if (out == *in && (scale == 1.0 || *in == 0))
        continue;
      HostTensor indices(ElementType::I64, {out});
      for (int64_t o = 0; o < out; ++o)
        indices.ints()[static_cast<size_t>(o)] = *source(o, *in, out, scale);
      XS_ASSIGN_OR_RETURN(Value * idx, c.constant(indices));
      XS_ASSIGN_OR_RETURN(y, c.create(OpKind::Gather, {y, idx}, {{"dim", Attribute::integer(d)}}));
      continue;
    }
    // A symbolic dim: the factor must be an integer or its reciprocal.
    int64_t upscale = 0, stride = 0;
    for (int64_t k = 1; k <= 64 && !upscale && !stride; ++k) {
      if (!sizes.empty()) {
        const DimExpr &size = sizes[static_cast<size_t>(d)];
        if (size == DimExpr(k) * dim)
          upscale = k;
        else if (k > 1 && size == DimExpr::floorDiv(dim, k))
          stride = k;
      } else if (scales[static_cast<size_t>(d)] == static_cast<double>(k)) {
        upscale = k;
      } else if (k > 1 &&
                 std::abs(scales[static_cast<size_t>(d)] * static_cast<double>(k) - 1.0) < 1e-6) {
        // 1/3 as a float is not 1/3.
        stride = k;
      }
    }
    if (upscale == 1)
      continue;
    if (!upscale && !stride)
      return c.unsupported(strCat("resizing the symbolic dim ", dim.str(),
                                  " by other than a whole factor or its reciprocal"));
    const int64_t offset = stride ? *source(0, stride, 1, 1.0 / static_cast<double>(stride)) : 0;
    if (!sourceIsAffine(source, upscale, stride, offset))
      return c.unsupported(strCat("coordinate_transformation_mode '", source.coordinates,
                                  "' with nearest_mode '", source.rounding,
                                  "' over the symbolic dim ", dim.str(),
                                  " (its sources depend on the dim's size)"));
    std::vector<DimExpr> shape = y->type().shape();
    if (upscale) {
      // [.., D, ..] -> [.., D, 1, ..] -> [.., D, k, ..] -> [.., k*D, ..].
      std::vector<DimExpr> split = shape;
      split.insert(split.begin() + d + 1, DimExpr(1));
      XS_ASSIGN_OR_RETURN(Value * s, c.reshape(y, split));
      split[static_cast<size_t>(d + 1)] = DimExpr(upscale);
      XS_ASSIGN_OR_RETURN(Value * b, c.broadcastTo(s, split));
      shape[static_cast<size_t>(d)] = DimExpr(upscale) * dim;
      XS_ASSIGN_OR_RETURN(y, c.reshape(b, shape));
    } else {
      const DimExpr out = DimExpr::floorDiv(dim, stride);
      XS_ASSIGN_OR_RETURN(Value * i, c.create(OpKind::Iota, {}, {{"dim", Attribute::integer(0)}},
                                              TensorType(ElementType::I64, {out})));
      XS_ASSIGN_OR_RETURN(Value * k, c.scalarLike(static_cast<double>(stride), i));
      XS_ASSIGN_OR_RETURN(Value * scaled, c.binary(OpKind::Mul, i, k));
      XS_ASSIGN_OR_RETURN(Value * first, c.scalarLike(static_cast<double>(offset), i));
      XS_ASSIGN_OR_RETURN(Value * idx, c.binary(OpKind::Add, scaled, first));
      XS_ASSIGN_OR_RETURN(y, c.create(OpKind::Gather, {y, idx}, {{"dim", Attribute::integer(d)}}));
    }
  }
  c.setOutput(0, y);
  return absl::OkStatus();
}

} // namespace

void addImageImporters(ImporterTable &table) {
  table["GlobalAveragePool"] = {importGlobalPool<OpKind::ReduceSum>, 1};
  table["GlobalMaxPool"] = {importGlobalPool<OpKind::ReduceMax>, 1};
  table["DepthToSpace"] = {importDepthToSpace, 11};
  table["SpaceToDepth"] = {importSpaceToDepth, 1};
  table["Resize"] = {importResize, 11};
}

} // namespace xs
