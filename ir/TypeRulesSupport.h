#ifndef XSTITCH_IR_TYPERULESSUPPORT_H
#define XSTITCH_IR_TYPERULESSUPPORT_H

// Helpers shared by the TypeRules*.cpp files (not part of the public IR API).
// Every error reads `<mnemonic>: what is wrong; what to do`, located at the op.

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "ir/TypeRules.h"

namespace xs::rules {

/// The installed Abseil has its own string_view, which StrCat does not take
/// from a std::string_view; pieces pass through here first.
inline absl::string_view piece(std::string_view s) { return absl::string_view(s.data(), s.size()); }
template <typename T> const T &piece(const T &v) { return v; }

template <typename... Args> absl::Status opError(const Operation &op, const Args &...args) {
  return errorAtCat(op.loc(), piece(op.mnemonic()), ": ", piece(args)...);
}

/// `[0, 2, 1]`.
std::string intListStr(const std::vector<int64_t> &list);
/// `operand 1` for an op with several operands, `the operand` for one.
std::string operandName(const Operation &op, size_t i);

/// Element-type requirements on operand i; the error lists the accepted types.
absl::Status requireFloat(const Operation &op, size_t i);
absl::Status requireNumeric(const Operation &op, size_t i);
absl::Status requireLogical(const Operation &op, size_t i);
absl::Status requireIntegerIndices(const Operation &op, size_t i);
/// Operands i and j have the same element type.
absl::Status requireSameElementType(const Operation &op, size_t i, size_t j,
                                    std::string_view advice);
/// Operands i and j have the same shape (dims unified through `u`).
absl::Status requireSameShape(const Operation &op, DimUnifier &u, size_t i, size_t j,
                              std::string_view advice);
/// `a == b` through the unifier; on failure the error is `message` plus, when
/// the dims are merely not known to be equal, how to state the fact.
absl::Status requireDimEqual(const Operation &op, DimUnifier &u, const DimExpr &a, const DimExpr &b,
                             std::string_view message);
/// True when `e < 0` holds for every value of its symbols.
bool provablyNegative(const DimUnifier &u, const DimExpr &e);

/// An attribute axis/dim in [0, rank); `what` names it in the error.
absl::Status requireAxis(const Operation &op, std::string_view what, int64_t axis, int64_t rank,
                         const TensorType &operandType);
/// An enum attribute among `allowed`.
absl::Status requireEnum(const Operation &op, std::string_view name,
                         const std::vector<std::string_view> &allowed);
/// A list of dims: strictly increasing and each in [0, rank).
absl::Status requireDimList(const Operation &op, std::string_view name,
                            const std::vector<int64_t> &dims, int64_t rank,
                            const TensorType &operandType);

// The rule families, one per file.
absl::StatusOr<TensorType> inferElementwise(const Operation &op, DimUnifier &u);
absl::StatusOr<TensorType> inferSource(const Operation &op, DimUnifier &u);
absl::StatusOr<TensorType> inferShape(const Operation &op, DimUnifier &u);
absl::StatusOr<TensorType> inferReduction(const Operation &op, DimUnifier &u);

} // namespace xs::rules

#endif // XSTITCH_IR_TYPERULESSUPPORT_H
