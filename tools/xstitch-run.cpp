// xstitch-run: runs a function of a text IR file or an ONNX model on a
// device with given or random inputs, prints its outputs, compares them with
// expected values or with the reference interpreter, and times it; or runs
// ONNX's operator test cases (--conformance).

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>

#include <unistd.h>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "driver/Backends.h"
#include "driver/BuildIdentity.h"
#include "driver/Compiler.h"
#include "driver/DeviceNames.h"
#include "frontend/onnx/OnnxImporter.h"
#include "ir/Diagnostics.h"
#include "ir/HostSymbols.h"
#include "ir/Interpreter.h"
#include "ir/Parser.h"
#include "runtime/Tensor.h"
#include "runtime/devices/Devices.h"
#include "tools/Conformance.h"
#include "tools/Explain.h"
#include "tools/LibraryRun.h"
#include "tools/ModelFiles.h"
#include "tools/RunBench.h"
#include "tools/RunFlagChecks.h"
#include "tools/RunFlags.h"
#include "tools/RunInputs.h"
#include "tools/RunReport.h"
#include "tools/RunTrace.h"
#include "tools/TensorFiles.h"
#include "tools/common/CommandLine.h"
#include "tools/common/DifferentialCheck.h"
#include "tools/common/ExitCodes.h"
#include "tools/common/Npy.h"
#include "tools/common/TensorCompare.h"
#include "tools/common/TerminalProgress.h"
#include "transforms/Pass.h"
#include "transforms/SpeculateBroadcasts.h"

namespace xs {
namespace {

// Prints a failed status and returns its exit code.
int report(const absl::Status &s) {
  std::string msg(s.message());
  if (msg.find("error:") == std::string::npos)
    std::cerr << "xstitch-run: error: " << msg << "\n";
  else if (msg.rfind("error:", 0) == 0)
    std::cerr << "xstitch-run: " << msg << "\n";
  else
    std::cerr << msg << "\n";
  return exitCodeFor(s);
}

absl::StatusOr<Tolerance> toleranceFor(const ParsedArgs &args, ElementType t) {
  Tolerance tol = defaultTolerance(t);
  if (args.has("atol") && !absl::SimpleAtod(args.get("atol"), &tol.atol))
    return absl::InvalidArgumentError("--atol needs a number");
  if (args.has("rtol") && !absl::SimpleAtod(args.get("rtol"), &tol.rtol))
    return absl::InvalidArgumentError("--rtol needs a number");
  return tol;
}

// Prints the comparison of one result; returns whether it passed.
bool printComparison(std::ostream &out, std::string_view what, const std::string &name,
                     const HostTensor &actual, const HostTensor &expected, Tolerance tol) {
  CompareResult r = compareTensors(actual, expected, tol);
  if (!r.shapeMatches) {
    out << what << " " << name << ": FAIL: shape " << actual.typeStr() << " but expected "
        << expected.typeStr() << "\n";
    return false;
  }
  if (r.passed()) {
    out << absl::StrFormat("%s %s: pass (%d elements, max abs error %.3g, atol %g rtol %g)\n", what,
                           name, r.total, r.maxAbsError, tol.atol, tol.rtol);
    return true;
  }
  out << absl::StrFormat("%s %s: FAIL: %d of %d elements differ (atol %g rtol %g); worst:\n", what,
                         name, r.mismatches, r.total, tol.atol, tol.rtol);
  for (const ElementDiff &d : r.worst)
    out << absl::StrFormat("  at %s: got %.9g, expected %.9g\n",
                           formatIndex(d.index, actual.shape()), d.actual, d.expected);
  return false;
}

// Bundles are named .xsb (xstitch-compile's default).
bool isBundlePath(const std::string &path) {
  return path.size() > 4 && path.compare(path.size() - 4, 4, ".xsb") == 0;
}

// --device when the flag is absent: $XSTITCH_DEVICE (test suites pin it, as
// JAX_PLATFORMS does for JAX), else auto.
std::string deviceFlag(const ParsedArgs &args) {
  const char *fromEnvironment = std::getenv("XSTITCH_DEVICE");
  return args.get("device", fromEnvironment && *fromEnvironment ? fromEnvironment : "auto");
}

// How to compile, from the flags.
/// --progress, checked by checkRunFlags.
ProgressMode progressMode(const ParsedArgs &args) {
  return parseProgressMode(args.get("progress", "auto")).value_or(ProgressMode::Auto);
}

absl::StatusOr<CompileOptions> compileOptionsFrom(const ParsedArgs &args) {
  CompileOptions options;
  options.device = "cpu";
  options.fusion = !args.has("no-fusion");
  options.flushDenormals = !args.has("keep-denormals");
  options.syncLaunches = args.has("sync-launches");
  options.cpu = args.get("cpu");
  options.features = args.get("features");
  options.diskCache = diskCacheOptionsFor(args.get("cache-dir"));
  if (args.has("threads") &&
      (!absl::SimpleAtoi(args.get("threads"), &options.threads) || options.threads < 1))
    return absl::InvalidArgumentError("--threads needs a positive integer");
  if (args.has("block-elements") &&
      (!absl::SimpleAtoi(args.get("block-elements"), &options.blockElements) ||
       options.blockElements < 1))
    return absl::InvalidArgumentError("--block-elements needs a positive integer");
  if (args.has("streaming-stores")) {
    std::string value = args.get("streaming-stores");
    if (value == "never")
      options.streamingStoreBytes = -1;
    else if (value != "auto" && (!absl::SimpleAtoi(value, &options.streamingStoreBytes) ||
                                 options.streamingStoreBytes < 1))
      return absl::InvalidArgumentError(absl::StrCat(
          "--streaming-stores takes auto, never or a positive number of bytes, not '", value, "'"));
  }
  options.amdgpuBpermute = args.get("amdgpu-shuffles") == "bpermute";
  return options;
}

// Runs the function on the chosen device: through the C API, or on the
// reference interpreter.
class Runner {
public:
  Runner(const Function &function, LibraryExecutable *executable)
      : function_(function), executable_(executable) {
    // A bundle's signature has no values: its results' types are the
    // executable's.
    if (executable && !function.results().empty() && !function.results()[0].value)
      resultTypes_ = executable->resultTypes();
    else
      for (const FunctionResult &result : function.results())
        resultTypes_.push_back(result.value->type().elementType());
  }
  absl::StatusOr<std::vector<HostTensor>> run(const std::vector<HostTensor> &inputs,
                                              RunStats *stats) const {
    if (!executable_)
      return interpret(function_, inputs);
    return executable_->run(inputs, resultTypes_, stats);
  }

  /// Seconds one run takes. On a device the inputs are converted to typed
  /// memory once, outside the timing, and the outputs are not converted
  /// back: what is timed is what a framework calling the C API pays.
  absl::StatusOr<double> timeRun(const std::vector<HostTensor> &inputs, RunStats *stats) {
    if (executable_)
      return executable_->timeRun(inputs, stats);
    auto start = std::chrono::steady_clock::now();
    absl::StatusOr<std::vector<HostTensor>> out = interpret(function_, inputs);
    if (!out.ok())
      return out.status();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

private:
  const Function &function_;
  LibraryExecutable *executable_; // null: the reference interpreter
  std::vector<ElementType> resultTypes_;
};

// The kernels one run launches, as the report lists them.
std::vector<KernelReport> kernelsOf(const HostPlan &plan) {
  std::vector<KernelReport> kernels;
  for (const HostStep &step : plan.steps) {
    if (step.kind == HostStep::Kind::Alias)
      continue;
    KernelReport k;
    k.kind = step.kind == HostStep::Kind::Launch ? "launch" : "library";
    k.name = step.kind == HostStep::Kind::Launch ? step.kernel
                                                 : std::string(opInfo(step.libraryOp).mnemonic);
    k.ops = step.ops;
    k.reads = stepSources(plan, step);
    kernels.push_back(std::move(k));
  }
  return kernels;
}

// Adds what the stitch plan says about each launch: the variant the dims
// pick, its phases and edge schemes, bytes moved against the minimum.
void describeLaunches(const ProgramPlan &plan, const DimBindings &dims,
                      std::vector<KernelReport> &kernels) {
  for (KernelReport &k : kernels)
    for (const KernelPlan &kernel : plan.kernels) {
      if (k.kind != "launch" || kernel.name != k.name)
        continue;
      size_t v = selectedVariant(kernel, dims);
      const KernelVariant &variant = kernel.variants[v];
      k.variant = static_cast<int>(v);
      for (const auto &op : kernel.body->ops())
        if (!op->loc().origin && op->loc().known())
          k.sources.push_back(opSourceSummary(*op));
      k.phases = static_cast<int>(variant.phases.size());
      for (const PlanEdge &e : variant.edges)
        k.edges.push_back({"%" + e.value->name(), std::string(stitchSchemeName(e.scheme))});
      const DimExpr &moved =
          variant.estimatedBytes != DimExpr(0) ? variant.estimatedBytes : kernel.minimumBytes;
      if (absl::StatusOr<int64_t> bytes = moved.evaluate(dims); bytes.ok())
        k.bytesMoved = static_cast<double>(*bytes);
      if (absl::StatusOr<int64_t> bytes = kernel.minimumBytes.evaluate(dims); bytes.ok())
        k.minimumBytes = static_cast<double>(*bytes);
    }
}

/// `NAME=VALUE` specs with ONNX graph names turned into the function's
/// parameter (or result) names, which the import made valid IR names.
std::vector<std::string> renameOnnxSpecs(std::vector<std::string> specs,
                                         const std::vector<std::string> &onnxNames,
                                         const Function &function, bool params) {
  for (std::string &spec : specs) {
    size_t eq = spec.find('=');
    std::string name = spec.substr(0, eq);
    for (size_t i = 0; i < onnxNames.size(); ++i)
      if (onnxNames[i] == name) {
        const std::string &irName =
            params ? function.params()[i]->name() : function.results()[i].name;
        spec = irName + (eq == std::string::npos ? "" : spec.substr(eq));
      }
  }
  return specs;
}

int64_t bytesOf(const HostTensor &t) { return t.numElements() * elementByteSize(t.elementType()); }

/// What a report of a run at `dims` plans: a function whose dims meet in
/// broadcasts stands for the variant those dims select, with a line saying
/// which (`header`); any other for itself.
struct ReportedFunction {
  const Function *function = nullptr;
  std::unique_ptr<Module> variantModule; // holds the variant's function
  int variants = 1;
  int chosen = 0;
  std::string header;
};

absl::StatusOr<ReportedFunction> reportedFunction(const Function &function,
                                                  const DimBindings &dims) {
  ReportedFunction out;
  out.function = &function;
  XS_ASSIGN_OR_RETURN(std::vector<BroadcastVariant> variants, broadcastVariants(function));
  if (variants.empty())
    return out;
  size_t chosen = variantAt(function, variants, dims);
  std::vector<std::string> listed;
  for (size_t v = 0; v < variants.size(); ++v)
    listed.push_back(absl::StrCat(v, ": ", variants[v].str()));
  out.variants = static_cast<int>(variants.size());
  out.chosen = static_cast<int>(chosen);
  out.header = absl::StrCat("@", function.name(), ": broadcast speculation compiles ",
                            variants.size(), " variants (", absl::StrJoin(listed, "; "),
                            "); variant ", chosen, " is shown\n");
  XS_ASSIGN_OR_RETURN(out.variantModule, speculatedFunction(function, variants[chosen]));
  out.function = out.variantModule->functions().front().get();
  return out;
}

int run(int argc, char **argv) {
  absl::StatusOr<ParsedArgs> args = parseArgs(argc, argv, runFlags());
  if (!args.ok())
    return report(args.status());
  if (args->has("help")) {
    printRunUsage(std::cout);
    return kExitOk;
  }
  if (args->has("version")) {
    std::cout << "xstitch-run: " << compilerIdentity() << "\n";
    return kExitOk;
  }
  if (absl::Status s = checkRunFlags(*args); !s.ok())
    return report(s);
  if (args->has("conformance")) {
    ConformanceOptions options;
    options.dir = args->get("conformance");
    absl::StatusOr<std::string> device =
        resolveDeviceName(deviceFlag(*args), /*allowReference=*/true);
    if (!device.ok())
      return report(device.status());
    options.device = *device;
    absl::StatusOr<CompileOptions> compile = compileOptionsFrom(*args);
    if (!compile.ok())
      return report(compile.status());
    options.compile = *compile;
    if (options.device != "ref")
      options.compile.device = options.device;
    options.filter = args->get("filter");
    options.scopeDir = args->get("scope");
    options.freezeShapeInputs = !args->has("runtime-shapes");
    options.progress = progressMode(*args);
    absl::StatusOr<ConformanceSummary> summary = runConformance(options, std::cout);
    if (!summary.ok())
      return report(summary.status());
    return summary->failed == 0 ? kExitOk : kExitMismatch;
  }
  if (args->positional().size() != 1) {
    std::cerr << "xstitch-run: error: expected exactly one input file\n";
    printRunUsage(std::cerr);
    return kExitUserError;
  }
  const std::string path = args->positional()[0];
  // x86 LLVM IR is what the CPU device runs: --emit=llvm on a GPU machine
  // means the CPU.
  const bool emitsX86 = args->get("emit") == "llvm" || args->get("emit") == "llvm-unopt";
  absl::StatusOr<std::string> resolvedDevice =
      emitsX86 && deviceFlag(*args) == "auto"
          ? absl::StatusOr<std::string>("cpu")
          : resolveDeviceName(deviceFlag(*args), /*allowReference=*/true);
  if (!resolvedDevice.ok())
    return report(resolvedDevice.status());
  const std::string device = *resolvedDevice;
  const bool json = args->has("report");
  // With --report=json stdout carries only the JSON object.
  std::ostream &out = json ? std::cerr : std::cout;
  absl::StatusOr<CompileOptions> compileOptions = compileOptionsFrom(*args);
  if (!compileOptions.ok())
    return report(compileOptions.status());
  if (device != "ref")
    compileOptions->device = device;

  // An AOT bundle (xstitch-compile) is loaded, not compiled: what needs the
  // graph (--check, --emit, --explain) or decides its code does not apply.
  const bool bundle = isBundlePath(path);
  std::unique_ptr<LibraryExecutable> bundleExecutable;
  OnnxNames onnxNames;
  absl::StatusOr<std::unique_ptr<Module>> module;
  if (bundle) {
    for (const char *flag :
         {"check", "emit", "explain", "function", "target", "no-fusion", "cpu", "specialize",
          "features", "block-elements", "streaming-stores", "keep-denormals", "amdgpu-shuffles"})
      if (args->has(flag))
        return report(absl::InvalidArgumentError(absl::StrCat(
            path, ": --", flag, " needs the model; a bundle holds compiled code only")));
    if (device == "ref")
      return report(absl::InvalidArgumentError(
          absl::StrCat(path, ": a bundle holds compiled code; the reference interpreter needs "
                             "the model")));
    absl::StatusOr<std::unique_ptr<LibraryExecutable>> loaded = LibraryExecutable::loadBundle(
        path, deviceFlag(*args) == "auto" ? "" : device, compileOptions->threads);
    if (!loaded.ok())
      return report(loaded.status());
    bundleExecutable = *std::move(loaded);
    module = bundleExecutable->signature();
  } else {
    // The graph that runs gets the default pipeline; --check compares it
    // with the untransformed graph (shape inference only).
    TerminalProgress progress(absl::StrCat("xstitch-run: ", path),
                              TerminalProgressOptions{.mode = progressMode(*args)});
    progress.set("importing");
    module = loadModule(path, defaultPipeline(), &onnxNames);
  }
  if (!module.ok())
    return report(module.status());
  absl::StatusOr<Function *> function = selectFunction(**module, args->get("function"), path);
  if (!function.ok())
    return report(function.status());

  // --target names the GPU code is emitted or planned for: a preset or a
  // present one.
  if (args->has("target")) {
    absl::StatusOr<DeviceSpec> target = parseDeviceName(args->get("target"));
    if (!target.ok() || !isGpuTarget(*target))
      return report(absl::InvalidArgumentError(absl::StrCat(
          "--target names a GPU: ", gpuTargetSyntax(), ", got '", args->get("target"), "'")));
  }
  if (args->has("emit")) {
    std::string what = args->get("emit");
    if (device == "ref")
      return report(absl::InvalidArgumentError(
          "--emit needs a compiling device; the reference interpreter emits no code"));
    std::vector<std::string> known;
    for (std::string_view format : allEmitFormats())
      known.emplace_back(format);
    if (std::find(known.begin(), known.end(), what) == known.end())
      return report(absl::InvalidArgumentError(
          absl::StrCat("--emit supports ", absl::StrJoin(known, ", "), ", got '", what, "'")));
    // The code's device: --target (a GPU, preset or present), else the
    // device run on.
    CompileOptions emitted = *compileOptions;
    if (args->has("target"))
      emitted.device = args->get("target");
    std::vector<std::string_view> formats = emitFormats(emitted);
    absl::StatusOr<DeviceSpec> runDevice = parseDeviceName(device);
    if (std::find(formats.begin(), formats.end(), what) == formats.end() && !args->has("target") &&
        !(runDevice.ok() && isGpuTarget(*runDevice)))
      return report(absl::InvalidArgumentError(
          absl::StrCat("--emit=", what, " is not code for ", device,
                       "; for a GPU add --target: ", gpuTargetSyntax())));
    if (what == "hsaco" && isatty(STDOUT_FILENO))
      return report(absl::InvalidArgumentError(
          "--emit=hsaco writes a binary code object: redirect standard output to a file"));
    absl::StatusOr<std::string> code = emitKernels(**function, emitted, what);
    if (!code.ok())
      return report(code.status());
    std::cout << *code;
    return kExitOk;
  }

  if (args->has("explain")) {
    std::string what = args->get("explain");
    if (what != "text" && what != "dot")
      return report(absl::InvalidArgumentError(
          absl::StrCat("--explain supports text and dot, got '", what, "'")));
    if (device == "ref")
      return report(absl::InvalidArgumentError(
          "--explain needs a compiling device; the reference interpreter plans no kernels"));
    DimBindings dims;
    for (const std::string &spec : args->getAll("dim")) {
      auto assignment = splitAssignment(spec, "dim");
      int64_t value = 0;
      if (!assignment.ok() || !absl::SimpleAtoi(assignment->second, &value))
        return report(absl::InvalidArgumentError(
            absl::StrCat("--dim needs SYM=N with an integer N, got '", spec, "'")));
      dims[assignment->first] = value;
    }
    absl::StatusOr<ReportedFunction> planned = reportedFunction(**function, dims);
    if (!planned.ok())
      return report(planned.status());
    CompileOptions target = *compileOptions;
    if (args->has("target"))
      target.device = args->get("target");
    absl::StatusOr<ProgramPlan> plan = planFunction(*planned->function, target);
    if (!plan.ok())
      return report(plan.status());
    if (what == "dot")
      std::cout << explainPlanDot(*plan, dims);
    else
      std::cout << planned->header << explainPlan(*plan, dims);
    return kExitOk;
  }

  if (args->has("target"))
    return report(absl::InvalidArgumentError(
        "--target names the GPU that --emit and --explain plan for; to run on a GPU use "
        "--device=cuda[:N]"));

  InputRequest request;
  request.inputs = renameOnnxSpecs(args->getAll("input"), onnxNames.inputs, **function, true);
  request.dims = args->getAll("dim");
  request.randomUnspecified = args->has("random-inputs");
  request.dimSpellings = onnxNames.dimParams;
  if (args->has("seed") && !absl::SimpleAtoi(args->get("seed"), &request.seed))
    return report(absl::InvalidArgumentError("--seed needs a non-negative integer"));
  absl::StatusOr<BoundInputs> inputs = bindInputs(**function, request);
  if (!inputs.ok())
    return report(inputs.status());

  int iters = 10;
  double benchSeconds = 0;
  int64_t printMaxElements = 4;
  if (args->has("print-max-elements"))
    (void)absl::SimpleAtoi(args->get("print-max-elements"), &printMaxElements);
  if (args->has("iters"))
    (void)absl::SimpleAtoi(args->get("iters"), &iters); // checkRunFlags checked it
  if (args->has("bench-seconds"))
    (void)absl::SimpleAtod(args->get("bench-seconds"), &benchSeconds);

  RunReport runReport;
  runReport.device = device;
  runReport.function = (*function)->name();
  std::vector<std::string> dimText;
  for (const auto &[sym, v] : inputs->dims) {
    dimText.push_back(absl::StrCat(sym, "=", v));
    runReport.dims.emplace_back(sym, v);
  }
  std::sort(dimText.begin(), dimText.end());
  std::sort(runReport.dims.begin(), runReport.dims.end());
  out << "xstitch-run: @" << (*function)->name() << " on " << device
      << (dimText.empty() ? "" : " with " + absl::StrJoin(dimText, ", ")) << "\n";
  if (!inputs->randomDescriptions.empty())
    std::cerr << "xstitch-run: random inputs (--seed " << args->get("seed", "0")
              << "): " << absl::StrJoin(inputs->randomDescriptions, ", ") << "\n";
  if (const HostSymbols *hostSymbols = (*function)->hostSymbols()) {
    // What the function computes from these inputs; a failure here is
    // reported by the run itself, with the device's message.
    DimBindings computed = inputs->dims;
    ParamData paramData = [&](size_t p) -> absl::StatusOr<HostTensor> {
      return inputs->tensors[p];
    };
    if (bindHostSymbols(*hostSymbols, paramData, computed).ok()) {
      std::vector<std::string> values;
      for (const std::string &symbol : hostSymbols->symbols)
        values.push_back(absl::StrCat(symbol, "=", computed.at(symbol)));
      out << "host symbols: " << absl::StrJoin(values, ", ") << "\n";
    }
  }

  std::unique_ptr<LibraryExecutable> executable;
  if (bundle) {
    executable = std::move(bundleExecutable);
    const CompileInfo &info = executable->info();
    runReport.compileSeconds = info.compileSeconds;
    runReport.loadSeconds = info.loadSeconds;
    runReport.source = std::string(executableSourceName(info.source));
    int kernels = executable->kernelCount();
    out << absl::StrFormat("loaded %d kernel%s from %s in %.1f ms\n", kernels,
                           kernels == 1 ? "" : "s", path, info.loadSeconds * 1e3);
  } else if (device != "ref") {
    // Inputs may bind symbols the ONNX import derived; specialize the
    // function's own.
    if (args->has("specialize"))
      for (const auto &[symbol, value] : inputs->dims)
        compileOptions->specialize[symbol] = value;
    absl::StatusOr<std::unique_ptr<LibraryExecutable>> compiled;
    {
      TerminalProgress progress(absl::StrCat("xstitch-run: compiling ", path),
                                TerminalProgressOptions{.mode = progressMode(*args)});
      compileOptions->progress = [&progress](std::string_view stage) {
        progress.set(std::string(stage));
      };
      compiled = LibraryExecutable::compile(path, (*function)->name(), *compileOptions);
      compileOptions->progress = nullptr;
    }
    if (!compiled.ok())
      return report(compiled.status());
    executable = *std::move(compiled);
    const CompileInfo &info = executable->info();
    runReport.compileSeconds = info.compileSeconds;
    runReport.cacheHit = info.cacheHit;
    runReport.source = std::string(executableSourceName(info.source));
    for (const std::string &warning : info.warnings)
      std::cerr << "xstitch-run: warning: " << warning << "\n";
    runReport.planSeconds = info.planSeconds;
    runReport.llvmSeconds = info.llvmSeconds;
    runReport.loadSeconds = info.loadSeconds;
    // What the report says of each kernel comes from the plan of the
    // variant this run takes.
    DimBindings runDims(inputs->dims.begin(), inputs->dims.end());
    absl::StatusOr<ReportedFunction> planned = reportedFunction(**function, runDims);
    if (!planned.ok())
      return report(planned.status());
    absl::StatusOr<ProgramPlan> plan = planFunction(*planned->function, *compileOptions);
    if (!plan.ok())
      return report(plan.status());
    // A specialized compile decides the relations itself: one program.
    const bool speculated = info.variants > 1;
    runReport.broadcastVariants = info.variants;
    if (speculated)
      runReport.broadcastVariant = planned->chosen;
    int kernels = 0;
    for (const HostStep &step : plan->host.steps)
      kernels += step.kind == HostStep::Kind::Launch;
    std::string variantText =
        speculated
            ? absl::StrFormat(" (in variant %d of %d broadcast variants, the one this run takes)",
                              planned->chosen, planned->variants)
            : "";
    out << absl::StrFormat("compiled %d kernel%s%s in %.1f ms", kernels, kernels == 1 ? "" : "s",
                           variantText, info.compileSeconds * 1e3);
    if (info.source == ExecutableSource::Memory)
      out << " (cache hit)\n";
    else if (info.source == ExecutableSource::Disk)
      out << absl::StrFormat(" (from the persistent cache: load %.1f)\n", info.loadSeconds * 1e3);
    else
      out << absl::StrFormat(" (plan %.1f, LLVM %.1f, load %.1f)\n", info.planSeconds * 1e3,
                             info.llvmSeconds * 1e3, info.loadSeconds * 1e3);
    runReport.kernels = kernelsOf(plan->host);
    describeLaunches(*plan, DimBindings(inputs->dims.begin(), inputs->dims.end()),
                     runReport.kernels);
  }
  Runner runner(**function, executable.get());
  // The reference interpreter's results for --check.
  auto reference = [&]() -> absl::StatusOr<std::vector<HostTensor>> {
    InterpreterOptions oracle;
    oracle.roundEachOp = args->get("oracle", "rounded") != "f64";
    XS_ASSIGN_OR_RETURN(std::unique_ptr<Module> module, loadModule(path, {"shape-inference"}));
    Function *refFunction = module->lookup((*function)->name());
    return interpret(*refFunction, inputs->tensors, oracle);
  };

  auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::vector<HostTensor>> outputs = runner.run(inputs->tensors, nullptr);
  double firstSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!outputs.ok() && absl::IsInvalidArgument(outputs.status()) && args->has("check")) {
    // Inputs the compiled code refuses (an index out of range, a division
    // by zero): the check is whether the interpreter refuses them too.
    absl::StatusOr<std::vector<HostTensor>> refOutputs = reference();
    if (refOutputs.ok()) {
      out << "check: FAIL: the compiled code refuses inputs the reference interpreter accepts\n";
      runReport.check = "fail";
      std::cerr << "xstitch-run: error: " << outputs.status().message() << "\n";
      return kExitMismatch;
    }
    out << "check: both refuse the inputs; the reference interpreter: "
        << refOutputs.status().message() << "\n";
  }
  if (!outputs.ok())
    return report(outputs.status());

  const auto &results = (*function)->results();
  for (size_t i = 0; i < results.size(); ++i) {
    out << "result " << results[i].name << ": " << (*outputs)[i].typeStr() << "  "
        << summarizeTensor((*outputs)[i], printMaxElements) << "\n";
    runReport.results.push_back({results[i].name, (*outputs)[i].typeStr()});
  }

  bool allPassed = true;
  auto resultIndex = [&](const std::string &name) -> std::optional<size_t> {
    for (size_t i = 0; i < results.size(); ++i)
      if (results[i].name == name)
        return i;
    return std::nullopt;
  };
  auto unknownResult = [&](const std::string &flag, const std::string &name) {
    std::vector<std::string> names;
    for (const FunctionResult &r : results)
      names.push_back(r.name);
    return report(absl::InvalidArgumentError(
        absl::StrCat(flag, " names '", name,
                     "', which is not a result (results: ", absl::StrJoin(names, ", "), ")")));
  };

  for (const std::string &spec :
       renameOnnxSpecs(args->getAll("output"), onnxNames.outputs, **function, false)) {
    auto assignment = splitAssignment(spec, "output");
    if (!assignment.ok())
      return report(assignment.status());
    std::optional<size_t> i = resultIndex(assignment->first);
    if (!i)
      return unknownResult("--output", assignment->first);
    if (absl::Status s = writeTensorFile(assignment->second, (*outputs)[*i]); !s.ok())
      return report(s);
  }

  for (const std::string &spec :
       renameOnnxSpecs(args->getAll("expected"), onnxNames.outputs, **function, false)) {
    auto assignment = splitAssignment(spec, "expected");
    if (!assignment.ok())
      return report(assignment.status());
    std::optional<size_t> i = resultIndex(assignment->first);
    if (!i)
      return unknownResult("--expected", assignment->first);
    absl::StatusOr<HostTensor> expected = readTensorFile(assignment->second);
    if (!expected.ok())
      return report(expected.status());
    absl::StatusOr<Tolerance> tol = toleranceFor(*args, (*outputs)[*i].elementType());
    if (!tol.ok())
      return report(tol.status());
    allPassed &=
        printComparison(out, "expected", assignment->first, (*outputs)[*i], *expected, *tol);
  }

  if (args->has("check")) {
    absl::StatusOr<std::vector<HostTensor>> refOutputs = reference();
    if (!refOutputs.ok() && absl::IsInvalidArgument(refOutputs.status())) {
      // The interpreter refuses inputs the compiled code ran.
      out << "check: FAIL: the reference interpreter refuses inputs the compiled code ran: "
          << refOutputs.status().message() << "\n";
      runReport.check = "fail";
      return kExitMismatch;
    }
    if (!refOutputs.ok())
      return report(refOutputs.status());
    bool checkPassed = true;
    for (size_t i = 0; i < results.size(); ++i) {
      absl::StatusOr<Tolerance> tol = toleranceFor(*args, (*outputs)[i].elementType());
      if (!tol.ok())
        return report(tol.status());
      checkPassed &=
          printComparison(out, "check", results[i].name, (*outputs)[i], (*refOutputs)[i], *tol);
    }
    runReport.check = checkPassed ? "pass" : "fail";
    allPassed &= checkPassed;
  }

  if (args->has("bench")) {
    absl::StatusOr<BenchSummary> bench =
        benchmarkRuns([&](RunStats *stats) { return runner.timeRun(inputs->tensors, stats); },
                      iters, benchSeconds, runReport.kernels);
    if (!bench.ok())
      return report(bench.status());
    double bytes = 0;
    for (const HostTensor &t : inputs->tensors)
      bytes += bytesOf(t);
    for (const HostTensor &t : *outputs)
      bytes += bytesOf(t);
    runReport.medianSeconds = bench->medianSeconds;
    runReport.minSeconds = bench->minSeconds;
    runReport.p90Seconds = bench->p90Seconds;
    runReport.iters = bench->runs;
    runReport.bytesMoved = bytes;
    out << formatBench(*bench, device, bytes, runReport.kernels, isPresentGpuName(device));
  } else {
    out << absl::StrFormat("time: %.3f ms (%s, one cold run: the first call, which allocates its "
                           "memory and finds its data outside the caches; --bench times warm "
                           "runs)\n",
                           firstSeconds * 1e3, device);
  }
  if (args->has("trace")) {
    // A warm run, its steps timed as --bench times them.
    RunStats stats;
    if (absl::StatusOr<double> timed = runner.timeRun(inputs->tensors, &stats); !timed.ok())
      return report(timed.status());
    if (absl::Status s = writeChromeTrace(args->get("trace"), runReport, stats.steps); !s.ok())
      return report(s);
    out << "trace: " << args->get("trace") << " (chrome://tracing or Perfetto)\n";
  }
  if (json)
    std::cout << formatRunReportJson(runReport) << "\n";
  return allPassed ? kExitOk : kExitMismatch;
}

} // namespace
} // namespace xs

int main(int argc, char **argv) { return xs::run(argc, argv); }
