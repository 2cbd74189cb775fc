#include "tools/RunFlags.h"

namespace xs {
namespace {

const std::vector<FlagSpec> kFlags = {
    {"device", true, false,
     "ref|cpu|cuda[:N]|hip[:N]|nvptx-sim[:sm_XX][:phases]|amdgpu-sim[:gfxNNN][:phases]|auto",
     "where to run: the reference interpreter, compiled CPU code, NVIDIA GPU N through the CUDA "
     "driver, AMD GPU N through HIP, the code generated for an NVIDIA GPU (sm_90 by default) or "
     "an AMD one (gfx942 by default) simulated thread by thread on the CPU, or the best device "
     "present (default: $XSTITCH_DEVICE, else auto: cuda:0 where the NVIDIA driver sees a GPU, "
     "hip:0 where HIP sees one, else cpu)"},
    {"function", true, false, "NAME", "the function to run (default: the only one, or @main)"},
    {"input", true, true, "NAME=PATH|random[:LO:HI]|DIMSxTYPE=VALUES",
     "a parameter's value from a .npy or ONNX TensorProto .pb file, written inline "
     "(2x3xf32=1,2,3,4,5,6; a scalar f32=2.5), or random; every parameter needs one unless "
     "--random-inputs; ONNX models name parameters by their graph input names"},
    {"random-inputs", false, false, "",
     "parameters without an --input are random: floats in [-2, 2), integers in a range valid "
     "for what they feed (indices within their dim, 0 and 1 for masks), else [0, 8); stderr "
     "says what was generated"},
    {"dim", true, true, "SYM=N", "the value of a symbolic dim (needed for random inputs)"},
    {"seed", true, false, "N", "seed of the random inputs (default 0)"},
    {"expected", true, true, "NAME=PATH", "compare result NAME with a .npy or .pb file"},
    {"atol", true, false, "A", "absolute tolerance (default: by dtype)"},
    {"rtol", true, false, "R", "relative tolerance (default: by dtype)"},
    {"output", true, true, "NAME=PATH", "write result NAME to a .npy or .pb file"},
    {"conformance", true, false, "DIR",
     "run every ONNX test case under DIR (model.onnx and test_data_set_*), one line per case "
     "and a summary; exit 0 when no case in scope (DIR/../IN_SCOPE.txt, EXCLUDED.txt) fails"},
    {"filter", true, false, "TEXT", "--conformance runs only the cases whose name contains TEXT"},
    {"scope", true, false, "DIR",
     "--conformance reads IN_SCOPE.txt and EXCLUDED.txt from DIR (default: the cases' folder, "
     "else its parent)"},
    {"runtime-shapes", false, false, "",
     "--conformance keeps inputs that feed shape operands (Reshape's shape, Slice's starts) as "
     "inputs, so the shapes they give are computed at each call (host symbols), instead of "
     "compiling the case's values in"},
    {"check", false, false, "",
     "compare every result with the reference interpreter on the untransformed graph"},
    {"oracle", true, false, "rounded|f64",
     "what --check compares with: the interpreter rounding each op's floats to their type, as "
     "compiled code stores them (rounded, the default), or computing in f64 throughout, the "
     "graph's exact value (f64)"},
    {"bench", false, false, "",
     "time warm runs after one warm-up: their median, minimum, 90th percentile and spread, and "
     "each kernel's median"},
    {"iters", true, false, "N", "runs for --bench (default 10)"},
    {"bench-seconds", true, false, "S", "--bench runs for S seconds instead of --iters runs"},
    {"trace", true, false, "FILE",
     "write the compile's stages and a warm run's kernel launches as a Chrome trace (open it "
     "in chrome://tracing or Perfetto)"},
    {"print-max-elements", true, false, "N",
     "print up to N values of each result, row-major (default 4; a small result prints whole)"},
    {"report", true, false, "json",
     "print one JSON object describing the run on stdout at the end (other output goes to "
     "stderr)"},
    {"explain", true, false, "text|dot",
     "print the stitch plan of every kernel (ops, groups, edge schemes, buffers, thread "
     "mappings, bytes moved) as text or as a Graphviz graph, and exit; --dim values pick the "
     "variants and evaluate sizes",
     "text"},
    {"emit", true, false, "llvm|llvm-unopt|ptx|nvptx-llvm|amdgcn|hsaco|amdgpu-llvm",
     "print the kernels' code and exit: x86 LLVM IR (optimized, or as emitted); for an NVIDIA "
     "--target PTX or the NVPTX LLVM IR as emitted; for an AMD --target AMDGCN assembly, the HSA "
     "code object (binary: redirect it to a file) or the AMDGPU LLVM IR as emitted"},
    {"target", true, false, "sm_XX|gfxNNN|cuda[:N]",
     "the GPU --emit and --explain plan for: an NVIDIA preset (sm_70, sm_80, sm_86, sm_89, "
     "sm_90), an AMD preset (gfx90a, gfx942, gfx1100), or a present GPU"},
    {"cpu", true, false, "NAME", "LLVM CPU to generate x86 code for (default: the host's)"},
    {"features", true, false, "+f,-g", "LLVM target features for x86 code (default: the host's)"},
    {"no-fusion", false, false, "", "one kernel per op (the unfused baseline)"},
    {"threads", true, false, "N", "CPU worker threads (default: all cores)"},
    {"block-elements", true, false, "N",
     "elements a CPU block gets at least (default 16384); small values give small shapes the "
     "split and packed mappings of large ones"},
    {"streaming-stores", true, false, "auto|never|BYTES",
     "CPU kernels write results of at least BYTES with streaming stores that bypass the caches "
     "(default auto: half the last-level cache, at most 16 MiB)"},
    {"amdgpu-shuffles", true, false, "dpp|bpermute",
     "how AMD GPU kernels exchange values across a wavefront's lanes in reductions: DPP row "
     "permutes, ds_swizzle or v_permlanex16 and readlane (default dpp), or ds_bpermute on every "
     "step (to compare)"},
    {"specialize", false, false, "",
     "compile for this run's dims as constants (the static-shape baseline; the executable then "
     "runs only at them)"},
    {"cache-dir", true, false, "PATH|off",
     "the persistent compile cache (default: $XSTITCH_CACHE_DIR, else $XDG_CACHE_HOME/xstitch, "
     "else ~/.cache/xstitch; off: none)"},
    {"sync-launches", false, false, "",
     "on a GPU, wait for each kernel launch to finish so that a kernel that faults is named "
     "(slower; XSTITCH_SYNC_LAUNCHES=1 does the same)"},
    {"keep-denormals", false, false, "",
     "kernels keep subnormal floats (default: flushed to zero on every device, as XLA's CPU "
     "runtime does)"},
    {"progress", true, false, "auto|always|never",
     "a status line for long work (importing, compiling, a conformance run): auto draws it in "
     "place once the work takes over a second, where stderr is a terminal only; always also "
     "writes each stage as a line of its own elsewhere (default auto)"},
    {"version", false, false, "", "print xstitch's version and exit"},
    {"help", false, false, "", "show this help"},
};

} // namespace

const std::vector<FlagSpec> &runFlags() { return kFlags; }

void printRunUsage(std::ostream &os) {
  os << "usage: xstitch-run FILE [options]\n"
        "       xstitch-run --conformance DIR [--device=cpu|ref] [--filter=TEXT] "
        "[--scope=DIR] [--runtime-shapes]\n"
        "Runs a function of FILE (xstitch text IR, an ONNX model: FILE.onnx, or an AOT bundle\n"
        "written by xstitch-compile: FILE.xsb) and prints its results.\n"
        "Exit codes: 0 ok, 1 a comparison failed, 2 a user error, 3 an internal error.\n\n"
     << formatFlagHelp(kFlags);
}

} // namespace xs
