// Every .xs file in the repository (except deliberately malformed ones) must
// parse, and print -> parse -> print must reproduce the first print exactly.

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "ir/Parser.h"
#include "ir/Printer.h"
#include "tests/unit/SourceDir.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

namespace fs = std::filesystem;

/// Folders whose .xs files are not expected to parse or are not sources:
/// build trees, hidden folders, syntax diagnostics and fuzzer inputs.
bool skipped(const fs::path &relative) {
  std::string first = relative.begin()->string();
  if (first.rfind("build", 0) == 0 || first.rfind(".", 0) == 0)
    return true;
  std::string generic = relative.generic_string();
  return generic.rfind("tests/diagnostics", 0) == 0 || generic.rfind("tests/fuzz", 0) == 0;
}

std::vector<fs::path> sourceFiles() {
  fs::path root(testSourceDir());
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    fs::path relative = fs::relative(it->path(), root);
    if (it->is_directory() && skipped(relative)) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().extension() == ".xs" && !skipped(relative))
      files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(RoundTripTest, EveryRepositoryFilePrintsAndReparsesIdentically) {
  std::vector<fs::path> files = sourceFiles();
  ASSERT_FALSE(files.empty()) << "no .xs files under " << testSourceDir();
  for (const fs::path &file : files) {
    SCOPED_TRACE(file.string());
    absl::StatusOr<std::unique_ptr<Module>> first = parseModuleFile(file.string());
    if (!first.ok()) {
      ADD_FAILURE() << first.status().message();
      continue;
    }
    std::string printed = printModule(**first);
    absl::StatusOr<std::unique_ptr<Module>> second = parseModule(printed, "<printed>");
    if (!second.ok()) {
      ADD_FAILURE() << second.status().message() << "\nin the print:\n" << printed;
      continue;
    }
    std::string reprinted = printModule(**second);
    EXPECT_EQ(printed, reprinted);
  }
}

TEST(RoundTripTest, TheSyntaxSampleIsCovered) {
  // Guards the skip rules: the sample of every construct must be visited.
  std::vector<fs::path> files = sourceFiles();
  bool found = std::any_of(files.begin(), files.end(), [](const fs::path &p) {
    return p.generic_string().ends_with("tests/roundtrip/syntax.xs");
  });
  EXPECT_TRUE(found);
  bool visitsDiagnostics = std::any_of(files.begin(), files.end(), [](const fs::path &p) {
    return p.generic_string().find("tests/diagnostics/") != std::string::npos;
  });
  EXPECT_FALSE(visitsDiagnostics);
}

} // namespace
} // namespace xs
