"""The index's embeddings: one array per part, memory-mapped from its ``vectors-<id>.npy``
file, used as one matrix (:class:`Vectors`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


def read_vectors(paths: list[Path]) -> Vectors:
    """The parts' vectors, memory-mapped (a cold search does not copy 150 MB of a large
    index before its first product; the page cache serves them)."""
    import numpy as np

    return Vectors([np.load(p, mmap_mode="r") for p in paths])


class Vectors:
    """The embeddings of every unit, one array per part (each stored by column, Fortran
    order: a matrix-vector product over 100k rows takes about half the time it takes over
    rows, 5 vs 8.5 ms), used as one matrix: ``vectors @ query``, ``vectors[rows]``."""

    def __init__(self, parts: list[np.ndarray]) -> None:
        self.parts = [p for p in parts if len(p)] or parts[:1]
        self._starts = [0]
        for p in self.parts:
            self._starts.append(self._starts[-1] + len(p))

    def __len__(self) -> int:
        return self._starts[-1]

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self), int(self.parts[0].shape[1]))

    def __matmul__(self, query: np.ndarray) -> np.ndarray:
        import numpy as np

        if len(self.parts) == 1:
            out: np.ndarray = self.parts[0] @ query
            return out
        return np.concatenate([p @ query for p in self.parts])

    def __getitem__(self, rows: Any) -> np.ndarray:
        import numpy as np

        if len(self.parts) == 1:
            return np.asarray(self.parts[0][rows])
        return np.asarray(self.__array__()[rows])

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        import numpy as np

        out = np.concatenate([np.asarray(p) for p in self.parts])
        return out if dtype is None else out.astype(dtype)
