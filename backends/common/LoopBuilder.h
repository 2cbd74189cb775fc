#ifndef XSTITCH_BACKENDS_COMMON_LOOPBUILDER_H
#define XSTITCH_BACKENDS_COMMON_LOOPBUILDER_H

// Structured control flow for the emitter: counted loops with loop-carried
// values, and if/else producing a value. Loops have the canonical shape the
// loop vectorizer expects (a guard, one header with an i64 induction variable
// stepping by 1, one latch), so inner loops vectorize.

#include <array>
#include <functional>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/IRBuilder.h"

namespace xs {

struct LoopResult {
  /// The carried values after the loop (the initial ones when it ran zero times).
  std::vector<llvm::Value *> carried;
  /// The latch's conditional branch (for loop metadata).
  llvm::BranchInst *latch = nullptr;
  /// The number of iterations when both bounds are constants, else 0.
  int64_t constantTrips = 0;
};

using LoopBody = std::function<std::vector<llvm::Value *>(llvm::Value *index,
                                                          llvm::ArrayRef<llvm::Value *> carried)>;

/// Emits `for (i = begin; i < end; ++i) carried = body(i, carried);` (i64
/// bounds) and leaves `b` after the loop.
LoopResult emitLoop(llvm::IRBuilder<> &b, llvm::Value *begin, llvm::Value *end,
                    llvm::ArrayRef<llvm::Value *> initial, const LoopBody &body,
                    const char *name = "loop");

/// The same with `i += step` (a positive i64; nullptr: 1). The lanes of a
/// GPU block split a loop this way (begin + lane, step = lanes).
LoopResult emitStridedLoop(llvm::IRBuilder<> &b, llvm::Value *begin, llvm::Value *end,
                           llvm::Value *step, llvm::ArrayRef<llvm::Value *> initial,
                           const LoopBody &body, const char *name = "loop");

/// The same loop whose each iteration i covers the `adjacent` indices i,
/// i + 1, ..., i + adjacent - 1: `body` is called for each in order,
/// unrolled, threading the carried values (a lane's run of adjacent
/// elements; `adjacent` 1 is emitStridedLoop).
LoopResult emitStridedRuns(llvm::IRBuilder<> &b, llvm::Value *begin, llvm::Value *end,
                           llvm::Value *step, int64_t adjacent,
                           llvm::ArrayRef<llvm::Value *> initial, const LoopBody &body,
                           const char *name = "loop");

/// Asks LLVM to unroll the loop of `latch` (LoopResult::latch) `count`
/// times, a remainder loop taking what is left; null: nothing.
void setUnrollCount(llvm::BranchInst *latch, int count);

/// Emits `cond ? thenValue() : elseValue()` with branches, so that code in
/// the untaken arm (a load that would be out of bounds) never runs. Each arm
/// returns a value of the same type.
llvm::Value *emitIfElse(llvm::IRBuilder<> &b, llvm::Value *cond,
                        const std::function<llvm::Value *()> &thenValue,
                        const std::function<llvm::Value *()> &elseValue);

/// The same with any number of values (each arm returns values of the same
/// types, in order); no values is a plain if/else.
std::vector<llvm::Value *>
emitIfElseValues(llvm::IRBuilder<> &b, llvm::Value *cond,
                 const std::function<std::vector<llvm::Value *>()> &thenValues,
                 const std::function<std::vector<llvm::Value *>()> &elseValues);

/// Emits `for (i = 0; i < width; ++i) body(i);` over a chunk of at most
/// `full` elements as two loops: one of exactly `full` trips when width ==
/// full, one of `width` trips otherwise (a line's last chunk). LLVM turns a
/// plain copy of a variable length into a call of memcpy, around which the
/// caller's vector registers are spilled; a constant trip count is
/// vectorized whole. Returns the two latches, the whole chunk's first.
std::array<llvm::BranchInst *, 2> emitChunkLoop(llvm::IRBuilder<> &b, llvm::Value *width,
                                                int64_t full,
                                                const std::function<void(llvm::Value *)> &body,
                                                const char *name);

/// min/max of two i64 values (signed).
llvm::Value *emitMin(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y);
llvm::Value *emitMax(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y);

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_LOOPBUILDER_H
