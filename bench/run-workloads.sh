#!/usr/bin/env bash
# The workload benchmark with its peers, side by side in one run: builds what
# is missing, writes the ONNX models of the workloads, runs xstitch (fused and
# unfused, with the memory floor) and ONNX Runtime's CPU provider, and prints
# the joined table (docs/performance.md).
#   bench/run-workloads.sh [THREADS] [ITERS] [ROUNDS]   # defaults: 2 threads, 20 runs, 3 rounds
# The machine's speed drifts over minutes, so the systems take turns: each
# round runs every workload on xstitch and then on ONNX Runtime before the
# next workload, and the table shows each figure's median over the rounds.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
threads=${1:-2}
iters=${2:-20}
rounds=${3:-3}
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
bench=$build/bench/xstitch-bench-workloads
for round in $(seq "$rounds"); do
  for workload in $("$bench" --list); do
    echo "round $round/$rounds: $workload" >&2
    "$bench" --examples "$root/examples" --threads "$threads" --iters "$iters" \
      --only "$workload" --json "$out/round.json" > /dev/null
    sed "s/^{/{\"round\": $round, /" "$out/round.json" >> "$out/xstitch.json"
    node "$peers/ort_bench.mjs" "$peers/models" "$threads" "$iters" "$workload" |
      sed "s/^{/{\"round\": $round, /" >> "$out/ort.json"
  done
done
echo "bench/run-workloads.sh $threads $iters $rounds, $(date -u +%Y-%m-%d)"
"$python" "$peers/combine.py" "$out/xstitch.json" "$out/ort.json"
