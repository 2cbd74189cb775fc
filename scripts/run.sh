#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs the default example
# graph (layer norm over 4096 x 768) through xstitch-run, checks the result
# against the reference interpreter on the untransformed graph, and times it.
#   scripts/run.sh [EXAMPLE.xs [xstitch-run flags...]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
if [ ! -f "$root/build/build.ninja" ]; then
  CC=clang-19 CXX=clang++-19 cmake -G Ninja -S "$root" -B "$root/build" >/dev/null
fi
echo "run: building xstitch-run"
cmake --build "$root/build" --target xstitch-run >/dev/null
example=${1:-$root/examples/layernorm.xs}
shift || true
if [ $# -eq 0 ]; then
  set -- --dim R=4096 --random-inputs --check --bench --iters 3
fi
exec "$root/build/tools/xstitch-run" "$example" "$@"
