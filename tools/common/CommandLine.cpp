#include "tools/common/CommandLine.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace xs {

std::string ParsedArgs::get(const std::string &name, const std::string &dflt) const {
  auto it = values_.find(name);
  return it == values_.end() || it->second.empty() ? dflt : it->second.back();
}

std::vector<std::string> ParsedArgs::getAll(const std::string &name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

absl::StatusOr<ParsedArgs> parseArgs(int argc, char **argv, const std::vector<FlagSpec> &specs) {
  ParsedArgs args;
  bool flagsDone = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (flagsDone || arg.size() < 2 || arg[0] != '-' || arg == "-") {
      args.positional_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      flagsDone = true;
      continue;
    }
    std::string body = arg.substr(arg[1] == '-' ? 2 : 1);
    std::optional<std::string> value;
    if (size_t eq = body.find('='); eq != std::string::npos) {
      value = body.substr(eq + 1);
      body = body.substr(0, eq);
    }
    auto spec =
        std::find_if(specs.begin(), specs.end(), [&](const FlagSpec &s) { return s.name == body; });
    if (spec == specs.end())
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag '--", body, "'; see --help for the list of flags"));
    if (!spec->takesValue && value)
      return absl::InvalidArgumentError(absl::StrCat("flag '--", body, "' takes no value"));
    if (spec->takesValue && !value) {
      if (spec->implicitValue) {
        value = *spec->implicitValue;
      } else {
        if (i + 1 >= argc)
          return absl::InvalidArgumentError(
              absl::StrCat("flag '--", body, "' needs a value (", spec->valueHint, ")"));
        value = argv[++i];
      }
    }
    std::vector<std::string> &slot = args.values_[body];
    if (!slot.empty() && !spec->repeatable && spec->takesValue)
      return absl::InvalidArgumentError(
          absl::StrCat("flag '--", body, "' is given more than once"));
    slot.push_back(value.value_or("true"));
  }
  return args;
}

std::string formatFlagHelp(const std::vector<FlagSpec> &specs) {
  std::string out;
  for (const FlagSpec &s : specs) {
    std::string left = absl::StrCat("  --", s.name);
    if (s.takesValue)
      absl::StrAppend(&left, s.implicitValue ? "[=" : "=", s.valueHint, s.implicitValue ? "]" : "");
    if (left.size() < 30)
      left.resize(30, ' ');
    else
      left += "\n" + std::string(30, ' ');
    absl::StrAppend(&out, left, s.help, s.repeatable ? " (repeatable)" : "", "\n");
  }
  return out;
}

} // namespace xs
