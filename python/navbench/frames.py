"""Frames of many rows held compactly: text as pandas categoricals (one code per row), numbers as
float64 columns; gathering chunks and files into one frame (TableBuilder, concat_frames) and taking
rows (take_rows) without pandas' copies of the whole frame. results.py reads into them."""
from __future__ import annotations


def _as_category(s):
    """A text column as pandas categorical: surrounding blanks stripped, missing fields ""."""
    import numpy as np
    import pandas as pd
    if not isinstance(s.dtype, pd.CategoricalDtype):
        s = s.astype(str).astype("category")
    cats = s.cat.categories
    if len(cats) and cats.dtype != object:
        s = s.cat.rename_categories(cats.astype(str))
        cats = s.cat.categories
    if s.isna().any():
        if "" not in cats:
            s = s.cat.add_categories([""])
        s = s.fillna("")
        cats = s.cat.categories
    stripped = cats.str.strip()
    if not stripped.equals(cats):
        if stripped.is_unique:
            s = s.cat.rename_categories(stripped)
        else:  # blanks made two categories one: recode
            uniq, codes = np.unique(np.asarray(stripped, dtype=object), return_inverse=True)
            new = np.where(s.cat.codes.to_numpy() >= 0, codes[s.cat.codes.to_numpy()], -1)
            s = pd.Series(pd.Categorical.from_codes(new, categories=uniq), index=s.index, name=s.name)
    return s


def concat_frames(frames: list, columns: list | None = None):
    """Row-wise concatenation that keeps text categorical (pandas' concat turns categoricals with
    different categories into objects), one column at a time, letting go of each input column
    once copied (the inputs are emptied). A column missing from some frames is empty text or
    NaN there; a column that is text in one frame and numbers in another becomes text."""
    import numpy as np
    import pandas as pd
    from pandas.api.types import union_categoricals
    frames = [f for f in frames if f is not None]
    if columns is None:
        columns = list(dict.fromkeys(c for f in frames for c in f.columns))
    if len(frames) == 1 and list(frames[0].columns) == columns:
        return frames[0]
    lengths = [len(f) for f in frames]
    pieces = [{c: f[c] for c in f.columns} for f in frames]  # Series; the frames themselves go
    frames.clear()
    out = {}
    for c in columns:
        parts = [p.pop(c, None) for p in pieces]
        if any(p is not None and (isinstance(p.dtype, pd.CategoricalDtype) or p.dtype == object) for p in parts):
            cats = []
            for p, n in zip(parts, lengths):
                if p is None:
                    p = pd.Series(pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), categories=[""]))
                elif not isinstance(p.dtype, pd.CategoricalDtype):
                    p = as_text(p)
                cats.append(p.array)
            out[c] = union_categoricals(cats)
        else:
            out[c] = np.concatenate([p.to_numpy(dtype=float) if p is not None else np.full(n, np.nan)
                                     for p, n in zip(parts, lengths)]) if parts else np.empty(0)
        del parts
    return pd.DataFrame(out, columns=columns, copy=False)


def _code_type(categories: int):
    """The smallest integer type for codes of that many categories."""
    import numpy as np
    return np.int8 if categories < 2 ** 7 else np.int16 if categories < 2 ** 15 else np.int32


class TableBuilder:
    """Rows of many chunks (and files) gathered into one DataFrame without holding the chunks
    and the result at once: numbers go straight into columns allocated for `capacity` rows
    (grown when more come), text into per-chunk codes against one category list per column.
    A column absent from some chunks is empty text or NaN there; a column that is text in one
    chunk and numbers in another becomes text."""

    def __init__(self, capacity: int = 0):
        self.n = 0
        self.capacity = max(0, int(capacity))
        self.cols = {}  # name -> ["num", float array] or ["text", [code arrays], {category: code}]

    def _text(self, name: str, values) -> None:
        """Appends a categorical's rows to text column name."""
        import numpy as np
        entry = self.cols[name]
        lookup = entry[2]
        cats = values.categories
        mapping = np.zeros(len(cats) + 1, dtype=np.int32)
        for i, cat in enumerate(cats):
            mapping[i] = lookup.setdefault(cat, len(lookup))
        codes = values.codes
        if (codes < 0).any():  # missing: ""
            mapping[-1] = lookup.setdefault("", len(lookup))
        entry[1].append(mapping.astype(_code_type(len(lookup)))[codes])

    def _empty_text(self, name: str, rows: int) -> None:
        import numpy as np
        entry = self.cols[name]
        code = entry[2].setdefault("", len(entry[2]))
        entry[1].append(np.full(rows, code, dtype=_code_type(len(entry[2]))))

    def _grow(self, need: int) -> None:
        import numpy as np
        if need <= self.capacity:
            return
        self.capacity = max(need, int(self.capacity * 1.5) + 1024)
        for entry in self.cols.values():
            if entry[0] == "num":
                grown = np.empty(self.capacity)
                grown[:self.n] = entry[1][:self.n]
                entry[1] = grown

    def _to_text(self, name: str) -> None:
        """Turns numeric column name into text (the rows so far as their numbers' text)."""
        import pandas as pd
        values = as_text(pd.Series(self.cols[name][1][:self.n])).array
        self.cols[name] = ["text", [], {}]
        self._text(name, values)

    def add(self, chunk) -> None:
        import numpy as np
        import pandas as pd
        m = len(chunk)
        self._grow(self.n + m)
        for c in chunk.columns:
            col = chunk[c]
            is_text = isinstance(col.dtype, pd.CategoricalDtype) or col.dtype == object
            if c not in self.cols:
                if is_text:
                    self.cols[c] = ["text", [], {}]
                    if self.n:
                        self._empty_text(c, self.n)
                else:
                    self.cols[c] = ["num", np.empty(self.capacity)]
                    self.cols[c][1][:self.n] = np.nan
            entry = self.cols[c]
            if entry[0] == "num" and is_text:
                self._to_text(c)
                entry = self.cols[c]
            if entry[0] == "text":
                self._text(c, (col if isinstance(col.dtype, pd.CategoricalDtype) else as_text(col)).array)
            else:
                entry[1][self.n:self.n + m] = col.to_numpy(dtype=float)
        for c, entry in self.cols.items():
            if c not in chunk.columns:
                if entry[0] == "text":
                    self._empty_text(c, m)
                else:
                    entry[1][self.n:self.n + m] = np.nan
        self.n += m

    def truncate(self, n: int) -> None:
        """Forgets the rows from n on."""
        import numpy as np
        for entry in self.cols.values():
            if entry[0] == "text":
                codes = np.concatenate(entry[1])[:n] if entry[1] else np.empty(0, dtype=np.int32)
                entry[1] = [codes]
        self.n = min(self.n, n)

    def frame(self):
        """The rows as a DataFrame (the builder is emptied)."""
        import numpy as np
        import pandas as pd
        out = {}
        for c in list(self.cols):
            entry = self.cols.pop(c)
            if entry[0] == "num":
                v = entry[1]
                out[c] = v[:self.n] if self.capacity - self.n <= max(1024, self.n // 50) else v[:self.n].copy()
            else:
                codes = np.concatenate(entry[1]) if entry[1] else np.empty(0, dtype=np.int32)
                cats = sorted(entry[2], key=entry[2].get)
                out[c] = pd.Categorical.from_codes(codes, categories=pd.Index(cats, dtype=object))
            del entry
        return pd.DataFrame(out, copy=False) if out else pd.DataFrame(index=range(self.n))


def give_back_freed() -> None:
    """Hands the C heap's freed memory back to the system (glibc's malloc_trim). Columns parsed in
    chunks and converted one at a time free many blocks of a few megabytes, which glibc keeps for
    its next allocations: after reading three million rows the process still held 0.8 GB that no
    table used, after ten million 0.4 GB. Does nothing without glibc."""
    import ctypes
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)


def count_lines(path: str) -> int:
    """Newlines in a file: an upper bound of its CSV rows + 1 (a quoted field may hold one)."""
    n = 0
    with open(path, "rb") as f:
        while True:
            block = f.read(1 << 24)
            if not block:
                return n
            n += block.count(b"\n")


def as_text(col):
    """A column used as text, as a categorical of strings: a categorical as it is; numbers (a
    column typed from its values, without a schema) as their text (%.12g, as navbench writes
    them), missing as ""."""
    import numpy as np
    import pandas as pd
    if isinstance(col.dtype, pd.CategoricalDtype):
        return col
    if col.dtype == object:
        return _as_category(col.where(col.notna(), "").astype(str))
    v = col.to_numpy(dtype=float)
    missing = np.isnan(v)
    uniq = np.unique(v[~missing])
    text_codes, texts = pd.factorize(pd.Series([f"{x:.12g}" for x in uniq] + [""], dtype=object))
    codes = text_codes[np.where(missing, len(uniq), np.searchsorted(uniq, np.where(missing, 0.0, v)))]
    return pd.Series(pd.Categorical.from_codes(codes, categories=pd.Index(texts, dtype=object)),
                     index=col.index, name=col.name)


def take_rows(df, where, columns=None):
    """The rows of df at `where` (a boolean mask or positions), only `columns` (None: all), as a
    new frame built column by column. pandas' own row selection on a frame of separate columns
    first merges every same-typed column into one block: a copy of the whole frame."""
    import numpy as np
    import pandas as pd
    where = np.asarray(where)
    if where.dtype == bool:
        where = np.flatnonzero(where)
    out = {}
    for c in (columns if columns is not None else list(df.columns)):
        col = df[c]
        out[c] = col.array.take(where) if isinstance(col.dtype, pd.CategoricalDtype) else col.to_numpy().take(where)
    return pd.DataFrame(out, copy=False) if out else pd.DataFrame(index=range(len(where)))
