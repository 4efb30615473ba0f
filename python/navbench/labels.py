"""Names of configurations, shared by the report, the database and the OMPL export: a
configuration is a representation with its parameters, a search (A*, Theta*, Lazy Theta*), a
heuristic and a smoothing mode (docs/path-quality.md)."""
from __future__ import annotations

DEFAULT_HEURISTIC = "euclidean"


def search_label(search: str, smoothing: str) -> str:
    """The configuration label of a (search, smoothing) pair (docs/path-quality.md): A*'s rows keep
    their smoothing, the any-angle searches name themselves ('theta', 'theta + los')."""
    if search in ("", "astar", "nan", "None", "<NA>"):
        return smoothing
    if smoothing == search or smoothing.startswith(search + " + "):  # already a label (the report folds it in)
        return smoothing
    return search if smoothing == "none" else f"{search} + {smoothing}"


def config_label(representation: str, search: str, heuristic: str, smoothing: str) -> str:
    """'grid8 · los', 'grid8 · theta + los', 'grid8 · octile · none' (the heuristic only when it is
    not the default): the same words whatever map, terrain or run the configuration ran on."""
    parts = [str(representation)]
    if heuristic not in ("", None, DEFAULT_HEURISTIC, "nan", "None", "<NA>"):
        parts.append(str(heuristic))
    parts.append(search_label(str(search), str(smoothing)))
    return " · ".join(parts)
