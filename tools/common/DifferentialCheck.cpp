#include "tools/common/DifferentialCheck.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "ir/Interpreter.h"
#include "ir/Parser.h"
#include "runtime/Tensor.h"
#include "transforms/Pass.h"

namespace xs {

absl::StatusOr<std::unique_ptr<Module>>
parseSingleFunction(std::string_view text, const std::vector<std::string> &passes) {
  absl::StatusOr<std::unique_ptr<Module>> module = parseModule(text, "graph.xs");
  if (!module.ok())
    return module.status();
  if ((*module)->functions().size() != 1)
    return absl::InvalidArgumentError("expected exactly one function");
  if (absl::Status s = runPipeline(**module, passes, PipelineOptions()); !s.ok())
    return s;
  return module;
}

absl::StatusOr<std::vector<HostTensor>> runExecutable(const Executable &executable,
                                                      const std::vector<HostTensor> &inputs,
                                                      RunStats *stats) {
  std::vector<Tensor> tensors;
  tensors.reserve(inputs.size());
  std::vector<TensorView> views;
  for (const HostTensor &t : inputs) {
    tensors.push_back(toTensor(t));
    views.push_back(tensors.back().view());
  }
  absl::StatusOr<std::vector<Tensor>> outputs = executable.run(views, stats);
  if (!outputs.ok())
    return outputs.status();
  std::vector<HostTensor> result;
  for (const Tensor &t : *outputs)
    result.push_back(toHostTensor(t.view()));
  return result;
}

std::string describeMismatch(const std::string &name, const HostTensor &actual,
                             const HostTensor &expected, Tolerance tolerance) {
  CompareResult r = compareTensors(actual, expected, tolerance);
  if (r.passed())
    return "";
  if (!r.shapeMatches)
    return absl::StrCat("result ", name, ": shape ", actual.typeStr(), " but expected ",
                        expected.typeStr(), "\n");
  std::string out =
      absl::StrFormat("result %s (%s): %d of %d elements differ (atol %g rtol %g)\n", name,
                      actual.typeStr(), r.mismatches, r.total, tolerance.atol, tolerance.rtol);
  for (const ElementDiff &d : r.worst)
    absl::StrAppend(&out,
                    absl::StrFormat("  at %s: got %.9g, expected %.9g\n",
                                    formatIndex(d.index, actual.shape()), d.actual, d.expected));
  return out;
}

absl::StatusOr<DifferentialResult> runDifferential(std::string_view text,
                                                   const std::vector<HostTensor> &inputs,
                                                   const CompileOptions &options,
                                                   Tolerance tolerance) {
  return runDifferential(text, inputs, options, std::vector<Tolerance>{tolerance});
}

absl::StatusOr<DifferentialResult> runDifferential(std::string_view text,
                                                   const std::vector<HostTensor> &inputs,
                                                   const CompileOptions &options,
                                                   const std::vector<Tolerance> &tolerances) {
  absl::StatusOr<std::unique_ptr<Module>> reference =
      parseSingleFunction(text, {"shape-inference"});
  if (!reference.ok())
    return reference.status();
  const Function &refFunction = *(*reference)->functions().front();
  absl::StatusOr<std::vector<HostTensor>> expected = interpret(refFunction, inputs);
  // Inputs the interpreter refuses (a data error) are checked for the
  // compiled run refusing them too.
  bool refusedByOracle = !expected.ok() && absl::IsInvalidArgument(expected.status());
  if (!expected.ok() && !refusedByOracle)
    return absl::Status(expected.status().code(),
                        absl::StrCat("reference interpreter: ", expected.status().message()));

  absl::StatusOr<std::unique_ptr<Module>> canonical = parseSingleFunction(text, defaultPipeline());
  if (!canonical.ok())
    return canonical.status();
  absl::StatusOr<std::shared_ptr<Executable>> executable =
      compileFunction(*(*canonical)->functions().front(), options);
  if (!executable.ok())
    return absl::Status(executable.status().code(),
                        absl::StrCat("compile: ", executable.status().message()));
  absl::StatusOr<std::vector<HostTensor>> actual = runExecutable(**executable, inputs);
  if (refusedByOracle) {
    DifferentialResult result;
    if (!actual.ok() && absl::IsInvalidArgument(actual.status())) {
      result.passed = result.refused = true;
      result.message =
          absl::StrCat("both refuse the inputs; the interpreter: ", expected.status().message(),
                       "\ncompiled code: ", actual.status().message(), "\n");
    } else {
      result.message =
          absl::StrCat("the reference interpreter refuses these inputs (",
                       expected.status().message(), ") but the compiled run ",
                       actual.ok() ? std::string("returned results")
                                   : absl::StrCat("failed otherwise: ", actual.status().message()),
                       "\n");
    }
    return result;
  }
  if (!actual.ok())
    return absl::Status(actual.status().code(), absl::StrCat("run: ", actual.status().message()));
  if (actual->size() != expected->size())
    return absl::InternalError(absl::StrCat("the compiled function returned ", actual->size(),
                                            " results, the interpreter ", expected->size()));
  if (tolerances.size() != 1 && tolerances.size() != actual->size())
    return absl::InternalError(
        absl::StrCat(tolerances.size(), " tolerances for ", actual->size(), " results"));
  DifferentialResult result;
  result.passed = true;
  for (size_t i = 0; i < actual->size(); ++i) {
    Tolerance tolerance = tolerances[tolerances.size() == 1 ? 0 : i];
    std::string diff =
        describeMismatch(refFunction.results()[i].name, (*actual)[i], (*expected)[i], tolerance);
    if (!diff.empty()) {
      result.passed = false;
      absl::StrAppend(&result.message, diff);
    }
  }
  return result;
}

} // namespace xs
