#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs the default example
# graph (layer norm over 4096 x 768) through xstitch-run, checks the result
# against the reference interpreter on the untransformed graph, and times it.
#   scripts/run.sh [EXAMPLE.xs [xstitch-run flags...]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build" >/dev/null
example=${1:-$root/examples/layernorm.xs}
shift || true
if [ $# -eq 0 ]; then
  set -- --dim R=4096 --check --bench --iters 3
fi
exec "$root/build/tools/xstitch-run" "$example" "$@"
