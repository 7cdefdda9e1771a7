"""Disk full, file-size limits and a read-only workspace during ``sleep`` and ``flush``: a clear
error, nothing half-written (a run that cannot finish its writes leaves every file as it was),
and the next run succeeds once the problem is gone."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from agent_sleep import micro_rest
from tests.test_crash_sleep import build_template
from tests.test_hostile_support import (
    NOW,
    assert_all_parse,
    cli,
    cli_env,
    dated,
    memory_entries,
    note_ids,
    tree,
)
from tests.test_resources import _tmpfs


def _one_error_line(stderr: str, *needles: str) -> None:
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("Error: ") and "Traceback" not in stderr, stderr
    assert any(n in last for n in needles), last


def _sleep(ws: Path, preexec=None) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    return subprocess.run(
        [sys.executable, "-m", "agent_sleep", *dated("sleep", "-w", str(ws), "-p", "offline")],
        capture_output=True,
        text=True,
        preexec_fn=preexec,
        env=cli_env(),
        timeout=120,
    )


def _all_or_nothing(
    ws: Path, before: dict[str, bytes], r: subprocess.CompletedProcess[str]
) -> bool:
    """True if the run applied; else it failed with one line and changed no Markdown file."""
    assert_all_parse(ws)
    if r.returncode == 0:
        return True
    _one_error_line(r.stderr, "No space left", "File too large", "cannot write")
    now = {k: v for k, v in tree(ws, skip_state=True).items() if not k.endswith(".tmp")}
    assert now == before, "a failed run left part of its writes behind"
    return False


@pytest.mark.slow
def test_disk_full_at_every_point_of_a_sleep(tmp_path: Path) -> None:
    template = build_template(tmp_path / "t")
    with _tmpfs(tmp_path / "small", "512k") as mnt:
        outcomes = []
        for free_kib in range(0, 96, 8):
            ws = mnt / "ws"
            shutil.copytree(template, ws)
            before = tree(ws, skip_state=True)
            ids = note_ids(ws)
            filler = mnt / "filler"
            with open(filler, "wb", buffering=0) as f:  # fill the disk, then give back free_kib
                try:
                    while True:
                        f.write(b"\0" * 4096)
                        f.flush()
                except OSError:
                    pass
            os.truncate(filler, max(0, filler.stat().st_size - free_kib * 1024))
            outcomes.append(_all_or_nothing(ws, before, _sleep(ws)))
            assert note_ids(ws) == ids
            filler.unlink()
            r = _sleep(ws)
            assert r.returncode == 0, r.stderr
            status = json.loads(cli(*dated("status", "--json", "-w", str(ws))).stdout)
            assert status["pending_notes"] == 0
            assert len({e.text for e in memory_entries(ws)}) == len(memory_entries(ws))
            shutil.rmtree(ws)
        assert not outcomes[0] and outcomes[-1], outcomes  # from no space at all to enough


def test_file_size_limit_during_sleep(tmp_path: Path) -> None:
    ws = build_template(tmp_path / "t")
    before = tree(ws, skip_state=True)
    limit = len((ws / "MEMORY.md").read_bytes()) + 10

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    assert not _all_or_nothing(ws, before, _sleep(ws, small_files))
    assert _sleep(ws).returncode == 0
    assert json.loads(cli(*dated("status", "--json", "-w", str(ws))).stdout)["pending_notes"] == 0


def test_read_only_workspace_sleep_and_flush(tmp_path: Path) -> None:
    with _tmpfs(tmp_path / "ro", "1m") as mnt:
        ws = mnt / "ws"
        shutil.copytree(build_template(tmp_path / "t"), ws)
        snapshot = tree(ws)
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        try:
            r = _sleep(ws)
            assert r.returncode != 0
            _one_error_line(r.stderr, "Read-only", "not writable")
            dump = "User: I always deploy on Fridays after the standup."
            r = cli(*dated("flush", "-w", str(ws), "-p", "offline", "--context-dump", dump))
            assert r.returncode != 0
            _one_error_line(r.stderr, "Read-only", "not writable")
        finally:
            subprocess.run(["mount", "-o", "remount,rw", str(mnt)], check=True)
        assert tree(ws) == snapshot
        assert _sleep(ws).returncode == 0
        micro_rest("after the remount", workspace=ws, when=NOW)
        assert_all_parse(ws)


@pytest.mark.parametrize("room", [0, 3])
def test_flush_on_a_full_disk(tmp_path: Path, room: int) -> None:
    with _tmpfs(tmp_path / "small", "256k") as mnt:
        ws = mnt / "ws"
        micro_rest("first note", workspace=ws, when=NOW)
        before = tree(ws, skip_state=True)
        filler = mnt / "filler"
        with open(filler, "wb", buffering=0) as f:
            try:
                while True:
                    f.write(b"\0" * 1024)
                    f.flush()
            except OSError:
                pass
        os.truncate(filler, max(0, filler.stat().st_size - room * 1024))
        dump = "\n".join(f"User: I prefer option {i} for the Apollo dashboards." for i in range(60))
        r = cli(*dated("flush", "-w", str(ws), "-p", "offline", "--context-dump", dump))
        assert r.returncode != 0
        _one_error_line(r.stderr, "No space left", "cannot write")
        now = {k: v for k, v in tree(ws, skip_state=True).items() if not k.endswith(".tmp")}
        assert now == before
        filler.unlink()
        r = cli(*dated("flush", "-w", str(ws), "-p", "offline", "--context-dump", dump))
        assert r.returncode == 0, r.stderr
        assert len(note_ids(ws)) > 1
