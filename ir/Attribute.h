#ifndef XSTITCH_IR_ATTRIBUTE_H
#define XSTITCH_IR_ATTRIBUTE_H

// Op attributes: small typed values attached to an op by name. Which names an
// op takes, and of which kind, comes from the op table (Ops.def).

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "ir/DenseElements.h"
#include "ir/DimExpr.h"
#include "ir/ElementType.h"

namespace xs {

enum class AttrKind : uint8_t {
  Int,         // 3
  Float,       // 1.0e-05, nan, inf, -inf (an integer literal is accepted)
  IntList,     // [0, 2, 1]
  DimList,     // [0, S - 1] (dimension expressions)
  Enum,        // lt (an identifier)
  ElementType, // f16
  Literal,     // 1.5 (a scalar) or dense<[[1, 2], [3, 4]]>
};

std::string_view attrKindName(AttrKind kind);

/// A number or a nested list of numbers. Integer literals are kept exactly;
/// when any element is written as a float, every element is stored as double.
/// Large constants (model weights) hold `elements` instead, in their element
/// type's width; ints and floats are then empty. Read elements through
/// size(), asDouble() and asInt(), which see both.
struct LiteralValue {
  std::vector<int64_t> shape; // empty: a scalar, written without dense<>
  bool isInteger = true;
  std::vector<int64_t> ints;  // when isInteger and !elements
  std::vector<double> floats; // when !isInteger and !elements
  std::shared_ptr<const DenseElements> elements;

  /// A literal of `shape` holding `elements` (isInteger from their type).
  static LiteralValue dense(std::vector<int64_t> shape,
                            std::shared_ptr<const DenseElements> elements);

  int64_t size() const {
    if (elements)
      return elements->size();
    return isInteger ? (int64_t)ints.size() : (int64_t)floats.size();
  }
  double asDouble(int64_t i) const {
    if (elements)
      return elements->getDouble(i);
    return isInteger ? (double)ints[i] : floats[i];
  }
  int64_t asInt(int64_t i) const {
    if (elements)
      return elements->getInt(i);
    return isInteger ? ints[i] : (int64_t)floats[i];
  }
  /// A digest of the shape and elements, stable across processes.
  uint64_t contentHash() const;
  friend bool operator==(const LiteralValue &a, const LiteralValue &b);
};

/// An enumerator spelled as an identifier (`lt`, `tanh`, `edge`).
struct EnumValue {
  std::string name;
  friend bool operator==(const EnumValue &a, const EnumValue &b) { return a.name == b.name; }
};

class Attribute {
public:
  using Storage = std::variant<int64_t, double, std::vector<int64_t>, std::vector<DimExpr>,
                               EnumValue, ElementType, std::shared_ptr<const LiteralValue>>;

  static Attribute integer(int64_t v) { return Attribute(Storage(v)); }
  static Attribute floating(double v) { return Attribute(Storage(v)); }
  static Attribute intList(std::vector<int64_t> v) { return Attribute(Storage(std::move(v))); }
  static Attribute dimList(std::vector<DimExpr> v) { return Attribute(Storage(std::move(v))); }
  static Attribute enumeration(std::string name) {
    return Attribute(Storage(EnumValue{std::move(name)}));
  }
  static Attribute elementType(ElementType t) { return Attribute(Storage(t)); }
  static Attribute literal(LiteralValue v) {
    return Attribute(Storage(std::make_shared<const LiteralValue>(std::move(v))));
  }

  AttrKind kind() const;
  int64_t getInt() const { return std::get<int64_t>(storage_); }
  double getFloat() const { return std::get<double>(storage_); }
  const std::vector<int64_t> &getIntList() const {
    return std::get<std::vector<int64_t>>(storage_);
  }
  const std::vector<DimExpr> &getDimList() const {
    return std::get<std::vector<DimExpr>>(storage_);
  }
  const std::string &getEnum() const { return std::get<EnumValue>(storage_).name; }
  ElementType getElementType() const { return std::get<ElementType>(storage_); }
  const LiteralValue &getLiteral() const {
    return *std::get<std::shared_ptr<const LiteralValue>>(storage_);
  }

  /// The text form used by the printer (`[0, 1]`, `1.0e-05`, `dense<[1, 2]>`).
  std::string str() const { return str(-1); }
  /// As str(), but a literal of more than `elideLiteralsAbove` elements (when
  /// >= 0) prints as its element count and digest: compile-cache keys and
  /// listings of models with large weights. Elided text does not parse.
  std::string str(int64_t elideLiteralsAbove) const;
  /// The same with literals of more elements than `summarizeLiteralsAbove`
  /// (when >= 0, and not elided) shown by their count and first values, for
  /// people (`dense<589824 f32: 0.0123, -0.0456, 0.0789, ...>`); neither
  /// form parses back.
  std::string str(int64_t elideLiteralsAbove, int64_t summarizeLiteralsAbove) const;

  friend bool operator==(const Attribute &a, const Attribute &b);
  friend bool operator!=(const Attribute &a, const Attribute &b) { return !(a == b); }

private:
  explicit Attribute(Storage s) : storage_(std::move(s)) {}
  Storage storage_;
};

/// Attributes of one op, ordered by name (the printer prints them sorted).
using AttrDict = std::map<std::string, Attribute, std::less<>>;

/// Formats a double so that parsing the text gives the same double back and
/// the text always reads as a float (`1.0`, `1.0e-05`, `nan`, `-inf`).
std::string formatFloat(double v);

} // namespace xs

#endif // XSTITCH_IR_ATTRIBUTE_H
