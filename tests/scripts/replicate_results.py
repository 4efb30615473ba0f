#!/usr/bin/env python3
"""A result set of N rows made of copies of a real one, to measure the report at scale.

    replicate_results.py SOURCE ROWS OUT [--schema]

SOURCE is a result set (a PREFIX, PREFIX.csv, or a sweep folder whose results.csv is read).
Writes OUT/results.csv with ROWS rows: copy k of the source's rows (k = 0, 1, ...) has every map
renamed MAP~k (so each copy's queries are new queries; copy 0 keeps the names), the last copy cut
short. OUT/results.build.csv holds the build rows of those maps and representations,
OUT/results.meta.json the source's meta.json (with --schema: and the column schema of
schema_fixture.py when the source's has none). Only the map names are rewritten: every other
field is copied byte for byte.
"""
import argparse
import csv
import json
import os
import shutil
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)


def source_prefix(src: str) -> str:
    if os.path.isdir(src):
        return os.path.join(src, "results")
    return src[:-4] if src.endswith(".csv") else src


def split_map(line: bytes):
    """(map, rest starting at the comma) of a CSV line whose first field is the map."""
    if line.startswith(b'"'):
        end = 1
        while True:
            end = line.index(b'"', end)
            if line[end + 1:end + 2] == b'"':
                end += 2
                continue
            return line[:end + 1], line[end + 1:]
    comma = line.index(b",")
    return line[:comma], line[comma:]


def _columns(header: bytes) -> list:
    return next(csv.reader([header.decode("utf-8").strip()]))


def _field(rest: bytes, i: int) -> str:
    """Field i of the rest of a CSV line after its map (rest starts with the comma)."""
    return next(csv.reader([rest[1:].decode("utf-8").rstrip("\r\n")]))[i]


def renamed(field: bytes, k: int) -> bytes:
    if k == 0:
        return field
    if field.startswith(b'"'):
        return field[:-1] + b"~%d\"" % k
    return field + b"~%d" % k


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source")
    ap.add_argument("rows", type=float, help="rows to write (1e6 and 1000000 both work)")
    ap.add_argument("out")
    ap.add_argument("--schema", action="store_true", help="make sure results.meta.json holds a column schema")
    args = ap.parse_args()
    prefix = source_prefix(args.source)
    want = int(args.rows)
    with open(prefix + ".csv", "rb") as f:
        header, *lines = f.read().splitlines(keepends=True)
    lines = [ln for ln in lines if ln.strip()]
    parts = [split_map(ln) for ln in lines]
    rep_at = _columns(header).index("representation") - 1  # its index in a line's rest after the map
    os.makedirs(args.out, exist_ok=True)
    copies = 0
    last_maps = set()  # the maps of the last copy (it may be cut short)
    with open(os.path.join(args.out, "results.csv"), "wb") as out:
        out.write(header)
        left = want
        while left > 0:
            take = parts[:left]
            out.write(b"".join(renamed(m, copies) + rest for m, rest in take))
            left -= len(take)
            copies += 1
            last_maps = {(m, _field(rest, rep_at)) for m, rest in take}
    if os.path.isfile(prefix + ".build.csv"):
        with open(prefix + ".build.csv", "rb") as f:
            bheader, *blines = f.read().splitlines(keepends=True)
        bparts = [split_map(ln) for ln in blines if ln.strip()]
        brep_at = _columns(bheader).index("representation") - 1
        with open(os.path.join(args.out, "results.build.csv"), "wb") as out:
            out.write(bheader)
            for k in range(copies):  # the build rows of the (map, representation) pairs that have result rows
                out.write(b"".join(renamed(m, k) + rest for m, rest in bparts
                                   if k < copies - 1 or (m, _field(rest, brep_at)) in last_maps))
    meta_out = os.path.join(args.out, "results.meta.json")
    if os.path.isfile(prefix + ".meta.json"):
        shutil.copyfile(prefix + ".meta.json", meta_out)
    if args.schema:
        import schema_fixture
        with open(meta_out, encoding="utf-8") if os.path.isfile(meta_out) else open(os.devnull) as f:
            meta = json.loads(f.read() or "{}")
        meta.setdefault("schema", schema_fixture.SCHEMA)
        with open(meta_out, "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=2)
            f.write("\n")
    print(f"replicate_results.py: wrote {want} rows ({copies} copies of {len(lines)}) to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
