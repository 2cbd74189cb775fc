#ifndef XSTITCH_IR_PARSER_H
#define XSTITCH_IR_PARSER_H

// The text format (docs/ir.md) -> Module. Errors carry `file:line:col`.

#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// Parses `text`; `fileName` is used in locations. Result types may be left
/// out in the text (they stay unknown until shape inference); parameter types
/// are required. The parser checks syntax, names (defined once, defined
/// before use), op mnemonics, operand counts and attribute names and kinds,
/// and records `where` constraints; it does not type-check (see Verifier.h).
absl::StatusOr<std::unique_ptr<Module>> parseModule(std::string_view text,
                                                    std::string_view fileName);

/// Reads and parses a file; a missing or unreadable file is an error naming it.
absl::StatusOr<std::unique_ptr<Module>> parseModuleFile(const std::string &path);

/// Parses one dimension expression, e.g. "B*S - 1" (for tools and tests).
absl::StatusOr<DimExpr> parseDimExpr(std::string_view text);

} // namespace xs

#endif // XSTITCH_IR_PARSER_H
