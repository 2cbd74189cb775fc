#!/usr/bin/env python3
"""Checks what libxstitch.so exports: every defined dynamic symbol is an xs_
function of the C API (nm -D), every function the header declares is among
them, and the library has a versioned SONAME (readelf -d).

With --runtime-only, the library is libxstitch_runtime.so: it exports every
declared function but the compiler's (modules, compiling, checking a device
for compiling) and needs none of the compiler's libraries (LLVM, ONNX,
protobuf) among its NEEDED entries.

    check_exports.py LIBRARY HEADER [--runtime-only]
"""
import re
import subprocess
import sys


# What only libxstitch.so has: it needs the compiler.
COMPILER_ONLY = re.compile(r"xs_module_\w+|xs_executable_compile|xs_context_check_device")
COMPILER_LIBRARIES = re.compile(r"libLLVM|libonnx|libprotobuf|libclang")


def main():
    library, header = sys.argv[1], sys.argv[2]
    runtime_only = "--runtime-only" in sys.argv[3:]
    nm = subprocess.run(["nm", "-D", "--defined-only", library], check=True,
                        capture_output=True, text=True).stdout
    symbols = [line.split()[-1] for line in nm.splitlines() if line.strip()]
    foreign = [s for s in symbols if not s.startswith("xs_")]
    declared = set(re.findall(r"^XS_API [^(]*?\b(xs_\w+)\(", open(header).read(), re.M))
    if runtime_only:
        declared = set(d for d in declared if not COMPILER_ONLY.fullmatch(d))
    missing = sorted(declared - set(symbols))
    undeclared = sorted(set(s for s in symbols if s.startswith("xs_")) - declared)
    dynamic = subprocess.run(["readelf", "-d", library], check=True, capture_output=True,
                             text=True).stdout
    soname = re.search(r"\(SONAME\)\s+Library soname: \[(.*)\]", dynamic)
    errors = []
    if foreign:
        errors.append(f"{len(foreign)} exported symbols are not xs_: {foreign[:10]}")
    if missing:
        errors.append(f"declared in the header but not exported: {missing}")
    if undeclared:
        errors.append(f"exported but not declared in the header: {undeclared}")
    if not declared:
        errors.append("the header declares no XS_API function (the pattern is out of date)")
    name = "libxstitch_runtime" if runtime_only else "libxstitch"
    if not soname or not re.fullmatch(name + r"\.so\.\d+", soname.group(1)):
        errors.append(f"SONAME is {soname.group(1) if soname else 'missing'}, not {name}.so.N")
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.*)\]", dynamic)
    if runtime_only:
        compiler = [n for n in needed if COMPILER_LIBRARIES.match(n)]
        if compiler:
            errors.append(f"the runtime library needs the compiler's libraries: {compiler}")
    for e in errors:
        print(f"check_exports: error: {e}")
    if errors:
        return 1
    print(f"check_exports: {len(symbols)} symbols, all xs_, all declared; SONAME {soname.group(1)}; "
          f"needs {', '.join(needed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
