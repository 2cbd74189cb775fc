#!/usr/bin/env python3
"""Rewrites the full-plan check blocks of hand-written plan tests.

In a test whose checks are `//` comments (tests/transforms/*/*.xs), a block
that spells a kernel or host plan in full is a CHECK-LABEL line starting
`kernel @NAME(` or `host @NAME {` followed by CHECK-NEXT lines through `}`.
This script runs the test's first RUN line (xstitch-opt) and replaces each
such block with the same plan as printed now, matching blocks to the output
in order by their label's name; every other line, prose and partial checks
included, stays as it is. Review the diff and the prose above each block:
the goldens are the contract, this only saves the typing.

usage: scripts/update-plan-blocks.py BUILD_DIR TEST...
"""
import pathlib
import re
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LABEL = re.compile(r"^(//\s*CHECK-LABEL:\s*)((kernel|host) @[\w.]+)")
NEXT = re.compile(r"^//\s*CHECK-NEXT:(.*)$")


def run_line(text, build, test):
    for line in text.splitlines():
        m = re.match(r"//\s*RUN:\s*(.*)", line)
        if m:
            command = m.group(1).split("|")[0].strip()
            command = command.replace("%xstitch-opt", str(build / "tools" / "xstitch-opt"))
            command = command.replace("%src_root", str(ROOT)).replace("%s", str(test))
            return shlex.split(command)
    raise SystemExit(f"{test}: no RUN line")


def output_blocks(output):
    """(name, lines) of every kernel and host plan in the output, in order."""
    blocks, lines, i = [], output.splitlines(), 0
    while i < len(lines):
        m = re.match(r"^((kernel|host) @[\w.]+)", lines[i])
        if not m:
            i += 1
            continue
        start = i
        while i < len(lines) and lines[i] != "}":
            i += 1
        blocks.append((m.group(1), lines[start:i + 1]))
        i += 1
    return blocks


def rewrite(text, blocks):
    lines, out, i, next_block = text.splitlines(), [], 0, 0
    while i < len(lines):
        m = LABEL.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        end = i + 1
        while end < len(lines) and NEXT.match(lines[end]):
            end += 1
        full = end > i + 1 and NEXT.match(lines[end - 1]).group(1).strip() == "}"
        found = next((k for k in range(next_block, len(blocks)) if blocks[k][0] == m.group(2)), None)
        if not full or found is None:
            out.extend(lines[i:end])
            i = end
            continue
        name, plan = blocks[found]
        next_block = found + 1
        out.append(m.group(1) + plan[0])
        out.extend("// CHECK-NEXT: " + line for line in plan[1:])
        i = end
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    build = pathlib.Path(sys.argv[1]).resolve()
    for test in (pathlib.Path(t).resolve() for t in sys.argv[2:]):
        text = test.read_text()
        command = run_line(text, build, test)
        if not command[0].endswith("xstitch-opt"):
            print("skipped", test.relative_to(ROOT), "(its first RUN line is not xstitch-opt)")
            continue
        output = subprocess.run(command, capture_output=True, text=True).stdout
        test.write_text(rewrite(text, output_blocks(output)))
        print("updated", test.relative_to(ROOT))


if __name__ == "__main__":
    main()
