"""The files of the search index: how its parts are written, read back and locked.

A part is a set of files that never changes once written (its id in every name):

- ``units-<id>.json``: ``{"hashes":[...],"units":[...]}`` with one unit record per line, so a
  reader decodes only the records a search shows,
- ``tokens-<id>.json``: the BM25 terms of each unit (space-joined),
- ``bm25-<id>.bin``: the part's BM25 postings (``bm25.Segment``), which rows are windows, and
  where each record's line starts in the units file: arrays laid out one after the other
  behind a JSON header (``_pack``), so a reader maps the file and copies nothing,
- ``vectors-<id>.npy``: one embedding per unit (only with a model),
- ``sketch-<id>.bin``: the sketch's basis and the part's vectors projected on it
  (``index_matrix``; only for an index of ``SKETCH_FROM`` units or more, every part on one
  basis: the one the parts kept use, or one computed from all the vectors at a rewrite),
- ``links-<id>.json``: the refs of each note id and the ids the part's units cite.

``manifest.json`` lists the live parts; a writer adds new part files, swaps the manifest
atomically, then removes the files no longer listed. Only this release's layout is read: an
index of another version is rebuilt (it is derived data), reusing by content hash the vectors
of one of the previous version (``legacy_vectors``).
"""

from __future__ import annotations

import bisect
import contextlib
import gc
import hashlib
import json
import math
import mmap
import os
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from agent_sleep.core.errors import StorageError
from agent_sleep.core.storage import file_lock
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval import index_matrix, units
from agent_sleep.retrieval.bm25 import BM25, Segment, sorted_terms
from agent_sleep.retrieval.index_matrix import (
    Sketch,
    Vectors,
    project,
    read_vectors,
    sample_rows,
    sketch_basis,
)
from agent_sleep.retrieval.index_records import (
    HEADER,
    MEANING,
    OPEN,
    TERMS,
    VERSION,
    Chain,
    Hashes,
    Manifest,
    NewPart,
    ParsedPart,
    Part,
    Record,
    SourcesView,
    UnitsView,
    parse_lines,
    stored_lines,
)
from agent_sleep.retrieval.units import WINDOW, Unit

if TYPE_CHECKING:
    import numpy as np

MANIFEST = "manifest.json"
CHUNK = 4096  # records or tokens encoded at a time
SUFFIXES = (".json", ".bin", ".npy", ".npz")  # of part files (.npz: those of version 4)
ALIGN = 64  # each array of a bm25-<id>.bin starts at a multiple of this

# Parts are never changed once written, so the parsed parts of the index last read are kept
# (by folder, then part id): re-reading the index after a new note parses only the new tail.
# An entry is used only while its units file keeps the stat it had when parsed.
_parsed: dict[Path, dict[str, ParsedPart]] = {}
_links: dict[Path, dict[str, dict[str, Any]]] = {}


class IndexUnreadable(StorageError):
    """The index cannot be read back (delete ``.agent-sleep/index/``; the next search rebuilds)."""


@dataclass
class Loaded:
    """An index in memory: units, their sources, BM25, and vectors (None without a model)."""

    generation: str
    files: dict[str, list[int]]  # in row order: [mtime_ns, size, units]
    records: Sequence[Record]
    hashes: Sequence[str]
    bm25: BM25
    vectors: Vectors | None
    model: str | None
    folder: Path
    parts: tuple[Part, ...] = ()
    windows: np.ndarray | None = None  # bool by row: a window unit (None: there are none)
    window_config: tuple[int, int] = (0, 0)  # how the units were split (units.WINDOW_*)
    split: int = 1  # units.SPLIT when written
    pending: int = 0  # units whose vectors are left for a later update (rows of zeros)
    units: Sequence[Unit] = ()
    sources: Sequence[tuple[str, ...]] = ()
    _tokens: dict[str, list[str]] = field(default_factory=dict)
    _file_rows: tuple[list[int], list[str]] | None = None
    _stamps: dict[str, list[int]] | None = None

    @property
    def stamps(self) -> dict[str, list[int]]:
        """Each file's [mtime_ns, size] as indexed, the shape ``scan`` returns (built once: a
        search compares it with the files on disk)."""
        if self._stamps is None:
            self._stamps = {k: v[:2] for k, v in self.files.items()}
        return self._stamps

    def __post_init__(self) -> None:
        self.units = UnitsView(self.records)
        self.sources = SourcesView(self.records)

    def path_of(self, row: int) -> str:
        """The file of the unit at ``row`` without decoding its record (rows run file by file,
        in ``files`` order): the session prior asks it of every candidate."""
        if self._file_rows is None:
            starts, paths, at = [], [], 0
            for path, (_, _, count) in self.files.items():
                if count:
                    starts.append(at)
                    paths.append(path)
                    at += count
            self._file_rows = (starts, paths)
        starts, paths = self._file_rows
        return paths[bisect.bisect_right(starts, row) - 1]

    def shown(self, row: int) -> list[int]:
        """The rows a unit stands for: itself, or a window's notes (the rows of its span,
        windows left out)."""
        windows = self.windows
        if windows is None or not windows[row]:
            return [row]
        span = self.records[row].span
        return [r for r in range(row - span, row) if not windows[r]]

    @property
    def tokens(self) -> list[str]:
        """BM25 terms of every unit (space-joined), read from the parts' files."""
        return self.token_rows(0, len(self.records))

    def token_rows(self, lo: int, hi: int) -> list[str]:
        out: list[str] = []
        at = 0
        for p in self.parts:
            if at < hi and lo < at + p.units:
                out += self._part_tokens(p)[max(lo - at, 0) : hi - at]
            at += p.units
        return out

    def _part_tokens(self, part: Part) -> list[str]:
        if part.id not in self._tokens:
            path = self.folder / f"tokens-{part.id}.json"
            try:
                raw = path.read_bytes().decode("utf-8", "surrogateescape")
                self._tokens[part.id] = json.loads(raw)
            except (OSError, ValueError) as e:
                raise IndexUnreadable(
                    f"cannot read {path}: {e}; run `agent-sleep reindex --full`"
                ) from e
        return self._tokens[part.id]

    def part_vectors(self) -> list[tuple[int, np.ndarray]]:
        """(first row, vectors memory-mapped from the file) of each part: an update reads
        only the rows it reuses."""
        import numpy as np

        if self.model is None:
            return []
        out = []
        at = 0
        for p in self.parts:
            out.append((at, np.load(self.folder / f"vectors-{p.id}.npy", mmap_mode="r")))
            at += p.units
        return out


@contextlib.contextmanager
def no_cycle_collection() -> Iterator[None]:
    """The cyclic garbage collector off for a block that allocates many small objects and
    no cycles (parsing and indexing notes, the backlog scan): each collection they set off
    walks the whole heap, a large share of the work in a process holding a large index."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def writer_lock(folder: Path) -> contextlib.AbstractContextManager[None]:
    """The index writers' own lock (not the workspace lock: notes can be taken meanwhile)."""
    return file_lock(folder / "lock")


def write(
    ws: Workspace,
    folder: Path,
    files: dict[str, list[int]],
    kept: tuple[Part, ...],
    new: list[NewPart],
    model: str | None,
    pending: int = 0,
) -> None:
    """Write the ``new`` parts, then the manifest listing ``kept`` and them, then remove the
    files of parts no longer listed."""
    import numpy as np

    parts = list(kept)
    basis = _basis(folder, kept, new)
    for n, part in enumerate(new):
        pid = hashlib.sha1(f"{time.time_ns()}-{os.getpid()}-{n}".encode()).hexdigest()[:12]
        starts: list[int] = []
        units_json = _units_json(part.records, part.hashes, starts)
        _write_chunks(ws, folder / f"units-{pid}.json", units_json)
        _write_chunks(ws, folder / f"tokens-{pid}.json", _list_json(part.tokens))
        segment = Segment.build(t.split() for t in part.tokens)
        windows = np.array([r.kind == WINDOW for r in part.records], dtype=bool)
        arrays = {
            **segment.arrays(),
            "windows": windows,
            "lines": np.array(starts, dtype=np.int64),
            "vocab": np.array(segment.terms(), dtype=str),
        }
        _write_chunks(ws, folder / f"bm25-{pid}.bin", _pack(arrays))
        del segment, arrays
        if part.vectors is not None:
            with _atomic(ws, folder / f"vectors-{pid}.npy") as f:
                np.save(f, np.asfortranarray(part.vectors))
            if basis is not None:
                rows = project(part.vectors, basis).T  # (dim, units), C order: stored as is
                sketch = {"basis": basis, "rows": rows}
                _write_chunks(ws, folder / f"sketch-{pid}.bin", _pack(sketch))
                del rows, sketch
        links = {
            "refs": {i: r.refs for r in part.records for i in r.ids},
            "cites": sorted({c for r in part.records for c in r.cites}),
        }
        _write_chunks(ws, folder / f"links-{pid}.json", [_dumps(links)])
        parts.append(Part(pid, len(part.records), part.files))
    manifest = {
        "version": VERSION,
        "generation": parts[-1].id,
        "model": model,
        "units": sum(p.units for p in parts),
        "terms": TERMS,
        "meaning": MEANING,
        "windows": [units.WINDOW_NOTES, units.WINDOW_STRIDE],
        "split": units.SPLIT,
        "pending": pending,
        "files": files,
        "parts": [[p.id, p.units, p.files] for p in parts],
    }
    _write_chunks(ws, folder / MANIFEST, [json.dumps(manifest).encode()])
    prune(folder, parts)


def _basis(folder: Path, kept: tuple[Part, ...], new: list[NewPart]) -> np.ndarray | None:
    """The sketch basis the new parts are projected on: that of the parts kept (None when
    one of them has no sketch), or, with none kept, the one the whole index's vectors give
    (as ``Vectors`` would build it in memory); None below ``SKETCH_FROM`` units or without
    vectors."""
    import numpy as np

    total = sum(p.units for p in kept) + sum(len(p.records) for p in new)
    if not new or any(p.vectors is None for p in new) or total < index_matrix.SKETCH_FROM:
        return None
    if kept:
        stored = read_sketch(folder, kept)
        return None if stored is None else stored[0]
    vectors = [p.vectors for p in new if p.vectors is not None and len(p.vectors)]
    rows = sample_rows(total)
    starts = np.cumsum([0] + [len(v) for v in vectors])
    owner = np.searchsorted(starts, rows, side="right") - 1
    sample = np.concatenate(
        [np.asarray(v[rows[owner == i] - starts[i]]) for i, v in enumerate(vectors)]
    )
    return sketch_basis(sample.astype(np.float32, copy=False))


def read_sketch(folder: Path, parts: Sequence[Part]) -> Sketch | None:
    """The stored sketch of ``parts`` (the basis, each part's projected rows by column), or
    None when one has none, they do not share one basis, or one cannot be read: a search
    then builds the sketch in memory, as before."""
    import numpy as np

    basis = None
    rows = []
    try:
        for p in parts:
            arrays = _unpack(_mapped(folder / f"sketch-{p.id}.bin"))
            b, r = arrays["basis"], arrays["rows"]
            dim = index_matrix.SKETCH_DIM
            if b.ndim != 2 or b.shape[1] != dim or r.shape != (dim, p.units):
                return None
            if basis is None:
                basis = b
            elif not np.array_equal(b, basis):
                return None
            rows.append(r.T)
    except (OSError, ValueError, KeyError):
        return None
    return None if basis is None else (basis, rows)


def prune(folder: Path, parts: Iterable[Part]) -> None:
    """Remove the files of parts the manifest does not list (replaced ones, or those of a
    write that was killed)."""
    live = {p.id for p in parts}
    for old in folder.iterdir():
        name = old.name
        if "-" in name and old.suffix in SUFFIXES and part_id(name) not in live:
            with contextlib.suppress(OSError):  # still mapped by a reader (Windows): next time
                old.unlink(missing_ok=True)


def part_id(name: str) -> str:
    return name.split("-", 1)[1].split(".")[0]


def forget(folder: Path) -> None:
    """Drop what was parsed from ``folder`` (a full rewrite replaces every part)."""
    _parsed.pop(folder, None)
    _links.pop(folder, None)


def read_links(folder: Path, part: Part) -> dict[str, Any]:
    known = _links.setdefault(folder, {})
    if part.id not in known:
        raw = (folder / f"links-{part.id}.json").read_bytes().decode("utf-8", "surrogateescape")
        known[part.id] = json.loads(raw)
    return known[part.id]


def _dumps(value: Any) -> bytes:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8", "surrogateescape")


def _units_json(records: list[Record], hashes: list[str], starts: list[int]) -> Iterator[bytes]:
    """``{"hashes":[...],"units":[...]}`` with one record per line (JSON escapes newlines in
    strings), so a reader can decode only the records it shows; ``starts`` gets the offset of
    each record's line, then of the closing line."""
    head = HEADER + _dumps(hashes) + OPEN
    at = len(head)
    yield head
    for lo in range(0, len(records), CHUNK):
        last = lo + CHUNK >= len(records)
        lines = [_dumps(r.row()) for r in records[lo : lo + CHUNK]]
        for line in lines:
            starts.append(at)
            at += len(line) + 2  # and ",\n", or "\n" after the last (one byte less: below)
        part = b",\n".join(lines)
        yield part + (b"\n" if last else b",\n")
    if records:
        at -= 1
    starts.append(at)
    yield b"]}"


def _pack(arrays: dict[str, np.ndarray]) -> Iterator[bytes]:
    """Arrays as one file: the length of a JSON header (8 bytes, little-endian), the header
    (each array's dtype, shape and offset from the end of the header), then the arrays, each
    from a multiple of ``ALIGN`` (``_unpack`` maps them back without copying)."""
    header: dict[str, Any] = {}
    at = 0
    for name, a in arrays.items():
        at = -(-at // ALIGN) * ALIGN
        header[name] = [a.dtype.str, list(a.shape), at]
        at += a.nbytes
    text = json.dumps(header).encode()
    text += b" " * (-(8 + len(text)) % ALIGN)
    yield len(text).to_bytes(8, "little") + text
    written = 0
    for (_, _, offset), a in zip(header.values(), arrays.values(), strict=True):
        if offset > written:
            yield b"\0" * (offset - written)
        yield a.tobytes()
        written = offset + a.nbytes


def _unpack(data: mmap.mmap | bytes) -> dict[str, np.ndarray]:
    """The arrays of a ``_pack``ed file (views of ``data``); ``ValueError`` when its header
    does not fit the file."""
    import numpy as np

    size = int.from_bytes(data[:8], "little")
    if not 0 < size <= len(data) - 8:
        raise ValueError("an arrays file of another layout")
    header = json.loads(bytes(data[8 : 8 + size]))
    if not isinstance(header, dict):
        raise ValueError("an arrays file of another layout")
    out = {}
    try:
        for name, (dtype, shape, offset) in header.items():
            dt = np.dtype(dtype)
            count = math.prod(int(n) for n in shape)
            start = 8 + size + int(offset)
            if dt.hasobject or count < 0 or start < 8 + size:
                raise ValueError(f"{name}: an array of another layout")
            if start + count * dt.itemsize > len(data):
                raise ValueError(f"{name} lies beyond the end of the arrays file")
            out[name] = np.frombuffer(data, dt, count, start).reshape(shape)
    except TypeError as e:  # a header of another shape
        raise ValueError(f"an arrays file of another layout: {e}") from e
    return out


def _list_json(items: list[str]) -> Iterator[bytes]:
    yield b"["
    for lo in range(0, len(items), CHUNK):
        yield (b"," if lo else b"") + _dumps(items[lo : lo + CHUNK])[1:-1]
    yield b"]"


def _write_chunks(ws: Workspace, path: Path, chunks: Iterable[bytes]) -> None:
    with _atomic(ws, path) as f:
        for chunk in chunks:
            f.write(chunk)


@contextlib.contextmanager
def _atomic(ws: Workspace, path: Path) -> Iterator[BinaryIO]:
    """A temp file beside ``path``, fsynced and renamed over it when the block succeeds,
    removed when it fails."""
    target = ws.confine(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def read(folder: Path, *, vectors: bool = True) -> Loaded | None:
    """The index as last written, or None when missing, unreadable or of another version
    (``vectors=False``: without the vectors, which ``Loaded.part_vectors`` still reaches)."""
    for _ in range(3):  # a writer may swap generations between our reads
        try:
            return _read_once(folder, vectors)
        except FileNotFoundError:
            continue
        except (OSError, ValueError):
            return None
    return None


def _read_once(folder: Path, with_vectors: bool = True) -> Loaded | None:
    manifest = Manifest.parse(json.loads((folder / MANIFEST).read_text(encoding="utf-8")))
    hashes: list[Hashes] = []
    chunks: list[Sequence[Record]] = []
    segments = []
    masks = []
    known = _parsed.get(folder, {})
    parsed = {}
    for p in manifest.parts:
        st = os.stat(folder / f"units-{p.id}.json")
        hit = known.get(p.id)
        if hit is None or (hit.stat.st_mtime_ns, hit.stat.st_size) != (st.st_mtime_ns, st.st_size):
            hit = _read_part(folder, p, st)
            if hit is None:
                return None
        parsed[p.id] = hit
        hashes.append(hit.hashes)
        chunks.append(hit.records)
        segments.append(hit.segment)
        masks.append(hit.windows)
    records = chunks[0] if len(chunks) == 1 else Chain(chunks)
    _parsed[folder] = parsed
    _links[folder] = {k: v for k, v in _links.get(folder, {}).items() if k in parsed}
    vectors = None
    if manifest.model and with_vectors:
        sketch = read_sketch(folder, manifest.parts)
        paths = [folder / f"vectors-{p.id}.npy" for p in manifest.parts]
        vectors = read_vectors(paths, sketch)
    if len(records) != manifest.units or (vectors is not None and len(vectors) != len(records)):
        return None
    return Loaded(
        generation=manifest.generation,
        files=manifest.files,
        records=records,
        hashes=hashes[0] if len(hashes) == 1 else Hashes.concat(hashes),
        bm25=BM25.of(segments),
        vectors=vectors,
        model=manifest.model,
        folder=folder,
        parts=manifest.parts,
        windows=_windows(masks),
        window_config=manifest.windows,
        split=manifest.split,
        pending=manifest.pending,
    )


def _windows(masks: list[np.ndarray]) -> np.ndarray | None:
    """Which rows are window units, or None when none is."""
    import numpy as np

    if not any(m.any() for m in masks):
        return None
    return np.concatenate(masks)


def _read_part(folder: Path, p: Part, st: os.stat_result) -> ParsedPart | None:
    data = _mapped(folder / f"units-{p.id}.json")
    arrays = _unpack(_mapped(folder / f"bm25-{p.id}.bin"))
    try:
        postings = {k: arrays[k] for k in ("indptr", "docs", "tfs", "lengths")}
        vocab = sorted_terms(arrays["vocab"])
        windows, starts = arrays["windows"], arrays["lines"]
    except KeyError as e:
        raise ValueError(f"an arrays file without {e}") from e
    if len(starts) != p.units + 1:
        return None
    part_hashes, part_records = stored_lines(data, starts)
    if len(part_records) != p.units or len(part_hashes) != p.units:
        return None
    segment = Segment.from_arrays(vocab, postings)
    if segment.count != p.units or len(windows) != p.units:
        return None
    return ParsedPart(st, part_hashes, part_records, segment, windows)


def _mapped(path: Path) -> mmap.mmap:
    """A read-only mapping of a part's file: a part never changes once written (a new one is
    renamed in), so mapping it is safe."""
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size == 0:
            raise ValueError(f"{path.name} is empty")
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)


def legacy_vectors(folder: Path, model: str | None) -> tuple[Hashes, list[tuple[int, Any]]]:
    """The unit hashes and vectors (first row, rows) of an index of the previous version
    (4), when it holds vectors of ``model`` for the same embedded texts: a rebuild into this
    version reuses them instead of embedding every unit again. Nothing when there is no such
    index or it cannot be read."""
    import numpy as np

    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("version") != LEGACY_VERSION:
            return Hashes([]), []
        if model is None or data.get("model") != model or data.get("meaning") != MEANING:
            return Hashes([]), []
        hashes, parts, at = [], [], 0
        for pid, count, _files in data["parts"]:
            raw = _mapped(folder / f"units-{pid}.json")
            part_hashes, _ = parse_lines(raw)
            vectors = np.load(folder / f"vectors-{pid}.npy", mmap_mode="r")
            if len(part_hashes) != count or vectors.shape[0] != count:
                return Hashes([]), []
            part_hashes.decoded()
            hashes.append(part_hashes)
            parts.append((at, vectors))
            at += count
        return Hashes.concat(hashes), parts
    except (OSError, ValueError, TypeError, KeyError):
        return Hashes([]), []


LEGACY_VERSION = 4
