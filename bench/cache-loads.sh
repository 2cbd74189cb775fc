#!/usr/bin/env bash
# Where an executable comes from and what that costs, each in a fresh
# process: a cold compile (no persistent cache), a cold compile that stores
# its entry, a load from the persistent cache, a load from an AOT bundle;
# the in-memory cache's hit is xstitch-bench-workloads' "cache hit" column.
# Medians of ROUNDS processes each (xstitch-run --report=json).
#   bench/cache-loads.sh [ROUNDS] MODEL --dim=SYM=N ...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${XSTITCH_BUILD:-$root/build}
rounds=${1:-5}
model=$2
shift 2
run="$build/tools/xstitch-run"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ms() { # SOURCE FILE ARGS...: compile_ms of one process, checking where it came from
  local want=$1
  shift
  "$run" "$@" --random-inputs --report=json 2> /dev/null |
    /usr/bin/python3 -c "import json,sys; r=json.load(sys.stdin); assert r['source'] == '$want', r['source']; print(r['compile_ms'])"
}
median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
"$build/tools/xstitch-compile" "$model" -o "$work/model.xsb" > /dev/null
cold=$(for i in $(seq "$rounds"); do ms compiled "$model" "$@" --cache-dir=off; done | median)
store=$(for i in $(seq "$rounds"); do rm -rf "$work/cache"; ms compiled "$model" "$@" --cache-dir="$work/cache"; done | median)
disk=$(for i in $(seq "$rounds"); do ms disk "$model" "$@" --cache-dir="$work/cache"; done | median)
bundle=$(for i in $(seq "$rounds"); do ms bundle "$work/model.xsb" "$@"; done | median)
entry=$(du -k "$work/cache"/*.xsc | awk '{print $1}')
echo "| $(basename "$model") | $cold | $store | $disk | $bundle | $((entry / 1024)) MiB | $(/usr/bin/python3 -c "print(f'{$cold / $disk:.0f}x')") |"
