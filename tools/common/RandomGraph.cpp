#include "tools/common/RandomGraph.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "tools/common/RandomTensor.h"

namespace xs {
namespace {

// The largest value a symbol takes (randomDimValues), for magnitude bounds.
constexpr int64_t kMaxSymbolValue = 1003;
// Values are squashed once their bound passes this.
constexpr double kMaxMagnitude = 4.0;

const char *const kSymbols[] = {"N", "M", "K"};
const int64_t kConstantDims[] = {1, 3, 8, 17};

// A value the generator may use as an operand.
struct GenValue {
  std::string name;
  ElementType type = ElementType::F32;
  std::vector<DimExpr> shape;
  double magnitude = 2; // a bound on |element|
  bool exact = false;   // computed bit-identically in f32 and f64 (see the header)
};

std::string typeText(ElementType t, const std::vector<DimExpr> &shape) {
  return TensorType(t, shape).str();
}

std::string dimListText(const std::vector<DimExpr> &dims) {
  std::vector<std::string> parts;
  for (const DimExpr &d : dims)
    parts.push_back(d.str());
  return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
}

std::string intListText(const std::vector<int64_t> &v) {
  return absl::StrCat("[", absl::StrJoin(v, ", "), "]");
}

// An upper bound of a dim's value (symbols at their largest).
double dimBound(const DimExpr &d) {
  DimBindings worst;
  for (const std::string &s : d.symbols())
    worst[s] = kMaxSymbolValue;
  absl::StatusOr<int64_t> v = d.evaluate(worst);
  return v.ok() ? static_cast<double>(std::max<int64_t>(*v, 1)) : 1e9;
}

class Generator {
public:
  Generator(uint64_t seed, const RandomGraphOptions &options) : rng_(seed) {
    int lo = std::max(1, options.minOps), hi = std::max(lo, options.maxOps);
    targetOps_ = std::uniform_int_distribution<int>(lo, hi)(rng_);
  }

  RandomGraph run(uint64_t seed);

private:
  int pick(size_t n) {
    return std::uniform_int_distribution<int>(0, static_cast<int>(n) - 1)(rng_);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  template <typename T> const T &choose(const std::vector<T> &v) { return v[pick(v.size())]; }

  DimExpr randomDim(bool boundOnly);
  // A dim none of whose symbols occurs in `shape`: a symbol appears at most
  // once per shape, so no tensor grows as a power of the large dim value.
  DimExpr freshDim(const std::vector<DimExpr> &shape, bool boundOnly);
  std::vector<DimExpr> randomShape();
  GenValue newParam(ElementType t, std::vector<DimExpr> shape);
  GenValue newIndexParam(std::vector<DimExpr> shape, const DimExpr &bound);
  // Emits `%v = rhs : type` (the type only where the text format needs it).
  GenValue emit(const std::string &rhs, ElementType t, std::vector<DimExpr> shape, double magnitude,
                bool exact, bool writeType, bool counts = true);
  GenValue splat(double value, ElementType t, const std::vector<DimExpr> &shape);
  GenValue unary(const std::string &op, const GenValue &x, double magnitude, bool exact);
  GenValue binary(const std::string &op, const GenValue &a, const GenValue &b, double magnitude,
                  bool exact);
  // |x| + 1: the argument of log, rsqrt, reciprocal and divisors.
  GenValue absPlusOne(const GenValue &x);
  GenValue bounded(GenValue v);
  GenValue withType(const GenValue &v, ElementType t);

  const GenValue &operand();
  const GenValue *findValue(const std::function<bool(const GenValue &)> &pred);
  GenValue exactLike(const GenValue &x); // an exact value of x's shape and type
  GenValue partnerOf(const GenValue &x); // a value of x's shape and type

  // One random step; returns false when the chosen kind does not apply.
  bool step();
  bool genUnary();
  bool genBinary();
  bool genSelect();
  bool genCast();
  bool genBroadcast();
  bool genTranspose();
  bool genSlice();
  bool genConcat();
  bool genPad();
  bool genReshape();
  bool genReduce();
  bool genArgReduce();
  bool genGather();
  bool genIota();

  std::mt19937_64 rng_;
  int targetOps_ = 0;
  int numOps_ = 0;
  int nextValue_ = 0;
  bool lowPrecision_ = false;
  std::vector<std::string> paramDecls_;
  std::vector<RandomGraphParam> params_;
  std::vector<std::string> boundSymbols_; // symbols some parameter binds
  std::vector<std::string> lines_;
  std::vector<GenValue> values_; // float values, oldest first
};

DimExpr Generator::randomDim(bool boundOnly) {
  if (boundOnly && boundSymbols_.empty())
    return DimExpr(kConstantDims[pick(std::size(kConstantDims))]);
  if (chance(0.6)) {
    if (boundOnly)
      return DimExpr::symbol(choose(boundSymbols_));
    return DimExpr::symbol(kSymbols[pick(std::size(kSymbols))]);
  }
  return DimExpr(kConstantDims[pick(std::size(kConstantDims))]);
}

DimExpr Generator::freshDim(const std::vector<DimExpr> &shape, bool boundOnly) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    DimExpr d = randomDim(boundOnly);
    bool clash = false;
    for (const DimExpr &e : shape)
      for (const std::string &s : e.symbols())
        clash |= std::ranges::count(d.symbols(), s) > 0;
    if (!clash)
      return d;
  }
  return DimExpr(kConstantDims[pick(std::size(kConstantDims))]);
}

std::vector<DimExpr> Generator::randomShape() {
  std::vector<DimExpr> shape;
  for (int rank = 1 + pick(3); static_cast<int>(shape.size()) < rank;)
    shape.push_back(freshDim(shape, /*boundOnly=*/false));
  return shape;
}

GenValue Generator::newParam(ElementType t, std::vector<DimExpr> shape) {
  GenValue v;
  v.name = absl::StrCat("p", params_.size());
  v.type = t;
  v.shape = std::move(shape);
  v.magnitude = 2;
  v.exact = true;
  paramDecls_.push_back(absl::StrCat("%", v.name, ": ", typeText(t, v.shape)));
  params_.push_back({v.name, TensorType(t, v.shape), false, DimExpr()});
  for (const DimExpr &d : v.shape)
    if (d.isSymbol() && !std::ranges::count(boundSymbols_, d.symbolName()))
      boundSymbols_.push_back(d.symbolName());
  values_.push_back(v);
  return v;
}

GenValue Generator::newIndexParam(std::vector<DimExpr> shape, const DimExpr &bound) {
  GenValue v;
  v.name = absl::StrCat("p", params_.size());
  v.type = chance(0.5) ? ElementType::I32 : ElementType::I64;
  v.shape = std::move(shape);
  paramDecls_.push_back(absl::StrCat("%", v.name, ": ", typeText(v.type, v.shape)));
  params_.push_back({v.name, TensorType(v.type, v.shape), true, bound});
  for (const DimExpr &d : v.shape)
    if (d.isSymbol() && !std::ranges::count(boundSymbols_, d.symbolName()))
      boundSymbols_.push_back(d.symbolName());
  return v; // not an operand for float ops
}

GenValue Generator::emit(const std::string &rhs, ElementType t, std::vector<DimExpr> shape,
                         double magnitude, bool exact, bool writeType, bool counts) {
  GenValue v;
  v.name = absl::StrCat("v", nextValue_++);
  v.type = t;
  v.shape = std::move(shape);
  v.magnitude = magnitude;
  v.exact = exact;
  std::string line = absl::StrCat("  %", v.name, " = ", rhs);
  if (writeType)
    absl::StrAppend(&line, " : ", typeText(t, v.shape));
  lines_.push_back(std::move(line));
  if (counts)
    ++numOps_;
  return v;
}

GenValue Generator::splat(double value, ElementType t, const std::vector<DimExpr> &shape) {
  return emit(absl::StrCat("constant {value = ", absl::StrFormat("%.17g", value),
                           std::floor(value) == value ? ".0" : "", "}"),
              t, shape, std::abs(value), /*exact=*/true, /*writeType=*/true, /*counts=*/false);
}

GenValue Generator::unary(const std::string &op, const GenValue &x, double magnitude, bool exact) {
  return emit(absl::StrCat(op, " %", x.name), x.type, x.shape, magnitude, exact, false);
}

GenValue Generator::binary(const std::string &op, const GenValue &a, const GenValue &b,
                           double magnitude, bool exact) {
  return emit(absl::StrCat(op, " %", a.name, ", %", b.name), a.type, a.shape, magnitude, exact,
              false);
}

GenValue Generator::absPlusOne(const GenValue &x) {
  GenValue a = unary("abs", x, x.magnitude, x.exact);
  return binary("add", a, splat(1.0, x.type, x.shape), x.magnitude + 1, false);
}

GenValue Generator::bounded(GenValue v) {
  if (v.magnitude <= kMaxMagnitude)
    return v;
  if (v.exact || chance(0.5)) {
    // An exact power-of-two scale keeps exactness and relative error.
    int shift = static_cast<int>(std::ceil(std::log2(v.magnitude / kMaxMagnitude)));
    shift = std::min(shift, 60);
    GenValue s = splat(std::ldexp(1.0, -shift), v.type, v.shape);
    return binary("mul", v, s, std::ldexp(v.magnitude, -shift), v.exact);
  }
  return unary("tanh", v, 1, false);
}

GenValue Generator::withType(const GenValue &v, ElementType t) {
  if (v.type == t)
    return v;
  return emit(absl::StrCat("cast %", v.name, " {to = ", std::string(elementTypeName(t)), "}"), t,
              v.shape, v.magnitude, v.exact, false);
}

const GenValue &Generator::operand() {
  // Mostly recent values, so that chains grow deep.
  size_t n = values_.size();
  if (n > 4 && chance(0.7))
    return values_[n - 1 - pick(4)];
  return values_[pick(n)];
}

const GenValue *Generator::findValue(const std::function<bool(const GenValue &)> &pred) {
  std::vector<const GenValue *> found;
  for (const GenValue &v : values_)
    if (pred(v))
      found.push_back(&v);
  return found.empty() ? nullptr : found[pick(found.size())];
}

// Shapes a parameter may have: symbols and constants only, so that the
// parameters bind every symbol.
static bool isPlainShape(const std::vector<DimExpr> &shape) {
  return std::ranges::all_of(shape,
                             [](const DimExpr &d) { return d.isSymbol() || d.isConstant(); });
}

GenValue Generator::exactLike(const GenValue &x) {
  if (const GenValue *v = findValue([&](const GenValue &v) {
        return v.exact && v.shape == x.shape && v.type == x.type && v.name != x.name;
      }))
    return *v;
  if (isPlainShape(x.shape))
    return newParam(x.type, x.shape);
  // neg is exact; of a non-exact value it is not, so fall back to a splat.
  return splat(chance(0.5) ? 0.5 : -0.25, x.type, x.shape);
}

GenValue Generator::partnerOf(const GenValue &x) {
  if (const GenValue *v = findValue([&](const GenValue &v) {
        return v.shape == x.shape && v.type == x.type && v.name != x.name;
      }))
    return *v;
  if (isPlainShape(x.shape) && chance(0.7))
    return newParam(x.type, x.shape);
  return unary(chance(0.5) ? "sin" : "cos", x, 1, false);
}

bool Generator::genUnary() {
  GenValue x = operand();
  GenValue r;
  switch (pick(16)) {
  case 0:
    r = unary("neg", x, x.magnitude, x.exact);
    break;
  case 1:
    r = unary("abs", x, x.magnitude, x.exact);
    break;
  case 2:
  case 3: {
    // Discontinuous: exact operands only.
    if (!x.exact)
      x = exactLike(x);
    static const char *const kOps[] = {"floor", "ceil", "round", "sign"};
    r = unary(kOps[pick(4)], x, x.magnitude + 1, true);
    break;
  }
  case 4:
    r = unary("exp", bounded(x), std::exp(std::min(x.magnitude, kMaxMagnitude)), false);
    break;
  case 5:
    r = unary("log", absPlusOne(x), std::log(x.magnitude + 1) + 1, false);
    break;
  case 6:
    r = unary("log1p", unary("abs", x, x.magnitude, x.exact), std::log(x.magnitude + 1) + 1, false);
    break;
  case 7:
    r = unary("sqrt", unary("abs", x, x.magnitude, x.exact), std::sqrt(x.magnitude) + 1, false);
    break;
  case 8:
    r = unary("rsqrt", absPlusOne(x), 1, false);
    break;
  case 9:
    r = unary("reciprocal", absPlusOne(x), 1, false);
    break;
  case 10:
    r = unary("tanh", x, 1, false);
    break;
  case 11:
    r = unary("sigmoid", x, 1, false);
    break;
  case 12:
    r = unary("erf", x, 1, false);
    break;
  case 13:
    r = unary("sin", bounded(x), 1, false);
    break;
  case 14:
    r = unary("cos", bounded(x), 1, false);
    break;
  default:
    r = binary("mul", x, splat(chance(0.5) ? 1.5 : -0.75, x.type, x.shape), x.magnitude * 1.5,
               false);
    break;
  }
  values_.push_back(bounded(r));
  return true;
}

bool Generator::genBinary() {
  GenValue a = operand();
  GenValue b = partnerOf(a);
  GenValue r;
  switch (pick(9)) {
  case 0:
    r = binary("add", a, b, a.magnitude + b.magnitude, false);
    break;
  case 1:
    r = binary("sub", a, b, a.magnitude + b.magnitude, false);
    break;
  case 2:
    r = binary("mul", a, b, a.magnitude * b.magnitude, false);
    break;
  case 3:
    r = binary("max", a, b, std::max(a.magnitude, b.magnitude), a.exact && b.exact);
    break;
  case 4:
    r = binary("min", a, b, std::max(a.magnitude, b.magnitude), a.exact && b.exact);
    break;
  case 5:
    r = binary("div", a, absPlusOne(b), a.magnitude, false);
    break;
  case 6: {
    GenValue base = absPlusOne(a);
    GenValue exponent = unary("tanh", b, 1, false);
    r = binary("pow", base, exponent, base.magnitude, false);
    break;
  }
  case 7: {
    // fmod of exact values is exact on both sides.
    if (!a.exact)
      a = exactLike(a);
    if (!b.exact)
      b = exactLike(a);
    // A divisor of at least 0.5 (max of exact values is exact): no NaN.
    GenValue divisor = binary("max", unary("abs", b, b.magnitude, true),
                              splat(0.5, b.type, b.shape), std::max(b.magnitude, 0.5), true);
    r = binary("rem", a, divisor, a.magnitude, true);
    break;
  }
  default: {
    static const char *const kOps[] = {"and", "or", "xor"};
    // Logical ops on i1 masks of exact values, selected back to floats.
    GenValue ea = a.exact ? a : exactLike(a);
    GenValue eb = b.exact ? b : exactLike(b);
    GenValue zero = splat(0, a.type, a.shape);
    GenValue ma = emit(absl::StrCat("compare %", ea.name, ", %", zero.name, " {dir = gt}"),
                       ElementType::I1, a.shape, 1, true, false);
    GenValue half = splat(0.5, b.type, b.shape);
    GenValue mb = emit(absl::StrCat("compare %", eb.name, ", %", half.name, " {dir = lt}"),
                       ElementType::I1, b.shape, 1, true, false);
    GenValue m = binary(kOps[pick(3)], ma, mb, 1, true);
    if (chance(0.3))
      m = unary("not", m, 1, true);
    r = emit(absl::StrCat("select %", m.name, ", %", a.name, ", %", b.name), a.type, a.shape,
             std::max(a.magnitude, b.magnitude), a.exact && b.exact, false);
    break;
  }
  }
  values_.push_back(bounded(r));
  return true;
}

bool Generator::genSelect() {
  GenValue x = operand();
  GenValue e = x.exact ? x : exactLike(x);
  GenValue other = exactLike(e);
  static const char *const kDirs[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  GenValue cond =
      emit(absl::StrCat("compare %", e.name, ", %", other.name, " {dir = ", kDirs[pick(6)], "}"),
           ElementType::I1, x.shape, 1, true, false);
  GenValue b = partnerOf(x);
  values_.push_back(emit(absl::StrCat("select %", cond.name, ", %", x.name, ", %", b.name), x.type,
                         x.shape, std::max(x.magnitude, b.magnitude), x.exact && b.exact, false));
  return true;
}

bool Generator::genCast() {
  GenValue x = operand();
  if (x.type != ElementType::F32) {
    values_.push_back(withType(x, ElementType::F32));
    return true;
  }
  switch (pick(4)) {
  case 0:
    values_.push_back(withType(x, ElementType::F64));
    return true;
  case 1:
  case 2: {
    // A round trip through a 16-bit float: exact inputs stay exact (both
    // sides round the same value), others need a looser tolerance.
    ElementType t = chance(0.5) ? ElementType::F16 : ElementType::BF16;
    if (!x.exact)
      lowPrecision_ = true;
    values_.push_back(withType(withType(x, t), ElementType::F32));
    return true;
  }
  default: {
    // Float -> integer -> float: truncation is discontinuous, so exact only.
    if (!x.exact)
      x = exactLike(x);
    GenValue i = withType(x, chance(0.5) ? ElementType::I32 : ElementType::I8);
    values_.push_back(withType(i, ElementType::F32));
    return true;
  }
  }
}

bool Generator::genBroadcast() {
  GenValue x = operand();
  std::vector<DimExpr> shape = x.shape;
  std::vector<int64_t> dims(x.shape.size());
  std::iota(dims.begin(), dims.end(), 0);
  auto one = std::ranges::find(shape, DimExpr(1));
  if (one != shape.end() && chance(0.5)) {
    *one = freshDim(shape, /*boundOnly=*/true); // expand a dim of size 1
  } else {
    if (shape.size() >= 3)
      return false;
    int at = pick(shape.size() + 1);
    shape.insert(shape.begin() + at, freshDim(shape, /*boundOnly=*/true));
    for (int64_t &d : dims)
      if (d >= at)
        ++d;
  }
  values_.push_back(emit(absl::StrCat("broadcast %", x.name, " {dims = ", intListText(dims), "}"),
                         x.type, shape, x.magnitude, x.exact, true));
  return true;
}

bool Generator::genTranspose() {
  GenValue x = operand();
  if (x.shape.size() < 2)
    return false;
  std::vector<int64_t> perm(x.shape.size());
  std::iota(perm.begin(), perm.end(), 0);
  while (std::is_sorted(perm.begin(), perm.end()))
    std::shuffle(perm.begin(), perm.end(), rng_);
  std::vector<DimExpr> shape;
  for (int64_t p : perm)
    shape.push_back(x.shape[p]);
  values_.push_back(emit(absl::StrCat("transpose %", x.name, " {perm = ", intListText(perm), "}"),
                         x.type, shape, x.magnitude, x.exact, false));
  return true;
}

bool Generator::genSlice() {
  GenValue x = operand();
  if (x.shape.empty())
    return false;
  std::vector<DimExpr> start(x.shape.size(), DimExpr(0)), limit = x.shape, shape = x.shape;
  std::vector<int64_t> step(x.shape.size(), 1);
  int i = pick(x.shape.size());
  std::optional<int64_t> c = x.shape[i].constantValue();
  if (c && *c >= 2) {
    int64_t s = pick(*c - 1);
    int64_t l = s + 1 + pick(*c - s);
    start[i] = s;
    limit[i] = l;
    step[i] = 1 + pick(2);
    shape[i] = (l - s + step[i] - 1) / step[i];
  } else {
    // A symbolic dim may be 1: keep the start at 0 so no slice is empty.
    step[i] = 2 + pick(2);
    shape[i] = DimExpr::ceilDiv(x.shape[i], step[i]);
  }
  values_.push_back(
      emit(absl::StrCat("slice %", x.name, " {limit = ", dimListText(limit),
                        ", start = ", dimListText(start), ", step = ", intListText(step), "}"),
           x.type, shape, x.magnitude, x.exact, false));
  return true;
}

bool Generator::genConcat() {
  GenValue x = operand();
  if (x.shape.empty())
    return false;
  int k = pick(x.shape.size());
  auto sameButK = [&](const GenValue &v) {
    if (v.type != x.type || v.shape.size() != x.shape.size() || v.name == x.name)
      return false;
    for (size_t d = 0; d < x.shape.size(); ++d)
      if (static_cast<int>(d) != k && v.shape[d] != x.shape[d])
        return false;
    return true;
  };
  GenValue y;
  if (const GenValue *v = findValue(sameButK))
    y = *v;
  else
    y = unary("neg", x, x.magnitude, x.exact);
  std::vector<DimExpr> shape = x.shape;
  shape[k] = x.shape[k] + y.shape[k];
  std::string operands = absl::StrCat("%", x.name, ", %", y.name);
  if (chance(0.3)) { // three operands
    absl::StrAppend(&operands, ", %", x.name);
    shape[k] = shape[k] + x.shape[k];
  }
  values_.push_back(emit(absl::StrCat("concat ", operands, " {dim = ", k, "}"), x.type, shape,
                         std::max(x.magnitude, y.magnitude), x.exact && y.exact, false));
  return true;
}

bool Generator::genPad() {
  GenValue x = operand();
  if (x.shape.empty())
    return false;
  size_t r = x.shape.size();
  std::vector<int64_t> low(r), high(r);
  for (size_t d = 0; d < r; ++d) {
    low[d] = chance(0.5) ? pick(3) : 0;
    high[d] = chance(0.5) ? pick(3) : 0;
  }
  if (std::ranges::all_of(low, [](int64_t v) { return v == 0; }))
    low[pick(r)] = 1;
  // reflect needs every padded dim known to exceed its padding.
  bool canReflect = true;
  for (size_t d = 0; d < r; ++d) {
    std::optional<int64_t> c = x.shape[d].constantValue();
    if ((low[d] || high[d]) && (!c || *c <= std::max(low[d], high[d])))
      canReflect = false;
  }
  std::string mode;
  std::string value;
  switch (pick(3)) {
  case 0:
    mode = "edge";
    break;
  case 1:
    mode = canReflect ? "reflect" : "constant";
    break;
  default:
    mode = "constant";
    break;
  }
  if (mode == "constant")
    value = chance(0.5) ? ", value = 1.5" : ", value = 0.0";
  std::vector<DimExpr> shape = x.shape;
  for (size_t d = 0; d < r; ++d)
    shape[d] = shape[d] + (low[d] + high[d]);
  values_.push_back(emit(absl::StrCat("pad %", x.name, " {high = ", intListText(high),
                                      ", low = ", intListText(low), ", mode = ", mode, value, "}"),
                         x.type, shape, std::max(x.magnitude, 1.5), x.exact, false));
  return true;
}

bool Generator::genReshape() {
  GenValue x = operand();
  std::vector<DimExpr> shape = x.shape;
  int kind = pick(3);
  if (kind == 0 && shape.size() >= 2) {
    int i = pick(shape.size() - 1);
    shape[i] = shape[i] * shape[i + 1];
    shape.erase(shape.begin() + i + 1);
  } else if (kind == 1 && shape.size() < 3) {
    shape.insert(shape.begin() + pick(shape.size() + 1), DimExpr(1));
  } else {
    auto eight = std::ranges::find(shape, DimExpr(8));
    if (eight == shape.end() || shape.size() >= 3)
      return false;
    size_t at = eight - shape.begin();
    shape[at] = 2;
    shape.insert(shape.begin() + at + 1, DimExpr(4));
  }
  values_.push_back(
      emit(absl::StrCat("reshape %", x.name), x.type, shape, x.magnitude, x.exact, true));
  return true;
}

bool Generator::genReduce() {
  GenValue x = operand();
  if (x.shape.empty())
    return false;
  std::vector<int64_t> dims;
  int kind = pick(4); // sum, max, min, prod
  if (kind == 3) {
    dims.push_back(pick(x.shape.size()));
  } else {
    for (size_t d = 0; d < x.shape.size(); ++d)
      if (chance(0.5))
        dims.push_back(d);
    if (dims.empty())
      dims.push_back(pick(x.shape.size()));
  }
  std::vector<DimExpr> shape;
  double count = 1;
  for (size_t d = 0; d < x.shape.size(); ++d) {
    if (std::ranges::count(dims, static_cast<int64_t>(d)))
      count *= dimBound(x.shape[d]);
    else
      shape.push_back(x.shape[d]);
  }
  std::string attrs = absl::StrCat(" {dims = ", intListText(dims), "}");
  GenValue r;
  switch (kind) {
  case 0:
    r = emit(absl::StrCat("reduce_sum %", x.name, attrs), x.type, shape, x.magnitude * count, false,
             false);
    break;
  case 1:
    r = emit(absl::StrCat("reduce_max %", x.name, attrs), x.type, shape, x.magnitude, x.exact,
             false);
    break;
  case 2:
    r = emit(absl::StrCat("reduce_min %", x.name, attrs), x.type, shape, x.magnitude, x.exact,
             false);
    break;
  default: {
    // Factors near 1 (1 + tanh(x)/256) keep a product of a long row finite
    // and well conditioned.
    GenValue t = unary("tanh", x, 1, false);
    GenValue s = binary("mul", t, splat(1.0 / 256, x.type, x.shape), 1.0 / 256, false);
    GenValue f = binary("add", s, splat(1.0, x.type, x.shape), 1.01, false);
    r = emit(absl::StrCat("reduce_prod %", f.name, attrs), x.type, shape, 2, false, false);
    break;
  }
  }
  values_.push_back(bounded(r));
  return true;
}

bool Generator::genArgReduce() {
  GenValue x = operand();
  if (x.shape.empty())
    return false;
  if (!x.exact)
    x = exactLike(x);
  int k = pick(x.shape.size());
  std::vector<DimExpr> shape = x.shape;
  DimExpr reduced = shape[k];
  shape.erase(shape.begin() + k);
  GenValue idx =
      emit(absl::StrCat(chance(0.5) ? "argmax %" : "argmin %", x.name, " {dim = ", k, "}"),
           ElementType::I64, shape, dimBound(reduced), true, false);
  GenValue f = withType(idx, x.type);
  values_.push_back(bounded(f));
  return true;
}

bool Generator::genGather() {
  GenValue x = operand();
  if (x.shape.empty())
    return false;
  int k = pick(x.shape.size());
  std::vector<DimExpr> shape;
  std::string op;
  GenValue idx;
  if (chance(0.6)) {
    std::vector<DimExpr> idxShape = {freshDim(x.shape, /*boundOnly=*/false)};
    if (x.shape.size() < 3 && chance(0.3)) {
      std::vector<DimExpr> taken = x.shape;
      taken.push_back(idxShape[0]);
      idxShape.push_back(freshDim(taken, /*boundOnly=*/false));
    }
    idx = newIndexParam(idxShape, x.shape[k]);
    shape.assign(x.shape.begin(), x.shape.begin() + k);
    shape.insert(shape.end(), idxShape.begin(), idxShape.end());
    shape.insert(shape.end(), x.shape.begin() + k + 1, x.shape.end());
    op = "gather";
  } else {
    shape = x.shape;
    shape[k] = freshDim(x.shape, /*boundOnly=*/false);
    idx = newIndexParam(shape, x.shape[k]);
    op = "take_along_axis";
  }
  values_.push_back(emit(absl::StrCat(op, " %", x.name, ", %", idx.name, " {dim = ", k, "}"),
                         x.type, shape, x.magnitude, x.exact, false));
  return true;
}

bool Generator::genIota() {
  std::vector<DimExpr> shape;
  for (int rank = 1 + pick(3); static_cast<int>(shape.size()) < rank;)
    shape.push_back(freshDim(shape, /*boundOnly=*/true));
  int k = pick(shape.size());
  GenValue i = emit(absl::StrCat("iota {dim = ", k, "}"), ElementType::F32, shape,
                    dimBound(shape[k]), true, true);
  values_.push_back(bounded(i));
  return true;
}

bool Generator::step() {
  switch (pick(20)) {
  case 0:
  case 1:
  case 2:
    return genUnary();
  case 3:
  case 4:
  case 5:
    return genBinary();
  case 6:
    return genSelect();
  case 7:
    return genCast();
  case 8:
  case 9:
    return genBroadcast();
  case 10:
    return genTranspose();
  case 11:
    return genSlice();
  case 12:
    return genConcat();
  case 13:
    return genPad();
  case 14:
    return genReshape();
  case 15:
  case 16:
    return genReduce();
  case 17:
    return genArgReduce();
  case 18:
    return genGather();
  default:
    return chance(0.3) ? genIota() : genUnary();
  }
}

RandomGraph Generator::run(uint64_t seed) {
  newParam(ElementType::F32, randomShape());
  for (int attempts = 0; numOps_ < targetOps_ && attempts < 1000; ++attempts)
    step();

  // The newest value is a result, and up to two other unused ones.
  std::vector<std::string> results;
  for (auto it = values_.rbegin(); it != values_.rend() && results.size() < 3; ++it) {
    bool isParam = std::ranges::any_of(params_, [&](const auto &p) { return p.name == it->name; });
    if (isParam || std::ranges::count(results, it->name))
      continue;
    if (results.empty() || chance(0.15))
      results.push_back(it->name);
  }
  if (results.empty()) { // only parameters so far
    values_.push_back(unary("neg", values_.back(), 2, true));
    results.push_back(values_.back().name);
  }

  RandomGraph g;
  g.seed = seed;
  g.numOps = numOps_;
  g.params = params_;
  for (const RandomGraphParam &p : params_)
    for (const DimExpr &d : p.type.shape())
      for (const std::string &s : d.symbols())
        if (!std::ranges::count(g.symbols, s))
          g.symbols.push_back(s);
  std::sort(g.symbols.begin(), g.symbols.end());
  if (lowPrecision_)
    g.tolerance = {3e-2, 3e-2};
  std::vector<std::string> resultNames, returned;
  for (size_t i = 0; i < results.size(); ++i) {
    resultNames.push_back(absl::StrCat("r", i));
    returned.push_back("%" + results[i]);
  }
  g.text =
      absl::StrCat("// random graph, seed ", seed, "\nfunc @g(", absl::StrJoin(paramDecls_, ", "),
                   ") -> (", absl::StrJoin(resultNames, ", "), ") {\n", absl::StrJoin(lines_, "\n"),
                   "\n  return ", absl::StrJoin(returned, ", "), "\n}\n");
  return g;
}

} // namespace

RandomGraph generateRandomGraph(uint64_t seed, const RandomGraphOptions &options) {
  return Generator(seed, options).run(seed);
}

DimBindings randomDimValues(const std::vector<std::string> &symbols, std::mt19937_64 &rng) {
  static const int64_t kSmall[] = {1, 2, 3, 5, 7, 13};
  static const int64_t kLarge[] = {61, 131, 1003};
  DimBindings dims;
  std::uniform_int_distribution<int> which(0, std::max<int>(0, symbols.size() - 1));
  int large = std::bernoulli_distribution(0.4)(rng) ? which(rng) : -1;
  for (size_t i = 0; i < symbols.size(); ++i) {
    if (static_cast<int>(i) == large)
      dims[symbols[i]] = kLarge[std::uniform_int_distribution<int>(0, 2)(rng)];
    else
      dims[symbols[i]] = kSmall[std::uniform_int_distribution<int>(0, 5)(rng)];
  }
  return dims;
}

std::vector<HostTensor> randomGraphInputs(const RandomGraph &graph, const DimBindings &dims,
                                          std::mt19937_64 &rng) {
  std::vector<HostTensor> inputs;
  for (const RandomGraphParam &p : graph.params) {
    std::vector<int64_t> shape;
    for (const DimExpr &d : p.type.shape())
      shape.push_back(d.evaluate(dims).value_or(1));
    RandomRange range = defaultRandomRange(p.type.elementType());
    if (p.isIndex) {
      int64_t bound = std::max<int64_t>(1, p.indexBound.evaluate(dims).value_or(1));
      range = {static_cast<double>(-bound), static_cast<double>(bound)};
    }
    inputs.push_back(randomTensor(p.type.elementType(), shape, range, rng));
  }
  return inputs;
}

} // namespace xs
