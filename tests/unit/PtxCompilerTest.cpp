// LLVM IR -> PTX through LLVM's NVPTX backend, for the architectures CI
// assembles: the PTX names the target and the kernel, and ptxas (when the
// CUDA toolkit is present) accepts it.

#include "backends/nvptx/PtxCompiler.h"

#include <string>

#include <gtest/gtest.h>

#include "tests/unit/PtxasUtil.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/LLVMContext.h"

namespace xs {
namespace {

/// y[i] = 2 * x[i] for i < n, one element per thread.
std::unique_ptr<llvm::Module> scaleKernel(llvm::LLVMContext &context) {
  auto module = std::make_unique<llvm::Module>("scale", context);
  llvm::IRBuilder<> b(context);
  llvm::Type *global = llvm::PointerType::get(context, 1);
  auto *type = llvm::FunctionType::get(b.getVoidTy(), {global, global, b.getInt64Ty()}, false);
  auto *kernel =
      llvm::Function::Create(type, llvm::Function::ExternalLinkage, "scale", module.get());
  kernel->setCallingConv(llvm::CallingConv::PTX_Kernel);
  auto *entry = llvm::BasicBlock::Create(context, "entry", kernel);
  auto *body = llvm::BasicBlock::Create(context, "body", kernel);
  auto *done = llvm::BasicBlock::Create(context, "done", kernel);
  b.SetInsertPoint(entry);
  auto sreg = [&](llvm::Intrinsic::ID id) {
    return b.CreateZExt(b.CreateIntrinsic(id, {}, {}), b.getInt64Ty());
  };
  llvm::Value *index = b.CreateAdd(b.CreateMul(sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x),
                                               sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x)),
                                   sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x));
  b.CreateCondBr(b.CreateICmpULT(index, kernel->getArg(2)), body, done);
  b.SetInsertPoint(body);
  llvm::Value *x =
      b.CreateLoad(b.getFloatTy(), b.CreateGEP(b.getFloatTy(), kernel->getArg(0), index));
  b.CreateStore(b.CreateFMul(x, llvm::ConstantFP::get(b.getFloatTy(), 2.0)),
                b.CreateGEP(b.getFloatTy(), kernel->getArg(1), index));
  b.CreateBr(done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
  return module;
}

class PtxCompilerTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PtxCompilerTest, KernelBecomesAnEntryPtxasAccepts) {
  const std::string arch = GetParam();
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = scaleKernel(context);
  absl::StatusOr<std::string> ptx = compileToPtx(*module, PtxOptions{arch, 3});
  ASSERT_TRUE(ptx.ok()) << ptx.status().message();
  EXPECT_NE(ptx->find(".target " + arch), std::string::npos) << *ptx;
  EXPECT_NE(ptx->find(".entry scale("), std::string::npos) << *ptx;
  EXPECT_NE(ptx->find("ld.global"), std::string::npos) << *ptx;
  EXPECT_NE(ptx->find("mov.u32 \t%r"), std::string::npos) << *ptx;

  if (test::ptxasPath().empty())
    GTEST_SKIP() << "ptxas not found (CUDA toolkit absent); the PTX was not assembled";
  test::PtxasResult assembled = test::assembleWithPtxas(*ptx, arch, "scale");
  EXPECT_EQ(assembled.status, 0) << assembled.output << "\n" << *ptx;
}

INSTANTIATE_TEST_SUITE_P(Architectures, PtxCompilerTest, ::testing::Values("sm_80", "sm_90"));

TEST(PtxCompilerErrorsTest, UnknownArchitectureIsAnError) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = scaleKernel(context);
  absl::StatusOr<std::string> ptx = compileToPtx(*module, PtxOptions{"sm_12", 3});
  ASSERT_FALSE(ptx.ok());
  EXPECT_EQ(ptx.status().message(),
            "unknown NVIDIA target 'sm_12'; known: sm_70, sm_80, sm_86, sm_89, sm_90");
}

} // namespace
} // namespace xs
