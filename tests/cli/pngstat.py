#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/cli/pngstat.py — what a screenshot shows, for the headless-browser
test (tests/cli/pictures_chromium.sh), without an imaging library:

  pngstat.py FILE [#rrggbb ...]
  pngstat.py --bands N FILE

prints `width height nonwhite_permille colours` and then, per colour given,
how many pixels are within 24 of it on every channel. With --bands N: for
each of N horizontal bands of equal height, top to bottom, `band K X0 Y0 X1
Y1`, the box around its pixels that are not white (Y relative to the band;
`band K none` when it has none) (tests/cli/pictures_scale.sh: several
pictures in one screenshot). PNG decoding (8-bit
RGB or RGBA, not interlaced, filters 0-4) follows the PNG specification
(W3C, 2nd edition, sections 7 and 9).
"""
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("not a PNG: " + path)
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise SystemExit("unsupported PNG: depth %d type %d" % (depth, ctype))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif f == 4:
                line[x] = (line[x] + paeth(a, b, c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def bands(n, path):
    w, h, bpp, rows = decode(path)
    bh = h // n
    for k in range(n):
        box = None
        for y in range(k * bh, (k + 1) * bh):
            line = rows[y]
            xs = [x // bpp for x in range(0, w * bpp, bpp)
                  if (line[x], line[x + 1], line[x + 2]) != (255, 255, 255)]
            if not xs:
                continue
            yy = y - k * bh
            if box is None:
                box = [xs[0], yy, xs[-1], yy]
            box = [min(box[0], xs[0]), box[1], max(box[2], xs[-1]), yy]
        print("band", k + 1, *(box if box else ["none"]))
    return 0


def main(argv):
    if argv[1] == "--bands":
        return bands(int(argv[2]), argv[3])
    w, h, bpp, rows = decode(argv[1])
    want = [tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in argv[2:]]
    hits = [0] * len(want)
    nonwhite, colours = 0, set()
    for line in rows:
        for x in range(0, w * bpp, bpp):
            px = (line[x], line[x + 1], line[x + 2])
            if px != (255, 255, 255):
                nonwhite += 1
            if len(colours) < 100000:
                colours.add(px)
            for i, c in enumerate(want):
                if all(abs(px[k] - c[k]) <= 24 for k in range(3)):
                    hits[i] += 1
    print(w, h, nonwhite * 1000 // (w * h), len(colours))
    for c, n in zip(argv[2:], hits):
        print(c, n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
