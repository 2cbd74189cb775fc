#include "ir/Attribute.h"

#include <cassert>
#include <charconv>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace xs {

std::string_view attrKindName(AttrKind kind) {
  switch (kind) {
  case AttrKind::Int:
    return "an integer";
  case AttrKind::Float:
    return "a float";
  case AttrKind::IntList:
    return "a list of integers";
  case AttrKind::DimList:
    return "a list of dimension expressions";
  case AttrKind::Enum:
    return "an identifier";
  case AttrKind::ElementType:
    return "an element type";
  case AttrKind::Literal:
    return "a number or dense<[...]> literal";
  }
  assert(false && "unknown attribute kind");
  return "?";
}

LiteralValue LiteralValue::dense(std::vector<int64_t> shape,
                                 std::shared_ptr<const DenseElements> elements) {
  LiteralValue out;
  out.shape = std::move(shape);
  out.isInteger = !isFloat(elements->elementType());
  out.elements = std::move(elements);
  return out;
}

uint64_t LiteralValue::contentHash() const {
  uint64_t h = hashBytes64(shape.data(), shape.size() * sizeof(int64_t), isInteger ? 1 : 2);
  if (elements)
    return h ^ elements->contentHash();
  if (isInteger)
    return hashBytes64(ints.data(), ints.size() * sizeof(int64_t), h);
  return hashBytes64(floats.data(), floats.size() * sizeof(double), h);
}

bool operator==(const LiteralValue &a, const LiteralValue &b) {
  if (a.shape != b.shape || a.isInteger != b.isInteger)
    return false;
  if (a.elements && b.elements)
    return a.elements->sameContent(*b.elements);
  if (a.elements || b.elements) {
    if (a.size() != b.size())
      return false;
    for (int64_t i = 0; i < a.size(); ++i) {
      double x = a.asDouble(i), y = b.asDouble(i);
      if (a.isInteger ? a.asInt(i) != b.asInt(i) : !(x == y || (std::isnan(x) && std::isnan(y))))
        return false;
    }
    return true;
  }
  if (a.isInteger)
    return a.ints == b.ints;
  if (a.floats.size() != b.floats.size())
    return false;
  for (size_t i = 0; i < a.floats.size(); ++i) {
    double x = a.floats[i], y = b.floats[i];
    if (!(x == y || (std::isnan(x) && std::isnan(y))))
      return false;
  }
  return true;
}

std::string formatFloat(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  std::string s(buf, res.ptr);
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  else if (s.find('.') == std::string::npos) {
    // 1e-05 -> 1.0e-05
    size_t e = s.find('e');
    s.insert(e, ".0");
  }
  return s;
}

AttrKind Attribute::kind() const {
  switch (storage_.index()) {
  case 0:
    return AttrKind::Int;
  case 1:
    return AttrKind::Float;
  case 2:
    return AttrKind::IntList;
  case 3:
    return AttrKind::DimList;
  case 4:
    return AttrKind::Enum;
  case 5:
    return AttrKind::ElementType;
  default:
    return AttrKind::Literal;
  }
}

namespace {
void appendLiteral(std::string *out, const LiteralValue &v, size_t dim, int64_t &next) {
  if (dim == v.shape.size()) {
    absl::StrAppend(out, v.isInteger ? absl::StrCat(v.asInt(next)) : formatFloat(v.asDouble(next)));
    ++next;
    return;
  }
  out->push_back('[');
  for (int64_t i = 0; i < v.shape[dim]; ++i) {
    if (i > 0)
      out->append(", ");
    appendLiteral(out, v, dim + 1, next);
  }
  out->push_back(']');
}
} // namespace

std::string Attribute::str(int64_t elideLiteralsAbove) const { return str(elideLiteralsAbove, -1); }

std::string Attribute::str(int64_t elideLiteralsAbove, int64_t summarizeLiteralsAbove) const {
  switch (kind()) {
  case AttrKind::Int:
    return absl::StrCat(getInt());
  case AttrKind::Float:
    return formatFloat(getFloat());
  case AttrKind::IntList:
    return absl::StrCat("[", absl::StrJoin(getIntList(), ", "), "]");
  case AttrKind::DimList:
    return absl::StrCat(
        "[",
        absl::StrJoin(getDimList(), ", ",
                      [](std::string *o, const DimExpr &d) { absl::StrAppend(o, d.str()); }),
        "]");
  case AttrKind::Enum:
    return getEnum();
  case AttrKind::ElementType:
    return std::string(elementTypeName(getElementType()));
  case AttrKind::Literal: {
    const LiteralValue &v = getLiteral();
    std::string out;
    int64_t next = 0;
    if (elideLiteralsAbove >= 0 && v.size() > elideLiteralsAbove)
      return absl::StrCat("dense<elided ", v.size(), " ",
                          std::string(v.elements ? elementTypeName(v.elements->elementType())
                                                 : (v.isInteger ? "ints" : "floats")),
                          " 0x", absl::Hex(v.contentHash(), absl::kZeroPad16), ">");
    if (summarizeLiteralsAbove >= 0 && v.size() > summarizeLiteralsAbove) {
      std::vector<std::string> head;
      for (int64_t i = 0; i < std::min<int64_t>(v.size(), 4); ++i)
        head.push_back(v.isInteger ? absl::StrCat(v.asInt(i)) : formatFloat(v.asDouble(i)));
      return absl::StrCat("dense<", v.size(), " ",
                          std::string(v.elements ? elementTypeName(v.elements->elementType())
                                                 : (v.isInteger ? "ints" : "floats")),
                          ": ", absl::StrJoin(head, ", "), ", ...>");
    }
    if (v.shape.empty()) {
      appendLiteral(&out, v, 0, next);
      return out;
    }
    out = "dense<";
    appendLiteral(&out, v, 0, next);
    out += ">";
    return out;
  }
  }
  assert(false && "unknown attribute kind");
  return "";
}

bool operator==(const Attribute &a, const Attribute &b) {
  if (a.kind() != b.kind())
    return false;
  if (a.kind() == AttrKind::Literal)
    return a.getLiteral() == b.getLiteral();
  if (a.kind() == AttrKind::Float)
    return a.getFloat() == b.getFloat() || (std::isnan(a.getFloat()) && std::isnan(b.getFloat()));
  return a.storage_ == b.storage_;
}

} // namespace xs
