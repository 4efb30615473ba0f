"""Section "Maps in metres": the maps read with a scale (ROS map_server maps, docs/maps.md) as
meta.json's map_frames give them — resolution, origin, size — and per representation and
smoothing the median path length of the answered queries in map units (cells) and in metres
(length x resolution). Left out when no result set read such a map."""
from __future__ import annotations

from navreport.analysis.fmt import esc, f_sig
from navreport.io import results as common
from navreport.sections.base import Block, Section


def scaled_frames(data) -> dict:
    """map name -> its frame (the first result set that read it), for frames with a resolution."""
    out = {}
    for prefix in data.prefixes:
        meta = data.meta.get(prefix)
        frames = meta.get("map_frames", {}) if isinstance(meta, dict) else {}
        for key, f in (frames.items() if isinstance(frames, dict) else []):
            if isinstance(f, dict) and f.get("resolution"):
                out.setdefault(key.rsplit("/", 1)[-1], f)
    return out


def build(ctx) -> list:
    data = ctx.analysis.data
    frames = scaled_frames(data)
    if not frames:
        return []
    return [Section(id="metres", title="Maps in metres", nav="Metres", blocks=[Block(html=metres_html(data.rows, frames))])]


def metres_html(rows, frames: dict) -> str:
    import pandas as pd
    out = ["<p>Maps read with a scale (ROS map_server maps): a cell is <i>resolution</i> metres wide, cell (x, y) of an "
           "H-row map has its lower-left corner at (x r + origin x, (H - 1 - y) r + origin y) metres. Lengths are the "
           "median over the answered queries (status ok), in cells and in metres.</p>",
           "<table class='metres'><tr><th>map</th><th>resolution (m)</th><th>origin (m)</th><th>size (m)</th>"
           "<th>representation</th><th>smoothing</th><th class='num'>paths</th><th class='num'>median length (cells)</th>"
           "<th class='num'>median length (m)</th></tr>"]
    # Only the four columns read, and only the ok rows: a row selection of the whole frame copies
    # every column (gigabytes at millions of rows).
    cols = ["map", "representation", "smoothing", "length"]
    ok = (common.take_rows(rows, (rows["status"] == "ok").to_numpy(bool), cols) if len(rows) and "length" in rows.columns
          else pd.DataFrame({c: [] for c in cols}))
    for name, f in sorted(frames.items()):
        r = float(f["resolution"])
        origin = f.get("origin", [0, 0])
        head = (f"<td>{esc(name)}</td><td class='num'>{f_sig(r)}</td><td>({f_sig(origin[0])}, {f_sig(origin[1])})</td>"
                f"<td>{f_sig(f.get('width', 0) * r)} × {f_sig(f.get('height', 0) * r)}</td>")
        sub = common.take_rows(ok, (ok["map"] == name).to_numpy(bool)) if len(ok) else ok
        if not len(sub):
            out.append(f"<tr>{head}<td colspan='5' class='note'>no answered query</td></tr>")
            continue
        for (rep, sm), g in sub.groupby([sub["representation"].astype(str), sub["smoothing"].astype(str)], observed=True):
            med = float(pd.to_numeric(g["length"], errors="coerce").median())
            out.append(f"<tr>{head}<td>{esc(rep)}</td><td>{esc(sm)}</td><td class='num'>{len(g)}</td>"
                       f"<td class='num'>{f_sig(med, 5)}</td><td class='num'>{f_sig(med * r, 4)}</td></tr>")
            head = "<td></td>" * 4
    out.append("</table>")
    return "\n".join(out)
