#ifndef XSTITCH_IR_PRINTER_H
#define XSTITCH_IR_PRINTER_H

// Module -> text format. Printing then parsing gives back the same IR, and
// printing that again gives the same text.

#include <string>

#include "ir/IR.h"

namespace xs {

struct PrintOptions {
  /// Literals of more elements than this (when >= 0) print as their element
  /// count and digest, which does not parse back: model listings and
  /// compile-cache keys, where hundreds of MB of weights as text would cost
  /// seconds.
  int64_t elideLiteralsAbove = -1;
  /// Literals of more elements than this (when >= 0) print as their count
  /// and first values, for people reading a model (xstitch-opt on an ONNX
  /// file); does not parse back either.
  int64_t summarizeLiteralsAbove = -1;
};

std::string printModule(const Module &module, const PrintOptions &options = {});
std::string printFunction(const Function &function, const PrintOptions &options = {});
/// One op as a line without indentation or newline: `%y = add %a, %b : f32[N]`.
std::string printOp(const Operation &op, const PrintOptions &options = {});

} // namespace xs

#endif // XSTITCH_IR_PRINTER_H
