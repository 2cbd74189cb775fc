#ifndef XSTITCH_FRONTEND_ONNX_ONNXTENSOR_H
#define XSTITCH_FRONTEND_ONNX_ONNXTENSOR_H

// ONNX TensorProto <-> HostTensor: initializers, Constant values and the
// `.pb` files of ONNX test data. Element types xstitch lacks (strings,
// complex numbers, 16-bit and wide unsigned integers) and external data are
// errors that name the tensor.

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/DenseElements.h"
#include "ir/HostTensor.h"
#include "onnx/onnx_pb.h"

namespace xs {

/// The xstitch element type of an ONNX TensorProto::DataType code.
absl::StatusOr<ElementType> elementTypeFromOnnx(int32_t dataType);
/// The ONNX name of a TensorProto::DataType code (`FLOAT`, `UINT16`).
std::string onnxTypeName(int32_t dataType);

/// The tensor's elements; `what` names it in errors ("initializer 'w'").
absl::StatusOr<HostTensor> hostTensorFromOnnx(const onnx::TensorProto &tensor,
                                              std::string_view what);
/// The tensor's elements in their own width (model weights: copied once,
/// not widened); errors as hostTensorFromOnnx. `raw`, where given, is the
/// tensor's raw data kept out of the proto (MappedModel).
absl::StatusOr<std::shared_ptr<const DenseElements>>
denseElementsFromOnnx(const onnx::TensorProto &tensor, std::string_view what,
                      std::optional<std::string_view> raw = std::nullopt);
/// The tensor as a TensorProto (raw little-endian data).
onnx::TensorProto onnxFromHostTensor(const HostTensor &tensor, const std::string &name);

} // namespace xs

#endif // XSTITCH_FRONTEND_ONNX_ONNXTENSOR_H
