#!/usr/bin/env bash
# The workload benchmark with its peers, side by side in one run: builds what
# is missing, writes the ONNX models of the workloads, runs xstitch (fused and
# unfused, with the memory floor) and ONNX Runtime's CPU provider, and prints
# the joined table (docs/performance.md).
#   bench/run-workloads.sh [THREADS] [ITERS]      # defaults: 2 threads, 20 runs
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
threads=${1:-2}
iters=${2:-20}
build=${XSTITCH_BUILD:-$root/build}
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$build" > /dev/null
# The peers: Debian's python3-onnx (setup.sh) writes the models, npm brings
# ONNX Runtime.
python=/usr/bin/python3
peers=$root/bench/peers
[ -d "$peers/node_modules/onnxruntime-node" ] || (cd "$peers" && npm ci --no-audit --no-fund)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$python" "$peers/make_models.py" "$peers/models" > /dev/null
"$build/bench/xstitch-bench-workloads" --examples "$root/examples" --threads "$threads" \
  --iters "$iters" --json "$out/xstitch.json" > /dev/null
node "$peers/ort_bench.mjs" "$peers/models" "$threads" "$iters" > "$out/ort.json"
echo "bench/run-workloads.sh $threads $iters, $(date -u +%Y-%m-%d)"
"$python" "$peers/combine.py" "$out/xstitch.json" "$out/ort.json"
