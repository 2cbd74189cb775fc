#!/usr/bin/env bash
# The exported suite side by side in one run: writes the PyTorch exports
# (export_models.py; Debian's python3-torch), then for each model runs
# xstitch through the C API (xstitch-bench-model: module, cold compile, peak
# memory, run, memory floor), ONNX Runtime's CPU provider, and for the
# models with a hand-written twin under examples/ that twin
# (xstitch-bench-workloads), and prints the joined table
# (docs/performance.md).
#   bench/exported/run.sh [THREADS] [ITERS] [MODEL,...]   # defaults: 2 threads, 10 runs, all
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
threads=${1:-2}
iters=${2:-10}
only=${3:-}
build=${XSTITCH_BUILD:-$root/build}
models=${XSTITCH_EXPORTED_MODELS:-$build/bench/exported-models}
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$build" > /dev/null
python=/usr/bin/python3
peers=$root/bench/peers
[ -d "$peers/node_modules/onnxruntime-node" ] || (cd "$peers" && npm ci --no-audit --no-fund)
names=${only:-$("$python" "$root/bench/exported/export_models.py" --list "$models" | paste -sd, -)}
missing=$(for n in ${names//,/ }; do [ -f "$models/$n.onnx" ] || echo "$n"; done | paste -sd, -)
if [ -n "$missing" ]; then
  "$python" "$root/bench/exported/export_models.py" "$models" --only "$missing" > /dev/null 2>&1
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for name in ${names//,/ }; do
  echo "$name" >&2
  dims=$("$python" -c "import json,sys; d=json.load(open(sys.argv[1]))['dims']; print(' '.join(f'--dim={k}={v}' for k,v in d.items()))" "$models/$name.json")
  # shellcheck disable=SC2086
  "$build/bench/xstitch-bench-model" "$models/$name.onnx" $dims --threads="$threads" \
    --iters="$iters" --json >> "$out/xstitch.json"
  node "$root/bench/exported/ort_model.mjs" "$models" "$name" "$threads" "$iters" >> "$out/ort.json"
  twin=$("$python" -c "import json,sys; print(json.load(open(sys.argv[1]))['twin'] or '')" "$models/$name.json")
  if [ -n "$twin" ]; then
    "$build/bench/xstitch-bench-workloads" --examples "$root/examples" --threads "$threads" \
      --iters "$iters" --only "$twin" --json "$out/twin.json" > /dev/null
    grep '"workload"' "$out/twin.json" | sed "s/^{/{\"model\": \"$name\", /" >> "$out/twins.json"
  fi
done
touch "$out/twins.json"
echo "bench/exported/run.sh $threads $iters${only:+ $only}, $(date -u +%Y-%m-%d)"
"$python" "$root/bench/exported/table.py" "$out/xstitch.json" "$out/ort.json" "$out/twins.json"
