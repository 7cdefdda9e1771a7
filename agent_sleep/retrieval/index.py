"""The derived search index, under ``.agent-sleep/index/`` in the workspace.

Markdown stays the truth: the index holds the recall units, their BM25 postings and their
embeddings, and can be deleted at any time (the next search rebuilds it). A manifest records the
size and mtime of every source file; a file whose stat changed is re-read, the others keep their
units. Embeddings are reused by content hash, so one new note costs one new embedding.

Units are stored in row order: daily logs by date, then MEMORY.md, then bank pages, so what
changes often (today's log, the consolidated memory) sits at the end. The rows are split into
parts, each a set of files of its own (units, BM25 postings, vectors, links between notes) that
never changes once written: a main part holding every daily log but the newest, and a tail part
holding the rest. A new note rewrites only the tail part (BM25 statistics are summed over the
parts at query time, so scores equal those of one index over everything); the tail is merged
into a new main part when it grows past ``TAIL_SHARE`` of the index, or when a change falls
inside the main part. Each write adds new part files and then swaps the manifest atomically, so a
reader never sees a half-written index; writers take a lock of their own (not the workspace lock,
so notes can still be taken while a large index builds).
"""

from __future__ import annotations

import bisect
import contextlib
import datetime as dt
import functools
import gc
import hashlib
import io
import json
import os
import stat
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, overload

from agent_sleep.core.log import progress, warn_once
from agent_sleep.core.workspace import Workspace, warn_skip
from agent_sleep.retrieval.bm25 import BM25, Segment, tokenize
from agent_sleep.retrieval.embed import Embedder, EmbedUnavailable
from agent_sleep.retrieval.units import Unit, iter_units

if TYPE_CHECKING:
    import numpy as np

VERSION = 3  # 3: parts, BM25 stored as term frequencies; 1 and 2 are read only to reuse them
TERMS = 2  # how BM25 terms are made (bm25.tokenize of Unit.indexed); a change re-tokenizes
MEANING = 2  # what is embedded (Unit.embedded; 1 was Unit.indexed); a change re-embeds
MANIFEST = "manifest.json"
PROGRESS_EVERY = 256  # embeddings between progress lines on stderr
PROGRESS_MIN = 512  # no progress lines for small jobs
TAIL_SHARE = 0.1  # a tail part larger than this share of all units is merged into the main part
TAIL_MIN = 4096  # units a tail part may always hold

_embedders: dict[str, Embedder | None] = {}
_loaded: dict[Path, Loaded] = {}
# Parts are never changed once written, so the parsed parts of the index last read are kept
# (by folder, then part id): re-reading the index after a new note parses only the new tail.
# An entry is used only while its units file keeps the stat it had when parsed.
_parsed: dict[Path, dict[str, tuple[os.stat_result, list[str], Sequence[list[Any]], Segment]]] = {}
_links: dict[Path, dict[str, dict[str, Any]]] = {}


@dataclass(frozen=True)
class Part:
    """One written part of the index: its file id, units and source files (in row order)."""

    id: str
    units: int
    files: int


@dataclass
class Loaded:
    """An index in memory: units, their sources, BM25, and vectors (None without a model)."""

    generation: str
    files: dict[str, list[int]]  # in row order: [mtime_ns, size, units]
    units: Sequence[Unit]
    sources: Sequence[tuple[str, ...]]
    hashes: list[str]
    bm25: BM25
    vectors: np.ndarray | None
    model: str | None
    terms: int = 1
    meaning: int = 1
    version: int = VERSION
    folder: Path | None = None
    parts: tuple[Part, ...] = ()
    _tokens: dict[str, list[str]] = field(default_factory=dict)

    @property
    def tokens(self) -> list[str]:
        """BM25 terms of every unit (space-joined), read from the parts' files."""
        return self.token_rows(0, len(self.units))

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
            if self.folder is None:
                raise FileNotFoundError("index tokens")
            path = self.folder / f"tokens-{part.id}.json"
            raw = path.read_bytes().decode("utf-8", "surrogateescape")
            self._tokens[part.id] = json.loads(raw)
        return self._tokens[part.id]

    def part_vectors(self) -> list[tuple[int, np.ndarray]]:
        """(first row, vectors memory-mapped from the file) of each part: an update reads
        only the rows it reuses."""
        import numpy as np

        if self.folder is None or self.model is None:
            return []
        out = []
        at = 0
        for p in self.parts:
            out.append((at, np.load(self.folder / f"vectors-{p.id}.npy", mmap_mode="r")))
            at += p.units
        return out


@dataclass(frozen=True)
class Report:
    units: int
    embedded: int
    files_read: int
    model: str | None
    seconds: float
    path: Path


def index_dir(ws: Workspace) -> Path:
    return ws.state_dir / "index"


def scan(ws: Workspace) -> dict[str, list[int]]:
    """Source files relative to the root -> [mtime_ns, size], in row order (daily logs by
    date, then MEMORY.md, then bank pages: see the module doc). Runs before every search, so
    it stays on ``os.scandir`` entries and plain strings (pathlib per file doubled a search)."""
    logs: list[tuple[str, str]] = []
    bank: list[tuple[str, str]] = []
    for folder in (ws.memory_dir, ws.entities_dir, ws.concepts_dir):
        prefix = folder.relative_to(ws.root).as_posix() + "/"
        dated = folder == ws.memory_dir
        into = logs if dated else bank
        with contextlib.suppress(FileNotFoundError, NotADirectoryError), os.scandir(folder) as it:
            for e in it:
                name = e.name
                if name.endswith(".md") and (not dated or _is_log_name(name)):
                    into.append((prefix + name, e.path))
    logs.sort()
    bank.sort()
    out: dict[str, list[int]] = {}
    for rel, path in (*logs, ("MEMORY.md", str(ws.memory_md)), *bank):
        try:
            st = os.stat(path)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode):
            warn_skip(Path(path), "not a file")
            continue
        out[rel] = [st.st_mtime_ns, st.st_size]
    return out


@functools.lru_cache(maxsize=4096)
def _is_log_name(name: str) -> bool:
    day = name.removesuffix(".md")
    try:
        return dt.date.fromisoformat(day).isoformat() == day
    except ValueError:
        return False


def embedder(ws: Workspace) -> Embedder | None:
    """The embedding model, loaded once per process; None (after one warning) without it."""
    from agent_sleep.retrieval.embed import MODEL_ENV, load_embedder

    key = os.environ.get(MODEL_ENV, "")
    if key not in _embedders:
        try:
            _embedders[key] = load_embedder(ws.state_dir / "model")
        except EmbedUnavailable as e:
            warn_once(f"{e}; recall uses BM25 only")
            _embedders[key] = None
    return _embedders[key]


def open_index(ws: Workspace, *, vectors: bool = True) -> Loaded:
    """The index, brought up to date with the files first if needed."""
    current = scan(ws)
    cached = _loaded.get(ws.root)
    want_model = vectors and embedder_available(ws)
    if cached is not None and _fresh(cached, current, want_model):
        return cached
    _loaded.pop(ws.root, None)
    loaded = _read(ws)
    if loaded is None or not _fresh(loaded, current, want_model):
        loaded = None  # update reads it again; two copies of a large index would not fit
        update(ws, vectors=vectors)
        loaded = _read(ws)
        if loaded is None:
            raise RuntimeError("the index could not be read back after building it")
    _loaded[ws.root] = loaded
    return loaded


def embedder_available(ws: Workspace) -> bool:
    return embedder(ws) is not None


def _fresh(loaded: Loaded, current: dict[str, list[int]], want_model: bool) -> bool:
    if loaded.version != VERSION or loaded.terms != TERMS:
        return False
    if {k: v[:2] for k, v in loaded.files.items()} != current:
        return False
    return not want_model or (loaded.model is not None and loaded.meaning == MEANING)


def update(ws: Workspace, *, vectors: bool = True, full: bool = False) -> Report:
    """Bring the index up to date (``full``: re-read every file and re-embed everything)."""
    start = time.monotonic()
    folder = index_dir(ws)
    ws.confine(folder)
    folder.mkdir(parents=True, exist_ok=True)
    with _writer_lock(folder):
        for stale in folder.glob(".*.tmp"):  # left by a build that was killed; we hold the lock
            stale.unlink(missing_ok=True)
        current = scan(ws)
        old = None if full else _read(ws, vectors=False)
        model = embedder(ws) if vectors else None
        if old is not None and _fresh(old, current, model is not None):
            _prune(folder, old.parts)  # a writer killed after its manifest swap left them
            return Report(len(old.units), 0, 0, old.model, time.monotonic() - start, folder)
        name = model.name if model is not None else None
        done = _update_tail(ws, folder, current, old, model) if old is not None else None
        if done is None:
            olds = [old]
            del old  # _rewrite drops it once its records are copied
            done = _rewrite(ws, folder, current, olds, model)
        units, embedded, read = done
    _loaded.pop(ws.root, None)
    return Report(units, embedded, read, name, time.monotonic() - start, folder)


def _reusable(old: Loaded, model: str | None) -> bool:
    return old.terms == TERMS and (model is None or (old.model == model and old.meaning == MEANING))


def _rewrite(
    ws: Workspace,
    folder: Path,
    current: dict[str, list[int]],
    olds: list[Loaded | None],
    model: Embedder | None,
) -> tuple[int, int, int]:
    """Write every unit anew (reusing what the old index holds for unchanged files) as a main
    part, every daily log but the newest, and a tail part, the rest."""
    name = model.name if model is not None else None
    items = [(rel, st[0], st[1]) for rel, st in current.items()]
    old = olds.pop()
    records, hashes, tokens, texts, files, read = _collect(ws, items, old, name)
    old_hashes, old_vectors = _old_vectors(old, name)
    del old  # its records and tokens are copied into ours
    _parsed.pop(folder, None)
    _links.pop(folder, None)
    vecs, embedded = _vectors(hashes, texts, old_hashes, old_vectors, model)
    del texts, old_hashes, old_vectors
    _add_sources(records, {})
    logs = [i for i, rel in enumerate(files) if rel.startswith("memory/")]
    head = logs[-1] if logs else 0  # files in the main part: every daily log but the newest
    split = sum(c for _, _, c in list(files.values())[:head])
    bounds = [(0, split, head), (split, len(records), len(files) - head)] if head else []
    parts = [
        (records[lo:hi], hashes[lo:hi], tokens[lo:hi], _rows(vecs, lo, hi), n)
        for lo, hi, n in bounds or [(0, len(records), len(files))]
    ]
    del records, tokens, vecs
    _write(ws, folder, files, (), parts, model)
    return len(hashes), embedded, read


def _update_tail(
    ws: Workspace,
    folder: Path,
    current: dict[str, list[int]],
    old: Loaded,
    model: Embedder | None,
) -> tuple[int, int, int] | None:
    """Rewrite only the parts from the first changed file on, keeping the ones before it;
    None when that would not give what a full rewrite gives, or the rewritten part would be
    too large (the caller then rewrites everything)."""
    name = model.name if model is not None else None
    if old.version != VERSION or not _reusable(old, name):
        return None
    old_items = list(old.files.items())
    items = [(rel, st[0], st[1]) for rel, st in current.items()]
    first = 0
    for (rel, st), (rel2, mtime, size) in zip(old_items, items, strict=False):
        if rel != rel2 or st[:2] != [mtime, size]:
            break
        first += 1
    kept: list[Part] = []
    kept_files = kept_rows = 0
    for p in old.parts:
        if kept_files + p.files > first:
            break
        kept.append(p)
        kept_files += p.files
        kept_rows += p.units
    if not kept:
        return None
    records, hashes, tokens, texts, files, read = _collect(ws, items[kept_files:], old, name)
    if len(records) > max(TAIL_MIN, TAIL_SHARE * (kept_rows + len(records))):
        return None
    links = [_read_links(folder, p) for p in kept]
    cited = set().union(*(set(link["cites"]) for link in links))
    dropped = (_record(old.units, i)[_IDS] for i in range(kept_rows, len(old.units)))
    touched = {i for r in records for i in r[_IDS]}.union(*dropped)
    if cited & touched:  # a kept unit cites a note whose refs may have changed
        return None
    refs_of: dict[str, Sequence[str]] = {}
    for link in links:
        refs_of.update(link["refs"])
    old_hashes, old_vectors = _old_vectors(old, name)
    vecs, embedded = _vectors(hashes, texts, old_hashes, old_vectors, model)
    _add_sources(records, refs_of)
    all_files = dict(old_items[:kept_files])
    all_files.update(files)
    tail = [(records, hashes, tokens, vecs, len(files))]
    _write(ws, folder, all_files, tuple(kept), tail, model)
    return kept_rows + len(records), embedded, read


def _rows(vecs: np.ndarray | None, lo: int, hi: int) -> np.ndarray | None:
    return None if vecs is None else vecs[lo:hi]


def _old_vectors(
    old: Loaded | None, model: str | None
) -> tuple[list[str], list[tuple[int, np.ndarray]]]:
    """Hashes of the old rows, and the old parts' vectors (first row, rows) to copy from."""
    if old is None or model is None or old.model != model:
        return [], []
    return old.hashes, old.part_vectors()


def _collect(
    ws: Workspace, items: list[tuple[str, int, int]], old: Loaded | None, model: str | None
) -> tuple[list[list[Any]], list[str], list[str], dict[int, str], dict[str, list[int]], int]:
    """Unit records (``_FIELDS``) of the files ``items`` (rel, mtime, size), their hashes and
    BM25 terms, and the text to embed of the units read (by row, only with a model): reused for
    unchanged files, read for the others. Units are kept as records from the start: a ``Unit``
    with its context string costs several times more, and a large log holds hundreds of
    thousands of them.

    Stored units carry no ``context`` nor ``meaning`` (only the terms and the hash of the
    embedded text are kept), so an index built without vectors, with another model, other
    terms or another embedded text cannot be reused when those are now needed."""
    slices: dict[str, tuple[int, int]] = {}
    if old is not None and _reusable(old, model):
        at = 0
        for rel, (_mtime, _size, count) in old.files.items():
            slices[rel] = (at, at + count)
            at += count
    records: list[list[Any]] = []
    hashes: list[str] = []
    tokens: list[str] = []
    texts: dict[int, str] = {}
    files: dict[str, list[int]] = {}
    read = 0
    for rel, mtime, size in items:
        if old is not None and rel in slices and old.files[rel][:2] == [mtime, size]:
            lo, hi = slices[rel]
            records += [_record(old.units, i) for i in range(lo, hi)]
            hashes += old.hashes[lo:hi]
            tokens += old.token_rows(lo, hi)
            count = hi - lo
        else:
            first = len(records)
            for u in iter_units(rel, ws.read_text(ws.root / rel)):
                if model is not None:
                    texts[len(records)] = u.embedded
                records.append([getattr(u, f) for f in _FIELDS])
                hashes.append(_hash(u))
                tokens.append(" ".join(tokenize(u.indexed)))
            count = len(records) - first
            read += 1
        files[rel] = [mtime, size, count]
    return records, hashes, tokens, texts, files, read


def _record(units: Sequence[Unit], i: int) -> list[Any]:
    if isinstance(units, _Units):
        return list(units.record(i)[: len(_FIELDS)])
    u = units[i]
    return [getattr(u, f) for f in _FIELDS]


def _hash(unit: Unit) -> str:
    return hashlib.sha1(unit.embedded.encode("utf-8", "surrogateescape")).hexdigest()[:20]


def _vectors(
    hashes: list[str],
    texts: dict[int, str],
    old_hashes: list[str],
    old_parts: list[tuple[int, np.ndarray]],
    model: Embedder | None,
) -> tuple[np.ndarray | None, int]:
    """Vectors by row: reused by hash from the old index's parts (first row, vectors), embedded
    from ``texts`` otherwise (a row not reused is always one whose file was read, so its text
    is there)."""
    if model is None:
        return None, 0
    import numpy as np

    out = np.zeros((len(hashes), model.dim), dtype=np.float32)
    known = {h: r for r, h in enumerate(old_hashes)} if old_parts else {}
    rows: list[int] = []
    old_rows: list[int] = []
    todo: dict[str, list[int]] = {}
    for row, h in enumerate(hashes):
        r = known.get(h)
        if r is None:
            todo.setdefault(h, []).append(row)
        else:
            rows.append(row)
            old_rows.append(r)
    del known
    if rows:
        new_at, old_at = np.asarray(rows), np.asarray(old_rows)
        for first, vecs in old_parts:
            mine = (old_at >= first) & (old_at < first + len(vecs))
            if mine.any():
                out[new_at[mine]] = vecs[old_at[mine] - first]
    pending = list(todo.items())
    shown = len(pending) >= PROGRESS_MIN
    for start in range(0, len(pending), PROGRESS_EVERY):
        part = pending[start : start + PROGRESS_EVERY]
        vecs = model.embed_documents([texts[rows[0]] for _, rows in part])
        for (_, rows), vec in zip(part, vecs, strict=True):
            out[rows] = vec
        if shown:
            done = min(start + PROGRESS_EVERY, len(pending))
            progress(f"indexing: embedded {done}/{len(pending)} new units")
    return out, len(pending)


def _add_sources(records: list[list[Any]], refs_of: dict[str, Sequence[str]]) -> None:
    """Append to each record its note ids, outside refs and cited ids, with the refs of the
    notes it cites (``refs_of``: the refs of notes in rows before these, by id)."""
    for r in records:
        for i in r[_IDS]:
            refs_of[i] = r[_REFS]
    for r in records:
        cited_refs = [x for c in r[_CITES] for x in refs_of.get(c, ())]
        r.append(list(dict.fromkeys([*r[_IDS], *r[_REFS], *r[_CITES], *cited_refs])))


@contextlib.contextmanager
def _writer_lock(folder: Path) -> Iterator[None]:
    path = folder / "lock"
    try:
        import fcntl
    except ImportError:
        import filelock

        with filelock.FileLock(str(path) + ".portable"):
            yield
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


_FIELDS = ("kind", "path", "text", "date", "ids", "refs", "cites", "section", "time")
_IDS, _REFS, _CITES = (_FIELDS.index(k) for k in ("ids", "refs", "cites"))
_HEADER = b'{"hashes":'  # the units file of this writer: hashes, then one record per line
_OPEN = b',"units":[\n'
NewPart = tuple[list[list[Any]], list[str], list[str], "np.ndarray | None", int]


def _write(
    ws: Workspace,
    folder: Path,
    files: dict[str, list[int]],
    kept: tuple[Part, ...],
    new: list[NewPart],
    model: Embedder | None,
) -> None:
    """Write the ``new`` parts (records, hashes, terms, vectors, number of files), then the
    manifest listing ``kept`` and them, then remove the files of parts no longer listed."""
    import numpy as np

    parts = list(kept)
    for n, (records, hashes, tokens, vecs, nfiles) in enumerate(new):
        pid = hashlib.sha1(f"{time.time_ns()}-{os.getpid()}-{n}".encode()).hexdigest()[:12]
        _write_chunks(ws, folder / f"units-{pid}.json", _units_json(records, hashes))
        _write_chunks(ws, folder / f"tokens-{pid}.json", _list_json(tokens))
        segment = Segment.build(t.split() for t in tokens)
        buf = io.BytesIO()
        np.savez(buf, vocab=np.array(segment.terms(), dtype=str), **segment.arrays())
        _write_bytes(ws, folder / f"bm25-{pid}.npz", buf.getvalue())
        del buf, segment
        if vecs is not None:
            with _atomic(ws, folder / f"vectors-{pid}.npy") as f:
                np.save(f, np.asfortranarray(vecs))
        links = {
            "refs": {i: r[_REFS] for r in records for i in r[_IDS]},
            "cites": sorted({c for r in records for c in r[_CITES]}),
        }
        _write_bytes(ws, folder / f"links-{pid}.json", _dumps(links))
        parts.append(Part(pid, len(records), nfiles))
    manifest = {
        "version": VERSION,
        "generation": parts[-1].id,
        "model": model.name if model is not None else None,
        "units": sum(p.units for p in parts),
        "terms": TERMS,
        "meaning": MEANING,
        "files": files,
        "parts": [[p.id, p.units, p.files] for p in parts],
    }
    _write_bytes(ws, folder / MANIFEST, json.dumps(manifest).encode())
    _prune(folder, parts)


def _prune(folder: Path, parts: Iterable[Part]) -> None:
    """Remove the files of parts the manifest does not list (replaced ones, or those of a
    write that was killed)."""
    live = {p.id for p in parts}
    for old in folder.iterdir():
        name = old.name
        if "-" in name and old.suffix in (".json", ".npz", ".npy") and _part_id(name) not in live:
            old.unlink(missing_ok=True)


def _part_id(name: str) -> str:
    return name.split("-", 1)[1].split(".")[0]


def _read_links(folder: Path, part: Part) -> dict[str, Any]:
    known = _links.setdefault(folder, {})
    if part.id not in known:
        raw = (folder / f"links-{part.id}.json").read_bytes().decode("utf-8", "surrogateescape")
        known[part.id] = json.loads(raw)
    return known[part.id]


CHUNK = 4096  # records or tokens encoded at a time


def _dumps(value: Any) -> bytes:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8", "surrogateescape")


def _units_json(records: list[list[Any]], hashes: list[str]) -> Iterator[bytes]:
    """``{"hashes":[...],"units":[...]}`` with one record per line (JSON escapes newlines in
    strings), so a reader can decode only the records it shows."""
    yield _HEADER + _dumps(hashes) + _OPEN
    for lo in range(0, len(records), CHUNK):
        last = lo + CHUNK >= len(records)
        part = b",\n".join(_dumps(r) for r in records[lo : lo + CHUNK])
        yield part + (b"\n" if last else b",\n")
    yield b"]}"


def _list_json(items: list[str]) -> Iterator[bytes]:
    yield b"["
    for lo in range(0, len(items), CHUNK):
        yield (b"," if lo else b"") + _dumps(items[lo : lo + CHUNK])[1:-1]
    yield b"]"


def _write_bytes(ws: Workspace, path: Path, data: bytes) -> None:
    _write_chunks(ws, path, [data])


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


class _Lines(Sequence[list[Any]]):
    """The records of a units file written one per line, decoded on access."""

    def __init__(self, raw: bytes, starts: np.ndarray) -> None:
        self._raw = raw
        self._starts = starts  # offset of each record's line, then of the closing line

    def __len__(self) -> int:
        return len(self._starts) - 1

    @overload
    def __getitem__(self, i: int) -> list[Any]: ...

    @overload
    def __getitem__(self, i: slice) -> list[list[Any]]: ...

    def __getitem__(self, i: int | slice) -> list[Any] | list[list[Any]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        line = self._raw[int(self._starts[i]) : int(self._starts[i + 1]) - 1].rstrip(b",")
        value: list[Any] = json.loads(line.decode("utf-8", "surrogateescape"))
        return value


class _Units(Sequence[Unit]):
    """Units built from their stored records on first access: a search touches a few hundred
    of them, and building 100k dataclasses up front would dominate a cold start."""

    def __init__(self, records: Sequence[list[Any]]) -> None:
        self._records = records
        self._built: dict[int, Unit] = {}

    def record(self, i: int) -> list[Any]:
        return self._records[i]

    def __len__(self) -> int:
        return len(self._records)

    @overload
    def __getitem__(self, i: int) -> Unit: ...

    @overload
    def __getitem__(self, i: slice) -> list[Unit]: ...

    def __getitem__(self, i: int | slice) -> Unit | list[Unit]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        unit = self._built.get(i)
        if unit is None:
            values: dict[str, Any] = dict(
                zip(_FIELDS, self._records[i][: len(_FIELDS)], strict=True)
            )
            for key in ("ids", "refs", "cites"):
                values[key] = tuple(values[key])
            unit = self._built[i] = Unit(**values)
        return unit


class _Sources(Sequence[tuple[str, ...]]):
    def __init__(self, records: Sequence[list[Any]], width: int) -> None:
        self._records = records
        self._width = width

    def __len__(self) -> int:
        return len(self._records)

    @overload
    def __getitem__(self, i: int) -> tuple[str, ...]: ...

    @overload
    def __getitem__(self, i: slice) -> list[tuple[str, ...]]: ...

    def __getitem__(self, i: int | slice) -> tuple[str, ...] | list[tuple[str, ...]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return tuple(self._records[i][self._width])


class _Chain(Sequence[list[Any]]):
    """The records of several parts as one sequence."""

    def __init__(self, parts: list[Sequence[list[Any]]]) -> None:
        self._parts = parts
        self._starts = [0]
        for p in parts:
            self._starts.append(self._starts[-1] + len(p))

    def __len__(self) -> int:
        return self._starts[-1]

    @overload
    def __getitem__(self, i: int) -> list[Any]: ...

    @overload
    def __getitem__(self, i: slice) -> list[list[Any]]: ...

    def __getitem__(self, i: int | slice) -> list[Any] | list[list[Any]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        p = bisect.bisect_right(self._starts, i) - 1
        return self._parts[p][i - self._starts[p]]


def _read(ws: Workspace, *, vectors: bool = True) -> Loaded | None:
    """The index as last written, or None when missing, unreadable or of another version
    (``vectors=False``: without the vectors, which ``Loaded.part_vectors`` still reaches)."""
    folder = index_dir(ws)
    for _ in range(3):  # a writer may swap generations between our reads
        try:
            return _read_once(folder, vectors)
        except FileNotFoundError:
            continue
        except (OSError, ValueError, KeyError, TypeError):
            return None
    return None


def _read_once(folder: Path, with_vectors: bool = True) -> Loaded | None:
    import numpy as np

    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    version = manifest.get("version")
    if version not in (1, 2, VERSION):
        return None
    width = len(_FIELDS) + (1 if version == 1 else 0)  # v1 also stored the context
    if version == VERSION:
        parts = tuple(Part(str(p), int(u), int(f)) for p, u, f in manifest["parts"])
    else:  # one generation of files, read only to reuse its units and vectors
        parts = (Part(manifest["generation"], manifest["units"], len(manifest["files"])),)
    hashes: list[str] = []
    chunks: list[Sequence[list[Any]]] = []
    segments = []
    known = _parsed.get(folder, {})
    parsed = {}
    for p in parts:
        st = os.stat(folder / f"units-{p.id}.json")
        hit = known.get(p.id)
        if hit is not None and (hit[0].st_mtime_ns, hit[0].st_size) == (st.st_mtime_ns, st.st_size):
            _, part_hashes, part_records, segment = hit
        else:
            part_hashes, part_records = _read_units(folder / f"units-{p.id}.json")
            if len(part_records) != p.units or len(part_hashes) != p.units:
                return None
            if version != VERSION:  # read only to reuse units and vectors; never searched
                hashes, chunks = part_hashes, [part_records]
                break
            with np.load(folder / f"bm25-{p.id}.npz") as z:
                arrays = {k: z[k] for k in ("indptr", "docs", "tfs", "lengths")}
                vocab = z["vocab"].tolist()
            segment = Segment.from_arrays(vocab, arrays)
            if segment.count != p.units:
                return None
        parsed[p.id] = (st, part_hashes, part_records, segment)
        hashes += part_hashes
        chunks.append(part_records)
        segments.append(segment)
    records = chunks[0] if len(chunks) == 1 else _Chain(chunks)
    if version == VERSION:
        _parsed[folder] = parsed
        _links[folder] = {k: v for k, v in _links.get(folder, {}).items() if k in parsed}
    vectors = None
    if manifest["model"] and with_vectors:
        vectors = _read_vectors([folder / f"vectors-{p.id}.npy" for p in parts])
    units, sources = _Units(records), _Sources(records, width)
    if len(units) != manifest["units"] or (vectors is not None and len(vectors) != len(units)):
        return None
    return Loaded(
        generation=manifest["generation"],
        files=manifest["files"],
        units=units,
        sources=sources,
        hashes=hashes,
        bm25=BM25.of(segments),
        vectors=vectors,
        model=manifest["model"],
        terms=manifest.get("terms", 1),
        meaning=manifest.get("meaning", 1),
        version=version,
        folder=folder,
        parts=parts,
    )


def _read_units(path: Path) -> tuple[list[str], Sequence[list[Any]]]:
    data = path.read_bytes()
    lines = _lines(data)
    if lines is not None:
        return lines
    raw = data.decode("utf-8", "surrogateescape")  # one JSON document (before the line layout)
    del data
    enabled = gc.isenabled()
    gc.disable()  # the collector would rescan the growing records many times over
    try:
        meta = json.loads(raw)
        # The records hold no cycles (refcounting frees them); keep later collections from
        # rescanning them on every search.
        gc.freeze()
    finally:
        if enabled:
            gc.enable()
    return meta["hashes"], meta["units"]


def _read_vectors(paths: list[Path]) -> np.ndarray:
    """The parts' vectors read into one array (no second copy of the large part), stored by
    column (Fortran order): the search's matrix-vector product over 100k rows then takes
    about half the time it takes over rows (5 vs 8.5 ms, same values within float rounding)."""
    import numpy as np

    if len(paths) == 1:
        return np.asfortranarray(np.load(paths[0]))
    maps = [np.load(p, mmap_mode="r") for p in paths]
    out = np.empty((sum(len(m) for m in maps), maps[0].shape[1]), dtype=np.float32, order="F")
    at = 0
    for m in maps:
        out[at : at + len(m)] = m
        at += len(m)
    return out


def _lines(data: bytes) -> tuple[list[str], _Lines] | None:
    """The hashes and lazily decoded records of a units file in the line layout, or None for
    another layout. Only the hashes are decoded now: a search reads a few hundred records, and
    decoding a large log's records up front would cost several times the file in memory."""
    import numpy as np

    first = data.find(b"\n")
    if not data.startswith(_HEADER) or first < 0 or not data[: first + 1].endswith(_OPEN):
        return None
    if not data.endswith(b"\n]}"):
        raise ValueError("truncated units file")
    hashes = json.loads(data[len(_HEADER) : first + 1 - len(_OPEN)].decode("utf-8"))
    view = np.frombuffer(data, dtype=np.uint8)
    step = 1 << 24  # a byte mask of the whole file would double it in memory
    starts = np.concatenate(
        [np.flatnonzero(view[lo : lo + step] == 10) + (lo + 1) for lo in range(0, len(view), step)]
    )
    return hashes, _Lines(data, starts)
