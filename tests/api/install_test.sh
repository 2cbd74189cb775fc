#!/usr/bin/env bash
# The installed package as an integrator meets it: `cmake --install` into a
# fresh prefix, then examples/embed built against that prefix (embed_check.sh).
#   install_test.sh BUILD_DIR SOURCE_DIR MODEL.onnx
set -euo pipefail
build=$1 source=$2 model=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=embed_check.sh
source "$(dirname "$0")/embed_check.sh"

cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
for f in include/xstitch/xstitch.h lib/libxstitch.so lib/cmake/xstitch/xstitchConfig.cmake \
         lib/cmake/xstitch/xstitchConfigVersion.cmake lib/pkgconfig/xstitch.pc; do
  test -e "$work/prefix/$f" || { echo "install_test: error: $f was not installed"; exit 1; }
done
check_embed_against "$work/prefix" "$work/prefix/lib" "$source" "$model" "$work"
echo "install_test: the embedding example builds against the installed package and runs"
