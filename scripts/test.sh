#!/usr/bin/env bash
# Builds xstitch and runs every test: unit tests, lit golden tests, the parser
# fuzzer (30 s) and every example through xstitch-run. Installs what is missing.
#   scripts/test.sh                 # build/ with warnings as errors
#   scripts/test.sh --sanitize      # build-asan/ with AddressSanitizer + UBSan
#   scripts/test.sh --tsan          # build-tsan/ with ThreadSanitizer: the
#                                   # concurrency test, then every unit test
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
options=(-DXSTITCH_WERROR=ON -DXSTITCH_SANITIZE=OFF -DXSTITCH_TSAN=OFF)
tsan=0
for arg in "$@"; do
  case "$arg" in
    --sanitize) build=$root/build-asan; options=(-DXSTITCH_WERROR=ON -DXSTITCH_SANITIZE=ON -DXSTITCH_TSAN=OFF) ;;
    --tsan) build=$root/build-tsan; tsan=1
            options=(-DXSTITCH_WERROR=ON -DXSTITCH_SANITIZE=OFF -DXSTITCH_TSAN=ON) ;;
    *) echo "test.sh: unknown option '$arg' (known: --sanitize, --tsan)" >&2; exit 2 ;;
  esac
done
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$build" "${options[@]}"
cd "$build"
if [ "$tsan" = 1 ]; then
  # ThreadSanitizer: any data race fails the run. Several threads run one
  # executable whose kernels run on the callers' threads (one worker), so
  # every access TSan checks is xstitch's own; Debian's libtbb is not
  # instrumented, so runs with TBB workers would only show its scheduler.
  export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
  tests/ConcurrencyTest --gtest_filter='*SerialKernels*:*ShareOneExecutable*'
  tests/api/CApiTest --gtest_filter='*SerialKernels*'
  exit 0
fi
ctest --output-on-failure -j2
