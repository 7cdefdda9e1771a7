"""Indexing a large backlog in the background, so a search over it answers at once.

When a search finds more than ``index.DEFER_FROM`` units to embed (a log imported in bulk,
a first search over months of notes), the index is written with BM25 for everything and the
vectors it already has; the other rows wait (they rank by BM25 alone), the manifest lists
their files as pending, and this module's ``main`` runs in a process of its own (detached,
so the search returns) to embed them with a normal ``index.update``. When a search finds
``scan.SCAN_FROM`` bytes of files not indexed at all, it does not even write BM25 first: it
starts this job and answers from the files (``scan``); the job then writes the BM25 index
(which the next searches use) before it embeds. While it runs, searches use the index as it
is rather than wait for its lock. ``agent-sleep reindex`` does everything at once, as before.

    python -m agent_sleep.retrieval.backlog WORKSPACE
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from agent_sleep.core.workspace import Workspace

LOCK = "embedding.lock"


@contextlib.contextmanager
def _held(folder: Path) -> Iterator[bool]:
    """Try to take the background job's lock without waiting: True if taken (held for the
    block), False if another process holds it (or locks are not available here)."""
    try:
        import fcntl
    except ImportError:  # no background job where there is no flock: nothing runs
        yield False
        return
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


def running(folder: Path) -> bool:
    """Whether a background embedding job holds the index in ``folder``."""
    if not (folder / LOCK).exists():
        return False
    with _held(folder) as taken:
        return not taken


def start(ws: Workspace) -> bool:
    """Start the background job for ``ws`` (detached); False where it cannot run."""
    try:
        import fcntl  # noqa: F401
    except ImportError:
        return False
    try:
        subprocess.Popen(
            [sys.executable, "-m", "agent_sleep.retrieval.backlog", str(ws.root)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return False
    return True


def main(argv: list[str]) -> int:
    from agent_sleep.core import log
    from agent_sleep.retrieval.index import DEFER_FROM, index_dir, update

    log.quiet()  # detached: nobody reads its stderr
    ws = Workspace.at(argv[0])
    with _held(index_dir(ws)) as taken:
        if not taken:
            return 0  # another job is at it
        update(ws, defer=DEFER_FROM)  # BM25 for everything first: searches can use it
        update(ws)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
