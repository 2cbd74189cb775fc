#!/usr/bin/python3
"""Joins the exported suite's results (bench/exported/run.sh) into the table
of docs/performance.md, with the bars of the suite under it.

usage: table.py XSTITCH_JSON ORT_JSON TWINS_JSON
"""

import json
import math
import sys


def lines(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main():
    xs = {r["model"]: r for r in lines(sys.argv[1])}
    ort = {r["model"]: r for r in lines(sys.argv[2])}
    twins = {r["model"]: r for r in lines(sys.argv[3])}
    print("| model | xstitch (ms) | of floor | kernels | ONNX Runtime (ms) | ORT / xstitch | "
          "hand-written twin (ms) | twin / exported | module (s) | peak (MiB) / file (MiB) | "
          "compile (s) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    memory_speedups, floors, twin_ratios, slower = [], [], [], []
    for name, r in xs.items():
        o = ort.get(name)
        t = twins.get(name)
        speedup = o["ort_ms"] / r["run_ms"] if o else float("nan")
        of_floor = r["floor_ms"] / r["run_ms"]
        if not speedup > 1.0:
            slower.append(name)
        # Whole models run matrix products: no memory floor, not in the means.
        if not name.startswith(("bert", "gpt2")):
            memory_speedups.append(speedup)
            floors.append(of_floor)
        ort_cell = f"{o['ort_ms']:.3f} | {speedup:.2f}x" if o else "- | -"
        twin_cell = "- | -"
        if t:
            twin_ratios.append((name, t["fused_ms"] / r["run_ms"]))
            twin_cell = f"{t['fused_ms']:.3f} | {twin_ratios[-1][1]:.2f}"
        print(f"| {name} | {r['run_ms']:.3f} | {of_floor:.2f} | {r['kernels']} | {ort_cell} | "
              f"{twin_cell} | {r['module_s']:.2f} | {r['module_peak_mib']:.0f} / "
              f"{r['file_mib']:.0f} | {r['compile_s']:.2f} |")
    print()
    if floors:
        print(f"memory-intensive models: geometric mean {geomean(memory_speedups):.2f}x ONNX Runtime, "
              f"{geomean(floors):.2f} of the floor (lowest {min(floors):.2f})")
    print(f"not faster than ONNX Runtime: {', '.join(slower) if slower else 'none'}")
    below = [f"{n} ({r:.2f})" for n, r in twin_ratios if r < 0.95]
    print(f"exported under 0.95 of its twin's speed: {', '.join(below) if below else 'none'}")

if __name__ == "__main__":
    main()
