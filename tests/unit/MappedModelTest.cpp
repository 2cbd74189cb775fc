// Reading an ONNX model with its large initializers' bytes left in the file's
// mapping (frontend/onnx/MappedModel.h): the proto it gives is protobuf's own
// parse but for those bytes, a model read from a file imports as the same
// bytes do, and bytes the reader does not walk (truncated, a field given
// twice, a group) are left to protobuf instead of misread.

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "frontend/onnx/MappedModel.h"
#include "frontend/onnx/OnnxImporter.h"
#include "ir/Printer.h"
#include "onnx/onnx_pb.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

/// y = where(m, (x + w) * s, x + w) + b over f32[128, 512]: w a weight in raw
/// data (256 KiB), s a scalar in float_data, b an f32[512] bias in raw data
/// (2 KiB), m a bool[128, 512] mask in raw data (64 KiB: booleans take the
/// importer's general path).
onnx::ModelProto modelWithWeights() {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.set_producer_name("test");
  model.add_opset_import()->set_version(17);
  onnx::GraphProto *graph = model.mutable_graph();
  graph->set_name("g");
  auto addValue = [](onnx::ValueInfoProto *v, const char *name) {
    v->set_name(name);
    onnx::TypeProto_Tensor *t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    t->mutable_shape()->add_dim()->set_dim_value(128);
    t->mutable_shape()->add_dim()->set_dim_value(512);
  };
  addValue(graph->add_input(), "x");
  addValue(graph->add_output(), "y");
  auto addRaw = [&](const char *name, std::vector<int64_t> dims) {
    onnx::TensorProto *t = graph->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    int64_t n = 1;
    for (int64_t d : dims) {
      t->add_dims(d);
      n *= d;
    }
    std::vector<float> values(static_cast<size_t>(n));
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = static_cast<float>(i % 251) * 0.25f - 7.0f;
    t->set_raw_data(values.data(), values.size() * sizeof(float));
  };
  addRaw("w", {128, 512});
  onnx::TensorProto *s = graph->add_initializer();
  s->set_name("s");
  s->set_data_type(onnx::TensorProto::FLOAT);
  s->add_float_data(0.5f);
  addRaw("b", {512});
  onnx::TensorProto *m = graph->add_initializer();
  m->set_name("m");
  m->set_data_type(onnx::TensorProto::BOOL);
  m->add_dims(128);
  m->add_dims(512);
  std::string mask(128 * 512, '\0');
  for (size_t i = 0; i < mask.size(); ++i)
    mask[i] = static_cast<char>(i % 3 == 0);
  m->set_raw_data(mask);
  auto addNode = [&](const char *type, const char *a, const char *b, const char *out) {
    onnx::NodeProto *node = graph->add_node();
    node->set_op_type(type);
    node->add_input(a);
    node->add_input(b);
    node->add_output(out);
  };
  addNode("Add", "x", "w", "t");
  addNode("Mul", "t", "s", "u");
  onnx::NodeProto *where = graph->add_node();
  where->set_op_type("Where");
  where->add_input("m");
  where->add_input("u");
  where->add_input("t");
  where->add_output("v");
  addNode("Add", "v", "b", "y");
  return model;
}

TEST(MappedModelTest, LargeRawDataStaysInTheBytes) {
  onnx::ModelProto original = modelWithWeights();
  std::string bytes = original.SerializeAsString();
  std::vector<std::string_view> released;
  std::optional<MappedModel> mapped =
      walkModelBytes(bytes, [&](std::string_view r) { released.push_back(r); });
  ASSERT_TRUE(mapped.has_value());
  const onnx::GraphProto &graph = mapped->model.graph();
  ASSERT_EQ(graph.initializer_size(), 4);
  ASSERT_EQ(mapped->raw.bytes.size(), 4u);
  // w's 256 KiB and m's 64 KiB are views into the bytes, a zero byte each in
  // the proto; s and b (2 KiB) are in the proto.
  ASSERT_TRUE(mapped->raw.bytes[0].has_value());
  EXPECT_GE(mapped->raw.bytes[0]->data(), bytes.data());
  EXPECT_LE(mapped->raw.bytes[0]->data() + mapped->raw.bytes[0]->size(),
            bytes.data() + bytes.size());
  EXPECT_EQ(*mapped->raw.bytes[0], original.graph().initializer(0).raw_data());
  EXPECT_EQ(graph.initializer(0).raw_data(), std::string(1, '\0'));
  EXPECT_FALSE(mapped->raw.bytes[1].has_value());
  EXPECT_FALSE(mapped->raw.bytes[2].has_value());
  ASSERT_TRUE(mapped->raw.bytes[3].has_value());
  EXPECT_EQ(*mapped->raw.bytes[3], original.graph().initializer(3).raw_data());
  EXPECT_EQ(graph.initializer(3).raw_data(), std::string(1, '\0'));
  // With their bytes put back it is protobuf's parse of the same bytes.
  onnx::ModelProto restored = mapped->model;
  for (int i : {0, 3})
    restored.mutable_graph()->mutable_initializer(i)->set_raw_data(
        std::string(*mapped->raw.bytes[static_cast<size_t>(i)]));
  EXPECT_EQ(restored.SerializeAsString(), bytes);
  mapped->raw.release(*mapped->raw.bytes[0]);
  ASSERT_EQ(released.size(), 1u);
  EXPECT_EQ(released[0].data(), mapped->raw.bytes[0]->data());
}

TEST(MappedModelTest, AFileImportsAsItsBytesDo) {
  std::string bytes = modelWithWeights().SerializeAsString();
  std::string path = ::testing::TempDir() + "mapped-model-test.onnx";
  {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  ASSERT_TRUE(readMappedModel(path).has_value()) << "the file was not walked";
  absl::StatusOr<OnnxImport> fromFile = importOnnxFile(path, {}, "m.onnx");
  absl::StatusOr<OnnxImport> fromBytes = importOnnxBytes(bytes, "m.onnx");
  std::remove(path.c_str());
  ASSERT_TRUE(fromFile.ok()) << fromFile.status();
  ASSERT_TRUE(fromBytes.ok()) << fromBytes.status();
  // Printed, each dense constant shows its elements' digest.
  EXPECT_EQ(printFunction(*fromFile->module->functions().at(0)),
            printFunction(*fromBytes->module->functions().at(0)));
}

TEST(MappedModelTest, BytesItDoesNotWalkAreLeftToProtobuf) {
  onnx::ModelProto original = modelWithWeights();
  std::string bytes = original.SerializeAsString();
  auto walk = [](std::string_view b) { return walkModelBytes(b, [](std::string_view) {}); };
  // Two graph fields (protobuf merges them).
  onnx::ModelProto second;
  *second.mutable_graph() = original.graph();
  std::string twice = bytes + second.SerializeAsString();
  EXPECT_FALSE(walk(twice).has_value());
  // A group (wire type 3) of field 20.
  EXPECT_FALSE(walk(bytes + std::string("\xa3\x01", 2)).has_value());
  // Cut anywhere: never read past the end, and a model only where protobuf
  // parses the same bytes too.
  for (size_t cut = 0; cut < bytes.size(); cut += cut < 256 ? 1 : 997) {
    std::string prefix = bytes.substr(0, cut);
    std::optional<MappedModel> walked = walk(prefix);
    onnx::ModelProto parsed;
    if (walked)
      EXPECT_TRUE(parsed.ParseFromString(prefix)) << "cut at " << cut;
  }
}

} // namespace
} // namespace xs
