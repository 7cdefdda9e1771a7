"""The temp files of atomic writes that a killed process leaves are removed by the next run.

A write is a temp file (``.<name>.<8 characters>.tmp``) renamed over its target: a process
killed between the two leaves the temp file, which nothing else removed (git ignores it). The
next sleep run that writes, or rollback, removes them, holding the workspace lock, which every
writer of those folders holds: only files named exactly as the writer names them, in the
workspace's own folders, last modified before the lock was taken. Anything else stays.

The crash is real: a real ``sleep`` process SIGKILLs itself at the rename of the write chosen
(the temp file written and fsynced, not yet renamed), as a kill -9 landing there would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agent_sleep import micro_rest
from agent_sleep.consolidation import journal
from agent_sleep.core.errors import StorageError
from agent_sleep.core.storage import atomic_write, temp_target
from agent_sleep.core.workspace import MEMORY_HEADER, Workspace
from tests.conftest import ROOT, run_cli
from tests.test_hostile_support import NOW, day, tree

WHEN = NOW.strftime("%Y-%m-%dT%H:%M")

# a sleep that kills itself (SIGKILL) at the rename of the first write the test names
KILLED_SLEEP = """
import os, signal, sys
from pathlib import Path

wanted = sys.argv[2]
real = os.replace

def replace(src, dst, *args, **kwargs):
    dst = Path(dst)
    rel = dst.relative_to(Path(sys.argv[1])).as_posix()
    if rel == wanted or (wanted.endswith("/") and rel.startswith(wanted)):
        os.kill(os.getpid(), signal.SIGKILL)
    return real(src, dst, *args, **kwargs)

os.replace = replace
import datetime as dt
from agent_sleep.consolidation.sleep import sleep_cycle

sleep_cycle(sys.argv[1], "both", "offline", now=dt.datetime.fromisoformat(sys.argv[3]))
"""


def temps(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.tmp"))


def with_notes(ws: Path) -> Path:
    for i, (text, kind) in enumerate(
        [
            ("The billing service retries failed payments 5 times", "W"),
            ("User prefers tabs over spaces in Python code", "O"),
            ("We decided to ship the beta on Friday", "W"),
            ("Redis runs on port 6380 in staging", "W"),
        ]
    ):
        micro_rest(text, kind, workspace=ws, when=day(0, 9 + i))
    return ws


def killed_sleep(ws: Path, at: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", KILLED_SLEEP, str(ws), at, NOW.isoformat()],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == -9, (proc.returncode, proc.stderr[-2000:])


@pytest.mark.parametrize(
    "at",
    [
        "MEMORY.md",  # the first target written
        ".agent-sleep/runs/",  # a before-image, the first thing the run writes
    ],
)
def test_a_sleep_killed_mid_write_leaves_a_temp_file_the_next_run_removes(
    ws: Path, at: str
) -> None:
    before = tree(with_notes(ws), skip_state=True)
    killed_sleep(ws, at)
    left = temps(ws)
    assert len(left) == 1, left
    assert temp_target(Path(left[0]).name) == Path(at).name or at.endswith("/"), left

    # a read takes the lock too, and removes nothing
    assert run_cli("status", "--workspace", str(ws), "--json").returncode == 0
    assert temps(ws) == left

    r = run_cli("sleep", "--workspace", str(ws), "--when", WHEN, "--json")
    assert r.returncode == 0, r.stderr
    assert temps(ws) == []
    # the two runs (the killed one, if it got as far as its record, and the re-run) undo
    while run_cli("rollback", "--workspace", str(ws), "--json").returncode == 0:
        pass
    assert tree(ws, skip_state=True) == before
    assert temps(ws) == []


def test_a_run_killed_mid_write_is_listed_as_unfinished_until_rolled_back(ws: Path) -> None:
    with_notes(ws)
    killed_sleep(ws, "MEMORY.md")
    w = Workspace.at(ws)
    with w.read_lock():
        rows = journal.unfinished_runs(w)
    assert [r["unfinished"] for r in rows] == [True]
    assert rows[0]["files_changed"] >= 1 and rows[0]["rolled_back"] is False
    killed = rows[0]["run_id"]
    assert (ws / ".agent-sleep" / "runs" / killed / "meta.json").is_file()
    shown = json.loads(run_cli("status", "--workspace", str(ws), "--json").stdout)
    assert [r["run_id"] for r in shown["recent_runs"] if r.get("unfinished")] == [killed]
    text = run_cli("status", "--workspace", str(ws)).stdout
    assert f"{killed}" in text and "unfinished" in text

    r = run_cli("sleep", "--workspace", str(ws), "--when", WHEN, "--json")
    assert r.returncode == 0, r.stderr
    assert [x["run_id"] for x in journal.unfinished_runs(w)] == [killed]  # a finished run is not
    r = run_cli("rollback", "--workspace", str(ws), "--json")  # the re-run
    assert r.returncode == 0 and json.loads(r.stdout)["run_id"] != killed
    r = run_cli("rollback", "--workspace", str(ws), "--json")  # then the killed run
    assert r.returncode == 0 and json.loads(r.stdout)["run_id"] == killed
    assert journal.unfinished_runs(w) == []


STALE = [
    ".MEMORY.md.k3x_9abz.tmp",
    "memory/.2026-11-13.md.abcdefgh.tmp",
    "bank/entities/.redis.md.0a1b2c3d.tmp",
    "bank/concepts/.uses.md.zz_top99.tmp",
    ".agent-sleep/.consolidated.json.q1w2e3r4.tmp",
    ".agent-sleep/runs/20261113T220000Z-abcd/.meta.json.m5n6b7v8.tmp",
    ".agent-sleep/runs/20261113T220000Z-abcd/before/.0.a1s2d3f4.tmp",
    ".agent-sleep/runs/20261113T220000Z-abcd/after/.3.p0o9i8u7.tmp",
]
KEPT = [
    ".MEMORY.md.abc.tmp",  # not eight characters
    ".MEMORY.md.ABCDEFGH.tmp",  # not tempfile's alphabet
    ".MEMORY.md.abcdefgh.tmp.bak",
    "MEMORY.md.abcdefgh.tmp",  # no leading dot
    ".MEMORY.md.abcdefgh.temp",
    ".gitignore.abcdefgh.tmp",  # the root: MEMORY.md's only (sync writes others unlocked)
    ".notes.md.abcdefgh.tmp",
    "notes/.a.md.abcdefgh.tmp",  # a folder of the user's
    "memory/archive/.a.md.abcdefgh.tmp",  # a subfolder
    "bank/.a.md.abcdefgh.tmp",
    ".agent-sleep/index/.manifest.json.abcdefgh.tmp",  # the index's own, under its own lock
    ".agent-sleep/batches/.k.json.abcdefgh.tmp",
    ".agent-sleep/runs/20261113T220000Z-abcd/before/x/.0.abcdefgh.tmp",
    "memory/.2026-11-13.md.1234567.tmp",  # the pid-named temp files of caches
    "memory/2026-11-13.md",
]


def plant(ws: Path, names: list[str], *, age: float = 60.0) -> None:
    old = time.time() - age
    for rel in names:
        path = ws / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{rel}\n")
        os.utime(path, (old, old))


def test_only_the_writers_own_stale_temp_files_are_removed(ws: Path, tmp_path: Path) -> None:
    with_notes(ws)
    plant(ws, STALE + KEPT)
    outside = tmp_path / "outside"
    plant(outside, ["target.md", ".x.md.abcdefgh.tmp"])
    (ws / "memory" / ".link.md.abcdefgh.tmp").symlink_to(outside / "target.md")
    (ws / "bank" / "concepts" / ".dir.md.abcdefgh.tmp").mkdir()
    kept = {p.relative_to(ws).as_posix() for p in ws.rglob("*") if p.is_file()} - set(STALE)

    # a read, and a note taken (an append), remove nothing
    assert run_cli("status", "--workspace", str(ws)).returncode == 0
    r = run_cli("rest", "--note", "a second note", "--workspace", str(ws))
    assert r.returncode == 0, r.stderr
    assert all((ws / rel).exists() for rel in STALE)

    r = run_cli("sleep", "--workspace", str(ws), "--when", WHEN, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["files_changed"]  # a run that writes
    assert [rel for rel in STALE if (ws / rel).exists()] == []
    now = {p.relative_to(ws).as_posix() for p in ws.rglob("*") if p.is_file()}
    assert kept <= now, kept - now
    assert (ws / "memory" / ".link.md.abcdefgh.tmp").is_symlink()
    assert (ws / "bank" / "concepts" / ".dir.md.abcdefgh.tmp").is_dir()
    assert sorted(p.name for p in outside.iterdir()) == [".x.md.abcdefgh.tmp", "target.md"]


def test_rollback_removes_them_even_with_nothing_to_roll_back(ws: Path) -> None:
    Workspace.at(ws).ensure()
    plant(ws, STALE)
    r = run_cli("rollback", "--workspace", str(ws))
    assert r.returncode == 2 and "no sleep run to roll back" in r.stderr
    assert [rel for rel in STALE if (ws / rel).exists()] == []


def test_only_a_lock_holder_removes_and_only_what_is_older_than_its_lock(
    ws: Path, tmp_path: Path
) -> None:
    w = Workspace.at(ws).ensure()
    plant(ws, [".MEMORY.md.oldoldol.tmp"])
    assert w.remove_stale_temps() == []  # not holding the lock: nothing
    assert (ws / ".MEMORY.md.oldoldol.tmp").exists()
    # a bank folder linked out of the workspace is not the workspace's own
    outside = tmp_path / "elsewhere"
    plant(outside, [".uses.md.abcdefgh.tmp"])
    (ws / "bank" / "concepts").rmdir()
    (ws / "bank" / "concepts").symlink_to(outside, target_is_directory=True)
    with w.lock():
        (ws / "memory" / ".2026-11-13.md.newnewne.tmp").write_text("being written\n")
        # the old one goes; one written since the lock was taken stays (not a writer of ours)
        assert journal.remove_stale_temps(w) == [ws / ".MEMORY.md.oldoldol.tmp"]
        assert w.remove_stale_temps() == []
    assert (ws / "memory" / ".2026-11-13.md.newnewne.tmp").exists()
    assert (outside / ".uses.md.abcdefgh.tmp").exists()


def test_the_pattern_is_exactly_the_one_atomic_write_uses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    real = os.replace

    def replace(src: str, dst: str) -> None:
        seen.append(Path(src).name)
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    for name in ("MEMORY.md", "2026-11-13.md", "meta.json", "0", ".hidden", "a b.md"):
        atomic_write(tmp_path / name, b"x")
        assert temp_target(seen[-1]) == name, seen[-1]
    assert temp_target(".MEMORY.md.abcdefgh.tmp") == "MEMORY.md"
    assert temp_target(".MEMORY.md.abcdefg.tmp") is None


def test_ensure_does_not_fail_when_another_process_made_memory_md_meanwhile(
    ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ensure() writes MEMORY.md without the lock: a process holding it may make the file and
    # remove ensure's temp file as stale before ensure renames it
    from agent_sleep.core import workspace

    def raced(target: Path, data: bytes, **_: object) -> None:
        target.write_text(MEMORY_HEADER)  # the other process's MEMORY.md
        raise StorageError(f"cannot write {target}: No such file or directory")

    monkeypatch.setattr(workspace, "atomic_write", raced)
    Workspace.at(ws).ensure()
    assert (ws / "MEMORY.md").read_text() == MEMORY_HEADER
