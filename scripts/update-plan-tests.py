#!/usr/bin/env python3
"""Regenerates the CHECK lines of the plan golden tests.

Each test under tests/transforms/stitch-plan/examples/ (or each TEST named)
runs xstitch-opt on one example; this script runs the same command and
rewrites the test's CHECK lines from its output: every kernel in full
(CHECK-LABEL on its first line, CHECK-NEXT after), then the host plan in full
when the test checked it so before, else every launch with its variants and
a final CHECK-NOT for launches beyond them. Review the diff before committing:
the goldens are the contract, this only saves the typing.

usage: scripts/update-plan-tests.py BUILD_DIR [TEST ...]
"""
import pathlib
import re
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run_line(test_text, build):
    for line in test_text.splitlines():
        m = re.match(r"#\s*RUN:\s*(.*)", line)
        if m:
            command = m.group(1).split("|")[0].strip()
            command = command.replace("%xstitch-opt", str(build / "tools" / "xstitch-opt"))
            return shlex.split(command.replace("%src_root", str(ROOT)))
    raise SystemExit("no RUN line")


def checks(output, full_host):
    lines = output.splitlines()
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("kernel @") or (full_host and line.startswith("host @")):
            out.append("# CHECK-LABEL: " + line)
            i += 1
            while i < len(lines):
                out.append("# CHECK-NEXT: " + lines[i])
                if lines[i] == "}":
                    break
                i += 1
        elif not full_host and re.match(r"\s+\d+: launch ", line):
            out.append("# CHECK: " + line.strip())
            while i + 1 < len(lines) and re.match(r"\s+\S+\.v\d+ when ", lines[i + 1]):
                i += 1
                out.append("# CHECK: " + lines[i].strip())
        i += 1
    if not full_host:
        out.append("# CHECK-NOT: launch")
    return out


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    build = pathlib.Path(sys.argv[1]).resolve()
    tests = [pathlib.Path(t).resolve() for t in sys.argv[2:]] or sorted(
        (ROOT / "tests" / "transforms" / "stitch-plan" / "examples").glob("*.test"))
    for test in tests:
        text = test.read_text()
        output = subprocess.run(run_line(text, build), check=True, capture_output=True,
                                text=True).stdout
        header = [l for l in text.splitlines() if not re.match(r"#\s*CHECK", l)]
        full_host = "CHECK-LABEL: host @" in text
        test.write_text("\n".join(header + checks(output, full_host)) + "\n")
        print("updated", test.relative_to(ROOT))


if __name__ == "__main__":
    main()
