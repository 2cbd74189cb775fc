#ifndef XSTITCH_TOOLS_COMMON_RANDOMGRAPH_H
#define XSTITCH_TOOLS_COMMON_RANDOMGRAPH_H

// Random well-typed graphs of memory-intensive ops over symbolic dims, as
// text IR, for differential testing of compiled code against the reference
// interpreter (RandomGraphTest, xstitch-graph-fuzz).
//
// The interpreter rounds each op's result to its type as compiled code does,
// but math functions and summation orders differ in the last bits, so a
// graph must not amplify such differences into mismatches. The
// generator therefore keeps every value's magnitude bounded (tanh or an exact
// power-of-two scale when a bound grows), feeds domain-restricted functions
// only valid arguments (log(|x| + 1), rsqrt(|x| + 1), ...), and applies
// discontinuous ops (floor, round, sign, rem, compare, argmax, casts to
// integers) only to values that both sides compute exactly (parameters and
// data movement of them), so a flipped comparison cannot come from rounding.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ir/DimExpr.h"
#include "ir/HostTensor.h"
#include "ir/Type.h"
#include "tools/common/TensorCompare.h"

namespace xs {

struct RandomGraphOptions {
  int minOps = 2;  // memory-intensive ops, at least
  int maxOps = 30; // and at most
};

struct RandomGraphParam {
  std::string name;
  TensorType type;
  /// Index parameters (of gather, take_along_axis) hold values in
  /// [-indexBound, indexBound) at the call's dims; others are uniform in
  /// [-2, 2).
  bool isIndex = false;
  DimExpr indexBound;
};

struct RandomGraph {
  uint64_t seed = 0;
  std::string text; // one function, @g
  int numOps = 0;
  std::vector<std::string> symbols; // every dim symbol of the signature
  std::vector<RandomGraphParam> params;
  /// Per result, the tolerance its comparison uses: 1e-3 where only f32
  /// and f64 rounding reaches it, 3e-2 where an inexact value went through a
  /// 16-bit float on its way (a last-bit difference can round to another
  /// f16/bf16), so one such cast does not loosen the graph's other results.
  std::vector<Tolerance> tolerances;
};

/// The graph for `seed` (the same seed gives the same graph everywhere).
RandomGraph generateRandomGraph(uint64_t seed, const RandomGraphOptions &options = {});

/// Values for `symbols`: 1, small primes, and at most one large size that is
/// not a multiple of any vector width (61, 131, 1003), so tensors stay small.
DimBindings randomDimValues(const std::vector<std::string> &symbols, std::mt19937_64 &rng);

/// One input per parameter of `graph` at `dims`.
std::vector<HostTensor> randomGraphInputs(const RandomGraph &graph, const DimBindings &dims,
                                          std::mt19937_64 &rng);

} // namespace xs

#endif // XSTITCH_TOOLS_COMMON_RANDOMGRAPH_H
