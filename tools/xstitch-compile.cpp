// xstitch-compile: ahead-of-time compilation of a model into a bundle (the
// host plan and the kernels in one versioned file, runtime/devices/Bundles.h)
// that xstitch-run, the C API and the runtime-only library load without
// compiling.

#include <algorithm>
#include <chrono>
#include <iostream>

#include "absl/strings/str_format.h"
#include "driver/BuildIdentity.h"
#include "driver/Compiler.h"
#include "tools/ModelFiles.h"
#include "tools/common/CommandLine.h"
#include "tools/common/ExitCodes.h"
#include "tools/common/TerminalProgress.h"
#include "transforms/Pass.h"

namespace xs {
namespace {

const std::vector<FlagSpec> kFlags = {
    {"output", true, false, "PATH", "the bundle to write (default: MODEL with .xsb)"},
    {"device", true, false, "cpu|sm_XX|cuda[:N]|nvptx-sim[:sm_XX]",
     "what the code is for: the CPU (default), an NVIDIA architecture (sm_70 ... sm_90: no GPU "
     "needed), a present GPU, or the NVPTX simulation"},
    {"function", true, false, "NAME", "the function to compile (default: the only one, or main)"},
    {"cpu", true, false, "NAME",
     "LLVM CPU to generate x86 code for (default: this machine's; the bundle then runs only on "
     "CPUs with its features)"},
    {"features", true, false, "+f,-g", "LLVM target features for x86 code"},
    {"no-fusion", false, false, "", "one kernel per op (the unfused baseline)"},
    {"keep-denormals", false, false, "",
     "kernels keep subnormal floats (default: flushed to zero, on every device)"},
    {"amdgpu-shuffles", true, false, "dpp|bpermute",
     "how AMD GPU kernels exchange values across a wavefront's lanes in reductions: DPP row "
     "permutes, ds_swizzle or v_permlanex16 and readlane (default dpp), or ds_bpermute on every "
     "step (to compare)"},
    {"progress", true, false, "auto|always|never",
     "a status line while importing and compiling: auto draws it in place once the work takes "
     "over a second, where stderr is a terminal only; always also writes each stage as a line "
     "of its own elsewhere (default auto)"},
    {"version", false, false, "", "print xstitch's version and exit"},
    {"help", false, false, "", "show this help"},
};

void printUsage(std::ostream &os) {
  os << "usage: xstitch-compile MODEL [-o model.xsb] [--device=cpu|sm_XX|gfxNNN|cuda[:N]|hip[:N]] "
        "[options]\n"
        "Compiles MODEL (xstitch text IR, or an ONNX model: MODEL.onnx) into a bundle that\n"
        "xstitch-run and the C API (xs_executable_load_bundle, also in libxstitch_runtime.so)\n"
        "load and run without compiling.\n"
        "Exit codes: 0 ok, 2 a user error, 3 an internal error.\n\n"
     << formatFlagHelp(kFlags);
}

int fail(const absl::Status &s) {
  std::string message(s.message());
  if (message.find("error:") == std::string::npos)
    std::cerr << "xstitch-compile: error: " << message << "\n";
  else
    std::cerr << message << "\n";
  return exitCodeFor(s);
}

int run(int argc, char **argv) {
  // `-o PATH`, as compilers take it, is --output.
  std::vector<std::string> words(argv, argv + argc);
  std::vector<char *> pointers;
  for (std::string &word : words) {
    if (word == "-o")
      word = "--output";
    else if (word.rfind("-o", 0) == 0 && word.rfind("--", 0) != 0)
      word = "--output=" + word.substr(2);
    pointers.push_back(word.data());
  }
  absl::StatusOr<ParsedArgs> args = parseArgs(argc, pointers.data(), kFlags);
  if (!args.ok()) {
    std::cerr << "xstitch-compile: error: " << args.status().message() << "\n";
    return kExitUserError;
  }
  if (args->has("help")) {
    printUsage(std::cout);
    return kExitOk;
  }
  if (args->has("version")) {
    std::cout << "xstitch-compile: " << compilerIdentity() << "\n";
    return kExitOk;
  }
  if (args->positional().size() != 1) {
    std::cerr << "xstitch-compile: error: expected one model file\n";
    printUsage(std::cerr);
    return kExitUserError;
  }
  const std::string &path = args->positional()[0];
  std::string output = args->get("output");
  if (output.empty()) {
    size_t dot = path.find_last_of('.');
    size_t slash = path.find_last_of('/');
    output = (dot != std::string::npos && (slash == std::string::npos || dot > slash)
                  ? path.substr(0, dot)
                  : path) +
             ".xsb";
  }
  absl::StatusOr<ProgressMode> progressMode = parseProgressMode(args->get("progress", "auto"));
  if (!progressMode.ok())
    return fail(progressMode.status());
  const std::string shuffles = args->get("amdgpu-shuffles", "dpp");
  if (shuffles != "dpp" && shuffles != "bpermute")
    return fail(absl::InvalidArgumentError(
        strCat("--amdgpu-shuffles needs dpp or bpermute, got '", shuffles, "'")));
  auto start = std::chrono::steady_clock::now();
  auto progress = std::make_unique<TerminalProgress>(
      strCat("xstitch-compile: ", path), TerminalProgressOptions{.mode = *progressMode});
  progress->set("importing");
  OnnxNames names;
  absl::StatusOr<std::unique_ptr<Module>> module = loadModule(path, defaultPipeline(), &names);
  absl::StatusOr<Function *> function = module.ok()
                                            ? selectFunction(**module, args->get("function"), path)
                                            : absl::StatusOr<Function *>(module.status());
  if (!function.ok()) {
    progress.reset();
    return fail(function.status());
  }

  CompileOptions options;
  options.device = args->get("device", "cpu");
  options.fusion = !args->has("no-fusion");
  options.flushDenormals = !args->has("keep-denormals");
  options.cpu = args->get("cpu");
  options.features = args->get("features");
  options.amdgpuBpermute = shuffles == "bpermute";
  options.progress = [&progress](std::string_view stage) { progress->set(std::string(stage)); };
  CompileInfo stages;
  absl::StatusOr<ProgramFile> bundle =
      compileBundle(**function, options, names.inputs, names.outputs, path, &stages);
  progress.reset(); // erased before anything else is printed
  if (!bundle.ok())
    return fail(bundle.status());
  std::string bytes = encodeProgramFile(*bundle);
  if (absl::Status s = writeFileAtomically(output, bytes); !s.ok())
    return fail(s);
  // Kernels per program: one, or one per broadcast variant.
  std::vector<int> kernels;
  auto countKernels = [&](const CompiledProgram &program) {
    int n = 0;
    for (const HostStep &step : program.host.steps)
      n += step.kind == HostStep::Kind::Launch;
    kernels.push_back(n);
  };
  if (bundle->program.speculations.empty())
    countKernels(bundle->program);
  for (const SpeculatedProgram &variant : bundle->program.speculations)
    countKernels(variant.program);
  auto [fewest, most] = std::minmax_element(kernels.begin(), kernels.end());
  std::string kernelText = *fewest == *most ? strCat(*most, " kernel", *most == 1 ? "" : "s")
                                            : strCat(*fewest, " to ", *most, " kernels");
  if (kernels.size() > 1)
    kernelText = strCat(kernels.size(), " broadcast variants of ", kernelText, " each");
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string target = bundle->header.cpu.empty()
                           ? bundle->header.device
                           : strCat(bundle->header.device, " (", bundle->header.cpu, ")");
  std::cout << absl::StrFormat("wrote %s: @%s, %s for %s, %.1f MiB, in %.2f s\n", output,
                               (*function)->name(), kernelText, target, bytes.size() / 1048576.0,
                               seconds);
  return kExitOk;
}

} // namespace
} // namespace xs

int main(int argc, char **argv) { return xs::run(argc, argv); }
