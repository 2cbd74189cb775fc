#ifndef XSTITCH_IR_PRINTER_H
#define XSTITCH_IR_PRINTER_H

// Module -> text format. Printing then parsing gives back the same IR, and
// printing that again gives the same text.

#include <string>

#include "ir/IR.h"

namespace xs {

std::string printModule(const Module &module);
std::string printFunction(const Function &function);
/// One op as a line without indentation or newline: `%y = add %a, %b : f32[N]`.
std::string printOp(const Operation &op);

} // namespace xs

#endif // XSTITCH_IR_PRINTER_H
