#!/usr/bin/python3
"""Joins xstitch-bench-workloads --json and ort_bench.mjs output into the
table of docs/performance.md, with the bars of the stitching issue checked.

usage: combine.py XSTITCH_JSON ORT_JSON
"""

import json
import math
import sys


def lines(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


xs_lines = lines(sys.argv[1])
floor = xs_lines[0]["floor_gbps"]
xs = {l["workload"]: l for l in xs_lines[1:]}
ort = {l["workload"]: l for l in lines(sys.argv[2])}

floors = [l["floor_gbps"] for l in xs.values()]
print(f"copy bandwidth floor: {floor:.1f} GB/s at the start of this run, {min(floors):.1f} to "
      f"{max(floors):.1f} GB/s around the workloads (each is judged against its own)\n")
print("| workload | floor (GB/s) | floor (ms) | xstitch (ms) | of floor | unfused (ms) | ONNX Runtime (ms) "
      "| vs ONNX Runtime | vs unfused | kernels: fused / unfused / ORT | cold compile (ms) "
      "| cache hit (us) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
fractions, vs_ort, vs_unfused = [], [], []
for name, r in xs.items():
    o = ort.get(name)
    # bert_layer: floor and xstitch columns are its memory-intensive kernels;
    # ONNX Runtime is timed whole, so the comparison uses xstitch whole.
    whole = r["whole_fused_ms"] if name == "bert_layer" else r["fused_ms"]
    fraction = r["floor_ms"] / r["fused_ms"]
    ort_ratio = o["ort_ms"] / whole if o else float("nan")
    unfused_ratio = r["unfused_ms"] / r["fused_ms"]
    fractions.append(fraction)
    vs_unfused.append(unfused_ratio)
    if o:
        vs_ort.append(ort_ratio)
    label = name + (" (memory-intensive kernels; whole layer vs ORT)" if name == "bert_layer" else "")
    print(f"| {label} | {r['floor_gbps']:.1f} | {r['floor_ms']:.3f} | {r['fused_ms']:.3f} | {fraction:.2f} | "
          f"{r['unfused_ms']:.3f} | {o['ort_ms'] if o else float('nan'):.3f} | {ort_ratio:.2f}x | "
          f"{unfused_ratio:.2f}x | {r['kernels_fused']} / {r['kernels_unfused']} / "
          f"{o['ort_kernels'] if o else '-'} | {r['compile_ms']:.0f} | {r['cache_hit_us']:.0f} |")


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


print()
print(f"geometric mean: {geomean(fractions):.2f} of floor, {geomean(vs_ort):.2f}x faster than "
      f"ONNX Runtime, {geomean(vs_unfused):.2f}x faster than unfused")
print(f"slowest against the floor: {min(fractions):.2f}; "
      f"against ONNX Runtime: {min(vs_ort):.2f}x; against unfused: {min(vs_unfused):.2f}x")
