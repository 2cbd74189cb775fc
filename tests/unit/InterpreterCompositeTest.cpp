// The reference interpreter on composites, evaluated from their definitions:
// layer_norm, rms_norm, softmax, log_softmax, gelu.

#include "InterpreterTestUtil.h"

namespace xs::testing {
namespace {

using ET = ElementType;

TEST(InterpreterComposite, LayerNormWithScaleAndShift) {
  const char *text = R"(func @f(%x: f32[R, 2], %g: f32[2], %b: f32[2]) -> (y) {
  %y = layer_norm %x, %g, %b {epsilon = 0.0}
  return %y
})";
  // Both rows have mean 2 and normalize to [-1, 1] (variance 1 and 4).
  expectFloats(
      interpretOne(text, {f32({2, 2}, {1, 3, 0, 4}), f32({2}, {2, 3}), f32({2}, {0.5, -0.5})}),
      ET::F32, {2, 2}, {-1.5, 2.5, -1.5, 2.5}, 1e-15);
}

TEST(InterpreterComposite, LayerNormDefaultEpsilonAndNoParameters) {
  const char *text = R"(func @f(%x: f32[2]) -> (y) {
  %y = layer_norm %x
  return %y
})";
  double scale = 1.0 / std::sqrt(1.0 + 1e-5);
  expectFloats(interpretOne(text, {f32({2}, {1, 3})}), ET::F32, {2}, {-scale, scale}, 1e-15);
}

TEST(InterpreterComposite, LayerNormOverSeveralTrailingDims) {
  const char *text = R"(func @f(%x: f32[2, 2], %g: f32[2, 2]) -> (y) {
  %y = layer_norm %x, %g {axis = 0, epsilon = 0.0}
  return %y
})";
  // Mean 4, variance (9 + 1 + 1 + 9) / 4 = 5.
  double s = 1.0 / std::sqrt(5.0);
  expectFloats(interpretOne(text, {f32({2, 2}, {1, 3, 5, 7}), f32({2, 2}, {1, 1, 1, 2})}), ET::F32,
               {2, 2}, {-3 * s, -s, s, 6 * s}, 1e-15);
}

TEST(InterpreterComposite, RmsNorm) {
  const char *text = R"(func @f(%x: f32[2], %w: f32[2]) -> (y) {
  %y = rms_norm %x, %w {epsilon = 0.0}
  return %y
})";
  // mean(x^2) = (1 + 49) / 2 = 25, so x is divided by 5.
  expectFloats(interpretOne(text, {f32({2}, {1, 7}), f32({2}, {2, 0.5})}), ET::F32, {2}, {0.4, 0.7},
               1e-15);
  const char *noWeight = R"(func @f(%x: f32[2]) -> (y) {
  %y = rms_norm %x
  return %y
})";
  double r = 1.0 / std::sqrt(25.0 + 1e-6);
  expectFloats(interpretOne(noWeight, {f32({2}, {1, 7})}), ET::F32, {2}, {r, 7 * r}, 1e-15);
}

TEST(InterpreterComposite, SoftmaxAlongTheLastAndAnInnerAxis) {
  const char *text = R"(func @f(%x: f32[3]) -> (y) {
  %y = softmax %x
  return %y
})";
  // exp(0) : exp(ln 3) = 1 : 3; huge equal inputs stay finite.
  expectFloats(interpretOne(text, {f32({3}, {0, std::log(3.0), -kInf})}), ET::F32, {3},
               {0.25, 0.75, 0}, 1e-15);
  expectFloats(interpretOne(text, {f32({3}, {1000, 1000, 1000})}), ET::F32, {3},
               {1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-15);
  const char *axis0 = R"(func @f(%x: f32[2, 2]) -> (y) {
  %y = softmax %x {axis = 0}
  return %y
})";
  expectFloats(interpretOne(axis0, {f32({2, 2}, {0, 5, std::log(3.0), 5})}), ET::F32, {2, 2},
               {0.25, 0.5, 0.75, 0.5}, 1e-15);
}

TEST(InterpreterComposite, LogSoftmax) {
  const char *text = R"(func @f(%x: f32[2, 2]) -> (y) {
  %y = log_softmax %x {axis = 0}
  return %y
})";
  expectFloats(interpretOne(text, {f32({2, 2}, {0, 5, std::log(3.0), 5})}), ET::F32, {2, 2},
               {std::log(0.25), std::log(0.5), std::log(0.75), std::log(0.5)}, 1e-15);
}

TEST(InterpreterComposite, SoftmaxOfNaNIsNaN) {
  const char *text = R"(func @f(%x: f32[2]) -> (y) {
  %y = softmax %x
  return %y
})";
  expectFloats(interpretOne(text, {f32({2}, {kNaN, 1})}), ET::F32, {2}, {kNaN, kNaN});
}

TEST(InterpreterComposite, GeluErfAndTanhForms) {
  const char *exact = R"(func @f(%x: f32[4]) -> (y) {
  %y = gelu %x
  return %y
})";
  expectFloats(interpretOne(exact, {f32({4}, {0, 1, -1, 2})}), ET::F32, {4},
               {0, 0.8413447460685429, -0.15865525393145707, 1.9544997361036416}, 1e-15);
  const char *tanhForm = R"(func @f(%x: f32[4]) -> (y) {
  %y = gelu %x {approximate = tanh}
  return %y
})";
  expectFloats(interpretOne(tanhForm, {f32({4}, {0, 1, -1, 2})}), ET::F32, {4},
               {0, 0.8411919906082768, -0.15880800939172324, 1.954597694087775}, 1e-15);
}

} // namespace
} // namespace xs::testing
