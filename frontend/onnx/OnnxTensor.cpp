#include "frontend/onnx/OnnxTensor.h"

#include <cstring>

#include "ir/Diagnostics.h"
#include "ir/FloatBits.h"

namespace xs {

absl::StatusOr<ElementType> elementTypeFromOnnx(int32_t dataType) {
  switch (dataType) {
  case onnx::TensorProto::FLOAT:
    return ElementType::F32;
  case onnx::TensorProto::DOUBLE:
    return ElementType::F64;
  case onnx::TensorProto::FLOAT16:
    return ElementType::F16;
  case onnx::TensorProto::BFLOAT16:
    return ElementType::BF16;
  case onnx::TensorProto::BOOL:
    return ElementType::I1;
  case onnx::TensorProto::INT8:
    return ElementType::I8;
  case onnx::TensorProto::UINT8:
    return ElementType::U8;
  case onnx::TensorProto::INT32:
    return ElementType::I32;
  case onnx::TensorProto::INT64:
    return ElementType::I64;
  default:
    return absl::UnimplementedError(
        strCat("element type ", onnxTypeName(dataType),
               " is not supported (xstitch has f32, f64, f16, bf16, bool, int8, uint8, int32 and "
               "int64)"));
  }
}

std::string onnxTypeName(int32_t dataType) {
  if (onnx::TensorProto::DataType_IsValid(dataType))
    return onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(dataType));
  return strCat("#", dataType);
}

namespace {

/// Reads element i of little-endian raw data of the ONNX type.
double rawFloat(const std::string &raw, int32_t dataType, int64_t i) {
  switch (dataType) {
  case onnx::TensorProto::FLOAT: {
    float v;
    std::memcpy(&v, raw.data() + i * 4, 4);
    return v;
  }
  case onnx::TensorProto::DOUBLE: {
    double v;
    std::memcpy(&v, raw.data() + i * 8, 8);
    return v;
  }
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16: {
    uint16_t bits;
    std::memcpy(&bits, raw.data() + i * 2, 2);
    return dataType == onnx::TensorProto::FLOAT16 ? decodeF16(bits) : decodeBF16(bits);
  }
  default:
    return 0;
  }
}

int64_t rawInt(const std::string &raw, int32_t dataType, int64_t i) {
  switch (dataType) {
  case onnx::TensorProto::BOOL:
    return raw[static_cast<size_t>(i)] != 0;
  case onnx::TensorProto::INT8:
    return static_cast<int8_t>(raw[static_cast<size_t>(i)]);
  case onnx::TensorProto::UINT8:
    return static_cast<uint8_t>(raw[static_cast<size_t>(i)]);
  case onnx::TensorProto::INT32: {
    int32_t v;
    std::memcpy(&v, raw.data() + i * 4, 4);
    return v;
  }
  case onnx::TensorProto::INT64: {
    int64_t v;
    std::memcpy(&v, raw.data() + i * 8, 8);
    return v;
  }
  default:
    return 0;
  }
}

} // namespace

namespace {

/// The tensor's element count, after checking that its data is inside the
/// model and its dims are sane.
absl::StatusOr<int64_t> checkedElementCount(const onnx::TensorProto &tensor,
                                            std::string_view what) {
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL)
    return absl::UnimplementedError(
        strCat(what, " keeps its data in an external file, which xstitch does not read; save "
                     "the model with its weights inside (onnx.save(..., "
                     "save_as_external_data=False))"));
  if (tensor.segment().begin() != 0 || tensor.segment().end() != 0)
    return absl::UnimplementedError(strCat(what, " is a segment of a tensor"));
  std::vector<int64_t> shape(tensor.dims().begin(), tensor.dims().end());
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      return absl::InvalidArgumentError(strCat(what, " has a negative dim (", d, ")"));
    if (d != 0 && n > (int64_t(1) << 40) / d)
      return absl::InvalidArgumentError(strCat(what, " has too many elements (is it a tensor?)"));
    n *= d;
  }
  return n;
}

} // namespace

absl::StatusOr<HostTensor> hostTensorFromOnnx(const onnx::TensorProto &tensor,
                                              std::string_view what) {
  absl::StatusOr<ElementType> type = elementTypeFromOnnx(tensor.data_type());
  if (!type.ok())
    return absl::UnimplementedError(strCat(what, ": ", type.status().message()));
  XS_ASSIGN_OR_RETURN(int64_t n, checkedElementCount(tensor, what));
  std::vector<int64_t> shape(tensor.dims().begin(), tensor.dims().end());
  // The data must be there before the elements are allocated.
  const int32_t dt = tensor.data_type();
  int64_t have = tensor.has_raw_data()
                     ? static_cast<int64_t>(tensor.raw_data().size()) / elementByteSize(*type)
                 : dt == onnx::TensorProto::FLOAT  ? tensor.float_data_size()
                 : dt == onnx::TensorProto::DOUBLE ? tensor.double_data_size()
                 : dt == onnx::TensorProto::INT64  ? tensor.int64_data_size()
                                                   : tensor.int32_data_size();
  if (have != n)
    return absl::InvalidArgumentError(
        strCat(what, " has ", have, " elements of data but its shape has ", n));
  HostTensor out(*type, shape);
  if (tensor.has_raw_data()) {
    int64_t bytes = n * elementByteSize(*type);
    if (static_cast<int64_t>(tensor.raw_data().size()) != bytes)
      return absl::InvalidArgumentError(strCat(what, " has ", tensor.raw_data().size(),
                                               " bytes of data but its shape needs ", bytes));
    for (int64_t i = 0; i < n; ++i) {
      if (out.isFloat())
        out.floats()[static_cast<size_t>(i)] = rawFloat(tensor.raw_data(), dt, i);
      else
        out.ints()[static_cast<size_t>(i)] = rawInt(tensor.raw_data(), dt, i);
    }
    return out;
  }
  auto sizeError = [&](int64_t have) {
    return absl::InvalidArgumentError(
        strCat(what, " has ", have, " elements of data but its shape has ", n));
  };
  switch (dt) {
  case onnx::TensorProto::FLOAT:
    if (tensor.float_data_size() != n)
      return sizeError(tensor.float_data_size());
    for (int64_t i = 0; i < n; ++i)
      out.floats()[static_cast<size_t>(i)] = tensor.float_data(static_cast<int>(i));
    break;
  case onnx::TensorProto::DOUBLE:
    if (tensor.double_data_size() != n)
      return sizeError(tensor.double_data_size());
    for (int64_t i = 0; i < n; ++i)
      out.floats()[static_cast<size_t>(i)] = tensor.double_data(static_cast<int>(i));
    break;
  case onnx::TensorProto::INT64:
    if (tensor.int64_data_size() != n)
      return sizeError(tensor.int64_data_size());
    for (int64_t i = 0; i < n; ++i)
      out.ints()[static_cast<size_t>(i)] = tensor.int64_data(static_cast<int>(i));
    break;
  default: // the other types keep their elements (or bit patterns) in int32_data
    if (tensor.int32_data_size() != n)
      return sizeError(tensor.int32_data_size());
    for (int64_t i = 0; i < n; ++i) {
      int32_t v = tensor.int32_data(static_cast<int>(i));
      if (dt == onnx::TensorProto::FLOAT16)
        out.floats()[static_cast<size_t>(i)] = decodeF16(static_cast<uint16_t>(v));
      else if (dt == onnx::TensorProto::BFLOAT16)
        out.floats()[static_cast<size_t>(i)] = decodeBF16(static_cast<uint16_t>(v));
      else
        out.setInt(i, dt == onnx::TensorProto::BOOL ? v != 0 : v);
    }
  }
  return out;
}

onnx::TensorProto onnxFromHostTensor(const HostTensor &tensor, const std::string &name) {
  onnx::TensorProto proto;
  proto.set_name(name);
  for (int64_t d : tensor.shape())
    proto.add_dims(d);
  std::string raw;
  auto append = [&raw](const void *p, size_t n) { raw.append(static_cast<const char *>(p), n); };
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    switch (tensor.elementType()) {
    case ElementType::F32: {
      float v = static_cast<float>(tensor.getDouble(i));
      append(&v, 4);
      break;
    }
    case ElementType::F64: {
      double v = tensor.getDouble(i);
      append(&v, 8);
      break;
    }
    case ElementType::F16:
    case ElementType::BF16: {
      uint16_t bits = tensor.elementType() == ElementType::F16 ? encodeF16(tensor.getDouble(i))
                                                               : encodeBF16(tensor.getDouble(i));
      append(&bits, 2);
      break;
    }
    case ElementType::I1:
    case ElementType::I8:
    case ElementType::U8: {
      char v = static_cast<char>(tensor.getInt(i));
      append(&v, 1);
      break;
    }
    case ElementType::I32: {
      int32_t v = static_cast<int32_t>(tensor.getInt(i));
      append(&v, 4);
      break;
    }
    case ElementType::I64: {
      int64_t v = tensor.getInt(i);
      append(&v, 8);
      break;
    }
    }
  }
  static constexpr onnx::TensorProto::DataType kCodes[] = {
      onnx::TensorProto::FLOAT,  onnx::TensorProto::FLOAT16, onnx::TensorProto::BFLOAT16,
      onnx::TensorProto::DOUBLE, onnx::TensorProto::BOOL,    onnx::TensorProto::INT8,
      onnx::TensorProto::UINT8,  onnx::TensorProto::INT32,   onnx::TensorProto::INT64};
  proto.set_data_type(kCodes[static_cast<int>(tensor.elementType())]);
  proto.set_raw_data(std::move(raw));
  return proto;
}

absl::StatusOr<std::shared_ptr<const DenseElements>>
denseElementsFromOnnx(const onnx::TensorProto &tensor, std::string_view what,
                      std::optional<std::string_view> raw) {
  absl::StatusOr<ElementType> type = elementTypeFromOnnx(tensor.data_type());
  if (!type.ok())
    return absl::UnimplementedError(strCat(what, ": ", type.status().message()));
  // Raw data is little-endian in the element's width, as DenseElements
  // stores it: one copy. Booleans are normalized through the general path.
  std::string_view bytes = raw ? *raw : std::string_view(tensor.raw_data());
  if ((raw || tensor.has_raw_data()) && *type != ElementType::I1) {
    XS_ASSIGN_OR_RETURN(int64_t n, checkedElementCount(tensor, what));
    int64_t needed = n * elementByteSize(*type);
    if (static_cast<int64_t>(bytes.size()) != needed)
      return absl::InvalidArgumentError(
          strCat(what, " has ", bytes.size(), " bytes of data but its shape needs ", needed));
    return DenseElements::copyOf(*type, n, bytes.data());
  }
  // The general path reads the proto: bytes kept out of it go back in.
  onnx::TensorProto withData;
  if (raw) {
    withData = tensor;
    withData.set_raw_data(std::string(*raw));
  }
  XS_ASSIGN_OR_RETURN(HostTensor t, hostTensorFromOnnx(raw ? withData : tensor, what));
  return DenseElements::fromHostTensor(t);
}

} // namespace xs
