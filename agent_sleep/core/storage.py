"""The storage primitives every file write and lock of the package goes through.

- :func:`atomic_write`: temp file beside the target, fsync, rename over it, fsync the folder;
  a failure leaves the old version unchanged and no temp file behind. A process killed between
  the temp file and the rename leaves it (``.<name>.<8 random characters>.tmp``):
  :func:`remove_stale_temps` removes those, called by a writer holding the lock that every
  writer of that folder holds (``Workspace.lock``), so none of them can still be writing one
  (``journal.remove_stale_temps``: a sleep run about to write, rollback).
- :func:`file_lock`: an exclusive lock on a lock file, across processes (``fcntl.flock``,
  falling back to the portable ``filelock`` package where there is no ``fcntl``).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

from agent_sleep.core.errors import StorageError

TEMP_SUFFIX = ".tmp"
# what tempfile.mkstemp(prefix=f".{name}.", suffix=TEMP_SUFFIX) names a temp file: eight
# characters of tempfile's alphabet between the prefix and the suffix, nothing else
_TEMP_NAME = re.compile(r"\.(?P<target>.+)\.[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX))


def atomic_write(target: Path, data: bytes, *, mode: int | None = None) -> None:
    """Replace ``target`` with ``data`` all at once. ``mode`` defaults to the old file's, or
    0o644 for a new one. Raises :class:`StorageError` (the old version intact) on an OS error."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent)
    except OSError as e:
        raise StorageError(f"cannot write {target}: {e.strerror}; nothing was written") from e
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if mode is None:
            mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as e:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise StorageError(
                f"cannot write {target}: {e.strerror}; the old version is unchanged"
            ) from e
        raise
    fsync_dir(target.parent)


def temp_target(name: str) -> str | None:
    """The name of the file a temp file of :func:`atomic_write` was to replace, or None when
    ``name`` is not named as that function names its temp files."""
    m = _TEMP_NAME.fullmatch(name)
    return m["target"] if m else None


def remove_stale_temps(
    folder: Path, *, before_ns: int, targets: Collection[str] | None = None
) -> list[Path]:
    """Remove the temp files :func:`atomic_write` left in ``folder`` (not in its subfolders)
    when its process was killed: regular files named as it names them, last modified before
    ``before_ns`` (``time.time_ns()``), and, given ``targets``, only those of a file named in
    it. The caller holds the lock every writer of ``folder`` holds, taken at ``before_ns``: a
    temp file older than that is one no process is writing. Returns the files removed; a file
    that cannot be removed (gone meanwhile, a read-only folder) is left as it is."""
    removed: list[Path] = []
    try:
        with os.scandir(folder) as it:
            entries = list(it)
    except OSError:  # no such folder, not a folder, not readable
        return removed
    for entry in entries:
        if not (entry.name.startswith(".") and entry.name.endswith(TEMP_SUFFIX)):
            continue  # most names: not even a look at the pattern
        target = temp_target(entry.name)
        if target is None or (targets is not None and target not in targets):
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            if entry.stat(follow_symlinks=False).st_mtime_ns >= before_ns:
                continue  # written since the lock was taken: not ours to judge
            os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
    if removed:
        fsync_dir(folder)
    return removed


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created if missing) for the block."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise StorageError(f"cannot lock {path}: {e.strerror}") from e
    try:
        import fcntl
    except ImportError:  # not POSIX: fall back to the portable lock
        import filelock

        os.close(fd)
        with filelock.FileLock(str(path) + ".portable"):
            yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def fsync_dir(path: Path) -> None:
    """Make a rename or a new file in ``path`` durable (a no-op where folders can't be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def last_event(path: Path, events: tuple[str, ...], limit: int = 4 << 20) -> dict[str, Any] | None:
    """The newest entry of a JSON-lines journal whose ``event`` is one of ``events``, read
    backwards from the end in blocks (at most ``limit`` bytes: a session start must not parse
    a year of hook lines); None when there is none, or no journal."""
    try:
        with path.open("rb") as f:
            end = f.seek(0, os.SEEK_END)
            carry, pos = b"", end
            while pos > 0 and end - pos < limit:
                size = min(1 << 16, pos)
                pos -= size
                f.seek(pos)
                lines = (f.read(size) + carry).split(b"\n")
                carry = lines.pop(0) if pos > 0 else b""  # its start is in the block before
                for line in reversed(lines):
                    try:
                        entry = json.loads(line)
                    except ValueError:
                        continue
                    if isinstance(entry, dict) and entry.get("event") in events:
                        return entry
    except OSError:
        return None
    return None
