// The x86 backend on plans of small functions: every kind of op compiles to
// an ELF object defining each variant's symbol, the emitted IR has the
// loops and metadata the vectorizer needs, and constructs the emitter cannot
// handle (or IR that fails verification) are Internal errors naming the
// kernel, never a crash.

#include <thread>

#include "backends/common/KernelEmitter.h"
#include "backends/x86/X86Backend.h"
#include "backends/x86/X86Target.h"
#include "ir/Parser.h"
#include "transforms/PlanProgram.h"
#include "transforms/ShapeInference.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

/// A parsed, shape-inferred function and its plan (the module owns the ops
/// the plan's host side was built from).
struct Planned {
  std::unique_ptr<Module> module;
  ProgramPlan plan;
};

Planned planText(std::string_view text) {
  Planned p;
  absl::StatusOr<std::unique_ptr<Module>> module = parseModule(text, "test.xs");
  EXPECT_TRUE(module.ok()) << module.status();
  p.module = std::move(*module);
  Function &function = *p.module->functions().front();
  absl::StatusOr<bool> inferred = runShapeInference(function);
  EXPECT_TRUE(inferred.ok()) << inferred.status();
  absl::StatusOr<ProgramPlan> plan = planProgram(function, genericCpuTarget(), PlanOptions{false});
  EXPECT_TRUE(plan.ok()) << plan.status();
  p.plan = std::move(*plan);
  return p;
}

/// Every object of a compiled program, one after another (symbol searches).
std::string allObjects(const CompiledProgram &compiled) {
  std::string all;
  for (const std::string &object : compiled.objects)
    all += object;
  return all;
}

X86Options fixedCpu() {
  X86Options options;
  options.cpu = "x86-64-v3";
  return options;
}

// One function touching every op family the emitter generates.
constexpr std::string_view kEveryOp = R"(
func @every(%x: f32[N, 67], %b: f32[67], %h: f16[N, 67], %i: i32[N, 67], %u: u8[N, 67],
            %idx: i64[5], %bf: bf16[N, 67]) -> (y0, y1, y2, y3, y4, y5, y6, y7, y8, y9, y10, y11,
                                              y12, y13, y14, y15, y16, y17, y18) {
  %bb = broadcast %b {dims = [1]} : f32[N, 67]
  %y0 = add %x, %bb
  %y1 = exp %x
  %y2 = transpose %x {perm = [1, 0]}
  %y3 = slice %x {start = [0, 1], limit = [N, 67], step = [1, 2]}
  %y4 = concat %x, %x {dim = 1}
  %y5 = pad %x {low = [1, 2], high = [0, 3], mode = reflect}
  %y6 = gather %x, %idx {dim = 1}
  %y7 = reduce_sum %x {dims = [1]}
  %y8 = reduce_max %x {dims = [0]}
  %y9 = argmax %x {dim = 1}
  %y10 = argmin %x {dim = 0}
  %y11 = cast %h {to = i8}
  %y12 = div %i, %i
  %y13 = pow %i, %i
  %y14 = rem %u, %u
  %y15 = cast %x {to = bf16}
  %y16 = reduce_prod %bf {dims = [1]}
  %r = reshape %x : f32[67, N]
  %y17 = compare %r, %r {dir = ne}
  %y18 = reduce_min %i {dims = [0, 1]}
  return %y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7, %y8, %y9, %y10, %y11, %y12, %y13, %y14, %y15,
         %y16, %y17, %y18
}
)";

TEST(X86BackendTest, CompilesEveryOpFamilyToAnObjectWithEverySymbol) {
  Planned p = planText(kEveryOp);
  ASSERT_GE(p.plan.kernels.size(), 19u);
  for (const X86Options &options : {fixedCpu(), X86Options{}}) {
    absl::StatusOr<CompiledProgram> compiled = compileForX86(p.plan, options);
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    EXPECT_EQ(compiled->objectFormat, "x86_64-elf");
    ASSERT_FALSE(compiled->objects.empty());
    for (const std::string &object : compiled->objects) {
      ASSERT_GT(object.size(), 4u);
      EXPECT_EQ(object.substr(0, 4), "\x7f"
                                     "ELF");
    }
    EXPECT_EQ(compiled->host.symbols, p.plan.host.symbols);
    std::string all = allObjects(*compiled);
    for (const KernelPlan &kernel : p.plan.kernels)
      for (size_t v = 0; v < kernel.variants.size(); ++v)
        EXPECT_NE(all.find(kernelSymbol(kernel, v)), std::string::npos) << kernelSymbol(kernel, v);
  }
}

TEST(X86BackendTest, KernelSymbolsNameThePlanAndVariant) {
  KernelPlan plan;
  plan.name = "k3_add";
  EXPECT_EQ(kernelSymbol(plan, 0), "k3_add.v0");
  EXPECT_EQ(kernelSymbol(plan, 12), "k3_add.v12");
}

TEST(X86BackendTest, UnoptimizedIRHasTheAbiAndVectorizableLoops) {
  Planned p = planText(R"(
func @f(%x: f32[N, 64], %y: f32[N, 64]) -> (s, r) {
  %s = add %x, %y
  %r = reduce_sum %x {dims = [1]}
  return %s, %r
})");
  absl::StatusOr<std::string> ir = emitX86LLVMIR(p.plan, fixedCpu(), /*optimized=*/false);
  ASSERT_TRUE(ir.ok()) << ir.status();
  EXPECT_NE(ir->find("(ptr noalias nocapture readonly %buffers, ptr noalias nocapture readonly "
                     "%dims, i64 %blockBegin, i64 %blockEnd, i64 %streamMask)"),
            std::string::npos)
      << *ir;
  EXPECT_NE(ir->find("llvm.loop.vectorize.enable"), std::string::npos);
  EXPECT_NE(ir->find("fadd reassoc float"), std::string::npos) << *ir;
  EXPECT_NE(ir->find("\"target-cpu\"=\"x86-64-v3\""), std::string::npos);
}

TEST(X86BackendTest, OptimizedElementwiseLoopIsVectorized) {
  Planned p = planText(R"(
func @f(%x: f32[N, M], %y: f32[N, M]) -> (s) {
  %s = mul %x, %y
  return %s
})");
  absl::StatusOr<std::string> ir = emitX86LLVMIR(p.plan, fixedCpu(), /*optimized=*/true);
  ASSERT_TRUE(ir.ok()) << ir.status();
  EXPECT_NE(ir->find("fmul <8 x float>"), std::string::npos) << *ir;
}

TEST(X86BackendTest, OptimizedRowSumIsVectorized) {
  Planned p = planText(R"(
func @f(%x: f32[N, M]) -> (r) {
  %r = reduce_sum %x {dims = [1]}
  return %r
})");
  absl::StatusOr<std::string> ir = emitX86LLVMIR(p.plan, fixedCpu(), /*optimized=*/true);
  ASSERT_TRUE(ir.ok()) << ir.status();
  EXPECT_NE(ir->find("fadd reassoc <8 x float>"), std::string::npos) << *ir;
}

// Codegen's loop strength reduction is off by default (compile time) and
// can be turned back on: the two settings give different code for a
// transpose, whose address streams are what LSR rewrites.
TEST(X86BackendTest, LoopStrengthReductionIsAnOption) {
  Planned p = planText(R"(
func @f(%x: f32[B, S, 12, 64]) -> (y) {
  %y = transpose %x {perm = [0, 2, 1, 3]}
  return %y
})");
  X86Options reduced = fixedCpu();
  reduced.loopStrengthReduction = true;
  absl::StatusOr<CompiledProgram> without = compileForX86(p.plan, fixedCpu());
  absl::StatusOr<CompiledProgram> with = compileForX86(p.plan, reduced);
  ASSERT_TRUE(without.ok()) << without.status();
  ASSERT_TRUE(with.ok()) << with.status();
  EXPECT_NE(allObjects(*without), allObjects(*with));
}

TEST(X86BackendTest, TargetDescriptionFollowsTheCpu) {
  X86Options avx2 = fixedCpu();
  avx2.threads = 3;
  TargetDescription d = x86TargetDescription(avx2);
  EXPECT_EQ(d.lanesPerBlock, 8);
  EXPECT_EQ(d.vectorBytes, 32);
  EXPECT_EQ(d.parallelUnits, 3);
  EXPECT_EQ(d.blockBufferBytes, 256 * 1024);
  X86Options avx512;
  avx512.cpu = "skylake-avx512";
  EXPECT_EQ(x86TargetDescription(avx512).lanesPerBlock, 16);
  EXPECT_EQ(x86TargetDescription(avx512).warpWidth, 16);
  EXPECT_GE(x86TargetDescription(X86Options{}).parallelUnits, 1);
}

TEST(X86BackendTest, UnsupportedPlanIsAnInternalErrorNamingTheKernel) {
  Planned p = planText(R"(
func @f(%x: f32[N]) -> (y) {
  %y = neg %x
  return %y
})");
  ASSERT_EQ(p.plan.kernels.size(), 1u);
  KernelVariant &variant = p.plan.kernels[0].variants.back();
  variant.phases.push_back(variant.phases[0]); // a grid barrier: not on x86 yet
  absl::StatusOr<CompiledProgram> compiled = compileForX86(p.plan, fixedCpu());
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().code(), absl::StatusCode::kInternal);
  EXPECT_NE(compiled.status().message().find(p.plan.kernels[0].name), std::string::npos)
      << compiled.status();
}

/// A plan of one kernel over `body` whose dominant is its last op.
ProgramPlan handMadePlan(std::unique_ptr<Function> body, std::vector<std::string> symbols) {
  ProgramPlan program;
  program.host.symbols = std::move(symbols);
  KernelPlan kernel;
  kernel.name = "k0_handmade";
  const Operation *dominant = body->ops().back().get();
  KernelVariant variant;
  variant.grid = DimExpr(1);
  ThreadMapping mapping;
  mapping.rowsPerBlock = 1024;
  const std::vector<DimExpr> &shape = dominant->type().shape();
  mapping.rows = DimExpr(1);
  mapping.cols = shape.size() == 1 ? shape[0] : DimExpr(1);
  variant.groups.push_back(PlanGroup{dominant, {dominant}, mapping, variant.grid});
  variant.phases.push_back(PlanPhase{{PlanStage{{0}}}});
  kernel.variants.push_back(std::move(variant));
  kernel.body = std::move(body);
  program.kernels.push_back(std::move(kernel));
  return program;
}

TEST(X86BackendTest, OpWithoutElementFormIsAnInternalErrorNamingTheKernel) {
  auto body = std::make_unique<Function>("k0_handmade", Location{});
  TensorType matrix(ElementType::F32, {DimExpr(4), DimExpr(4)});
  Value *a = body->addParam("a", matrix, Location{});
  Operation *dot = body->createOp(OpKind::Dot, {a, a}, {}, matrix, Location{}, "d");
  body->results().push_back(FunctionResult{"d", dot->result(), matrix, Location{}});
  absl::StatusOr<CompiledProgram> compiled =
      compileForX86(handMadePlan(std::move(body), {}), fixedCpu());
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().code(), absl::StatusCode::kInternal);
  EXPECT_NE(compiled.status().message().find("k0_handmade"), std::string::npos)
      << compiled.status();
}

TEST(X86BackendTest, UnknownSymbolIsAnInternalErrorNamingTheKernel) {
  auto body = std::make_unique<Function>("k0_handmade", Location{});
  TensorType vector(ElementType::F32, {DimExpr::symbol("N")});
  Value *a = body->addParam("a", vector, Location{});
  Operation *neg = body->createOp(OpKind::Neg, {a}, {}, vector, Location{}, "n");
  body->results().push_back(FunctionResult{"n", neg->result(), vector, Location{}});
  absl::StatusOr<CompiledProgram> compiled =
      compileForX86(handMadePlan(std::move(body), {"M"}), fixedCpu());
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().code(), absl::StatusCode::kInternal);
  EXPECT_NE(compiled.status().message().find("k0_handmade"), std::string::npos)
      << compiled.status();
}

TEST(X86BackendTest, InvalidIRIsAVerifierErrorNamingTheKernel) {
  // Operands of two element types, which the IR verifier of xstitch would
  // reject: the emitter writes an f32 add of an i32, LLVM's verifier must
  // catch it and the backend report it.
  auto body = std::make_unique<Function>("k0_handmade", Location{});
  TensorType floats(ElementType::F32, {DimExpr(8)});
  TensorType ints(ElementType::I32, {DimExpr(8)});
  Value *a = body->addParam("a", floats, Location{});
  Value *c = body->addParam("c", ints, Location{});
  Operation *add = body->createOp(OpKind::Add, {a, c}, {}, floats, Location{}, "s");
  body->results().push_back(FunctionResult{"s", add->result(), floats, Location{}});
  absl::StatusOr<CompiledProgram> compiled =
      compileForX86(handMadePlan(std::move(body), {}), fixedCpu());
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().code(), absl::StatusCode::kInternal);
  EXPECT_NE(compiled.status().message().find("k0_handmade.v0"), std::string::npos)
      << compiled.status();
  EXPECT_NE(compiled.status().message().find("verification"), std::string::npos)
      << compiled.status();
}

TEST(X86BackendTest, CompilesOnSeveralThreadsAtOnce) {
  Planned p = planText(kEveryOp);
  std::vector<std::string> objects(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < objects.size(); ++t)
    threads.emplace_back([&, t] {
      absl::StatusOr<CompiledProgram> compiled = compileForX86(p.plan, fixedCpu());
      if (compiled.ok())
        objects[t] = allObjects(*compiled);
    });
  for (std::thread &thread : threads)
    thread.join();
  for (const std::string &object : objects) {
    EXPECT_FALSE(object.empty());
    EXPECT_EQ(object, objects[0]); // deterministic
  }
}

/// A two-group plan over f32[R, 16]: %e = exp %x (group 0), %y = %e + 1
/// (group 1), %e kept at `level`; the caller places the groups.
ProgramPlan twoGroupPlan(BufferLevel level, std::vector<PlanPhase> phases, bool scratch) {
  auto body = std::make_unique<Function>("k0_two", Location{});
  TensorType type(ElementType::F32, {DimExpr::symbol("R"), DimExpr(16)});
  Value *x = body->addParam("x", type, Location{});
  Operation *e = body->createOp(OpKind::Exp, {x}, {}, type, Location{}, "e");
  Operation *y = body->createOp(OpKind::Neg, {e->result()}, {}, type, Location{}, "y");
  body->results().push_back(FunctionResult{"y", y->result(), type, Location{}});
  ProgramPlan program;
  program.host.symbols = {"R"};
  KernelPlan kernel;
  kernel.name = "k0_two";
  KernelVariant variant;
  variant.grid = DimExpr::symbol("R");
  ThreadMapping mapping;
  mapping.rows = DimExpr::symbol("R");
  mapping.cols = DimExpr(16);
  variant.groups.push_back(PlanGroup{e, {e}, mapping, variant.grid});
  variant.groups.push_back(PlanGroup{y, {y}, mapping, variant.grid});
  variant.phases = std::move(phases);
  variant.buffers.push_back(PlanBuffer{e->result(), level, DimExpr(16)});
  if (scratch)
    kernel.scratch.push_back(e->result());
  kernel.variants.push_back(std::move(variant));
  kernel.body = std::move(body);
  program.kernels.push_back(std::move(kernel));
  return program;
}

TEST(X86BackendTest, BlockBufferReadInItsOwnStageIsAnInternalError) {
  absl::StatusOr<CompiledProgram> compiled = compileForX86(
      twoGroupPlan(BufferLevel::Block, {PlanPhase{{PlanStage{{0, 1}}}}}, false), fixedCpu());
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().code(), absl::StatusCode::kInternal);
  EXPECT_NE(compiled.status().message().find("outside the later stages"), std::string::npos)
      << compiled.status();
}

TEST(X86BackendTest, GlobalBufferNeedsResultOrScratch) {
  absl::StatusOr<CompiledProgram> compiled =
      compileForX86(twoGroupPlan(BufferLevel::Global,
                                 {PlanPhase{{PlanStage{{0}}}}, PlanPhase{{PlanStage{{1}}}}}, false),
                    fixedCpu());
  ASSERT_FALSE(compiled.ok());
  EXPECT_NE(compiled.status().message().find("neither a result nor scratch"), std::string::npos)
      << compiled.status();
}

TEST(X86BackendTest, StagesAndPhasesCompileToOneFunctionPerPhase) {
  absl::StatusOr<CompiledProgram> staged = compileForX86(
      twoGroupPlan(BufferLevel::Block, {PlanPhase{{PlanStage{{0}}, PlanStage{{1}}}}}, false),
      fixedCpu());
  ASSERT_TRUE(staged.ok()) << staged.status();
  absl::StatusOr<CompiledProgram> phased =
      compileForX86(twoGroupPlan(BufferLevel::Global,
                                 {PlanPhase{{PlanStage{{0}}}}, PlanPhase{{PlanStage{{1}}}}}, true),
                    fixedCpu());
  ASSERT_TRUE(phased.ok()) << phased.status();
  EXPECT_NE(allObjects(*phased).find("k0_two.v0.p1"), std::string::npos);
  EXPECT_EQ(allObjects(*staged).find("k0_two.v0.p1"), std::string::npos);
}

/// The x86 target as a GPU-like target would use it: a cooperative function
/// per variant of several phases, with a grid barrier (a call the test can
/// find, given the position of the barrier word) between phases, beside the
/// phase functions.
class GridBarrierTarget : public X86Target {
public:
  GridBarrierTarget()
      : X86Target(
            x86TargetDescription(fixedCpu()), "x86-64-v3", "",
            "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128") {}
  bool hasGridBarrier() const override { return true; }
  void emitGridStrideLoop(llvm::IRBuilder<> &b, llvm::Value *,
                          const std::function<void(llvm::Value *)> &body) override {
    emitBlockLoop(b, body);
  }
  void emitGridBarrier(llvm::IRBuilder<> &b, int barrierArg) override {
    llvm::Module *module = b.GetInsertBlock()->getModule();
    b.CreateCall(
        module->getOrInsertFunction(
            "grid.barrier", llvm::FunctionType::get(b.getVoidTy(), {b.getInt64Ty()}, false)),
        {b.getInt64(barrierArg)});
  }
};

TEST(X86BackendTest, TargetsWithAGridBarrierAlsoGetACooperativeFunction) {
  ProgramPlan plan = twoGroupPlan(BufferLevel::Global,
                                  {PlanPhase{{PlanStage{{0}}}}, PlanPhase{{PlanStage{{1}}}}}, true);
  llvm::LLVMContext context;
  llvm::Module module("grid", context);
  GridBarrierTarget target;
  ASSERT_TRUE(emitProgramKernels(plan, target, module).ok());
  EXPECT_NE(module.getFunction("k0_two.v0"), nullptr);
  EXPECT_NE(module.getFunction("k0_two.v0.p1"), nullptr);
  ASSERT_NE(module.getFunction("k0_two.v0.coop"), nullptr);
  llvm::Function *barrier = module.getFunction("grid.barrier");
  ASSERT_NE(barrier, nullptr);
  ASSERT_EQ(barrier->getNumUses(), 1u);
  auto *call = llvm::cast<llvm::CallInst>(*barrier->user_begin());
  EXPECT_EQ(call->getFunction()->getName(), "k0_two.v0.coop");
  // After the kernel's arguments: its parameter, result and scratch.
  size_t arguments = plan.kernels[0].body->params().size() +
                     plan.kernels[0].body->results().size() + plan.kernels[0].scratch.size() +
                     plan.kernels[0].partials.size();
  EXPECT_EQ(llvm::cast<llvm::ConstantInt>(call->getArgOperand(0))->getZExtValue(), arguments);
}

} // namespace
} // namespace xs
