#!/usr/bin/env python3
"""Writes the parser fuzzer's seed corpus.

From every .xs file under examples/ and tests/ (tests/fuzz excluded) it
writes the whole file plus variants that start the fuzzer near interesting
places: truncations, line subsets and swaps of two tokens. The variants come
from a fixed random seed, so the corpus is the same on every build.

usage: make_seeds.py SOURCE_DIR OUTPUT_DIR [STAMP_FILE]
"""

import hashlib
import pathlib
import random
import re
import shutil
import sys

VARIANTS_PER_FILE = 8
MAX_BYTES = 4096


def source_files(root):
    files = []
    for top in ("examples", "tests"):
        base = root / top
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.xs")):
            if "fuzz" in path.relative_to(root).parts[:2]:
                continue
            files.append(path)
    return files


def variants(text, rng):
    lines = text.splitlines(keepends=True)
    tokens = re.split(r"(\s+)", text)
    yield text
    for _ in range(VARIANTS_PER_FILE):
        kind = rng.randrange(4)
        if kind == 0 and text:  # truncation
            yield text[: rng.randrange(len(text))]
        elif kind == 1 and lines:  # drop one line
            i = rng.randrange(len(lines))
            yield "".join(lines[:i] + lines[i + 1:])
        elif kind == 2 and lines:  # keep a random subset of lines, in order
            yield "".join(line for line in lines if rng.random() < 0.7)
        elif len(tokens) > 2:  # swap two tokens (whitespace kept in place)
            words = [i for i, t in enumerate(tokens) if t and not t.isspace()]
            if len(words) >= 2:
                a, b = rng.sample(words, 2)
                swapped = list(tokens)
                swapped[a], swapped[b] = swapped[b], swapped[a]
                yield "".join(swapped)


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__)
    root = pathlib.Path(argv[1])
    out = pathlib.Path(argv[2])
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    rng = random.Random(20240601)
    written = set()
    for path in source_files(root):
        text = path.read_text(encoding="utf-8", errors="replace")
        for variant in variants(text, rng):
            data = variant.encode("utf-8")[:MAX_BYTES]
            name = hashlib.sha1(data).hexdigest()
            if name in written:
                continue
            written.add(name)
            (out / name).write_bytes(data)
    if not written:
        sys.exit(f"make_seeds.py: no .xs files under {root}/examples or {root}/tests")
    print(f"make_seeds.py: {len(written)} seeds in {out}")
    if len(argv) == 4:
        pathlib.Path(argv[3]).write_text(f"{len(written)}\n")


if __name__ == "__main__":
    main(sys.argv)
