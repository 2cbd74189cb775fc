#ifndef XSTITCH_TOOLS_COMMON_COMMANDLINE_H
#define XSTITCH_TOOLS_COMMON_COMMANDLINE_H

// A small command-line parser for the xstitch tools: `--name=value`,
// `--name value`, repeatable flags, boolean flags, and positional arguments.
// (absl flags cannot repeat a flag, which --input NAME=PATH needs.)

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace xs {

struct FlagSpec {
  std::string name;      // without the leading dashes
  bool takesValue;       // false: a boolean switch (`--check`)
  bool repeatable;       // may appear several times
  std::string valueHint; // for --help: `NAME=PATH`
  std::string help;
  /// For flags with an optional value (`--explain`, `--explain=dot`): the value
  /// used when none is given. Only for flags that take a value.
  std::optional<std::string> implicitValue;
};

class ParsedArgs {
public:
  bool has(const std::string &name) const { return values_.count(name) > 0; }
  /// The last value of a flag, or `dflt`.
  std::string get(const std::string &name, const std::string &dflt = "") const;
  /// Every value of a repeatable flag, in order.
  std::vector<std::string> getAll(const std::string &name) const;
  const std::vector<std::string> &positional() const { return positional_; }

private:
  friend absl::StatusOr<ParsedArgs> parseArgs(int, char **, const std::vector<FlagSpec> &);
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positional_;
};

/// Parses argv against `specs`. Unknown flags, missing values and repeated
/// non-repeatable flags are errors whose message names the flag.
absl::StatusOr<ParsedArgs> parseArgs(int argc, char **argv, const std::vector<FlagSpec> &specs);

/// The flag table formatted for --help.
std::string formatFlagHelp(const std::vector<FlagSpec> &specs);

/// xstitch's version (CMake's project version): "0.1.0".
const char *xstitchVersion();

} // namespace xs

#endif // XSTITCH_TOOLS_COMMON_COMMANDLINE_H
