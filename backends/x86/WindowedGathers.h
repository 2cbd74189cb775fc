#ifndef XSTITCH_BACKENDS_X86_WINDOWEDGATHERS_H
#define XSTITCH_BACKENDS_X86_WINDOWEDGATHERS_H

// Gathers from a block buffer whose lanes read a short window, as one load
// and a permute. A vectorized gather along a row the block computed (a
// resize's rows interpolated along H, read at the taps along W: lanes j read
// the row at about j / 2) costs tens of cycles a vector on the CPUs measured,
// where its lanes' elements all lie within one vector's width of the first.
// So after the vectorizer each gather of 8 (AVX2) or 16 (AVX-512) 32-bit
// elements from a block buffer by a vector of indices, every lane enabled,
// becomes: if no lane's index is below the first lane's or above the last
// lane's, and the last is less than a vector's width past the first, a
// masked load of the elements from the first lane's to the last lane's (no
// address outside them is read) and a permute (VPERMPS, VPERMD) by each
// lane's offset; else the gather as it was. The block buffers' gathers
// index with i64, so they mostly have 8 lanes on AVX-512 too; where the
// vectorizer takes 16 (a 2x resize's rows read at j / 2 and its taps beside
// it) the permute is the 512-bit one (CPUs whose gathers LLVM keeps at 4
// lanes, as it tunes Skylake, are left as they are: not measured). Gathers from kernel arguments
// stay as they are: where their indices are not such windows (a permutation of channels, random
// picks) the test costs about a third of the gather's time, and nothing says which ones are.

#include "llvm/IR/PassManager.h"

namespace xs {

struct WindowedGathersPass : llvm::PassInfoMixin<WindowedGathersPass> {
  /// Whether the CPU has AVX2's VPERMPS and VPERMD (8 lanes).
  bool avx2 = false;
  /// Whether the CPU has AVX-512F's VPERMPS and VPERMD on 16 lanes.
  bool avx512 = false;
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace xs

#endif // XSTITCH_BACKENDS_X86_WINDOWEDGATHERS_H
