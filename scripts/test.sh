#!/usr/bin/env bash
# Builds xstitch and runs every test: unit tests, lit golden tests, the parser
# fuzzer (30 s) and every example through xstitch-run. Installs what is missing.
#   scripts/test.sh                 # build/ with warnings as errors
#   scripts/test.sh --sanitize      # build-asan/ with AddressSanitizer + UBSan
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
options=(-DXSTITCH_WERROR=ON -DXSTITCH_SANITIZE=OFF)
for arg in "$@"; do
  case "$arg" in
    --sanitize) build=$root/build-asan; options=(-DXSTITCH_WERROR=ON -DXSTITCH_SANITIZE=ON) ;;
    *) echo "test.sh: unknown option '$arg' (known: --sanitize)" >&2; exit 2 ;;
  esac
done
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$build" "${options[@]}"
cd "$build"
ctest --output-on-failure -j2
