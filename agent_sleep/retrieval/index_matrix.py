"""The index's embeddings: one array per part, memory-mapped from its ``vectors-<id>.npy``
file, used as one matrix (:class:`Vectors`).

A shallow search of a large index reads every vector for a handful of hits: 150 MB at 100k
units, a quarter of a warm search or more. From the second search of a process over
``SKETCH_FROM`` units or more, :meth:`Vectors.cosines` ranks by a sketch first: every vector
projected on the ``SKETCH_DIM`` leading principal directions of the embeddings (their
uncentred second moment, from an even sample of rows), 38 MB at 100k. The ``shortlist`` rows
the sketch ranks best, and the rows the caller names (BM25's candidates), get their exact
cosine; every other row reads ``UNSEEN``, below any cosine. bench_speed prints how often the
exact best 50 are all in a shortlist of 4 × 50; bench_sketch, the same on real text.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_sleep.retrieval.numpy_encoder import one_blas_thread
from agent_sleep.retrieval.signals import top, union

if TYPE_CHECKING:
    import numpy as np

SKETCH_FROM = 20_000  # units: below, a full product costs about what the sketch saves
SKETCH_DIM = 96  # bench/bench_sketch.py: 48 and 64 lose more of the best rows on real text
SKETCH_SAMPLE = 8192  # rows the principal directions are computed from
UNSEEN = -2.0  # the cosine a row outside the shortlist reads


def read_vectors(paths: list[Path], sketch: Sketch | None = None) -> Vectors:
    """The parts' vectors, memory-mapped (a cold search does not copy 150 MB of a large
    index before its first product; the page cache serves them), with the sketch stored
    beside them when there is one (``sketch``: the basis, and each part's rows projected)."""
    import numpy as np

    return Vectors([np.load(p, mmap_mode="r") for p in paths], sketch)


def sample_rows(n: int) -> np.ndarray:
    """The rows the principal directions of ``n`` vectors are computed from (an even spread)."""
    import numpy as np

    return union(np.linspace(0, n - 1, min(n, SKETCH_SAMPLE)).astype(np.int64))


def sketch_basis(sample: np.ndarray) -> np.ndarray:
    """The ``SKETCH_DIM`` leading principal directions (uncentred) of the rows ``sample``."""
    import numpy as np

    with one_blas_thread():
        _, vectors = np.linalg.eigh(sample.T.astype(np.float64) @ sample)
    return np.ascontiguousarray(vectors[:, ::-1][:, :SKETCH_DIM], dtype=np.float32)


def project(part: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """A part's rows on the sketch's basis, stored by column as the vectors are."""
    import numpy as np

    with one_blas_thread():
        out = np.asfortranarray(part) @ basis
    return np.asfortranarray(out, dtype=np.float32)


Sketch = tuple["np.ndarray", list["np.ndarray"]]  # the basis, each part's projected rows


class Vectors:
    """The embeddings of every unit, one array per part (each stored by column, Fortran
    order: a matrix-vector product over 100k rows takes about half the time it takes over
    rows, 5 vs 8.5 ms), used as one matrix: ``vectors @ query``, ``vectors[rows]``."""

    def __init__(self, parts: list[np.ndarray], stored: Sketch | None = None) -> None:
        keep = [i for i, p in enumerate(parts) if len(p)] or [0][: len(parts)]
        self.parts = [parts[i] for i in keep]
        self._starts = [0]
        for p in self.parts:
            self._starts.append(self._starts[-1] + len(p))
        self._searches = 0
        self._sketch: Sketch | None = None  # (basis, projected rows of each part)
        if stored is not None and len(stored[1]) == len(parts):
            self._stored: Sketch | None = (stored[0], [stored[1][i] for i in keep])
        else:
            self._stored = None

    def cosines(self, query: np.ndarray, shortlist: int, exact: np.ndarray) -> np.ndarray:
        """``self @ query``, or, from the second call over a large index with ``shortlist``
        > 0, exact only for the ``shortlist`` rows the sketch ranks best and for the rows
        ``exact``, ``UNSEEN`` elsewhere (see the module doc). numpy's BLAS runs on one thread
        meanwhile (``numpy_encoder.one_blas_thread``)."""
        with one_blas_thread():
            return self._cosines(query, shortlist, exact)

    def _cosines(self, query: np.ndarray, shortlist: int, exact: np.ndarray) -> np.ndarray:
        import numpy as np

        n = len(self)
        self._searches += 1
        if shortlist <= 0 or n < SKETCH_FROM or shortlist >= n // 8:
            return self @ query
        if self._sketch is None:
            stored = self._stored
            if stored is not None and stored[0].shape[1] == SKETCH_DIM:
                self._sketch = stored  # written with the index: used from the first search
            elif self._searches < 2:
                return self @ query  # building one costs more than a product
            else:
                self._sketch = self._build_sketch()
        basis, projected = self._sketch
        reduced = query @ basis
        if len(projected) == 1:
            estimate = projected[0] @ reduced
        else:
            estimate = np.concatenate([p @ reduced for p in projected])
        best = top(estimate, shortlist)
        rows = union(best, exact)
        out = np.full(n, UNSEEN, dtype=np.float32)
        out[rows] = self[rows] @ query
        return out

    def _build_sketch(self) -> Sketch:
        import numpy as np

        basis = sketch_basis(self[sample_rows(len(self))])
        projected = np.asfortranarray(np.concatenate([p @ basis for p in self.parts]))
        return basis, [projected.astype(np.float32, copy=False)]

    def __len__(self) -> int:
        return self._starts[-1]

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self), int(self.parts[0].shape[1]))

    def __matmul__(self, query: np.ndarray) -> np.ndarray:
        import numpy as np

        with one_blas_thread():
            if len(self.parts) == 1:
                out: np.ndarray = self.parts[0] @ query
                return out
            return np.concatenate([p @ query for p in self.parts])

    def __getitem__(self, rows: Any) -> np.ndarray:
        """The vectors of ``rows``: an array of row numbers (any order) is gathered part by
        part, through each part's transpose (a part is stored by column); any other key
        reads the whole matrix first."""
        import numpy as np

        if len(self.parts) == 1 and not isinstance(rows, np.ndarray):
            return np.asarray(self.parts[0][rows])
        if not (isinstance(rows, np.ndarray) and rows.ndim == 1 and rows.dtype.kind in "iu"):
            return np.asarray(self.__array__()[rows])
        out = np.empty((len(rows), self.shape[1]), dtype=self.parts[0].dtype)
        owner = np.searchsorted(self._starts, rows, side="right") - 1
        for i, (part, start) in enumerate(zip(self.parts, self._starts, strict=False)):
            at = np.flatnonzero(owner == i)
            if len(at):
                out[at] = part.T[:, rows[at] - start].T
        return out

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        import numpy as np

        out = np.concatenate([np.asarray(p) for p in self.parts])
        return out if dtype is None else out.astype(dtype)
