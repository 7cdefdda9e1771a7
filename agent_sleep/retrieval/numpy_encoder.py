"""all-MiniLM-L6-v2's encoder in numpy: a process's first queries, before onnxruntime is loaded.

A cold search embeds one short query. Importing onnxruntime and creating its session take
about 0.2 s, since the session copies and lays out every weight it holds, while a query of a
dozen word pieces needs a few tens of milliseconds of arithmetic. So a process's first queries
run the same layers here, on the weights memory-mapped from ``model.safetensors``: nothing is
copied, and the pages are those the OS already caches. The layers are those ``onnx_export``
writes (post-LayerNorm BERT, exact GELU); tests hold the token states to the graph's and to
sentence-transformers' within 1e-5. onnxruntime remains the engine for batches (documents at
index time) and, once loaded, for queries too: it runs one faster than numpy does
(``embed.NUMPY_TEXTS`` says when a process switches).

Only numpy is imported, inside the functions.
"""

from __future__ import annotations

import contextlib
import json
import math
import mmap
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

_DTYPES = {"F32": "<f4", "F16": "<f2"}
_HEADER_MAX = 100_000_000


# numpy's BLAS (OpenBLAS in its wheels) runs a product on every core. On 2 cores shared with
# other work, a search's products (a query's layers, the sketch, the shortlist's cosines) waited
# for the second thread, which then spun on the core the next step needed: warm recall at 100k
# notes took 24 ms against 11-13 ms on one thread, and the numpy encoder's query up to 0.7 s
# against 12 ms (throwaway timings, references/recall.md). Those products are small or
# memory-bound, so one thread loses little even on a quiet machine.
_blas: tuple[Callable[[], int], Callable[[int], None]] | None | bool = False
_blas_lock = threading.Lock()
_blas_depth = 0
_blas_saved = 1


def _openblas() -> tuple[Callable[[], int], Callable[[int], None]] | None:
    """(get, set) of the thread count of the OpenBLAS numpy loaded, or None (another BLAS,
    or not found: then nothing is changed)."""
    global _blas
    if _blas is not False:
        return _blas  # type: ignore[return-value]
    _blas = None
    import ctypes

    import numpy as np

    paths: list[str] = []
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError), open("/proc/self/maps", encoding="utf-8") as f:
            paths = list(dict.fromkeys(ln.split()[-1] for ln in f if "openblas" in ln.lower()))
    if not paths:
        libs = Path(np.__file__).resolve().parent.parent / "numpy.libs"
        paths = [str(p) for p in sorted(libs.glob("*openblas*"))] if libs.is_dir() else []
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for prefix in ("scipy_openblas", "openblas"):
            for suffix in ("64_", ""):
                get = getattr(lib, f"{prefix}_get_num_threads{suffix}", None)
                put = getattr(lib, f"{prefix}_set_num_threads{suffix}", None)
                if get is not None and put is not None:
                    get.restype, get.argtypes = ctypes.c_int, []
                    put.restype, put.argtypes = None, [ctypes.c_int]
                    _blas = (get, put)
                    return _blas
    return None


def blas_loaded_on_one_thread() -> None:
    """Say that numpy's BLAS was loaded on one thread (``OPENBLAS_NUM_THREADS=1``, as the
    CLI does): ``one_blas_thread`` then has nothing to switch and looks for no library."""
    global _blas
    _blas = None


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """numpy's OpenBLAS on one thread inside the block (nested and concurrent blocks
    included), restored to what it was after the last one ends."""
    global _blas_depth, _blas_saved
    api = _openblas()
    if api is None:
        yield
        return
    get, put = api
    with _blas_lock:
        if _blas_depth == 0:
            _blas_saved = get()
            if _blas_saved != 1:
                put(1)
        _blas_depth += 1
    try:
        yield
    finally:
        with _blas_lock:
            _blas_depth -= 1
            if _blas_depth == 0 and _blas_saved != 1:
                put(_blas_saved)


def read_tensors(weights: Path, names: Sequence[str] | None = None) -> dict[str, np.ndarray]:
    """The float tensors of a safetensors file, memory-mapped, by name (a ``bert.`` prefix
    dropped), or only those of ``names``. Raises ``ValueError`` (or ``OSError``) when the
    header is not what the format says: its size, JSON, dtypes, or offsets against shapes and
    the file's length."""
    import numpy as np

    with open(weights, "rb") as f:
        size = int.from_bytes(f.read(8), "little")
        if not 0 < size <= _HEADER_MAX:
            raise ValueError(f"a header of {size} bytes")
        header = json.loads(f.read(size))
        length = f.seek(0, 2)
        # one mapping for every tensor (an np.memmap each costs a third of a millisecond)
        data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    if not isinstance(header, dict):
        raise ValueError("the header is not a JSON object")
    out: dict[str, np.ndarray] = {}
    for key, info in header.items():
        name = key.removeprefix("bert.")
        if key == "__metadata__" or (names is not None and name not in names):
            continue
        if not isinstance(info, dict) or info.get("dtype") not in _DTYPES:
            continue  # integer buffers (position ids) are not weights
        dtype = np.dtype(_DTYPES[info["dtype"]])
        start, end = (int(x) for x in info["data_offsets"])
        shape = tuple(int(x) for x in info["shape"])
        if min(shape, default=1) <= 0 or end - start != math.prod(shape) * dtype.itemsize:
            raise ValueError(f"the size of {key} does not match its shape")
        if not 0 <= start <= end <= length - 8 - size:
            raise ValueError(f"{key} lies beyond the end of the file")
        count = math.prod(shape)
        out[name] = np.frombuffer(data, dtype, count, 8 + size + start).reshape(shape)
    missing = [n for n in names or () if n not in out]
    if missing:
        raise ValueError(f"no {missing[0]}")
    return out


class NumpyEncoder:
    """The BERT encoder of ``onnx_export``'s graph, one text at a time, in numpy float32."""

    def __init__(self, tensors: Mapping[str, np.ndarray], config: Mapping[str, Any]) -> None:
        import numpy as np

        if config.get("hidden_act", "gelu") != "gelu":
            raise ValueError(f"activation {config.get('hidden_act')!r} (only exact gelu runs here)")
        self.hidden = int(config["hidden_size"])
        self.heads = int(config["num_attention_heads"])
        self.eps = np.float32(config.get("layer_norm_eps", 1e-12))
        self.layers = int(config["num_hidden_layers"])

        def get(name: str) -> np.ndarray:
            t = tensors[name]  # KeyError: a weight the architecture needs is missing
            return t if t.dtype == np.float32 else t.astype(np.float32)

        # a missing weight or a table of another width means another architecture: fail now
        for i in range(self.layers):
            if get(f"encoder.layer.{i}.output.dense.weight").shape[0] != self.hidden:
                raise ValueError(f"layer {i} is not {self.hidden} wide")
        self._w = {
            name: get(name)
            for name in tensors
            if name.startswith(("embeddings.", "encoder.layer."))
            and name != "embeddings.word_embeddings.weight"
        }
        self.word = tensors["embeddings.word_embeddings.weight"]  # the graph's input too

    def states(self, ids: Sequence[int]) -> np.ndarray:
        """The last layer's token states of one tokenized text (tokens × hidden), not
        normalized: what the graph's ``tokens`` output holds for it. numpy's BLAS runs on one
        thread meanwhile (``one_blas_thread``)."""
        with one_blas_thread():
            return self._states(ids)

    def _states(self, ids: Sequence[int]) -> np.ndarray:
        import numpy as np

        w, n = self._w, len(ids)
        x = np.asarray(self.word[np.asarray(ids, dtype=np.int64)], dtype=np.float32)
        x = x + w["embeddings.position_embeddings.weight"][:n]
        x += w["embeddings.token_type_embeddings.weight"][0]
        x = self._norm(x, "embeddings.LayerNorm")
        heads, size = self.heads, self.hidden // self.heads
        scale = np.float32(1.0 / math.sqrt(size))
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            q, k, v = (
                self._dense(x, p + f"attention.self.{name}").reshape(n, heads, size)
                for name in ("query", "key", "value")
            )
            scores = np.matmul(q.transpose(1, 0, 2), k.transpose(1, 2, 0))
            scores *= scale
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            ctx = np.matmul(scores, v.transpose(1, 0, 2)).transpose(1, 0, 2).reshape(n, -1)
            x = self._norm(self._dense(ctx, p + "attention.output.dense") + x,
                           p + "attention.output.LayerNorm")  # fmt: skip
            inner = _gelu(self._dense(x, p + "intermediate.dense"))
            x = self._norm(self._dense(inner, p + "output.dense") + x, p + "output.LayerNorm")
        return x

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        out: np.ndarray = x @ self._w[name + ".weight"].T
        out += self._w[name + ".bias"]
        return out

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        x = x - x.mean(axis=-1, keepdims=True)
        var = (x * x).mean(axis=-1, keepdims=True)
        x /= (var + self.eps) ** 0.5
        x *= self._w[name + ".weight"]
        x += self._w[name + ".bias"]
        return x


def _gelu(x: np.ndarray) -> np.ndarray:
    """Exact GELU, x·Φ(x), with erf by Abramowitz and Stegun 7.1.26 (absolute error under
    1.5e-7, below float32's resolution of the result; numpy has no erf of its own)."""
    import numpy as np

    f = np.float32
    a = np.abs(x) * f(1 / math.sqrt(2))
    t = f(1) / (f(1) + f(0.3275911) * a)
    poly = ((((f(1.061405429) * t - f(1.453152027)) * t + f(1.421413741)) * t - f(0.284496736))
            * t + f(0.254829592)) * t  # fmt: skip
    tail = f(0.5) * poly * np.exp(-a * a)  # 1 - Φ(|x|)
    out: np.ndarray = np.where(x >= 0, x - x * tail, x * tail)
    return out
