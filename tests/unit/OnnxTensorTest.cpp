// ONNX TensorProto <-> HostTensor: every element type xstitch has round-trips
// through raw data, the typed data fields read the same, and tensors that
// cannot be read (wrong sizes, negative dims, external data, types xstitch
// lacks) are errors naming the tensor, not crashes.

#include "frontend/onnx/OnnxTensor.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

HostTensor sample(ElementType type) {
  HostTensor t(type, {2, 3});
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.setDouble(i, isFloat(type)             ? (static_cast<double>(i) - 2.5) * 0.75
                   : type == ElementType::I1 ? static_cast<double>(i % 2)
                   : type == ElementType::U8 ? static_cast<double>(200 + i)
                                             : static_cast<double>(i) - 3);
  return t;
}

TEST(OnnxTensorTest, EveryTypeRoundTripsThroughRawData) {
  for (ElementType type : kAllElementTypes) {
    HostTensor t = sample(type);
    onnx::TensorProto proto = onnxFromHostTensor(t, "t");
    absl::StatusOr<HostTensor> back = hostTensorFromOnnx(proto, "t");
    ASSERT_TRUE(back.ok()) << elementTypeName(type) << ": " << back.status();
    EXPECT_EQ(back->elementType(), type);
    EXPECT_EQ(back->shape(), t.shape());
    for (int64_t i = 0; i < t.numElements(); ++i)
      EXPECT_EQ(back->getDouble(i), t.getDouble(i)) << elementTypeName(type) << " at " << i;
  }
}

TEST(OnnxTensorTest, TypedFieldsReadAsRawData) {
  onnx::TensorProto floats;
  floats.set_data_type(onnx::TensorProto::FLOAT);
  floats.add_dims(3);
  for (float v : {1.5f, -2.0f, 0.25f})
    floats.add_float_data(v);
  absl::StatusOr<HostTensor> f = hostTensorFromOnnx(floats, "f");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->getDouble(1), -2.0);

  onnx::TensorProto halves; // f16 bit patterns live in int32_data
  halves.set_data_type(onnx::TensorProto::FLOAT16);
  halves.add_dims(2);
  halves.add_int32_data(0x3c00); // 1.0
  halves.add_int32_data(0xc000); // -2.0
  absl::StatusOr<HostTensor> h = hostTensorFromOnnx(halves, "h");
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(h->getDouble(0), 1.0);
  EXPECT_EQ(h->getDouble(1), -2.0);

  onnx::TensorProto longs;
  longs.set_data_type(onnx::TensorProto::INT64);
  longs.add_int64_data(-7); // a scalar: no dims
  absl::StatusOr<HostTensor> l = hostTensorFromOnnx(longs, "l");
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->rank(), 0);
  EXPECT_EQ(l->getInt(0), -7);
}

TEST(OnnxTensorTest, UnreadableTensorsAreErrorsNamingThem) {
  onnx::TensorProto shortData;
  shortData.set_data_type(onnx::TensorProto::FLOAT);
  shortData.add_dims(4);
  shortData.add_float_data(1.0f);
  absl::StatusOr<HostTensor> a = hostTensorFromOnnx(shortData, "initializer 'w'");
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("initializer 'w' has 1 elements of data but its shape has 4"),
            std::string::npos)
      << a.status();

  onnx::TensorProto negative;
  negative.set_data_type(onnx::TensorProto::FLOAT);
  negative.add_dims(-1);
  EXPECT_FALSE(hostTensorFromOnnx(negative, "n").ok());

  onnx::TensorProto huge; // dims whose product overflows: never allocated
  huge.set_data_type(onnx::TensorProto::FLOAT);
  for (int i = 0; i < 4; ++i)
    huge.add_dims(int64_t(1) << 20);
  EXPECT_FALSE(hostTensorFromOnnx(huge, "h").ok());

  onnx::TensorProto external;
  external.set_data_type(onnx::TensorProto::FLOAT);
  external.set_data_location(onnx::TensorProto::EXTERNAL);
  absl::StatusOr<HostTensor> e = hostTensorFromOnnx(external, "w");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), absl::StatusCode::kUnimplemented);

  onnx::TensorProto wide;
  wide.set_data_type(onnx::TensorProto::UINT32);
  absl::StatusOr<HostTensor> w = hostTensorFromOnnx(wide, "w");
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(w.status().message().find("UINT32"), std::string::npos) << w.status();
}

} // namespace
} // namespace xs
