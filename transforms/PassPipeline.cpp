#include <cassert>
#include <chrono>
#include <iomanip>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"
#include "transforms/Pass.h"

namespace xs {

namespace {

absl::Status checkTypesKnown(const Function &f, std::string_view pass) {
  for (const auto &op : f.ops()) {
    if (!op->type().known())
      return errorAtCat(op->loc(), "pass '", pass, "' needs the type of %", op->result()->name(),
                        " to be known; run shape-inference first or write the type");
  }
  return absl::OkStatus();
}

} // namespace

absl::Status runPipeline(Module &module, const std::vector<std::string> &passNames,
                         const PipelineOptions &options) {
  std::vector<const PassInfo *> passes;
  for (const std::string &name : passNames) {
    const PassInfo *p = lookupPass(name);
    if (!p) {
      std::vector<std::string> known;
      for (const PassInfo &info : allPasses())
        known.push_back(std::string(info.name));
      return absl::InvalidArgumentError(
          strCat("error: unknown pass '", name, "'; known passes: ", absl::StrJoin(known, ", ")));
    }
    passes.push_back(p);
  }

  std::vector<double> seconds(passes.size(), 0.0);
  for (size_t i = 0; i < passes.size(); ++i) {
    const PassInfo &pass = *passes[i];
    bool changed = false;
    auto start = std::chrono::steady_clock::now();
    for (const auto &function : module.functions()) {
      if (pass.needsKnownTypes) {
        if (absl::Status s = checkTypesKnown(*function, pass.name); !s.ok())
          return s;
      }
      if (pass.analyze) {
        assert(options.analysisOut && "an analysis pass needs PipelineOptions::analysisOut");
        PassContext context{options.analysisOut, &options.target};
        if (absl::Status s = pass.analyze(*function, context); !s.ok())
          return s;
        continue;
      }
      absl::StatusOr<bool> result = pass.run(*function);
      if (!result.ok())
        return result.status();
      changed |= *result;
    }
    seconds[i] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    if (options.printAfterAll || (options.printChanged && changed)) {
      *options.log << "// -----// IR after " << pass.name << (changed ? "" : " (unchanged)")
                   << " //----- //\n"
                   << printModule(module);
    }
    if (options.verifyEach) {
      VerifyOptions vo;
      vo.requireKnownTypes = false;
      if (absl::Status s = verifyModule(module, vo); !s.ok())
        return absl::InternalError(
            strCat("IR is invalid after pass '", pass.name, "': ", s.message()));
    }
  }

  if (options.timePasses) {
    double total = 0;
    for (double s : seconds)
      total += s;
    *options.log << "===-------------------------------------------===\n"
                 << "  pass execution timing report\n"
                 << "===-------------------------------------------===\n";
    for (size_t i = 0; i < passes.size(); ++i)
      *options.log << std::fixed << std::setprecision(4) << "  " << std::setw(10)
                   << seconds[i] * 1e3 << " ms  " << passes[i]->name << "\n";
    *options.log << std::fixed << std::setprecision(4) << "  " << std::setw(10) << total * 1e3
                 << " ms  total\n";
  }
  return absl::OkStatus();
}

} // namespace xs
