#!/usr/bin/env bash
# Runs on the GPU machine, from the package scripts/package-gpu.sh built: the
# checks and benchmarks that need a GPU, on the package's platform (its
# PLATFORM file: cuda, or hip for the --amd package). Needs the GPU's driver
# (NVIDIA's; ROCm's HIP, and rocBLAS for dot on the GPU) and, for the peers,
# Python with PyTorch (torch.compile) and JAX; nothing else.
#   ./run-gpu-tests.sh [RESULTS_DIR]     # default ./results
# Steps, in order (XSTITCH_GPU_STEPS=a,b,... runs some of them; on hip the
# default is info,bench,shuffles,api,unit,check,exported,fuzz: the peers are
# PyTorch-on-CUDA's):
#   info      the GPU, the driver, cuBLASLt and the Python peers found
#   peers     bench/peers/gpu_peers.py: every workload checked against float64
#             PyTorch and timed beside PyTorch eager, torch.compile and JAX,
#             against the device-to-device copy floor (GPU otherwise idle)
#   bench     xstitch-bench-workloads --device=cuda (hip): fused and unfused,
#             the kernels' own time against the floor
#   shuffles  (hip) xstitch-bench-workloads --amdgpu-shuffles=compare: every
#             workload's reductions by DPP against ds_bpermute, in turns
#   api       xstitch-bench-api --device=cuda (hip): a call's host overhead
#   unit      every unit test with XSTITCH_REQUIRE_DEVICE=cuda (hip), sharded over
#             the cores (XSTITCH_GPU_UNIT_FILTER: a gtest filter)
#   check     xstitch-run --check of every workload on the GPU
#   exported  xstitch-run --check of the PyTorch exports carried in models/
#   fuzz      random graphs on the GPU against the interpreter
#             (XSTITCH_GPU_FUZZ_SECONDS, default 120)
# The correctness steps (unit, check, exported, fuzz) run side by side after
# the timed ones (XSTITCH_GPU_SIDE_BY_SIDE=bench,unit,... moves more there:
# quicker, the times less clean). XSTITCH_GPU_LIMIT (default 600) bounds each
# step's seconds. Writes one log per step and summary.txt to RESULTS_DIR;
# exits 1 if any step failed.
set -uo pipefail
pkg=$(cd "$(dirname "$0")" && pwd)
results=${1:-$pkg/results}
mkdir -p "$results"
export LD_LIBRARY_PATH=$pkg/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export XSTITCH_SOURCE_DIR=$pkg/src
platform=$(cat "$pkg/PLATFORM" 2> /dev/null || echo cuda)
export XSTITCH_REQUIRE_DEVICE=$platform
export XSTITCH_LIBRARY=$pkg/lib/libxstitch.so
export XSTITCH_CACHE_DIR=off
export PYTHONUNBUFFERED=1
if [ "$platform" = cuda ]; then
  steps=${XSTITCH_GPU_STEPS:-info,peers,bench,api,unit,check,exported,fuzz}
else
  steps=${XSTITCH_GPU_STEPS:-info,bench,shuffles,api,unit,check,exported,fuzz}
fi
fuzz_seconds=${XSTITCH_GPU_FUZZ_SECONDS:-120}
side=${XSTITCH_GPU_SIDE_BY_SIDE:-unit,check,exported,fuzz}
limit=${XSTITCH_GPU_LIMIT:-600}
cores=$(nproc)
export pkg results cores platform
summary=$results/summary.txt
: > "$summary"
failed=0
wanted() { [[ ",$steps," == *",$1,"* ]]; }
alone() { wanted "$1" && [[ ",$side," != *",$1,"* ]]; }
beside() { wanted "$1" && [[ ",$side," == *",$1,"* ]]; }
step() { # step NAME LIMIT_SECONDS COMMAND...: runs COMMAND, logs it, records the outcome
  local name=$1 limit=$2
  shift 2
  local start=$SECONDS rc=0
  timeout -k 5 "$limit" "$@" > "$results/$name.log" 2>&1 || rc=$?
  if [ $rc -eq 0 ]; then
    echo "pass $name ($((SECONDS - start)) s)" | tee -a "$summary"
  else
    [ $rc -eq 124 ] && rc="timeout after $limit s"
    echo "FAIL $name ($((SECONDS - start)) s, exit $rc): $name.log" | tee -a "$summary"
    tail -n 30 "$results/$name.log" | sed "s/^/  $name: /" >> "$summary"
    failed=1
  fi
}

{
  echo "xstitch $(cat "$pkg/COMMIT" 2>/dev/null) on $(hostname), $(date -u +%Y-%m-%dT%H:%MZ), $cores cores"
  command -v nvidia-smi > /dev/null &&
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader
  command -v rocm-smi > /dev/null && rocm-smi --showproductname
} | tee -a "$summary"

info() { # what is there; a missing piece is reported, not a failure
  if [ "$platform" = cuda ]; then
    nvidia-smi
    echo "== cuBLASLt"
    ldconfig -p | grep -i cublas
    ls -l /usr/local/cuda*/lib64/libcublasLt* 2> /dev/null
  else
    rocm-smi
    rocminfo | grep -E 'Marketing Name|Name: +gfx'
    echo "== HIP and rocBLAS"
    ldconfig -p | grep -E 'libamdhip64|librocblas'
    ls -l /opt/rocm/lib/libamdhip64* /opt/rocm/lib/librocblas* 2> /dev/null
  fi
  echo "== Python"
  python3 -c 'import sys, torch; print(sys.version); print("torch", torch.__version__, torch.version.cuda, torch.cuda.get_device_name())'
  python3 -c 'import jax; print("jax", jax.__version__, jax.devices())'
  python3 -c 'import triton; print("triton", triton.__version__)'
  true
}
wanted info && step info 120 bash -c "$(declare -f info); info"

wanted peers && step peers "$limit" python3 "$pkg/bench/peers/gpu_peers.py" --examples "$pkg/src/examples" \
  --json "$results/peers.json"
bench() {
  "$pkg/bin/xstitch-bench-workloads" --device="$platform" --examples "$pkg/src/examples" \
    --json "$results/bench.json"
}
alone bench && step bench "$limit" bash -c "$(declare -f bench); bench"
shuffles() {
  "$pkg/bin/xstitch-bench-workloads" --device="$platform" --amdgpu-shuffles=compare \
    --examples "$pkg/src/examples" --json "$results/shuffles.json"
}
alone shuffles && step shuffles "$limit" bash -c "$(declare -f shuffles); shuffles"
alone api && step api "$limit" "$pkg/bin/xstitch-bench-api" --device="$platform"

unit() { # every test binary in shards, side by side over the cores
  local shards=4 list=()
  for test in "$pkg"/tests/*Test; do
    for s in $(seq 0 $((shards - 1))); do list+=("$test $s"); done
  done
  printf '%s\n' "${list[@]}" | xargs -P "$((cores > 4 ? cores - 2 : 2))" -L 1 sh -c '
    name=$(basename "$0"); log='"$results"'/unit/$name.$1.log
    if GTEST_TOTAL_SHARDS='"$shards"' GTEST_SHARD_INDEX=$1 "$0" --gtest_brief=1 \
        ${XSTITCH_GPU_UNIT_FILTER:+--gtest_filter=$XSTITCH_GPU_UNIT_FILTER} > "$log" 2>&1; then
      echo "pass $name shard $1"
    else
      echo "FAIL $name shard $1"; tail -n 40 "$log"
    fi' > "$results/unit/outcomes.txt"
  cat "$results/unit/outcomes.txt"
  ! grep -q '^FAIL' "$results/unit/outcomes.txt"
}
check() { # every workload at its perf shape on the GPU, against the interpreter
  "$pkg/bin/xstitch-bench-workloads" --shapes | xargs -P 6 -L 1 sh -c '
    w=$1; shift; dims="$*"; set -- "$w"
    # bert_layer'"'"'s matrix products at its perf shape take the reference
    # interpreter minutes: it is checked at a smaller shape.
    [ "$1" = bert_layer ] && dims="--dim B=2 --dim S=16"
    if "$pkg/bin/xstitch-run" "$pkg/src/examples/$1.xs" --device="$platform" --random-inputs --check $dims \
        > "$results/check/$1.log" 2>&1; then
      echo "pass $1"
    else
      echo "FAIL $1"; tail -n 20 "$results/check/$1.log"
    fi' sh > "$results/check/outcomes.txt"
  cat "$results/check/outcomes.txt"
  ! grep -q '^FAIL' "$results/check/outcomes.txt"
}
exported() { # the carried exports at their check shapes (models/NAME.onnx + NAME.flags)
  local bad=0
  for model in "$pkg"/models/*.onnx; do
    [ -f "$model" ] || continue
    local flags
    flags=$(cat "${model%.onnx}.flags" 2> /dev/null)
    # shellcheck disable=SC2086 # flags are several flags
    if "$pkg/bin/xstitch-run" "$model" --device="$platform" --random-inputs --check $flags; then
      echo "pass $(basename "$model")"
    else
      echo "FAIL $(basename "$model")"
      bad=1
    fi
  done
  return $bad
}
mkdir -p "$results/unit" "$results/check"
pids=()
if beside bench; then
  (step bench "$limit" bash -c "$(declare -f bench); bench") &
  pids+=($!)
fi
if beside shuffles; then
  (step shuffles "$limit" bash -c "$(declare -f shuffles); shuffles") &
  pids+=($!)
fi
if beside api; then
  (step api "$limit" "$pkg/bin/xstitch-bench-api" --device="$platform") &
  pids+=($!)
fi
if beside unit; then
  (step unit "$limit" bash -c "$(declare -f unit); unit") &
  pids+=($!)
fi
if beside check; then
  (step check "$limit" bash -c "$(declare -f check); check") &
  pids+=($!)
fi
if beside exported; then
  (step exported "$limit" bash -c "$(declare -f exported); exported") &
  pids+=($!)
fi
if beside fuzz; then
  (step fuzz $((fuzz_seconds + 120)) "$pkg/bin/xstitch-graph-fuzz" --device="$platform" \
    --seconds "$fuzz_seconds" --threads 4 --seed "$(date +%s)") &
  pids+=($!)
fi
for pid in "${pids[@]}"; do wait "$pid" || true; done
# The side-by-side steps wrote their lines from subshells.
grep -q '^FAIL' "$summary" && failed=1
[ -f "$results/peers.log" ] && sed -n '/^microseconds per call/,$p' "$results/peers.log" >> "$summary"
[ -f "$results/bench.log" ] && cat "$results/bench.log" >> "$summary"
[ -f "$results/shuffles.log" ] && cat "$results/shuffles.log" >> "$summary"
[ -f "$results/api.log" ] && cat "$results/api.log" >> "$summary"
exit $failed
