"""One sleep at a time per workspace, for the sleeps the integrations start.

The SessionEnd worker and the MCP ``memory_sleep`` tool hold ``.agent-sleep/sleep-run.lock``
for the whole run; a second one finds it taken and leaves at once instead of waiting.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from agent_sleep.core.errors import AgentSleepError, StorageError
from agent_sleep.core.workspace import Workspace

LOCK = "sleep-run.lock"


class SleepRunning(AgentSleepError):
    """Another sleep holds the workspace's sleep lock."""


def lock_path(ws: Workspace) -> Path:
    return ws.state_dir / LOCK


@contextlib.contextmanager
def exclusive_sleep(ws: Workspace) -> Iterator[None]:
    import filelock

    ws.state_dir.mkdir(parents=True, exist_ok=True)
    path = lock_path(ws)
    lock = filelock.FileLock(str(path), timeout=0)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise SleepRunning(
            "a sleep is already running on this workspace; its result will be in "
            "`agent-sleep status` when it ends"
        ) from None
    except OSError as e:
        if path.is_dir():
            raise StorageError(
                f"cannot take the sleep lock: {path} is a folder, not the lock file "
                "agent-sleep keeps there; remove that folder, then try again"
            ) from e
        raise StorageError(
            f"cannot take the sleep lock {path}: {e.strerror or e}; make that file and its "
            "folder writable, then try again"
        ) from e
    try:
        yield
    finally:
        lock.release()


def sleep_running(ws: Workspace) -> bool:
    try:
        with exclusive_sleep(ws):
            return False
    except SleepRunning:
        return True
