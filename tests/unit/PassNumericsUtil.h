#ifndef XSTITCH_TESTS_UNIT_PASSNUMERICSUTIL_H
#define XSTITCH_TESTS_UNIT_PASSNUMERICSUTIL_H

// Shared by the pass numerics tests: interpret a function before and after a
// pass pipeline on the same random inputs and compare the results.

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ir/Interpreter.h"
#include "ir/OpInfo.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "transforms/Pass.h"
#include "gtest/gtest.h"

namespace xs::testing {

/// Parses `text` and runs `passes` on it; fails the test on any error.
inline std::unique_ptr<Module> parseAndRun(const std::string &text,
                                           const std::vector<std::string> &passes) {
  absl::StatusOr<std::unique_ptr<Module>> module = parseModule(text, "test.xs");
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok())
    return nullptr;
  PipelineOptions options;
  absl::Status status = runPipeline(**module, passes, options);
  EXPECT_TRUE(status.ok()) << status;
  if (!status.ok())
    return nullptr;
  return *std::move(module);
}

/// One tensor per parameter, of the given concrete shapes: floats uniform in
/// [lo, hi), integers uniform in [0, 8), i1 0 or 1.
inline std::vector<HostTensor> randomInputs(const Function &function,
                                            const std::vector<std::vector<int64_t>> &shapes,
                                            uint64_t seed, double lo = -3.0, double hi = 3.0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> real(lo, hi);
  std::uniform_int_distribution<int64_t> integer(0, 7);
  std::vector<HostTensor> inputs;
  for (size_t p = 0; p < function.params().size(); ++p) {
    ElementType type = function.param(p)->type().elementType();
    HostTensor t(type, shapes[p]);
    for (int64_t i = 0; i < t.numElements(); ++i) {
      if (isFloat(type))
        t.setDouble(i, real(rng));
      else if (isBool(type))
        t.setInt(i, integer(rng) & 1);
      else
        t.setInt(i, integer(rng));
    }
    inputs.push_back(std::move(t));
  }
  return inputs;
}

/// Expects equal shapes and, element by element, |a - e| <= tolerance *
/// max|e| over the tensor (relative to the tensor's magnitude, so that an
/// element near zero after a cancellation does not demand more than the
/// arithmetic can give). Integers and NaN positions must match exactly.
inline void expectClose(const HostTensor &actual, const HostTensor &expected, double tolerance,
                        const std::string &what) {
  ASSERT_EQ(actual.elementType(), expected.elementType()) << what;
  ASSERT_EQ(actual.shape(), expected.shape()) << what;
  if (!expected.isFloat()) {
    EXPECT_EQ(actual.ints(), expected.ints()) << what;
    return;
  }
  double scale = 0.0;
  for (double e : expected.floats())
    if (std::isfinite(e))
      scale = std::max(scale, std::abs(e));
  for (int64_t i = 0; i < expected.numElements(); ++i) {
    double a = actual.floats()[i], e = expected.floats()[i];
    if (std::isnan(e) || !std::isfinite(e)) {
      EXPECT_EQ(std::isnan(a), std::isnan(e)) << what << " element " << i;
      if (!std::isnan(e))
        EXPECT_EQ(a, e) << what << " element " << i;
      continue;
    }
    EXPECT_LE(std::abs(a - e), tolerance * scale)
        << what << " element " << i << ": " << a << " vs " << e;
  }
}

/// Interprets the function named `name` of `reference` and of `transformed`
/// on the same inputs and compares every result.
inline void expectSameResults(const Module &reference, const Module &transformed,
                              const std::string &name,
                              const std::vector<std::vector<int64_t>> &shapes, uint64_t seed,
                              double tolerance) {
  const Function *before = reference.lookup(name);
  const Function *after = transformed.lookup(name);
  ASSERT_NE(before, nullptr) << name;
  ASSERT_NE(after, nullptr) << name;
  std::vector<HostTensor> inputs = randomInputs(*before, shapes, seed);
  absl::StatusOr<std::vector<HostTensor>> expected = interpret(*before, inputs);
  ASSERT_TRUE(expected.ok()) << expected.status();
  absl::StatusOr<std::vector<HostTensor>> actual = interpret(*after, inputs);
  ASSERT_TRUE(actual.ok()) << actual.status() << "\n" << printFunction(*after);
  ASSERT_EQ(actual->size(), expected->size());
  for (size_t r = 0; r < expected->size(); ++r)
    expectClose((*actual)[r], (*expected)[r], tolerance,
                name + " result " + std::to_string(r) + "\n" + printFunction(*after));
}

inline int countOps(const Function &function, OpCategory category) {
  return static_cast<int>(std::count_if(
      function.ops().begin(), function.ops().end(),
      [&](const std::unique_ptr<Operation> &op) { return op->info().category == category; }));
}

} // namespace xs::testing

#endif // XSTITCH_TESTS_UNIT_PASSNUMERICSUTIL_H
