"""A tiny PNG reader (8-bit RGB/RGBA/grey, non-interlaced) so the render test needs no imaging library."""
from __future__ import annotations

import struct
import zlib


def read_png(path) -> tuple:
    """(width, height, channels, rows) where rows[y] is a bytes object of width*channels."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    i, idat, hdr = 8, [], None
    while i < len(data):
        n, kind = struct.unpack(">I4s", data[i:i + 8])
        body = data[i + 8:i + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        i += 12 + n
    w, h, depth, ctype, _c, _f, interlace = hdr
    assert depth == 8 and interlace == 0, "only 8-bit non-interlaced PNGs"
    ch = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw = zlib.decompress(b"".join(idat))
    stride = w * ch
    rows, prev = [], bytearray(stride)
    for y in range(h):
        off = y * (stride + 1)
        ftype, line = raw[off], bytearray(raw[off + 1:off + 1 + stride])
        if ftype == 1:
            for x in range(ch, stride):
                line[x] = (line[x] + line[x - ch]) & 255
        elif ftype == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif ftype == 3:
            for x in range(stride):
                left = line[x - ch] if x >= ch else 0
                line[x] = (line[x] + ((left + prev[x]) >> 1)) & 255
        elif ftype == 4:
            for x in range(stride):
                a = line[x - ch] if x >= ch else 0
                b = prev[x]
                c = prev[x - ch] if x >= ch else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, ch, rows


def pixels_of(rows, ch, rgb) -> list:
    """(x, y) of every pixel of exactly this colour."""
    target = bytes(rgb)
    out = []
    for y, row in enumerate(rows):
        for x in range(0, len(row), ch):
            if row[x:x + 3] == target:
                out.append((x // ch, y))
    return out
