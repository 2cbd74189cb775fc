// ONNX operators of image models' [N, C, spatial...] tensors that move or
// reduce memory only: GlobalAveragePool and GlobalMaxPool (the squeeze of
// squeeze-and-excitation blocks, CNN heads), DepthToSpace and SpaceToDepth
// (pixel shuffles), each as reductions, reshapes and one transpose (Resize
// has a file of its own: ImportResize.cpp).

#include <vector>

#include "frontend/onnx/OpImporters.h"

namespace xs {

namespace {

/// The mean (ReduceSum then a division) or maximum over every dim after N
/// and C, the reduced dims kept as 1s.
template <OpKind Kind> absl::Status importGlobalPool(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  const TensorType type = x->type();
  if (type.rank() < 2)
    return c.error(strCat("expects an input of rank at least 2 ([N, C, ...]), got ", type.str()));
  if (!isFloat(type.elementType()))
    return c.unsupported(strCat("needs a float input, got ", type.str()));
  std::vector<int64_t> spatial;
  DimExpr count(1);
  std::vector<DimExpr> kept = type.shape();
  for (int64_t d = 2; d < type.rank(); ++d) {
    spatial.push_back(d);
    count = count * type.dim(d);
    kept[static_cast<size_t>(d)] = DimExpr(1);
  }
  Value *y = x;
  if (!spatial.empty()) {
    XS_ASSIGN_OR_RETURN(y, c.create(Kind, {x}, {{"dims", Attribute::intList(spatial)}}));
  }
  if (Kind == OpKind::ReduceSum) {
    XS_ASSIGN_OR_RETURN(Value * divisor, c.dimScalar(count, type.elementType()));
    XS_ASSIGN_OR_RETURN(y, c.binary(OpKind::Div, y, divisor));
  }
  XS_ASSIGN_OR_RETURN(y, c.reshape(y, kept));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// DepthToSpace's and SpaceToDepth's block size, for an input of type
/// `type`, which must be [N, C, H, W].
absl::StatusOr<int64_t> blockSizeOfNCHW(ImportContext &c, const TensorType &type) {
  if (type.rank() != 4)
    return c.error(strCat("expects an input of rank 4 ([N, C, H, W]), got ", type.str()));
  if (!c.hasAttr("blocksize"))
    return c.error("needs the attribute blocksize");
  int64_t b = c.intAttr("blocksize", 0);
  if (b < 1)
    return c.error(strCat("blocksize is ", b, "; it must be at least 1"));
  return b;
}

/// reshape(x, split), transpose(perm), reshape to `shape`.
absl::StatusOr<Value *> splitPermuteMerge(ImportContext &c, Value *x, std::vector<DimExpr> split,
                                          std::vector<int64_t> perm, std::vector<DimExpr> shape) {
  XS_ASSIGN_OR_RETURN(Value * s, c.reshape(x, std::move(split)));
  XS_ASSIGN_OR_RETURN(Value * t,
                      c.create(OpKind::Transpose, {s}, {{"perm", Attribute::intList(perm)}}));
  return c.reshape(t, std::move(shape));
}

/// [N, C, H, W] -> [N, C/b^2, H*b, W*b]: channel c*b*b + i*b + j (CRD) or
/// (i*b + j)*C/b^2 + c (DCR, the default) moves to row h*b + i, column w*b + j.
absl::Status importDepthToSpace(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  const TensorType type = x->type();
  XS_ASSIGN_OR_RETURN(int64_t b, blockSizeOfNCHW(c, type));
  const std::string mode = c.stringAttr("mode", "DCR");
  if (mode != "DCR" && mode != "CRD")
    return c.error(strCat("mode is '", mode, "'; it must be DCR or CRD"));
  const DimExpr n = type.dim(0), h = type.dim(2), w = type.dim(3);
  const DimExpr depth = DimExpr::floorDiv(type.dim(1), b * b);
  std::vector<DimExpr> shape = {n, depth, h * DimExpr(b), w * DimExpr(b)};
  Value *y = nullptr;
  if (mode == "DCR") {
    XS_ASSIGN_OR_RETURN(
        y, splitPermuteMerge(c, x, {n, b, b, depth, h, w}, {0, 3, 4, 1, 5, 2}, std::move(shape)));
  } else {
    XS_ASSIGN_OR_RETURN(
        y, splitPermuteMerge(c, x, {n, depth, b, b, h, w}, {0, 1, 4, 2, 5, 3}, std::move(shape)));
  }
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// [N, C, H, W] -> [N, C*b^2, H/b, W/b], DepthToSpace's DCR inverse: row
/// h*b + i, column w*b + j moves to channel (i*b + j)*C + c.
absl::Status importSpaceToDepth(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  const TensorType type = x->type();
  XS_ASSIGN_OR_RETURN(int64_t b, blockSizeOfNCHW(c, type));
  const DimExpr n = type.dim(0), ch = type.dim(1);
  const DimExpr h = DimExpr::floorDiv(type.dim(2), b), w = DimExpr::floorDiv(type.dim(3), b);
  XS_ASSIGN_OR_RETURN(Value * y, splitPermuteMerge(c, x, {n, ch, h, b, w, b}, {0, 3, 5, 1, 2, 4},
                                                   {n, ch * DimExpr(b * b), h, w}));
  c.setOutput(0, y);
  return absl::OkStatus();
}

} // namespace

void addImageImporters(ImporterTable &table) {
  table["GlobalAveragePool"] = {importGlobalPool<OpKind::ReduceSum>, 1};
  table["GlobalMaxPool"] = {importGlobalPool<OpKind::ReduceMax>, 1};
  table["DepthToSpace"] = {importDepthToSpace, 11};
  table["SpaceToDepth"] = {importSpaceToDepth, 1};
}

} // namespace xs
