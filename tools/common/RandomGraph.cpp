#include "tools/common/RandomGraph.h"
#include "tools/common/RandomGraphGenerator.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "tools/common/RandomTensor.h"

namespace xs {
namespace randomgraph {

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

double dimBound(const DimExpr &d) {
  DimBindings worst;
  for (const std::string &s : d.symbols())
    worst[s] = kMaxSymbolValue;
  absl::StatusOr<int64_t> v = d.evaluate(worst);
  return v.ok() ? static_cast<double>(std::max<int64_t>(*v, 1)) : 1e9;
}

// Shapes a parameter may have: symbols and constants only, so that the
// parameters bind every symbol.
bool isPlainShape(const std::vector<DimExpr> &shape) {
  return std::ranges::all_of(shape,
                             [](const DimExpr &d) { return d.isSymbol() || d.isConstant(); });
}

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

bool Generator::step() {
  switch (pick(21)) {
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
  case 19:
    return genScan();
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
  // A value depends on a low-precision one when an operand (a `%name` on
  // the right of its line) does; lines come in definition order.
  absl::flat_hash_set<std::string> low(lowPrecision_.begin(), lowPrecision_.end());
  for (const std::string &line : lines_) {
    size_t eq = line.find(" = ");
    std::string name = line.substr(line.find('%') + 1, eq - line.find('%') - 1);
    for (size_t at = line.find('%', eq); at != std::string::npos; at = line.find('%', at + 1)) {
      size_t end = line.find_first_of(" ,:}", at);
      if (low.contains(line.substr(at + 1, end == std::string::npos ? end : end - at - 1)))
        low.insert(name);
    }
  }
  for (const std::string &result : results)
    g.tolerances.push_back(low.contains(result) ? Tolerance{3e-2, 3e-2} : Tolerance{1e-3, 1e-3});
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

} // namespace randomgraph

using randomgraph::Generator;

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
