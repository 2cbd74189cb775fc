#!/usr/bin/env python3
"""Checks what libxstitch.so exports: every defined dynamic symbol is an xs_
function of the C API (nm -D), every function the header declares is among
them, and the library has a versioned SONAME (readelf -d).

    check_exports.py LIBRARY HEADER
"""
import re
import subprocess
import sys


def main():
    library, header = sys.argv[1], sys.argv[2]
    nm = subprocess.run(["nm", "-D", "--defined-only", library], check=True,
                        capture_output=True, text=True).stdout
    symbols = [line.split()[-1] for line in nm.splitlines() if line.strip()]
    foreign = [s for s in symbols if not s.startswith("xs_")]
    declared = set(re.findall(r"^XS_API [^(]*?\b(xs_\w+)\(", open(header).read(), re.M))
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
    if not soname or not re.fullmatch(r"libxstitch\.so\.\d+", soname.group(1)):
        errors.append(f"SONAME is {soname.group(1) if soname else 'missing'}, not libxstitch.so.N")
    for e in errors:
        print(f"check_exports: error: {e}")
    if errors:
        return 1
    print(f"check_exports: {len(symbols)} symbols, all xs_, all declared; SONAME {soname.group(1)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
