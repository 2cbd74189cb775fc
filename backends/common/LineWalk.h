#ifndef XSTITCH_BACKENDS_COMMON_LINEWALK_H
#define XSTITCH_BACKENDS_COMMON_LINEWALK_H

// The lines one block of a Scan mapping walks (cumsum in ScanEmitter.cpp,
// top_k in TopKEmitter.cpp; layout in GroupEmitter.h): the mapping's rows
// are the dims before the op's `dim`, and each holds a line along `dim` per
// column after it (with colsPerBlock > 0, a strip of those columns).

#include <functional>
#include <vector>

#include "backends/common/GroupEmitter.h"

namespace xs {

/// One line: its index in the dims before `dim` and in the dims after it,
/// unraveled and linear.
struct Line {
  std::vector<llvm::Value *> outerIndex;
  std::vector<llvm::Value *> columnIndex;
  llvm::Value *outer = nullptr;
  llvm::Value *column = nullptr;

  /// The multi-index of element `j` of the line.
  std::vector<llvm::Value *> indexAt(llvm::Value *j) const;
  /// The row-major position of element `j` in a tensor whose size along
  /// `dim` is `length` and whose dims after it hold `inner` elements.
  llvm::Value *positionAt(llvm::IRBuilder<> &b, llvm::Value *j, llvm::Value *length,
                          llvm::Value *inner) const;
};

/// The lines block `blockId` owns, for the op's result `shape` (the
/// mapping's rows and columns are of it) along `dim`; sets the tile
/// origins of the group's block-local outputs.
struct BlockLines {
  BlockLines(GroupEmission &group, const std::vector<DimExpr> &shape, size_t dim,
             llvm::Value *blockId);

  std::vector<DimExpr> outerShape; // the dims before `dim`
  std::vector<DimExpr> innerShape; // the dims after it
  llvm::Value *inner = nullptr;    // their product
  llvm::Value *outerBegin = nullptr, *outerEnd = nullptr;
  llvm::Value *columnBegin = nullptr, *columnEnd = nullptr;

  /// Calls `body` for each line: GPUs: lane l of the block takes lines l,
  /// l + lanes, ... (adjacent lanes adjacent columns), or where the mapping
  /// packs a warp per line (ThreadMapping::rowLanes), warp w lines w,
  /// w + warps, ...; CPUs: every line in turn. The loop is a row loop
  /// (Target::annotateRowLoop).
  void forEachLine(const std::function<void(const Line &)> &body) const;

private:
  GroupEmission &group_;
};

/// A stack array of `count` elements in the kernel's entry block (one per
/// kernel, reused by every line and block it walks; on GPUs each lane's
/// own), 64-byte aligned.
llvm::AllocaInst *kernelStackArray(llvm::IRBuilder<> &b, llvm::Type *element, int64_t count,
                                   const char *name);

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_LINEWALK_H
