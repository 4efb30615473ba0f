"""Section "Config and metadata": every result set's meta.json (its schema left out), folded."""
from __future__ import annotations

import json

from navreport.analysis.fmt import esc
from navreport.sections.base import Block, Section


def build(ctx) -> list:
    return [Section(id="meta", title="Config and metadata", nav="Config", blocks=[Block(html=meta_html(ctx.analysis.data))])]


def meta_html(data) -> str:
    parts = []
    counts = data.rows["result_set"].value_counts() if len(data.rows) else {}
    for prefix in data.prefixes[:20]:
        meta = data.meta.get(prefix)
        shown = {k: v for k, v in meta.items() if k != "schema"} if isinstance(meta, dict) else meta
        body = ("<p class='note'>no meta.json next to this result set</p>" if meta is None else
                f"<pre>{esc(json.dumps(shown, indent=2, sort_keys=True))}</pre>")
        parts.append(f"<details><summary>{esc(prefix)} — {int(counts.get(prefix, 0))} rows</summary>{body}</details>")
    if len(data.prefixes) > 20:
        parts.append(f"<p class='note'>… and {len(data.prefixes) - 20} more result sets: " +
                     ", ".join(esc(p) for p in data.prefixes[20:200]) + "</p>")
    return "\n".join(parts)
