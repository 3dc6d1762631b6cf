#!/usr/bin/env python3
"""repage.py IN OUT: rewrites a continuous profile (doc/formats.md section 2) with 64-byte pages,
same units and counts, so a real file fits the fuzzer's small inputs."""
import struct, sys

data = open(sys.argv[1], "rb").read()
page = struct.unpack_from("<I", data, 12)[0]
P = 64
out = bytearray(data[:24]) + bytes(P - 24)
struct.pack_into("<I", out, 12, P)
pos = page
while pos < len(data):
    tag, L, ck, nc, cap, dropped, D, S = struct.unpack_from("<IIQQQQQQ", data, pos)
    name = data[pos + 56:pos + 56 + L]
    body = data[pos + D:pos + D + 8 * nc + 24 * cap]
    d = -(-(56 + L) // P) * P
    s = -(-(d + len(body)) // P) * P
    reg = bytearray(struct.pack("<IIQQQQQQ", tag, L, ck, nc, cap, dropped, d, s)) + name
    reg += bytes(d - len(reg)) + body
    reg += bytes(s - len(reg))
    out += reg
    pos += S
open(sys.argv[2], "wb").write(out)
