#!/usr/bin/env python3
"""Writes the hand-drawn samples of datasets/maps/formats/ (README.md there) from the ASCII
drawings below: the same floor plan as a ROS map_server map (office.yaml + office.pgm), a bare
PNG (office.png), a Moving AI grid (office-grid.map), a Polyanya mesh of its free cells
(office-cells.mesh, one square polygon per free cell); and a Polyanya polygon map (courtyard.poly).
Deterministic: running it again rewrites the same bytes. Usage: python3 draw.py [OUT_DIR]"""
import os
import struct
import sys
import zlib

# '#' occupied (pixel 0), '.' free (254), '?' unknown (205: map_server's grey), as map_server's
# map_saver writes them. Row 0 is the image's top row.
OFFICE = [
    "########################",
    "#......#...............#",
    "#......#...............#",
    "#......#.....####......#",
    "#..............##......#",
    "#......#...............#",
    "####.###########..######",
    "#......#??????#........#",
    "#......#??????#........#",
    "#......#??????.........#",
    "#..............#.......#",
    "#......#.......#.......#",
    "#.....#........#.......#",
    "########################",
]
PIXEL = {"#": 0, ".": 254, "?": 205}


def pgm(art, comment):
    h, w = len(art), len(art[0])
    head = "P5\n# %s\n%d %d\n255\n" % (comment, w, h)
    return head.encode() + bytes(PIXEL[c] for row in art for c in row)


def png(art):
    h, w = len(art), len(art[0])
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\0" + bytes(PIXEL[c] for c in row) for row in art)  # filter 0 on every row
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def movingai(art):
    rows = ["".join("." if c == "." else "@" for c in row) for row in art]
    return "type octile\nheight %d\nwidth %d\nmap\n%s\n" % (len(rows), len(rows[0]), "\n".join(rows))


def mesh(art):
    """Polyanya mesh version 2: one counter-clockwise square per free cell (x, y) -> (x+1, y+1)."""
    h, w = len(art), len(art[0])
    free = lambda x, y: 0 <= x < w and 0 <= y < h and art[y][x] == "."
    cells = [(x, y) for y in range(h) for x in range(w) if free(x, y)]
    index = {c: i for i, c in enumerate(cells)}
    corners = sorted({(x + dx, y + dy) for x, y in cells for dx in (0, 1) for dy in (0, 1)}, key=lambda p: (p[1], p[0]))
    vid = {p: i for i, p in enumerate(corners)}
    lines = ["mesh", "2", "%d %d" % (len(corners), len(cells))]
    for (x, y) in corners:
        # The cells around corner (x, y), counter-clockwise in (x, y); runs of -1 collapse to one.
        around = [index.get(c, -1) if free(*c) else -1 for c in ((x, y), (x - 1, y), (x - 1, y - 1), (x, y - 1))]
        out = [p for i, p in enumerate(around) if p >= 0 or around[i - 1] >= 0]
        if len(out) > 1 and out[0] == -1 and out[-1] == -1:
            out.pop()
        lines.append("%d %d %d %s" % (x, y, len(out), " ".join(map(str, out))))
    for (x, y) in cells:
        vs = [vid[(x, y)], vid[(x + 1, y)], vid[(x + 1, y + 1)], vid[(x, y + 1)]]
        # version 2: neighbour k is across the edge from vertex k-1 to vertex k
        nb = [(x - 1, y), (x, y - 1), (x + 1, y), (x, y + 1)]
        ps = [index[c] if free(*c) else -1 for c in nb]
        lines.append("4 %s %s" % (" ".join(map(str, vs)), " ".join(map(str, ps))))
    return "\n".join(lines) + "\n"


# courtyard.poly: a 20 x 12 hall; obstacles: a triangle, an L-shaped block, and a walled yard
# whose inside is walkable again (the spec's symmetric difference: inside two polygons is free).
COURTYARD = [
    [(0, 0), (20, 0), (20, 12), (0, 12)],
    [(2, 2), (6, 2), (4, 5)],
    [(8, 7), (11, 7), (11, 8), (9, 8), (9, 11), (8, 11)],
    [(13, 2), (18, 2), (18, 9), (13, 9)],
    [(14, 3), (17, 3), (17, 8), (14, 8)],
]


def poly(polys):
    fmt = lambda v: ("%g" % v)
    return "poly\n1\n%d\n" % len(polys) + "".join(
        "%d %s\n" % (len(p), " ".join(fmt(c) for pt in p for c in pt)) for p in polys)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    files = {
        "office.pgm": pgm(OFFICE, "CREATOR: navbench datasets/maps/formats/draw.py 0.050 m/pix"),
        "office.yaml": b"image: office.pgm\nresolution: 0.05\norigin: [-0.6, -0.35, 0.0]\nnegate: 0\n"
                       b"occupied_thresh: 0.65\nfree_thresh: 0.196\n",
        "office.png": png(OFFICE),
        "office-grid.map": movingai(OFFICE).encode(),
        "office-cells.mesh": mesh(OFFICE).encode(),
        "courtyard.poly": poly(COURTYARD).encode(),
    }
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
