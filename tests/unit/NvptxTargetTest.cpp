// The NVPTX Target's pieces in one kernel: block and lane ids, a block
// buffer in dynamic shared memory with a barrier, and cross-lane reductions
// of a 32-bit and a 64-bit value (warp shuffles, then one value per warp);
// and a cooperative kernel's grid-stride loops with a grid barrier between
// them. The PTX must hold them and assemble with ptxas for sm_80 and sm_90.

#include "backends/nvptx/NvptxTarget.h"

#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>

#include "backends/nvptx/NvidiaTargetDescription.h"
#include "backends/nvptx/PtxCompiler.h"
#include "tests/unit/PtxasUtil.h"
#include "llvm/IR/LLVMContext.h"

namespace xs {
namespace {

/// Block b, lane l: buf[l] = l; out[b] = sum over lanes of buf[(l + 1) % n],
/// out[grid + b] = max over lanes of l (through f64).
std::unique_ptr<llvm::Module> laneKernel(llvm::LLVMContext &context, NvptxTarget &target) {
  auto module = std::make_unique<llvm::Module>("lanes", context);
  module->setDataLayout(target.dataLayout());
  llvm::IRBuilder<> b(context);
  target.createKernel(*module, "lane_sums", 0, b);
  target.emitBlockLoop(b, [&](llvm::Value *block) {
    llvm::Value *lane = target.laneId(b), *count = target.laneCount(b);
    llvm::Value *buffer = target.allocateBlockBuffer(b, b.getFloatTy(), count);
    b.CreateStore(b.CreateUIToFP(lane, b.getFloatTy()), b.CreateGEP(b.getFloatTy(), buffer, lane));
    target.emitBlockBarrier(b);
    llvm::Value *next = b.CreateURem(b.CreateAdd(lane, b.getInt64(1)), count);
    llvm::Value *neighbour =
        b.CreateLoad(b.getFloatTy(), b.CreateGEP(b.getFloatTy(), buffer, next));
    using Values = llvm::ArrayRef<llvm::Value *>;
    llvm::Value *sum =
        target.emitCrossLaneReduce(b, {neighbour}, [](llvm::IRBuilder<> &ib, Values x, Values y) {
          return std::vector<llvm::Value *>{ib.CreateFAdd(x[0], y[0])};
        })[0];
    // A two-value state: the widest lane and its id.
    std::vector<llvm::Value *> widestState = target.emitCrossLaneReduce(
        b, {b.CreateUIToFP(lane, b.getDoubleTy()), lane},
        [](llvm::IRBuilder<> &ib, Values x, Values y) {
          llvm::Value *takeY = ib.CreateFCmpOGT(y[0], x[0]);
          return std::vector<llvm::Value *>{ib.CreateSelect(takeY, y[0], x[0]),
                                            ib.CreateSelect(takeY, y[1], x[1])};
        });
    llvm::Value *widest =
        b.CreateFAdd(widestState[0], b.CreateUIToFP(widestState[1], b.getDoubleTy()));
    llvm::Value *out = target.bufferArg(b, 0);
    llvm::Value *grid = target.dimArg(b, 0);
    llvm::Function *kernel = b.GetInsertBlock()->getParent();
    auto *store = llvm::BasicBlock::Create(context, "lane0", kernel);
    auto *done = llvm::BasicBlock::Create(context, "done", kernel);
    b.CreateCondBr(b.CreateICmpEQ(lane, b.getInt64(0)), store, done);
    b.SetInsertPoint(store);
    b.CreateStore(sum, b.CreateGEP(b.getFloatTy(), out, block));
    b.CreateStore(b.CreateFPTrunc(widest, b.getFloatTy()),
                  b.CreateGEP(b.getFloatTy(), out, b.CreateAdd(grid, block)));
    b.CreateBr(done);
    b.SetInsertPoint(done);
  });
  b.CreateRetVoid();
  return module;
}

/// Cooperative: out[b] = b for every plan block b of dims[0]; grid barrier
/// (its word after the kernel's one buffer); out[b] += out[dims[0] - 1 - b].
std::unique_ptr<llvm::Module> cooperativeKernel(llvm::LLVMContext &context, NvptxTarget &target) {
  auto module = std::make_unique<llvm::Module>("cooperative", context);
  module->setDataLayout(target.dataLayout());
  llvm::IRBuilder<> b(context);
  target.createKernel(*module, "mirror", 0, b);
  llvm::Value *out = target.bufferArg(b, 0);
  llvm::Value *grid = target.dimArg(b, 0);
  llvm::Type *i64 = b.getInt64Ty();
  target.emitGridStrideLoop(
      b, grid, [&](llvm::Value *block) { b.CreateStore(block, b.CreateGEP(i64, out, block)); });
  target.emitGridBarrier(b, 1);
  target.emitGridStrideLoop(b, grid, [&](llvm::Value *block) {
    llvm::Value *mirror = b.CreateSub(b.CreateSub(grid, b.getInt64(1)), block);
    llvm::Value *slot = b.CreateGEP(i64, out, block);
    b.CreateStore(
        b.CreateAdd(b.CreateLoad(i64, slot), b.CreateLoad(i64, b.CreateGEP(i64, out, mirror))),
        slot);
  });
  b.CreateRetVoid();
  return module;
}

class NvptxTargetTest : public ::testing::TestWithParam<std::string> {};

/// Emits a kernel with `build` for `arch`, compiles it to PTX, checks that
/// the PTX holds each of `expected` and that ptxas assembles it.
void checkKernelPtx(
    const std::string &arch,
    const std::function<std::unique_ptr<llvm::Module>(llvm::LLVMContext &, NvptxTarget &)> &build,
    std::initializer_list<const char *> expected, const char *name) {
  absl::StatusOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createNvptxTargetMachine(PtxOptions{arch, 3});
  ASSERT_TRUE(machine.ok()) << machine.status().message();
  NvptxTarget target(nvidiaTargetDescription(*nvidiaPreset(arch)),
                     (*machine)->createDataLayout().getStringRepresentation());
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = build(context, target);
  absl::StatusOr<std::string> ptx = compileToPtx(*module, PtxOptions{arch, 3});
  ASSERT_TRUE(ptx.ok()) << ptx.status().message();
  for (const char *piece : expected)
    EXPECT_NE(ptx->find(piece), std::string::npos) << piece << "\n" << *ptx;
  if (test::ptxasPath().empty())
    GTEST_SKIP() << "ptxas not found (CUDA toolkit absent); the PTX was not assembled";
  test::PtxasResult assembled = test::assembleWithPtxas(*ptx, arch, name);
  EXPECT_EQ(assembled.status, 0) << assembled.output << "\n" << *ptx;
}

TEST_P(NvptxTargetTest, LanesSharedMemoryAndReductionsAssemble) {
  checkKernelPtx(GetParam(), laneKernel,
                 {".entry lane_sums(", "%ctaid.x", "%tid.x", "%ntid.x", "bar.sync",
                  "shfl.sync.bfly.b32", ".extern .shared", "xs_reduce_slots"},
                 "lanes");
}

TEST_P(NvptxTargetTest, GridStrideLoopsAndGridBarriersAssemble) {
  checkKernelPtx(GetParam(), cooperativeKernel,
                 {".entry mirror(", "%nctaid.x", "bar.sync", "membar.gl", "atom.global.add.u32",
                  "ld.volatile.global.u32"},
                 "mirror");
}

INSTANTIATE_TEST_SUITE_P(Architectures, NvptxTargetTest, ::testing::Values("sm_80", "sm_90"));

} // namespace
} // namespace xs
