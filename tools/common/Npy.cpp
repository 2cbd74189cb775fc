#include "tools/common/Npy.h"

#include <cassert>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "ir/Diagnostics.h"

namespace xs {

namespace {

constexpr char kMagic[] = "\x93NUMPY";

absl::Status npyError(const std::string &path, std::string_view what) {
  return absl::InvalidArgumentError(strCat(path, ": error: ", what));
}

std::optional<ElementType> typeFromDescr(std::string_view d) {
  static const std::pair<std::string_view, ElementType> kTable[] = {
      {"<f4", ElementType::F32}, {"<f2", ElementType::F16}, {"<f8", ElementType::F64},
      {"|b1", ElementType::I1},  {"|i1", ElementType::I8},  {"|u1", ElementType::U8},
      {"<i4", ElementType::I32}, {"<i8", ElementType::I64}};
  for (auto [name, type] : kTable)
    if (name == d)
      return type;
  return std::nullopt;
}

// Half-precision bit patterns <-> double, exact in both directions for
// representable values.
double halfToDouble(uint16_t h) {
  int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0)
    v = std::ldexp(mant, -24);
  else if (exp == 31)
    v = mant ? NAN : INFINITY;
  else
    v = std::ldexp(mant + 1024, exp - 25);
  return sign ? -v : v;
}

uint16_t doubleToHalf(double v) {
  // v is already rounded to f16 by HostTensor; encode it exactly.
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  if (std::isnan(v))
    return 0x7e00;
  double a = std::fabs(v);
  if (std::isinf(a) || a >= 65520.0)
    return sign | 0x7c00;
  if (a < std::ldexp(1.0, -14)) // subnormal or zero
    return sign | static_cast<uint16_t>(std::nearbyint(a / std::ldexp(1.0, -24)));
  int exp;
  double m = std::frexp(a, &exp); // a = m * 2^exp, m in [0.5, 1)
  int e = exp - 1 + 15;
  uint16_t mant = static_cast<uint16_t>(std::nearbyint((m * 2 - 1) * 1024));
  if (mant == 1024) {
    mant = 0;
    ++e;
  }
  return sign | static_cast<uint16_t>(e << 10) | mant;
}

// Extracts the value text of `'key': value` from the header dict.
std::optional<std::string> headerField(std::string_view header, std::string_view key) {
  std::string needle = strCat("'", key, "':");
  size_t pos = header.find(needle);
  if (pos == std::string_view::npos)
    return std::nullopt;
  pos += needle.size();
  while (pos < header.size() && header[pos] == ' ')
    ++pos;
  if (pos >= header.size())
    return std::nullopt;
  char open = header[pos];
  size_t end;
  if (open == '\'') {
    end = header.find('\'', pos + 1);
    if (end == std::string_view::npos)
      return std::nullopt;
    return std::string(header.substr(pos + 1, end - pos - 1));
  }
  if (open == '(') {
    end = header.find(')', pos);
    if (end == std::string_view::npos)
      return std::nullopt;
    return std::string(header.substr(pos + 1, end - pos - 1));
  }
  end = header.find_first_of(",}", pos);
  if (end == std::string_view::npos)
    return std::nullopt;
  return std::string(absl::StripAsciiWhitespace(absl::string_view(header.data() + pos, end - pos)));
}

template <typename T> T load(const char *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T> void store(std::string &out, T v) {
  char buf[sizeof(T)];
  std::memcpy(buf, &v, sizeof(T));
  out.append(buf, sizeof(T));
}

// Reads element i of `t` from little-endian bytes in the file's dtype.
void readElement(const char *p, HostTensor &t, int64_t i) {
  switch (t.elementType()) {
  case ElementType::F32:
    t.setDouble(i, load<float>(p));
    break;
  case ElementType::F64:
    t.setDouble(i, load<double>(p));
    break;
  case ElementType::F16:
    t.setDouble(i, halfToDouble(load<uint16_t>(p)));
    break;
  case ElementType::I1:
    t.setInt(i, *p != 0);
    break;
  case ElementType::I8:
    t.setInt(i, load<int8_t>(p));
    break;
  case ElementType::U8:
    t.setInt(i, load<uint8_t>(p));
    break;
  case ElementType::I32:
    t.setInt(i, load<int32_t>(p));
    break;
  case ElementType::I64:
    t.setInt(i, load<int64_t>(p));
    break;
  case ElementType::BF16: // read from f32 files by the caller
    assert(false && "no .npy dtype maps to bf16");
    break;
  }
}

// Appends element i of `t` in the dtype npyDescr names (bf16 as f32).
void appendElement(std::string &out, const HostTensor &t, int64_t i) {
  switch (t.elementType()) {
  case ElementType::F32:
  case ElementType::BF16:
    store(out, static_cast<float>(t.getDouble(i)));
    break;
  case ElementType::F64:
    store(out, t.getDouble(i));
    break;
  case ElementType::F16:
    store(out, doubleToHalf(t.getDouble(i)));
    break;
  case ElementType::I1:
  case ElementType::I8:
  case ElementType::U8:
    store(out, static_cast<uint8_t>(t.getInt(i)));
    break;
  case ElementType::I32:
    store(out, static_cast<int32_t>(t.getInt(i)));
    break;
  case ElementType::I64:
    store(out, t.getInt(i));
    break;
  }
}

} // namespace

std::string npyDescr(ElementType t) {
  switch (t) {
  case ElementType::F32:
  case ElementType::BF16:
    return "<f4";
  case ElementType::F16:
    return "<f2";
  case ElementType::F64:
    return "<f8";
  case ElementType::I1:
    return "|b1";
  case ElementType::I8:
    return "|i1";
  case ElementType::U8:
    return "|u1";
  case ElementType::I32:
    return "<i4";
  case ElementType::I64:
    return "<i8";
  }
  return "?";
}

absl::StatusOr<HostTensor> readNpy(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return npyError(path, "cannot open file (does it exist and is it readable?)");
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string data = buffer.str();
  if (data.size() < 10 || data.compare(0, 6, kMagic, 6) != 0)
    return npyError(path, "not a .npy file (missing the \\x93NUMPY magic)");
  int major = static_cast<unsigned char>(data[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = static_cast<unsigned char>(data[8]) | (static_cast<unsigned char>(data[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (data.size() < 12)
      return npyError(path, "truncated .npy header");
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= static_cast<size_t>(static_cast<unsigned char>(data[8 + i])) << (8 * i);
    headerStart = 12;
  } else {
    return npyError(path, strCat("unsupported .npy format version ", major));
  }
  if (data.size() < headerStart + headerLen)
    return npyError(path, "truncated .npy header");
  std::string_view header(data.data() + headerStart, headerLen);

  std::optional<std::string> descr = headerField(header, "descr");
  std::optional<std::string> fortran = headerField(header, "fortran_order");
  std::optional<std::string> shapeText = headerField(header, "shape");
  if (!descr || !fortran || !shapeText)
    return npyError(path, "malformed .npy header (needs descr, fortran_order and shape)");
  if (*fortran != "False")
    return npyError(path, "Fortran-order arrays are not supported; save with "
                          "numpy.ascontiguousarray first");
  std::optional<ElementType> type = typeFromDescr(*descr);
  if (!type)
    return npyError(path, strCat("unsupported dtype '", *descr,
                                 "'; supported: <f4 <f2 <f8 |b1 |i1 |u1 <i4 <i8 "
                                 "(little-endian)"));
  std::vector<int64_t> shape;
  for (absl::string_view piece : absl::StrSplit(*shapeText, ',', absl::SkipWhitespace())) {
    int64_t d;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(piece), &d) || d < 0)
      return npyError(path, strCat("malformed shape (", *shapeText, ")"));
    shape.push_back(d);
  }
  int64_t count = 1;
  for (int64_t d : shape) {
    if (d != 0 && count > (int64_t(1) << 40) / d)
      return npyError(path, "array is too large");
    count *= d;
  }
  int64_t width = elementByteSize(*type);
  size_t payload = headerStart + headerLen;
  if (data.size() - payload < static_cast<size_t>(count * width))
    return npyError(path, strCat("truncated data: expected ", count * width, " bytes for shape (",
                                 *shapeText, "), found ", data.size() - payload));
  HostTensor t(*type, shape);
  const char *p = data.data() + payload;
  for (int64_t i = 0; i < count; ++i, p += width)
    readElement(p, t, i);
  return t;
}

absl::Status writeNpy(const std::string &path, const HostTensor &tensor) {
  std::string shape;
  for (int64_t d : tensor.shape())
    absl::StrAppend(&shape, d, ", ");
  if (tensor.rank() == 1)
    shape.pop_back(); // "(5,)"
  else if (tensor.rank() > 1)
    shape.resize(shape.size() - 2);
  std::string header = strCat("{'descr': '", npyDescr(tensor.elementType()),
                              "', 'fortran_order': False, 'shape': (", shape, "), }");
  // Pad so that the data starts on a 64-byte boundary, header ends in '\n'.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');

  std::string out(kMagic, 6);
  out.push_back(1);
  out.push_back(0);
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>((header.size() >> 8) & 0xff));
  out += header;
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    appendElement(out, tensor, i);
  std::ofstream f(path, std::ios::binary);
  if (!f)
    return npyError(path, "cannot open for writing");
  f.write(out.data(), static_cast<std::streamsize>(out.size()));
  if (!f)
    return npyError(path, "write failed");
  return absl::OkStatus();
}

} // namespace xs
