"""The derived search index, under ``.agent-sleep/index/`` in the workspace.

Markdown stays the truth: the index holds the recall units, their BM25 postings and their
embeddings, and can be deleted at any time (the next search rebuilds it). A manifest records the
size and mtime of every source file; a file whose stat changed is re-read, the others keep their
units. Embeddings are reused by content hash, so one new note costs one new embedding.

Units are stored in row order: daily logs by date, then MEMORY.md, then bank pages, so what
changes often (today's log, the consolidated memory) sits at the end. The rows are split into
parts (``index_store``: files that never change once written): a main part holding every daily
log but the newest, and a tail part holding the rest. A new note rewrites only the tail part
(BM25 statistics are summed over the parts at query time, so scores equal those of one index
over everything); the tail is merged into a new main part when it grows past ``TAIL_SHARE`` of
the index, or when a change falls inside the main part. Each write adds new part files and then
swaps the manifest atomically, so a reader never sees a half-written index; writers take a lock
of their own (not the workspace lock, so notes can still be taken while a large index builds).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import functools
import hashlib
import os
import stat
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_sleep.core.errors import AgentSleepError
from agent_sleep.core.log import warn_once
from agent_sleep.core.workspace import Workspace, warn_skip
from agent_sleep.retrieval import units
from agent_sleep.retrieval.bm25 import tokenize
from agent_sleep.retrieval.embed import Embedder, EmbedUnavailable
from agent_sleep.retrieval.index_store import (
    MANIFEST,
    MEANING,
    TERMS,
    VERSION,
    IndexUnreadable,
    Loaded,
    NewPart,
    Part,
    Record,
    forget,
    legacy_vectors,
    no_cycle_collection,
    part_id,
    prune,
    read_links,
    write,
    writer_lock,
)
from agent_sleep.retrieval.units import WINDOW, Unit, iter_units

if TYPE_CHECKING:
    from types import ModuleType

    # updates only: a search of an index up to date does not import them
    from agent_sleep.retrieval.index_vectors import Collected, Job, Progress

__all__ = [
    "MANIFEST", "MEANING", "TERMS", "VERSION", "IndexUnreadable", "Loaded", "Part", "Record",
    "Report", "embedder", "embedder_available", "index_dir", "open_index", "scan", "update",
]  # fmt: skip

TAIL_SHARE = 0.1  # a tail part larger than this share of all units is merged into the main part
TAIL_MIN = 4096  # units a tail part may always hold
DEFER_FROM = 512  # a search leaves more units than this to embed to a background job (~2 s)
VECTORS_HINT = "pip install 'agent-sleep[vectors]'"

_embedders: dict[str, Embedder | None] = {}
_loaded: dict[Path, Loaded] = {}
_writer_lock = writer_lock  # names the benchmarks and tests reach
_part_id = part_id


@dataclass(frozen=True)
class Report:
    units: int
    embedded: int
    files_read: int
    model: str | None
    seconds: float
    path: Path
    claims_read: int = 0  # units whose claims another release stored, read again (``claims``)


def index_dir(ws: Workspace) -> Path:
    return ws.state_dir / "index"


def scan(ws: Workspace) -> dict[str, list[int]]:
    """Source files relative to the root -> [mtime_ns, size], in row order (daily logs by
    date, then MEMORY.md, then bank pages: see the module doc). Runs before every search that
    a watch cannot spare (``_Watch``), so it stays on plain strings (pathlib per file doubled a
    search) and stats each file relative to its open folder (one path component to resolve,
    not the whole path: 0.92 against 1.04 ms at best for 365 logs)."""
    return _scan(ws)[0]


def _scan(ws: Workspace) -> tuple[dict[str, list[int]], bool]:
    """``scan``, and whether every file is a plain one: not a symbolic link, one hard link
    (a change made through another name of a file is not heard by a watch of its folder)."""
    root = ws.root
    plain = [True]
    logs = _listing(ws.memory_dir, root, plain, dated=True)
    bank = _listing(ws.entities_dir, root, plain) + _listing(ws.concepts_dir, root, plain)
    bank.sort()
    out: dict[str, list[int]] = dict(logs)
    path = str(ws.memory_md)
    try:
        st = _stat(path, None, plain)
    except OSError:
        pass
    else:
        if stat.S_ISREG(st.st_mode):
            out["MEMORY.md"] = [st.st_mtime_ns, st.st_size]
        else:
            warn_skip(Path(path), "not a file")
    out.update(bank)
    return out, plain[0]


def _stat(name: str, fd: int | None, plain: list[bool]) -> os.stat_result:
    """``os.stat`` of ``name`` (relative to the folder ``fd`` when given), clearing
    ``plain[0]`` when it is a symbolic link or has other hard links."""
    st = os.stat(name, dir_fd=fd, follow_symlinks=False)
    if stat.S_ISLNK(st.st_mode):
        plain[0] = False
        st = os.stat(name, dir_fd=fd)
    elif st.st_nlink > 1:
        plain[0] = False
    return st


_BY_DESCRIPTOR = os.listdir in os.supports_fd and os.stat in os.supports_dir_fd  # not Windows


def _listing(
    folder: Path, root: Path, plain: list[bool], dated: bool = False
) -> list[tuple[str, list[int]]]:
    """(path relative to ``root``, [mtime_ns, size]) of the ``.md`` files of ``folder`` (daily
    logs only when ``dated``), sorted; none when it is missing or not a folder."""
    prefix = folder.relative_to(root).as_posix() + "/"
    fd = -1
    try:
        if _BY_DESCRIPTOR:
            fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        names = os.listdir(fd if fd >= 0 else folder)
    except OSError as e:
        if fd >= 0:
            os.close(fd)
        if e.errno == errno.ELOOP:  # a folder that links back to itself: search the rest
            warn_skip(folder, "symlink loop")
        elif not isinstance(e, (FileNotFoundError, NotADirectoryError)):
            raise
        return []
    names.sort()
    out: list[tuple[str, list[int]]] = []
    try:
        for name in names:
            if not name.endswith(".md") or (dated and not _is_log_name(name)):
                continue
            try:
                st = _stat(name, fd, plain) if fd >= 0 else _stat(f"{folder}/{name}", None, plain)
            except OSError:  # removed meanwhile
                continue
            if not stat.S_ISREG(st.st_mode):
                warn_skip(folder / name, "not a file")
                continue
            out.append((prefix + name, [st.st_mtime_ns, st.st_size]))
    finally:
        if fd >= 0:
            os.close(fd)
    return out


# inotify (Linux): the events that change what ``scan`` returns, heard for a file in a watched
# folder and for the folder itself
_IN = {"modify": 0x2, "attrib": 0x4, "close_write": 0x8, "moved_from": 0x40, "moved_to": 0x80,
       "create": 0x100, "delete": 0x200, "delete_self": 0x400, "move_self": 0x800}  # fmt: skip
_IN_MASK = sum(_IN.values())
_IN_NONBLOCK_CLOEXEC = 0o4000 | 0o2000000
# file systems whose changes are all made through this kernel, so a watch hears every one of
# them (not NFS, SMB or FUSE, where another machine may write): ext2-4, xfs, btrfs, tmpfs,
# overlayfs, f2fs, zfs, bcachefs
_LOCAL_FS = {0xEF53, 0x58465342, 0x9123683E, 0x01021994, 0x794C7630, 0xF2F52010, 0x2FC12FC1,
             0xCA451A4E}  # fmt: skip
WATCHES_KEPT = 8  # workspaces a process watches at once (each holds an inotify instance)
_watches: dict[Path, _Watch | None] = {}


class _Watch:
    """Tells a search that none of the files ``scan`` reads can have changed since the scan
    that validated the index in memory, so it need not ``stat`` them all again (365 ``stat``
    calls for a year of logs, 1-1.7 ms of a 10 ms search at 100k notes).

    An inotify instance watches the workspace root, ``memory/``, ``bank/`` and the bank's page
    folders for any write, metadata change, creation, removal or rename. Every search reads
    it (one non-blocking ``read``); any event at all, or a lost one, means a full scan, as
    does anything a watch might not hear: a file that is a symbolic link or has another hard
    link (a write through the other name is reported to the other folder), a folder on a
    file system other processes' machines may write (NFS, SMB, FUSE), a forked child (it
    would share the events with its parent). Generations make it safe across threads: a scan
    vouches for the index only if no event was read after it began."""

    def __init__(self, ws: Workspace) -> None:
        import ctypes

        self.ws = ws
        self.pid = os.getpid()
        self.lock = threading.Lock()
        self.generation = 0  # events read so far (batches)
        self.vouched = -1  # the generation a scan began at that validated the index
        self.fd = -1
        libc = ctypes.CDLL(None, use_errno=True)  # the C library python is linked with
        self._add_watch = libc.inotify_add_watch
        self._add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
        self._statfs = libc.statfs
        self._statfs.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
        self._buf = ctypes.create_string_buffer(512)
        fd = libc.inotify_init1(_IN_NONBLOCK_CLOEXEC)
        if fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        self.fd = fd
        self.usable = self._add()

    def _folders(self) -> list[Path]:
        ws = self.ws
        return [ws.root, ws.memory_dir, ws.bank_dir, ws.entities_dir, ws.concepts_dir]

    def _add(self) -> bool:
        """Watch each folder there is (again: a folder made since, or made anew); False when
        one cannot be watched or lies on a file system that is not local."""
        import ctypes

        for folder in self._folders():
            path = os.fsencode(folder)
            if not os.path.isdir(path):
                continue
            if self._statfs(path, self._buf) != 0:
                return False
            kind = ctypes.c_long.from_buffer(self._buf).value & 0xFFFFFFFF
            if kind not in _LOCAL_FS or self._add_watch(self.fd, path, _IN_MASK) < 0:
                return False
        return True

    def poll(self) -> int:
        """Read what events there are; the generation after them."""
        with self.lock:
            heard = False
            while True:
                try:
                    if not os.read(self.fd, 65536):
                        break
                except BlockingIOError:
                    break
                heard = True
            if heard:
                self.generation += 1
                self.usable = self.usable and self._add()
            return self.generation

    def quiet(self, generation: int) -> bool:
        """Whether a scan that began at ``generation`` (the last one) vouched for the index."""
        with self.lock:
            return self.usable and self.pid == os.getpid() and self.vouched == generation

    def vouch(self, generation: int) -> None:
        with self.lock:
            self.vouched = generation

    def close(self) -> None:
        fd, self.fd = self.fd, -1
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)

    def __del__(self) -> None:
        self.close()


def _watch(ws: Workspace) -> _Watch | None:
    """The watch of ``ws``'s files (made on first use), or None where there can be none."""
    if ws.root in _watches:
        watch = _watches[ws.root]
        if watch is None or watch.pid == os.getpid():
            return watch
        del _watches[ws.root]  # made before a fork: the parent reads its events
        watch.close()  # this process's copy of its descriptor
    watch = None
    if sys.platform.startswith("linux") and os.environ.get(WATCH_ENV, "1") != "0":
        try:
            watch = _Watch(ws)
        except (OSError, AttributeError):  # no inotify, or no instance left
            watch = None
    while len(_watches) >= WATCHES_KEPT:
        old = _watches.pop(next(iter(_watches)))
        if old is not None:
            old.close()
    _watches[ws.root] = watch
    return watch


WATCH_ENV = "AGENT_SLEEP_WATCH"  # "0": stat every file before every search, as before


@functools.lru_cache(maxsize=4096)
def _is_log_name(name: str) -> bool:
    day = name.removesuffix(".md")
    try:
        return dt.date.fromisoformat(day).isoformat() == day
    except ValueError:
        return False


def embedder(ws: Workspace) -> Embedder | None:
    """The embedding model, loaded once per process; None (after one warning saying how to
    get it) when it is not installed or cannot load: recall then ranks by BM25."""
    from agent_sleep.retrieval.embed import MODEL_ENV, load_embedder

    key = os.environ.get(MODEL_ENV, "")
    if key not in _embedders:
        try:
            _embedders[key] = load_embedder(ws.state_dir / "model")
        except EmbedUnavailable as e:
            warn_once(f"{e}; search answers with BM25 only (for vector recall: {VECTORS_HINT})")
            _embedders[key] = None
    return _embedders[key]


def embedder_available(ws: Workspace) -> bool:
    return embedder(ws) is not None


def _read(ws: Workspace, *, vectors: bool = True) -> Loaded | None:
    from agent_sleep.retrieval.index_store import read

    return read(index_dir(ws), vectors=vectors)


def open_index(ws: Workspace, *, vectors: bool = True, query: str | None = None) -> Loaded:
    """The index, brought up to date with the files first if needed. A backlog of more than
    ``DEFER_FROM`` units to embed is left to a background job (``backlog``): this search
    ranks those units by BM25 alone, and is told so once. With ``query``, a backlog of
    ``scan.SCAN_FROM`` bytes or more not indexed at all is left to that job too, and this
    search gets an index in memory of the units that can match ``query`` (``scan``: never
    cached, since it holds that query's units only)."""
    from agent_sleep.retrieval import backlog

    @functools.cache
    def want_model() -> bool:
        return vectors and embedder_available(ws)

    watch = _watch(ws)
    generation = watch.poll() if watch is not None else -1
    cached = _loaded.get(ws.root)
    if (
        cached is not None
        and watch is not None
        and watch.quiet(generation)
        and _fresh(cached, cached.stamps, want_model())
    ):
        return cached  # no file changed since the scan that found it up to date
    current, plain = _scan(ws)
    busy = backlog.running(index_dir(ws))
    if cached is not None:
        fresh = _fresh(cached, current, want_model())
        if fresh and watch is not None and plain:
            watch.vouch(generation)
        if fresh or busy:
            return cached
    _loaded.pop(ws.root, None)
    loaded = _read(ws)
    if query is not None and current and not (busy and loaded is not None):
        unread = unindexed_bytes(current, None if loaded is None else loaded.stamps)
        # the scan module only when files are unindexed (a cold search of an index up to
        # date imports nothing it does not use)
        scanning = _scan_module() if busy or unread else None
        if scanning and (busy or (unread >= scanning.SCAN_FROM and backlog.start(ws))):
            answer = scanning.answer_index(ws, query, current)
            warn_once(
                f"{answer.pending} units of {ws.root} are not indexed yet, so this search read "
                "the files directly (BM25 alone); the index is being built in the background "
                "(`agent-sleep reindex` builds it now)"
            )
            return answer
    if loaded is not None and busy:  # the job holds the writer lock: use the index as it is
        warn_once(f"notes of {ws.root} are being embedded in the background; until then a "
                  "search does not see changes made since it started")  # fmt: skip
    elif loaded is None or not _fresh(loaded, current, want_model()):
        loaded = None  # update reads it again; two copies of a large index would not fit
        try:
            update(ws, vectors=vectors, defer=DEFER_FROM)
        except (OSError, AgentSleepError) as e:
            reason = _not_writable(e)
            if query is None or reason is None:
                raise
            # a workspace this process may not write: answer from the files (retrieval/scan.py)
            warn_once(
                f"cannot write the index in {index_dir(ws)} ({reason}), so this search read "
                "the files directly (BM25 alone); `agent-sleep reindex` builds the index once "
                "the workspace is writable"
            )
            return _scan_module().answer_index(ws, query, current)
        loaded = _read(ws)
        if loaded is None:
            raise IndexUnreadable(
                f"the index in {index_dir(ws)} could not be read back after building it; "
                "check the disk, then run `agent-sleep reindex --full`"
            )
        if want_model() and loaded.pending and backlog.start(ws):
            warn_once(
                f"{loaded.pending} units of {ws.root} are not embedded yet, so this search "
                "ranked them by BM25 alone; embedding continues in the background "
                "(`agent-sleep reindex` does it all now)"
            )
    _loaded[ws.root] = loaded
    if watch is not None and plain and _fresh(loaded, current, want_model()):
        watch.vouch(generation)
    return loaded


def _not_writable(e: BaseException | None) -> str | None:
    """The reason, when ``e`` (or an error that caused it) says a file may not be written."""
    while e is not None:
        if isinstance(e, OSError) and e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return e.strerror or os.strerror(e.errno)
        e = e.__cause__
    return None


def _scan_module() -> ModuleType:
    from agent_sleep.retrieval import scan

    return scan


def unindexed_bytes(current: dict[str, list[int]], stamps: dict[str, list[int]] | None) -> int:
    """Bytes of the files of ``current`` (rel -> [mtime_ns, size]) that ``stamps`` (an index's,
    None: no index) does not hold as they are."""
    if stamps is None:
        return sum(st[1] for st in current.values())
    return sum(st[1] for rel, st in current.items() if stamps.get(rel) != st)


def _fresh(loaded: Loaded, current: dict[str, list[int]], want_model: bool) -> bool:
    if loaded.stamps != current or not _same_windows(loaded):
        return False
    return not want_model or (loaded.model is not None and not loaded.pending)


def update(
    ws: Workspace,
    *,
    vectors: bool = True,
    full: bool = False,
    on_progress: Progress | None = None,
    defer: int | None = None,
    claims: bool = False,
) -> Report:
    """Bring the index up to date (``full``: re-read every file and re-embed everything).
    ``on_progress(done, total)`` hears of long embedding jobs (default: ``core.log.progress``).
    ``defer``: with more units than that to embed, embed none of them now (their rows rank by
    BM25 alone and the manifest lists their files as pending, for a later update).
    ``claims``: also read again the claims of units whose stored ones another release of the
    claim reader wrote (a search would read those at query time), reusing their vectors."""
    start = time.monotonic()
    folder = index_dir(ws)
    ws.confine(folder)
    folder.mkdir(parents=True, exist_ok=True)
    with writer_lock(folder):
        for stale in folder.glob(".*.tmp"):  # left by a build that was killed; we hold the lock
            stale.unlink(missing_ok=True)
        current = scan(ws)
        old = None if full else _read(ws, vectors=False)
        model = embedder(ws) if vectors else None
        reread = claims and model is not None and old is not None and _stale_claims(old)
        if old is not None and _fresh(old, current, model is not None) and not reread:
            prune(folder, old.parts)  # a writer killed after its manifest swap left them
            return Report(len(old.units), 0, 0, old.model, time.monotonic() - start, folder)
        name = model.name if model is not None else None
        from agent_sleep.retrieval.index_vectors import Job

        job = Job(model, on_progress, defer, claims=reread)
        done = _update_tail(ws, current, old, job) if old is not None and not reread else None
        if done is None:
            olds = [old]
            del old  # _rewrite drops it once its records are copied
            done = _rewrite(ws, folder, current, olds, job, reuse_legacy=not full)
        units, embedded, read = done
    _loaded.pop(ws.root, None)
    return Report(units, embedded, read, name, time.monotonic() - start, folder, job.claims_read)


def _stale_claims(old: Loaded) -> bool:
    """Whether a unit of ``old`` holds claims another release of the claim reader stored, or
    none where it has some to read (a unit embedded before claims were stored)."""
    from agent_sleep.analysis import claims as cl

    reader = cl.reader()
    return bool(reader) and any(_claims_to_read(r, reader) for r in old.records)


def _claims_to_read(record: Record, reader: str) -> bool:
    from agent_sleep.retrieval.currency import reads_claims

    if record.claims is not None:
        return not (isinstance(record.claims, list) and record.claims[:1] == [reader])
    return reads_claims(record.text)


def _reusable(old: Loaded, model: str | None) -> bool:
    return model is None or old.model == model


def _same_windows(old: Loaded) -> bool:
    """Whether ``old`` split the files into units as this release does, with the window units
    configured now (else every file is read again; vectors are still reused by content
    hash)."""
    return old.window_config == (units.WINDOW_NOTES, units.WINDOW_STRIDE) and (
        old.split == units.SPLIT
    )


def _rewrite(
    ws: Workspace,
    folder: Path,
    current: dict[str, list[int]],
    olds: list[Loaded | None],
    job: Embedder | Job | None,
    reuse_legacy: bool = False,
) -> tuple[int, int, int]:
    """Write every unit anew (reusing what the old index holds for unchanged files) as a main
    part, every daily log but the newest, and a tail part, the rest. ``reuse_legacy``: with
    no old index of this version, the vectors of one of the previous version are reused by
    content hash (``index_store.legacy_vectors``)."""
    from agent_sleep.retrieval.index_vectors import Job, _old_vectors, _rows, _vectors

    job = job if isinstance(job, Job) else Job(job)
    model = job.model
    name = model.name if model is not None else None
    items = [(rel, st[0], st[1]) for rel, st in current.items()]
    old = olds.pop()
    waited = old is not None and old.pending > 0  # its rows of zeros are embedded now
    with no_cycle_collection():
        got = _collect(ws, items, old, name)
    if job.claims:
        _read_stale_claims(got.records, job)
    old_hashes, old_vectors = _old_vectors(old, name)
    if old is None and reuse_legacy:
        old_hashes, old_vectors = legacy_vectors(folder, name)
    del old  # its records and tokens are copied into ours
    forget(folder)
    vecs, embedded, pending = _vectors(got, old_hashes, old_vectors, folder, job, waited)
    del old_hashes, old_vectors
    got.texts = {}
    _add_sources(got.records, {})
    logs = [i for i, rel in enumerate(got.files) if rel.startswith("memory/")]
    head = logs[-1] if logs else 0  # files in the main part: every daily log but the newest
    split = sum(c for _, _, c in list(got.files.values())[:head])
    n_records, n_files = len(got.records), len(got.files)
    bounds = [(0, split, head), (split, n_records, n_files - head)] if head else []
    parts = [
        NewPart(got.records[lo:hi], got.hashes[lo:hi], got.tokens[lo:hi], _rows(vecs, lo, hi), n)
        for lo, hi, n in bounds or [(0, n_records, n_files)]
    ]
    got.records, got.tokens, vecs = [], [], None
    with no_cycle_collection():
        write(ws, folder, got.files, (), parts, name, pending)
    return len(got.hashes), embedded, got.read


def _read_stale_claims(records: Sequence[Record], job: Job) -> None:
    """Read again the claims of ``records`` that another release's reader stored (or none was
    stored for), counted in ``job.claims_read``."""
    from agent_sleep.analysis import claims as cl
    from agent_sleep.retrieval.currency import stored_claims

    reader = cl.reader()
    for record in records:
        if _claims_to_read(record, reader):
            record.claims = stored_claims(record.text)  # None for a chat turn, never read
            job.claims_read += 1


def _update_tail(
    ws: Workspace,
    current: dict[str, list[int]],
    old: Loaded,
    job: Job,
) -> tuple[int, int, int] | None:
    """Rewrite only the parts from the first changed file on, keeping the ones before it;
    None when that would not give what a full rewrite gives, or the rewritten part would be
    too large (the caller then rewrites everything)."""
    name = job.model.name if job.model is not None else None
    if not _reusable(old, name) or not _same_windows(old) or old.pending:
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
    with no_cycle_collection():
        got = _collect(ws, items[kept_files:], old, name)
    if len(got.records) > max(TAIL_MIN, TAIL_SHARE * (kept_rows + len(got.records))):
        return None
    links = [read_links(old.folder, p) for p in kept]
    cited = set().union(*(set(link["cites"]) for link in links))
    dropped = (old.records[i].ids for i in range(kept_rows, len(old.records)))
    touched = {i for r in got.records for i in r.ids}.union(*dropped)
    if cited & touched:  # a kept unit cites a note whose refs may have changed
        return None
    refs_of: dict[str, Sequence[str]] = {}
    for link in links:
        refs_of.update(link["refs"])
    from agent_sleep.retrieval.index_vectors import _old_vectors, _vectors

    old_hashes, old_vectors = _old_vectors(old, name)
    vecs, embedded, pending = _vectors(got, old_hashes, old_vectors, old.folder, job)
    _add_sources(got.records, refs_of)
    all_files = dict(old_items[:kept_files])
    all_files.update(got.files)
    tail = [NewPart(got.records, got.hashes, got.tokens, vecs, len(got.files))]
    with no_cycle_collection():
        write(ws, old.folder, all_files, tuple(kept), tail, name, pending)
    return kept_rows + len(got.records), embedded, got.read


def _collect(
    ws: Workspace, items: list[tuple[str, int, int]], old: Loaded | None, model: str | None
) -> Collected:
    """The records of the files ``items`` (rel, mtime, size), their hashes and BM25 terms,
    and the text to embed of the units read: reused for unchanged files, read for the
    others. Units are kept as records from the start: a ``Unit`` with its context string
    costs several times more, and a large log holds hundreds of thousands of them.

    Stored units carry no ``context`` nor ``meaning`` (only the terms and the hash of the
    embedded text are kept), so an index built without vectors or with another model cannot
    be reused when those are now needed."""
    spans: dict[str, tuple[int, int]] = {}  # each file's rows in the old index
    if old is not None:
        at = 0
        for rel, (_mtime, _size, count) in old.files.items():
            spans[rel] = (at, at + count)
            at += count
    reuse = old is not None and _reusable(old, model) and _same_windows(old) and not old.pending
    slices = spans if reuse else {}
    from agent_sleep.retrieval.index_vectors import Collected

    got = Collected([], [], [], {}, {}, 0)
    for rel, mtime, size in items:
        if old is not None and rel in slices and old.files[rel][:2] == [mtime, size]:
            lo, hi = slices[rel]
            got.records += [_copy(old.records[i]) for i in range(lo, hi)]
            got.hashes += old.hashes[lo:hi]
            got.tokens += old.token_rows(lo, hi)
            count = hi - lo
        else:
            first = len(got.records)
            read = {}
            if old is not None and rel in spans and model is not None:
                read = _read_claims(old, *spans[rel])
            for u in iter_units(rel, ws.read_text(ws.root / rel)):
                if model is not None:
                    got.texts[len(got.records)] = u.embedded
                record, h = Record.of_unit(u), _hash(u)
                record.claims = read.get((h, record.text))
                got.records.append(record)
                got.hashes.append(h)
                got.tokens.append(" ".join(tokenize(u.indexed)))
            count = len(got.records) - first
            got.read += 1
        got.files[rel] = [mtime, size, count]
    return got


def _copy(r: Record) -> Record:
    """A stored record without its sources (``_add_sources`` derives them anew)."""
    return Record(
        r.kind, r.path, r.text, r.date, r.ids, r.refs, r.cites, r.section, r.time, r.span,
        claims=r.claims,
    )  # fmt: skip


def _read_claims(old: Loaded, lo: int, hi: int) -> dict[tuple[str, str], list[Any]]:
    """The claims stored with the old rows ``lo:hi`` (a file read again), by unit hash and
    text: a unit whose vector is reused keeps them (a log that grew by one note, or every
    file when units are split anew, is not read for claims again)."""
    out = {}
    for row in range(lo, hi):
        record = old.records[row]
        if record.claims is not None:
            out[(old.hashes[row], record.text)] = record.claims
    return out


def _hash(unit: Unit) -> str:
    return hashlib.sha1(unit.embedded.encode("utf-8", "surrogateescape")).hexdigest()[:20]


def _add_sources(records: list[Record], refs_of: dict[str, Sequence[str]]) -> None:
    """Set each record's sources: its note ids, outside refs and cited ids, with the refs of
    the notes it cites (``refs_of``: the refs of notes in rows before these, by id)."""
    for r in records:
        for i in r.ids:
            refs_of[i] = r.refs
    for at, r in enumerate(records):
        if r.kind == WINDOW:  # its notes' sources (they precede it in the same file)
            notes = (m for m in records[at - r.span : at] if m.kind != WINDOW)
            r.sources = list(dict.fromkeys(x for m in notes for x in m.sources))
            continue
        cited_refs = [x for c in r.cites for x in refs_of.get(c, ())]
        r.sources = list(dict.fromkeys([*r.ids, *r.refs, *r.cites, *cited_refs]))
