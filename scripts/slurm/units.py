#!/usr/bin/env python3
"""Which units of a sharded sweep are finished, and which array task owns each missing one.

    scripts/slurm/units.py status  OUTDIR [--n N]   # units done per array task
    scripts/slurm/units.py missing OUTDIR [--n N]   # the missing units, by task; exit 1 if any

OUTDIR is the folder given to scripts/slurm/submit: array task K writes OUTDIR/shard-K/ (a
`navbench sweep --shard K/N` folder). The unit list is rebuilt from the sweep.json that every shard
folder holds (the config as navbench resolved it), in navbench's order (maps x conventions x radii x
representations, then dynamic scenarios x conventions x representations), so unit i belongs to task
(i mod N) + 1, as in `navbench sweep --shard`. A unit is finished when its units/ID.csv exists.
N is --n, else OUTDIR/slurm.env's, else the shard folders' results.meta.json ("shard": "K/N").
Exit status of `missing`: 0 none missing, 1 some missing (listed on stdout), 2 error.

Only the standard library: it runs on a cluster node's system python3.
"""
import argparse
import glob
import json
import os
import shlex
import sys


def sanitize(s):
    return "".join(c if (c.isascii() and c.isalnum()) or c in "-.=" else "_" for c in s)


def value_text(v):
    # navbench writes a parameter value as the string itself, else as JSON (nlohmann's dump).
    return v if isinstance(v, str) else json.dumps(v, separators=(",", ":"))


def expand_reps(reps):
    out = []
    for r in reps:
        if isinstance(r, str):
            out.extend([r] if ":" in r else r.split(","))
            continue
        combos = [""]
        for key in sorted(r.get("params", {})):
            values = r["params"][key]
            values = values if isinstance(values, list) else [values]
            combos = [c + ("," if c else "") + key + "=" + value_text(v) for c in combos for v in values]
        out.extend(r["name"] + (":" + c if c else "") for c in combos)
    return out


def unit_ids(config):
    reps = expand_reps(config["representations"])
    conventions = config.get("conventions", ["center"])
    radii = config.get("radii") or [None]
    ids = []
    for m in config.get("maps", []):
        name = os.path.basename(m)
        for ext in (".map", ".wkt"):
            if len(name) > 4 and name.endswith(ext):
                name = name[:-4]
        col = os.path.basename(os.path.dirname(m))
        for conv in conventions:
            for r in radii:
                tag = "" if r is None else "__r" + ("%.12g" % r)
                ids.extend(sanitize(col + "__" + name + "__" + conv + "__" + rep + tag) for rep in reps)
    for d in config.get("dynamic", []):
        stem = os.path.splitext(os.path.basename(d))[0]
        for conv in conventions:
            ids.extend(sanitize("dynamic__" + stem + "__" + conv + "__" + rep) for rep in reps)
    return ids


def ranges(ks):
    """[1, 2, 3, 7] -> "1-3,7" (sbatch --array syntax)."""
    out, start = [], None
    for i, k in enumerate(ks):
        if start is None:
            start = k
        if i + 1 == len(ks) or ks[i + 1] != k + 1:
            out.append(str(start) if start == k else f"{start}-{k}")
            start = None
    return ",".join(out)


def finished(shard_dir):
    done = set()
    for f in glob.glob(os.path.join(shard_dir, "units", "*.csv")):
        base = os.path.basename(f)[:-4]
        if ".tmp" in base or ".part" in base or base.endswith((".build", ".paths", ".updates", ".unrun")):
            continue
        done.add(base)
    return done


def die(msg):
    print(f"units.py: {msg}", file=sys.stderr)
    sys.exit(2)


def load(outdir, n_arg):
    shards = sorted(d for d in glob.glob(os.path.join(outdir, "shard-*")) if os.path.isfile(os.path.join(d, "sweep.json")))
    if not shards:
        die(f"{outdir}: no shard folder yet (no {outdir}/shard-*/sweep.json): no array task has started")
    stamps = {}
    for d in shards:
        with open(os.path.join(d, "sweep.json")) as f:
            stamps[d] = json.load(f)
    first = stamps[shards[0]]
    for d in shards[1:]:
        if stamps[d].get("config_hash") != first.get("config_hash"):
            die(f"{d} holds another sweep config than {shards[0]}: one OUTDIR per config")
    ns = set()
    for d in shards:
        try:
            with open(os.path.join(d, "results.meta.json")) as f:
                ns.add(int(str(json.load(f).get("shard", "")).split("/")[1]))
        except (OSError, ValueError, IndexError):
            pass
    try:  # what the OUTDIR was started with (scripts/slurm/submit, sweep.sbatch)
        with open(os.path.join(outdir, "slurm.env")) as f:
            env_n = [int(line[2:]) for line in f if line.startswith("N=")]
    except (OSError, ValueError):
        env_n = []
    if n_arg:
        n = n_arg
    elif env_n:
        n = env_n[0]
    elif len(ns) == 1:
        n = ns.pop()
    else:
        die(f"the shard folders of {outdir} disagree on N ({sorted(ns)}) or do not say it: give --n N")
    done = set()
    for d in shards:
        done |= finished(d)
    return unit_ids(first["config"]), done, n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["status", "missing"])
    ap.add_argument("outdir")
    ap.add_argument("--n", type=int, default=0, help="the array's task count N (default: from the shard folders)")
    a = ap.parse_args()
    ids, done, n = load(a.outdir, a.n)
    per_task = {}
    for i, u in enumerate(ids):
        per_task.setdefault(i % n + 1, []).append(u)
    missing = {k: [u for u in us if u not in done] for k, us in per_task.items()}
    nmiss = sum(len(v) for v in missing.values())
    if a.what == "status":
        print(f"{len(ids) - nmiss} of {len(ids)} units done in {a.outdir} ({n} tasks)")
        for k in sorted(per_task):
            started = os.path.isfile(os.path.join(a.outdir, f"shard-{k}", "sweep.json"))
            state = "done" if not missing[k] else ("running or stopped" if started else "not started")
            print(f"  task {k:>4}: {len(per_task[k]) - len(missing[k]):>6} / {len(per_task[k]):<6} {state}")
        return 0
    if nmiss == 0:
        print(f"all {len(ids)} units are finished")
        return 0
    tasks = [k for k in sorted(missing) if missing[k]]
    print(f"{nmiss} of {len(ids)} units are missing, in {len(tasks)} of {n} array tasks:")
    for k in tasks:
        print(f"  task {k} ({len(missing[k])} of {len(per_task[k])} units missing):")
        for u in missing[k]:
            print(f"    {u}")
    config = "CONFIG"
    try:  # written by sweep.sbatch: the config the tasks were given
        with open(os.path.join(a.outdir, "slurm.env")) as f:
            for line in f:
                if line.startswith("CONFIG="):
                    config = line.rstrip("\n")[len("CONFIG="):]
    except OSError:
        pass
    print("resubmit those tasks (their finished units are skipped); a new merge runs after them:")
    submit = os.path.join(os.path.dirname(os.path.abspath(__file__)), "submit")
    print(f"  {shlex.quote(submit)} {shlex.quote(config)} {shlex.quote(a.outdir)} {n} --array={ranges(tasks)}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
