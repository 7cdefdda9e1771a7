"""The storage primitives every file write and lock of the package goes through.

- :func:`atomic_write`: temp file beside the target, fsync, rename over it, fsync the folder;
  a failure leaves the old version unchanged and no temp file behind.
- :func:`file_lock`: an exclusive lock on a lock file, across processes (``fcntl.flock``,
  falling back to the portable ``filelock`` package where there is no ``fcntl``).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from agent_sleep.core.errors import StorageError


def atomic_write(target: Path, data: bytes, *, mode: int | None = None) -> None:
    """Replace ``target`` with ``data`` all at once. ``mode`` defaults to the old file's, or
    0o644 for a new one. Raises :class:`StorageError` (the old version intact) on an OS error."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
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
