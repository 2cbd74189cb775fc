#ifndef XSTITCH_IR_DIAGNOSTICS_H
#define XSTITCH_IR_DIAGNOSTICS_H

// Locations and user-facing errors. A user mistake becomes an absl::Status
// whose message already reads `file:line:col: error: what to do`, so every tool
// prints it verbatim. Internal invariants use assert, never a Status.

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

#define XS_DIAG_CONCAT_INNER(a, b) a##b
#define XS_DIAG_CONCAT(a, b) XS_DIAG_CONCAT_INNER(a, b)
/// `XS_RETURN_IF_ERROR(status);` returns a status that is not ok.
#define XS_RETURN_IF_ERROR(expr)                                                                   \
  do {                                                                                             \
    absl::Status xsStatus = (expr);                                                                \
    if (!xsStatus.ok())                                                                            \
      return xsStatus;                                                                             \
  } while (false)
#define XS_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr)                                                   \
  auto tmp = (expr);                                                                               \
  if (!tmp.ok())                                                                                   \
    return tmp.status();                                                                           \
  lhs = std::move(*tmp)
/// `XS_ASSIGN_OR_RETURN(DimExpr d, parseDim());` returns the error or assigns.
#define XS_ASSIGN_OR_RETURN(lhs, expr)                                                             \
  XS_ASSIGN_OR_RETURN_IMPL(XS_DIAG_CONCAT(xsStatusOr, __LINE__), lhs, expr)

namespace xs {

/// A position in a source file. Line and column are 1-based; line 0 means
/// "unknown" (IR created by a pass without a source position).
struct Location {
  std::shared_ptr<const std::string> file;
  int line = 0;
  int col = 0;
  /// Where in an imported model the op comes from, as the model names it:
  /// "/encoder/layer.0/ReduceMean (ReduceMean)", "initializer 'ln.weight'";
  /// null for text IR (its line and column say where).
  std::shared_ptr<const std::string> origin;

  bool known() const { return line > 0; }
  /// `file:line:col`, or `file` alone when the position is unknown.
  std::string str() const;
};

namespace detail {
// Debian's Abseil has its own absl::string_view, distinct from
// std::string_view, so StrCat does not take std::string_view directly.
template <typename T> const T &alphaNumArg(const T &v) { return v; }
inline absl::string_view alphaNumArg(std::string_view v) { return {v.data(), v.size()}; }
} // namespace detail

/// absl::StrCat that also accepts std::string_view pieces.
template <typename... Args> std::string strCat(const Args &...args) {
  return absl::StrCat(detail::alphaNumArg(args)...);
}

/// An InvalidArgument status whose message is `loc: error: msg`.
absl::Status errorAt(const Location &loc, std::string_view msg);

/// Builds an error with absl::StrCat-style pieces: errorAt(loc, "x ", 3).
template <typename... Args> absl::Status errorAtCat(const Location &loc, const Args &...args) {
  return errorAt(loc, strCat(args...));
}

/// An Unimplemented status (exit code 2 in tools) at a location.
absl::Status unsupportedAt(const Location &loc, std::string_view msg);

} // namespace xs

#endif // XSTITCH_IR_DIAGNOSTICS_H
