// ONNX Resize (F.interpolate, nn.Upsample: the upsampling of U-Nets and
// feature pyramids) in nearest, linear and cubic modes. The modes are
// separable, so each resized dim is interpolated on its own: output position
// o reads a few source positions ("taps") around its source coordinate x(o),
// weighted by the mode's coefficients, positions past the dim's ends reading
// its edge (ONNX pads with the edge element). Per dim, the first that applies:
//  - both sizes constant: a gather per tap of constant indices, times
//    constant weights;
//  - a symbolic dim resized by a whole factor k or its reciprocal in a mode
//    whose taps do not depend on the length (half_pixel, asymmetric): the
//    taps repeat with the factor, so an upscale reads i + s for output
//    k*i + r (shifts s and weights of phase r; nearest: a repeat, no gather)
//    and a downscale reads k*o + s, with constant weights;
//  - otherwise (align_corners, a resize to another tensor's size, as
//    feature pyramids write): each output position's coordinate, taps and
//    weights computed at run time from the dims' values.

#include <algorithm>
#include <cmath>
#include <map>

#include "frontend/onnx/OpImporters.h"

namespace xs {

namespace {

/// The largest scale and output dim Resize takes: a factor's products (and a
/// dim's elements) stay far inside int64.
constexpr double kMaxScale = 0x1p31, kMaxOutputDim = 0x1p40;

/// One source position an output position reads: `index` (unclamped:
/// positions outside the dim read its nearer edge) times `weight`.
struct Tap {
  int64_t index = 0;
  double weight = 1.0;
};

/// Resize's attributes as they decide the taps of each output position.
struct ResizeMode {
  enum class Kind { Nearest, Linear, Cubic };
  Kind kind = Kind::Nearest;
  std::string coordinates = "half_pixel";
  std::string rounding = "round_prefer_floor";
  double cubicA = -0.75;
  bool excludeOutside = false;

  /// The attributes that decide the source positions, for messages.
  std::string describe() const {
    std::string text = strCat("coordinate_transformation_mode '", coordinates, "'");
    if (kind == Kind::Nearest)
      text += strCat(" with nearest_mode '", rounding, "'");
    return text;
  }

  /// The source coordinate of output position `o` of a dim of `in` elements
  /// resized by `scale` (ONNX's reference: `outWidth` is scale * in, not
  /// rounded), or nullopt for a transformation mode xstitch does not import.
  std::optional<double> coordinate(int64_t o, int64_t in, double outWidth, double scale) const {
    const double x = static_cast<double>(o);
    if (coordinates == "half_pixel")
      return (x + 0.5) / scale - 0.5;
    if (coordinates == "pytorch_half_pixel")
      return outWidth == 1.0 ? -0.5 : (x + 0.5) / scale - 0.5;
    if (coordinates == "align_corners")
      return outWidth == 1.0 ? 0.0 : x * static_cast<double>(in - 1) / (outWidth - 1.0);
    if (coordinates == "asymmetric")
      return x / scale;
    if (coordinates == "tf_half_pixel_for_nn" && kind == Kind::Nearest)
      return (x + 0.5) / scale;
    return std::nullopt;
  }

  /// The taps of source coordinate `x`, unclamped; nullopt for a rounding
  /// mode xstitch does not import.
  std::optional<std::vector<Tap>> taps(double x) const {
    const double f = std::floor(x);
    const auto at = static_cast<int64_t>(f);
    const double r = x - f;
    switch (kind) {
    case Kind::Nearest: {
      double i;
      if (rounding == "round_prefer_floor")
        i = r == 0.5 ? f : std::round(x);
      else if (rounding == "round_prefer_ceil")
        i = r == 0.5 ? f + 1 : std::round(x);
      else if (rounding == "floor")
        i = f;
      else if (rounding == "ceil")
        i = std::ceil(x);
      else
        return std::nullopt;
      return std::vector<Tap>{{static_cast<int64_t>(i), 1.0}};
    }
    case Kind::Linear:
      return std::vector<Tap>{{at, 1.0 - r}, {at + 1, r}};
    case Kind::Cubic: {
      // Keys' cubic convolution with parameter A at distances 1 + r, r,
      // 1 - r and 2 - r (ONNX's coefficients, in its order of operations).
      const double a = cubicA, s = 1.0 - r;
      return std::vector<Tap>{
          {at - 1, ((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a},
          {at, ((a + 2) * r - (a + 3)) * r * r + 1},
          {at + 1, ((a + 2) * s - (a + 3)) * s * s + 1},
          {at + 2, ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a}};
    }
    }
    return std::nullopt;
  }

  /// The taps of output position `o` with their indices clamped into
  /// [0, in); with exclude_outside, the taps outside get weight 0 and the
  /// others share their weight. nullopt for an unsupported mode.
  std::optional<std::vector<Tap>> clampedTaps(int64_t o, int64_t in, double outWidth,
                                              double scale) const {
    std::optional<double> x = coordinate(o, in, outWidth, scale);
    if (!x)
      return std::nullopt;
    std::optional<std::vector<Tap>> found = taps(*x);
    if (!found)
      return std::nullopt;
    if (excludeOutside && kind != Kind::Nearest) {
      double kept = 0;
      for (Tap &tap : *found) {
        if (tap.index < 0 || tap.index >= in)
          tap.weight = 0;
        kept += tap.weight;
      }
      for (Tap &tap : *found)
        tap.weight = kept == 0 ? 0 : tap.weight / kept;
    }
    for (Tap &tap : *found)
      tap.index = std::clamp<int64_t>(tap.index, 0, std::max<int64_t>(in - 1, 0));
    return found;
  }
};

/// The taps of a symbolic dim resized by a whole factor or its reciprocal,
/// relative to a position that moves with the output: for an upscale by k,
/// phase r's taps of output k*i + r as shifts from i; for a downscale by k,
/// the one phase's taps of output o as offsets from k*o. Indices are not
/// clamped (the emitter clamps them to the dim at run time).
struct PeriodicTaps {
  int64_t upscale = 0, stride = 0;
  std::vector<std::vector<Tap>> phases;
};

/// The periodic taps of `mode` for the factor, or nullopt where they depend
/// on the dim's length: checked on lengths up to 64, where such a mode
/// (align_corners, a half-pixel mode giving one output) shows.
std::optional<PeriodicTaps> periodicTaps(const ResizeMode &mode, int64_t upscale, int64_t stride) {
  PeriodicTaps periodic{upscale, stride, {}};
  const int64_t period = upscale ? upscale : 1;
  const double scale = upscale ? static_cast<double>(upscale) : 1.0 / static_cast<double>(stride);
  for (int64_t in = 1; in <= 64; ++in) {
    const int64_t out = upscale ? in * upscale : in / stride;
    // Scales give the width scale * in, sizes the whole number of outputs.
    for (const double outWidth : {static_cast<double>(in) * scale, static_cast<double>(out)})
      for (int64_t o = 0; o < out; ++o) {
        std::optional<double> x = mode.coordinate(o, in, outWidth, scale);
        if (!x)
          return std::nullopt;
        // Relative to i (upscale) or k*o (downscale).
        const double base =
            upscale ? static_cast<double>(o / upscale) : static_cast<double>(o * stride);
        std::optional<std::vector<Tap>> taps = mode.taps(*x - base);
        if (!taps)
          return std::nullopt;
        const size_t phase = static_cast<size_t>(o % period);
        if (periodic.phases.size() <= phase) {
          periodic.phases.resize(phase + 1);
          periodic.phases[phase] = *taps;
          continue;
        }
        const std::vector<Tap> &seen = periodic.phases[phase];
        for (size_t t = 0; t < taps->size(); ++t)
          if ((*taps)[t].index != seen[t].index ||
              std::abs((*taps)[t].weight - seen[t].weight) > 1e-9)
            return std::nullopt;
      }
  }
  if (static_cast<int64_t>(periodic.phases.size()) != period)
    return std::nullopt;
  return periodic;
}

/// Builds the resized dims one at a time.
class ResizeBuilder {
public:
  ResizeBuilder(ImportContext &c, const ResizeMode &mode) : c_(c), mode_(mode) {}

  /// Dim d of `y` (constant size `in`) resized to `out`.
  absl::StatusOr<Value *> resizeConstant(Value *y, int64_t d, int64_t in, int64_t out,
                                         double outWidth, double scale) {
    std::vector<HostTensor> indices, weights;
    for (int64_t o = 0; o < out; ++o) {
      std::optional<std::vector<Tap>> taps = mode_.clampedTaps(o, in, outWidth, scale);
      if (!taps)
        return c_.unsupported(mode_.describe());
      for (size_t t = 0; t < taps->size(); ++t) {
        if (indices.size() <= t) {
          indices.emplace_back(ElementType::I64, std::vector<int64_t>{out});
          std::vector<int64_t> shape(static_cast<size_t>(y->type().rank()), 1);
          shape[static_cast<size_t>(d)] = out;
          weights.emplace_back(y->type().elementType(), shape);
        }
        indices[t].ints()[static_cast<size_t>(o)] = (*taps)[t].index;
        weights[t].setDouble(o, (*taps)[t].weight);
      }
    }
    Value *sum = nullptr;
    for (size_t t = 0; t < indices.size(); ++t) {
      const std::vector<double> &w = weights[t].floats();
      if (std::all_of(w.begin(), w.end(), [](double v) { return v == 0; }))
        continue;
      XS_ASSIGN_OR_RETURN(Value * idx, c_.constant(indices[t]));
      XS_ASSIGN_OR_RETURN(Value * term, gather(y, idx, d));
      if (!std::all_of(w.begin(), w.end(), [](double v) { return v == 1; })) {
        XS_ASSIGN_OR_RETURN(Value * weight, c_.constant(weights[t]));
        XS_ASSIGN_OR_RETURN(term, c_.binary(OpKind::Mul, term, weight));
      }
      XS_ASSIGN_OR_RETURN(sum, add(sum, term));
    }
    // Every weight 0 (exclude_outside with no tap inside): zeros.
    return sum ? sum : zerosAlong(y, d, DimExpr(out));
  }

  /// Dim d of `y` (symbolic) resized by the periodic taps.
  absl::StatusOr<Value *> resizeSymbolic(Value *y, int64_t d, const PeriodicTaps &periodic) {
    const DimExpr dim = y->type().dim(d);
    std::vector<DimExpr> shape = y->type().shape();
    if (periodic.stride) {
      const DimExpr out = DimExpr::floorDiv(dim, periodic.stride);
      XS_ASSIGN_OR_RETURN(Value * first, iota(out));
      XS_ASSIGN_OR_RETURN(Value * k, c_.scalarLike(static_cast<double>(periodic.stride), first));
      XS_ASSIGN_OR_RETURN(first, c_.binary(OpKind::Mul, first, k));
      Value *sum = nullptr;
      for (const Tap &tap : periodic.phases.front()) {
        if (tap.weight == 0)
          continue;
        // k*o + s stays below the dim for 0 <= s < k.
        XS_ASSIGN_OR_RETURN(Value * idx, shifted(first, tap.index, dim,
                                                 tap.index < 0 || tap.index >= periodic.stride));
        XS_ASSIGN_OR_RETURN(Value * term, gather(y, idx, d));
        XS_ASSIGN_OR_RETURN(term, weighted(term, tap.weight));
        XS_ASSIGN_OR_RETURN(sum, add(sum, term));
      }
      return sum ? sum : zerosAlong(y, d, out);
    }
    const int64_t k = periodic.upscale;
    std::vector<DimExpr> split = shape;
    split.insert(split.begin() + d + 1, DimExpr(1));
    std::vector<DimExpr> merged = shape;
    merged[static_cast<size_t>(d)] = DimExpr(k) * dim;
    const bool repeats = std::all_of(
        periodic.phases.begin(), periodic.phases.end(), [](const std::vector<Tap> &taps) {
          return std::all_of(taps.begin(), taps.end(), [](const Tap &tap) {
            return tap.weight == 0 || (tap.index == 0 && tap.weight == 1);
          });
        });
    if (repeats) {
      // Nearest upsampling: each element k times, a broadcast.
      XS_ASSIGN_OR_RETURN(Value * s, c_.reshape(y, split));
      split[static_cast<size_t>(d + 1)] = DimExpr(k);
      XS_ASSIGN_OR_RETURN(Value * b, c_.broadcastTo(s, split));
      return c_.reshape(b, merged);
    }
    // [.., D, ..] per phase -> [.., D, 1, ..], concatenated to
    // [.., D, k, ..] -> [.., k*D, ..].
    XS_ASSIGN_OR_RETURN(Value * positions, iota(dim));
    std::map<int64_t, Value *> shifts;
    std::vector<Value *> phases;
    for (const std::vector<Tap> &taps : periodic.phases) {
      Value *sum = nullptr;
      for (const Tap &tap : taps) {
        if (tap.weight == 0)
          continue;
        Value *&term = shifts[tap.index];
        if (!term) {
          term = y;
          if (tap.index != 0) {
            XS_ASSIGN_OR_RETURN(Value * idx, shifted(positions, tap.index, dim, true));
            XS_ASSIGN_OR_RETURN(term, gather(y, idx, d));
          }
        }
        XS_ASSIGN_OR_RETURN(Value * product, weighted(term, tap.weight));
        XS_ASSIGN_OR_RETURN(sum, add(sum, product));
      }
      if (!sum) {
        XS_ASSIGN_OR_RETURN(sum, zerosAlong(y, d, dim));
      }
      XS_ASSIGN_OR_RETURN(Value * phase, c_.reshape(sum, split));
      phases.push_back(phase);
    }
    XS_ASSIGN_OR_RETURN(Value * stacked,
                        c_.create(OpKind::Concat, phases, {{"dim", Attribute::integer(d + 1)}}));
    return c_.reshape(stacked, merged);
  }

  /// Dim d of `y` resized to `out` elements (a dim expression) where the
  /// taps depend on the dims' values (align_corners, a resize to another
  /// tensor's size): each output position's source coordinate, taps and
  /// weights computed at run time, in f64 as ONNX's reference computes them.
  /// `scale` is the given scale, absent where sizes were given.
  absl::StatusOr<Value *> resizeDynamic(Value *y, int64_t d, const DimExpr &out,
                                        std::optional<double> scale) {
    const DimExpr in = y->type().dim(d);
    const ElementType f64 = ElementType::F64;
    XS_ASSIGN_OR_RETURN(Value * positions, iota(out));
    XS_ASSIGN_OR_RETURN(Value * o, c_.cast(positions, f64));
    XS_ASSIGN_OR_RETURN(Value * inF, c_.dimScalar(in, f64));
    XS_ASSIGN_OR_RETURN(Value * outF, c_.dimScalar(out, f64));
    auto number = [&](double v) { return c_.scalarLike(v, o); };
    auto op = [&](OpKind kind, Value *a, Value *b) { return c_.binary(kind, a, b); };
    Value *scaleF = nullptr, *outWidth = outF;
    if (scale) {
      XS_ASSIGN_OR_RETURN(scaleF, number(*scale));
      XS_ASSIGN_OR_RETURN(outWidth, op(OpKind::Mul, inF, scaleF));
    } else {
      XS_ASSIGN_OR_RETURN(scaleF, op(OpKind::Div, outF, inF));
    }
    XS_ASSIGN_OR_RETURN(Value * half, number(0.5));
    XS_ASSIGN_OR_RETURN(Value * one, number(1.0));
    XS_ASSIGN_OR_RETURN(Value * centre, op(OpKind::Add, o, half));
    XS_ASSIGN_OR_RETURN(Value * single, c_.compare("eq", outWidth, one));
    Value *x = nullptr;
    const std::string &mode = mode_.coordinates;
    if (mode == "half_pixel" || mode == "pytorch_half_pixel") {
      XS_ASSIGN_OR_RETURN(x, op(OpKind::Div, centre, scaleF));
      XS_ASSIGN_OR_RETURN(x, op(OpKind::Sub, x, half));
      if (mode == "pytorch_half_pixel") {
        XS_ASSIGN_OR_RETURN(Value * minusHalf, number(-0.5));
        XS_ASSIGN_OR_RETURN(x, c_.select(single, minusHalf, x));
      }
    } else if (mode == "align_corners") {
      XS_ASSIGN_OR_RETURN(Value * last, op(OpKind::Sub, inF, one));
      XS_ASSIGN_OR_RETURN(Value * span, op(OpKind::Sub, outWidth, one));
      XS_ASSIGN_OR_RETURN(x, op(OpKind::Mul, o, last));
      XS_ASSIGN_OR_RETURN(x, op(OpKind::Div, x, span));
      XS_ASSIGN_OR_RETURN(Value * zero, number(0.0));
      XS_ASSIGN_OR_RETURN(x, c_.select(single, zero, x));
    } else if (mode == "asymmetric") {
      XS_ASSIGN_OR_RETURN(x, op(OpKind::Div, o, scaleF));
    } else if (mode == "tf_half_pixel_for_nn" && mode_.kind == ResizeMode::Kind::Nearest) {
      XS_ASSIGN_OR_RETURN(x, op(OpKind::Div, centre, scaleF));
    } else {
      return c_.unsupported(mode_.describe());
    }
    XS_ASSIGN_OR_RETURN(Value * floor, c_.unary(OpKind::Floor, x));
    XS_ASSIGN_OR_RETURN(Value * r, op(OpKind::Sub, x, floor));
    XS_ASSIGN_OR_RETURN(Value * at, c_.cast(floor, ElementType::I64));
    // (first tap's offset from floor(x), weight) per tap.
    std::vector<std::pair<int64_t, Value *>> taps;
    switch (mode_.kind) {
    case ResizeMode::Kind::Nearest: {
      // floor(x) or the next position, by the fraction and the rounding.
      Value *up = nullptr;
      if (mode_.rounding == "round_prefer_floor") {
        XS_ASSIGN_OR_RETURN(up, c_.compare("gt", r, half));
      } else if (mode_.rounding == "round_prefer_ceil") {
        XS_ASSIGN_OR_RETURN(up, c_.compare("ge", r, half));
      } else if (mode_.rounding == "ceil") {
        XS_ASSIGN_OR_RETURN(Value * zero, number(0.0));
        XS_ASSIGN_OR_RETURN(up, c_.compare("gt", r, zero));
      } else if (mode_.rounding != "floor") {
        return c_.unsupported(mode_.describe());
      }
      if (up) {
        XS_ASSIGN_OR_RETURN(Value * step, c_.cast(up, ElementType::I64));
        XS_ASSIGN_OR_RETURN(at, op(OpKind::Add, at, step));
      }
      taps.push_back({0, nullptr});
      break;
    }
    case ResizeMode::Kind::Linear: {
      XS_ASSIGN_OR_RETURN(Value * left, op(OpKind::Sub, one, r));
      taps = {{0, left}, {1, r}};
      break;
    }
    case ResizeMode::Kind::Cubic: {
      // ResizeMode::taps's coefficients, element-wise in r.
      XS_ASSIGN_OR_RETURN(Value * a, number(mode_.cubicA));
      XS_ASSIGN_OR_RETURN(Value * s, op(OpKind::Sub, one, r));
      XS_ASSIGN_OR_RETURN(Value * ap2, number(mode_.cubicA + 2));
      XS_ASSIGN_OR_RETURN(Value * ap3, number(mode_.cubicA + 3));
      XS_ASSIGN_OR_RETURN(Value * a5, number(5 * mode_.cubicA));
      XS_ASSIGN_OR_RETURN(Value * a8, number(8 * mode_.cubicA));
      XS_ASSIGN_OR_RETURN(Value * a4, number(4 * mode_.cubicA));
      // ((A t - 5A) t + 8A) t - 4A for t in (1, 2).
      auto outer = [&](Value *t) -> absl::StatusOr<Value *> {
        XS_ASSIGN_OR_RETURN(Value * v, op(OpKind::Mul, a, t));
        XS_ASSIGN_OR_RETURN(v, op(OpKind::Sub, v, a5));
        XS_ASSIGN_OR_RETURN(v, op(OpKind::Mul, v, t));
        XS_ASSIGN_OR_RETURN(v, op(OpKind::Add, v, a8));
        XS_ASSIGN_OR_RETURN(v, op(OpKind::Mul, v, t));
        return op(OpKind::Sub, v, a4);
      };
      // ((A + 2) t - (A + 3)) t t + 1 for t in [0, 1].
      auto inner = [&](Value *t) -> absl::StatusOr<Value *> {
        XS_ASSIGN_OR_RETURN(Value * v, op(OpKind::Mul, ap2, t));
        XS_ASSIGN_OR_RETURN(v, op(OpKind::Sub, v, ap3));
        XS_ASSIGN_OR_RETURN(v, op(OpKind::Mul, v, t));
        XS_ASSIGN_OR_RETURN(v, op(OpKind::Mul, v, t));
        return op(OpKind::Add, v, one);
      };
      XS_ASSIGN_OR_RETURN(Value * r1, op(OpKind::Add, r, one));
      XS_ASSIGN_OR_RETURN(Value * s1, op(OpKind::Add, s, one));
      XS_ASSIGN_OR_RETURN(Value * w0, outer(r1));
      XS_ASSIGN_OR_RETURN(Value * w1, inner(r));
      XS_ASSIGN_OR_RETURN(Value * w2, inner(s));
      XS_ASSIGN_OR_RETURN(Value * w3, outer(s1));
      taps = {{-1, w0}, {0, w1}, {1, w2}, {2, w3}};
      break;
    }
    }
    // Tap indices clamped into the dim; with exclude_outside the weights
    // of taps outside it are dropped and the rest rescaled to sum to 1.
    XS_ASSIGN_OR_RETURN(Value * lastIndex, c_.dimScalar(in - DimExpr(1), ElementType::I64));
    XS_ASSIGN_OR_RETURN(Value * zeroIndex, c_.scalarLike(0.0, at));
    std::vector<Value *> indices;
    for (auto &[offset, weight] : taps) {
      XS_ASSIGN_OR_RETURN(Value * idx, shifted(at, offset, in, false));
      if (mode_.excludeOutside && weight) {
        XS_ASSIGN_OR_RETURN(Value * below, c_.compare("lt", idx, zeroIndex));
        XS_ASSIGN_OR_RETURN(Value * above, c_.compare("gt", idx, lastIndex));
        XS_ASSIGN_OR_RETURN(Value * outside, op(OpKind::Or, below, above));
        XS_ASSIGN_OR_RETURN(Value * zero, number(0.0));
        XS_ASSIGN_OR_RETURN(weight, c_.select(outside, zero, weight));
      }
      XS_ASSIGN_OR_RETURN(idx, op(OpKind::Max, idx, zeroIndex));
      XS_ASSIGN_OR_RETURN(idx, op(OpKind::Min, idx, lastIndex));
      indices.push_back(idx);
    }
    if (mode_.excludeOutside && taps.front().second) {
      Value *total = nullptr;
      for (auto &tap : taps) {
        XS_ASSIGN_OR_RETURN(total, add(total, tap.second));
      }
      for (auto &tap : taps) {
        XS_ASSIGN_OR_RETURN(tap.second, op(OpKind::Div, tap.second, total));
      }
    }
    // Weights along dim d of the result: [1, .., out, .., 1].
    std::vector<DimExpr> along(static_cast<size_t>(y->type().rank()), DimExpr(1));
    along[static_cast<size_t>(d)] = out;
    Value *sum = nullptr;
    for (size_t t = 0; t < taps.size(); ++t) {
      XS_ASSIGN_OR_RETURN(Value * term, gather(y, indices[t], d));
      if (Value *weight = taps[t].second) {
        XS_ASSIGN_OR_RETURN(weight, c_.cast(weight, y->type().elementType()));
        XS_ASSIGN_OR_RETURN(weight, c_.reshape(weight, along));
        XS_ASSIGN_OR_RETURN(term, op(OpKind::Mul, term, weight));
      }
      XS_ASSIGN_OR_RETURN(sum, add(sum, term));
    }
    return sum;
  }

private:
  absl::StatusOr<Value *> iota(const DimExpr &length) {
    return c_.create(OpKind::Iota, {}, {{"dim", Attribute::integer(0)}},
                     TensorType(ElementType::I64, {length}));
  }

  /// positions + s, clamped into [0, dim) where `clamp` says so.
  absl::StatusOr<Value *> shifted(Value *positions, int64_t s, const DimExpr &dim, bool clamp) {
    if (s == 0)
      return positions;
    XS_ASSIGN_OR_RETURN(Value * offset, c_.scalarLike(static_cast<double>(s), positions));
    XS_ASSIGN_OR_RETURN(Value * idx, c_.binary(OpKind::Add, positions, offset));
    if (!clamp)
      return idx;
    if (s < 0) {
      XS_ASSIGN_OR_RETURN(Value * zero, c_.scalarLike(0.0, positions));
      return c_.binary(OpKind::Max, idx, zero);
    }
    XS_ASSIGN_OR_RETURN(Value * last, c_.dimScalar(dim - DimExpr(1), ElementType::I64));
    return c_.binary(OpKind::Min, idx, last);
  }

  absl::StatusOr<Value *> gather(Value *y, Value *idx, int64_t d) {
    return c_.create(OpKind::Gather, {y, idx}, {{"dim", Attribute::integer(d)}});
  }

  absl::StatusOr<Value *> weighted(Value *term, double weight) {
    if (weight == 1)
      return term;
    XS_ASSIGN_OR_RETURN(Value * w, c_.scalarLike(weight, term));
    return c_.binary(OpKind::Mul, term, w);
  }

  absl::StatusOr<Value *> add(Value *sum, Value *term) {
    if (!sum)
      return term;
    return c_.binary(OpKind::Add, sum, term);
  }

  absl::StatusOr<Value *> zerosAlong(Value *y, int64_t d, const DimExpr &length) {
    std::vector<DimExpr> shape = y->type().shape();
    shape[static_cast<size_t>(d)] = length;
    return c_.splat(0.0, TensorType(y->type().elementType(), shape));
  }

  ImportContext &c_;
  const ResizeMode &mode_;
};

absl::StatusOr<ResizeMode> resizeMode(ImportContext &c, const TensorType &type) {
  ResizeMode mode;
  const std::string kind = c.stringAttr("mode", "nearest");
  if (kind == "nearest")
    mode.kind = ResizeMode::Kind::Nearest;
  else if (kind == "linear")
    mode.kind = ResizeMode::Kind::Linear;
  else if (kind == "cubic")
    mode.kind = ResizeMode::Kind::Cubic;
  else
    return c.error(strCat("mode '", kind, "' is not nearest, linear or cubic"));
  if (mode.kind != ResizeMode::Kind::Nearest && !isFloat(type.elementType()))
    return c.unsupported(strCat("mode '", kind, "' of ", type.str(), " (needs a float input)"));
  mode.coordinates = c.stringAttr("coordinate_transformation_mode", "half_pixel");
  mode.rounding = c.stringAttr("nearest_mode", "round_prefer_floor");
  mode.cubicA = c.floatAttr("cubic_coeff_a", -0.75);
  mode.excludeOutside = c.intAttr("exclude_outside", 0) != 0;
  if (c.intAttr("antialias", 0) != 0)
    return c.unsupported("antialias (the downscaling filter that widens with the factor)");
  if (c.hasAttr("axes"))
    return c.unsupported("the axes attribute (give a scale or size for every dim)");
  if (!mode.clampedTaps(0, 1, 1.0, 1.0))
    return c.unsupported(mode.describe());
  return mode;
}

absl::Status importResize(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  const TensorType type = x->type();
  XS_ASSIGN_OR_RETURN(ResizeMode mode, resizeMode(c, type));
  const int64_t rank = type.rank();
  std::vector<double> scales;
  std::vector<DimExpr> sizes;
  if (c.hasInput(3)) {
    XS_ASSIGN_OR_RETURN(sizes, c.sizesInput(3, "the sizes of Resize"));
  } else if (c.hasInput(2)) {
    XS_ASSIGN_OR_RETURN(HostTensor t, c.constantInput(2, "the scales of Resize"));
    for (int64_t i = 0; i < t.numElements(); ++i)
      scales.push_back(t.getDouble(i));
  }
  if (static_cast<int64_t>(sizes.size() + scales.size()) != rank)
    return c.error(strCat("needs ", rank, " scales or sizes (one per dim of ", type.str(), ")"));

  ResizeBuilder builder(c, mode);
  Value *y = x;
  for (int64_t d = 0; d < rank; ++d) {
    const DimExpr &dim = type.dim(d);
    const std::optional<int64_t> in = dim.constantValue();
    std::optional<double> scale; // as given; absent where sizes are given
    DimExpr out(0);
    if (!sizes.empty()) {
      out = sizes[static_cast<size_t>(d)];
    } else {
      scale = scales[static_cast<size_t>(d)];
      if (!(*scale > 0))
        return c.error(strCat("scale ", *scale, " of dim ", d, " is not positive"));
      if (!(*scale < kMaxScale))
        return c.unsupported(strCat("scale ", *scale, " of dim ", d, " (at most 2^31)"));
      if (in) {
        const double scaled = std::floor(static_cast<double>(*in) * *scale);
        if (!(scaled < kMaxOutputDim))
          return c.unsupported(strCat("a resize of dim ", d, " to ", scaled, " elements"));
        out = DimExpr(static_cast<int64_t>(scaled));
      } else {
        // floor(D * p / q) for a scale of p/q (a float's rounding aside).
        std::optional<DimExpr> scaled;
        for (int64_t q = 1; q <= 64 && !scaled; ++q) {
          const double p = std::round(*scale * static_cast<double>(q));
          if (p >= 1 && std::abs(*scale * static_cast<double>(q) - p) < 1e-6 * p)
            scaled = DimExpr::floorDiv(DimExpr(static_cast<int64_t>(p)) * dim, q);
        }
        if (!scaled)
          return c.unsupported(strCat("scale ", *scale, " of the symbolic dim ", dim.str(),
                                      " (not a fraction p/q with q at most 64)"));
        out = *scaled;
      }
    }
    const std::optional<int64_t> outSize = out.constantValue();
    if (in && outSize) {
      const double factor = scale      ? *scale
                            : *in == 0 ? 1.0
                                       : static_cast<double>(*outSize) / static_cast<double>(*in);
      if (*outSize == *in && (factor == 1.0 || *in == 0))
        continue;
      if (*in == 0)
        return c.error(strCat("resizes dim ", d, " of 0 elements to ", *outSize,
                              " (there is no element to read)"));
      const double outWidth =
          scale ? static_cast<double>(*in) * *scale : static_cast<double>(*outSize);
      XS_ASSIGN_OR_RETURN(y, builder.resizeConstant(y, d, *in, *outSize, outWidth, factor));
      continue;
    }
    if (out == dim && (!scale || *scale == 1.0))
      continue;
    // A whole factor or its reciprocal: taps that repeat along the dim.
    int64_t upscale = 0, stride = 0;
    for (int64_t k = 2; k <= 64 && !in && !upscale && !stride; ++k) {
      if (out == DimExpr(k) * dim)
        upscale = k;
      else if (out == DimExpr::floorDiv(dim, k))
        stride = k;
    }
    if ((upscale || stride) && !mode.excludeOutside) {
      if (std::optional<PeriodicTaps> periodic = periodicTaps(mode, upscale, stride)) {
        XS_ASSIGN_OR_RETURN(y, builder.resizeSymbolic(y, d, *periodic));
        continue;
      }
    }
    XS_ASSIGN_OR_RETURN(y, builder.resizeDynamic(y, d, out, scale));
  }
  c.setOutput(0, y);
  return absl::OkStatus();
}

} // namespace

void addResizeImporters(ImporterTable &table) { table["Resize"] = {importResize, 11}; }

} // namespace xs
