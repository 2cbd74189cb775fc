"""Writes a 1-D .npy file of int64 values: write_npy.py OUT V0 V1 ...

Tests use it for inputs whose values matter (a shape held in a tensor)."""
import struct
import sys

values = [int(v) for v in sys.argv[2:]]
header = "{'descr': '<i8', 'fortran_order': False, 'shape': (%d,), }" % len(values)
# The header, newline included, pads the preamble to a multiple of 64 bytes.
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(sys.argv[1], "wb") as out:
    out.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
    out.write(struct.pack("<%dq" % len(values), *values))
