"""Runs a command and succeeds only if it exits with the given code.

usage: expect_exit.py CODE COMMAND [ARGS...]
The command's stdout and stderr are passed through (stderr to stdout), so a
lit RUN line can pipe them into FileCheck.
"""
import subprocess
import sys

want = int(sys.argv[1])
proc = subprocess.run(sys.argv[2:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
sys.stdout.write(proc.stdout.decode("utf-8", "replace"))
if proc.returncode != want:
    sys.stdout.write(f"expect_exit.py: exit code {proc.returncode}, expected {want}\n")
    sys.exit(1)
