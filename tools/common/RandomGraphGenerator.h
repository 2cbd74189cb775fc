#ifndef XSTITCH_TOOLS_COMMON_RANDOMGRAPHGENERATOR_H
#define XSTITCH_TOOLS_COMMON_RANDOMGRAPHGENERATOR_H

// Private to the random-graph generator (RandomGraph.cpp: state, values and
// the driver loop; RandomGraphOps.cpp: one generator per op family).

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "tools/common/RandomGraph.h"

namespace xs::randomgraph {

// The largest value a symbol takes (randomDimValues), for magnitude bounds.
constexpr int64_t kMaxSymbolValue = 1003;
// Values are squashed once their bound passes this.
constexpr double kMaxMagnitude = 4.0;

inline const char *const kSymbols[] = {"N", "M", "K"};
inline const int64_t kConstantDims[] = {1, 3, 8, 17};

// A value the generator may use as an operand.
struct GenValue {
  std::string name;
  ElementType type = ElementType::F32;
  std::vector<DimExpr> shape;
  double magnitude = 2; // a bound on |element|
  bool exact = false;   // computed bit-identically in f32 and f64 (see the header)
};

std::string typeText(ElementType t, const std::vector<DimExpr> &shape);
std::string dimListText(const std::vector<DimExpr> &dims);
std::string intListText(const std::vector<int64_t> &v);
// An upper bound of a dim's value (symbols at their largest).
double dimBound(const DimExpr &d);
// Shapes a parameter may have: symbols and constants only, so that the
// parameters bind every symbol.
bool isPlainShape(const std::vector<DimExpr> &shape);

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
  bool genScan();
  bool genIota();

  std::mt19937_64 rng_;
  int targetOps_ = 0;
  int numOps_ = 0;
  int nextValue_ = 0;
  // Values that rounded an inexact value to f16 or bf16 (genCast); what
  // depends on them compares with a looser tolerance.
  std::vector<std::string> lowPrecision_;
  std::vector<std::string> paramDecls_;
  std::vector<RandomGraphParam> params_;
  std::vector<std::string> boundSymbols_; // symbols some parameter binds
  std::vector<std::string> lines_;
  std::vector<GenValue> values_; // float values, oldest first
};

} // namespace xs::randomgraph

#endif // XSTITCH_TOOLS_COMMON_RANDOMGRAPHGENERATOR_H
