#include "frontend/onnx/OpImporters.h"

namespace xs {

const ImporterTable &onnxImporters() {
  static const ImporterTable table = [] {
    ImporterTable t;
    addElementwiseImporters(t);
    addShapeImporters(t);
    addMovementImporters(t);
    addReductionImporters(t);
    addEinsumImporter(t);
    addImageImporters(t);
    addResizeImporters(t);
    addActivationImporters(t);
    addNormalizationImporters(t);
    addLossImporters(t);
    return t;
  }();
  return table;
}

uint32_t shapeOperandMask(const std::string &opType) {
  static const absl::flat_hash_map<std::string, uint32_t> masks = {
      {"Reshape", 0b10},      {"Expand", 0b10}, {"Tile", 0b10},      {"Slice", 0b11110},
      {"Pad", 0b110},         {"Split", 0b10},  {"Squeeze", 0b10},   {"Unsqueeze", 0b10},
      {"ConstantOfShape", 1}, {"Range", 0b111}, {"ReduceSum", 0b10}, {"Dropout", 0b110},
      {"Trilu", 0b10},        {"CumSum", 0b10}, {"TopK", 0b10},      {"OneHot", 0b10},
      {"Resize", 0b1110},
  };
  auto it = masks.find(opType);
  return it == masks.end() ? 0 : it->second;
}

} // namespace xs
