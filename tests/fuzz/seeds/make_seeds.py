#!/usr/bin/env python3
"""Writes the seed inputs of the fuzz targets of tests/fuzz/ (docs/testing.md#fuzzing): the bundled
sample files and the formats' edge cases, one small file each, into a folder per target. The
committed corpora (tests/fuzz/corpus/NAME/) are these seeds merged with what the campaign found,
minimised by libFuzzer's -merge=1. Usage: make_seeds.py OUT_DIR"""
import os
import struct
import sys
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
FORMATS = os.path.join(ROOT, "datasets", "maps", "formats")
HAND = os.path.join(ROOT, "datasets", "maps", "hand")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def pgm(w, h, px, maxval=255, comment=b"# a comment\n"):
    return b"P5\n" + comment + b"%d %d\n%d\n" % (w, h, maxval) + bytes(px)


def chunk(kind, data, crc=None):
    c = zlib.crc32(kind + data) if crc is None else crc
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", c)


def png(w, h, depth, colour, rows, interlace=0, extra=b"", plte=b""):
    """rows: the raw scanlines, each beginning with its filter byte."""
    ihdr = struct.pack(">IIBBBBB", w, h, depth, colour, 0, 0, interlace)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra
    if plte:
        out += chunk(b"PLTE", plte)
    return out + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b"")


def seeds():
    s = {}
    # PGM: the bundled image, grey levels around the thresholds, comments, and what the format forbids.
    s["pgm/office.pgm"] = read(os.path.join(FORMATS, "office.pgm"))
    s["pgm/levels.pgm"] = pgm(4, 2, [0, 89, 90, 128, 205, 206, 254, 255])
    s["pgm/maxval100.pgm"] = pgm(3, 1, [0, 50, 100], 100, b"")
    s["pgm/maxval1.pgm"] = pgm(2, 2, [0, 1, 1, 0], 1, b"")
    s["pgm/maxval0.pgm"] = pgm(2, 1, [0, 0], 0)
    s["pgm/maxval65536.pgm"] = pgm(1, 1, [0, 0], 65536)
    s["pgm/sixteen.pgm"] = pgm(1, 1, [0, 0], 65535)
    s["pgm/above-maxval.pgm"] = pgm(2, 1, [0, 200], 100)
    s["pgm/truncated.pgm"] = pgm(4, 4, [0, 255, 0])
    s["pgm/trailing.pgm"] = pgm(1, 1, [255]) + b"\n"
    s["pgm/comments.pgm"] = b"P5 # c1\n# c2\n2 # c3\n1\n255\n\x00\xff"
    s["pgm/long-number.pgm"] = b"P5\n99999999999999999999 1\n255\n\x00"
    s["pgm/zero.pgm"] = b"P5\n0 0\n255\n"
    s["pgm/ascii.pgm"] = b"P2\n2 1\n255\n0 255\n"
    # PNG: the bundled image, every colour type and depth, palette, interlaced, damaged chunks.
    s["png/office.png"] = read(os.path.join(FORMATS, "office.png"))
    s["png/grey8.png"] = png(2, 1, 8, 0, [b"\x00\x00\xff"])
    s["png/grey1.png"] = png(9, 1, 1, 0, [b"\x00\xaa\x80"])
    s["png/grey16.png"] = png(2, 1, 16, 0, [b"\x00\xff\xff\x03\xe8"])
    s["png/rgb.png"] = png(2, 1, 8, 2, [b"\x00\xff\xff\x00\x00\x00\x1e"])
    s["png/grey-alpha.png"] = png(2, 1, 8, 4, [b"\x00\xff\x00\xff\xff"])
    s["png/rgba16.png"] = png(1, 1, 16, 6, [b"\x00" + b"\xff\xff" * 3 + b"\x80\x00"])
    s["png/palette.png"] = png(2, 1, 8, 3, [b"\x00\x00\x01"], plte=b"\x00\x00\x00\xff\xff\xff")
    s["png/palette-trns.png"] = png(2, 1, 8, 3, [b"\x00\x00\x01"], plte=b"\x00\x00\x00\xff\xff\xff",
                                    extra=b"")[:-12] + chunk(b"tRNS", b"\x00\x80") + chunk(b"IEND", b"")
    s["png/interlaced.png"] = png(3, 3, 8, 0, [b"\x00\x01", b"\x00\x02", b"\x00\x03\x04", b"\x00\x05\x06", b"\x00\x07\x08\x09"], interlace=1)
    s["png/filters.png"] = png(3, 5, 8, 0, [bytes([f]) + b"\x10\x20\x30" for f in range(5)])
    good = png(2, 1, 8, 0, [b"\x00\x00\xff"])
    s["png/bad-crc.png"] = good[:-5] + bytes([good[-5] ^ 1]) + good[-4:]
    s["png/no-iend.png"] = good[:-12]
    s["png/huge-header.png"] = png(16383, 16383, 16, 6, [b"\x00"])
    # ROS map_server YAML, NUL, then the image (tests/fuzz/fuzz_rosmap.cpp).
    office = read(os.path.join(FORMATS, "office.pgm"))
    yaml = read(os.path.join(FORMATS, "office.yaml")).replace(b"office.pgm", b"map.pgm")
    s["rosmap/office"] = yaml + b"\0" + office
    small = pgm(4, 2, [0, 89, 90, 128, 205, 206, 254, 255])
    base = b"image: map.pgm\nresolution: 0.05\norigin: [-1.0, 2.0, 0.5]\n"
    s["rosmap/scale"] = base + b"mode: scale\noccupied_thresh: 0.9\nfree_thresh: 0.1\n\0" + small
    s["rosmap/raw-negate"] = base + b"mode: raw\nnegate: 1\n\0" + small
    s["rosmap/png-alpha"] = base.replace(b"map.pgm", b"map.png") + b"mode: trinary\n\0" + png(2, 1, 8, 4, [b"\x00\xff\x00\xff\xff"])
    s["rosmap/thresholds-swapped"] = base + b"occupied_thresh: 0.2\nfree_thresh: 0.7\n\0" + small
    s["rosmap/threshold-above-one"] = base + b"occupied_thresh: 1.5\n\0" + small
    s["rosmap/flow"] = b"{image: map.pgm, resolution: 1e-3, origin: [0, 0], negate: true}\0" + small
    s["rosmap/anchors"] = b"r: &r 0.5\nimage: map.pgm\nresolution: *r\norigin: [0, 0, 0]\nmode: !!str scale\n\0" + small
    s["rosmap/missing-image"] = b"image: other.pgm\nresolution: 1\norigin: [0, 0, 0]\n\0"
    # Polyanya meshes and polygon maps: the bundled files, the spec's example, broken ones.
    s["mesh/office-cells.mesh"] = read(os.path.join(FORMATS, "office-cells.mesh"))
    spec = b"mesh\n2\n4 2\n0.0 0.0 2 0 -1\n1.5 0.0 3 0 1 -1\n1.5 1.5 2 1 -1\n0.0 1.5 3 -1 1 0\n3 0 1 3 -1 -1 1\n3 1 2 3 0 -1 -1\n"
    s["mesh/spec.mesh"] = spec
    s["mesh/dart.mesh"] = b"mesh\n2\n4 1\n0 0 2 0 -1\n4 0 2 0 -1\n1 1 2 0 -1\n0 4 2 0 -1\n4 0 1 2 3 -1 -1 -1 -1\n"
    s["mesh/bad-neighbour.mesh"] = spec.replace(b"3 0 1 3 -1 -1 1\n", b"3 0 1 3 -1 1 -1\n")
    s["mesh/square-hole.mesh"] = (b"mesh\n2\n8 4\n0 0 2 0 -1\n3 0 3 0 1 -1\n3 3 3 1 2 -1\n0 3 3 2 3 -1\n1 1 3 0 3 -1\n"
                                  b"2 1 3 0 1 -1\n2 2 3 1 2 -1\n1 2 3 2 3 -1\n"
                                  b"4 0 1 5 4 3 -1 1 -1\n4 1 2 6 5 -1 2 -1 0\n4 2 3 7 6 -1 3 -1 1\n4 3 0 4 7 -1 0 -1 2\n")
    s["poly/courtyard.poly"] = read(os.path.join(FORMATS, "courtyard.poly"))
    s["poly/square.poly"] = b"poly\n1\n1\n4 0 0 10 0 10 10 0 10\n"
    s["poly/bowtie.poly"] = b"poly\n1\n2\n4 0 0 10 0 10 10 0 10\n4 2 2 4 4 4 2 2 4\n"
    s["poly/nested.poly"] = b"poly\n1\n3\n4 0 0 9 0 9 9 0 9\n4 1 1 8 1 8 8 1 8\n4 2 2 7 2 7 7 2 7\n"
    # Cost layers of a 4 x 3 map (tests/fuzz/fuzz_costs.cpp) and their mistakes.
    s["costs/ones.costs"] = b"type costs\nheight 3\nwidth 4\ncosts\n1 1 1 1\n1 1 1 1\n1 1 1 1\n"
    s["costs/mixed.costs"] = b"type costs\nheight 3\nwidth 4\ncosts\n1 2.5 inf 1e3\n1.000001 5 5 inf\n7 1 1 100\n\n"
    s["costs/crlf.costs"] = b"type costs\r\nheight 3\r\nwidth 4\r\ncosts\r\n1 1 1 1\r\n1 1 1 1\r\n1 1 1 1\r\n"
    s["costs/wrong-size.costs"] = b"type costs\nheight 4\nwidth 3\ncosts\n1 1 1\n1 1 1\n1 1 1\n1 1 1\n"
    s["costs/below-one.costs"] = b"type costs\nheight 3\nwidth 4\ncosts\n1 0.5 1 1\n1 1 1 1\n1 1 1 1\n"
    s["costs/nan.costs"] = b"type costs\nheight 3\nwidth 4\ncosts\nnan 1 1 1\n1 1 1 1\n1 1 1 1\n"
    # --terrain tables on their first line, then the map they weight.
    two = read(os.path.join(HAND, "two-areas.map"))
    s["terrain/sw"] = b"S=2,W=5\ntype octile\nheight 2\nwidth 4\nmap\n.SW@\nTG.W\n"
    s["terrain/two-areas"] = b"G=1.5\n" + two
    s["terrain/obstacle"] = b"@=2\n" + two
    s["terrain/twice"] = b"S=2,S=3\n" + two
    s["terrain/below-one"] = b"S=0.5\n" + two
    s["terrain/empty-item"] = b"S=2,,W=3\n" + two
    # Changing-map scenarios, NUL, then the patch file (tests/fuzz/fuzz_dynamic.cpp).
    head = b"version 2\nheight 4\nwidth 5\ncost 1 octile\npatch t.patch\ncommands\n"
    patches = b"type patch\npatches 2\npatch 0\nheight 2\nwidth 3\nmap\n@.@\n...\npatch 1\nheight 1\nwidth 1\nmap\n@\n"
    s["dynamic/two-patches"] = head + b"P 0 0 1 1\nQ 0 0 0 4 3 6.65685425\nP 1 1 2 1\nQ 1 0 0 4 3 6.65685425\n\0" + patches
    s["dynamic/two-costs"] = head.replace(b"cost 1 octile", b"cost 2 euclidean octile") + b"Q 0 0 0 4 3 5 6.65685425\n\0" + patches
    s["dynamic/outside"] = head + b"P 0 0 3 0\n\0" + patches
    s["dynamic/epochs"] = head + b"Q 2 0 0 1 0 1\nQ 1 0 0 1 0 1\n\0" + patches
    s["dynamic/no-patches"] = head + b"P 0 0 0 0\n\0"
    # The viewer's requests: route byte, query string, newline, body (tests/fuzz/fuzz_serve.cpp;
    # routes in the order of harness/serve/http.cpp: info, map, structure, query, cells, reset,
    # terrain, paint, costs).
    s["serve/info"] = b"\x00\n"
    s["serve/map"] = b"\x01map=0\n"
    s["serve/map-bad"] = b"\x01map=99999999999999999999\n"
    s["serve/structure"] = b"\x02map=0&rep=visgraph\n"
    s["serve/structure-radius"] = b"\x02map=1&rep=navmesh&radius=0.4\n"
    s["serve/query"] = b'\x03\n{"map": 0, "reps": ["grid8", "visgraph"], "start": [0.5, 0.5], "goal": [5.5, 5.5], "smoothing": "funnel"}'
    s["serve/query-polygon"] = b'\x03\n{"map": 1, "reps": ["navmesh:cell=tri"], "start": [1, 1], "goal": [9, 9], "heuristic": "octile", "search": "dijkstra", "trace": true}'
    s["serve/query-radius"] = b'\x03\n{"map": "0", "reps": ["grid8"], "start": [1.5, 1.5], "goal": [5.5, 5.5], "radius": 0.3, "paths": false}'
    s["serve/cells"] = b'\x04\n{"map": 0, "cells": [[1, 1], [2, 2]], "blocked": true}'
    s["serve/reset"] = b'\x05\n{"map": 0}'
    s["serve/terrain"] = b'\x06\n{"map": 0, "terrain": "G=2"}'
    s["serve/terrain-costs"] = (b'\x06\n{"map": 0, "costs": "type costs\\nheight 7\\nwidth 7\\ncosts\\n' + b"1 2 3 4 5 6 7\\n" * 7 +
                                b'", "name": "x.costs"}')
    s["serve/paint"] = b'\x07\n{"map": 0, "cells": [[1, 1]], "weight": 3}'
    s["serve/costs"] = b"\x08map=0\n"
    s["serve/not-json"] = b"\x03\n{\"map\": 0, "
    # What an entry's process writes back (tests/fuzz/fuzz_gppc.cpp): the track byte, the Ready
    # record and name, then replies (harness/gppc/protocol.hpp, little-endian as on x86-64).
    def ready(track, name, magic=0x4E424751):
        return struct.pack("<Iidq", magic, track, 12.5, 2048) + struct.pack("<I4x", len(name)) + name

    # The Answer record, its points, one Call record per GetPath call (its time, the points after it)
    # and its message.
    def answer(status, points=(), message=b"", calls=1):
        xy = b"".join(struct.pack("<dd", x, y) for x, y in points)
        timed = b"".join(struct.pack("<dQ", 3.5 / calls, len(points) * (k + 1) // calls) for k in range(calls))
        return struct.pack("<IIdQI4x", status, calls, 3.5, len(points), len(message)) + xy + timed + message

    s["gppc/classic-path"] = b"\x00" + ready(0, b"astar") + answer(0, [(0, 3), (3, 3), (4, 2), (4, 0)])
    s["gppc/classic-invalid"] = b"\x00" + ready(0, b"x") + answer(0, [(0, 3), (2, 3), (2, 0), (4, 0)]) + answer(0, [(0, 3), (4, 0)])
    s["gppc/anyangle-path"] = b"\x01" + ready(1, b"vis") + answer(0, [(0, 3), (3, 3), (4, 0)]) + answer(0, [])
    s["gppc/statuses"] = b"\x01" + ready(1, b"") + answer(1, calls=1000) + answer(2) + answer(3, message=b"std::bad_alloc")
    s["gppc/nan-and-huge"] = b"\x00" + ready(0, b"n") + answer(0, [(0, 3), (float("nan"), 1), (4, 0)]) + answer(0, [(0, 3), (1e300, 3), (4, 0)])
    s["gppc/garbled"] = b"\x00" + ready(0, b"g") + answer(7) + answer(0, [(0, 3)])
    s["gppc/too-many-points"] = b"\x00" + ready(0, b"p") + struct.pack("<IIdQI4x", 0, 1, 1.0, 1 << 40, 0)
    s["gppc/wrong-magic"] = b"\x00" + ready(0, b"m", magic=1)
    s["gppc/long-name"] = b"\x00" + struct.pack("<Iidq", 0x4E424751, 0, 1.0, 1) + struct.pack("<I4x", 5000)
    s["gppc/pieces"] = b"\x00" + ready(0, b"i") + answer(0, [(0, 3), (1, 3), (2, 3), (3, 3), (4, 2), (4, 0)], calls=3)
    s["gppc/too-many-calls"] = b"\x00" + ready(0, b"c") + struct.pack("<IIdQI4x", 0, 1 << 30, 1.0, 0, 0)
    return s


def main():
    out = sys.argv[1]
    for name, data in seeds().items():
        path = os.path.join(out, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
