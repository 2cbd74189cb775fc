#include "backends/common/TransposeTiles.h"

#include "backends/common/TypeLowering.h"

namespace xs {

namespace {

/// perm = [0, 1, ..., r-3, r-1, r-2]: the last two dims swap, the leading
/// ones stay.
bool swapsLastTwo(const Operation &op) {
  if (op.kind() != OpKind::Transpose)
    return false;
  const std::vector<int64_t> &perm = op.attr("perm")->getIntList();
  int64_t rank = static_cast<int64_t>(perm.size());
  if (rank < 2 || perm[rank - 1] != rank - 2 || perm[rank - 2] != rank - 1)
    return false;
  for (int64_t d = 0; d + 2 < rank; ++d)
    if (perm[d] != d)
      return false;
  return true;
}

/// v[k] holds row k of a V x V tile; afterwards v[a] holds column a. Each
/// round swaps the off-diagonal d x d blocks of pairs of rows d apart.
void transposeInRegisters(llvm::IRBuilder<> &b, std::vector<llvm::Value *> &v) {
  int width = static_cast<int>(v.size());
  for (int d = width / 2; d >= 1; d /= 2) {
    std::vector<int> low(width), high(width);
    for (int e = 0; e < width; ++e) {
      bool upper = (e & d) != 0;
      low[e] = upper ? width + e - d : e;
      high[e] = upper ? width + e : e + d;
    }
    for (int k = 0; k < width; ++k) {
      if ((k & d) != 0)
        continue;
      llvm::Value *first = v[k], *second = v[k + d];
      v[k] = b.CreateShuffleVector(first, second, low);
      v[k + d] = b.CreateShuffleVector(first, second, high);
    }
  }
}

} // namespace

bool isRegisterTranspose(GroupEmission &group) {
  KernelContext &ctx = group.gen.context();
  const PlanGroup &plan = group.group;
  int64_t width = plan.mapping.vectorWidth;
  if (plan.ops.size() != 1 || !swapsLastTwo(*plan.dominant) || width < 2 ||
      (width & (width - 1)) != 0 || width > 64 || !isSingleLane(ctx.target.laneCount(ctx.b)))
    return false;
  if (group.gen.wholeTensorBase(plan.dominant->operand(0)) == nullptr)
    return false;
  for (const GroupOutput &output : group.outputs)
    if (output.blockLocal || output.value != plan.dominant->result())
      return false;
  return !group.outputs.empty();
}

void emitTransposeTiles(GroupEmission &group, llvm::Value *rowBegin, llvm::Value *rowEnd,
                        llvm::Value *colBegin, llvm::Value *colEnd,
                        const std::function<void()> &elementLoop) {
  ElementGenerator &gen = group.gen;
  llvm::IRBuilder<> &b = gen.context().b;
  const Operation &transpose = *group.group.dominant;
  const std::vector<DimExpr> &shape = transpose.type().shape();
  int64_t width = group.group.mapping.vectorWidth;
  llvm::Value *v = b.getInt64(width);
  // Output [..., I, J] from input [..., J, I]; rows are the leading dims and
  // I collapsed, cols are J.
  llvm::Value *inner = gen.dim(shape[shape.size() - 2]);
  llvm::Value *cols = gen.dim(shape.back());
  // Whole V x V tiles cover exactly the block when its bounds and I and J
  // are multiples of V (the transpose's own square tiles are; a group that
  // follows another's rows may not be).
  llvm::Value *mask = b.getInt64(width - 1);
  llvm::Value *bounds = b.CreateOr(b.CreateOr(rowBegin, rowEnd), b.CreateOr(colBegin, colEnd));
  llvm::Value *aligned =
      b.CreateICmpEQ(b.CreateAnd(b.CreateOr(b.CreateOr(inner, cols), bounds), mask), b.getInt64(0),
                     "tiles.aligned");

  ElementType type = transpose.type().elementType();
  llvm::Type *element = storageType(b.getContext(), type);
  llvm::Type *vector = llvm::FixedVectorType::get(element, static_cast<unsigned>(width));
  llvm::Align align(static_cast<uint64_t>(elementByteSize(type)));
  llvm::Value *input = gen.wholeTensorBase(transpose.operand(0));
  emitIfElseValues(
      b, aligned,
      [&] {
        // Input rows outer, output rows inner: the V input rows a step reads
        // are read on, 64 bytes further each step, as V sequential streams.
        emitStridedLoop(
            b, colBegin, colEnd, v, {},
            [&](llvm::Value *col, llvm::ArrayRef<llvm::Value *>) {
              emitStridedLoop(
                  b, rowBegin, rowEnd, v, {},
                  [&](llvm::Value *row, llvm::ArrayRef<llvm::Value *>) {
                    // Rows row..row+V-1 share their leading index (I % V == 0).
                    llvm::Value *lead = b.CreateUDiv(row, inner);
                    llvm::Value *i = b.CreateSub(row, b.CreateMul(lead, inner));
                    llvm::Value *inputRows = b.CreateMul(lead, cols);
                    std::vector<llvm::Value *> tile;
                    for (int64_t k = 0; k < width; ++k) {
                      llvm::Value *inputRow =
                          b.CreateAdd(inputRows, b.CreateAdd(col, b.getInt64(k)));
                      llvm::Value *at = b.CreateAdd(b.CreateMul(inputRow, inner), i);
                      tile.push_back(b.CreateAlignedLoad(vector, b.CreateGEP(element, input, at),
                                                         align, "tile.row"));
                    }
                    transposeInRegisters(b, tile);
                    for (int64_t a = 0; a < width; ++a) {
                      llvm::Value *outputRow = b.CreateAdd(row, b.getInt64(a));
                      llvm::Value *at = b.CreateAdd(b.CreateMul(outputRow, cols), col);
                      for (const GroupOutput &output : group.outputs)
                        b.CreateAlignedStore(tile[static_cast<size_t>(a)],
                                             b.CreateGEP(element, output.base, at), align);
                    }
                    return std::vector<llvm::Value *>{};
                  },
                  "tile.row");
              return std::vector<llvm::Value *>{};
            },
            "tile.col");
        return std::vector<llvm::Value *>{};
      },
      [&] {
        elementLoop();
        return std::vector<llvm::Value *>{};
      });
}

} // namespace xs
