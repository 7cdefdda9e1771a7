"""Disk full, file-size limits and read-only workspaces: a clear error, nothing half-written,
and the next write succeeds once the problem is gone."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_sleep import micro_rest
from agent_sleep.core.errors import StorageError
from agent_sleep.core.notes import parse
from tests.conftest import ROOT


def _rest(ws: Path, note: str, preexec=None) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    return subprocess.run(
        [sys.executable, "-m", "agent_sleep", "rest", "-w", str(ws), "--note", note],
        capture_output=True,
        text=True,
        preexec_fn=preexec,
        env={"PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"},
        timeout=60,
    )


def test_failing_write_leaves_the_log_as_it_was(ws: Path) -> None:
    micro_rest("first note", workspace=ws)
    log = next((ws / "memory").glob("*.md"))
    before = log.read_bytes()

    def limit() -> None:  # the next write can add only 20 bytes: a partial write, then EFBIG
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (len(before) + 20, len(before) + 20))

    r = _rest(ws, "a long second note " * 20, preexec=limit)
    assert r.returncode == 1
    assert r.stderr.startswith("Error: cannot write") and len(r.stderr.splitlines()) == 1
    assert log.read_bytes() == before
    r = _rest(ws, "third note")
    assert r.returncode == 0, r.stderr
    assert [n.text for n in parse(log.read_text()).notes()] == ["first note", "third note"]


@contextlib.contextmanager
def _tmpfs(path: Path, size: str) -> Iterator[Path]:
    path.mkdir()
    if (
        os.geteuid() != 0
        or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True
        ).returncode
    ):
        pytest.skip("mounting a tmpfs needs root")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def test_disk_full_then_space_is_back(tmp_path: Path) -> None:
    with _tmpfs(tmp_path / "small", "64k") as mnt:
        ws = mnt / "ws"
        ids = []
        with pytest.raises(StorageError, match="No space left"):
            for i in range(2000):
                ids.append(micro_rest(f"note {i} " + "x" * 900, workspace=ws))
        assert 10 < len(ids) < 2000
        r = _rest(ws, "y" * 3000)
        assert r.returncode == 1
        assert r.stderr.startswith("Error: cannot write") and "No space left" in r.stderr
        log = next((ws / "memory").glob("*.md"))
        text = log.read_text()
        assert text.endswith("-->\n")
        assert [n.id for n in parse(text).notes()] == ids  # every acknowledged note, no torn one
        subprocess.run(["mount", "-o", "remount,size=1m", str(mnt)], check=True)
        r = _rest(ws, "after space came back")
        assert r.returncode == 0, r.stderr
        assert parse(log.read_text()).notes()[-1].text == "after space came back"


def test_read_only_workspace(tmp_path: Path) -> None:
    with _tmpfs(tmp_path / "ro", "1m") as mnt:
        ws = mnt / "ws"
        micro_rest("before", workspace=ws)
        snapshot = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        r = _rest(ws, "while read-only")
        assert r.returncode != 0
        assert r.stderr.startswith("Error: ") and len(r.stderr.splitlines()) == 1
        assert "Read-only" in r.stderr or "not writable" in r.stderr
        subprocess.run(["mount", "-o", "remount,rw", str(mnt)], check=True)
        assert {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()} == snapshot
        assert _rest(ws, "after").returncode == 0
