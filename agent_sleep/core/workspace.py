"""The workspace on disk: layout, locking, confined atomic writes and appends.

Markdown files are the truth. Everything derived (index, journal, snapshots) lives under
``.agent-sleep/`` and can be deleted without losing anything.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import os
import threading
import time
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from agent_sleep.core.errors import StorageError, WorkspaceError
from agent_sleep.core.log import warn_once
from agent_sleep.core.storage import atomic_write, file_lock, fsync_dir, remove_stale_temps

DEFAULT_WORKSPACE = "~/.agent_workspace"
WORKSPACE_ENV = "AGENT_SLEEP_WORKSPACE"
STATE_DIRNAME = ".agent-sleep"
JOURNAL = "journal.jsonl"  # under the state folder: one JSON line per run, hook or edit
ENCODING = "utf-8"
ERRORS = "surrogateescape"  # undecodable bytes survive a read-modify-write unchanged

MEMORY_HEADER = (
    "# MEMORY\n\n"
    "Long-term memory: durable facts, preferences and decisions, consolidated from the daily\n"
    "logs by `agent-sleep sleep`. Safe to edit by hand.\n\n"
)

# when this thread took each workspace's lock (``time.time_ns()``), while it holds it
_HELD = threading.local()


def resolve_path(workspace: str | os.PathLike[str] | None = None) -> Path:
    """The workspace folder: the argument, else ``$AGENT_SLEEP_WORKSPACE``, else the default."""
    raw = os.fspath(workspace) if workspace is not None else ""
    if not raw:
        raw = os.environ.get(WORKSPACE_ENV) or DEFAULT_WORKSPACE
    return Path(os.path.expandvars(os.path.expanduser(raw))).absolute()


@dataclass(frozen=True)
class Workspace:
    root: Path

    @classmethod
    def at(cls, workspace: str | os.PathLike[str] | Workspace | None = None) -> Workspace:
        if isinstance(workspace, Workspace):
            return workspace
        from agent_sleep.core.args import path_or_none

        path_or_none("workspace", workspace)
        return cls(resolve_path(workspace))

    @property
    def memory_md(self) -> Path:
        return self.root / "MEMORY.md"

    @property
    def memory_dir(self) -> Path:
        return self.root / "memory"

    @property
    def bank_dir(self) -> Path:
        return self.root / "bank"

    @property
    def entities_dir(self) -> Path:
        return self.bank_dir / "entities"

    @property
    def concepts_dir(self) -> Path:
        return self.bank_dir / "concepts"

    @property
    def state_dir(self) -> Path:
        return self.root / STATE_DIRNAME

    def day_log(self, day: dt.date) -> Path:
        return self.memory_dir / f"{day.isoformat()}.md"

    def daily_logs(self) -> list[Path]:
        """Daily logs in date order (files named ``YYYY-MM-DD.md``)."""
        if not self.memory_dir.is_dir():
            return []
        return sorted(_files(p for p in self.memory_dir.glob("*.md") if _is_day(p.stem)))

    def bank_pages(self) -> list[Path]:
        """Entity pages, then concept pages, each folder sorted by name; a page whose path
        leaves the workspace (a symlink out) is passed over; one caught in a symlink loop (the
        page or its folder) is skipped with a warning."""
        out = []
        for d in (self.entities_dir, self.concepts_dir):
            if _loops(d):
                warn_skip(d, LOOP)
            elif d.is_dir():
                out += _files(p for p in sorted(d.glob("*.md")) if self._inside(p))
        return out

    def _inside(self, path: Path) -> bool:
        try:
            self.confine(path)
        except WorkspaceError:
            if _loops(path):  # not read, and named; a link out of the workspace is passed over
                warn_skip(path, LOOP)
            return False
        return True

    def exists(self) -> bool:
        return self.memory_dir.is_dir()

    def refuse_file(self) -> Workspace:
        """``WorkspaceError`` when the workspace path names a file (a misconfiguration, not an
        empty memory); the workspace otherwise."""
        if self.root.exists() and not self.root.is_dir():
            raise WorkspaceError(f"workspace {self.root} is a file, not a folder")
        return self

    def ensure(self) -> Workspace:
        """Create the layout if missing. Idempotent; never touches existing files."""
        self.refuse_file()
        try:
            for d in (self.memory_dir, self.entities_dir, self.concepts_dir, self.state_dir):
                try:
                    d.mkdir(parents=True, exist_ok=True)
                except FileExistsError:  # a file, a dangling link or a link loop in its place
                    why = LOOP if _loops(d) else "not a folder"
                    raise WorkspaceError(
                        f"workspace {self.root}: {d} is a {why}; move it away, and the layout "
                        "is made again"
                    ) from None
            if not self.memory_md.exists():
                try:
                    self.write_text(self.memory_md, MEMORY_HEADER)
                except StorageError:
                    # written without the lock: another process may have created the file
                    # meanwhile, and removed this write's temp file as a stale one
                    if not self.memory_md.exists():
                        raise
        except NotADirectoryError as e:
            raise WorkspaceError(
                f"workspace {self.root}: a part of the path is a file ({e})"
            ) from e
        except OSError as e:
            raise WorkspaceError(
                f"workspace {self.root} is not writable ({e.strerror}); "
                f"choose another with --workspace or ${WORKSPACE_ENV}"
            ) from e
        if not os.access(self.root, os.W_OK | os.X_OK):
            raise WorkspaceError(f"workspace {self.root} is not writable")
        return self

    def for_reading(self) -> Workspace:
        """This workspace for a run that writes none of its files (``sleep --dry-run``), which
        works where the process may not write: :meth:`ensure` creates nothing and refuses a
        missing workspace, and :meth:`lock` is :meth:`read_lock`."""
        return _Reading(self.root)

    # -- confinement -------------------------------------------------------------------

    def confine(self, path: str | os.PathLike[str]) -> Path:
        """``path`` (absolute, or relative to the root) if it stays inside the workspace once
        every symlink is resolved; ``WorkspaceError`` otherwise (a path caught in a symlink loop
        too)."""
        p = Path(path)
        if not p.is_absolute():
            if ".." in p.parts:
                raise WorkspaceError(f"path {path} leaves the workspace")
            p = self.root / p
        root = self.root.resolve()
        try:
            resolved = p.resolve()
        except RuntimeError:  # pathlib before Python 3.13, for a symlink loop
            raise WorkspaceError(f"path {path}: {LOOP}") from None
        if _loops(resolved):  # Python 3.13 resolves a loop as far as it goes, without raising
            raise WorkspaceError(f"path {path}: {LOOP}")
        if resolved != root and root not in resolved.parents:
            raise WorkspaceError(f"path {path} resolves outside the workspace ({resolved})")
        return p

    # -- locking -----------------------------------------------------------------------

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """An exclusive lock for the whole workspace (one per workspace, across processes).

        Every writer of the workspace's files holds it, so while it is held no other process
        can be half-way through a write: :meth:`remove_stale_temps` may then remove the temp
        files of writes that a killed process left."""
        with self._locked():
            held = _HELD.__dict__.setdefault("since", {})
            held[self.root] = time.time_ns()
            try:
                yield
            finally:
                held.pop(self.root, None)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        path = self.state_dir / "lock"
        try:
            self.state_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StorageError(f"cannot lock workspace {self.root}: {e.strerror}") from e
        with file_lock(self.confine(path)):
            yield

    def remove_stale_temps(self, folders: Iterable[Path] | None = None) -> list[Path]:
        """Remove what writes cut short by a killed process left: the temp files of
        ``atomic_write`` (``.<name>.<8 characters>.tmp``) last modified before this thread took
        the lock, in ``folders`` (those inside the workspace), by default the workspace's own:
        its root (for MEMORY.md only: sync writes ``.gitignore`` without the lock), ``memory/``,
        ``bank/entities/``, ``bank/concepts/`` and ``.agent-sleep/``, not their subfolders.
        Nothing else is touched, and nothing at all unless this thread holds :meth:`lock`.
        Listing the folders costs a little, so the writers that rewrite files call it (a sleep
        run writing, rollback), not every note taken. Returns the files removed."""
        since = getattr(_HELD, "since", {}).get(self.root)
        if since is None:
            return []
        if folders is None:
            targets: dict[Path, Collection[str] | None] = {self.root: (self.memory_md.name,)}
            for d in (self.memory_dir, self.entities_dir, self.concepts_dir, self.state_dir):
                targets[d] = None
        else:
            targets = dict.fromkeys(folders)
        removed: list[Path] = []
        for folder, names in targets.items():
            try:
                self.confine(folder)  # a folder linked out of the workspace is not its own
            except (OSError, WorkspaceError):
                continue
            removed += remove_stale_temps(folder, before_ns=since, targets=names)
        return removed

    @contextlib.contextmanager
    def read_lock(self) -> Iterator[None]:
        """The lock, for a read that wants a consistent view (``status``). On a workspace this
        process may not write (a read-only folder or file system), no writer of ours can run
        either: the read goes ahead without it. A read removes nothing."""
        with contextlib.ExitStack() as stack:
            try:
                stack.enter_context(Workspace._locked(self))  # a reading view's lock() is this
            except StorageError as e:
                cause = e.__cause__
                if not (isinstance(cause, OSError) and cause.errno in _READ_ONLY):
                    raise
            yield

    # -- reads and writes --------------------------------------------------------------

    def read_text(self, path: Path) -> str:
        try:
            # bytes, not text mode: newline translation would turn CRLF into LF on rewrite
            return path.read_bytes().decode(ENCODING, ERRORS)
        except FileNotFoundError:
            return ""

    def write_text(self, path: Path, text: str) -> None:
        """Atomically replace ``path`` with ``text`` (temp file, fsync, rename, fsync dir)."""
        atomic_write(self.confine(path), text.encode(ENCODING, ERRORS))

    def append_text(self, path: Path, text: str) -> None:
        """Append ``text`` on an O_APPEND descriptor and fsync. All or nothing: if any write
        fails (disk full, file size limit) the file is cut back to its old length."""
        target = self.confine(path)
        data = text.encode(ENCODING, ERRORS)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            created = not target.exists()
            fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as e:
            raise StorageError(f"cannot write {target}: {e.strerror}; nothing was written") from e
        try:
            size = os.fstat(fd).st_size
            try:
                written = 0
                while written < len(data):
                    written += os.write(fd, data[written:])
                os.fsync(fd)
            except OSError as e:
                os.ftruncate(fd, size)
                raise StorageError(
                    f"cannot write {target}: {e.strerror}; nothing was written"
                ) from e
        finally:
            os.close(fd)
        if created:
            fsync_dir(target.parent)


_READ_ONLY = (errno.EROFS, errno.EACCES, errno.EPERM)
LOOP = "symlink loop"


def _loops(path: Path) -> bool:
    """Whether resolving ``path`` runs into a symbolic link loop."""
    try:
        os.stat(path)
    except OSError as e:
        return e.errno == errno.ELOOP
    return False


@dataclass(frozen=True)
class _Reading(Workspace):
    """See :meth:`Workspace.for_reading`."""

    def ensure(self) -> Workspace:
        if not self.refuse_file().exists():
            raise WorkspaceError(f"no workspace at {self.root}: run `agent-sleep init` first")
        return self

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        with self.read_lock():
            yield


def _is_day(stem: str) -> bool:
    try:
        dt.date.fromisoformat(stem)
    except ValueError:
        return False
    return True


def _files(paths: Iterable[Path]) -> list[Path]:
    """``paths`` that are regular files; each other one is skipped with a warning."""
    out = []
    for p in paths:
        if p.is_file():
            out.append(p)
        else:
            warn_skip(p, "not a file")
    return out


def warn_skip(path: Path, why: str) -> None:
    """One warning per file and reason per process: the file is skipped."""
    warn_once(f"skipping {path}: {why}")
