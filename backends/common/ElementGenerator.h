#ifndef XSTITCH_BACKENDS_COMMON_ELEMENTGENERATOR_H
#define XSTITCH_BACKENDS_COMMON_ELEMENTGENERATOR_H

// The element generator: the value of a kernel body's value at a
// multi-index, emitted recursively through the ops that define it. Data
// movement is index arithmetic (broadcast, transpose, reshape, slice, concat,
// pad, gather), element-wise ops follow ScalarOps.h, and a reduction that is
// not a group's dominant loops over its reduced indices in place. Parameters
// and values already written to memory are loaded.
//
// Indices are i64. Loads never leave their buffer: indices that depend on
// data (gather) are clamped, and a read of an operand that may be empty at
// run time is guarded by a branch. What the reference interpreter refuses
// (an index out of range, an integer division by zero: HostPlan::checks)
// raises the kernel's status code (KernelContext::raised) besides.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "backends/common/Target.h"
#include "ir/DimExpr.h"
#include "ir/IR.h"
#include "llvm/IR/IRBuilder.h"

namespace xs {

/// What one kernel variant's emission shares: the builder, the target, the
/// body, the argument buffers and the dims. Errors are collected in `status`
/// (the first one wins) so that emission can go on with placeholder values
/// and the caller reports once.
struct KernelContext {
  llvm::IRBuilder<> &b;
  Target &target;
  const Function &body;
  std::string kernelName;
  /// Pointer to each kernel argument (body parameters, then body results).
  std::vector<llvm::Value *> buffers;
  /// The loaded value of each symbol of the host plan.
  absl::flat_hash_map<std::string, llvm::Value *> symbols;
  /// The status code of each checked op of the body (its position in
  /// HostPlan::checks), and where the kernel keeps the largest status word
  /// it raised (an i64 in the entry block, flushed to the run's status word
  /// at the kernel's end; null when no op is checked).
  absl::flat_hash_map<const Operation *, int> checkCodes;
  llvm::Value *raised = nullptr;
  absl::Status status;
  /// Bytes of the block buffers the function allocated, each rounded up as
  /// the targets round them: the plan's bound for the function's phases
  /// (transforms/BlockBuffers.h) must be exactly this.
  DimExpr blockBufferBytes = DimExpr(0);

  /// Records an unsupported construct (an internal error naming the kernel).
  void fail(const std::string &message);

  /// A block buffer of `elements` elements of `type` (`count`: the same
  /// number at run time), counted in blockBufferBytes.
  llvm::Value *allocateBlockBuffer(llvm::Type *type, const DimExpr &elements, llvm::Value *count);
};

class ElementGenerator {
public:
  explicit ElementGenerator(KernelContext &context) : ctx_(context) {}

  /// The value of `value` at `index` (one i64 per dim), in its compute type.
  llvm::Value *emit(const Value *value, const std::vector<llvm::Value *> &index);

  /// Reads `value` from memory from now on instead of recomputing it (an
  /// earlier part of the kernel stored it there): element `linear` of the
  /// value is at `base[linear - origin]`; `origin` is null for a whole tensor
  /// in global memory and the first element of the block's tile for a block
  /// buffer.
  void setMaterialized(const Value *value, llvm::Value *base, llvm::Value *origin = nullptr) {
    materialized_[value] = Storage{base, origin};
  }
  /// The address of `value`'s first element when the whole tensor is in
  /// memory in row-major order (a parameter or a value materialized in
  /// global memory), else null (computed, or a block's tile).
  llvm::Value *wholeTensorBase(const Value *value) const {
    std::optional<Storage> storage = storageOf(value);
    return storage && storage->origin == nullptr ? storage->base : nullptr;
  }
  /// The tensors in global memory (parameters and values materialized
  /// whole) that `value`'s element at an index reads at that same index, as
  /// far as element-wise ops reach: what a walk can prefetch ahead of
  /// itself. Other reads (broadcast, moved or gathered elements, block
  /// tiles) are left out.
  std::vector<const Value *> sameIndexReads(const Value *value) const;
  /// The concats along dim `axis`, and the pads that pad it, that
  /// `value`'s element at an index computes at that same index, as far as
  /// element-wise ops reach (not those already in memory): what an element
  /// loop along `axis` can walk piece by piece (setColumnPiece).
  std::vector<const Operation *> sameIndexPieceOps(const Value *value, size_t axis) const;
  /// Where a concat (its operands' lengths) or a pad (low, the operand's
  /// length, high) cuts dim `axis` into pieces; empty for a pad that crops.
  static std::vector<DimExpr> pieceExtents(const Operation &op, size_t axis);
  /// While set, the loop walks piece `piece` of `op`'s pieces along its
  /// dim (pieceExtents) and is at `column` of that dim: a concat's element
  /// comes from that piece's operand alone, and a pad's element of its
  /// middle piece is its operand's at `column` - low. Either is read
  /// without the clamped reads and selects that hold across pieces, which
  /// the loop vectorizer could only turn into gathers.
  void setColumnPiece(const Operation *op, size_t piece, llvm::Value *column) {
    columnPieces_[op] = ColumnPiece{piece, column};
  }
  void clearColumnPieces() { columnPieces_.clear(); }
  /// Recomputes `value` again (its block buffer is gone).
  void forget(const Value *value) { materialized_.erase(value); }

  /// While set, an element of a tensor of `shape` in memory at exactly
  /// `index` (the element a group's loop is at) is read at `linear`, the
  /// loop's own row-major position, rather than at a position recomputed
  /// from the index: fewer instructions, and LLVM sees that a tile read in
  /// place (PlanBuffer::inResult) is the element the loop then stores.
  void setElementPosition(std::vector<DimExpr> shape, std::vector<llvm::Value *> index,
                          llvm::Value *linear) {
    position_ = ElementPosition{std::move(shape), std::move(index), linear};
  }
  void clearElementPosition() { position_.reset(); }

  /// A dim expression as an i64 value.
  llvm::Value *dim(const DimExpr &e);
  std::vector<llvm::Value *> dims(const std::vector<DimExpr> &shape);
  /// Row-major position of `index` in a tensor of `shape`.
  llvm::Value *linearize(const std::vector<llvm::Value *> &index,
                         const std::vector<DimExpr> &shape);
  /// The multi-index of row-major position `linear` in `shape`.
  std::vector<llvm::Value *> unravel(llvm::Value *linear, const std::vector<DimExpr> &shape);
  /// unravel() for the first row of a loop that may not run: divisors are
  /// clamped to at least 1 so that an empty dim does not divide by zero.
  std::vector<llvm::Value *> unravelStart(llvm::Value *linear, const std::vector<DimExpr> &shape);
  /// The multi-index after `index` in row-major order of `shape` (the last
  /// dim counts up and carries), without the divisions unravel() needs.
  std::vector<llvm::Value *> advance(const std::vector<llvm::Value *> &index,
                                     const std::vector<DimExpr> &shape);
  /// True when `e` is at least 1 for every value of its symbols.
  bool provablyPositive(const DimExpr &e) const;

  KernelContext &context() { return ctx_; }

private:
  llvm::Value *emitOp(const Operation &op, const std::vector<llvm::Value *> &index);
  llvm::Value *emitConstant(const Operation &op, const std::vector<llvm::Value *> &index);
  llvm::Value *emitBroadcast(const Operation &op, const std::vector<llvm::Value *> &index);
  llvm::Value *emitReshape(const Operation &op, const std::vector<llvm::Value *> &index);
  llvm::Value *emitTranspose(const Operation &op, const std::vector<llvm::Value *> &index);
  /// The index in `target` of the element at `index` in `shape` (the same
  /// row-major position, the two shapes' products equal). Each target dim,
  /// from the innermost, that is a product of the innermost dims left, or
  /// such a product times a divisor m of the next dim out, takes their ravel
  /// (and that dim's index modulo m) without dividing the inner indices:
  /// GroupNorm's [B, C, H, W] read from [B, G, C/G*H*W] divides c by C/G
  /// once a row, where unravelling the row-major position divides every
  /// element's position. The rest is linearized and unravelled.
  std::vector<llvm::Value *> reindex(std::vector<llvm::Value *> index, std::vector<DimExpr> shape,
                                     const std::vector<DimExpr> &target);
  llvm::Value *emitSlice(const Operation &op, const std::vector<llvm::Value *> &index);
  llvm::Value *emitConcat(const Operation &op, const std::vector<llvm::Value *> &index);
  llvm::Value *emitPad(const Operation &op, const std::vector<llvm::Value *> &index);
  llvm::Value *emitGather(const Operation &op, const std::vector<llvm::Value *> &index);
  llvm::Value *emitTakeAlongAxis(const Operation &op, const std::vector<llvm::Value *> &index);
  /// A data-dependent index into a dim of size `size`: negative counts from
  /// the end, then clamped into [0, size - 1] (the interpreter reports an
  /// out-of-range index; compiled code only must not read outside). Indices
  /// the graph itself clamps (isClampedIndex) are taken as they are.
  llvm::Value *resolveIndex(const Operation &op, llvm::Value *raw, const DimExpr &size);
  /// Where `bad` holds, raises `op`'s check with `value` (the index, or 0):
  /// the kernel's status word becomes at least encodeStatusWord(code,
  /// value). Branch-free, so loops still vectorize (a max reduction).
  void raise(const Operation &op, llvm::Value *bad, llvm::Value *value);
  /// `read()` when every dim in `sizes` is non-zero at run time, else
  /// `fallback`; the branch is only emitted when some size may be 0.
  llvm::Value *guardNonEmpty(const std::vector<DimExpr> &sizes,
                             const std::function<llvm::Value *()> &read, llvm::Value *fallback);
  llvm::Value *placeholder(const Value *value);
  std::vector<llvm::Value *> unravelDividing(llvm::Value *linear, const std::vector<DimExpr> &shape,
                                             bool clampDivisors);

  struct Storage {
    llvm::Value *base = nullptr;
    llvm::Value *origin = nullptr;
  };
  struct ColumnPiece {
    size_t piece = 0;
    llvm::Value *column = nullptr;
  };
  /// Calls `visit` on `value` and each value its element at an index reads
  /// at that same index through element-wise ops; stops at values in memory.
  void walkSameIndex(const Value *value,
                     const std::function<void(const Value *, std::optional<Storage>)> &visit) const;
  struct ElementPosition {
    std::vector<DimExpr> shape;
    std::vector<llvm::Value *> index;
    llvm::Value *linear = nullptr;
  };
  /// The row-major position of `index` in `shape`: the loop's own position
  /// when it is the current element (setElementPosition), else linearize().
  llvm::Value *positionOf(const std::vector<llvm::Value *> &index,
                          const std::vector<DimExpr> &shape);
  /// Where `value` lives in memory (a parameter or a materialized value),
  /// or nullopt when it is computed.
  std::optional<Storage> storageOf(const Value *value) const;
  llvm::Value *load(const Value *value, const Storage &storage, llvm::Value *linear);

  KernelContext &ctx_;
  absl::flat_hash_map<const Value *, Storage> materialized_;
  std::optional<ElementPosition> position_;
  absl::flat_hash_map<const Operation *, ColumnPiece> columnPieces_;
};

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_ELEMENTGENERATOR_H
