#!/usr/bin/python3
"""Joins xstitch-bench-workloads --json and ort_bench.mjs output into the
table of docs/performance.md. The files hold one line per workload and round
of bench/run-workloads.sh (a "round" field; xstitch's file also a floor line
per round): each time in the table is the median over the rounds, and each
ratio the median over the rounds of that round's ratio, since a round runs
both systems one right after the other.

usage: combine.py XSTITCH_JSON ORT_JSON
"""

import json
import math
import statistics
import sys


def lines(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def rounds_of(records):
    """Workload name -> {round: record}, in order of first appearance."""
    grouped = {}
    for r in records:
        grouped.setdefault(r["workload"], {})[r.get("round", 0)] = r
    return grouped


def median_of(records, key):
    return statistics.median(r[key] for r in records)


def whole_ms(name, r):
    # bert_layer: floor and xstitch columns are its memory-intensive kernels;
    # ONNX Runtime is timed whole, so the comparison uses xstitch whole.
    return r["whole_fused_ms"] if name == "bert_layer" else r["fused_ms"]


xs_lines = lines(sys.argv[1])
start_floors = [l["floor_gbps"] for l in xs_lines if "workload" not in l]
xs = rounds_of([l for l in xs_lines if "workload" in l])
ort = rounds_of(lines(sys.argv[2]))

rounds = max(len(r) for r in xs.values())
floors = [l["floor_gbps"] for l in xs_lines if "workload" in l]
print(f"copy bandwidth floor: {min(start_floors):.1f} to {max(start_floors):.1f} GB/s at the starts "
      f"of the rounds, {min(floors):.1f} to {max(floors):.1f} GB/s around the workloads (each is "
      f"judged against its own); medians over {rounds} round(s)\n")
print("| workload | floor (GB/s) | floor (ms) | xstitch (ms) | of floor | unfused (ms) | ONNX Runtime (ms) "
      "| vs ONNX Runtime | vs unfused | kernels: fused / unfused / ORT | cold compile (ms) "
      "| cache hit (us) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
fractions, vs_ort, vs_unfused = [], [], []
for name, by_round in xs.items():
    rs = list(by_round.values())
    o_by_round = ort.get(name, {})
    fraction = statistics.median(r["floor_ms"] / r["fused_ms"] for r in rs)
    unfused_ratio = statistics.median(r["unfused_ms"] / r["fused_ms"] for r in rs)
    paired = [(r, o_by_round[k]) for k, r in by_round.items() if k in o_by_round]
    ort_ratio = (statistics.median(o["ort_ms"] / whole_ms(name, r) for r, o in paired)
                 if paired else float("nan"))
    fractions.append(fraction)
    vs_unfused.append(unfused_ratio)
    if paired:
        vs_ort.append(ort_ratio)
    os_ = list(o_by_round.values())
    ort_ms = f"{median_of(os_, 'ort_ms'):.3f}" if os_ else "-"
    ort_kernels = f"{median_of(os_, 'ort_kernels'):.0f}" if os_ else "-"
    label = name + (" (memory-intensive kernels; whole layer vs ORT)" if name == "bert_layer" else "")
    print(f"| {label} | {median_of(rs, 'floor_gbps'):.1f} | {median_of(rs, 'floor_ms'):.3f} | "
          f"{median_of(rs, 'fused_ms'):.3f} | {fraction:.2f} | {median_of(rs, 'unfused_ms'):.3f} | "
          f"{ort_ms} | {f'{ort_ratio:.2f}x' if paired else '-'} | {unfused_ratio:.2f}x | "
          f"{rs[0]['kernels_fused']} / {rs[0]['kernels_unfused']} / {ort_kernels} | "
          f"{median_of(rs, 'compile_ms'):.0f} | {median_of(rs, 'cache_hit_us'):.0f} |")


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


print()
print(f"geometric mean: {geomean(fractions):.2f} of floor, {geomean(vs_ort):.2f}x faster than "
      f"ONNX Runtime, {geomean(vs_unfused):.2f}x faster than unfused")
print(f"slowest against the floor: {min(fractions):.2f}; "
      f"against ONNX Runtime: {min(vs_ort):.2f}x; against unfused: {min(vs_unfused):.2f}x")
