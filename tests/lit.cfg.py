# lit configuration for xstitch's golden tests. Tests are .xs files (and .test
# scripts) under tests/ with `// RUN:` lines; FileCheck checks their output.
import os
import lit.formats

config.name = "xstitch"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".xs", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.xstitch_binary_dir, "tests")
# Unit tests and fuzz seeds are not lit tests.
config.excludes = ["unit", "fuzz", "lit.cfg.py", "CMakeLists.txt"]

tools = config.xstitch_tools_dir
# `%expect-exit N cmd`: runs cmd, passes its output on, fails unless it exits N.
config.substitutions.append(("%expect-exit", config.python + " " + os.path.join(
    config.xstitch_source_dir, "tests", "tools", "expect_exit.py")))
config.substitutions.append(("%xstitch-opt", os.path.join(tools, "xstitch-opt")))
config.substitutions.append(("%xstitch-run", os.path.join(tools, "xstitch-run")))
config.substitutions.append(("%xstitch-compile", os.path.join(tools, "xstitch-compile")))
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%src_root", config.xstitch_source_dir))
config.substitutions.append(("FileCheck", config.filecheck))
config.substitutions.append(("not ", config.not_tool + " "))
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"
# Golden outputs are the CPU's: xstitch-run's --device=auto would pick a GPU
# where there is one. GPU tests name their device.
config.environment["XSTITCH_DEVICE"] = "cpu"
# No persistent compile cache: a developer's would turn compiles into loads
# and change what tools print. Tests of the cache set a directory of their own.
config.environment["XSTITCH_CACHE_DIR"] = "off"

# `REQUIRES: cuda-driver` / `UNSUPPORTED: cuda-driver`: the NVIDIA driver
# library loads (a GPU machine), or not.
# Where XSTITCH_REQUIRE_DEVICE=cuda asks for the GPU (CI's GPU runners), its
# absence fails the run instead of leaving the GPU tests unsupported.
try:
    import ctypes
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda-driver")
except OSError as error:
    if os.environ.get("XSTITCH_REQUIRE_DEVICE") == "cuda":
        lit_config.fatal("XSTITCH_REQUIRE_DEVICE=cuda but the NVIDIA driver library does not "
                         "load (%s): the GPU tests would not run" % error)

# XSTITCH_REQUIRE_DEVICE=hip (CI's AMD runners): HIP's library must load.
if os.environ.get("XSTITCH_REQUIRE_DEVICE") == "hip":
    errors = []
    for name in ("libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"):
        try:
            ctypes.CDLL(name)
            break
        except OSError as error:
            errors.append(str(error))
    else:
        lit_config.fatal("XSTITCH_REQUIRE_DEVICE=hip but HIP's library does not load (%s): "
                         "the GPU tests would not run" % "; ".join(errors))

# `REQUIRES: amdgpu`: the build has the AMDGPU backend (XSTITCH_AMDGPU; builds
# with the LLVM bundle leave it out).
if config.amdgpu:
    config.available_features.add("amdgpu")

# `REQUIRES: ptxas`: tests that assemble emitted PTX with the CUDA toolkit's
# ptxas; lit reports them UNSUPPORTED where CMake found none.
if config.ptxas and "NOTFOUND" not in config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
