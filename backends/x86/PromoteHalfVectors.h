#ifndef XSTITCH_BACKENDS_X86_PROMOTEHALFVECTORS_H
#define XSTITCH_BACKENDS_X86_PROMOTEHALFVECTORS_H

// f16 and bf16 storage computes in f32 (TypeLowering.h), but LLVM's
// InstCombine narrows what it can prove exact back to the 16-bit type:
// `fcmp uno (fpext a), 0` is `fcmp uno a, 0`, maxnum of two extended halves
// is the extended maxnum of the halves. On x86 CPUs without arithmetic in
// that type (AVX512-FP16 for f16; none for bf16), codegen then takes a
// vector compare, min/max, sqrt or rounding apart element by element (about
// 100 scalar instructions for 32 lanes): a softmax over f16 rows, whose max
// reduction checks every element for NaN, ran 4x slower than over f32 rows.
//
// This pass, run after the last InstCombine, gives such operations back to
// f32: each operand extended (exact), the operation in f32, the result
// truncated (exact for compares, min/max and roundings; for sqrt the f32
// result rounds to the value InstCombine proved it equal to). Vector adds,
// multiplies and divisions are left alone: codegen already promotes those
// whole.

#include "llvm/IR/PassManager.h"

namespace xs {

struct PromoteHalfVectorsPass : llvm::PassInfoMixin<PromoteHalfVectorsPass> {
  /// Which 16-bit types to promote: those the CPU has no vector arithmetic for.
  bool half = true;
  bool bfloat = true;

  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace xs

#endif // XSTITCH_BACKENDS_X86_PROMOTEHALFVECTORS_H
