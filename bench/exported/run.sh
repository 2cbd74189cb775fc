#!/usr/bin/env bash
# The exported suite side by side in one run: writes the PyTorch exports
# (export_models.py; Debian's python3-torch), then for each model runs
# xstitch through the C API (xstitch-bench-model: module, cold compile, peak
# memory, run, memory floor), its hand-written twin under examples/ where it
# has one (the same tool, so the two differ only in the graph), and ONNX
# Runtime's CPU provider, and prints the joined table (docs/performance.md).
# The machine's speed drifts over minutes, so each round runs the three one
# right after the other, the export and its twin in turns in one process
# (xstitch-bench-model --twin); the table shows medians over the rounds.
#   bench/exported/run.sh [THREADS] [ITERS] [ROUNDS] [MODEL,...]
#   defaults: 2 threads, 10 runs, 3 rounds, every model
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
threads=${1:-2}
iters=${2:-10}
rounds=${3:-3}
only=${4:-}
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
twin_dims() {
  "$build/bench/xstitch-bench-workloads" --shapes |
    awk -v w="$1" '$1 == w { for (i = 3; i <= NF; i += 2) printf " --twin-dim=%s", $i }'
}
for round in $(seq "$rounds"); do
  for name in ${names//,/ }; do
    echo "round $round/$rounds: $name" >&2
    spec=$models/$name.json
    dims=$("$python" -c "import json,sys; d=json.load(open(sys.argv[1]))['dims']; print(' '.join(f'--dim={k}={v}' for k,v in d.items()))" "$spec")
    twin=$("$python" -c "import json,sys; print(json.load(open(sys.argv[1]))['twin'] or '')" "$spec")
    # Whole models run for seconds: a quarter of the runs (at least 3).
    runs=$iters
    case $name in bert_base|gpt2_block|bert_layer) runs=$(( iters / 4 > 3 ? iters / 4 : 3 )) ;; esac
    twin_flags=
    [ -z "$twin" ] || twin_flags="--twin=$root/examples/$twin.xs $(twin_dims "$twin")"
    # shellcheck disable=SC2086
    "$build/bench/xstitch-bench-model" "$models/$name.onnx" $dims $twin_flags \
      --threads="$threads" --iters="$runs" --json |
      sed "s/^{/{\"round\": $round, /" >> "$out/xstitch.json"
    node "$root/bench/exported/ort_model.mjs" "$models" "$name" "$threads" "$runs" |
      sed "s/^{/{\"round\": $round, /" >> "$out/ort.json"
  done
done
echo "bench/exported/run.sh $threads $iters $rounds${only:+ $only}, $(date -u +%Y-%m-%d)"
"$python" "$root/bench/exported/table.py" "$out/xstitch.json" "$out/ort.json"
