// The op-family generators of the random-graph generator: each picks
// operands, emits one well-typed op and records its result's magnitude
// bound and exactness (see RandomGraph.h).

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "tools/common/RandomGraphGenerator.h"

namespace xs::randomgraph {

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
    GenValue rounded = withType(x, t);
    if (!x.exact)
      lowPrecision_.push_back(rounded.name);
    values_.push_back(withType(rounded, ElementType::F32));
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
  // top_k: the count must fit the smallest size the dim takes (1 for a
  // symbol; an empty dim has none); the indices, and the elements at them,
  // are exact.
  std::optional<int64_t> length = x.shape[k].constantValue();
  if ((!length || *length > 0) && chance(0.4)) {
    int64_t count = length ? 1 + pick(std::min<int64_t>(*length, 4)) : 1;
    std::vector<DimExpr> shape = x.shape;
    shape[k] = DimExpr(count);
    GenValue idx = emit(absl::StrCat("top_k %", x.name, " {dim = ", k, ", k = ", count,
                                     chance(0.5) ? ", largest = 0" : "", "}"),
                        ElementType::I64, shape, dimBound(x.shape[k]), true, false);
    if (chance(0.5)) {
      values_.push_back(
          emit(absl::StrCat("take_along_axis %", x.name, ", %", idx.name, " {dim = ", k, "}"),
               x.type, shape, x.magnitude, true, false));
      return true;
    }
    values_.push_back(bounded(withType(idx, x.type)));
    return true;
  }
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

bool Generator::genScan() {
  GenValue x = operand();
  if (x.shape.empty())
    return false;
  int k = pick(x.shape.size());
  std::string attrs = absl::StrCat(" {dim = ", k, chance(0.3) ? ", exclusive = 1" : "",
                                   chance(0.3) ? ", reverse = 1" : "", "}");
  double magnitude = x.magnitude * dimBound(x.shape[k]);
  if (x.exact && chance(0.4)) {
    // Integer running sums are exact on both sides (no wrap at these
    // magnitudes), so what follows them may be discontinuous.
    GenValue i = withType(x, ElementType::I32);
    GenValue s = emit(absl::StrCat("cumsum %", i.name, attrs), ElementType::I32, x.shape, magnitude,
                      magnitude < 0x1p24, false);
    values_.push_back(bounded(withType(s, x.type)));
    return true;
  }
  // Float running sums: the compiled code's summation order differs from
  // the interpreter's in the last bits.
  values_.push_back(bounded(
      emit(absl::StrCat("cumsum %", x.name, attrs), x.type, x.shape, magnitude, false, false)));
  return true;
}

bool Generator::genIota() {
  std::vector<DimExpr> shape;
  for (int rank = 1 + pick(3); static_cast<int>(shape.size()) < rank;)
    shape.push_back(freshDim(shape, /*boundOnly=*/true));
  int k = pick(shape.size());
  // An index along dim k, or (dim_value) dim k's size everywhere: both are
  // bounded by the dim.
  std::string rhs = chance(0.5) ? absl::StrCat("iota {dim = ", k, "}")
                                : absl::StrCat("dim_value {dims = [", shape[k].str(), "]}");
  GenValue i = emit(rhs, ElementType::F32, shape, dimBound(shape[k]), true, true);
  values_.push_back(bounded(i));
  return true;
}

} // namespace xs::randomgraph
