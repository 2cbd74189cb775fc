#!/usr/bin/env bash
# Builds, on a Debian 12 build machine, the package that runs xstitch on a GPU
# machine which has the GPU's driver but no LLVM, no compiler and no package
# registry: the tools, the benchmarks and the unit tests, with every library
# they load except glibc and the driver, the C API library and the Python
# binding, the examples and test files, the PyTorch exports of
# bench/exported at check shapes, bench/peers/gpu_peers.py and
# run-gpu-tests.sh.
#   scripts/package-gpu.sh [--amd] [BUILD_DIR]
# NVIDIA machines (the default; BUILD_DIR build-package/): LLVM's X86, NVPTX
# and ORC components are linked into one library of xstitch's own
# (-DXSTITCH_LLVM_BUNDLE=ON), which keeps the package small; it writes
# BUILD_DIR/xstitch-gpu/ and BUILD_DIR/xstitch-gpu.tar.xz, run there with
# tar -xJf xstitch-gpu.tar.xz && xstitch-gpu/run-gpu-tests.sh.
# AMD machines (--amd; BUILD_DIR build-package-amd/, which may be an existing
# build of the same flags): a build with the AMD backends, which need lld and
# with it every LLVM target (docs/amd.md), so the package carries Debian's
# libLLVM-19 whole; HIP and rocBLAS are the machine's (ROCm). It writes
# xstitch-amd/ and xstitch-amd.tar.xz, whose run-gpu-tests.sh runs on hip.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
vendor=nvidia
if [ "${1:-}" = --amd ]; then
  vendor=amd
  shift
fi
"$root/scripts/setup.sh"
if [ $vendor = nvidia ]; then
  build=${1:-$root/build-package}
  name=xstitch-gpu platform=cuda
  "$root/scripts/build.sh" "$build" -DXSTITCH_LLVM_BUNDLE=ON -DXSTITCH_WERROR=ON
else
  build=${1:-$root/build-package-amd}
  name=xstitch-amd platform=hip
  "$root/scripts/build.sh" "$build" -DXSTITCH_AMDGPU=ON -DXSTITCH_WERROR=ON
fi

pkg=$build/$name
rm -rf "$pkg" "$build/$name.tar.xz"
mkdir -p "$pkg/bin" "$pkg/tests" "$pkg/lib" "$pkg/src" "$pkg/bench" "$pkg/models"
cp "$build"/tools/xstitch-run "$build"/tools/xstitch-opt "$build"/tools/xstitch-graph-fuzz \
  "$build"/bench/xstitch-bench-workloads "$build"/bench/xstitch-bench-ops \
  "$build"/bench/xstitch-bench-api "$pkg/bin/"
find "$build/tests" -maxdepth 1 -type f -name '*Test' -perm -u+x -exec cp {} "$pkg/tests/" \;
# The C API's tests (not CApiCudaTest nor CApiHipTest: they bring a
# recording libcuda.so.1 and libamdhip64.so).
cp "$build"/tests/api/CApiTest "$build"/tests/api/CApiMisuseTest "$pkg/tests/"
if [ $vendor = nvidia ]; then cp "$build"/libxstitch_llvm.so "$pkg/lib/"; fi
cp -L "$build"/lib/libxstitch.so.0 "$pkg/lib/libxstitch.so.0"
ln -sf libxstitch.so.0 "$pkg/lib/libxstitch.so"
echo $platform > "$pkg/PLATFORM"

# Every shared library the binaries load, but glibc's own (the GPU machine
# has its own, as it has the driver; HIP and rocBLAS are loaded at run time).
glibc='^(linux-vdso|ld-linux-x86-64|libc|libm|libdl|libpthread|librt|libresolv|libcuda)\.so'
for binary in "$pkg"/bin/* "$pkg"/tests/* $(find "$pkg/lib" -type f); do
  LD_LIBRARY_PATH=$build ldd "$binary" | awk '$3 ~ /^\// { print $1, $3 }'
done | sort -u | while read -r name path; do
  if ! [[ $name =~ $glibc ]] && [ ! -e "$pkg/lib/$name" ]; then
    cp -L "$path" "$pkg/lib/$name"
  fi
done
find "$pkg/bin" "$pkg/tests" "$pkg/lib" -type f -exec strip --strip-unneeded {} +

# The files the tests read (examples, round-trip and plan sources).
git -C "$root" archive HEAD examples tests | tar -x -C "$pkg/src"
cp "$root/scripts/run-gpu-tests.sh" "$pkg/"
mkdir -p "$pkg/bench/peers"
cp "$root/bench/peers/gpu_peers.py" "$pkg/bench/peers/"
git -C "$root" archive HEAD python/xstitch | tar -x -C "$pkg"
# The exported suite but the BERT encoder and layer (their weights), each
# with the dims it is checked at (small: the interpreter checks it).
"$root/scripts/export-check-models.sh" "$build/exported-check" "$pkg/models"
git -C "$root" rev-parse HEAD > "$pkg/COMMIT"

tar -cJf "$build/$name.tar.xz" -C "$build" $name
echo "package-gpu: $(du -sh "$pkg" | cut -f1) in $pkg, $(du -h "$build/$name.tar.xz" | cut -f1) as $build/$name.tar.xz"
