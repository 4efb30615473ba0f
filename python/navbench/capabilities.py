"""What a configuration's representation declares: its capabilities and its parameters, as navbench
registers them (docs/adding-a-representation.md, section 3) and writes them into every run's
meta.json ("representations": {NAME: {"capabilities": [...], "parameters": [...]}}, docs/results.md#run-metadata).
The report and the package ask these declarations, never a representation's name (the lint
scripts/check-names). A result set written before meta.json carried them is read with the
declarations of the representations registered then (WRITTEN_BEFORE: `navbench list` at 17d5920,
in today's words, and cpd as main registered it from 9af56c8 until meta.json carried them)."""
from __future__ import annotations

# `navbench list` at 17d5920, the last commit whose meta.json did not carry the declarations; gppc
# (a competition entry) was not listed and is declared as it is now; cpd came after 17d5920 (9af56c8)
# and before meta.json carried the declarations, declared as it is now.
WRITTEN_BEFORE = {
    "cpd": ("radius=shrunk-map,grid-only,grid8-optimal,point-vertices,table-search", "threads,order,max_cells,cache,erode"),
    "grid4": ("radius=shrunk-map,grid-only,point-vertices,segment-edges,weights=update,update=exact", "lattice,pinch,erode"),
    "grid8": ("radius=shrunk-map,grid-only,grid8-optimal,point-vertices,segment-edges,weights=update,update=exact",
              "lattice,pinch,erode"),
    "navmesh": ("radius=shrunk-map,weights,corridor,update=approximate", "merge,erode"),
    "navmesh-file": ("radius=shrunk-map,mesh-only,corridor", "erode"),
    "navmesh-tiles": ("radius=shrunk-map,grid-only,weights,corridor,update=exact", "tile,merge,erode"),
    "navmesh-vertices": ("radius=shrunk-map,point-vertices,segment-edges,weights,update=approximate", "erode"),
    "prm": ("radius=shrunk-map,point-vertices,segment-edges,weights,may-miss,update=approximate", "samples,seed,k,erode"),
    "prm-star": ("radius=shrunk-map,point-vertices,segment-edges,weights,may-miss,update=approximate", "samples,seed,gamma,erode"),
    "quadtree": ("radius=shrunk-map,weights,corridor,update=approximate", "min,merge,aspect,erode"),
    "recast": ("radius=own-erosion,weights,corridor,approximate-space,may-miss,own-search,update=exact",
               "cs,partition,max_error,max_edge,nvp,tile,min_region,merge_region,pool,radius"),
    "subgoal": ("radius=shrunk-map,grid-only,grid8-optimal,point-vertices,update=exact,table-search",
                "table,ch,labels,labels_mb,levels,reach,alt,active,erode"),
    "visgraph": ("radius=tangent-graph,exact,point-vertices,weights,update=exact,table-search",
                 "taut,table,table_mb,labels,labels_mb,block,skip,alt,regions,max_nodes,steiner,pinch"),
    "gppc": ("radius=shrunk-map,grid-only,outside,point-only", "path,track,name,query_ms,prepare_ms,memory_mb,max_calls,log,store"),
}


def _entry(caps, params) -> dict:
    def as_set(v):
        return set(v.split(",")) - {""} if isinstance(v, str) else {str(x) for x in v}
    return {"capabilities": as_set(caps), "parameters": as_set(params)}


def declarations(metas) -> dict:
    """NAME -> {"capabilities": set, "parameters": set}: what the runs' meta.json declare (a dict of
    meta.json objects, or one), and for a name none of them declares, WRITTEN_BEFORE."""
    out = {name: _entry(c, p) for name, (c, p) in WRITTEN_BEFORE.items()}
    if isinstance(metas, dict) and "representations" in metas:
        metas = {"": metas}
    for meta in (metas or {}).values():
        reps = meta.get("representations") if isinstance(meta, dict) else None
        if not isinstance(reps, dict):
            continue
        for name, d in reps.items():
            if isinstance(d, dict):
                out[str(name)] = _entry(list(d.get("capabilities", [])), list(d.get("parameters", [])))
    return out


def representation_name(text) -> str:
    """The registered name a row's representation, configuration or label begins with:
    'grid8:lattice=corner' -> 'grid8', 'gppc:astar (outside) · none' -> 'gppc',
    'grid8 (centre lattice) · los' -> 'grid8'."""
    head = str(text).split(" · ")[0].split(" (")[0]
    return head.split(":")[0]


def declares(decl: dict, text, what: str) -> bool:
    """Whether the representation of `text` (representation_name) declares the capability `what`
    ('outside', 'approximate-space', 'weights=update' or its head 'weights') or the parameter `what`."""
    d = decl.get(representation_name(text))
    if not d:
        return False
    caps = d["capabilities"]
    return what in caps or any(c.split("=")[0] == what for c in caps) or what in d["parameters"]
