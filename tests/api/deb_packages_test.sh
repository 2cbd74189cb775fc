#!/usr/bin/env bash
# The Debian packages (cmake/XstitchPackaging.cmake) as an integrator meets
# them: `cpack -G DEB` from the build tree; each package's name, version,
# dependencies and files (all under /usr); then the packages extracted into a
# fresh root, examples/embed built against that tree (embed_check.sh) and the
# extracted tools run.
#   deb_packages_test.sh BUILD_DIR SOURCE_DIR MODEL.onnx VERSION
set -euo pipefail
build=$1 source=$2 model=$3 version=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=embed_check.sh
source "$(dirname "$0")/embed_check.sh"
fail() { echo "deb_packages_test: error: $*" >&2; exit 1; }

cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/packages" > "$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; fail "cpack -G DEB failed"; }
major=${version%%.*}
runtime=$work/packages/libxstitch${major}_${version}-1_amd64.deb
dev=$work/packages/libxstitch-dev_${version}-1_amd64.deb
tools=$work/packages/xstitch-tools_${version}-1_amd64.deb
for deb in "$runtime" "$dev" "$tools"; do
  test -f "$deb" || fail "cpack did not make $(basename "$deb") (made: $(ls "$work/packages"))"
done

# field DEB NAME: a control field's value.
field() { dpkg-deb -f "$1" "$2"; }
# depends_on DEB PATTERN: the Depends field has an entry matching PATTERN.
depends_on() {
  field "$1" Depends | tr ',' '\n' | sed 's/^ *//' | grep -Eq "^($2)( |$)" ||
    fail "$(basename "$1") does not depend on '$2' (Depends: $(field "$1" Depends))"
}
for deb in "$runtime" "$dev" "$tools"; do
  test "$(field "$deb" Version)" = "$version-1" || fail "$(basename "$deb"): version $(field "$deb" Version)"
  # No file outside /usr.
  outside=$(dpkg-deb -c "$deb" | awk '{print $6}' | grep -Ev '^\./(usr/.*)?$' || true)
  test -z "$outside" || fail "$(basename "$deb") installs outside /usr: $outside"
done
# What the libraries link, as dpkg-shlibdeps found it: LLVM, TBB, oneDNN,
# ONNX, protobuf and Abseil from Debian.
for dep in libc6 'libstdc\+\+6' libllvm19 libtbb12 'libdnnl[0-9]+' 'libonnx[0-9]+' \
           'libprotobuf[0-9]+' 'libabsl[0-9]+'; do
  depends_on "$runtime" "$dep"
done
depends_on "$dev" "libxstitch$major \\(= $version-1\\)"
depends_on "$dev" libdlpack-dev
depends_on "$tools" "libxstitch$major \\(= $version-1\\)"
# The runtime package's libraries are registered for packages built against
# them, and ldconfig runs when it is installed.
dpkg-deb -I "$runtime" shlibs | grep -q "^libxstitch $major libxstitch$major (>= $version-1)" ||
  fail "the runtime package's shlibs file does not name libxstitch $major"
dpkg-deb -I "$runtime" postinst | grep -q ldconfig || fail "the runtime package does not run ldconfig"

# contains DEB PATH...: the package has these files.
contains() {
  local deb=$1; shift
  local listing; listing=$(dpkg-deb -c "$deb" | awk '{print $6}')
  for path in "$@"; do
    grep -qx "./$path" <<< "$listing" || fail "$(basename "$deb") lacks /$path"
  done
}
contains "$runtime" usr/lib/libxstitch.so.$major usr/lib/libxstitch.so.$version \
  usr/lib/libxstitch_runtime.so.$major usr/lib/libxstitch_runtime.so.$version
contains "$dev" usr/include/xstitch/xstitch.h usr/lib/libxstitch.so usr/lib/libxstitch_runtime.so \
  usr/lib/cmake/xstitch/xstitchConfig.cmake usr/lib/cmake/xstitch/xstitchConfigVersion.cmake \
  usr/lib/pkgconfig/xstitch.pc
contains "$tools" usr/bin/xstitch-run usr/bin/xstitch-opt usr/bin/xstitch-compile
# Development files and tools only in their own packages.
if dpkg-deb -c "$runtime" | awk '{print $6}' | grep -Eq '\.(h|cmake|pc)$|/bin/'; then
  fail "the runtime package carries development files or tools"
fi

root=$work/root
for deb in "$runtime" "$dev" "$tools"; do
  dpkg-deb -x "$deb" "$root"
done
# The extracted libraries are stripped.
if file -L "$root/usr/lib/libxstitch.so.$major" | grep -q 'with debug_info'; then
  fail "libxstitch.so.$major carries debug information"
fi
check_embed_against "$root/usr" "$root/usr/lib" "$source" "$model" "$work"
for tool in xstitch-run xstitch-opt xstitch-compile; do
  out=$(LD_LIBRARY_PATH=$root/usr/lib "$root/usr/bin/$tool" --version)
  grep -q "$version" <<< "$out" || fail "$tool --version says '$out', not $version"
done
LD_LIBRARY_PATH=$root/usr/lib "$root/usr/bin/xstitch-run" "$model" --dim B=2 --dim S=5 --random-inputs --check \
  > "$work/run.out" 2>&1 || { cat "$work/run.out"; fail "the packaged xstitch-run failed on $model"; }
echo "deb_packages_test: $(cd "$work/packages" && ls -- *.deb | tr '\n' ' ')build, declare their dependencies and run"
