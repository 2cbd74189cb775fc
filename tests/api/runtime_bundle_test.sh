#!/usr/bin/env bash
# An AOT bundle runs through libxstitch_runtime.so (a program linking only
# it) with the same results as the model compiled through libxstitch.so, and
# a truncated or foreign file is a clear error, not a crash.
#   runtime_bundle_test.sh XSTITCH_COMPILE EMBED EMBED_RUNTIME MODEL WORKDIR
set -euo pipefail
compile=$1 embed=$2 embed_runtime=$3 model=$4 work=$5
rm -rf "$work" && mkdir -p "$work"
"$compile" "$model" -o "$work/model.xsb"
compiled=$("$embed" "$model" B=2 S=5 | grep '^output')
bundled=$("$embed_runtime" "$work/model.xsb" B=2 S=5 | grep '^output')
bundled_full=$("$embed" "$work/model.xsb" B=2 S=5 | grep '^output')
if [ "$compiled" != "$bundled" ] || [ "$compiled" != "$bundled_full" ]; then
  echo "runtime_bundle_test: the bundle's results differ from the compiled model's:"
  echo "compiled:         $compiled"
  echo "bundle (runtime): $bundled"
  echo "bundle (full):    $bundled_full"
  exit 1
fi
expect_error() { # FILE PATTERN
  if out=$("$embed_runtime" "$1" B=2 S=5 2>&1); then
    echo "runtime_bundle_test: $1 loaded"; exit 1
  fi
  if ! grep -q "$2" <<<"$out"; then
    echo "runtime_bundle_test: for $1 expected '$2' in: $out"; exit 1
  fi
}
head -c 1000 "$work/model.xsb" > "$work/truncated.xsb"
expect_error "$work/truncated.xsb" "DATA_LOSS.*truncated"
cp "$model" "$work/model-as-bundle.xsb"
expect_error "$work/model-as-bundle.xsb" "not an xstitch program file"
echo "runtime_bundle_test: $compiled (compiled, bundle through both libraries)"
