"""The merge driver installed in a clone: a plain ``git pull`` merges memory files like sync."""

from __future__ import annotations

import subprocess
from pathlib import Path

from agent_sleep.core import notes as fmt
from agent_sleep.sync.driver import main as driver_main
from tests.conftest import run_cli


def git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(cwd), *args], capture_output=True, text=True, check=False
    )


def identity(clone: Path) -> None:
    git(clone, "config", "user.name", "Test")
    git(clone, "config", "user.email", "test@example.com")


def test_driver_merges_three_files_in_place(tmp_path: Path) -> None:
    head = "# 2026-12-01\n\n## Retain\n\n"
    note = "- 09:00 B: a <!-- id=a000000000 -->\n"
    base, ours, theirs = (tmp_path / n for n in ("base", "ours", "theirs"))
    base.write_text(head + note)
    ours.write_text(head + note + "- 10:00 B: b <!-- id=b000000000 -->\n")
    theirs.write_text(head + note + "- 09:30 B: c <!-- id=c000000000 -->\n")
    assert driver_main([str(base), str(ours), str(theirs), "memory/2026-12-01.md"]) == 0
    assert [n.id for n in fmt.notes_in(ours.read_text())] == [
        "a000000000",
        "c000000000",
        "b000000000",
    ]
    assert driver_main([str(base)]) == 2
    assert driver_main([str(base), str(tmp_path / "missing"), str(theirs)]) == 1


def test_plain_git_pull_uses_the_driver(tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    one, two = tmp_path / "one", tmp_path / "two"
    assert run_cli("init", "--git", "-w", str(one)).returncode == 0
    identity(one)
    git(one, "remote", "add", "origin", str(remote))
    run_cli("rest", "-w", str(one), "-n", "first note", "--when", "2026-12-01T09:00")
    assert run_cli("sync", "-w", str(one)).returncode == 0
    git(tmp_path, "clone", "-q", str(remote), str(two))
    identity(two)
    first = run_cli("sync", "-w", str(two))
    assert first.returncode == 0, first.stderr
    assert "agent_sleep.sync.driver" in git(two, "config", "merge.agent-sleep.driver").stdout

    run_cli("rest", "-w", str(one), "-n", "one wrote this", "--when", "2026-12-01T10:00")
    run_cli("rest", "-w", str(two), "-n", "two wrote this", "--when", "2026-12-01T09:30")
    assert run_cli("sync", "-w", str(one)).returncode == 0
    git(two, "add", "-A")
    git(two, "commit", "-q", "-m", "a note committed by hand")
    pulled = git(two, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
    assert pulled.returncode == 0, pulled.stderr
    log = (two / "memory" / "2026-12-01.md").read_text()
    assert "<<<<<<<" not in log and ">>>>>>>" not in log
    assert [n.text for n in fmt.notes_in(log)] == ["first note", "two wrote this", "one wrote this"]
