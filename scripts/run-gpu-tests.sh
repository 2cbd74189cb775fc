#!/usr/bin/env bash
# Runs on the GPU machine, from the package scripts/package-gpu.sh built: the
# unit tests with the GPU required (every differential, random-graph and
# example test on cuda:0 as well as on the CPU), every workload at its perf
# shape through xstitch-run --check on the GPU, and the workload benchmark on
# the GPU. Needs the NVIDIA driver, nothing else.
#   ./run-gpu-tests.sh [RESULTS_DIR]     # default ./results
# Writes one log per step and summary.txt to RESULTS_DIR; exits 1 if any
# step failed.
set -uo pipefail
pkg=$(cd "$(dirname "$0")" && pwd)
results=${1:-$pkg/results}
mkdir -p "$results"
export LD_LIBRARY_PATH=$pkg/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export XSTITCH_SOURCE_DIR=$pkg/src
export XSTITCH_REQUIRE_DEVICE=cuda
summary=$results/summary.txt
: > "$summary"
failed=0
step() { # step NAME COMMAND...: runs COMMAND, logs it, records the outcome
  local name=$1
  shift
  local start=$SECONDS
  if "$@" > "$results/$name.log" 2>&1; then
    echo "pass $name ($((SECONDS - start)) s)" | tee -a "$summary"
  else
    echo "FAIL $name ($((SECONDS - start)) s, exit $?): $results/$name.log" | tee -a "$summary"
    failed=1
  fi
}

{
  echo "xstitch $(cat "$pkg/COMMIT" 2>/dev/null) on $(hostname), $(date -u +%Y-%m-%dT%H:%MZ)"
  command -v nvidia-smi > /dev/null &&
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
} | tee -a "$summary"

for test in "$pkg"/tests/*Test; do
  step "unit.$(basename "$test")" "$test" --gtest_brief=1
done
while read -r workload dims; do
  # bert_layer's matrix products at its perf shape take the reference
  # interpreter minutes: it is checked at a smaller shape.
  [ "$workload" = bert_layer ] && dims="--dim B=2 --dim S=16"
  # shellcheck disable=SC2086 # dims are several flags
  step "check.$workload" "$pkg/bin/xstitch-run" "$pkg/src/examples/$workload.xs" \
    --device=cuda --check $dims
done < <("$pkg/bin/xstitch-bench-workloads" --shapes)
step bench.workloads "$pkg/bin/xstitch-bench-workloads" --device=cuda \
  --examples "$pkg/src/examples" --json "$results/bench.json"
cat "$results/bench.workloads.log" >> "$summary" 2> /dev/null
exit $failed
