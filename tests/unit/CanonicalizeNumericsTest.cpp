// The default pipeline (transforms/Pass.h: defaultPipeline) must not
// change what a function computes: each graph is interpreted as written and
// after the pipeline, on the same random inputs.

#include "tests/unit/PassNumericsUtil.h"

namespace xs {
namespace {

using testing::countOps;
using testing::expectSameResults;
using testing::parseAndRun;

constexpr double kTolerance = 1e-12;

struct Graph {
  const char *name;
  const char *text;
  std::vector<std::vector<int64_t>> shapes;
  // The pipeline must shrink the graph to at most this many ops.
  size_t maxOpsAfter;
};

void PrintTo(const Graph &g, std::ostream *os) { *os << g.name; }

class CanonicalizeNumerics : public ::testing::TestWithParam<Graph> {};

TEST_P(CanonicalizeNumerics, DefaultPipelinePreservesResults) {
  const Graph &g = GetParam();
  std::unique_ptr<Module> reference = parseAndRun(g.text, {"shape-inference"});
  std::unique_ptr<Module> canonical = parseAndRun(g.text, defaultPipeline());
  ASSERT_TRUE(reference && canonical);
  const Function &after = *canonical->functions().front();
  EXPECT_EQ(countOps(after, OpCategory::Composite), 0) << printFunction(after);
  EXPECT_LE(after.ops().size(), g.maxOpsAfter) << printFunction(after);
  for (uint64_t seed : {7u, 8u})
    expectSameResults(*reference, *canonical, after.name(), g.shapes, seed, kTolerance);
}

// Running the pipeline on its own output finds nothing more to do.
TEST_P(CanonicalizeNumerics, DefaultPipelineIsIdempotent) {
  const Graph &g = GetParam();
  std::unique_ptr<Module> canonical = parseAndRun(g.text, defaultPipeline());
  ASSERT_TRUE(canonical);
  std::string once = printModule(*canonical);
  std::unique_ptr<Module> twice = parseAndRun(once, defaultPipeline());
  ASSERT_TRUE(twice);
  EXPECT_EQ(printModule(*twice), once);
}

INSTANTIATE_TEST_SUITE_P(Graphs, CanonicalizeNumerics,
                         ::testing::Values(
                             // Identities, duplicates, a foldable scalar chain, dead code and two
                             // composites on a symbolic row count.
                             Graph{"mixed_float",
                                   R"(
func @f(%x: f64[N, 8], %g: f64[8]) -> (y: f64[N, 8], s: f64[N]) {
  %one = constant {value = 1.0} : f64[N, 8]
  %zero = constant {value = 0.0} : f64[N, 8]
  %a = mul %x, %one
  %b = add %zero, %a
  %ln = layer_norm %b, %g
  %ln2 = layer_norm %x, %g
  %sum = add %ln, %ln2
  %t = transpose %sum {perm = [1, 0]}
  %t2 = transpose %t {perm = [1, 0]}
  %y = softmax %t2
  %dead = exp %x
  %two = constant {value = 2.0} : f64[N]
  %three = constant {value = 3.0} : f64[N]
  %six = mul %two, %three
  %r = reduce_sum %y {dims = [1]}
  %s = mul %r, %six
  return %y, %s
})",
                                   {{5, 8}, {8}},
                                   27},
                             // Integers: x*0 and x+0 vanish, dense constants fold, a constant
                             // condition picks a side, double negation cancels.
                             Graph{"integers",
                                   R"(
func @f(%x: i32[4], %y: i32[4]) -> (r: i32[4], s: i32[4]) {
  %zero = constant {value = 0} : i32[4]
  %c0 = constant {value = dense<[1, 2, 3, 4]>} : i32[4]
  %c1 = constant {value = dense<[10, 20, 30, 40]>} : i32[4]
  %c2 = add %c0, %c1
  %p = mul %y, %zero
  %q = add %x, %p
  %n = neg %q
  %nn = neg %n
  %t = constant {value = 1} : i1[4]
  %sel = select %t, %nn, %y
  %r = mul %sel, %c2
  %s = sub %r, %zero
  return %r, %s
})",
                                   {{4}, {4}},
                                   2},
                             // Static shapes: folded movement and reductions feeding live math,
                             // duplicate gelu, a no-op reshape and slice.
                             Graph{"static_movement",
                                   R"(
func @f(%x: f64[2, 3]) -> (y: f64[2, 3]) {
  %c = constant {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>} : f64[2, 3]
  %ct = transpose %c {perm = [1, 0]}
  %cr = reduce_sum %ct {dims = [1]}
  %cb = broadcast %cr {dims = [1]} : f64[2, 3]
  %r = reshape %x : f64[2, 3]
  %sl = slice %r {start = [0, 0], limit = [2, 3]}
  %g0 = gelu %sl
  %g1 = gelu %x
  %m = mul %g0, %cb
  %y = add %m, %g1
  return %y
})",
                                   {{2, 3}},
                                   11},
                             // rms_norm and log_softmax on a symbolic size, with an identity cast.
                             Graph{"symbolic_norms",
                                   R"(
func @f(%x: f64[B, D], %w: f64[D]) -> (y: f64[B, D]) {
  %c = cast %x {to = f64}
  %n = rms_norm %c, %w
  %y = log_softmax %n {axis = 0}
  return %y
})",
                                   {{3, 9}, {9}},
                                   22},
                             // pow by the constant exponents an exporter writes becomes
                             // products, sqrt, rsqrt and reciprocals (NaN where pow gives NaN:
                             // negative bases of 0.5 and -0.5); a non-constant exponent stays;
                             // division by 8 becomes multiplication by 0.125, by 3 by 1/3.
                             Graph{"powers",
                                   R"(
func @f(%x: f64[N], %e: f64[N]) -> (y: f64[N], z: f64[N]) {
  %c0 = constant {value = 0.0} : f64[N]
  %c1 = constant {value = 1.0} : f64[N]
  %c2 = constant {value = 2.0} : f64[N]
  %c3 = constant {value = 3.0} : f64[N]
  %c4 = constant {value = 4.0} : f64[N]
  %ch = constant {value = 0.5} : f64[N]
  %cmh = constant {value = -0.5} : f64[N]
  %cm1 = constant {value = -1.0} : f64[N]
  %cm2 = constant {value = -2.0} : f64[N]
  %p0 = pow %x, %c0
  %p1 = pow %x, %c1
  %p2 = pow %x, %c2
  %p3 = pow %x, %c3
  %p4 = pow %x, %c4
  %ph = pow %x, %ch
  %pmh = pow %x, %cmh
  %pm1 = pow %x, %cm1
  %pm2 = pow %x, %cm2
  %s0 = add %p0, %p1
  %s1 = add %s0, %p2
  %s2 = add %s1, %p3
  %s3 = add %s2, %p4
  %s4 = add %s3, %ph
  %s5 = add %s4, %pmh
  %s6 = add %s5, %pm1
  %y = add %s6, %pm2
  %c8 = constant {value = 8.0} : f64[N]
  %q = div %e, %c8
  %q3 = div %e, %c3
  %z0 = pow %x, %e
  %z1 = add %z0, %q
  %z = add %z1, %q3
  return %y, %z
})",
                                   {{64}, {64}},
                                   27},
                             // Statistics kept as [R, 1] (ONNX's keepdims): the reshapes sink
                             // below the ops on them and into the broadcasts back over the rows;
                             // the division by the rows' square roots becomes a multiplication.
                             Graph{"keepdims_statistics",
                                   R"(
func @f(%x: f64[R, D], %g: f64[1, D]) -> (y: f64[R, D], m: f64[R, 1]) {
  %s = reduce_sum %x {dims = [1]}
  %n = constant {value = 7.0} : f64[R, 1]
  %k = reshape %s : f64[R, 1]
  %m = div %k, %n
  %mb = broadcast %m {dims = [0, 1]} : f64[R, D]
  %xc = sub %x, %mb
  %sq = mul %xc, %xc
  %v = reduce_sum %sq {dims = [1]}
  %kv = reshape %v : f64[R, 1]
  %var = div %kv, %n
  %eps = constant {value = 1.0e-5} : f64[R, 1]
  %ve = add %var, %eps
  %r = sqrt %ve
  %rb = broadcast %r {dims = [0, 1]} : f64[R, D]
  %gb = broadcast %g {dims = [0, 1]} : f64[R, D]
  %t = div %xc, %rb
  %y = mul %t, %gb
  return %y, %m
})",
                                   {{5, 7}, {1, 7}},
                                   19}),
                         [](const ::testing::TestParamInfo<Graph> &info) {
                           return std::string(info.param.name);
                         });

} // namespace
} // namespace xs
