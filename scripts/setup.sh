#!/usr/bin/env bash
# Installs what xstitch needs on Debian 12 (run as root), only what is missing.
# Idempotent: a second run installs nothing.
set -euo pipefail

packages=(
  cmake ninja-build python3
  clang-19 libclang-rt-19-dev           # the compiler, and libFuzzer for the parser fuzzer
  llvm-19-dev llvm-19-tools lld-19      # LLVM 19: the backends' code generator; FileCheck and lit
  liblld-19-dev                         # lld as a library: HSA code objects for AMD GPUs
  libamdhip64-5                         # HIP's runtime (ROCm 5.2): a test loads it and sees no AMD GPU
  libzstd-dev                           # LLVM's static components link it (scripts/package-gpu.sh)
  libtbb-dev libabsl-dev libgtest-dev libdnnl-dev
  ocl-icd-opencl-dev                    # oneDNN's CMake package finds OpenCL (its GPU runtime)
  libonnx-dev libprotobuf-dev protobuf-compiler libdlpack-dev
  graphviz                              # dot: renders xstitch-run --explain=dot
  python3-onnx                          # writes the ONNX models of bench/peers
  python3-numpy python3-torch           # the Python binding's tests: PyTorch exports and tensors
  pkgconf                               # the installed package's pkg-config test
  dpkg-dev file                         # cpack -G DEB: dpkg-shlibdeps finds the packages' dependencies
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages are installed"
  exit 0
fi

echo "setup: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
