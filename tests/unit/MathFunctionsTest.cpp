// Accuracy and special-case tests for backends/common/MathFunctions.
//
// Each math function is wrapped in a kernel `void k(T *out, T *x, T *y, i64 n)`
// that applies it element-wise in a loop, optimized at O3 for the host CPU and
// run through LLJIT. The kernel runs over ~1e6 sample points (uniform ranges,
// log-uniform magnitudes over the whole type, extremes, subnormals, signed
// zeros, infinities, NaN) and the max error in ULPs of the result type is
// measured against the long double libm function. The bounds asserted here
// are the ones documented in docs/math.md.

#include "backends/common/MathFunctions.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <regex>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/JitCall.h"
#include "runtime/cpu/DenormalFlush.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "gtest/gtest.h"

namespace xs::math {
namespace {

using Emit1 = llvm::Value *(*)(llvm::IRBuilder<> &, llvm::Value *);
using Emit2 = llvm::Value *(*)(llvm::IRBuilder<> &, llvm::Value *, llvm::Value *);
using KernelFn = void (*)(void *, const void *, const void *, int64_t);

// One JIT-compiled element-wise kernel and its optimized IR.
struct Kernel {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  KernelFn fn = nullptr;
  std::string optimizedIR;
};

void initializeNativeTargetOnce() {
  static const bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
}

// Builds `kernel(out, x, y, n)`: out[i] = f(x[i]) or f(x[i], y[i]).
std::unique_ptr<llvm::Module> buildKernelModule(llvm::LLVMContext &ctx, bool isF32, Emit1 emit1,
                                                Emit2 emit2) {
  auto module = std::make_unique<llvm::Module>("math_kernel", ctx);
  llvm::Type *elem = isF32 ? llvm::Type::getFloatTy(ctx) : llvm::Type::getDoubleTy(ctx);
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  auto *fnType = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, ptr, ptr, i64}, false);
  auto *fn =
      llvm::Function::Create(fnType, llvm::Function::ExternalLinkage, "kernel", module.get());
  for (unsigned i = 0; i < 3; ++i)
    fn->addParamAttr(i, llvm::Attribute::NoAlias);
  auto *entry = llvm::BasicBlock::Create(ctx, "entry", fn);
  auto *loop = llvm::BasicBlock::Create(ctx, "loop", fn);
  auto *exit = llvm::BasicBlock::Create(ctx, "exit", fn);
  llvm::IRBuilder<> b(entry);
  llvm::Value *n = fn->getArg(3);
  b.CreateCondBr(b.CreateICmpSGT(n, b.getInt64(0)), loop, exit);
  b.SetInsertPoint(loop);
  llvm::PHINode *i = b.CreatePHI(i64, 2);
  i->addIncoming(b.getInt64(0), entry);
  llvm::Value *x = b.CreateLoad(elem, b.CreateInBoundsGEP(elem, fn->getArg(1), i));
  llvm::Value *result;
  if (emit1) {
    result = emit1(b, x);
  } else {
    llvm::Value *y = b.CreateLoad(elem, b.CreateInBoundsGEP(elem, fn->getArg(2), i));
    result = emit2(b, x, y);
  }
  b.CreateStore(result, b.CreateInBoundsGEP(elem, fn->getArg(0), i));
  llvm::Value *next = b.CreateAdd(i, b.getInt64(1));
  i->addIncoming(next, loop);
  b.CreateCondBr(b.CreateICmpSLT(next, n), loop, exit);
  b.SetInsertPoint(exit);
  b.CreateRetVoid();
  return module;
}

Kernel compileKernel(bool isF32, Emit1 emit1, Emit2 emit2) {
  initializeNativeTargetOnce();
  Kernel kernel;
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  EXPECT_TRUE(static_cast<bool>(jtmb)) << llvm::toString(jtmb.takeError());
  if (!jtmb)
    return kernel;
  jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto tm = jtmb->createTargetMachine();
  EXPECT_TRUE(static_cast<bool>(tm)) << llvm::toString(tm.takeError());
  if (!tm)
    return kernel;

  auto ctx = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module = buildKernelModule(*ctx, isF32, emit1, emit2);
  module->setDataLayout((*tm)->createDataLayout());
  module->setTargetTriple((*tm)->getTargetTriple().str());
  std::string verifyErrors;
  llvm::raw_string_ostream verifyStream(verifyErrors);
  EXPECT_FALSE(llvm::verifyModule(*module, &verifyStream)) << verifyErrors;

  // The O3 pipeline with the host's cost model, as the CPU backend uses.
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder passBuilder(tm->get());
  passBuilder.registerModuleAnalyses(mam);
  passBuilder.registerCGSCCAnalyses(cgam);
  passBuilder.registerFunctionAnalyses(fam);
  passBuilder.registerLoopAnalyses(lam);
  passBuilder.crossRegisterProxies(lam, fam, cgam, mam);
  passBuilder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(*module, mam);
  llvm::raw_string_ostream irStream(kernel.optimizedIR);
  module->print(irStream, nullptr);

  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
  EXPECT_TRUE(static_cast<bool>(jit)) << llvm::toString(jit.takeError());
  if (!jit)
    return kernel;
  kernel.jit = std::move(*jit);
  llvm::Error added =
      kernel.jit->addIRModule(llvm::orc::ThreadSafeModule(std::move(module), std::move(ctx)));
  EXPECT_FALSE(static_cast<bool>(added)) << llvm::toString(std::move(added));
  auto symbol = kernel.jit->lookup("kernel");
  EXPECT_TRUE(static_cast<bool>(symbol)) << llvm::toString(symbol.takeError());
  if (symbol)
    kernel.fn = symbol->toPtr<KernelFn>();
  return kernel;
}

// Distance from `value` to the exact `reference` in ULPs of T at the
// reference. Infinities count as 2^(emax+1), one ULP beyond the largest
// finite value, so a result that overflows an ULP early costs about an ULP.
template <typename T> long double ulpError(T value, long double reference) {
  using Limits = std::numeric_limits<T>;
  if (std::isnan(reference) || std::isnan(value))
    return std::isnan(reference) && std::isnan(value)
               ? 0.0L
               : std::numeric_limits<long double>::infinity();
  long double beyondMax = std::ldexp(1.0L, Limits::max_exponent);
  // References beyond the type's range count as that first value too.
  auto widen = [&](long double v) {
    return std::fabs(v) >= beyondMax ? std::copysign(beyondMax, v) : v;
  };
  long double v = widen(value);
  long double r = widen(reference);
  if (v == r)
    return 0.0L;
  int exponent = 0;
  std::frexp(std::min(std::fabs(r), static_cast<long double>(Limits::max())), &exponent);
  exponent = std::max(exponent, Limits::min_exponent);
  long double ulp = std::ldexp(1.0L, exponent - Limits::digits);
  return std::fabs(v - r) / ulp;
}

// Sample inputs for one operand.
template <typename T> class Sampler {
public:
  explicit Sampler(uint64_t seed) : rng(seed) {}

  void uniform(std::vector<T> &out, size_t count, double lo, double hi) {
    std::uniform_real_distribution<double> dist(lo, hi);
    for (size_t i = 0; i < count; ++i)
      out.push_back(static_cast<T>(dist(rng)));
  }
  // Magnitudes 2^e with e uniform in [minExp, maxExp], either sign if
  // `bothSigns`.
  void logUniform(std::vector<T> &out, size_t count, int minExp, int maxExp, bool bothSigns) {
    std::uniform_real_distribution<long double> exponent(minExp, maxExp);
    std::bernoulli_distribution negative(0.5);
    for (size_t i = 0; i < count; ++i) {
      T v = static_cast<T>(std::exp2(exponent(rng)));
      out.push_back(bothSigns && negative(rng) ? -v : v);
    }
  }
  void subnormals(std::vector<T> &out, size_t count) {
    using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    Bits maxMantissa = (Bits(1) << (std::numeric_limits<T>::digits - 1)) - 1;
    std::uniform_int_distribution<Bits> dist(1, maxMantissa);
    for (size_t i = 0; i < count; ++i) {
      Bits bits = dist(rng);
      T v;
      std::memcpy(&v, &bits, sizeof v);
      out.push_back(i % 2 ? -v : v);
    }
  }
  static void extremes(std::vector<T> &out) {
    using Limits = std::numeric_limits<T>;
    for (T v : {Limits::max(), Limits::min(), Limits::denorm_min(), Limits::epsilon(), T(0),
                Limits::infinity(), T(1), T(0.5), T(2)}) {
      out.push_back(v);
      out.push_back(-v);
    }
    out.push_back(Limits::quiet_NaN());
  }
  std::mt19937_64 &engine() { return rng; }

private:
  std::mt19937_64 rng;
};

struct Measurement {
  long double maxUlp = 0;
  size_t worst = 0;
  size_t nanMismatches = 0;
};

template <typename T>
XSTITCH_CALLS_JIT_CODE std::vector<T> runKernel(const Kernel &kernel, const std::vector<T> &x,
                                                const std::vector<T> &y) {
  std::vector<T> out(x.size());
  kernel.fn(out.data(), x.data(), y.empty() ? x.data() : y.data(), static_cast<int64_t>(x.size()));
  return out;
}

bool vectorized(const Kernel &kernel, bool isF32) {
  return std::regex_search(kernel.optimizedIR,
                           std::regex(isF32 ? "<[0-9]+ x float>" : "<[0-9]+ x double>"));
}

// Measures kernel(x[, y]) against reference over the samples.
template <typename T>
Measurement measure(const Kernel &kernel, const std::vector<T> &x, const std::vector<T> &y,
                    const std::function<long double(long double, long double)> &reference) {
  std::vector<T> out = runKernel(kernel, x, y);
  Measurement m;
  for (size_t i = 0; i < x.size(); ++i) {
    long double ref = reference(x[i], y.empty() ? 0.0L : y[i]);
    long double err = ulpError<T>(out[i], ref);
    if (std::isinf(err))
      ++m.nanMismatches;
    if (err > m.maxUlp || i == 0) {
      m.maxUlp = err;
      m.worst = i;
    }
  }
  return m;
}

// ---------------------------------------------------------------------------
// Unary functions: samples, bounds and the accuracy test.

struct UnaryCase {
  const char *name;
  Emit1 emit;
  long double (*reference)(long double);
  double boundF32, boundF64; // documented max ULP error
  // Uniform ranges {lo, hi} sampled in addition to the common samples.
  std::vector<std::pair<double, double>> ranges;
  // Largest |x| sampled (the domain where the bound is claimed).
  double maxMagnitudeF32, maxMagnitudeF64;
};

long double sigmoidRef(long double x) { return 1.0L / (1.0L + expl(-x)); }
long double rsqrtRef(long double x) { return 1.0L / sqrtl(x); }
long double expRef(long double x) { return expl(x); }
long double logRef(long double x) { return logl(x); }
long double log1pRef(long double x) { return log1pl(x); }
long double tanhRef(long double x) { return tanhl(x); }
long double erfRef(long double x) { return erfl(x); }
long double sinRef(long double x) { return sinl(x); }
long double cosRef(long double x) { return cosl(x); }

constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<UnaryCase> unaryCases() {
  return {
      {"exp", emitExp, expRef, 1.25, 1.0, {{-1, 1}, {-20, 20}, {-750, 720}}, kInf, kInf},
      {"log", emitLog, logRef, 1.0, 1.0, {{0, 2}, {0.5, 1.5}, {-1, 100}}, kInf, kInf},
      {"log1p", emitLog1p, log1pRef, 1.5, 1.5, {{-1, 1}, {-1e-3, 1e-3}, {-1, 100}}, kInf, kInf},
      {"tanh", emitTanh, tanhRef, 2.5, 2.0, {{-1, 1}, {-10, 10}, {-30, 30}}, kInf, kInf},
      {"sigmoid",
       emitSigmoid,
       sigmoidRef,
       2.25,
       2.25,
       {{-1, 1}, {-20, 20}, {-800, 800}},
       kInf,
       kInf},
      {"erf", emitErf, erfRef, 5.5, 1.25, {{-1, 1}, {-3, 3}, {-7, 7}}, kInf, kInf},
      {"sin", emitSin, sinRef, 1.75, 1.75, {{-3.15, 3.15}, {-100, 100}, {-1e5, 1e5}}, 1e5, 0x1p29},
      {"cos", emitCos, cosRef, 1.75, 1.75, {{-3.15, 3.15}, {-100, 100}, {-1e5, 1e5}}, 1e5, 0x1p29},
      {"rsqrt", emitRsqrt, rsqrtRef, 1.5, 1.5, {{0, 4}, {0, 1e6}}, kInf, kInf},
  };
}

constexpr size_t kSamplesPerRange = 200000;

template <typename T> std::vector<T> unarySamples(const UnaryCase &c, double maxMagnitude) {
  using Limits = std::numeric_limits<T>;
  Sampler<T> sampler(0x5eed0000 + sizeof(T));
  std::vector<T> x;
  for (auto [lo, hi] : c.ranges)
    sampler.uniform(x, kSamplesPerRange, lo, hi);
  int maxExp =
      std::isinf(maxMagnitude) ? Limits::max_exponent : static_cast<int>(std::log2(maxMagnitude));
  sampler.logUniform(x, kSamplesPerRange, Limits::min_exponent - Limits::digits, maxExp, true);
  sampler.subnormals(x, 1000);
  Sampler<T>::extremes(x);
  std::erase_if(x, [&](T v) { return std::fabs(v) > maxMagnitude; });
  return x;
}

template <typename T> void checkUnaryAccuracy(const UnaryCase &c) {
  constexpr bool isF32 = sizeof(T) == 4;
  SCOPED_TRACE(std::string(c.name) + (isF32 ? " f32" : " f64"));
  Kernel kernel = compileKernel(isF32, c.emit, nullptr);
  ASSERT_NE(kernel.fn, nullptr);
  if (isF32)
    EXPECT_TRUE(vectorized(kernel, isF32)) << kernel.optimizedIR;
  std::vector<T> x = unarySamples<T>(c, isF32 ? c.maxMagnitudeF32 : c.maxMagnitudeF64);
  Measurement m =
      measure<T>(kernel, x, {}, [&](long double a, long double) { return c.reference(a); });
  std::printf("[ math ] %-8s %s max %.3Lf ulp at x=%.17g (%zu samples)\n", c.name,
              isF32 ? "f32" : "f64", m.maxUlp, static_cast<double>(x[m.worst]), x.size());
  EXPECT_EQ(m.nanMismatches, 0u);
  EXPECT_LE(m.maxUlp, isF32 ? c.boundF32 : c.boundF64)
      << "worst x = " << static_cast<double>(x[m.worst]);
}

class UnaryAccuracy : public ::testing::TestWithParam<UnaryCase> {};

TEST_P(UnaryAccuracy, F32) { checkUnaryAccuracy<float>(GetParam()); }
TEST_P(UnaryAccuracy, F64) { checkUnaryAccuracy<double>(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Math, UnaryAccuracy, ::testing::ValuesIn(unaryCases()),
                         [](const ::testing::TestParamInfo<UnaryCase> &info) {
                           return std::string(info.param.name);
                         });

// ---------------------------------------------------------------------------
// pow: pairs covering results over the whole range, negative bases with
// integer exponents, bases near 1 with large exponents.

template <typename T> void powSamples(std::vector<T> &x, std::vector<T> &y) {
  using Limits = std::numeric_limits<T>;
  Sampler<T> sx(11), sy(12);
  auto addPairs = [&](auto makeX, auto makeY, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      x.push_back(makeX());
      y.push_back(makeY());
    }
  };
  auto uniform = [](Sampler<T> &s, double lo, double hi) {
    return [&s, lo, hi] {
      return static_cast<T>(std::uniform_real_distribution<double>(lo, hi)(s.engine()));
    };
  };
  auto logUniform = [](Sampler<T> &s, int lo, int hi) {
    return [&s, lo, hi] {
      return static_cast<T>(std::exp2(std::uniform_real_distribution<double>(lo, hi)(s.engine())));
    };
  };
  int maxExp = Limits::max_exponent;
  addPairs(uniform(sx, 0, 4), uniform(sy, -40, 40), kSamplesPerRange);
  addPairs(logUniform(sx, -maxExp, maxExp), uniform(sy, -2, 2), kSamplesPerRange);
  addPairs(uniform(sx, 0.99, 1.01), uniform(sy, -1e5, 1e5), kSamplesPerRange);
  // Negative bases with integer exponents (both parities).
  addPairs(
      uniform(sx, -4, 0), [&] { return std::round(uniform(sy, -60, 60)()); }, kSamplesPerRange);
  // Negative bases with non-integer exponents: NaN.
  addPairs(
      uniform(sx, -4, -0.1), [] { return T(0.5); }, 1000);
}

long double powRef(long double x, long double y) { return powl(x, y); }

template <typename T> void checkPowAccuracy(double bound) {
  constexpr bool isF32 = sizeof(T) == 4;
  SCOPED_TRACE(isF32 ? "pow f32" : "pow f64");
  Kernel kernel = compileKernel(isF32, nullptr, emitPow);
  ASSERT_NE(kernel.fn, nullptr);
  if (isF32)
    EXPECT_TRUE(vectorized(kernel, isF32)) << kernel.optimizedIR;
  std::vector<T> x, y;
  powSamples(x, y);
  Measurement m = measure<T>(kernel, x, y, powRef);
  std::printf("[ math ] pow      %s max %.3Lf ulp at x=%.17g y=%.17g (%zu "
              "samples)\n",
              isF32 ? "f32" : "f64", m.maxUlp, static_cast<double>(x[m.worst]),
              static_cast<double>(y[m.worst]), x.size());
  EXPECT_EQ(m.nanMismatches, 0u);
  EXPECT_LE(m.maxUlp, bound);
}

TEST(PowAccuracy, F32) { checkPowAccuracy<float>(0.85); }
TEST(PowAccuracy, F64) { checkPowAccuracy<double>(1.0); }

// ---------------------------------------------------------------------------
// Exact special cases (IEEE 754 / C99 Annex F conventions).

struct SpecialCase {
  double x, y, expected;
};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <typename T>
void checkSpecialCases(const char *name, Emit1 emit1, Emit2 emit2,
                       const std::vector<SpecialCase> &cases) {
  constexpr bool isF32 = sizeof(T) == 4;
  SCOPED_TRACE(std::string(name) + (isF32 ? " f32" : " f64"));
  Kernel kernel = compileKernel(isF32, emit1, emit2);
  ASSERT_NE(kernel.fn, nullptr);
  std::vector<T> x, y;
  for (const SpecialCase &c : cases) {
    x.push_back(static_cast<T>(c.x));
    y.push_back(static_cast<T>(c.y));
  }
  std::vector<T> out = runKernel(kernel, x, y);
  for (size_t i = 0; i < cases.size(); ++i) {
    T expected = static_cast<T>(cases[i].expected);
    bool same = std::isnan(expected)
                    ? std::isnan(out[i])
                    : out[i] == expected && std::signbit(out[i]) == std::signbit(expected);
    EXPECT_TRUE(same) << name << "(" << cases[i].x << ", " << cases[i].y << ") = " << out[i]
                      << ", expected " << expected;
  }
}

template <typename T> void checkAllSpecialCases() {
  const double inf = kInf, nan = kNaN, tiny = 1e-30;
  checkSpecialCases<T>("exp", emitExp, nullptr,
                       {{nan, 0, nan},
                        {inf, 0, inf},
                        {-inf, 0, 0},
                        {0, 0, 1},
                        {-0.0, 0, 1},
                        {1000, 0, inf},
                        {-1000, 0, 0}});
  checkSpecialCases<T>("log", emitLog, nullptr,
                       {{0, 0, -inf},
                        {-0.0, 0, -inf},
                        {-1, 0, nan},
                        {-inf, 0, nan},
                        {inf, 0, inf},
                        {1, 0, 0},
                        {nan, 0, nan}});
  checkSpecialCases<T>("log1p", emitLog1p, nullptr,
                       {{-1, 0, -inf},
                        {-2, 0, nan},
                        {0, 0, 0},
                        {-0.0, 0, -0.0},
                        {inf, 0, inf},
                        {-inf, 0, nan},
                        {nan, 0, nan},
                        {tiny, 0, tiny},
                        {-tiny, 0, -tiny}});
  checkSpecialCases<T>("tanh", emitTanh, nullptr,
                       {{0, 0, 0},
                        {-0.0, 0, -0.0},
                        {inf, 0, 1},
                        {-inf, 0, -1},
                        {50, 0, 1},
                        {-50, 0, -1},
                        {tiny, 0, tiny},
                        {nan, 0, nan}});
  checkSpecialCases<T>("sigmoid", emitSigmoid, nullptr,
                       {{0, 0, 0.5},
                        {-0.0, 0, 0.5},
                        {inf, 0, 1},
                        {-inf, 0, 0},
                        {1000, 0, 1},
                        {-1000, 0, 0},
                        {nan, 0, nan}});
  checkSpecialCases<T>("erf", emitErf, nullptr,
                       {{0, 0, 0},
                        {-0.0, 0, -0.0},
                        {inf, 0, 1},
                        {-inf, 0, -1},
                        {10, 0, 1},
                        {-10, 0, -1},
                        {nan, 0, nan}});
  checkSpecialCases<T>(
      "sin", emitSin, nullptr,
      {{0, 0, 0}, {-0.0, 0, -0.0}, {tiny, 0, tiny}, {inf, 0, nan}, {-inf, 0, nan}, {nan, 0, nan}});
  checkSpecialCases<T>("cos", emitCos, nullptr,
                       {{0, 0, 1}, {-0.0, 0, 1}, {inf, 0, nan}, {-inf, 0, nan}, {nan, 0, nan}});
  checkSpecialCases<T>("rsqrt", emitRsqrt, nullptr,
                       {{0, 0, inf},
                        {-0.0, 0, -inf},
                        {-1, 0, nan},
                        {inf, 0, 0},
                        {4, 0, 0.5},
                        {0.25, 0, 2},
                        {nan, 0, nan}});
  checkSpecialCases<T>(
      "pow", nullptr, emitPow,
      {{nan, 0, 1},      {nan, -0.0, 1},   {1, nan, 1},    {1, inf, 1},      {-1, inf, 1},
       {-1, -inf, 1},    {-2, 3, -8},      {-2, 2, 4},     {-2, 0.5, nan},   {0, 3, 0},
       {-0.0, 3, -0.0},  {-0.0, 2, 0},     {-0.0, 0.5, 0}, {0, -3, inf},     {-0.0, -3, -inf},
       {-0.0, -2, inf},  {0, -inf, inf},   {0, inf, 0},    {2, inf, inf},    {0.5, inf, 0},
       {2, -inf, 0},     {0.5, -inf, inf}, {-2, inf, inf}, {-0.5, inf, 0},   {inf, 2, inf},
       {inf, -2, 0},     {-inf, 3, -inf},  {-inf, 2, inf}, {-inf, -3, -0.0}, {-inf, -2, 0},
       {-inf, 0.5, inf}, {-inf, -0.5, 0},  {nan, 1, nan},  {2, nan, nan},    {2, 10, 1024},
       {4, 0.5, 2},      {10, 1e6, inf},   {10, -1e6, 0},  {-10, 1e6, inf},  {-10, -1e6, 0}});
}

// Beyond the range where the sin/cos bound holds the results stay finite
// values in [-1, 1] (the reduction loses accuracy, not the range).
template <typename T> void checkTrigBeyondRange(Emit1 emit, double from) {
  constexpr bool isF32 = sizeof(T) == 4;
  Kernel kernel = compileKernel(isF32, emit, nullptr);
  ASSERT_NE(kernel.fn, nullptr);
  std::vector<T> x;
  Sampler<T> sampler(99);
  sampler.logUniform(x, 100000, static_cast<int>(std::log2(from)) + 1,
                     std::numeric_limits<T>::max_exponent, true);
  x.push_back(std::numeric_limits<T>::max());
  x.push_back(-std::numeric_limits<T>::max());
  std::vector<T> out = runKernel(kernel, x, {});
  for (size_t i = 0; i < x.size(); ++i)
    ASSERT_TRUE(std::fabs(out[i]) <= T(1)) << "x = " << x[i] << " -> " << out[i];
}

TEST(MathTrigBeyondRange, F32) {
  checkTrigBeyondRange<float>(emitSin, 1e5);
  checkTrigBeyondRange<float>(emitCos, 1e5);
}
TEST(MathTrigBeyondRange, F64) {
  checkTrigBeyondRange<double>(emitSin, 0x1p29);
  checkTrigBeyondRange<double>(emitCos, 0x1p29);
}

// exp for x <= 0 where subnormals flush, run as kernels run (FTZ and DAZ
// set): where e^x is normal, the same value as exp (same reduction and
// polynomial, one exact scaling instead of two); from the clamp down, 0 (the
// flush of the scaled result: no select makes it so); NaN stays NaN. Where
// e^x is subnormal both give 0, or at most the smallest normal where exp
// rounds twice (2^(k/2), then 2^(k - k/2)) and the flushed form once.
template <typename T> void checkExpNonPositiveFlushed() {
  using Limits = std::numeric_limits<T>;
  bool isF32 = std::is_same_v<T, float>;
  T lowest = isF32 ? T(-87.5) : T(-708.5);
  std::vector<T> x = {T(0),
                      T(-0.0),
                      -Limits::infinity(),
                      Limits::quiet_NaN(),
                      lowest,
                      std::nextafter(lowest, T(0)),
                      std::nextafter(lowest, -Limits::infinity()),
                      -Limits::max()};
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> wide(isF32 ? -110.0 : -760.0, 0.0);
  std::uniform_real_distribution<double> near(-1.0, 0.0);
  for (int i = 0; i < 200000; ++i) {
    x.push_back(static_cast<T>(wide(rng)));
    x.push_back(static_cast<T>(near(rng)));
  }
  Kernel fast = compileKernel(
      isF32, [](llvm::IRBuilder<> &b, llvm::Value *v) { return emitExpNonPositiveFlushed(b, v); },
      nullptr);
  Kernel exact = compileKernel(isF32, emitExp, nullptr);
  ASSERT_TRUE(fast.fn && exact.fn);
  std::vector<T> got, want;
  {
    ScopedDenormalFlush flush(true);
    got = runKernel(fast, x, {});
    want = runKernel(exact, x, {});
  }
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i])) {
      ASSERT_TRUE(std::isnan(got[i])) << "x = " << x[i];
    } else if (x[i] <= lowest) {
      ASSERT_EQ(got[i], T(0)) << "x = " << x[i];
      ASSERT_EQ(want[i], T(0)) << "x = " << x[i];
    } else if (want[i] < Limits::min()) {
      ASSERT_EQ(want[i], T(0)) << "x = " << x[i];
      ASSERT_TRUE(got[i] == T(0) || got[i] == Limits::min()) << "x = " << x[i];
    } else {
      ASSERT_EQ(got[i], want[i]) << "x = " << x[i];
    }
  }
}

TEST(MathExpNonPositiveFlushed, F32) { checkExpNonPositiveFlushed<float>(); }

// For results rounded to f16 or bf16 (ExpUse): within the relative error
// docs/math.md states of e^x where the result is normal, 0 below the
// flushing bound, NaN for NaN, 1 at zero.
void checkExpToSixteenBits(ExpUse use, double bound) {
  Emit1 emit = use == ExpUse::ToF16 ? Emit1([](llvm::IRBuilder<> &b, llvm::Value *v) {
    return emitExpNonPositiveFlushed(b, v, ExpUse::ToF16);
  })
                                    : Emit1([](llvm::IRBuilder<> &b, llvm::Value *v) {
                                        return emitExpNonPositiveFlushed(b, v, ExpUse::ToBF16);
                                      });
  Kernel kernel = compileKernel(/*isF32=*/true, emit, nullptr);
  ASSERT_TRUE(kernel.fn);
  std::vector<float> x = {0.0f,
                          -0.0f,
                          -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN(),
                          -87.5f,
                          -100.0f};
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> wide(-87.0, 0.0), near(-1.0, 0.0);
  for (int i = 0; i < 200000; ++i) {
    x.push_back(static_cast<float>(wide(rng)));
    x.push_back(static_cast<float>(near(rng)));
  }
  std::vector<float> got;
  {
    // As kernels run: from the clamp down the flush makes the result 0.
    ScopedDenormalFlush flush(true);
    got = runKernel(kernel, x, {});
  }
  double worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i])) {
      ASSERT_TRUE(std::isnan(got[i]));
      continue;
    }
    if (x[i] < -87.5f) {
      ASSERT_EQ(got[i], 0.0f) << "x = " << x[i];
      continue;
    }
    double want = std::exp(static_cast<double>(x[i]));
    if (want < std::numeric_limits<float>::min())
      continue;
    worst = std::max(worst, std::fabs(got[i] / want - 1));
  }
  EXPECT_EQ(got[0], 1.0f);
  EXPECT_LE(worst, bound);
  EXPECT_GT(worst, bound / 8) << "the bound in docs/math.md is far from what it measures";
}

TEST(MathExpNonPositiveFlushed, ToF16) { checkExpToSixteenBits(ExpUse::ToF16, 0x1p-17); }
TEST(MathExpNonPositiveFlushed, ToBF16) { checkExpToSixteenBits(ExpUse::ToBF16, std::exp2(-12.9)); }
TEST(MathExpNonPositiveFlushed, F64) { checkExpNonPositiveFlushed<double>(); }

TEST(MathSpecialCases, F32) { checkAllSpecialCases<float>(); }
TEST(MathSpecialCases, F64) { checkAllSpecialCases<double>(); }

} // namespace
} // namespace xs::math
