#!/usr/bin/env bash
# Builds, on a Debian 12 build machine, the package that runs xstitch on a GPU
# machine which has the NVIDIA driver but no LLVM, no compiler and no package
# registry: the tools, the benchmarks and the unit tests, with every library
# they load except glibc and the driver (LLVM's components linked into one
# library of xstitch's own: -DXSTITCH_LLVM_BUNDLE=ON), the C API library and
# the Python binding, the examples and test files, the PyTorch exports of
# bench/exported at check shapes, bench/peers/gpu_peers.py and
# run-gpu-tests.sh.
#   scripts/package-gpu.sh [BUILD_DIR]     # default build-package/
# Writes BUILD_DIR/xstitch-gpu/ and BUILD_DIR/xstitch-gpu.tar.xz. On the GPU
# machine: tar -xJf xstitch-gpu.tar.xz && xstitch-gpu/run-gpu-tests.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-package}
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$build" -DXSTITCH_LLVM_BUNDLE=ON -DXSTITCH_WERROR=ON

pkg=$build/xstitch-gpu
rm -rf "$pkg" "$build/xstitch-gpu.tar.xz"
mkdir -p "$pkg/bin" "$pkg/tests" "$pkg/lib" "$pkg/src" "$pkg/bench" "$pkg/models"
cp "$build"/tools/xstitch-run "$build"/tools/xstitch-opt "$build"/tools/xstitch-graph-fuzz \
  "$build"/bench/xstitch-bench-workloads "$build"/bench/xstitch-bench-ops \
  "$build"/bench/xstitch-bench-api "$pkg/bin/"
find "$build/tests" -maxdepth 1 -type f -name '*Test' -perm -u+x -exec cp {} "$pkg/tests/" \;
# The C API's tests (not CApiCudaTest: it brings a recording libcuda.so.1).
cp "$build"/tests/api/CApiTest "$build"/tests/api/CApiMisuseTest "$pkg/tests/"
cp "$build"/libxstitch_llvm.so "$pkg/lib/"
cp -L "$build"/lib/libxstitch.so.0 "$pkg/lib/libxstitch.so.0"
ln -sf libxstitch.so.0 "$pkg/lib/libxstitch.so"

# Every shared library the binaries load, but glibc's own (the GPU machine
# has its own, as it has the driver).
glibc='^(linux-vdso|ld-linux-x86-64|libc|libm|libdl|libpthread|librt|libresolv|libcuda)\.so'
for binary in "$pkg"/bin/* "$pkg"/tests/* "$pkg"/lib/libxstitch_llvm.so "$pkg"/lib/libxstitch.so.0; do
  LD_LIBRARY_PATH=$build ldd "$binary" | awk '$3 ~ /^\// { print $1, $3 }'
done | sort -u | while read -r name path; do
  if ! [[ $name =~ $glibc ]] && [ ! -e "$pkg/lib/$name" ]; then
    cp -L "$path" "$pkg/lib/$name"
  fi
done
strip --strip-unneeded "$pkg"/bin/* "$pkg"/tests/* "$pkg"/lib/*.so.*  "$pkg"/lib/libxstitch_llvm.so

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

tar -cJf "$build/xstitch-gpu.tar.xz" -C "$build" xstitch-gpu
echo "package-gpu: $(du -sh "$pkg" | cut -f1) in $pkg, $(du -h "$build/xstitch-gpu.tar.xz" | cut -f1) as $build/xstitch-gpu.tar.xz"
