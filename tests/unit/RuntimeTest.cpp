// The CPU runtime: tensor conversions (f16/bf16 rounding), the caching
// allocator, the dot library op, input checking and the host-plan step loop
// (on plans built by hand, so that they do not depend on the planner), and
// compiled programs end to end against the reference interpreter.

#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"
#include "ir/FloatBits.h"
#include "ir/Interpreter.h"
#include "ir/Parser.h"
#include "runtime/CachingAllocator.h"
#include "runtime/HostPlanExecution.h"
#include "runtime/Tensor.h"
#include "runtime/cpu/CpuDevice.h"
#include "runtime/cpu/LibraryOps.h"
#include "transforms/ShapeInference.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

// ---- f16 / bf16 bit patterns ------------------------------------------------

TEST(FloatBits, F16HandValues) {
  EXPECT_EQ(encodeF16(1.0), 0x3C00);
  EXPECT_EQ(encodeF16(-2.0), 0xC000);
  EXPECT_EQ(encodeF16(0.0), 0x0000);
  EXPECT_EQ(encodeF16(-0.0), 0x8000);
  EXPECT_EQ(encodeF16(65504.0), 0x7BFF); // largest finite
  EXPECT_EQ(encodeF16(65519.0), 0x7BFF); // below the halfway point
  EXPECT_EQ(encodeF16(65520.0), 0x7C00); // tie goes to even: infinity
  EXPECT_EQ(encodeF16(1e10), 0x7C00);
  EXPECT_EQ(encodeF16(-INFINITY), 0xFC00);
  EXPECT_EQ(encodeF16(NAN) & 0x7E00, 0x7E00);            // quiet NaN
  EXPECT_EQ(encodeF16(std::ldexp(1.0, -14)), 0x0400);    // smallest normal
  EXPECT_EQ(encodeF16(std::ldexp(1.0, -24)), 0x0001);    // smallest subnormal
  EXPECT_EQ(encodeF16(std::ldexp(1.0, -25)), 0x0000);    // tie between 0 and 2^-24: even
  EXPECT_EQ(encodeF16(std::ldexp(3.0, -25)), 0x0002);    // tie between 1 and 2 ulps: even
  EXPECT_EQ(encodeF16(std::ldexp(1023.5, -24)), 0x0400); // rounds up into the normals
}

TEST(FloatBits, F16TiesToEven) {
  double ulp = std::ldexp(1.0, -10);
  EXPECT_EQ(encodeF16(1.0 + ulp / 2), 0x3C00);        // tie, 0x3C00 is even
  EXPECT_EQ(encodeF16(1.0 + 3 * ulp / 2), 0x3C02);    // tie, 0x3C01 is odd
  EXPECT_EQ(encodeF16(1.0 + ulp / 2 + 1e-9), 0x3C01); // just above the tie
  // One rounding straight from f64: through f32 the 2^-40 would be lost and
  // the value would become a tie that rounds down.
  EXPECT_EQ(encodeF16(1.0 + ulp / 2 + std::ldexp(1.0, -40)), 0x3C01);
  EXPECT_EQ(encodeF16(2047.5), 0x6800); // tie above 2047 (odd): up to 2048
}

TEST(FloatBits, BF16HandValues) {
  EXPECT_EQ(encodeBF16(1.0), 0x3F80);
  EXPECT_EQ(encodeBF16(-1.0), 0xBF80);
  EXPECT_EQ(encodeBF16(1.0 + std::ldexp(1.0, -8)), 0x3F80);     // tie to even
  EXPECT_EQ(encodeBF16(1.0 + 3 * std::ldexp(1.0, -8)), 0x3F82); // tie to even (up)
  EXPECT_EQ(encodeBF16(3.3895313892515355e38), 0x7F7F);         // largest finite
  EXPECT_EQ(encodeBF16(3.4e38), 0x7F80);                        // above the halfway point
  EXPECT_EQ(encodeBF16(std::ldexp(1.0, -133)), 0x0001);         // smallest subnormal
  EXPECT_EQ(encodeBF16(std::ldexp(1.0, -134)), 0x0000);         // tie to even (zero)
  EXPECT_EQ(encodeBF16(INFINITY), 0x7F80);
}

TEST(FloatBits, DecodeIsExactAndRoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    uint16_t b = static_cast<uint16_t>(bits);
    double h = decodeF16(b), g = decodeBF16(b);
    if (!std::isnan(h))
      EXPECT_EQ(encodeF16(h), b) << std::hex << bits;
    if (!std::isnan(g))
      EXPECT_EQ(encodeBF16(g), b) << std::hex << bits;
  }
  EXPECT_EQ(decodeF16(0x3555), 0.333251953125);
  EXPECT_EQ(decodeBF16(0x4049), 3.140625);
  EXPECT_EQ(decodeF16(0x0001), std::ldexp(1.0, -24));
}

TEST(FloatBits, AgreesWithTheInterpretersRounding) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(-2.0, 2.0);
  std::uniform_int_distribution<int> exponent(-30, 20);
  for (int i = 0; i < 100000; ++i) {
    double v = std::ldexp(mantissa(rng), exponent(rng));
    EXPECT_EQ(decodeF16(encodeF16(v)), roundToFloatType(v, ElementType::F16)) << v;
    EXPECT_EQ(decodeBF16(encodeBF16(v)), roundToFloatType(v, ElementType::BF16)) << v;
  }
}

// ---- Tensor conversions -----------------------------------------------------

TEST(Tensor, ConvertsEveryElementType) {
  for (ElementType type : kAllElementTypes) {
    HostTensor host(type, {2, 3});
    for (int64_t i = 0; i < host.numElements(); ++i)
      host.setDouble(i, static_cast<double>(i * 7 - 12) / (isFloat(type) ? 4.0 : 1.0));
    Tensor tensor = toTensor(host);
    EXPECT_EQ(tensor.view().byteSize(), 6 * elementByteSize(type));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(tensor.data()) % 64, 0u);
    HostTensor back = toHostTensor(tensor.view());
    ASSERT_EQ(back.shape(), host.shape());
    for (int64_t i = 0; i < host.numElements(); ++i)
      EXPECT_EQ(back.getDouble(i), host.getDouble(i)) << elementTypeName(type) << " #" << i;
  }
}

TEST(Tensor, StoresBitPatternsAndBytes) {
  HostTensor half(ElementType::F16, {3});
  half.floats() = {1.0, 1.0 + std::ldexp(1.0, -11), 65520.0}; // not yet rounded
  Tensor t = toTensor(half);
  const uint16_t *bits = static_cast<const uint16_t *>(t.data());
  EXPECT_EQ(bits[0], 0x3C00);
  EXPECT_EQ(bits[1], 0x3C00);
  EXPECT_EQ(bits[2], 0x7C00);

  HostTensor flags(ElementType::I1, {3});
  flags.ints() = {0, 1, 1};
  Tensor f = toTensor(flags);
  const uint8_t *bytes = static_cast<const uint8_t *>(f.data());
  EXPECT_EQ(bytes[0], 0);
  EXPECT_EQ(bytes[1], 1);
  uint8_t raw[3] = {0, 2, 255}; // any non-zero byte reads as true
  TensorView view{ElementType::I1, {3}, raw};
  EXPECT_EQ(toHostTensor(view).ints(), (std::vector<int64_t>{0, 1, 1}));

  HostTensor narrow(ElementType::I8, {2});
  narrow.ints() = {-128, 127};
  Tensor n = toTensor(narrow);
  EXPECT_EQ(static_cast<const int8_t *>(n.data())[0], -128);
  EXPECT_EQ(toHostTensor(n.view()).ints(), narrow.ints());
}

TEST(Tensor, ZeroSizedAndScalar) {
  Tensor empty(ElementType::F32, {0, 5});
  EXPECT_NE(empty.data(), nullptr);
  EXPECT_EQ(empty.view().byteSize(), 0);
  EXPECT_EQ(toHostTensor(empty.view()).numElements(), 0);
  Tensor scalar(ElementType::F64, {});
  EXPECT_EQ(scalar.view().numElements(), 1);
  EXPECT_EQ(*static_cast<const double *>(scalar.data()), 0.0);
}

// ---- Caching allocator ------------------------------------------------------

TEST(CachingAllocator, AlignsAndReusesFreedBlocks) {
  std::shared_ptr<CachingAllocator> allocator = CachingAllocator::create();
  void *first = nullptr;
  {
    std::shared_ptr<void> block = allocator->allocate(1000);
    ASSERT_NE(block, nullptr);
    first = block.get();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % 64, 0u);
    EXPECT_EQ(allocator->stats().cacheHits, 0);
  }
  EXPECT_EQ(allocator->stats().liveBytes, 0);
  EXPECT_GT(allocator->stats().cachedBytes, 0);
  // 1010 bytes fall in the same size class as 1000.
  std::shared_ptr<void> again = allocator->allocate(1010);
  EXPECT_EQ(again.get(), first);
  EXPECT_EQ(allocator->stats().cacheHits, 1);
  // A different class does not take it.
  std::shared_ptr<void> other = allocator->allocate(100000);
  EXPECT_NE(other.get(), first);
  EXPECT_EQ(allocator->stats().cacheHits, 1);
  again.reset();
  other.reset();
  allocator->releaseCached();
  EXPECT_EQ(allocator->stats().cachedBytes, 0);
}

/// Host memory with a budget: an allocation that would take more than it
/// fails, as a GPU's memory does when full.
class BudgetSource : public MemorySource {
public:
  explicit BudgetSource(int64_t budget) : budget_(budget) {}
  void *allocate(int64_t bytes) override {
    if (used_ + bytes > budget_)
      return nullptr;
    void *block = host_->allocate(bytes);
    used_ += bytes;
    sizes_[block] = bytes;
    return block;
  }
  void free(void *block) override {
    used_ -= sizes_.at(block);
    sizes_.erase(block);
    host_->free(block);
  }
  int64_t used() const { return used_; }

private:
  std::shared_ptr<MemorySource> host_ = hostMemorySource();
  int64_t budget_, used_ = 0;
  std::map<void *, int64_t> sizes_;
};

TEST(CachingAllocator, OutOfMemoryReleasesTheCacheAndRetries) {
  auto source = std::make_shared<BudgetSource>(1 << 20);
  std::shared_ptr<CachingAllocator> allocator =
      CachingAllocator::create(CachingAllocatorOptions{}, source);
  // 600 KiB freed into the cache, then 700 KiB of another size class: the
  // budget holds only one of them, so the cache goes back and the second
  // request is served.
  allocator->allocate(600 << 10).reset();
  EXPECT_EQ(source->used(), allocator->stats().cachedBytes);
  std::shared_ptr<void> large = allocator->allocate(700 << 10);
  ASSERT_NE(large, nullptr);
  EXPECT_EQ(allocator->stats().cachedBytes, 0);
  // Beyond the budget even with nothing cached: a clean failure.
  EXPECT_EQ(allocator->allocate(2 << 20), nullptr);
  EXPECT_EQ(allocator->stats().liveBytes, CachingAllocator::sizeClass(700 << 10));
  large.reset();
  allocator->releaseCached();
  EXPECT_EQ(source->used(), 0);
}

TEST(CachingAllocator, SizeClassesBoundWaste) {
  int64_t previous = 0;
  for (int64_t bytes = 1; bytes < (int64_t{1} << 24); bytes = bytes * 3 / 2 + 1) {
    int64_t size = CachingAllocator::sizeClass(bytes);
    EXPECT_GE(size, bytes);
    EXPECT_EQ(size % 64, 0);
    EXPECT_LE(size, bytes + bytes / 4 + 64) << bytes;
    EXPECT_GE(size, previous);
    previous = size;
  }
}

TEST(CachingAllocator, BlocksOutliveTheAllocatorHandle) {
  std::shared_ptr<void> block;
  {
    std::shared_ptr<CachingAllocator> allocator = CachingAllocator::create();
    block = allocator->allocate(64);
  }
  std::memset(block.get(), 1, 64); // still valid: the block keeps its allocator
  block.reset();
}

TEST(CachingAllocator, ThreadSafe) {
  std::shared_ptr<CachingAllocator> allocator = CachingAllocator::create();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        int64_t bytes = 64 + (i * 37 + t) % 5000;
        std::shared_ptr<void> block = allocator->allocate(bytes);
        std::memset(block.get(), t, static_cast<size_t>(bytes));
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  CachingAllocatorStats stats = allocator->stats();
  EXPECT_EQ(stats.allocations, 8000);
  EXPECT_EQ(stats.liveBytes, 0);
  EXPECT_GT(stats.cacheHits, 0);
}

// ---- dot ---------------------------------------------------------------------

TEST(LibraryDot, HandValues) {
  float a[] = {1, 2, 3, 4, 5, 6};    // [2, 3]
  float b[] = {7, 8, 9, 10, 11, 12}; // [3, 2]
  float c[4] = {};
  ASSERT_TRUE(cpuDot({ElementType::F32, {2, 3}, a}, {ElementType::F32, {3, 2}, b},
                     {ElementType::F32, {2, 2}, c})
                  .ok());
  EXPECT_EQ(std::vector<float>(c, c + 4), (std::vector<float>{58, 64, 139, 154}));

  int8_t ia[] = {100, 100}; // [1, 2]
  int8_t ib[] = {2, 1};     // [2, 1]
  int8_t ic[1] = {};
  ASSERT_TRUE(cpuDot({ElementType::I8, {1, 2}, ia}, {ElementType::I8, {2, 1}, ib},
                     {ElementType::I8, {1, 1}, ic})
                  .ok());
  EXPECT_EQ(ic[0], static_cast<int8_t>(300 - 256)); // wraps

  float wrong[3] = {};
  absl::Status bad = cpuDot({ElementType::F32, {2, 3}, a}, {ElementType::F32, {3, 2}, b},
                            {ElementType::F32, {3, 1}, wrong});
  EXPECT_EQ(bad.code(), absl::StatusCode::kInternal);
}

/// Random operands of `type`, the runtime's dot, and the interpreter's dot
/// (f64 accumulation) compared within `tolerance` (relative to the sum of
/// |products|).
void checkDotAgainstInterpreter(ElementType type, std::vector<int64_t> lhsShape,
                                std::vector<int64_t> rhsShape, double tolerance) {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int> small(-8, 8);
  auto randomTensor = [&](const std::vector<int64_t> &shape) {
    HostTensor t(type, shape);
    for (int64_t i = 0; i < t.numElements(); ++i)
      t.setDouble(i, isFloat(type) ? small(rng) / 4.0 : small(rng) * 17.0);
    return t;
  };
  HostTensor lhs = randomTensor(lhsShape), rhs = randomTensor(rhsShape);
  std::vector<int64_t> resultShape = lhsShape;
  resultShape.back() = rhsShape.back();
  std::string text =
      strCat("func @f(%a: ", lhs.typeStr(), ", %b: ", rhs.typeStr(),
             ") -> (c: ", elementTypeName(type), "[", absl::StrJoin(resultShape, ", "),
             "]) {\n  %c = dot %a, %b\n  "
             "return %c\n}\n");
  absl::StatusOr<std::unique_ptr<Module>> module = parseModule(text, "dot.xs");
  ASSERT_TRUE(module.ok()) << module.status();
  ASSERT_TRUE(runShapeInference(*(*module)->functions().front()).ok());
  absl::StatusOr<std::vector<HostTensor>> expected =
      interpret(*(*module)->functions().front(), {lhs, rhs});
  ASSERT_TRUE(expected.ok()) << expected.status();

  Tensor a = toTensor(lhs), b = toTensor(rhs), c(type, resultShape);
  ASSERT_TRUE(cpuDot(a.view(), b.view(), c.view()).ok());
  HostTensor actual = toHostTensor(c.view());
  int64_t k = lhsShape.back();
  for (int64_t i = 0; i < actual.numElements(); ++i) {
    if (!isFloat(type)) {
      ASSERT_EQ(actual.ints()[i], (*expected)[0].ints()[i]) << elementTypeName(type) << " #" << i;
      continue;
    }
    double bound = tolerance * 4.0 * static_cast<double>(k) + 1e-12;
    ASSERT_NEAR(actual.floats()[i], (*expected)[0].floats()[i], bound)
        << elementTypeName(type) << " #" << i;
  }
}

TEST(LibraryDot, OddSizesEveryType) {
  // Sizes that cross the row (8), depth (128) and column (512) tiles.
  for (ElementType type : kAllElementTypes) {
    if (type == ElementType::I1)
      continue; // the IR has no i1 dot, so the interpreter cannot be the oracle
    SCOPED_TRACE(std::string(elementTypeName(type)));
    double tolerance = type == ElementType::F16    ? 1e-2
                       : type == ElementType::BF16 ? 1e-1
                       : type == ElementType::F32  ? 1e-5
                                                   : 1e-12;
    checkDotAgainstInterpreter(type, {13, 131}, {131, 517}, tolerance);
    checkDotAgainstInterpreter(type, {3, 1, 7}, {3, 7, 1}, tolerance);
    checkDotAgainstInterpreter(type, {2, 9, 0}, {2, 0, 5}, tolerance); // K = 0: zeros
  }
}

// ---- binding dims and checking inputs ---------------------------------------

/// @f(%a: f32[B, S], %b: f32[S], %c: f32[2*T + 1]) where B % 2 == 0.
HostPlan bindingPlan() {
  HostPlan plan;
  plan.function = "f";
  plan.symbols = {"B", "S", "T"};
  DimExpr b = DimExpr::symbol("B"), s = DimExpr::symbol("S"), t = DimExpr::symbol("T");
  plan.paramTypes = {TensorType(ElementType::F32, {b, s}), TensorType(ElementType::F32, {s}),
                     TensorType(ElementType::F32, {2 * t + 1})};
  EXPECT_TRUE(plan.constraints.addDivisible(b, 2).ok());
  const char *names[] = {"a", "b", "c"};
  for (int p = 0; p < 3; ++p) {
    HostBuffer buffer;
    buffer.name = names[p];
    buffer.type = plan.paramTypes[static_cast<size_t>(p)];
    buffer.kind = HostBuffer::Kind::Input;
    buffer.paramIndex = p;
    plan.buffers.push_back(buffer);
  }
  return plan;
}

std::string bindingError(const HostPlan &plan, std::vector<TensorView> inputs) {
  absl::StatusOr<DimBindings> dims = bindInputDims(plan, inputs);
  if (dims.ok())
    return "ok";
  EXPECT_EQ(dims.status().code(), absl::StatusCode::kInvalidArgument) << dims.status();
  return std::string(dims.status().message());
}

TEST(BindInputDims, BindsSymbolsAndLinearDims) {
  HostPlan plan = bindingPlan();
  float data[64] = {};
  absl::StatusOr<DimBindings> dims = bindInputDims(plan, {{ElementType::F32, {4, 3}, data},
                                                          {ElementType::F32, {3}, data},
                                                          {ElementType::F32, {7}, data}});
  ASSERT_TRUE(dims.ok()) << dims.status();
  EXPECT_EQ(dims->at("B"), 4);
  EXPECT_EQ(dims->at("S"), 3);
  EXPECT_EQ(dims->at("T"), 3);
  EXPECT_EQ(*symbolValues(plan, *dims), (std::vector<int64_t>{4, 3, 3, 0}));
}

TEST(BindInputDims, NamesTheInputsAndDims) {
  HostPlan plan = bindingPlan();
  float data[64] = {};
  TensorView c{ElementType::F32, {7}, data};
  EXPECT_EQ(
      bindingError(plan, {{ElementType::F32, {4, 3}, data}, {ElementType::F32, {4}, data}, c}),
      "inputs %a and %b must share S: %a has S = 3 (dim 1) but %b has 4 (dim 0)");
  EXPECT_EQ(bindingError(plan, {{ElementType::F32, {4, 3}, data}}), "@f takes 3 inputs but got 1");
  EXPECT_EQ(
      bindingError(plan, {{ElementType::F16, {4, 3}, data}, {ElementType::F32, {3}, data}, c}),
      "input %a is f16[4, 3] but the parameter type is f32[B, S]");
  EXPECT_EQ(
      bindingError(plan, {{ElementType::F32, {4, 3, 1}, data}, {ElementType::F32, {3}, data}, c}),
      "input %a has shape f32[4, 3, 1] of rank 3 but the parameter type f32[B, S] has "
      "rank 2");
  EXPECT_EQ(bindingError(plan, {{ElementType::F32, {4, 3}, data},
                                {ElementType::F32, {3}, data},
                                {ElementType::F32, {6}, data}}),
            "input %c has shape f32[6] but dim 0 must be 2*T + 1 for some T >= 0");
  std::string odd =
      bindingError(plan, {{ElementType::F32, {5, 3}, data}, {ElementType::F32, {3}, data}, c});
  EXPECT_NE(odd.find("violate a shape constraint"), std::string::npos) << odd;
  EXPECT_NE(odd.find("B"), std::string::npos) << odd;
  EXPECT_NE(odd.find("%a: f32[5, 3]"), std::string::npos) << odd;
  EXPECT_EQ(
      bindingError(plan, {{ElementType::F32, {4, 3}, nullptr}, {ElementType::F32, {3}, data}, c}),
      "input %a (f32[4, 3]) has no data");
}

TEST(BindInputDims, EqualSymbolsAndConstants) {
  HostPlan plan;
  plan.function = "g";
  DimExpr s = DimExpr::symbol("S"), t = DimExpr::symbol("T");
  plan.constraints.noteSymbol("S");
  plan.constraints.noteSymbol("T");
  ASSERT_TRUE(plan.constraints.addEqual(s, t).ok());
  plan.paramTypes = {TensorType(ElementType::F32, {s, 768}), TensorType(ElementType::F32, {t})};
  for (int p = 0; p < 2; ++p) {
    HostBuffer buffer;
    buffer.name = p == 0 ? "x" : "y";
    buffer.kind = HostBuffer::Kind::Input;
    buffer.paramIndex = p;
    plan.buffers.push_back(buffer);
  }
  float data[8] = {};
  EXPECT_EQ(bindingError(plan, {{ElementType::F32, {2, 768}, data}, {ElementType::F32, {3}, data}}),
            "inputs %x and %y must share S (S == T): %x has S = 2 (dim 0) but %y has T = 3 "
            "(dim 0)");
  EXPECT_EQ(bindingError(plan, {{ElementType::F32, {2, 767}, data}, {ElementType::F32, {2}, data}}),
            "input %x has shape f32[2, 767] but dim 1 must be 768 (parameter type f32[S, 768])");
  EXPECT_EQ(bindingError(plan, {{ElementType::F32, {2, 768}, data}, {ElementType::F32, {2}, data}}),
            "ok");
}

// ---- the step loop on hand-built plans ---------------------------------------

/// @mm(%x: f32[B, M, K], %w: f32[B, K, N]) -> (y: f32[B, M, N], v: f32[B*M, N])
/// as two library dots: y straight into an output, t into the arena and
/// returned through an alias v of t (so the result is copied out).
CompiledProgram libraryProgram() {
  HostPlan plan;
  plan.function = "mm";
  DimExpr b = DimExpr::symbol("B"), m = DimExpr::symbol("M"), k = DimExpr::symbol("K"),
          n = DimExpr::symbol("N");
  plan.symbols = {"B", "M", "K", "N"};
  plan.paramTypes = {TensorType(ElementType::F32, {b, m, k}),
                     TensorType(ElementType::F32, {b, k, n})};
  auto add = [&](std::string name, TensorType type, HostBuffer::Kind kind) {
    HostBuffer buffer;
    buffer.name = std::move(name);
    buffer.type = std::move(type);
    buffer.kind = kind;
    plan.buffers.push_back(buffer);
    return static_cast<int>(plan.buffers.size() - 1);
  };
  int x = add("x", plan.paramTypes[0], HostBuffer::Kind::Input);
  int w = add("w", plan.paramTypes[1], HostBuffer::Kind::Input);
  plan.buffers[static_cast<size_t>(w)].paramIndex = 1;
  plan.buffers[static_cast<size_t>(x)].paramIndex = 0;
  int y = add("y", TensorType(ElementType::F32, {b, m, n}), HostBuffer::Kind::Output);
  plan.buffers[static_cast<size_t>(y)].resultIndex = 0;
  int t = add("t", TensorType(ElementType::F32, {b, m, n}), HostBuffer::Kind::Temporary);
  plan.buffers[static_cast<size_t>(t)].slot = 0;
  plan.numSlots = 1;
  int v = add("v", TensorType(ElementType::F32, {b * m, n}), HostBuffer::Kind::Alias);
  plan.buffers[static_cast<size_t>(v)].aliasOf = t;
  HostStep dotY, dotT, alias;
  dotY.kind = dotT.kind = HostStep::Kind::Library;
  dotY.buffers = {x, w, y};
  dotT.buffers = {x, w, t};
  alias.kind = HostStep::Kind::Alias;
  alias.buffers = {t, v};
  plan.steps = {dotY, dotT, alias};
  plan.outputs = {y, v};
  CompiledProgram program;
  program.host = std::move(plan);
  return program;
}

std::vector<float> referenceMatmul(const std::vector<float> &x, const std::vector<float> &w,
                                   int64_t batches, int64_t m, int64_t k, int64_t n) {
  std::vector<float> y(static_cast<size_t>(batches * m * n), 0.0f);
  for (int64_t bi = 0; bi < batches; ++bi)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t p = 0; p < k; ++p)
          sum += static_cast<double>(x[static_cast<size_t>((bi * m + i) * k + p)]) *
                 w[static_cast<size_t>((bi * k + p) * n + j)];
        y[static_cast<size_t>((bi * m + i) * n + j)] = static_cast<float>(sum);
      }
  return y;
}

void runLibraryPlan(const Executable &executable, int64_t batches, int seed) {
  int64_t m = 5 + seed, k = 7, n = 3 + seed;
  std::mt19937 rng(static_cast<unsigned>(seed));
  std::uniform_int_distribution<int> values(-4, 4);
  std::vector<float> x(static_cast<size_t>(batches * m * k)),
      w(static_cast<size_t>(batches * k * n));
  for (float &e : x)
    e = static_cast<float>(values(rng));
  for (float &e : w)
    e = static_cast<float>(values(rng));
  RunStats stats;
  absl::StatusOr<std::vector<Tensor>> outputs =
      executable.run({{ElementType::F32, {batches, m, k}, x.data()},
                      {ElementType::F32, {batches, k, n}, w.data()}},
                     &stats);
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  ASSERT_EQ(outputs->size(), 2u);
  std::vector<float> expected = referenceMatmul(x, w, batches, m, k, n);
  EXPECT_EQ((*outputs)[0].shape(), (std::vector<int64_t>{batches, m, n}));
  EXPECT_EQ((*outputs)[1].shape(), (std::vector<int64_t>{batches * m, n}));
  for (const Tensor &output : *outputs) {
    const float *data = static_cast<const float *>(output.data());
    ASSERT_EQ(std::vector<float>(data, data + expected.size()), expected);
  }
  EXPECT_EQ(stats.dims.at("M"), m);
  ASSERT_EQ(stats.steps.size(), 2u); // the alias costs nothing and is not a step
  EXPECT_EQ(stats.steps[0].kernel, "dot");
  EXPECT_GE(stats.steps[0].seconds, 0.0);
}

TEST(CpuExecutable, RunsLibraryStepsArenaAndAliases) {
  std::unique_ptr<Device> device = createCpuDevice({.threads = 2});
  EXPECT_EQ(device->name(), "cpu");
  absl::StatusOr<std::shared_ptr<Executable>> executable = device->load(libraryProgram());
  ASSERT_TRUE(executable.ok()) << executable.status();
  runLibraryPlan(**executable, 3, 0);
  runLibraryPlan(**executable, 1, 2); // new dims, no reload
  absl::StatusOr<std::vector<Tensor>> bad = (*executable)->run({});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(CpuExecutable, OneExecutableFromFourThreads) {
  std::unique_ptr<Device> device = createCpuDevice({});
  absl::StatusOr<std::shared_ptr<Executable>> executable = device->load(libraryProgram());
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i)
        runLibraryPlan(**executable, 1 + (t + i) % 3, t);
    });
  for (std::thread &thread : threads)
    thread.join();
}

TEST(CpuExecutable, BadObjectIsAnInternalErrorNamingTheKernel) {
  CompiledProgram program = libraryProgram();
  HostStep launch;
  launch.kind = HostStep::Kind::Launch;
  launch.kernel = "fused_add_7";
  HostLaunchVariant variant;
  variant.symbol = "fused_add_7_v0";
  variant.grid = 1;
  launch.variants = {variant};
  launch.buffers = {0, 2};
  program.host.steps.push_back(launch);
  program.objectFormat = "x86_64-elf";
  program.objects = {"not an object file"};
  std::unique_ptr<Device> device = createCpuDevice({});
  absl::StatusOr<std::shared_ptr<Executable>> executable = device->load(program);
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), absl::StatusCode::kInternal);
  EXPECT_NE(executable.status().message().find("fused_add_7"), std::string::npos)
      << executable.status();
}

} // namespace
} // namespace xs
