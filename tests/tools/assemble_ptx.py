"""Emits PTX for every example and assembles it with ptxas:
assemble_ptx.py XSTITCH_RUN PTXAS EXAMPLES_DIR OUT_DIR ARCH...

Prints one line per example and architecture; exits 1 at the first failure
with the command's output."""
import pathlib
import subprocess
import sys

run, ptxas, examples, out = sys.argv[1:5]
archs = sys.argv[5:]
for example in sorted(pathlib.Path(examples).glob("*.xs")):
    for arch in archs:
        ptx = pathlib.Path(out) / f"{example.stem}.{arch}.ptx"
        steps = [[run, str(example), "--emit=ptx", f"--target={arch}"],
                 [ptxas, f"-arch={arch}", str(ptx), "-o", str(ptx.with_suffix(".cubin"))]]
        emitted = subprocess.run(steps[0], capture_output=True, text=True)
        if emitted.returncode != 0:
            sys.exit(f"{example.stem} {arch}: emit failed\n{emitted.stdout}{emitted.stderr}")
        ptx.write_text(emitted.stdout)
        assembled = subprocess.run(steps[1], capture_output=True, text=True)
        if assembled.returncode != 0:
            sys.exit(f"{example.stem} {arch}: ptxas failed\n{assembled.stdout}{assembled.stderr}")
        print(f"{example.stem} {arch}: assembled")
