#!/usr/bin/env python3
"""End-to-end checks of `navbench serve`.

  test_viewer.py api     --navbench BIN --source DIR --out DIR   the JSON API: answers equal `navbench run`
                                                                 (also `--radius R`), bad requests get a 4xx
                                                                 with a message, concurrent clients, edits,
                                                                 builds per radius, the command line
  test_viewer.py browser --navbench BIN --source DIR --out DIR   headless Chromium: load the page, drag start
                                                                 and goal, the table equals `navbench run`,
                                                                 a structure layer, replay of a CSV row, edits,
                                                                 the radius slider; screenshots to
                                                                 OUT/viewer.png and OUT/viewer-radius.png
  test_viewer.py latency --navbench BIN --map FILE [--queries N]  round trip of one page query (a measurement)
  test_viewer.py shot    --navbench BIN --map FILE --out PNG [--start X Y --goal X Y] [--layers REP,...]
                         [--radius R] [--highlight REP] [--zoom X0 Y0 X1 Y1]   a picture for the docs (not a test)

The server runs on 127.0.0.1 with a free port (--port 0), only for the test's duration; every
wait is bounded. Exit 77 (ctest: skipped) when Chromium, chromedriver or selenium is missing.
"""
import argparse
import csv
import http.client
import io
import json
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

REPS = ["grid4", "grid8", "quadtree", "navmesh", "navmesh-vertices", "visgraph", "subgoal"]
FAILS = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        FAILS.append(what)
    return cond


class Server:
    """`navbench serve --port 0` on loopback; stopped with SIGTERM (then SIGKILL) at the end."""

    def __init__(self, navbench, maps, extra=(), env=None):
        self.proc = subprocess.Popen([navbench, "serve", "--map", *maps, "--port", "0", *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=dict(os.environ, **env) if env else None)
        line = []
        reader = threading.Thread(target=lambda: line.append(self.proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(60)
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line[0] if line else "")
        if not m:
            self.stop()
            raise RuntimeError(f"navbench serve did not start: {line!r} {self.proc.stderr.read()[:500]!r}")
        self.port = int(m.group(1))
        self.url = f"http://127.0.0.1:{self.port}/"

    def request(self, method, path, body=None, headers=None, timeout=60):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
            c.request(method, path, body=data, headers=headers or {"Content-Type": "application/json"})
            r = c.getresponse()
            return r.status, r.getheader("Content-Type") or "", r.read(), dict(r.getheaders())
        finally:
            c.close()

    def query(self, body):
        status, _, data, _ = self.request("POST", "/api/query", body)
        return status, json.loads(data)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
            if self.proc.returncode != 0:  # e.g. a sanitizer report: show it
                print(self.proc.stderr.read()[-4000:], file=sys.stderr)
        return self.proc.returncode


def read_grid(path):
    with open(path) as f:
        lines = f.read().splitlines()
    h = int(lines[1].split()[1])
    w = int(lines[2].split()[1])
    return w, h, lines[4:4 + h]


def navbench_run(navbench, tmp, map_path, cells, convention, reps, smoothing, heuristic, name, radius=None, paths=False, more=()):
    """`navbench run` on one query (a one-line scenario); returns its rows keyed by (rep, smoothing, heuristic).
    `radius`: with --radius R; `paths`: with --paths (PREFIX.paths.csv next to the CSV returned);
    `more`: further options (--terrain T, --costs FILE)."""
    w, h, _ = read_grid(map_path)
    scen = os.path.join(tmp, name + ".scen")
    with open(scen, "w") as f:
        f.write("version 1\n0\t%s\t%d\t%d\t%r\t%r\t%r\t%r\t0\n" % ((os.path.basename(map_path), w, h) + tuple(cells)))
    out = os.path.join(tmp, name)
    extra = (["--radius", repr(radius)] if radius is not None else []) + (["--paths"] if paths else []) + list(more)
    # Names go as one list; a spec with parameters ("navmesh:erode=none") as a --rep of its own.
    rep_args = ["--rep", ",".join(r for r in reps if ":" not in r)] + [x for r in reps if ":" in r for x in ("--rep", r)]
    subprocess.run([navbench, "run", "--map", map_path, "--scen", scen, *rep_args, "--smoothing", smoothing,
                    "--heuristic", heuristic, "--convention", convention, "--quiet", "--out", out, *extra],
                   check=True, timeout=120)
    with open(out + ".csv") as f:
        rows = list(csv.DictReader(f))
    return {(r["representation"], r["smoothing"], r["heuristic"]): r for r in rows}, out + ".csv"


# Columns that must be equal between the viewer's row and `navbench run`'s: all but the times and
# octile_optimal (the one-line scenario has no optimum, which `run` records as 0).
SKIP = {"locate_us", "search_us", "smooth_us", "first_move_us", "first20_us", "max_step_us", "octile_optimal"}


def path_length(path, arcs=()):
    """A viewer path's length: its segments, and each arc [k, cx, cy] (path[k] to path[k + 1] round the
    centre, the shorter way) as radius times angle (docs/radius.md)."""
    arc = {int(k): (cx, cy) for k, cx, cy in arcs}
    total = 0.0
    for k, (p, q) in enumerate(zip(path, path[1:])):
        if k in arc:
            c = arc[k]
            turn = abs(math.atan2(p[1] - c[1], p[0] - c[0]) - math.atan2(q[1] - c[1], q[0] - c[0]))
            total += (math.dist(p, c) + math.dist(q, c)) / 2 * min(turn, 2 * math.pi - turn)
        else:
            total += math.dist(p, q)
    return total


def path_items(path, arcs=()):
    """A viewer path as the items of paths.csv (docs/radius.md): points, and ("@", cx, cy) between an arc's ends."""
    arc = {int(k): (cx, cy) for k, cx, cy in arcs}
    items = []
    for k, p in enumerate(path):
        items.append(tuple(p))
        if k in arc:
            items.append(("@",) + tuple(arc[k]))
    return items


def csv_items(points):
    """The `points` of a paths.csv row as items ("1 1;@5 2;6 2")."""
    items = []
    for it in points.split(";"):
        if it.startswith("@"):
            x, y = it[1:].split()
            items.append(("@", float(x), float(y)))
        else:
            x, y = it.split()
            items.append((float(x), float(y)))
    return items


def same_items(a, b):
    """Two item lists agree: the same points and arc centres, numbers within 1e-9 relative."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if len(x) != len(y) or (x[0] == "@") != (y[0] == "@"):
            return False
        if any(abs(u - v) > 1e-9 * max(1.0, abs(u)) for u, v in zip(x, y) if not isinstance(u, str)):
            return False
    return True


def row_differences(res, ref, header, start, searched_no_path=()):
    """Where the rows of a /api/query answer differ from `navbench run`'s (SKIP apart), and paths
    that do not match their length or start. `searched_no_path`: representations whose no_path
    rows may have searched (expansions, generated) where a fresh build answers at once."""
    bad = []
    for r in res["results"]:
        got = next(csv.DictReader(io.StringIO(",".join(header) + "\n" + r["row"] + "\n")))
        want = ref[(r["representation"], r["smoothing"], r["heuristic"])]
        skip = SKIP | ({"expansions", "generated"} if r["representation"] in searched_no_path and r["status"] == "no_path" else set())
        diff = [c for c in header if c not in skip and got[c] != want[c]]
        if diff:
            bad.append(f"{r['representation']}/{r['smoothing']}: " + ", ".join(f"{c} {got[c]!r} != {want[c]!r}" for c in diff))
        if r["status"] == "ok":
            length = path_length(r["path"], r.get("arcs", []))
            if abs(length - r["length"]) > 1e-9 * max(1.0, length) or r["path"][0] != list(start):
                bad.append(f"{r['representation']}/{r['smoothing']}: path does not match its length or start")
    return bad


def write_grid(path, w, h, rows):
    """A Moving AI .map file of `rows` ('.' free, '@' blocked)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(f"type octile\nheight {h}\nwidth {w}\nmap\n" + "\n".join(rows) + "\n")


def test_api(a):
    src = a.source
    rooms = os.path.join(src, "datasets/maps/generated/rooms-16-128.map")
    corridor = os.path.join(src, "datasets/maps/hand/l-corridor.map")
    poly = os.path.join(src, "datasets/maps/hand/polygons.wkt")
    nb = a.navbench
    os.makedirs(a.out, exist_ok=True)

    # The command line: --help, bad options, missing maps.
    r = subprocess.run([nb, "serve", "--help"], capture_output=True, text=True, timeout=30)
    check(r.returncode == 0 and "--port" in r.stdout and "--map" in r.stdout, "serve --help: exit 0, lists --map and --port")
    # A busy port is an error, not a second server sharing it.
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        r = subprocess.run([nb, "serve", "--map", corridor, "--port", str(busy.getsockname()[1])], capture_output=True, text=True, timeout=30)
        check(r.returncode == 1 and "cannot listen" in r.stderr, f"serve on a busy port: exit 1 ({r.returncode}: {r.stderr.strip()[:100]})")
    for args, pat in [(["--port", "abc"], "port"), (["--port", "70000"], "port"), (["--bogus"], "bogus"),
                      (["--map", "/nonexistent/x.map"], "nonexistent"), (["stray"], "stray")]:
        r = subprocess.run([nb, "serve", *args], capture_output=True, text=True, timeout=30)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and pat in lines[0],
              f"serve {' '.join(args)}: exit 2 with one line ({r.returncode}: {r.stderr.strip()[:120]})")

    srv = Server(nb, [rooms, corridor, poly])
    try:
        st, _, data, _ = srv.request("GET", "/api/info")
        info = json.loads(data)
        names = [m["name"] for m in info["maps"]]
        check(st == 200 and names == ["rooms-16-128", "l-corridor", "polygons"], f"/api/info lists the maps given: {names}")
        listed = [l.split()[1] for l in subprocess.run([nb, "list"], capture_output=True, text=True, timeout=30).stdout.splitlines()
                  if l.startswith("representation ")]
        check(sorted(x["name"] for x in info["representations"]) == sorted(listed), "/api/info lists the registry (navbench list)")
        st, ctype, data, _ = srv.request("GET", "/")
        check(st == 200 and "text/html" in ctype and b"navbench" in data and b"/app.js" in data, "GET / serves the page")
        st, ctype, data, _ = srv.request("GET", "/app.js")
        check(st == 200 and "javascript" in ctype and len(data) > 1000, "GET /app.js")
        rooms_id = names.index("rooms-16-128")

        # One query through the API equals `navbench run` on the same points (corner convention:
        # the scenario's numbers are the points), for every representation, smoothing and two heuristics.
        w, h, rows = read_grid(rooms)
        free = [(x, y) for y in range(h) for x in range(w) if rows[y][x] == "."]
        pairs = [(free[7], free[-9]), (free[len(free) // 3], free[2 * len(free) // 3])]
        for k, ((sx, sy), (gx, gy)) in enumerate(pairs):
            # Grid scenarios hold whole cells (a fractional one is refused): the start is a cell's
            # top-left corner, the goal's too (both on cell boundaries).
            pts = (sx, sy, gx, gy)
            for heur in ["euclidean", "octile*1.5"]:
                ref, _ = navbench_run(nb, a.out, rooms, pts, "corner", REPS, "none,los,funnel", heur, f"api-{k}-{heur}")
                st, res = srv.query({"map": rooms_id, "reps": REPS, "start": list(pts[:2]), "goal": list(pts[2:]),
                                     "smoothing": ["none", "los", "funnel"], "heuristic": heur})
                if not check(st == 200, f"query {k} {heur}: 200 ({res.get('error', '')})"):
                    continue
                check(len(res["results"]) == len(REPS) * 3, f"query {k} {heur}: one result per representation and smoothing")
                header = open(os.path.join(a.out, f"api-{k}-{heur}.csv")).readline().strip().split(",")
                bad = row_differences(res, ref, header, pts[:2])
                check(not bad, f"query {k} {heur}: every row equals `navbench run --convention corner`" + ("; " + "; ".join(bad[:3]) if bad else ""))
                check(res["optimal"] is not None and res["optimal"] > 0, f"query {k} {heur}: exact optimum {res['optimal']}")

        # A point inside an obstacle is a query like any other: status invalid_query, as in `run`.
        bx, by = next((x, y) for y in range(h) for x in range(w) if rows[y][x] != ".")
        st, res = srv.query({"map": rooms_id, "reps": ["grid8", "visgraph"], "start": [bx + 0.5, by + 0.5], "goal": [free[0][0] + 0.5, free[0][1] + 0.5]})
        check(st == 200 and all(r["status"] == "invalid_query" for r in res["results"]), "start in an obstacle: 200, status invalid_query")
        # grid8 on a polygon map: not_applicable, the others answer.
        poly_id = names.index("polygons")
        st, res = srv.query({"map": poly_id, "reps": ["grid8", "visgraph"], "start": [1.0, 1.0], "goal": [2.0, 2.0]})
        check(st == 200 and res["results"][0]["status"] == "not_applicable" and res["results"][1]["status"] in ("ok", "invalid_query", "no_path"),
              f"grid8 on a polygon map: not_applicable ({[r['status'] for r in res.get('results', [])]})")

        # Bad requests: a clear 4xx with a one-line message, never a crash.
        good = {"map": rooms_id, "reps": ["grid8"], "start": [free[0][0] + 0.5, free[0][1] + 0.5], "goal": [free[-1][0] + 0.5, free[-1][1] + 0.5]}
        bad_cases = [
            ("malformed JSON", b'{"map": 0, "reps": [', 400, "malformed JSON"),
            ("not an object", [1, 2], 400, "JSON object"),
            ("deeply nested", b"[" * 30000 + b"]" * 30000, 400, "JSON object"),
            ("start outside the map", dict(good, start=[-3, 5]), 400, "outside the map"),
            ("goal far outside", dict(good, goal=[1e308, 5]), 400, "outside the map"),
            ("start not a point", dict(good, start="here"), 400, "[x, y]"),
            ("missing goal", {k: v for k, v in good.items() if k != "goal"}, 400, "goal"),
            ("unknown representation", dict(good, reps=["grid9"]), 400, "unknown representation 'grid9'"),
            ("unknown parameter", dict(good, reps=["quadtree:colour=3"]), 400, "colour"),
            ("reps not a list", dict(good, reps="grid8"), 400, "reps"),
            ("too many representations", dict(good, reps=["grid8"] * 17), 400, "at most"),
            ("unknown smoothing", dict(good, smoothing="spline"), 400, "unknown smoothing"),
            ("unknown search", dict(good, search="dijkstra"), 400, "unknown search 'dijkstra'"),
            ("search not a name", dict(good, search=["theta"]), 400, "'search' must be"),
            ("bad heuristic", dict(good, heuristic="euclidean*-1"), 400, "euclidean"),
            ("unknown map", dict(good, map=99), 404, "unknown map"),
            ("unknown field", dict(good, colour=1), 400, "unknown field 'colour'"),
        ]
        for name, body, want, pat in bad_cases:
            st, ctype, data, _ = srv.request("POST", "/api/query", body)
            try:
                msg = json.loads(data)["error"]
            except Exception:
                msg = None
            check(st == want and msg is not None and pat in msg and "\n" not in msg, f"{name}: {st} {msg!r}")
        # Theta* (docs/path-quality.md): grid8 answers with its segment tests counted and the path's
        # clearance and turning; visgraph (edges that are not segments) is not_applicable.
        st, res = srv.query(dict(good, reps=["grid8", "visgraph"], search="theta", smoothing="none"))
        by = {r["representation"]: r for r in res["results"]} if st == 200 else {}
        g8, vg = by.get("grid8", {}), by.get("visgraph", {})
        check(g8.get("search") == "theta" and g8.get("status") == "ok" and g8.get("los_checks", 0) > 0
              and g8.get("clearance") is not None and g8.get("turn") is not None,
              f"search=theta: grid8 answers with los_checks, clearance and turn ({g8.get('status')}, {g8.get('los_checks')})")
        check(vg.get("status") == "not_applicable" and "not segments" in vg.get("message", ""),
              f"search=theta: visgraph is not_applicable ({vg.get('status')})")
        for path, want, pat in [("/api/structure?map=0&rep=grid9", 400, "unknown representation"),
                                ("/api/structure?map=x&rep=grid8", 404, "unknown map"),
                                (f"/api/structure?map={poly_id}&rep=grid8", 422, "does not support"),
                                ("/api/map?map=7", 404, "unknown map"), ("/nope", 404, "/nope")]:
            st, _, data, _ = srv.request("GET", path)
            msg = json.loads(data).get("error", "") if data.startswith(b"{") else ""
            check(st == want and pat in msg, f"GET {path}: {st} {msg!r}")
        # Another Host (DNS rebinding: a web page elsewhere resolving its name to 127.0.0.1): 403.
        st, _, data, _ = srv.request("GET", "/api/info", headers={"Host": f"evil.example:{srv.port}"})
        check(st == 403 and b"not this machine" in data, f"a request for another Host: {st}")
        st, _, data, _ = srv.request("GET", "/api/info", headers={"Host": f"localhost:{srv.port}"})
        check(st == 200, f"Host localhost: {st}")
        # An oversized body is refused before it is read: 413 with a message.
        with socket.create_connection(("127.0.0.1", srv.port), timeout=20) as s:
            s.sendall(b"POST /api/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 10000000\r\n\r\n" + b"[" * 4096)
            answer = b""
            try:
                while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    answer += chunk
            except OSError:
                pass
        check(answer.startswith(b"HTTP/1.1 413") and b'"error"' in answer, f"oversized body: 413 {answer[answer.find(b'{'):][:80]!r}")

        # The structure: the segments `navbench structure` writes.
        st, ctype, data, hdr = srv.request("GET", f"/api/structure?map={rooms_id}&rep=navmesh")
        ref_csv = os.path.join(a.out, "structure.csv")
        subprocess.run([nb, "structure", "--map", rooms, "--rep", "navmesh", "--out", ref_csv], check=True, timeout=120)
        n_ref = sum(1 for _ in open(ref_csv)) - 1
        check(st == 200 and len(data) == 16 * n_ref and hdr.get("X-Segments") == str(n_ref),
              f"/api/structure: {len(data) // 16} segments, `navbench structure` {n_ref}")

        # Several clients at once (tabs): every answer equals the sequential one.
        bodies = [{"map": rooms_id, "reps": REPS, "start": [free[i][0] + 0.5, free[i][1] + 0.5],
                   "goal": [free[-1 - i][0] + 0.5, free[-1 - i][1] + 0.5], "smoothing": "los"} for i in range(0, 400, 50)]
        expect = [[(r["representation"], r["status"], r.get("length"), r.get("expansions")) for r in srv.query(b)[1]["results"]] for b in bodies]
        got = [None] * (3 * len(bodies))

        def worker(j):
            try:
                st, res = srv.query(bodies[j % len(bodies)])
                got[j] = (st, [(r["representation"], r["status"], r.get("length"), r.get("expansions")) for r in res.get("results", [])], res.get("error"))
            except Exception as e:  # reported, not lost in the thread
                got[j] = ("exception", repr(e))

        threads = [threading.Thread(target=worker, args=(j,)) for j in range(len(got))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        wrong = [(j, g if g is None or g[0] != 200 else [(x, y) for x, y in zip(g[1], expect[j % len(bodies)]) if x != y])
                 for j, g in enumerate(got) if g is None or g[0] != 200 or g[1] != expect[j % len(bodies)]]
        check(not wrong, f"{len(got)} concurrent queries from {len(got)} clients equal the sequential answers {wrong[:3]}")
        st, _, _, _ = srv.request("GET", "/api/info")
        check(st == 200 and srv.proc.poll() is None, "the server is still up after every bad request")

        test_edit(a, srv, rooms, rooms_id, poly_id)
        check(srv.proc.poll() is None, "the server is still up after the edits")
    finally:
        rc = srv.stop()
    check(rc == 0, f"SIGTERM stops the server cleanly (exit {rc})")

    # --cache-maps 1: switching maps drops the other map's builds; answers stay the same.
    srv = Server(nb, [rooms, corridor], extra=["--cache-maps", "1"])
    try:
        bodies = [{"map": 0, "reps": REPS, "start": [free[5][0] + 0.5, free[5][1] + 0.5], "goal": [free[-5][0] + 0.5, free[-5][1] + 0.5]},
                  {"map": 1, "reps": REPS, "start": [0.5, 0.5], "goal": [7.5, 7.5]}]
        first = [srv.query(b)[1]["results"] for b in bodies]
        again = [srv.query(bodies[j % 2])[1]["results"] for j in range(4)]
        same = all([(r["status"], r.get("length")) for r in again[j]] == [(r["status"], r.get("length")) for r in first[j % 2]] for j in range(4))
        # a cached build reports its one build time again; a rebuilt one its own
        rebuilt = all(first[0][k]["build_ms"] != again[2][k]["build_ms"] for k in range(len(REPS)))
        check(same and rebuilt and all(r["status"] == "ok" for r in first[1]), f"--cache-maps 1: alternating maps rebuilds (rebuilt: {rebuilt}) and answers the same")
    finally:
        srv.stop()

    test_radius(a, rooms)
    test_terrain(a, poly)


# A small map with terrain characters (docs/terrain.md): a swamp band S across the middle, a pond W
# (blocked unless a table names it), a short wall; start on the left, goal on the right.
SWAMP_MAP = ["".join("@" if x == 5 and 3 <= y <= 12 else "S" if 8 <= x <= 11 and 2 <= y <= 13 else
                     "W" if 15 <= x <= 17 and 5 <= y <= 9 else "." for x in range(24)) for y in range(16)]
TERRAIN_REPS = ["grid4", "grid8", "quadtree", "navmesh", "navmesh-vertices", "visgraph"]  # those with the capability weights


def test_terrain(a, poly):
    """Terrain costs (docs/viewer.md#terrain-costs): a terrain table and a cost layer loaded, bad ones
    refused with one line, the brush (grid4/grid8 in place, the others rebuilt, blocked cells
    skipped), and every answer's rows equal to `navbench run --terrain T` / `--costs FILE`."""
    nb = a.navbench
    swamp = os.path.join(a.out, "terrain", "hand", "swamp.map")
    write_grid(swamp, 24, 16, SWAMP_MAP)
    reps = TERRAIN_REPS + ["subgoal"]
    srv = Server(nb, [swamp, poly])
    try:
        # Points off the cells' centres: a weighted map answers for the centres of their cells.
        pairs = [((1, 1), (22, 14)), ((2, 13), (20, 3))]
        qs = [{"map": 0, "reps": reps, "start": [s[0] + 0.3, s[1] + 0.8], "goal": [g[0] + 0.6, g[1] + 0.1],
               "smoothing": ["none", "los", "funnel"]} for s, g in pairs]

        def same_as_run(res, cells, name, more, skip=(), map_path=swamp):
            """Rows of the representations that take weights equal `navbench run ... --convention center`
            (where subgoal, which takes no weights, answers not_applicable too: it is left out here)."""
            ref, ref_csv = navbench_run(nb, a.out, map_path, cells, "center", TERRAIN_REPS, "none,los,funnel", "euclidean", name, more=more)
            header = open(ref_csv).readline().strip().split(",")
            res = dict(res, results=[r for r in res["results"] if r["representation"] in TERRAIN_REPS])
            global SKIP
            saved, SKIP = SKIP, SKIP | set(skip)
            try:
                return row_differences(res, ref, header, res["start"])
            finally:
                SKIP = saved

        plain = [srv.query(q) for q in qs]
        check(all(st == 200 and res["terrain"] is None and all(r["cost"] is None for r in res["results"]) for st, res in plain),
              "an unweighted map: no terrain, no costs")
        st, _, data, _ = srv.request("GET", "/api/map?map=0")
        m = json.loads(data)
        check(m["weights"] is None and m["terrain"] is None, "GET /api/map of an unweighted map: weights null")

        # A terrain table: the map `navbench run --terrain S=2,W=5` reads (W becomes passable at 5).
        st, _, data, _ = srv.request("POST", "/api/terrain", {"map": 0, "terrain": "S=2,W=5"})
        res = json.loads(data)
        how = {u["representation"]: u["in_place"] for u in res.get("updates", [])}
        check(st == 200 and res["weighted"] and res["terrain"] == "S=2,W=5" and res["changed"] == 15 and res["version"] == 1,
              f"POST /api/terrain S=2,W=5: 200, weighted, the 15 water cells freed, version 1 ({st} {str(res)[:160]})")
        check(how.get("grid4") is True and how.get("grid8") is True and all(how.get(r) is False for r in ["quadtree", "navmesh", "navmesh-vertices", "visgraph"]),
              f"loading weights: grid4/grid8 updated in place, the others that take weights rebuilt: {how}")
        st, _, data, _ = srv.request("GET", "/api/map?map=0")
        m = json.loads(data)
        wgt = {(x, y): m["weights"][y * 24 + x] for y in range(16) for x in range(24)}
        check(m["terrain"] == "S=2,W=5" and wgt[(9, 5)] == 2 and wgt[(16, 7)] == 5 and wgt[(0, 0)] == 1 and m["rows"][7][16] == ".",
              "GET /api/map: the weights (S 2, W 5, . 1) and the water passable")
        for k, (q, (s, g)) in enumerate(zip(qs, pairs)):
            st, res = srv.query(q)
            if not check(st == 200 and res["terrain"] == "S=2,W=5" and res["start"] == [s[0] + 0.5, s[1] + 0.5],
                         f"weighted query {k}: 200, the points at their cells' centres ({res.get('start')})"):
                continue
            bad = same_as_run(res, (*s, *g), f"terrain-{k}", ["--terrain", "S=2,W=5"])
            check(not bad, f"weighted query {k}: every row equals `navbench run --terrain S=2,W=5 --convention center`" + ("; " + "; ".join(bad[:3]) if bad else ""))
            by = {(r["representation"], r["smoothing"]): r for r in res["results"]}
            g8 = by[("grid8", "none")]
            check(g8["status"] == "ok" and g8["cost"] >= g8["length"] - 1e-9 and abs(g8["cost"] - res["octile_optimal_cost"]) < 1e-9 and g8["raw_cost"] == g8["cost"],
                  f"weighted query {k}: grid8's cost {g8['cost']} is the octile reference {res['octile_optimal_cost']}, not below its length {g8['length']}")
            na = by[("subgoal", "los")]
            check(na["status"] == "not_applicable" and "terrain costs" in na["message"], f"weighted query {k}: subgoal not_applicable ({na['status']})")
            check(res["optimal_cost"] is not None and res["optimal_cost"] <= res["octile_optimal_cost"] + 1e-9
                  and all(r["cost_gap"] is not None and r["cost_gap"] >= -1e-3 for r in res["results"] if r["status"] == "ok"),
                  f"weighted query {k}: the reference optimum {res['optimal_cost']} <= the octile reference, every cost_gap >= -0.1 %")
        # Theta* on the weighted map (shortcuts priced by the path-cost integral) as `navbench run --search theta`.
        st, res = srv.query(dict(qs[1], search="theta"))
        bad = same_as_run(res, (*pairs[1][0], *pairs[1][1]), "terrain-theta", ["--terrain", "S=2,W=5", "--search", "theta"]) if st == 200 else [res.get("error")]
        check(not bad and any(r["search"] == "theta" and r["status"] == "ok" for r in res["results"]),
              "weighted query with search=theta: every row equals `navbench run --terrain S=2,W=5 --search theta`" + ("; " + "; ".join(bad[:3]) if bad else ""))
        st, _, data, _ = srv.request("POST", "/api/query", dict(qs[0], radius=0.5))
        msg = json.loads(data).get("error", "")
        check(st == 400 and "weighted map" in msg and "\n" not in msg, f"radius 0.5 on a weighted map: {st} {msg!r}")
        st, _, data, _ = srv.request("GET", "/api/structure?map=0&rep=grid8&radius=0.5")
        msg = json.loads(data).get("error", "")
        check(st == 400 and "weighted map" in msg, f"GET /api/structure at radius 0.5 on a weighted map: {st} {msg!r}")
        st, _, data, hdr = srv.request("GET", "/api/structure?map=0&rep=quadtree")
        quad_before = data
        check(st == 200 and int(hdr.get("X-Map-Version")) == 1, f"GET /api/structure on the weighted map: {st}, version {hdr.get('X-Map-Version')}")

        # Bad weights: 400 with one line, and the map stays as it was.
        layer_ok = "type costs\nheight 16\nwidth 24\ncosts\n" + "".join(" ".join(["1"] * 24) + "\n" for _ in range(16))
        bad_cases = [
            ("/api/terrain", "weight below 1", {"map": 0, "terrain": "S=0.5"}, 400, "must be a number >= 1"),
            ("/api/terrain", "an obstacle named", {"map": 0, "terrain": "@=2"}, 400, "cannot name '@'"),
            ("/api/terrain", "a character twice", {"map": 0, "terrain": "S=2,S=3"}, 400, "twice"),
            ("/api/terrain", "not CHAR=W", {"map": 0, "terrain": "swamp=2"}, 400, "not CHAR=WEIGHT"),
            ("/api/terrain", "an empty table", {"map": 0, "terrain": ""}, 400, "--terrain"),
            ("/api/terrain", "two lines", {"map": 0, "terrain": "S=2\nW=3"}, 400, "one line"),
            ("/api/terrain", "table and layer", {"map": 0, "terrain": "S=2", "costs": layer_ok}, 400, "either"),
            ("/api/terrain", "neither", {"map": 0}, 400, "either"),
            ("/api/terrain", "a short row", {"map": 0, "costs": layer_ok.replace("1 1\n", "1\n", 1), "name": "x.costs"}, 400, "x.costs:5: row 0 has 23 numbers"),
            ("/api/terrain", "a cost below 1", {"map": 0, "costs": layer_ok.replace("1 ", "0.5 ", 1), "name": "x.costs"}, 400, "x.costs:5: cost '0.5'"),
            ("/api/terrain", "another size", {"map": 0, "costs": layer_ok.replace("width 24", "width 23")}, 400, "the map 24x16"),
            ("/api/terrain", "a name with a slash", {"map": 0, "costs": layer_ok, "name": "../x.costs"}, 400, "'name'"),
            ("/api/terrain", "a polygon map", {"map": 1, "terrain": "S=2"}, 400, "polygon map"),
            ("/api/terrain", "unknown field", {"map": 0, "terrain": "S=2", "weight": 2}, 400, "unknown field 'weight'"),
            ("/api/paint", "weight below 1", {"map": 0, "cells": [[1, 1]], "weight": 0.5}, 400, "'weight' must be a number >= 1"),
            ("/api/paint", "weight not a number", {"map": 0, "cells": [[1, 1]], "weight": "2"}, 400, "'weight'"),
            ("/api/paint", "missing weight", {"map": 0, "cells": [[1, 1]]}, 400, "'weight'"),
            ("/api/paint", "a cell outside", {"map": 0, "cells": [[1, 1], [24, 0]], "weight": 3}, 400, "outside the map"),
            ("/api/paint", "a cell not [x, y]", {"map": 0, "cells": [[1.5, 1]], "weight": 3}, 400, "[x, y]"),
            ("/api/paint", "too many cells", {"map": 0, "cells": [[1, 1]] * 4097, "weight": 3}, 413, "at most 4096"),
            ("/api/paint", "a polygon map", {"map": 1, "cells": [[1, 1]], "weight": 3}, 400, "polygon map"),
        ]
        before = srv.request("GET", "/api/map?map=0")[2]
        for path, name, body, want, pat in bad_cases:
            st, _, data, _ = srv.request("POST", path, body)
            try:
                msg = json.loads(data)["error"]
            except Exception:
                msg = None
            check(st == want and msg is not None and pat in msg and "\n" not in msg, f"{path} {name}: {st} {msg!r}")
        check(srv.request("GET", "/api/map?map=0")[2] == before, "after the bad requests the map and its weights are unchanged")

        # The brush: a band of weight 4 across the first query's grid8 path (and one blocked cell: skipped).
        st, res0 = srv.query(qs[0])
        path = next(r["path"] for r in res0["results"] if r["representation"] == "grid8" and r["smoothing"] == "none")
        px = int(path[len(path) // 2][0])
        band = [(x, y) for y in range(16) for x in (px, px + 1)] + [(5, 6)]
        blocked_in_band = sum(SWAMP_MAP[y][x] == "@" for x, y in band)
        st, _, data, _ = srv.request("POST", "/api/paint", {"map": 0, "cells": [list(c) for c in band], "weight": 4})
        res = json.loads(data)
        how = {u["representation"]: u["in_place"] for u in res.get("updates", [])}
        check(st == 200 and res["skipped"] == blocked_in_band and res["changed"] == 0 and res["weights_changed"] > 0 and res["terrain"] == "S=2,W=5 + brush",
              f"POST /api/paint: 200, {blocked_in_band} blocked cells skipped, no cell blocked or freed ({str(res)[:200]})")
        check(how.get("grid4") is True and how.get("grid8") is True and all(how.get(r) is False for r in ["quadtree", "navmesh", "navmesh-vertices", "visgraph"])
              and "subgoal" not in how,
              f"painting: grid4/grid8 in place, the others with weights rebuilt, those without untouched: {how}")
        st, _, data, hdr = srv.request("GET", "/api/structure?map=0&rep=quadtree")
        check(st == 200 and int(hdr.get("X-Map-Version")) == res["version"] and data != quad_before,
              "after painting, quadtree's structure is that of the rebuilt quadtree (its cells follow the band)")
        st, _, layer, hdr = srv.request("GET", "/api/costs?map=0")
        layer = layer.decode()
        lines = layer.splitlines()
        check(st == 200 and lines[:4] == ["type costs", "height 16", "width 24", "costs"] and lines[4 + 6].split()[5] == "inf"
              and all(lines[4 + y].split()[x] == "4" for x, y in band if SWAMP_MAP[y][x] != "@"),
              "GET /api/costs: the weights as a cost layer (painted cells 4, blocked inf)")
        saved = os.path.join(a.out, "terrain", "brush.costs")
        with open(saved, "w") as f:
            f.write(layer)
        # The saved weighted map: its cells (the water passable, as the table made it) and the layer.
        cells_now = os.path.join(a.out, "terrain-saved", "hand", "swamp.map")
        write_grid(cells_now, 24, 16, json.loads(srv.request("GET", "/api/map?map=0")[2])["rows"])
        for k, (q, (s, g)) in enumerate(zip(qs, pairs)):
            st, res = srv.query(q)
            bad = same_as_run(res, (*s, *g), f"brush-{k}", ["--costs", saved], skip={"terrain"}, map_path=cells_now) if st == 200 else [res.get("error")]
            check(not bad, f"painted map, query {k}: every row equals `navbench run --costs` on the saved layer (but `terrain`)" + ("; " + "; ".join(bad[:3]) if bad else ""))
            if k == 0:
                was = next(r for r in res0["results"] if r["representation"] == "grid8" and r["smoothing"] == "none")
                now = next(r for r in res["results"] if r["representation"] == "grid8" and r["smoothing"] == "none")
                check(now["cost"] > was["cost"], f"the band of weight 4 made grid8's path dearer ({was['cost']} -> {now['cost']})")
        # The same layer loaded as a file: on the file's cells, as `navbench run --costs` reads it (the
        # water blocked again); its name is the column `terrain`, every row equal.
        st, _, data, _ = srv.request("POST", "/api/terrain", {"map": 0, "costs": layer, "name": "brush.costs"})
        res = json.loads(data)
        check(st == 200 and res["terrain"] == "brush.costs" and res["changed"] == 15, f"POST /api/terrain with a cost layer: {st} {str(res)[:120]}")
        for k, (q, (s, g)) in enumerate(zip(qs, pairs)):
            st, res = srv.query(q)
            bad = same_as_run(res, (*s, *g), f"layer-{k}", ["--costs", saved]) if st == 200 else [res.get("error")]
            check(not bad, f"cost layer, query {k}: every row equals `navbench run --costs brush.costs`" + ("; " + "; ".join(bad[:3]) if bad else ""))

        # The same weights under another name: a new version and `terrain`, nothing rebuilt.
        st, _, data, _ = srv.request("POST", "/api/terrain", {"map": 0, "costs": layer, "name": "again.costs"})
        res = json.loads(data)
        check(st == 200 and res["terrain"] == "again.costs" and res["changed"] == 0 and res["weights_changed"] == 0 and res["updates"] == [],
              f"the same layer under another name: only `terrain` changes, no build updated ({str(res)[:140]})")
        st, res = srv.query(qs[0])
        check(st == 200 and res["terrain"] == "again.costs" and all(r["terrain"] == "again.costs" for r in res["results"] if r["status"] != "not_applicable"),
              "the rows name the new layer")

        # Reset: unweighted again, the first answers. Then the brush on the unweighted map: it becomes
        # weighted under the cached grid4/grid8 builds, which follow it in place.
        st, _, data, _ = srv.request("POST", "/api/reset", {"map": 0})
        res = json.loads(data)
        again = [srv.query(q)[1] for q in qs]
        check(st == 200 and not res["weighted"] and all(answer_key(x) == answer_key(y[1]) and x["terrain"] is None for x, y in zip(again, plain)),
              "after reset: unweighted, the answers of the file's map")
        st, _, data, _ = srv.request("POST", "/api/paint", {"map": 0, "cells": [[x, y] for x in range(3, 20) for y in (7, 8)], "weight": 3})
        res = json.loads(data)
        how = {u["representation"]: u["in_place"] for u in res.get("updates", [])}
        check(st == 200 and res["weighted"] and res["terrain"] == "brush" and how.get("grid8") is True and how.get("grid4") is True,
              f"painting an unweighted map: weighted (terrain 'brush'), grid4/grid8 in place ({str(res)[:160]})")
        with open(saved, "w") as f:
            f.write(srv.request("GET", "/api/costs?map=0")[2].decode())
        for k, (q, (s, g)) in enumerate(zip(qs, pairs)):
            st, res = srv.query(q)
            bad = same_as_run(res, (*s, *g), f"first-{k}", ["--costs", saved], skip={"terrain"}) if st == 200 else [res.get("error")]
            check(not bad, f"map first weighted by the brush, query {k}: every row equals `navbench run --costs`" + ("; " + "; ".join(bad[:3]) if bad else ""))
        # Queries while another client paints: each answer is that of one whole map state, the one
        # its version names (the brush holds the map exclusively, as an edit does).
        few = {"map": 0, "reps": ["grid8", "quadtree", "navmesh"], "start": qs[0]["start"], "goal": qs[0]["goal"], "smoothing": "los"}
        band = [[x, y] for x in (12, 13) for y in range(16)]
        expect, state_of = {}, {}
        for heavy in (False, True):
            st, _, data, _ = srv.request("POST", "/api/paint", {"map": 0, "cells": band, "weight": 9 if heavy else 1})
            state_of[json.loads(data)["version"]] = heavy
            expect[heavy] = answer_key(srv.query(few)[1]) + [r["cost"] for r in srv.query(few)[1]["results"]]
        answers, errors = [], []

        def painter():
            for i in range(10):
                st, _, data, _ = srv.request("POST", "/api/paint", {"map": 0, "cells": band, "weight": 1 if i % 2 == 0 else 9})
                res = json.loads(data)
                if st != 200 or res["weights_changed"] != len(band):
                    errors.append(res)
                else:
                    state_of[res["version"]] = i % 2 == 1

        def asker():
            for _ in range(8):
                st, res = srv.query(few)
                (answers if st == 200 else errors).append(res)

        threads = [threading.Thread(target=painter)] + [threading.Thread(target=asker) for _ in range(3)]
        for t_ in threads:
            t_.start()
        for t_ in threads:
            t_.join(120)
        wrong = [r["version"] for r in answers if r["version"] not in state_of or
                 answer_key(r) + [x["cost"] for x in r["results"]] != expect[state_of[r["version"]]]]
        check(not errors and not wrong and len(answers) == 24 and expect[True] != expect[False],
              f"24 queries during 10 paints each answer the weights of their version (wrong at versions {wrong[:5]}, errors {errors[:2]})")
        srv.request("POST", "/api/paint", {"map": 0, "cells": band, "weight": 1})  # as it was before: 3 on rows 7 and 8
        srv.request("POST", "/api/paint", {"map": 0, "cells": [[x, y] for x in (12, 13) for y in (7, 8)], "weight": 3})
        check(srv.request("GET", "/api/costs?map=0")[2].decode() == open(saved).read(), "after the paints the weights are those painted before")

        # A cell blocked on a weighted map stays blocked in the layer (inf), and the answers follow it.
        st, _, data, _ = srv.request("POST", "/api/cells", {"map": 0, "cells": [[10, 7], [10, 8]], "blocked": True})
        layer = srv.request("GET", "/api/costs?map=0")[2].decode().splitlines()
        check(st == 200 and layer[4 + 7].split()[10] == "inf" and layer[4 + 8].split()[10] == "inf", "cells blocked on a weighted map: inf in its layer")
        with open(saved, "w") as f:
            f.write("\n".join(layer) + "\n")
        st, res = srv.query(qs[0])
        bad = same_as_run(res, (*pairs[0][0], *pairs[0][1]), "blocked-0", ["--costs", saved], skip={"terrain"}) if st == 200 else [res.get("error")]
        check(not bad, "cells blocked on a weighted map: every row equals `navbench run --costs`" + ("; " + "; ".join(bad[:3]) if bad else ""))
    finally:
        rc = srv.stop()
    check(rc == 0, f"the terrain server stops cleanly (exit {rc})")


# A room split by a wall with a gap two cells wide (x 9..11, y 6..7): a disc of radius up to 1 passes it,
# a larger one cannot; start and goal keep clearance 2.5.
GAP_MAP = ["." * 20] * 6 + ["@" * 9 + ".." + "@" * 9] + ["." * 20] * 6
GAP_START, GAP_GOAL = [3.5, 2.5], [16.5, 10.5]


def test_radius(a, rooms):
    """The agent's radius (docs/viewer.md#agents-with-a-radius): the field checked, every answer equal to
    `navbench run --radius R --convention corner`, paths with arcs, builds cached per radius and
    dropped by an edit, answers through a gap that narrows as R grows, and "still building"."""
    nb = a.navbench
    gap = os.path.join(a.out, "radius", "hand", "gap.map")
    write_grid(gap, 20, 13, GAP_MAP)
    srv = Server(nb, [rooms, gap])
    try:
        w, h, rows = read_grid(rooms)
        # Bad radii: 400 with one line.
        good = {"map": 0, "reps": ["grid8"], "start": [1.5, 1.5], "goal": [3.5, 3.5]}
        for name, value in [("negative", -0.5), ("a string", "1"), ("a list", [1]), ("a boolean", True), ("null", None),
                            ("larger than the map", 1e6), ("far too large", 1e308)]:
            st, _, data, _ = srv.request("POST", "/api/query", dict(good, radius=value))
            msg = json.loads(data).get("error") if data.startswith(b"{") else None
            check(st == 400 and msg is not None and "'radius' must be a number from 0 to 128" in msg and "\n" not in msg,
                  f"radius {name}: {st} {msg!r}")
        for value in ["-1", "abc", "1e6"]:
            st, _, data, _ = srv.request("GET", f"/api/structure?map=0&rep=grid8&radius={value}")
            msg = json.loads(data).get("error", "") if data.startswith(b"{") else ""
            check(st == 400 and "'radius' must be" in msg, f"GET /api/structure radius={value}: {st} {msg!r}")

        # Answers equal `navbench run --radius R --convention corner` (every column but the times), on
        # corner points with clearance 2; the paths with arcs equal its paths.csv.
        def clear(x, y):
            return all(0 <= x + dx < w and 0 <= y + dy < h and rows[y + dy][x + dx] == "." for dx in range(-2, 2) for dy in range(-2, 2))
        corners = [(x, y) for y in range(2, h - 1) for x in range(2, w - 1) if clear(x, y)]
        pts = (*corners[len(corners) // 20], *corners[len(corners) * 19 // 20])
        reps = REPS + ["navmesh:erode=none", "quadtree:erode=cell"]
        answers = {}
        for R in [0.5, 1.5, 0]:
            ref, ref_csv = navbench_run(nb, a.out, rooms, pts, "corner", reps, "none,los,funnel", "euclidean", f"radius-{R}", radius=R, paths=True)
            st, res = srv.query({"map": 0, "reps": reps, "start": list(pts[:2]), "goal": list(pts[2:]),
                                 "smoothing": ["none", "los", "funnel"], "radius": R})
            if not check(st == 200, f"radius {R}: 200 ({res.get('error', '')})"):
                continue
            answers[R] = res
            header = open(ref_csv).readline().strip().split(",")
            bad = row_differences(res, ref, header, pts[:2])
            check("radius" in header and not bad and len(res["results"]) == 3 * len(reps),
                  f"radius {R}: every row equals `navbench run --radius {R} --convention corner`" + ("; " + "; ".join(bad[:3]) if bad else ""))
            check(res["radius"] == R and all(r["radius"] == R for r in res["results"]), f"radius {R}: the answer and its rows carry the radius")
            with open(ref_csv[:-4] + ".paths.csv") as f:
                ref_paths = {(p["representation"], p["smoothing"]): p["points"] for p in csv.DictReader(f)}
            arcs = [r for r in res["results"] if r["arcs"]]
            differ = [f"{r['representation']}/{r['smoothing']}" for r in res["results"] if r["status"] == "ok" and
                      not same_items(path_items(r["path"], r["arcs"]), csv_items(ref_paths[(r["representation"], r["smoothing"])]))]
            check(not differ, f"radius {R}: every path (with its arcs) equals `navbench run --paths` ({len(arcs)} with arcs; differ: {differ[:3]})")
        if 0.5 in answers:
            by = {(r["representation"], r["smoothing"]): r for r in answers[0.5]["results"]}
            vg = by[("visgraph", "none")]
            check(vg["status"] == "ok" and vg["arcs"] and abs(vg["length"] - answers[0.5]["optimal"]) < 1e-9 * vg["length"]
                  and answers[0.5]["tangent"]["circles"] > 0,
                  f"radius 0.5: visgraph is the tangent graph: the exact disc optimum {answers[0.5]['optimal']}, {len(vg['arcs'])} arcs")
            check(by[("visgraph", "los")]["status"] == "not_applicable", "radius 0.5: los on the tangent graph's taut paths is not_applicable")
            # Builds are cached per radius: the same query again reuses them (same build times).
            st, again = srv.query({"map": 0, "reps": reps, "start": list(pts[:2]), "goal": list(pts[2:]), "smoothing": "none", "radius": 0.5})
            same = [r["build_ms"] for r in again["results"]] == [by[(r["representation"], "none")]["build_ms"] for r in again["results"]]
            check(st == 200 and same and again["radius_build_ms"] == answers[0.5]["radius_build_ms"], "the builds at radius 0.5 are cached")
            # A representation on the map itself (erode=none) shares the point agent's build.
            st, point = srv.query({"map": 0, "reps": ["navmesh:erode=none"], "start": list(pts[:2]), "goal": list(pts[2:])})
            check(point["results"][0]["build_ms"] == by[("navmesh:erode=none", "none")]["build_ms"],
                  "navmesh:erode=none at radius 0.5 answers on the point agent's build")
            # At most two radii per map (kMaxRadiiCachedPerMap): after three others, 0.5 is built again.
            for R in [0.6, 0.7, 0.8]:
                srv.query({"map": 0, "reps": ["grid8"], "start": list(pts[:2]), "goal": list(pts[2:]), "radius": R})
            st, later = srv.query({"map": 0, "reps": ["grid8"], "start": list(pts[:2]), "goal": list(pts[2:]), "radius": 0.5})
            check(st == 200 and later["radius_build_ms"] != answers[0.5]["radius_build_ms"] and
                  later["results"][0]["length"] == by[("grid8", "none")]["length"],
                  "after three other radii the builds at 0.5 were dropped and are made again (same answer)")
            # The structure at a radius: grid8 on the map shrunk by R has fewer edges.
            n = {}
            for R in ["", "&radius=1.5"]:
                st, _, data, hdr = srv.request("GET", f"/api/structure?map=0&rep=grid8{R}")
                n[R] = int(hdr.get("X-Segments", -1)) if st == 200 else -1
            check(0 < n["&radius=1.5"] < n[""], f"/api/structure at radius 1.5: {n['&radius=1.5']} segments, {n['']} for a point")

        # The gap: the exact disc's length grows with R; too wide a disc finds no path, and one wider
        # than the room's clearance at start and goal is an invalid query.
        gq = {"map": 1, "reps": REPS, "start": GAP_START, "goal": GAP_GOAL, "smoothing": "none"}
        got = {}
        for R in [0, 0.5, 0.9, 1.2, 3]:
            st, res = srv.query(dict(gq, radius=R))
            got[R] = {r["representation"]: r for r in res.get("results", [])}
        lengths = [got[R]["visgraph"]["length"] for R in [0, 0.5, 0.9]]
        check(None not in lengths and lengths[0] < lengths[1] < lengths[2], f"through the gap the disc's path grows with R: {lengths}")
        check(all(r["status"] == "no_path" for r in got[1.2].values()), f"R 1.2, wider than the gap: no_path {[r['status'] for r in got[1.2].values()]}")
        check(all(r["status"] == "invalid_query" and "lacks clearance" in r["message"] for r in got[3].values()),
              f"R 3: start and goal lack clearance: invalid_query {[r['status'] for r in got[3].values()]}")
        # An edit drops the builds at every radius: one cell narrows the gap to a cell, too narrow for R 0.6.
        st, before = srv.query(dict(gq, radius=0.6))
        st, _, data, _ = srv.request("POST", "/api/cells", {"map": 1, "cells": [[9, 6]], "blocked": True})
        st, after = srv.query(dict(gq, radius=0.6))
        edited = os.path.join(a.out, "radius-edited", "hand", "gap.map")
        write_grid(edited, 20, 13, GAP_MAP[:6] + ["@" * 10 + "." + "@" * 9] + GAP_MAP[7:])
        ref, ref_csv = navbench_run(nb, a.out, edited, (3, 2, 16, 10), "center", REPS, "none", "euclidean", "radius-edited", radius=0.6)
        vg_status = lambda res: next(r["status"] for r in res["results"] if r["representation"] == "visgraph")
        check(vg_status(before) == "ok" and all(r["status"] == "no_path" for r in after["results"]),
              f"R 0.6: the exact disc passes the gap before the edit, nothing after it ({[r['status'] for r in after['results']]})")
        check(all(ref[(r["representation"], "none", "euclidean")]["status"] == r["status"] for r in after["results"]),
              "R 0.6 on the edited map: the statuses of `navbench run --radius 0.6` on it")
        srv.request("POST", "/api/reset", {"map": 1})
        st, reset = srv.query(dict(gq, radius=0.6))
        check(answer_key(reset) == answer_key(before), "after reset the disc passes the gap again, as before")
        check(srv.proc.poll() is None, "the server is still up after the radius queries")
    finally:
        srv.stop()

    # Builds that take longer than the wait (here 0 ms) answer "still building" and go on: asked
    # again, the answer comes, equal to the one waited for. The gap map padded with blocked cells to
    # 400 x 400 (the same free space, so the same answers): its radius builds scan 160,000 cells,
    # so they cannot finish before the server looks (on the 20 x 13 map alone they sometimes did).
    big = os.path.join(a.out, "radius-wait", "hand", "gap.map")
    write_grid(big, 400, 400, [r + "@" * 380 for r in GAP_MAP] + ["@" * 400] * (400 - len(GAP_MAP)))
    srv = Server(nb, [big], env={"NAVBENCH_SERVE_WAIT_MS": "0"})
    try:
        q = {"map": 0, "reps": REPS, "start": GAP_START, "goal": GAP_GOAL, "smoothing": "none", "radius": 0.5}
        st, _, data, _ = srv.request("POST", "/api/query", q)
        msg = json.loads(data).get("error", "")
        check(st == 503 and "still building" in msg and "\n" not in msg, f"wait 0: the first query at a radius answers 503: {msg!r}")
        seen_building, res = False, {}
        for _ in range(100):
            st, res = srv.query(q)
            if st == 200:
                seen_building |= any(r.get("building") for r in res["results"])
                if not any(r.get("building") for r in res["results"]):
                    break
            time.sleep(0.1)
        lengths = [r.get("length") for r in res.get("results", [])]
        want = [got[0.5][rep]["length"] for rep in REPS]
        check(st == 200 and lengths == want, f"asked again, the builds finished in the background give the answer ({lengths})")
        print(f"     (rows answered 'building' on the way: {seen_building})")
    finally:
        srv.stop()


def answer_key(res):
    """What must be equal between two answers on the same map state: all but the times."""
    return [(r["representation"], r["smoothing"], r["status"], r.get("length"), r.get("expansions"), r.get("path_points"),
             r.get("valid"), r.get("gap")) for r in res["results"]]


def test_edit(a, srv, rooms, rooms_id, poly_id):
    """POST /api/cells and /api/reset on rooms-16-128 (the server has queried it with every
    representation, so each has a cached build to update or rebuild)."""
    nb = a.navbench
    w, h, orig = read_grid(rooms)
    rows = [list(r) for r in orig]
    # The edited map on disk for `navbench run`: same name and folder name, so the rows compare whole.
    edited = os.path.join(a.out, "edited", os.path.basename(os.path.dirname(rooms)), os.path.basename(rooms))

    def cells(cs, blocked, map_id=rooms_id):
        st, _, data, _ = srv.request("POST", "/api/cells", {"map": map_id, "cells": [list(c) for c in cs], "blocked": blocked})
        return st, json.loads(data)

    def current():
        st, _, data, _ = srv.request("GET", f"/api/map?map={rooms_id}")
        m = json.loads(data)
        return m["version"], m["rows"]

    def same_as_run(res, pts, name, searched_no_path=()):
        """The answer equals `navbench run --convention corner` on the edited map written to disk."""
        write_grid(edited, w, h, ["".join(r) for r in rows])
        ref, ref_csv = navbench_run(nb, a.out, edited, pts, "corner", REPS, "none,los,funnel", "euclidean", name)
        return row_differences(res, ref, open(ref_csv).readline().strip().split(","), pts[:2], searched_no_path)

    version, shown = current()
    check(version == 0 and shown == orig, f"GET /api/map: version 0 and the file's cells (version {version})")
    free = [(x, y) for y in range(h) for x in range(w) if orig[y][x] == "."]
    pairs = [(free[len(free) // 10], free[len(free) * 9 // 10]), (free[len(free) // 3], free[2 * len(free) // 3])]
    queries = [{"map": rooms_id, "reps": REPS, "start": list(s), "goal": list(g), "smoothing": ["none", "los", "funnel"]} for s, g in pairs]
    before = [srv.query(q)[1] for q in queries]
    check(all(b["version"] == 0 for b in before), "a query answers with the map's version")

    # Block a 4x4 square on the middle of the first grid8 path and free six wall cells: two requests.
    path = next(r["path"] for r in before[0]["results"] if r["representation"] == "grid8" and r["smoothing"] == "none")
    mx, my = (int(math.floor(v)) for v in path[len(path) // 2])
    near_points = {(x + dx, y + dy) for s, g in pairs for x, y in (s, g) for dx in (-1, 0) for dy in (-1, 0)}
    block = [(x, y) for y in range(my - 1, my + 3) for x in range(mx - 1, mx + 3)
             if 0 <= x < w and 0 <= y < h and rows[y][x] == "." and (x, y) not in near_points]
    walls = [(x, y) for y in range(h // 3, h) for x in range(2, w - 2) if rows[y][x] == "@"][:6]
    st, res = cells(block, True)
    ok = check(st == 200 and res["changed"] == len(block) and res["version"] == 1,
               f"POST /api/cells blocks {len(block)} cells: {st} changed {res.get('changed')} version {res.get('version')}")
    if ok:
        how = {u["representation"]: u["in_place"] for u in res["updates"]}
        check(set(how) >= set(REPS) and how["grid8"] and how["grid4"] and how["visgraph"] and not how["navmesh"]
              and all(u["update_us"] >= 0 for u in res["updates"]),
              f"every cached representation updated (grid4/grid8/visgraph in place, navmesh rebuilt): {how}")
    for x, y in block:
        rows[y][x] = "@"
    st, res = cells(walls, False)
    check(st == 200 and res.get("changed") == len(walls) and res.get("version") == 2, f"POST /api/cells frees {len(walls)} wall cells: {res}"[:200])
    for x, y in walls:
        rows[y][x] = "."
    st, res = cells(walls, False)
    check(st == 200 and res.get("changed") == 0 and res.get("version") == 2, "the same cells again: nothing changed, same version")
    version, shown = current()
    check(version == 2 and shown == ["".join(r) for r in rows], f"GET /api/map: the edited cells, version {version}")

    # Queries on the edited map equal `navbench run` on it written to disk (every representation,
    # smoothing: grid4/grid8 updated in place, the others rebuilt, the exact optimum from the new map).
    for k, (q, (s, g)) in enumerate(zip(queries, pairs)):
        st, res = srv.query(q)
        if not check(st == 200 and res["version"] == 2, f"edited map, query {k}: 200, version 2"):
            continue
        bad = same_as_run(res, (*s, *g), f"edit-{k}")
        check(not bad, f"edited map, query {k}: every row equals `navbench run` on the edited map" + ("; " + "; ".join(bad[:3]) if bad else ""))
        if k == 0:
            check(answer_key(res) != answer_key(before[0]), "the edit changed the answer of the query it blocked")

    # Blocking the cell under the start: invalid_query; freeing it again: the answer is back.
    c = next(x for x in free[len(free) // 2:] if rows[x[1]][x[0]] == ".")
    q = {"map": rooms_id, "reps": ["grid8", "grid4", "navmesh", "visgraph", "quadtree", "subgoal"],
         "start": [c[0] + 0.5, c[1] + 0.5], "goal": [pairs[0][1][0] + 0.5, pairs[0][1][1] + 0.5]}
    was = srv.query(q)[1]
    st, res = cells([c], True)
    got = srv.query(q)[1]
    check(st == 200 and res["changed"] == 1 and all(r["status"] == "invalid_query" for r in got["results"]),
          f"blocking the start's cell: every representation says invalid_query {[r['status'] for r in got['results']]}")
    cells([c], False)
    check(answer_key(srv.query(q)[1]) == answer_key(was), "freeing it again: the same answer as before")

    # A whole wall across the map: no path from one side to the other, for every representation.
    col = w // 2
    wall = [(col, y) for y in range(h)]
    opened = [(x, y) for x, y in wall if rows[y][x] == "."]  # freed again below
    st, res = cells(wall, True)
    check(st == 200 and res["changed"] == sum(rows[y][col] == "." for y in range(h)), f"a wall of {h} cells: changed {res.get('changed')}")
    for x, y in wall:
        rows[y][x] = "@"
    left = next((x, y) for x, y in free if x < col - 2 and rows[y][x] == "." and rows[y - 1][x - 1] == ".")
    right = next((x, y) for x, y in reversed(free) if x > col + 2 and rows[y][x] == "." and rows[y - 1][x - 1] == ".")
    st, res = srv.query({"map": rooms_id, "reps": REPS, "start": list(left), "goal": list(right), "smoothing": ["none", "los", "funnel"]})
    # (a funnel row of a representation without a corridor is not_applicable whatever the query:
    # docs/results.md#query-status)
    no_corridor = lambda r: r["smoothing"] == "funnel" and r["status"] == "not_applicable" and "has no corridor" in r.get("message", "")
    check(st == 200 and all(r["status"] == "no_path" or no_corridor(r) for r in res["results"]),
          f"across the wall: every representation says no_path {sorted({r['status'] for r in res.get('results', [])})}")
    # grid4/grid8 updated in place keep one component label across the split (grid.hpp: labels only
    # ever unite), so they find no_path by searching where a fresh build knows it at once: the
    # rows agree but for expansions and generated.
    bad = same_as_run(res, (*left, *right), "edit-wall", searched_no_path={"grid4", "grid8"})
    check(not bad, "across the wall: every row equals `navbench run` on the edited map (grid4/grid8: but for expansions)" +
          ("; " + "; ".join(bad[:3]) if bad else ""))

    # Bad requests: a 4xx with a message, and the map stays as it was.
    version, shown = current()
    bad_cases = [
        ("/api/cells", "polygon map", {"map": poly_id, "cells": [[1, 1]], "blocked": True}, 400, "polygon map"),
        ("/api/reset", "polygon map", {"map": poly_id}, 400, "polygon map"),
        ("/api/cells", "cell outside", {"map": rooms_id, "cells": [[3, 3], [w, 0]], "blocked": True}, 400, "outside the map"),
        ("/api/cells", "negative cell", {"map": rooms_id, "cells": [[-1, 3]], "blocked": False}, 400, "outside the map"),
        ("/api/cells", "too many cells", {"map": rooms_id, "cells": [[1, 1]] * 4097, "blocked": True}, 413, "at most 4096"),
        ("/api/cells", "malformed JSON", b'{"map": 0, "cells": [[1, ', 400, "malformed JSON"),
        ("/api/cells", "not an object", [1, 2], 400, "JSON object"),
        ("/api/cells", "a cell not [x, y]", {"map": rooms_id, "cells": [[1]], "blocked": True}, 400, "[x, y]"),
        ("/api/cells", "a fractional cell", {"map": rooms_id, "cells": [[1.5, 2]], "blocked": True}, 400, "[x, y]"),
        ("/api/cells", "cells not a list", {"map": rooms_id, "cells": "all", "blocked": True}, 400, "'cells'"),
        ("/api/cells", "missing blocked", {"map": rooms_id, "cells": [[1, 1]]}, 400, "'blocked'"),
        ("/api/cells", "blocked not a boolean", {"map": rooms_id, "cells": [[1, 1]], "blocked": "yes"}, 400, "'blocked'"),
        ("/api/cells", "unknown field", {"map": rooms_id, "cells": [[1, 1]], "blocked": True, "radius": 1}, 400, "unknown field 'radius'"),
        ("/api/cells", "unknown map", {"map": 99, "cells": [[1, 1]], "blocked": True}, 404, "unknown map"),
        ("/api/reset", "unknown map", {"map": "x"}, 404, "unknown map"),
        ("/api/reset", "missing map", {}, 400, "'map'"),
    ]
    for path, name, body, want, pat in bad_cases:
        st, _, data, _ = srv.request("POST", path, body)
        try:
            msg = json.loads(data)["error"]
        except Exception:
            msg = None
        check(st == want and msg is not None and pat in msg and "\n" not in msg, f"{path} {name}: {st} {msg!r}")
    check(current() == (version, shown), "after the bad requests the map is unchanged (a bad cell refuses the whole request)")
    cells(opened, False)
    for x, y in opened:
        rows[y][x] = "."

    # Queries while another client edits: each answer is that of one whole map state, the one its
    # version names (the edit holds the map exclusively).
    few = {"map": rooms_id, "reps": ["grid8", "navmesh", "visgraph"], "start": queries[0]["start"], "goal": queries[0]["goal"], "smoothing": "los"}
    base = current()[0]
    state_of = {base: False}
    expect = {False: answer_key(srv.query(few)[1])}
    st, res = cells(block, False)
    expect[True] = answer_key(srv.query(few)[1])  # True: the square freed
    state_of[res["version"]] = True
    cells(block, True)
    state_of[res["version"] + 1] = False
    answers, errors = [], []

    def editor():
        for i in range(10):
            st, res = cells(block, i % 2 == 1)  # free, block, free, ..., block
            if st != 200 or res["changed"] != len(block):
                errors.append(res)
            state_of[res["version"]] = i % 2 == 0

    def asker():
        for _ in range(8):
            st, res = srv.query(few)
            (answers if st == 200 else errors).append(res)

    threads = [threading.Thread(target=editor)] + [threading.Thread(target=asker) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    wrong = [r["version"] for r in answers if r["version"] not in state_of or answer_key(r) != expect[state_of[r["version"]]]]
    check(not errors and not wrong and len(answers) == 24 and expect[True] != expect[False],
          f"24 queries during 10 edits each answer the map state of their version (wrong at versions {wrong[:5]}, errors {errors[:2]})")

    # Reset: the file's cells, and the first answers again.
    st, res = cells([], True)
    check(st == 200 and res["changed"] == 0, "an empty list of cells changes nothing")
    st, _, data, _ = srv.request("POST", "/api/reset", {"map": rooms_id})
    res = json.loads(data)
    diff = sum(rows[y][x] != orig[y][x] for y in range(h) for x in range(w))
    check(st == 200 and res["changed"] == diff and res["version"] == current()[0], f"POST /api/reset: changed {res.get('changed')} of {diff} cells")
    check(current()[1] == orig, "after reset GET /api/map has the file's cells")
    again = [srv.query(q)[1] for q in queries]
    check(all(answer_key(x) == answer_key(y) for x, y in zip(again, before)), "after reset the queries answer as before any edit")


def chrome(width=1400, height=860):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}",
                "--force-device-scale-factor=1", "--no-proxy-server", "--disable-extensions"]:
        o.add_argument(arg)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    d.set_page_load_timeout(30)
    d.set_script_timeout(30)
    return d


def wait_for(driver, js, what, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        v = driver.execute_script(js)
        if v:
            return v
        time.sleep(0.1)
    raise TimeoutError(f"timed out waiting for {what}")


def served_map(srv, done, map_id=0, timeout=30):
    """The server's map (GET /api/map) once `done(map)` holds, polled: a press's cells go to the
    server in batches, one request at a time (edit.js sendStroke), so the page can show them all
    and have an answer for the first batch while the last is still on its way."""
    end = time.time() + timeout
    while True:
        served = json.loads(srv.request("GET", f"/api/map?map={map_id}")[2])
        if done(served) or time.time() >= end:
            return served
        time.sleep(0.1)


def drag(driver, frm, to, steps=8):
    """Presses at `frm` (viewport pixels), moves in steps to `to`, releases: a real pointer drag."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    ab = ActionBuilder(driver)
    p = ab.pointer_action
    p.move_to_location(round(frm[0]), round(frm[1]))
    p.pointer_down()
    for i in range(1, steps + 1):
        t = i / steps
        p.move_to_location(round(frm[0] + t * (to[0] - frm[0])), round(frm[1] + t * (to[1] - frm[1])))
    p.pointer_up()
    ab.perform()
    ActionChains(driver).reset_actions()


def table(driver):
    return driver.execute_script("""return [...document.querySelectorAll('#results tbody tr')].map(tr => ({
        rep: tr.dataset.rep, status: tr.dataset.status, length: tr.dataset.length, expansions: tr.dataset.expansions,
        valid: tr.dataset.valid}));""")


def click_at(driver, xy):
    """A real pointer click at viewport pixels `xy`."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    ab = ActionBuilder(driver)
    ab.pointer_action.move_to_location(round(xy[0]), round(xy[1]))
    ab.pointer_action.pointer_down()
    ab.pointer_action.pointer_up()
    ab.perform()
    ActionChains(driver).reset_actions()


def press(driver, key):
    from selenium.webdriver.common.action_chains import ActionChains
    driver.execute_script("document.activeElement && document.activeElement.blur()")
    ActionChains(driver).send_keys(key).perform()


def edit_in_browser(driver, srv, orig):
    """Edit mode on the page (map 1, rooms-16-128): a click blocks a cell of the paths, a drag a
    run of cells; the table answers on the edited map; reset map brings the file back."""
    page_table = lambda: [(r["rep"], r["status"], r["length"], r["expansions"]) for r in table(driver)]
    shown_before = page_table()
    press(driver, "e")
    check(driver.execute_script("return document.querySelector('#edit').getAttribute('aria-pressed')") == "true", "E enters edit mode")
    # The navmesh layer (drawn above) is fetched again after the edit: tag the current one.
    driver.execute_script("navbenchViewer.state.reps.find(x => x.spec == 'navmesh').segments.old = true")

    # A click on a free cell in the middle of the grid8 path blocks it.
    path = driver.execute_script("return navbenchViewer.state.results.results.find(r => r.representation == 'grid8').path")
    mx, my = (int(math.floor(v)) for v in path[len(path) // 2])
    cx, cy = next((x, y) for dy in (0, -1, 1) for dx in (0, -1, 1) for x, y in [(mx + dx, my + dy)] if orig[y][x] == ".")
    click_at(driver, driver.execute_script("return navbenchViewer.mapToClient(...arguments[0])", [cx + 0.5, cy + 0.5]))
    try:
        wait_for(driver, f"return document.querySelector('#results').dataset.version == '1' && document.querySelectorAll('#results tbody tr').length == {len(REPS)}",
                 "the table on the edited map")
        check(True, "a click in edit mode blocks a cell and the table answers on map version 1")
    except TimeoutError:
        shown = driver.execute_script("return document.querySelector('#results').dataset.version")
        check(False, f"a click in edit mode: the table shows version {shown}")
    st, _, data, _ = srv.request("GET", "/api/map?map=1")
    served = json.loads(data)
    check(served["version"] == 1 and served["rows"][cy][cx] == "@" and
          driver.execute_script("return navbenchViewer.state.map.rows[arguments[1]][arguments[0]]", cx, cy) == "@",
          f"the clicked cell ({cx}, {cy}) is blocked on the server and on the page")
    pts = driver.execute_script("return [navbenchViewer.state.start, navbenchViewer.state.goal]")
    st, res = srv.query({"map": 1, "reps": REPS, "start": pts[0], "goal": pts[1], "smoothing": "los", "heuristic": "euclidean"})
    want = [(r["representation"], r["status"], "" if r["length"] is None else r["length"], r["expansions"]) for r in res["results"]]
    got = [(rep, stt, float(length) if length else "", int(exp)) for rep, stt, length, exp in page_table()]
    check(res["version"] == 1 and sorted(got) == sorted(want), f"the table equals the API's answer on the edited map {sorted(got)[:2]} {sorted(want)[:2]}")
    note = driver.execute_script("return document.querySelector('#updates').textContent")
    check("grid8" in note and "rebuilt" in note and "version 1" in note, f"the update times show under the table: {note[:120]}")

    # A drag over four free cells blocks all four (the first cell was free).
    y, x0 = next((y, row.find("....", 4)) for y, row in enumerate(orig) if y > 20 and row.find("....", 4) > 0
                 and abs(y - cy) > 3 and all(abs(y - p[1]) > 3 for p in pts))
    frm, to = (driver.execute_script("return navbenchViewer.mapToClient(...arguments[0])", [x + 0.5, y + 0.5]) for x in (x0, x0 + 3))
    drag(driver, frm, to)
    wait_for(driver, f"return [0, 1, 2, 3].every(i => navbenchViewer.state.map.rows[{y}][{x0} + i] == '@') && "
                     "document.querySelector('#results').dataset.version == String(navbenchViewer.state.map.version)", "the dragged cells")
    served = served_map(srv, lambda m: m["rows"][y][x0:x0 + 4] == "@@@@", map_id=1)
    check(served["rows"][y][x0:x0 + 4] == "@@@@", f"dragging over four free cells blocks them all: {served['rows'][y][x0:x0 + 4]!r}")
    n = wait_for(driver, "const r = navbenchViewer.state.reps.find(x => x.spec == 'navmesh'); return r.segments && !r.segments.old && r.segments.length / 4",
                 "the navmesh layer of the edited map")
    check(n > 100, f"the drawn navmesh layer is fetched again after the edit ({n} segments)")

    # Reset map: the file's cells and the first answer again.
    driver.find_element("css selector", "#resetmap").click()
    wait_for(driver, f"return navbenchViewer.state.map.rows.join('\\n') == {json.dumps(chr(10).join(orig))} && "
                     "document.querySelector('#results').dataset.version == String(navbenchViewer.state.map.version)", "the map after reset")
    check(page_table() == shown_before, "reset map: the file's cells and the table as before the edits")
    press(driver, "E")
    check(driver.execute_script("return document.querySelector('#edit').getAttribute('aria-pressed')") == "false", "E again leaves edit mode")


def radius_in_browser(driver, a, maze):
    """The radius slider on map 0 (maze-4-128, corridors four cells wide): the keys move it, the disc is
    drawn, every answer is `navbench run --radius R`'s, the exact disc's path grows with R (with arcs),
    and a disc wider than the corridors is an invalid query. Screenshot: OUT/viewer-radius.png."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    driver.execute_script("navbenchViewer.loadMap(0)")
    wait_for(driver, "return navbenchViewer.state.map.name == 'maze-4-128' && navbenchViewer.state.results", "the maze")
    w, h, rows = read_grid(maze)
    free = [(x, y) for y in range(h) for x in range(w) if rows[y][x] == "."]
    s, g = free[len(free) // 10], free[len(free) * 9 // 10]
    start, goal = [s[0] + 0.5, s[1] + 0.5], [g[0] + 0.5, g[1] + 0.5]
    driver.execute_script("navbenchViewer.setPoints(arguments[0], arguments[1])", start, goal)
    n = len(REPS)

    def settled(R):
        """The table for the points at radius R ('' for none), every row answered (none still building)."""
        want = json.dumps(json.dumps(start + goal, separators=(",", ":")))
        return wait_for(driver, f"""const t = document.querySelector('#results'), rows = t.querySelectorAll('tbody tr');
            return t.dataset.query == {want} && t.dataset.radius == '{R}' && rows.length == {n} &&
                   [...rows].every(r => !r.dataset.building) && [...rows].map(r => ({{...r.dataset}}))""", f"the answers at radius {R!r}", 60)

    def ring(R):
        """How many of 72 pixels on the circle of radius R (map units) round the start are the start's green."""
        return driver.execute_script("""const [R, p] = arguments, c = document.querySelector('#canvas'), g = c.getContext('2d');
            const [cx, cy] = navbenchViewer.mapToClient(p[0], p[1]), r = c.getBoundingClientRect(), s = navbenchViewer.state.view.s;
            let n = 0;
            for (let i = 0; i < 72; ++i) {
              const a = i * Math.PI / 36, d = g.getImageData(Math.round(cx - r.left + R * s * Math.cos(a)), Math.round(cy - r.top + R * s * Math.sin(a)), 1, 1).data;
              if (Math.abs(d[0] - 22) < 30 && Math.abs(d[1] - 163) < 30 && Math.abs(d[2] - 74) < 30) ++n;
            }
            return n;""", R, start)

    point = {r["rep"]: r for r in settled("")}
    # Zoom in round the start so that a disc of radius 1 is wider than the marker.
    canvas = driver.find_element("css selector", "#canvas")
    cx, cy = driver.execute_script("return navbenchViewer.mapToClient(...arguments[0])", start)
    driver.execute_script("arguments[0].dispatchEvent(new WheelEvent('wheel', {deltaY: -800, clientX: arguments[1], clientY: arguments[2], bubbles: true, cancelable: true}))", canvas, cx, cy)
    before = ring(1.0)

    slider = driver.find_element("css selector", "#radius")
    for _ in range(5):
        slider.send_keys(Keys.ARROW_RIGHT)
    half = {r["rep"]: r for r in settled("0.5")}
    check(driver.execute_script("return document.querySelector('#radiusval').textContent") == "0.5", "the arrow keys move the radius slider to 0.5")
    ref, _ = navbench_run(a.navbench, a.out, maze, (*s, *g), "center", REPS, "none,los", "euclidean", "browser-radius", radius=0.5)
    bad = [f"{rep}/{r['smoothing']}: {r['status']} {r['length']} != {ref[(rep, r['smoothing'], 'euclidean')]['status']} {ref[(rep, r['smoothing'], 'euclidean')]['length']}"
           for rep, r in half.items()
           if r["status"] != ref[(rep, r["smoothing"], "euclidean")]["status"] or
           (r["status"] == "ok" and abs(float(r["length"]) - float(ref[(rep, r["smoothing"], "euclidean")]["length"])) > 1e-9 * float(r["length"]))]
    check(not bad, "radius 0.5: the table equals `navbench run --radius 0.5` on that query" + ("; " + "; ".join(bad) if bad else ""))
    vg = half.get("visgraph", {})
    check(vg.get("status") == "ok" and vg.get("smoothing") == "none" and int(vg.get("arcs", 0)) > 0 and vg.get("radius") == "0.5",
          f"radius 0.5: visgraph answers with the tangent graph's path ({vg.get('arcs')} arcs, its row without smoothing: taut)")
    # A structure layer at a radius: the build for it (grid8 on the maze shrunk by R: at 1, the cells
    # along the walls are gone).
    layer_at = lambda R: wait_for(driver, "const r = navbenchViewer.state.reps.find(x => x.spec == 'grid8'); "
                                          f"return r.layer && r.segments && r.segmentsRadius == {R} && r.segments.length / 4", f"the grid8 layer at radius {R}",
                                 timeout=90)  # the builds at a new radius (tangent graph with landmarks too) are slow under ASan
    driver.find_element("css selector", '#reps li[data-rep="grid8"] button.layer').click()
    layers = [layer_at(0.5)]

    for _ in range(5):
        slider.send_keys(Keys.ARROW_RIGHT)
    one = {r["rep"]: r for r in settled("1")}
    layers.append(layer_at(1))
    check(layers[0] > layers[1] > 0, f"the drawn grid8 layer is the build at the radius, fetched again when it changes ({layers} segments at 0.5, 1)")
    driver.find_element("css selector", '#reps li[data-rep="grid8"] button.layer').click()  # off again: the picture shows the paths
    lengths = [float(x["visgraph"]["length"]) for x in (point, half, one)]
    check(lengths[0] < lengths[1] < lengths[2], f"the exact disc's length grows with the radius (0, 0.5, 1): {lengths}")
    after = ring(1.0)
    check(before <= 10 and after >= 40, f"the disc is drawn at the start ({after} of 72 pixels on its circle green at R 1, {before} at R 0)")
    # Hovering visgraph's row draws the disc along its path; the picture for the docs.
    row = driver.find_element("css selector", '#results tbody tr[data-rep="visgraph"]')
    ActionChains(driver).move_to_element(row).perform()
    time.sleep(0.3)
    shot = os.path.join(a.out, "viewer-radius.png")
    driver.save_screenshot(shot)
    print(f"screenshot: {shot}")
    ActionChains(driver).move_to_element(driver.find_element("css selector", "#radiusval")).perform()
    driver.find_element("css selector", "#fit").click()

    # Wider than the corridors allow round their cell centres: every representation says invalid_query.
    for _ in range(10):
        slider.send_keys(Keys.ARROW_RIGHT)
    wide = settled("2")
    check(all(r["status"] == "invalid_query" for r in wide), f"radius 2 in corridors four cells wide: invalid_query {[r['status'] for r in wide]}")
    slider.send_keys(Keys.HOME)
    again = {r["rep"]: (r["status"], r["length"]) for r in settled("")}
    check(again == {k: (r["status"], r["length"]) for k, r in point.items()}, "back at radius 0: the point agent's answers again")

    # Replaying a row of `navbench run --radius 0.5` sets the slider and reproduces it.
    driver.find_element("css selector", "#csvfile").send_keys(os.path.abspath(os.path.join(a.out, "browser-radius.csv")))
    wait_for(driver, "return document.querySelectorAll('#csvrows tbody tr').length > 0", "the radius CSV rows")
    driver.find_element("css selector", "#csvfilter").clear()
    driver.find_element("css selector", "#csvfilter").send_keys("visgraph euclidean none")
    wait_for(driver, "return document.querySelectorAll('#csvrows tbody tr').length == 1", "the visgraph row")
    driver.find_element("css selector", "#csvrows tbody tr").click()
    note = wait_for(driver, "const t = document.querySelector('#replaynote').textContent; return t.includes('live') && "
                            "document.querySelector('#results').dataset.radius == '0.5' && t", "the replay note at radius 0.5")
    check("✓ same" in note and driver.execute_script("return document.querySelector('#radius').value") == "0.5",
          f"replaying a row of `navbench run --radius 0.5` sets the slider and reproduces it: {note}")
    driver.execute_script("document.querySelector('#smoothing').value = 'los'; document.querySelector('#smoothing').dispatchEvent(new Event('change'))")
    slider.send_keys(Keys.HOME)
    settled("")


def shade(w):
    """A passable cell's colour on the page for weight w (app.js shade(): free at 1 to `heavy` at 10, log scale)."""
    free, heavy = (246, 244, 238), (138, 90, 43)
    t = min(1.0, math.log(max(1.0, w)) / math.log(10))
    return tuple(int(math.floor(f + t * (h - f) + 0.5)) for f, h in zip(free, heavy))


def terrain_in_browser(a):
    """Terrain costs on the page (1280 px wide): a terrain table typed and loaded, the table's cost
    column equal to `navbench run --terrain`, the swamp shaded; the brush dragged down a column of
    cells: the server has the weight, the painted cells are shaded (pixels read from the canvas),
    and the costs equal `navbench run --costs` on the saved map. Screenshot: OUT/viewer-terrain.png."""
    nb = a.navbench
    swamp = os.path.join(a.out, "terrain", "hand", "swamp.map")
    write_grid(swamp, 24, 16, SWAMP_MAP)
    srv = Server(nb, [swamp])
    driver = None
    try:
        driver = chrome(1280, 800)
        driver.get(srv.url)
        wait_for(driver, "return document.querySelectorAll('#results tbody tr').length >= 3", "the first results")
        for rep in TERRAIN_REPS:
            box = driver.find_element("css selector", f'#reps li[data-rep="{rep}"] input[type=checkbox]')
            if not box.is_selected():
                box.click()
        start, goal = (1, 1), (22, 14)
        driver.execute_script("navbenchViewer.setPoints(arguments[0], arguments[1])", [start[0] + 0.5, start[1] + 0.5], [goal[0] + 0.5, goal[1] + 0.5])
        check(driver.execute_script("return document.querySelector('#costhead').hidden && document.querySelector('#terraininfo').textContent") == "unweighted",
              "an unweighted map: no cost column, 'unweighted'")

        def pixel(x, y):
            """The canvas's colour at map point (x, y)."""
            return tuple(driver.execute_script("""const c = document.querySelector('#canvas'), r = c.getBoundingClientRect();
                const [px, py] = navbenchViewer.mapToClient(arguments[0], arguments[1]);
                return [...c.getContext('2d').getImageData(Math.round(px - r.left), Math.round(py - r.top), 1, 1).data].slice(0, 3);""", x, y))

        def clear_cells(cells):
            """The cells whose centres are more than 1.2 cells from every drawn path (their pixel is the map's)."""
            paths = driver.execute_script("""return navbenchViewer.state.results.results.filter(r => r.path && r.path.length > 1).map(r => r.path)""")

            def dist(p, a_, b_):
                vx, vy = b_[0] - a_[0], b_[1] - a_[1]
                t = max(0.0, min(1.0, ((p[0] - a_[0]) * vx + (p[1] - a_[1]) * vy) / (vx * vx + vy * vy or 1)))
                return math.hypot(p[0] - a_[0] - t * vx, p[1] - a_[1] - t * vy)
            return [(x, y) for x, y in cells if all(dist((x + 0.5, y + 0.5), p, q) > 1.2 for path in paths for p, q in zip(path, path[1:]))
                    and min(math.dist((x + 0.5, y + 0.5), (s[0] + 0.5, s[1] + 0.5)) for s in (start, goal)) > 2]

        def table_equals_run(name, more, map_path):
            """The table's rows (length and cost) equal `navbench run` with `more` on that query (los)."""
            ref, _ = navbench_run(nb, a.out, map_path, (*start, *goal), "center", TERRAIN_REPS, "los", "euclidean", name, more=more)
            shown = driver.execute_script("""return [...document.querySelectorAll('#results tbody tr')].map(tr => ({rep: tr.dataset.rep,
                status: tr.dataset.status, length: tr.dataset.length, cost: tr.dataset.cost, raw: tr.dataset.rawCost,
                cell: tr.querySelector('td.cost') ? tr.querySelector('td.cost').textContent : null}))""")
            bad = []
            for r in shown:
                if r["rep"] not in TERRAIN_REPS:
                    if r["status"] != "not_applicable":
                        bad.append(f"{r['rep']}: {r['status']} (not_applicable on a weighted map)")
                    continue
                w_ = ref[(r["rep"], "los", "euclidean")]
                if r["status"] != w_["status"] or r["status"] == "ok" and (
                        abs(float(r["cost"]) - float(w_["cost"])) > 1e-9 * float(w_["cost"]) or abs(float(r["raw"]) - float(w_["raw_cost"])) > 1e-9 * float(w_["cost"])
                        or abs(float(r["length"]) - float(w_["length"])) > 1e-9 * float(w_["length"]) or r["cell"] in (None, "", "–")):
                    bad.append(f"{r['rep']}: {r['status']} cost {r['cost']} raw {r['raw']} length {r['length']} shown {r['cell']!r} != {w_['status']} {w_['cost']} {w_['raw_cost']} {w_['length']}")
            return shown, bad

        # A terrain table typed into the page.
        driver.find_element("css selector", "#terrain").send_keys("S=2,W=5")
        driver.find_element("css selector", "#terrainform button").click()
        wait_for(driver, "return document.querySelector('#results').dataset.terrain == 'S=2,W=5' && "
                         "document.querySelector('#results').dataset.version == String(navbenchViewer.state.map.version)", "the weighted answer")
        info = driver.execute_script("return document.querySelector('#terraininfo').textContent")
        check(not driver.execute_script("return document.querySelector('#costhead').hidden") and "S=2,W=5" in info and "1–5" in info,
              f"after loading S=2,W=5 the table has a cost column and the section says {info!r}")
        shown, bad = table_equals_run("browser-terrain", ["--terrain", "S=2,W=5"], swamp)
        refs = driver.execute_script("return document.querySelector('#octcost').textContent")
        check(re.search(r"octile cost [0-9.]+ · reference cost [0-9.]+", refs or ""),
              f"the page states the octile and the reference optimum's cost: {refs!r}")
        check(len(shown) >= len(TERRAIN_REPS) and not bad, f"the table's costs equal `navbench run --terrain S=2,W=5` ({len(shown)} rows)" + ("; " + "; ".join(bad[:3]) if bad else ""))
        raws = [(r["rep"], r["cell"]) for r in shown if r["status"] == "ok" and abs(float(r["raw"]) - float(r["cost"])) > 1e-9 * float(r["cost"])]
        check(raws and all(re.fullmatch(r"[0-9.]+raw [0-9.]+", c) for _, c in raws),
              f"rows whose smoothing changed the cost show the raw path's cost under it: {raws[:2]}")
        swampy = clear_cells([(x, y) for y in range(2, 14) for x in range(8, 12)])
        got = [pixel(x + 0.5, y + 0.5) for x, y in swampy[:6]]
        plain = clear_cells([(x, 7) for x in range(0, 4)])
        check(len(got) >= 3 and all(max(abs(u - v) for u, v in zip(g, shade(2))) <= 2 for g in got) and
              max(abs(u - v) for u, v in zip(pixel(plain[0][0] + 0.5, 7.5), shade(1))) <= 2,
              f"swamp cells are shaded as weight 2 {got[:2]} (want {shade(2)}), plain cells as 1")

        # The brush: weight 8 dragged down column 3 (crossing every path from left to right).
        press(driver, "b")
        check(driver.execute_script("return document.querySelector('#brush').getAttribute('aria-pressed')") == "true", "B takes the brush")
        wbox = driver.find_element("css selector", "#brushweight")
        wbox.clear()
        wbox.send_keys("8")
        col = 3
        before = [pixel(col + 0.5, y + 0.5) for y in range(16)]
        frm, to = (driver.execute_script("return navbenchViewer.mapToClient(...arguments[0])", [col + 0.5, y]) for y in (0.5, 15.5))
        drag(driver, frm, to, steps=16)
        wait_for(driver, f"return [...Array(16).keys()].every(y => navbenchViewer.state.map.weights[y * 24 + {col}] == 8) && !navbenchViewer.state.map.terrain.endsWith('W=5') && "
                         "document.querySelector('#results').dataset.version == String(navbenchViewer.state.map.version)", "the painted column's answer", 30)
        served = served_map(srv, lambda m: all(m["weights"][y * 24 + col] == 8 for y in range(16)))
        check(all(served["weights"][y * 24 + col] == 8 for y in range(16)) and served["terrain"] == "S=2,W=5 + brush",
              f"the brush painted the column on the server (terrain {served['terrain']!r})")
        painted = clear_cells([(col, y) for y in range(16)])
        after = [pixel(col + 0.5, y + 0.5) for _, y in painted]
        check(len(painted) >= 4 and all(max(abs(u - v) for u, v in zip(p, shade(8))) <= 2 for p in after)
              and all(max(abs(u - v) for u, v in zip(before[y], shade(1))) <= 2 for _, y in painted),
              f"the painted cells are shaded as weight 8 {after[:2]} (want {shade(8)}; before {before[painted[0][1]] if painted else None})")
        saved = os.path.join(a.out, "terrain", "browser.costs")
        with open(saved, "w") as f:
            f.write(srv.request("GET", "/api/costs?map=0")[2].decode())
        cells_now = os.path.join(a.out, "terrain-browser", "hand", "swamp.map")
        write_grid(cells_now, 24, 16, served["rows"])
        shown, bad = table_equals_run("browser-brush", ["--costs", saved], cells_now)
        check(len(shown) >= len(TERRAIN_REPS) and not bad, "after painting, the table's costs equal `navbench run --costs` on the saved map" + ("; " + "; ".join(bad[:3]) if bad else ""))
        g8 = next(r for r in shown if r["rep"] == "grid8")
        check(float(g8["cost"]) > float(g8["length"]), f"grid8's path crosses the painted column: cost {g8['cost']} > length {g8['length']}")
        note = driver.execute_script("return document.querySelector('#updates').textContent")
        check("grid8" in note and "quadtree" in note and "rebuilt" in note, f"the update times show under the table: {note[:140]}")
        # A brush of size 3: one click paints the 3 x 3 cells round the cell clicked.
        driver.execute_script("const s = document.querySelector('#brushsize'); s.value = '3'; s.dispatchEvent(new Event('change'))")
        wbox.clear()
        wbox.send_keys("6")
        click_at(driver, driver.execute_script("return navbenchViewer.mapToClient(19.5, 12.5)"))
        block = [(x, y) for x in (18, 19, 20) for y in (11, 12, 13)]
        wait_for(driver, "return " + " && ".join(f"navbenchViewer.state.map.weights[{y * 24 + x}] == 6" for x, y in block) +
                 " && document.querySelector('#results').dataset.version == String(navbenchViewer.state.map.version)", "the size-3 click")
        served = served_map(srv, lambda m: all(m["weights"][y * 24 + x] == 6 for x, y in block))
        check(all(served["weights"][y * 24 + x] == 6 for x, y in block) and served["weights"][12 * 24 + 21] == 1 and served["weights"][12 * 24 + 17] == 1,
              "a click with a brush of size 3 paints the 3 x 3 cells round it on the server, no more")

        shot_path = os.path.join(a.out, "viewer-terrain.png")
        driver.save_screenshot(shot_path)
        print(f"screenshot: {shot_path}")
        # Reset, then replay a row of `navbench run --terrain S=2,W=5`: the page loads the table again.
        driver.find_element("css selector", "#resetmap").click()
        wait_for(driver, "return !navbenchViewer.state.map.weights && document.querySelector('#results').dataset.terrain == ''", "the map after reset")
        driver.find_element("css selector", "#csvfile").send_keys(os.path.abspath(os.path.join(a.out, "browser-terrain.csv")))
        wait_for(driver, "return document.querySelectorAll('#csvrows tbody tr').length > 0", "the CSV rows")
        driver.find_element("css selector", "#csvfilter").send_keys("quadtree")
        wait_for(driver, "return document.querySelectorAll('#csvrows tbody tr').length == 1", "the filtered CSV row")
        driver.find_element("css selector", "#csvrows tbody tr").click()
        note = wait_for(driver, "const t = document.querySelector('#replaynote').textContent; return t.includes('live') && t.includes('cost') && t", "the replay note")
        check("✓ same" in note and "load them" not in note and driver.execute_script("return navbenchViewer.state.map.terrain") == "S=2,W=5",
              f"replaying a row of `navbench run --terrain S=2,W=5` loads the table and reproduces its length and cost: {note}")

        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        check(not errors, f"no errors in the browser console (terrain) {errors[:2]}")
    finally:
        if driver:
            driver.quit()
        rc = srv.stop()
    check(rc == 0, f"the terrain server stops cleanly (exit {rc})")


def test_browser(a):
    try:
        import selenium  # noqa: F401
    except ImportError:
        print("skip: python3-selenium is not installed")
        return 77
    if not (shutil.which("chromium") or os.path.exists("/usr/bin/chromium")) or not os.path.exists("/usr/bin/chromedriver"):
        print("skip: /usr/bin/chromium or /usr/bin/chromedriver is missing")
        return 77
    src, nb = a.source, a.navbench
    rooms = os.path.join(src, "datasets/maps/generated/rooms-16-128.map")
    maze = os.path.join(src, "datasets/maps/generated/maze-4-128.map")
    os.makedirs(a.out, exist_ok=True)
    srv = Server(nb, [maze, rooms])
    driver = None
    try:
        driver = chrome()
        driver.get(srv.url + "?map=1")
        wait_for(driver, "return document.querySelectorAll('#results tbody tr').length >= 4", "the first results")
        check(driver.execute_script("return navbenchViewer.state.map.name") == "rooms-16-128", "the page loads the map named in the URL")
        # Select every representation (the page starts with four).
        for rep in REPS:
            box = driver.find_element("css selector", f'#reps li[data-rep="{rep}"] input[type=checkbox]')
            if not box.is_selected():
                box.click()
        wait_for(driver, f"return document.querySelectorAll('#results tbody tr').length == {len(REPS)} && !document.querySelector('#status').textContent.includes('building')",
                 "a row per representation", 60)

        # Drag start, then goal, to two far-apart free cells.
        w, h, rows = read_grid(rooms)
        free = [(x, y) for y in range(h) for x in range(w) if rows[y][x] == "."]
        cur = driver.execute_script("return [navbenchViewer.state.start, navbenchViewer.state.goal]")
        targets = {"start": free[len(free) // 10], "goal": free[len(free) * 9 // 10]}
        for i, kind in enumerate(["start", "goal"]):
            frm = driver.execute_script("return navbenchViewer.mapToClient(...arguments[0])", cur[i])
            cx, cy = targets[kind]
            to = driver.execute_script("return navbenchViewer.mapToClient(...arguments[0])", [cx + 0.5, cy + 0.5])
            drag(driver, frm, to)
        want = [targets["start"][0] + 0.5, targets["start"][1] + 0.5, targets["goal"][0] + 0.5, targets["goal"][1] + 0.5]
        try:
            wait_for(driver, f"return document.querySelector('#results').dataset.query == {json.dumps(json.dumps(want, separators=(',', ':')))}"
                             f" && document.querySelectorAll('#results tbody tr').length == {len(REPS)}", "the table for the dragged points")
            check(True, f"dragging S and G updates the table to {want}")
        except TimeoutError:
            shown_query = driver.execute_script("return document.querySelector('#results').dataset.query")
            check(False, f"dragging S and G updates the table to {want}: it shows {shown_query}")
        shown = table(driver)

        # The same query through `navbench run` (centre convention: the cells, as a scenario names them).
        ref, ref_csv = navbench_run(nb, a.out, rooms, (*targets["start"], *targets["goal"]), "center", REPS, "los", "euclidean", "browser")
        bad = []
        for r in shown:
            want_row = ref[(r["rep"], "los", "euclidean")]
            if r["status"] != want_row["status"] or r["expansions"] != want_row["expansions"]:
                bad.append(f"{r['rep']}: status/expansions {r['status']}/{r['expansions']} != {want_row['status']}/{want_row['expansions']}")
            elif r["status"] == "ok" and abs(float(r["length"]) - float(want_row["length"])) > 1e-9 * float(want_row["length"]):
                bad.append(f"{r['rep']}: length {r['length']} != {want_row['length']}")
            elif r["status"] == "ok" and (r["valid"] == "true") != (want_row["valid"] == "1"):
                bad.append(f"{r['rep']}: valid {r['valid']} != {want_row['valid']}")
        check(len(shown) == len(REPS) and not bad, f"the table equals `navbench run` on that query ({len(shown)} rows)" + ("; " + "; ".join(bad) if bad else ""))
        check(all(r["status"] == "ok" for r in shown), "every representation found a path")

        # A structure layer: its button fetches the segments and the picture changes.
        before = driver.execute_script("return document.querySelector('#canvas').toDataURL()")
        driver.find_element("css selector", '#reps li[data-rep="navmesh"] button.layer').click()
        n = wait_for(driver, "const r = navbenchViewer.state.reps.find(x => x.spec == 'navmesh'); return r.segments && r.segments.length / 4", "the navmesh layer")
        time.sleep(0.3)
        after = driver.execute_script("return document.querySelector('#canvas').toDataURL()")
        check(n > 100 and before != after, f"the navmesh layer draws {n} segments")

        # Replay: load the run's CSV through the file input and click the quadtree row.
        driver.find_element("css selector", "#csvfile").send_keys(os.path.abspath(ref_csv))
        wait_for(driver, "return document.querySelectorAll('#csvrows tbody tr').length > 0", "the CSV rows")
        driver.find_element("css selector", "#csvfilter").send_keys("quadtree")
        wait_for(driver, "return document.querySelectorAll('#csvrows tbody tr').length == 1", "the filtered CSV row")
        driver.find_element("css selector", "#csvrows tbody tr").click()
        note = wait_for(driver, "const t = document.querySelector('#replaynote').textContent; return t.includes('live') && t", "the replay note")
        check("✓ same" in note, f"replaying a CSV row reproduces it: {note}")

        # The search mode: Theta* answers on grid8 with clearance and turning shown; back to A*.
        driver.execute_script("document.querySelector('#search').value = 'theta'; document.querySelector('#search').dispatchEvent(new Event('change'))")
        got = wait_for(driver, """const r = [...document.querySelectorAll('#results tbody tr')].find(tr => tr.dataset.rep == 'grid8');
            return r && r.dataset.search == 'theta' && r.dataset.status == 'ok' && r.querySelector('td.clearance') &&
                   [r.querySelector('td.clearance').textContent, r.querySelector('td.turn').textContent, r.dataset.clearance]""",
                       "grid8's Theta* answer")
        check(got[0] not in ("", "–") and got[1] not in ("", "–") and float(got[2]) >= 0,
              f"the results table shows Theta*'s clearance and turning ({got})")
        driver.execute_script("document.querySelector('#search').value = 'astar'; document.querySelector('#search').dispatchEvent(new Event('change'))")
        wait_for(driver, "return [...document.querySelectorAll('#results tbody tr')].every(tr => tr.dataset.search == 'astar')", "A* again")

        # Pan and zoom keep the markers where they belong (map -> screen -> map round trip).
        canvas = driver.find_element("css selector", "#canvas")
        rect = driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", canvas)
        cx, cy = rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2
        s0 = driver.execute_script("return navbenchViewer.state.view.s")
        driver.execute_script("arguments[0].dispatchEvent(new WheelEvent('wheel', {deltaY: -300, clientX: arguments[1], clientY: arguments[2], bubbles: true, cancelable: true}))", canvas, cx, cy)
        s1 = driver.execute_script("return navbenchViewer.state.view.s")
        check(s1 > s0 * 1.2, f"the wheel zooms in ({s0:.2f} -> {s1:.2f} px per cell)")
        driver.find_element("css selector", "#fit").click()

        # A second tab on the other map works while the first one keeps its own state.
        first = driver.current_window_handle
        driver.switch_to.new_window("tab")
        driver.get(srv.url + "?map=0")
        wait_for(driver, "return document.querySelectorAll('#results tbody tr').length >= 4", "the second tab's results")
        tab2 = driver.execute_script("return navbenchViewer.state.map.name")
        driver.switch_to.window(first)
        p = free[len(free) // 2]
        driver.execute_script("navbenchViewer.setPoints(navbenchViewer.state.start, arguments[0])", [p[0] + 0.5, p[1] + 0.5])
        want2 = json.dumps(want[:2] + [p[0] + 0.5, p[1] + 0.5], separators=(",", ":"))
        wait_for(driver, f"return document.querySelector('#results').dataset.query == {json.dumps(want2)}", "the first tab's new answer")
        tab1 = driver.execute_script("return navbenchViewer.state.map.name")
        check(tab2 == "maze-4-128" and tab1 == "rooms-16-128", f"two tabs on two maps answer independently ({tab1}, {tab2})")

        edit_in_browser(driver, srv, rows)
        radius_in_browser(driver, a, maze)

        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        check(not errors, f"no errors in the browser console {errors[:2]}")
        shot = os.path.join(a.out, "viewer.png")
        driver.save_screenshot(shot)
        print(f"screenshot: {shot}")
    finally:
        if driver:
            driver.quit()
        rc = srv.stop()
    check(rc == 0, f"the server stops cleanly (exit {rc})")
    terrain_in_browser(a)
    return 0


def shot(a):
    """A README picture: given points, every representation, some structure layers."""
    srv = Server(a.navbench, [a.map])
    driver = None
    try:
        driver = chrome(a.width, a.height)
        driver.get(srv.url)
        wait_for(driver, "return document.querySelectorAll('#results tbody tr').length >= 1", "the first results", 120)
        for rep in a.reps.split(","):
            box = driver.find_element("css selector", f'#reps li[data-rep="{rep}"] input[type=checkbox]')
            if not box.is_selected():
                box.click()
        if a.start and a.goal:
            driver.execute_script("navbenchViewer.setPoints(arguments[0], arguments[1])", a.start, a.goal)
        driver.execute_script("document.querySelector('#smoothing').value = arguments[0]; document.querySelector('#smoothing').dispatchEvent(new Event('change'))", a.smoothing)
        if a.radius:
            driver.execute_script("navbenchViewer.setRadius(arguments[0])", a.radius)
        for rep in a.layers.split(",") if a.layers else []:
            driver.find_element("css selector", f'#reps li[data-rep="{rep}"] button.layer').click()
            wait_for(driver, f"const r = navbenchViewer.state.reps.find(x => x.spec == '{rep}'); return r.segments", "a layer", 120)
        time.sleep(1.0)
        wait_for(driver, "return !document.querySelector('#status').textContent.includes('building') && "
                         "![...document.querySelectorAll('#results tbody tr')].some(r => r.dataset.building)", "the builds", 120)
        if a.highlight:
            driver.execute_script("navbenchViewer.state.highlight = arguments[0]", a.highlight)
        driver.execute_script("document.querySelector('#fit').click()")
        if a.zoom:  # view the map's rectangle x0 y0 x1 y1
            driver.execute_script("""const [x0, y0, x1, y1] = arguments[0], r = document.querySelector('#canvas').getBoundingClientRect();
                const s = Math.min(r.width / (x1 - x0), r.height / (y1 - y0));
                navbenchViewer.state.view = {s, ox: r.width / 2 - s * (x0 + x1) / 2, oy: r.height / 2 - s * (y0 + y1) / 2};
                document.querySelector('#canvas').dispatchEvent(new WheelEvent('wheel', {deltaY: 0}));  // redraws""", a.zoom)
        time.sleep(1.0)
        driver.save_screenshot(a.out)
        print(a.out)
    finally:
        if driver:
            driver.quit()
        srv.stop()
    return 0


def latency(a):
    """Round-trip time of one page query (every representation, paths included) on --map: the
    median over --queries seeded random pairs of free cells, after one warm-up query (the builds)."""
    import random
    srv = Server(a.navbench, [a.map])
    try:
        w, h, rows = read_grid(a.map)
        free = [(x + 0.5, y + 0.5) for y in range(h) for x in range(w) if rows[y][x] == "."]
        rng = random.Random(1)
        body = lambda s, g: {"map": 0, "reps": a.reps.split(","), "start": list(s), "goal": list(g), "smoothing": a.smoothing}
        t = time.perf_counter()
        st, res = srv.query(body(free[0], free[-1]))
        print(f"first query (builds every representation): {1000 * (time.perf_counter() - t):.0f} ms")
        c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=60)  # one keep-alive connection, as a browser tab
        trips, server = [], []
        for _ in range(a.queries):
            b = json.dumps(body(rng.choice(free), rng.choice(free))).encode()
            t = time.perf_counter()
            c.request("POST", "/api/query", body=b, headers={"Content-Type": "application/json"})
            r = c.getresponse()
            res = json.loads(r.read())
            trips.append(1000 * (time.perf_counter() - t))
            server.append(res["server_us"] / 1000)
        c.close()
        q = lambda v, p: sorted(v)[min(len(v) - 1, int(p * len(v)))]
        print(f"python client: {a.queries} queries, {len(a.reps.split(','))} representations, smoothing {a.smoothing}: round trip "
              f"median {q(trips, 0.5):.1f} ms, p90 {q(trips, 0.9):.1f} ms, max {max(trips):.1f} ms; server median {q(server, 0.5):.1f} ms")
        if a.browser:  # the page itself: fetch + JSON + table + canvas, as the user sees it
            driver = chrome()
            try:
                driver.get(srv.url)
                wait_for(driver, "return document.querySelectorAll('#results tbody tr').length >= 1", "the first results", 120)
                for rep in a.reps.split(","):
                    box = driver.find_element("css selector", f'#reps li[data-rep="{rep}"] input[type=checkbox]')
                    if not box.is_selected():
                        box.click()
                trips = []
                for _ in range(a.queries):
                    s_, g_ = list(rng.choice(free)), list(rng.choice(free))
                    t = time.perf_counter()
                    driver.execute_script("navbenchViewer.setPoints(arguments[0], arguments[1])", s_, g_)
                    want = json.dumps(s_ + g_, separators=(",", ":"))
                    wait_for(driver, f"return document.querySelector('#results').dataset.query == {json.dumps(want)}", "the answer", 30)
                    trips.append(driver.execute_script("return navbenchViewer.state.roundTrip"))
                print(f"browser page: {a.queries} queries: round trip (fetch to parsed answer) median {q(trips, 0.5):.1f} ms, "
                      f"p90 {q(trips, 0.9):.1f} ms, max {max(trips):.1f} ms")
            finally:
                driver.quit()
    finally:
        srv.stop()
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["api", "browser", "shot", "latency"])
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--browser", action="store_true", help="latency: also measure from the page in headless Chromium")
    p.add_argument("--navbench", required=True)
    p.add_argument("--source", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    p.add_argument("--out", default="")
    p.add_argument("--map")
    p.add_argument("--start", type=float, nargs=2)
    p.add_argument("--goal", type=float, nargs=2)
    p.add_argument("--reps", default=",".join(REPS))
    p.add_argument("--layers", default="")
    p.add_argument("--smoothing", default="los")
    p.add_argument("--highlight", default="")
    p.add_argument("--radius", type=float, default=0.0, help="shot: the agent's radius")
    p.add_argument("--zoom", type=float, nargs=4, help="shot: the map rectangle X0 Y0 X1 Y1 to show")
    p.add_argument("--width", type=int, default=1400)
    p.add_argument("--height", type=int, default=860)
    a = p.parse_args()
    # Bounded in time whatever happens (ctest also has a TIMEOUT): the finally blocks stop the server.
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("test_viewer.py: 240 s limit")))
    signal.alarm(240)
    if a.mode == "shot":
        return shot(a)
    if a.mode == "latency":
        signal.alarm(0)
        return latency(a)
    rc = test_api(a) if a.mode == "api" else test_browser(a)
    if rc == 77:
        return 77
    print(f"{len(FAILS)} failures" if FAILS else "all checks passed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
