// Dense constants held at their element type's width: every type reads back
// what was stored, literals backed by them print and compare as the text
// IR's literals do, a model's weights stay f32 from the ONNX initializer to
// the compiled plan (one copy, shared), transposes of them fold at their width
// (ONNX Gemm's transB), and compile-cache keys carry their digests instead
// of their text.

#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "frontend/onnx/OnnxImporter.h"
#include "ir/Attribute.h"
#include "ir/DenseElements.h"
#include "ir/HostTensor.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "onnx/onnx_pb.h"
#include "transforms/Pass.h"
#include "transforms/PlanProgram.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

HostTensor sample(ElementType type, int64_t n) {
  HostTensor t(type, {n});
  for (int64_t i = 0; i < n; ++i)
    t.setDouble(i, isFloat(type)             ? (static_cast<double>(i) - 2.5) * 0.3
                   : type == ElementType::I1 ? static_cast<double>(i % 2)
                   : type == ElementType::U8 ? static_cast<double>(200 + i)
                                             : static_cast<double>(i) - 3);
  return t;
}

TEST(DenseElementsTest, EveryTypeReadsBackWhatItStores) {
  for (ElementType type : kAllElementTypes) {
    HostTensor t = sample(type, 7);
    std::shared_ptr<const DenseElements> e = DenseElements::fromHostTensor(t);
    EXPECT_EQ(e->elementType(), type);
    EXPECT_EQ(e->size(), 7);
    EXPECT_EQ(e->byteSize(), 7 * elementByteSize(type));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(e->data()) % 64, 0u) << elementTypeName(type);
    for (int64_t i = 0; i < 7; ++i) {
      if (isFloat(type))
        EXPECT_EQ(e->getDouble(i), t.getDouble(i)) << elementTypeName(type) << " at " << i;
      else
        EXPECT_EQ(e->getInt(i), t.getInt(i)) << elementTypeName(type) << " at " << i;
    }
  }
}

TEST(DenseElementsTest, FloatsKeepTheirWidth) {
  const float values[] = {1.5f, -0.1f, 3.0e-8f};
  std::shared_ptr<const DenseElements> e = DenseElements::copyOf(ElementType::F32, 3, values);
  EXPECT_EQ(e->byteSize(), 12);
  EXPECT_EQ(std::memcmp(e->data(), values, sizeof(values)), 0);
  EXPECT_EQ(e->getDouble(1), static_cast<double>(-0.1f));
}

TEST(DenseElementsTest, DigestIsStableAndSeesEveryByte) {
  // Pinned: compile-cache keys (and caches on disk) rely on the digest
  // being the same in every process and on every machine.
  const char text[] = "xstitch weights digest: thirty-two bytes and a tail";
  EXPECT_EQ(hashBytes64(text, sizeof(text) - 1), 0xa6d5eb72a1af6359ull);
  std::vector<float> a(1000, 0.5f), b = a;
  b[999] = 0.25f;
  auto ea = DenseElements::copyOf(ElementType::F32, 1000, a.data());
  auto ea2 = DenseElements::copyOf(ElementType::F32, 1000, a.data());
  auto eb = DenseElements::copyOf(ElementType::F32, 1000, b.data());
  EXPECT_EQ(ea->contentHash(), ea2->contentHash());
  EXPECT_NE(ea->contentHash(), eb->contentHash());
  EXPECT_TRUE(ea->sameContent(*ea2));
  EXPECT_FALSE(ea->sameContent(*eb));
  // The same bytes as another type are other elements.
  auto asInts = DenseElements::copyOf(ElementType::I32, 1000, a.data());
  EXPECT_NE(ea->contentHash(), asInts->contentHash());
  // Every tail length sees its last byte, and the length itself.
  std::vector<unsigned char> bytes(80, 7);
  for (size_t size = 1; size <= 72; ++size) {
    std::vector<unsigned char> changed = bytes;
    changed[size - 1] ^= 1;
    EXPECT_NE(hashBytes64(bytes.data(), size), hashBytes64(changed.data(), size)) << size;
    EXPECT_NE(hashBytes64(bytes.data(), size), hashBytes64(bytes.data(), size - 1)) << size;
  }
}

TEST(DenseElementsTest, LiteralsPrintAndCompareAsTextLiterals) {
  HostTensor t = sample(ElementType::F32, 4);
  LiteralValue text;
  text.shape = {2, 2};
  text.isInteger = false;
  for (int64_t i = 0; i < 4; ++i)
    text.floats.push_back(static_cast<float>(t.getDouble(i)));
  LiteralValue dense = LiteralValue::dense({2, 2}, DenseElements::fromHostTensor(t));
  EXPECT_TRUE(text == dense);
  EXPECT_EQ(Attribute::literal(text).str(), Attribute::literal(dense).str());
  EXPECT_EQ(dense.size(), 4);
  EXPECT_EQ(dense.asDouble(3), text.floats[3]);

  // Elided, a literal is its count, type and digest; other values, another
  // digest.
  std::string elided = Attribute::literal(dense).str(/*elideLiteralsAbove=*/2);
  EXPECT_EQ(elided.rfind("dense<elided 4 f32 0x", 0), 0u) << elided;
  HostTensor other = t;
  other.setDouble(0, 42.0);
  EXPECT_NE(
      elided,
      Attribute::literal(LiteralValue::dense({2, 2}, DenseElements::fromHostTensor(other))).str(2));
  EXPECT_EQ(Attribute::literal(dense).str(4), Attribute::literal(dense).str());
}

/// An f32 graph input or output of shape [rows, cols]; `rows` empty: R, a
/// symbolic dim.
void setMatrix(onnx::ValueInfoProto *v, const char *name, std::optional<int64_t> rows,
               int64_t cols) {
  v->set_name(name);
  onnx::TypeProto_Tensor *t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(onnx::TensorProto::FLOAT);
  if (rows)
    t->mutable_shape()->add_dim()->set_dim_value(*rows);
  else
    t->mutable_shape()->add_dim()->set_dim_param("R");
  t->mutable_shape()->add_dim()->set_dim_value(cols);
}

/// An f32 initializer of `values` with `dims`.
void addWeight(onnx::GraphProto *graph, const char *name, std::vector<int64_t> dims,
               const std::vector<float> &values) {
  onnx::TensorProto *w = graph->add_initializer();
  w->set_name(name);
  w->set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims)
    w->add_dims(d);
  w->set_raw_data(values.data(), values.size() * sizeof(float));
}

onnx::ModelProto emptyModel() {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(17);
  model.mutable_graph()->set_name("g");
  return model;
}

/// The model imported and run through the default pipeline.
absl::StatusOr<OnnxImport> importAndOptimize(const std::string &bytes, const std::string &name) {
  absl::StatusOr<OnnxImport> imported = importOnnxBytes(bytes, name);
  if (!imported.ok())
    return imported.status();
  if (absl::Status s = runPipeline(*imported->module, defaultPipeline(), PipelineOptions());
      !s.ok())
    return s;
  return imported;
}

/// y = x + w with w an f32[64, 128] initializer (a weight: more elements
/// than importers evaluate).
std::string modelWithWeight(std::vector<float> &weight) {
  onnx::ModelProto model = emptyModel();
  onnx::GraphProto *graph = model.mutable_graph();
  setMatrix(graph->add_input(), "x", 64, 128);
  setMatrix(graph->add_output(), "y", 64, 128);
  weight.resize(64 * 128);
  for (size_t i = 0; i < weight.size(); ++i)
    weight[i] = static_cast<float>(i % 97) * 0.1f - 3.0f;
  addWeight(graph, "w", {64, 128}, weight);
  onnx::NodeProto *add = graph->add_node();
  add->set_op_type("Add");
  add->add_input("x");
  add->add_input("w");
  add->add_output("y");
  return model.SerializeAsString();
}

TEST(DenseElementsTest, WeightsStayAtTheirWidthFromInitializerToPlan) {
  std::vector<float> weight;
  absl::StatusOr<OnnxImport> imported = importAndOptimize(modelWithWeight(weight), "m.onnx");
  ASSERT_TRUE(imported.ok()) << imported.status();
  const Function &f = *imported->module->functions().at(0);
  const Operation *constant = nullptr;
  for (const auto &op : f.ops())
    if (op->kind() == OpKind::Constant && op->type().elementType() == ElementType::F32)
      constant = op.get();
  ASSERT_NE(constant, nullptr) << printFunction(f);
  const LiteralValue &literal = constant->attr("value")->getLiteral();
  ASSERT_NE(literal.elements, nullptr) << "the weight was widened into the literal's doubles";
  EXPECT_EQ(literal.elements->elementType(), ElementType::F32);
  ASSERT_EQ(literal.elements->byteSize(), static_cast<int64_t>(weight.size() * sizeof(float)));
  EXPECT_EQ(std::memcmp(literal.elements->data(), weight.data(), weight.size() * sizeof(float)), 0);

  absl::StatusOr<ProgramPlan> plan = planProgram(f, genericCpuTarget(), PlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status();
  int shared = 0;
  for (const HostBuffer &buffer : plan->host.buffers)
    if (buffer.kind == HostBuffer::Kind::Constant)
      shared += buffer.constant == literal.elements;
  EXPECT_EQ(shared, 1) << "the plan holds a copy of the weight instead of sharing it";

  // The printed IR is the text IR's dense literal, and parses back to the
  // same values.
  std::string text = printFunction(f);
  absl::StatusOr<std::unique_ptr<Module>> parsed = parseModule(text, "printed");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  for (const auto &op : parsed->get()->functions().at(0)->ops())
    if (op->kind() == OpKind::Constant && op->type().elementType() == ElementType::F32)
      EXPECT_TRUE(op->attr("value")->getLiteral() == literal);
}

TEST(DenseElementsTest, TransposedMovesEachElementWhereTransposeDoes) {
  // f32[2, 3, 4] with perm [2, 0, 1]: result[k][i][j] = source[i][j][k].
  std::vector<float> source(24);
  for (size_t i = 0; i < source.size(); ++i)
    source[i] = static_cast<float>(i) * 0.5f - 3.0f;
  std::shared_ptr<const DenseElements> e =
      DenseElements::copyOf(ElementType::F32, 24, source.data());
  std::shared_ptr<const DenseElements> t = e->transposed({2, 3, 4}, {2, 0, 1});
  ASSERT_EQ(t->elementType(), ElementType::F32);
  ASSERT_EQ(t->size(), 24);
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        EXPECT_EQ(t->getDouble((k * 2 + i) * 3 + j),
                  source[static_cast<size_t>((i * 3 + j) * 4 + k)])
            << "at " << k << ", " << i << ", " << j;

  // 16-bit elements move as their bit patterns.
  HostTensor half = sample(ElementType::F16, 15);
  std::shared_ptr<const DenseElements> h =
      DenseElements::fromHostTensor(half)->transposed({3, 5}, {1, 0});
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j)
      EXPECT_EQ(h->getDouble(j * 3 + i), half.getDouble(i * 5 + j));

  // The identity permutation, a vector and a scalar keep their elements.
  EXPECT_TRUE(e->transposed({2, 3, 4}, {0, 1, 2})->sameContent(*e));
  EXPECT_TRUE(e->transposed({24}, {0})->sameContent(*e));
  std::shared_ptr<const DenseElements> one =
      DenseElements::copyOf(ElementType::F32, 1, source.data());
  EXPECT_TRUE(one->transposed({}, {})->sameContent(*one));
}

/// y = Gemm(x, w, bias) with transB = 1, as PyTorch exports nn.Linear over a
/// matrix: x f32[R, 96], w f32[80, 96] (the layer's [out, in] weight).
std::string linearModel(std::vector<float> &weight) {
  onnx::ModelProto model = emptyModel();
  onnx::GraphProto *graph = model.mutable_graph();
  setMatrix(graph->add_input(), "x", std::nullopt, 96);
  setMatrix(graph->add_output(), "y", std::nullopt, 80);
  weight.resize(80 * 96);
  for (size_t i = 0; i < weight.size(); ++i)
    weight[i] = static_cast<float>(i % 89) * 0.25f - 7.0f;
  addWeight(graph, "w", {80, 96}, weight);
  addWeight(graph, "b", {80}, std::vector<float>(80, 0.5f));
  onnx::NodeProto *gemm = graph->add_node();
  gemm->set_op_type("Gemm");
  gemm->add_input("x");
  gemm->add_input("w");
  gemm->add_input("b");
  gemm->add_output("y");
  onnx::AttributeProto *transB = gemm->add_attribute();
  transB->set_name("transB");
  transB->set_type(onnx::AttributeProto::INT);
  transB->set_i(1);
  return model.SerializeAsString();
}

TEST(DenseElementsTest, GemmWeightIsTransposedOnceAtCompileTime) {
  std::vector<float> weight;
  absl::StatusOr<OnnxImport> imported = importAndOptimize(linearModel(weight), "linear.onnx");
  ASSERT_TRUE(imported.ok()) << imported.status();
  const Function &f = *imported->module->functions().at(0);
  const Operation *dot = nullptr;
  for (const auto &op : f.ops()) {
    EXPECT_NE(op->kind(), OpKind::Transpose) << "the weight is transposed at run time:\n"
                                             << printFunction(f);
    if (op->kind() == OpKind::Dot)
      dot = op.get();
  }
  ASSERT_NE(dot, nullptr) << printFunction(f);
  const Operation *constant = dot->operand(1)->definingOp();
  ASSERT_EQ(constant->kind(), OpKind::Constant) << printFunction(f);
  const LiteralValue &literal = constant->attr("value")->getLiteral();
  ASSERT_NE(literal.elements, nullptr) << "the weight was widened into the literal's doubles";
  EXPECT_EQ(literal.shape, (std::vector<int64_t>{96, 80}));
  for (int k = 0; k < 96; ++k)
    for (int n = 0; n < 80; ++n)
      ASSERT_EQ(literal.elements->getDouble(k * 80 + n), weight[static_cast<size_t>(n * 96 + k)])
          << "at " << k << ", " << n;
}

} // namespace
} // namespace xs
