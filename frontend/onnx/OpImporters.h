#ifndef XSTITCH_FRONTEND_ONNX_OPIMPORTERS_H
#define XSTITCH_FRONTEND_ONNX_OPIMPORTERS_H

// The table of ONNX operator importers (default domain), filled by one
// function per operator family. An importer reads its node through the
// ImportContext, builds xstitch ops and sets the node's outputs.

#include <string>

#include "absl/container/flat_hash_map.h"
#include "frontend/onnx/ImportContext.h"
#include "ir/Diagnostics.h"

namespace xs {

using OpImportFn = absl::Status (*)(ImportContext &);

struct OpImporter {
  OpImportFn import = nullptr;
  /// The oldest opset whose version of the operator the importer handles.
  int minOpset = 7;
};

using ImporterTable = absl::flat_hash_map<std::string, OpImporter>;

void addElementwiseImporters(ImporterTable &table);   // ImportElementwise.cpp
void addShapeImporters(ImporterTable &table);         // ImportShape.cpp
void addMovementImporters(ImporterTable &table);      // ImportMovement.cpp
void addReductionImporters(ImporterTable &table);     // ImportReductions.cpp
void addEinsumImporter(ImporterTable &table);         // ImportEinsum.cpp
void addImageImporters(ImporterTable &table);         // ImportImage.cpp
void addResizeImporters(ImporterTable &table);        // ImportResize.cpp
void addActivationImporters(ImporterTable &table);    // ImportActivations.cpp
void addNormalizationImporters(ImporterTable &table); // ImportNormalization.cpp
void addLossImporters(ImporterTable &table);          // ImportLosses.cpp

/// A formula on input 0 that needs floats (activations, and the functions
/// the IR lacks): its importer.
using FloatFormula = absl::StatusOr<Value *> (*)(ImportContext &, Value *);
template <FloatFormula Fn> absl::Status importFloatFormula(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  if (!isFloat(x->type().elementType()))
    return c.unsupported(strCat("needs a float input, got ", x->type().str()));
  XS_ASSIGN_OR_RETURN(Value * y, Fn(c, x));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// Every importer, built once.
const ImporterTable &onnxImporters();

/// The graph inputs at these positions of an operator are shape operands
/// (Reshape's shape, Slice's bounds): they must be known when compiling.
/// Bit i set: input i.
uint32_t shapeOperandMask(const std::string &opType);

} // namespace xs

#endif // XSTITCH_FRONTEND_ONNX_OPIMPORTERS_H
