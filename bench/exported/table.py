#!/usr/bin/python3
"""Joins the exported suite's results (bench/exported/run.sh) into the table
of docs/performance.md, with the suite's bars under it. Each file holds one
line per model and round; a time in the table is the median over the rounds,
and a ratio the median over the rounds of that round's ratio (a round runs
the systems one right after the other; xstitch's lines carry the twin's time,
"twin_ms", measured in turns with the export in the same process).

usage: table.py XSTITCH_JSON ORT_JSON
"""

import json
import math
import statistics
import sys


def rounds_of(path):
    """Model name -> {round: record}, in order of first appearance."""
    grouped = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                grouped.setdefault(r["model"], {})[r.get("round", 0)] = r
    return grouped


def median_of(rounds, key):
    return statistics.median(r[key] for r in rounds.values())


def median_ratio(num, num_key, den, den_key):
    """Median over the rounds both have of num / den."""
    shared = [k for k in num if k in den]
    return statistics.median(num[k][num_key] / den[k][den_key] for k in shared)


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def is_whole_model(name):
    # Matrix products dominate: no memory floor, not in the suite's means.
    return name.startswith(("bert", "gpt2"))


def main():
    xs, ort = (rounds_of(p) for p in sys.argv[1:3])
    print("| model | xstitch (ms) | of floor | kernels | ONNX Runtime (ms) | ORT / xstitch | "
          "hand-written twin (ms) | twin / exported | module (s) | peak / file (MiB) | "
          "compile (s) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    speedups, floors, twin_ratios, slower = [], [], [], []
    for name, runs in xs.items():
        run_ms = median_of(runs, "run_ms")
        of_floor = median_ratio(runs, "floor_ms", runs, "run_ms")
        ort_cell = "- | -"
        if name in ort:
            speedup = median_ratio(ort[name], "ort_ms", runs, "run_ms")
            ort_cell = f"{median_of(ort[name], 'ort_ms'):.3f} | {speedup:.2f}x"
            if not speedup > 1.0:
                slower.append(name)
            if not is_whole_model(name):
                speedups.append(speedup)
        if not is_whole_model(name):
            floors.append(of_floor)
        twin_cell = "- | -"
        if all("twin_ms" in r for r in runs.values()):
            ratio = median_ratio(runs, "twin_ms", runs, "run_ms")
            twin_ratios.append((name, ratio))
            twin_cell = f"{median_of(runs, 'twin_ms'):.3f} | {ratio:.2f}"
        last = runs[max(runs)]
        print(f"| {name} | {run_ms:.3f} | {'-' if is_whole_model(name) else f'{of_floor:.2f}'} | "
              f"{last['kernels']} | {ort_cell} | {twin_cell} | {median_of(runs, 'module_s'):.2f} | "
              f"{last['module_peak_mib']:.0f} / {last['file_mib']:.0f} | "
              f"{median_of(runs, 'compile_s'):.2f} |")
    print()
    if floors:
        print(f"memory-intensive models: geometric mean {geomean(speedups):.2f}x ONNX Runtime, "
              f"{geomean(floors):.2f} of the floor (lowest {min(floors):.2f})")
    print(f"not faster than ONNX Runtime: {', '.join(slower) if slower else 'none'}")
    below = [f"{n} ({r:.2f})" for n, r in twin_ratios if r < 0.95]
    print(f"exported under 0.95 of its twin's speed: {', '.join(below) if below else 'none'}")


if __name__ == "__main__":
    main()
