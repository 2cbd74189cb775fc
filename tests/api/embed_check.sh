# Sourced by install_test.sh and deb_packages_test.sh: examples/embed built
# outside the source tree against an installed xstitch at PREFIX, twice (with
# find_package(xstitch) and with pkg-config, as strict C99), both run on an
# ONNX model exported by PyTorch; the libraries are found through
# LD_LIBRARY_PATH when given, else through the pkg-config libdir's rpath.
#   check_embed_against PREFIX LIBDIR SOURCE_DIR MODEL.onnx WORK
check_embed_against() {
  local prefix=$1 libdir=$2 source=$3 model=$4 work=$5
  rm -rf "$work/src" "$work/cmake-build"
  cp -r "$source/examples/embed" "$work/src"
  cmake -S "$work/src" -B "$work/cmake-build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_FLAGS="-Wall -Wextra -pedantic-errors -Werror" > "$work/configure.log"
  cmake --build "$work/cmake-build" > "$work/build.log"

  # shellcheck disable=SC2046
  PKG_CONFIG_PATH="$libdir/pkgconfig" cc -std=c99 -Wall -Wextra -pedantic-errors -Werror \
    "$work/src/embed.c" -o "$work/embed-pc" \
    $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs xstitch) -Wl,-rpath,"$libdir"

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
}
