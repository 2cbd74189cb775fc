#ifndef XSTITCH_BACKENDS_X86_STREAMINGSTORES_H
#define XSTITCH_BACKENDS_X86_STREAMINGSTORES_H

// Streaming (non-temporal) stores for large results. A store that misses
// the cache first reads the line it writes (read for ownership); a
// non-temporal store writes whole lines to memory without reading them and
// without keeping them in the caches, which pays off for a result larger
// than the caches hold, and only for one nothing in the kernel reads again.
// Measured with two workers, y = 2x over 48 MiB: 3.6 against 4.7 ms.
//
// LLVM's loop vectorizer does not vectorize non-temporal stores (it cannot
// prove the alignment a vector one needs), so this pass runs after it: every
// vectorized loop (one block) that stores whole vectors into kernel
// arguments the kernel never reads is versioned at its preheader; the copy
// with streaming stores, aligned to the vector size, runs when the runtime's
// stream mask (KernelABI.h) marks each such argument and the first address of
// each such store is aligned. Everything else keeps its plain stores.

#include "llvm/IR/PassManager.h"

namespace xs {

/// The function attribute (a decimal mask of kernel arguments) naming the
/// arguments a kernel may write with streaming stores; a function without
/// it has none.
inline constexpr const char kStreamableArgumentsAttribute[] = "xstitch-streamable-arguments";

struct StreamingStoresPass : llvm::PassInfoMixin<StreamingStoresPass> {
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace xs

#endif // XSTITCH_BACKENDS_X86_STREAMINGSTORES_H
