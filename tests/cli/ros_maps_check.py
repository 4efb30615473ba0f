#!/usr/bin/env python3
"""An independent reading of ROS map_server maps (docs/maps.md), checked against navbench's.

For each YAML given, this script reads the YAML fields and the binary PGM itself (no shared code
with navbench) and applies Nav2 map_server's rule (nav2_map_server/src/map_io.cpp): occupancy
p = (255 - v) / 255, or v / 255 with negate; trinary: p > occupied_thresh occupied, p < free_thresh
free, else unknown; scale: between the thresholds a cost. Then it runs `navbench run` on the map
and requires (1) the cell counts navbench records in PREFIX.meta.json to equal its own, and (2) at
sampled cells (free, occupied and unknown ones, from every part of the image) a query from the
cell to itself to be `invalid_query` exactly where this reading blocks the cell: the rows and
columns are where the image puts them (row 0 = the image's top row).
Usage: ros_maps_check.py NAVBENCH OUT_DIR MAP.yaml...   (exit 0 when every map agrees)"""
import csv
import json
import os
import random
import subprocess
import sys


def yaml_fields(path):
    fields = {}
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if ":" in line:
            k, v = line.split(":", 1)
            fields[k.strip()] = v.strip()
    return fields


def read_pgm(path):
    data = open(path, "rb").read()
    tokens, i = [], 0
    while len(tokens) < 4:  # magic, width, height, maxval; '#' comments anywhere in the header
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            while data[i:i + 1] not in (b"\n", b"\r"):
                i += 1
            continue
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        tokens.append(data[i:j].decode())
        i = j
    assert tokens[0] == "P5" and tokens[3] == "255", (path, tokens)
    w, h = int(tokens[1]), int(tokens[2])
    pixels = data[i + 1:i + 1 + w * h]
    assert len(pixels) == w * h, path
    return w, h, pixels


def classify(yaml_path):
    f = yaml_fields(yaml_path)
    image = os.path.join(os.path.dirname(yaml_path), f["image"])
    occ, free = float(f.get("occupied_thresh", 0.65)), float(f.get("free_thresh", 0.196))
    negate, mode = f.get("negate", "0") in ("1", "true"), f.get("mode", "trinary")
    w, h, px = read_pgm(image)
    kinds = []
    for v in px:
        p = v / 255.0 if negate else (255 - v) / 255.0
        if p > occ:
            kinds.append("occupied")
        elif p < free:
            kinds.append("free")
        else:
            kinds.append("between" if mode == "scale" else "unknown")
    return w, h, kinds


def check(nb, out, yaml_path):
    name = os.path.splitext(os.path.basename(yaml_path))[0]
    w, h, kinds = classify(yaml_path)
    counts = {k: kinds.count(k) for k in ("free", "occupied", "unknown", "between")}
    rng = random.Random(name)
    sample = []
    for k in ("free", "occupied", "unknown", "between"):
        idx = [i for i, c in enumerate(kinds) if c == k]
        sample += [(i, k) for i in rng.sample(idx, min(40, len(idx)))]
    scen = os.path.join(out, name + ".scen")
    with open(scen, "w") as s:
        s.write("version 1\n")
        for i, _ in sample:
            x, y = i % w, i // w
            s.write("0\t%s.yaml\t%d\t%d\t%d\t%d\t%d\t%d\t0\n" % (name, w, h, x, y, x, y))
    prefix = os.path.join(out, name)
    subprocess.run([nb, "run", "--map", yaml_path, "--scen", scen, "--rep", "grid8", "--no-optimum", "--quiet",
                    "--out", prefix], check=True)
    meta = json.load(open(prefix + ".meta.json"))
    got = next(v for k, v in meta["map_frames"].items() if k.endswith("/" + name))["cells"]
    bad = []
    if got != counts:
        bad.append("counts: navbench %s, map_server's rule %s" % (got, counts))
    for row in csv.DictReader(open(prefix + ".csv")):
        i, kind = sample[int(row["scen_index"])]
        blocked = kind in ("occupied", "unknown")
        if (row["status"] == "invalid_query") != blocked:
            bad.append("cell (%d, %d) reads %s, navbench says %s" % (i % w, i // w, kind, row["status"]))
    print("%s %s: %dx%d, %s, %d sampled cells" % ("ok  " if not bad else "FAIL", name, w, h, counts, len(sample)))
    for b in bad[:5]:
        print("     " + b)
    return not bad


def main():
    nb, out, maps = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out, exist_ok=True)
    ok = all([check(nb, out, m) for m in maps])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
