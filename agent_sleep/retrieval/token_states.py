"""The token-state cache: MiniLM's last-layer token vectors of units, by content hash.

Deep recall re-scores its best candidates by late interaction over these states (see
``rerank``). They cost a model run per unit, so they are kept twice: in memory (int8,
least recently used first out past ``memory_bytes``) and on disk under
``.agent-sleep/tokens/<model key>/<hash>.npy`` beside the index (one file per unit, written
whole then renamed into place, oldest files removed past ``disk_bytes``), so the next process
finds them. A state is int8, each row scaled to its largest component (half the bytes of
float16; every row is a unit vector, so ``dequantize`` renormalises it), on disk and in memory
alike, so a state computed in this process scores exactly as the one a later process reads;
the rerank converts a request's states to float32 in one pass (from float16, the conversion
took twice as long as the int8 one and its row norms together). The model key holds the
weights' fingerprint: a configured model folder of the same name never reads another model's
states. Deleting the folder loses nothing.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from agent_sleep.retrieval.embed import Embedder

MEMORY_BYTES = 128 << 20
DISK_BYTES = 256 << 20


def model_key(model: Embedder) -> str:
    """The model's name and weights (a configured folder keeps the name, not the weights)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", f"{model.name}-{model.fingerprint}")


def folder_of(index_folder: Path, model: Embedder) -> Path:
    """Where the states of ``model`` live for the index in ``index_folder``."""
    return index_folder.parent / "tokens" / model_key(model)


class TokenStates:
    """Token states by ``model key|hash``, in memory and (given a folder) on disk; safe to
    share between threads."""

    def __init__(self, memory_bytes: int = MEMORY_BYTES, disk_bytes: int = DISK_BYTES) -> None:
        self.memory_bytes = memory_bytes
        self.disk_bytes = disk_bytes
        self.memory: OrderedDict[str, np.ndarray] = OrderedDict()
        self.used = 0  # bytes held in memory
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self.memory.clear()
            self.used = 0

    def get(
        self,
        folder: Path | None,
        who: str,
        hashes: Sequence[str],
        texts: Callable[[list[int]], list[str]],
        embed: Callable[[list[str]], list[np.ndarray]],
    ) -> list[np.ndarray]:
        """The states of the units whose content hashes are ``hashes``: from memory, else
        from ``folder``, else ``embed(texts(positions))`` (stored in both)."""
        keys = [f"{who}|{h}" for h in hashes]
        with self._lock:
            missing = list(dict.fromkeys(k for k in keys if k not in self.memory))
        found = read_states(folder, missing) if folder is not None else {}
        todo = [k for k in missing if k not in found]
        if todo:
            first = {k: i for i, k in reversed(list(enumerate(keys)))}
            made = embed(texts([first[k] for k in todo]))
            packed = {k: quantize(v) for k, v in zip(todo, made, strict=True)}
            if folder is not None:
                self._write_packed(folder, packed)
            found.update(packed)
        with self._lock:
            for key in missing:
                if key not in self.memory:
                    self.memory[key] = found[key]
                    self.used += found[key].nbytes
            out = []
            for key in keys:
                self.memory.move_to_end(key)
                out.append(self.memory[key])
            while self.used > self.memory_bytes and len(self.memory) > len(keys):
                _, old = self.memory.popitem(last=False)
                self.used -= old.nbytes
        return out

    def write(self, folder: Path, fresh: dict[str, np.ndarray]) -> None:
        """Each unit's states (float, rows of unit length) in a file of its own, as int8."""
        self._write_packed(folder, {k: quantize(v) for k, v in fresh.items()})

    def _write_packed(self, folder: Path, fresh: dict[str, np.ndarray]) -> None:
        """Written whole then renamed into place; past ``disk_bytes`` the oldest files go. A
        cache: any failure only skips it."""
        import numpy as np

        try:
            folder.mkdir(parents=True, exist_ok=True)
            for key, v in fresh.items():
                path = folder / (key.split("|", 1)[1] + ".npy")
                tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
                with open(tmp, "wb") as f:
                    np.save(f, v, allow_pickle=False)
                os.replace(tmp, path)
            entries = []
            for e in os.scandir(folder):
                st = e.stat()
                entries.append((st.st_mtime_ns, st.st_size, e.path))
        except OSError:
            return
        total = sum(size for _, size, _ in entries)
        if total <= self.disk_bytes:
            return
        for _, size, name in sorted(entries):
            with contextlib.suppress(OSError):
                os.unlink(name)
            total -= size
            if total <= self.disk_bytes * 0.8:
                break


def read_states(folder: Path, keys: list[str]) -> dict[str, np.ndarray]:
    """The stored token states of ``keys`` found in ``folder``; an unreadable file is a miss.
    A deep request reads hundreds of these small files: each is read in one call and its
    header matched against the one ``np.save`` writes for an int8 matrix (``np.load`` parses
    it with ``ast``, about ten times the cost of the read); any other header goes through
    ``np.load``. Each is returned as an int8 copy of its own."""
    import numpy as np

    got: list[tuple[str, np.ndarray]] = []
    for key in keys:
        path = folder / (key.split("|", 1)[1] + ".npy")
        try:
            with open(path, "rb", buffering=0) as f:
                data = f.readall()
            v = _int8_matrix(data)
        except (OSError, ValueError, EOFError):
            continue
        if v is not None and v.dtype == np.int8 and v.ndim == 2 and len(v):
            got.append((key, v))
    # copies, not views of the bytes read: the cache holds each state apart
    return {key: np.array(v, dtype=np.int8) for key, v in got}


_NPY_INT8 = re.compile(
    rb"\{'descr': '\|i1', 'fortran_order': False, 'shape': \((\d+), (\d+)\), \} *\n"
)


def _int8_matrix(data: bytes) -> np.ndarray | None:
    """The int8 matrix of an ``.npy`` file's bytes (format 1.0, as ``np.save`` writes one);
    another layout or dtype through ``np.load``; ValueError when the file is damaged."""
    import io

    import numpy as np

    if data[:8] == b"\x93NUMPY\x01\x00" and len(data) >= 10:
        end = 10 + int.from_bytes(data[8:10], "little")
        m = _NPY_INT8.fullmatch(data, 10, end)
        if m is not None:
            rows, cols = int(m[1]), int(m[2])
            if len(data) - end != rows * cols:
                raise ValueError("a token-state file of the wrong size")
            return np.frombuffer(data, np.int8, rows * cols, end).reshape(rows, cols)
    out: np.ndarray = np.load(io.BytesIO(data), allow_pickle=False)
    return out


def quantize(states: np.ndarray) -> np.ndarray:
    """int8 rows, each scaled so its largest component is ±127."""
    import numpy as np

    v = np.asarray(states, dtype=np.float32)
    peak = np.maximum(np.abs(v).max(axis=1, keepdims=True), 1e-12)
    out: np.ndarray = np.rint(v * (127.0 / peak)).astype(np.int8)
    return out


def dequantize(packed: np.ndarray) -> np.ndarray:
    """The float32 unit rows of int8 ``packed`` (the scale is lost, the direction kept)."""
    import numpy as np

    v = packed.astype(np.float32)
    v /= row_norms(v)[:, None]
    return v


def row_norms(v: np.ndarray) -> np.ndarray:
    """Each row's length (at least 1e-12) of a float32 matrix."""
    import numpy as np

    out: np.ndarray = np.maximum(np.sqrt(np.einsum("ij,ij->i", v, v)), 1e-12)
    return out


STATES = TokenStates()  # the process's cache, shared by every workspace and thread
