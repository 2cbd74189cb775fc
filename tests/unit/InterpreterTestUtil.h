#ifndef XSTITCH_TESTS_UNIT_INTERPRETERTESTUTIL_H
#define XSTITCH_TESTS_UNIT_INTERPRETERTESTUTIL_H

// Helpers for the interpreter's unit tests: build a function from text
// (parse + shape inference), run it on hand-written inputs, and compare the
// outputs with hand-computed values.

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "ir/Interpreter.h"
#include "ir/Parser.h"
#include "transforms/ShapeInference.h"
#include "gtest/gtest.h"

namespace xs::testing {

/// A float tensor (values stored as given, not rounded).
inline HostTensor floatTensor(ElementType type, std::vector<int64_t> shape,
                              std::vector<double> values) {
  HostTensor t(type, std::move(shape));
  EXPECT_EQ(static_cast<int64_t>(values.size()), t.numElements()) << "test input size";
  t.floats() = std::move(values);
  return t;
}
inline HostTensor f32(std::vector<int64_t> shape, std::vector<double> values) {
  return floatTensor(ElementType::F32, std::move(shape), std::move(values));
}
/// An integer or i1 tensor (values stored as given).
inline HostTensor intTensor(ElementType type, std::vector<int64_t> shape,
                            std::vector<int64_t> values) {
  HostTensor t(type, std::move(shape));
  EXPECT_EQ(static_cast<int64_t>(values.size()), t.numElements()) << "test input size";
  t.ints() = std::move(values);
  return t;
}
inline HostTensor i32(std::vector<int64_t> shape, std::vector<int64_t> values) {
  return intTensor(ElementType::I32, std::move(shape), std::move(values));
}
inline HostTensor i64(std::vector<int64_t> shape, std::vector<int64_t> values) {
  return intTensor(ElementType::I64, std::move(shape), std::move(values));
}

/// Parses `text` (one function), runs shape inference and interprets it.
/// Setup failures (parse, shape inference) come back prefixed "[setup] " so
/// a test expecting a run-time error cannot pass on them.
inline absl::StatusOr<std::vector<HostTensor>>
interpretText(std::string_view text, const std::vector<HostTensor> &inputs,
              const InterpreterOptions &options = {}) {
  absl::StatusOr<std::unique_ptr<Module>> module = parseModule(text, "test.xs");
  if (!module.ok())
    return absl::InternalError(absl::StrCat("[setup] ", module.status().message()));
  if ((*module)->functions().size() != 1)
    return absl::InternalError("[setup] expected one function");
  Function &function = *(*module)->functions().front();
  absl::StatusOr<bool> inferred = runShapeInference(function);
  if (!inferred.ok())
    return absl::InternalError(absl::StrCat("[setup] ", inferred.status().message()));
  return interpret(function, inputs, options);
}

/// Like interpretText, for a function with one result; a failure is reported
/// to gtest and gives an empty tensor.
inline HostTensor interpretOne(std::string_view text, const std::vector<HostTensor> &inputs,
                               const InterpreterOptions &options = {}) {
  absl::StatusOr<std::vector<HostTensor>> results = interpretText(text, inputs, options);
  if (!results.ok()) {
    ADD_FAILURE() << results.status().message();
    return HostTensor();
  }
  if (results->size() != 1) {
    ADD_FAILURE() << "expected one result, got " << results->size();
    return HostTensor();
  }
  return std::move(results->front());
}

/// The message of a failed run, or a gtest failure when it succeeded.
inline std::string interpretError(std::string_view text, const std::vector<HostTensor> &inputs,
                                  const InterpreterOptions &options = {}) {
  absl::StatusOr<std::vector<HostTensor>> results = interpretText(text, inputs, options);
  if (results.ok()) {
    ADD_FAILURE() << "expected an error, but the function ran";
    return "";
  }
  EXPECT_EQ(results.status().message().find("[setup]"), std::string_view::npos)
      << results.status().message();
  return std::string(results.status().message());
}

inline bool sameDouble(double actual, double expected, double tolerance) {
  if (std::isnan(expected))
    return std::isnan(actual);
  if (std::isinf(expected) || tolerance == 0.0)
    return actual == expected;
  return std::fabs(actual - expected) <= tolerance * std::max(1.0, std::fabs(expected));
}

/// Checks type, shape and float values (NaN matches NaN; `tolerance` is
/// relative above 1, absolute below; 0 means exact). The expected values are
/// exact: they are rounded to `type` first, as the interpreter rounds each
/// op's results (InterpreterOptions::roundEachOp).
inline void expectFloats(const HostTensor &t, ElementType type, std::vector<int64_t> shape,
                         std::vector<double> expected, double tolerance = 0.0) {
  ASSERT_EQ(t.elementType(), type) << t.typeStr();
  ASSERT_EQ(t.shape(), shape) << t.typeStr();
  ASSERT_EQ(t.floats().size(), expected.size());
  for (double &e : expected)
    e = roundToFloatType(e, type);
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_TRUE(sameDouble(t.floats()[i], expected[i], tolerance))
        << "element " << i << ": got " << t.floats()[i] << ", expected " << expected[i];
}

inline void expectInts(const HostTensor &t, ElementType type, std::vector<int64_t> shape,
                       std::vector<int64_t> expected) {
  ASSERT_EQ(t.elementType(), type) << t.typeStr();
  ASSERT_EQ(t.shape(), shape) << t.typeStr();
  EXPECT_EQ(t.ints(), expected);
}

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

} // namespace xs::testing

#endif // XSTITCH_TESTS_UNIT_INTERPRETERTESTUTIL_H
