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

namespace {

/// Edit distance between `a` and `b` (insertions, deletions, substitutions).
size_t editDistance(const std::string &a, const std::string &b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// "; did you mean '--check'?" for the known flag closest to `flag` (a
/// third of its letters different at most), else "".
std::string didYouMean(const std::string &flag, const std::vector<FlagSpec> &specs) {
  const FlagSpec *best = nullptr;
  size_t bestDistance = std::max<size_t>(1, flag.size() / 3) + 1;
  for (const FlagSpec &s : specs)
    if (size_t d = editDistance(flag, s.name); d < bestDistance) {
      best = &s;
      bestDistance = d;
    }
  return best ? absl::StrCat("; did you mean '--", best->name, "'?") : "";
}

} // namespace

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
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown flag '--", body, "'", didYouMean(body, specs), " (--help lists the flags)"));
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

const char *xstitchVersion() { return XSTITCH_VERSION; }

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
