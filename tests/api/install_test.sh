#!/usr/bin/env bash
# The installed package as an integrator meets it: `cmake --install` into a
# fresh prefix, then examples/embed copied outside the source tree and built
# against that prefix twice, with find_package(xstitch) and with pkg-config
# (as strict C99), and both run on an ONNX model exported by PyTorch.
#   install_test.sh BUILD_DIR SOURCE_DIR MODEL.onnx
set -euo pipefail
build=$1 source=$2 model=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
for f in include/xstitch/xstitch.h lib/libxstitch.so lib/cmake/xstitch/xstitchConfig.cmake \
         lib/cmake/xstitch/xstitchConfigVersion.cmake lib/pkgconfig/xstitch.pc; do
  test -e "$work/prefix/$f" || { echo "install_test: error: $f was not installed"; exit 1; }
done

cp -r "$source/examples/embed" "$work/src"
cmake -S "$work/src" -B "$work/cmake-build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_C_FLAGS="-Wall -Wextra -pedantic-errors -Werror" > "$work/configure.log"
cmake --build "$work/cmake-build" > "$work/build.log"

export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
# shellcheck disable=SC2046
cc -std=c99 -Wall -Wextra -pedantic-errors -Werror "$work/src/embed.c" -o "$work/embed-pc" \
  $(pkg-config --cflags --libs xstitch) -Wl,-rpath,"$(pkg-config --variable=libdir xstitch)"

"$work/cmake-build/embed" "$model" B=3 S=11 > "$work/cmake.out"
"$work/embed-pc" "$model" B=3 S=11 > "$work/pc.out"
cat "$work/cmake.out"
cmp "$work/cmake.out" "$work/pc.out"
# LayerNorm(x + residual) with the exported model's unit scale and zero
# shift: every row of y sums to zero.
grep -q '^input x: float32\[3, 11, 768\]$' "$work/cmake.out"
grep -q '^output y: float32\[3, 11, 768\] ' "$work/cmake.out"
python3 - "$work/cmake.out" <<'PY'
import re, sys
line = [l for l in open(sys.argv[1]) if l.startswith("output y:")][0]
total, mean_abs = map(float, re.search(r"sum (\S+) mean \|y\| (\S+)", line).groups())
assert abs(total) < 0.05 and 0.3 < mean_abs < 1.5, line
PY
echo "install_test: the embedding example builds against the installed package and runs"
