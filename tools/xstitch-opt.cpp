// xstitch-opt: runs any list of passes on a text IR file and prints the
// result. Every transform of xstitch can be exercised alone from here.

#include <fstream>
#include <iostream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "frontend/onnx/OnnxImporter.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "tools/common/CommandLine.h"
#include "tools/common/ExitCodes.h"
#include "transforms/Pass.h"
#include "transforms/SpecializeDims.h"
#include "transforms/SpeculateBroadcasts.h"

namespace {

const std::vector<xs::FlagSpec> kFlags = {
    {"passes", true, false, "a,b,...", "passes to run in order (see --list-passes)"},
    {"print-after-all", false, false, "", "print the IR after every pass"},
    {"print-changed", false, false, "", "print the IR after every pass that changed it"},
    {"time-passes", false, false, "", "print the time each pass took"},
    {"no-verify-each", false, false, "", "do not run the verifier after every pass"},
    {"list-passes", false, false, "", "list the passes and exit"},
    {"specialize", true, true, "SYM=N",
     "before the passes, replace the symbolic dim SYM by N everywhere (the static-shape "
     "baseline xstitch-run --specialize compiles)"},
    {"broadcast-variant", true, false, "K",
     "before the passes, replace the function by its broadcast-speculation variant K (0: every "
     "pair of dims that meet in a broadcast equal; one variant is compiled per relation); the "
     "output starts with a comment naming what the variant assumes"},
    {"print-constants", false, false, "",
     "print an ONNX model's large constants (its weights) whole; by default those of more than "
     "16 elements show their size and first values"},
    {"version", false, false, "", "print xstitch's version and exit"},
    {"help", false, false, "", "show this help"},
};

void printUsage(std::ostream &os) {
  os << "usage: xstitch-opt FILE [--passes=a,b,...] [options]\n"
        "Parses FILE (xstitch text IR; '-' reads stdin) or imports it (an ONNX model, FILE.onnx),\n"
        "runs the passes and prints the IR.\n\n"
     << xs::formatFlagHelp(kFlags);
}

absl::StatusOr<std::string> readInput(const std::string &path) {
  if (path == "-") {
    std::stringstream ss;
    ss << std::cin.rdbuf();
    return ss.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return absl::InvalidArgumentError(path + ": error: cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace

int main(int argc, char **argv) {
  absl::StatusOr<xs::ParsedArgs> args = xs::parseArgs(argc, argv, kFlags);
  if (!args.ok()) {
    std::cerr << "xstitch-opt: error: " << args.status().message() << "\n";
    return xs::kExitUserError;
  }
  if (args->has("help")) {
    printUsage(std::cout);
    return xs::kExitOk;
  }
  if (args->has("version")) {
    std::cout << "xstitch-opt: " << std::string("xstitch ") + xs::xstitchVersion() << "\n";
    return xs::kExitOk;
  }
  if (args->has("list-passes")) {
    for (const xs::PassInfo &p : xs::allPasses())
      std::cout << "  " << p.name << ": " << p.summary << "\n";
    return xs::kExitOk;
  }
  if (args->positional().size() != 1) {
    std::cerr << "xstitch-opt: error: expected exactly one input file\n";
    printUsage(std::cerr);
    return xs::kExitUserError;
  }
  const std::string &path = args->positional()[0];
  absl::StatusOr<std::string> text = readInput(path);
  if (!text.ok()) {
    std::cerr << text.status().message() << "\n";
    return xs::kExitUserError;
  }
  // An ONNX model (FILE.onnx) is imported instead of parsed.
  bool onnx = path.size() > 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
  absl::StatusOr<std::unique_ptr<xs::Module>> module;
  if (onnx) {
    absl::StatusOr<xs::OnnxImport> imported = xs::importOnnxBytes(*text, path);
    if (imported.ok())
      module = std::move(imported->module);
    else
      module = imported.status();
  } else {
    module = xs::parseModule(*text, path == "-" ? "<stdin>" : path);
  }
  if (!module.ok()) {
    std::cerr << module.status().message() << "\n";
    return xs::exitCodeFor(module.status());
  }

  if (args->has("specialize")) {
    xs::DimBindings dims;
    for (const std::string &spec : args->getAll("specialize")) {
      std::vector<std::string> kv = absl::StrSplit(spec, absl::MaxSplits('=', 1));
      int64_t value = 0;
      if (kv.size() != 2 || !absl::SimpleAtoi(kv[1], &value)) {
        std::cerr << "xstitch-opt: error: --specialize needs SYM=N, got '" << spec << "'\n";
        return xs::kExitUserError;
      }
      dims[kv[0]] = value;
    }
    if ((*module)->functions().size() != 1) {
      std::cerr << "xstitch-opt: error: --specialize takes a file with one function\n";
      return xs::kExitUserError;
    }
    absl::StatusOr<std::unique_ptr<xs::Module>> specialized =
        xs::specializeDims(*(*module)->functions().front(), dims);
    if (!specialized.ok()) {
      std::cerr << "xstitch-opt: error: " << specialized.status().message() << "\n";
      return xs::exitCodeFor(specialized.status());
    }
    module = std::move(specialized);
  }

  std::string variantComment;
  if (args->has("broadcast-variant")) {
    int64_t index = -1;
    if (!absl::SimpleAtoi(args->get("broadcast-variant"), &index) || index < 0) {
      std::cerr << "xstitch-opt: error: --broadcast-variant needs a variant number K >= 0, got '"
                << args->get("broadcast-variant") << "'\n";
      return xs::kExitUserError;
    }
    if ((*module)->functions().size() != 1) {
      std::cerr << "xstitch-opt: error: --broadcast-variant takes a file with one function\n";
      return xs::kExitUserError;
    }
    const xs::Function &function = *(*module)->functions().front();
    absl::StatusOr<std::vector<xs::BroadcastVariant>> variants = xs::broadcastVariants(function);
    if (!variants.ok()) {
      std::cerr << "xstitch-opt: error: " << variants.status().message() << "\n";
      return xs::exitCodeFor(variants.status());
    }
    if (static_cast<size_t>(index) >= variants->size()) {
      std::cerr << "xstitch-opt: error: @" << function.name() << " has " << variants->size()
                << " broadcast variant(s)"
                << (variants->empty() ? " (no dims meet in a broadcast)" : "") << ", no variant "
                << index << "\n";
      return xs::kExitUserError;
    }
    const xs::BroadcastVariant &variant = (*variants)[static_cast<size_t>(index)];
    absl::StatusOr<std::unique_ptr<xs::Module>> speculated =
        xs::substituteDims(function, variant.substitution);
    if (!speculated.ok()) {
      std::cerr << "xstitch-opt: error: " << speculated.status().message() << "\n";
      return xs::exitCodeFor(speculated.status());
    }
    module = std::move(speculated);
    variantComment = absl::StrCat("// broadcast variant ", index, " of ", variants->size(),
                                  ": assumes ", variant.str(), "\n");
  }

  std::vector<std::string> passes;
  if (args->has("passes"))
    passes = absl::StrSplit(args->get("passes"), ',', absl::SkipWhitespace());
  xs::PipelineOptions options;
  options.printAfterAll = args->has("print-after-all");
  options.printChanged = args->has("print-changed");
  options.timePasses = args->has("time-passes");
  options.verifyEach = !args->has("no-verify-each");
  options.log = &std::cerr;
  options.analysisOut = &std::cout;
  if (absl::Status s = xs::runPipeline(**module, passes, options); !s.ok()) {
    // Errors without a source location (an unknown pass) name the tool.
    std::cerr << (absl::StartsWith(s.message(), "error:") ? "xstitch-opt: " : "") << s.message()
              << "\n";
    return xs::exitCodeFor(s);
  }
  // A model's weights as text are megabytes on one line: shown by their
  // size and first values unless asked for (text IR prints as it parses).
  xs::PrintOptions print;
  if (onnx && !args->has("print-constants"))
    print.summarizeLiteralsAbove = 16;
  std::cout << variantComment << xs::printModule(**module, print);
  return xs::kExitOk;
}
