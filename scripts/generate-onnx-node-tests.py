#!/usr/bin/env python3
"""Writes ONNX's operator test cases (node/<case>/model.onnx and test_data_set_0/)
to OUT, from the test generators of the installed onnx package (Debian's
python3-onnx: ONNX 1.12), as `python3 -m onnx.backend.test.cmd_tools
generate-data` does.

    scripts/generate-onnx-node-tests.py OUT

ONNX 1.12's generators name numpy's aliases np.float, np.int, np.bool and
np.object, which NumPy 1.24 removed; they are put back for the generators'
sake before they are imported.
"""
import os
import runpy
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    try:
        import numpy
        import onnx  # noqa: F401
    except ImportError as e:
        sys.exit(f"generate-onnx-node-tests: {e}: install Debian's python3-onnx and "
                 "python3-numpy (scripts/setup.sh does)")
    for name, value in (("float", float), ("int", int), ("bool", bool), ("object", object),
                        ("complex", complex)):
        if name not in numpy.__dict__:
            setattr(numpy, name, value)
    os.makedirs(out, exist_ok=True)
    sys.argv = ["cmd_tools", "generate-data", "-o", out]
    runpy.run_module("onnx.backend.test.cmd_tools", run_name="__main__")
    cases = len(os.listdir(os.path.join(out, "node")))
    print(f"generate-onnx-node-tests: {cases} node test cases in {out}/node")


if __name__ == "__main__":
    main()
