"""History and sync with real git: init --git, batched commits, remotes that misbehave, kill -9."""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agent_sleep.core import notes as fmt
from agent_sleep.core.rest import micro_rest
from tests.conftest import ROOT
from tests.test_sync_support import (
    bare_remote,
    check_files,
    cli,
    first_clone,
    git,
    identity,
    join,
    note_counts,
    tree,
)


def test_init_git_ignores_the_derived_folder_and_commits_notes_in_batches(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    r = cli("init", "--git", "-w", str(ws))
    assert r.returncode == 0 and "kept in git" in r.stdout
    identity(ws, "t")
    assert "/.agent-sleep/" in (ws / ".gitignore").read_text()
    assert "merge=agent-sleep" in (ws / ".gitattributes").read_text()
    for i in range(5):
        assert cli("rest", "-w", str(ws), "-n", f"note number {i}", "-t", "W").returncode == 0
    r = cli("sync", "-w", str(ws))
    assert r.returncode == 0
    assert r.stdout.count("\n") == 1 and "No git remote" in r.stdout  # one line
    subjects = git(ws, "log", "--format=%s").splitlines()
    assert subjects[0].startswith("notes: 5 new in memory/") and len(subjects) == 2
    assert git(ws, "ls-files", ".agent-sleep") == ""
    assert git(ws, "status", "--porcelain") == ""
    again = cli("sync", "-w", str(ws), "--json")
    assert json.loads(again.stdout)["committed"] == []  # nothing pending: no empty commit


def test_git_init_turns_git_on_for_an_existing_workspace(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    cli("rest", "-w", str(ws), "-n", "written before git", "-t", "B")
    r = cli("git-init", "-w", str(ws), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["created"] is True
    assert "written before git" in git(ws, "show", "HEAD", "--", "memory")
    assert json.loads(cli("git-init", "-w", str(ws), "--json").stdout)["created"] is False


def test_sync_without_git_says_how_to_turn_it_on(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    cli("init", "-w", str(ws))
    r = cli("sync", "-w", str(ws))
    assert r.returncode == 2 and r.stderr.startswith("Error: ") and r.stderr.count("\n") == 1
    assert "git-init" in r.stderr


def test_sleep_rollback_and_hand_edits_are_commits_named_after_them(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    cli("init", "--git", "-w", str(ws))
    identity(ws, "t")
    for text in ("User prefers small pull requests", "The staging database resets on Sunday"):
        cli("rest", "-w", str(ws), "-n", text, "-t", "W", "--when", "2026-11-30T10:00")
    r = cli("sleep", "-w", str(ws), "--json", "--when", "2026-11-30T18:00")
    assert r.returncode == 0, r.stderr
    run_id = json.loads(r.stdout)["run_id"]
    log = git(ws, "log", "--format=%s").splitlines()
    assert log[0].startswith(f"sleep run {run_id}"), log
    assert git(ws, "status", "--porcelain") == ""
    entry = next(n for n in fmt.notes_in((ws / "MEMORY.md").read_text()) if n.id)

    hist = json.loads(cli("history", entry.id, "-w", str(ws), "--json").stdout)
    assert hist[0]["subject"].startswith(f"sleep run {run_id}")
    assert hist[0]["sources"] and all(s in hist[0]["source_notes"] for s in hist[0]["sources"])
    page = json.loads(cli("history", "MEMORY.md", "-w", str(ws), "--json").stdout)
    assert page[0]["subject"].startswith(f"sleep run {run_id}")

    memory = ws / "MEMORY.md"
    memory.write_text(memory.read_text() + "\nA line written by hand.\n")
    cli("sync", "-w", str(ws))
    assert git(ws, "log", "-1", "--format=%s").startswith("edit: hand edits to MEMORY.md")

    assert cli("rollback", "-w", str(ws), run_id, "--force").returncode == 0
    assert git(ws, "log", "-1", "--format=%s").startswith(f"rollback of run {run_id}")


def test_two_clones_agree_and_a_plain_clone_joins(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path)
    one = first_clone(tmp_path, remote, "one")
    two = join(tmp_path, remote, "two")
    ids = []
    for ws, who in ((one, "one"), (two, "two"), (one, "one")):
        for i in range(3):
            when = dt.datetime(2026, 12, 1, 9)
            ids.append(micro_rest(f"{who} note {i}", workspace=ws, when=when))
        assert cli("sync", "-w", str(ws)).returncode == 0
    assert cli("sync", "-w", str(two)).returncode == 0
    assert tree(one) == tree(two)
    for ws in (one, two):
        counts = note_counts(ws)
        assert set(counts) == set(ids) and set(counts.values()) == {1}
        check_files(ws)


def test_a_remote_that_rejects_pushes_loses_nothing(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path)
    ws = first_clone(tmp_path, remote)
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'pushes are closed today' >&2\nexit 1\n")
    hook.chmod(0o755)
    nid = cli("rest", "-w", str(ws), "-n", "kept whatever the remote says").stdout.strip()
    r = cli("sync", "-w", str(ws))
    assert r.returncode == 1 and r.stderr.startswith("Error: ") and r.stderr.count("\n") == 1
    assert "kept locally" in r.stderr
    assert nid in note_counts(ws) and nid in git(ws, "show", "HEAD")
    hook.unlink()
    assert cli("sync", "-w", str(ws)).returncode == 0
    assert nid in git(remote, "show", "main")


def test_a_missing_remote_name_is_one_error_line(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    cli("init", "--git", "-w", str(ws))
    r = cli("sync", "-w", str(ws), "--remote", "backup")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "remote add backup" in r.stderr


_SYNC = "import sys; from agent_sleep.sync.remote import sync; sync(sys.argv[1])"


@pytest.mark.slow
def test_kill_during_sync_then_the_next_sync_completes(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path)
    one = first_clone(tmp_path, remote, "one")
    two = join(tmp_path, remote, "two")
    rng = random.Random(7)
    ids: set[str] = set()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.monotonic()
    subprocess.run([sys.executable, "-c", _SYNC, str(two)], env=env, check=True)
    full = time.monotonic() - start  # a whole sync, process start included
    killed_running = 0
    for round_ in range(6):
        for ws in (one, two):
            for i in range(40):
                day = dt.datetime(2026, 11, 10 + i % 5, i % 10)
                ids.add(micro_rest(f"{ws.name} {round_} {i}", workspace=ws, when=day))
        assert cli("sync", "-w", str(one)).returncode == 0
        p = subprocess.Popen([sys.executable, "-c", _SYNC, str(two)], env=env)
        time.sleep(rng.uniform(0.3, 1.0) * full)
        killed_running += p.poll() is None
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        r = cli("sync", "-w", str(two))
        assert r.returncode == 0, r.stderr
    assert killed_running >= 3
    assert cli("sync", "-w", str(one)).returncode == 0
    assert tree(one) == tree(two)
    for ws in (one, two):
        counts = note_counts(ws)
        assert set(counts) == ids and set(counts.values()) == {1}
        check_files(ws)
        assert git(ws, "status", "--porcelain") == ""
        assert not [f for f in git(ws, "ls-files").split() if f.endswith(".tmp")]


def test_hand_edit_and_sleep_on_the_same_entry_lose_nothing(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path)
    one = first_clone(tmp_path, remote, "one")
    pref = "User prefers small pull requests"
    for i in range(3):
        micro_rest(pref, "O", workspace=one, confidence=0.9, when=dt.datetime(2026, 11, 30, 10 + i))
    assert cli("sleep", "-w", str(one), "--when", "2026-11-30T18:00").returncode == 0
    assert cli("sync", "-w", str(one)).returncode == 0
    two = join(tmp_path, remote, "two")
    memory = (one / "MEMORY.md").read_text()
    entry = next(n for n in fmt.notes_in(memory) if n.text == pref)

    (one / "MEMORY.md").write_text(memory.replace(pref, pref + " (one concern each)"))
    for i in range(2):  # the same preference again: sleep on two supersedes the same entry
        micro_rest(pref, "O", workspace=two, confidence=0.9, when=dt.datetime(2026, 12, 1, 10 + i))
    assert cli("sleep", "-w", str(two), "--when", "2026-12-01T18:00").returncode == 0
    slept = (two / "MEMORY.md").read_text()
    assert entry.id not in {n.id for n in fmt.notes_in(slept)}  # the sleep replaced it

    for ws in (one, two, one):
        assert cli("sync", "-w", str(ws)).returncode == 0
    final = (one / "MEMORY.md").read_text()
    assert final == (two / "MEMORY.md").read_text()
    check_files(one)
    assert f"{pref} (one concern each)" in final  # the hand edit survives
    kept = {n.id for n in fmt.notes_in(final)}
    assert {n.id for n in fmt.notes_in(slept)} <= kept  # and so does what the sleep wrote


def test_the_other_side_cannot_delete_logs_or_write_the_derived_folder(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path)
    one = first_clone(tmp_path, remote, "one")
    nid = micro_rest("a note nobody may delete", workspace=one, when=dt.datetime(2026, 11, 1, 9))
    assert cli("sync", "-w", str(one)).returncode == 0
    two = join(tmp_path, remote, "two")
    marks = one / ".agent-sleep" / "consolidated.json"
    marks.write_text('{"nrem": []}\n')
    # a hostile (or careless) clone: deletes the log, commits into the derived folder
    git(two, "rm", "-q", "memory/2026-11-01.md")
    (two / ".agent-sleep").mkdir(exist_ok=True)
    (two / ".agent-sleep" / "consolidated.json").write_text('{"nrem": ["' + nid + '"]}\n')
    git(two, "add", "-f", ".agent-sleep/consolidated.json")
    git(two, "commit", "-q", "-m", "hostile")
    git(two, "push", "-q", "origin", "main")
    assert cli("sync", "-w", str(one)).returncode == 0
    assert nid in note_counts(one)
    assert marks.read_text() == '{"nrem": []}\n'
    assert nid in git(remote, "show", "main:memory/2026-11-01.md")  # restored for everyone


def test_a_clone_of_an_empty_remote_starts_the_workspace(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path)
    ws = tmp_path / "first"
    git(tmp_path, "clone", "-q", str(remote), str(ws))
    identity(ws, "first")
    r = cli("sync", "-w", str(ws))
    assert r.returncode == 0, r.stderr
    assert git(ws, "log", "--format=%s").splitlines() == ["init: agent-sleep workspace"]
    assert "merge=agent-sleep" in git(remote, "show", "main:.gitattributes")
    assert (ws / "MEMORY.md").exists() and (ws / "bank" / "entities").is_dir()


def test_history_of_an_entry_names_what_superseded_it(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    cli("init", "--git", "-w", str(ws))
    identity(ws, "t")
    memory = ws / "MEMORY.md"
    old = "- W: Staging resets on Sunday <!-- id=e100000000 sources=n1 -->\n"
    new = "- W: Staging resets on Monday <!-- id=e200000000 sources=n2 supersedes=e100000000 -->\n"
    memory.write_text(memory.read_text() + "\n## Facts\n\n" + old)
    assert cli("sync", "-w", str(ws)).returncode == 0
    memory.write_text(memory.read_text().replace(old, new))
    assert cli("sync", "-w", str(ws)).returncode == 0
    r = cli("history", "e100000000", "-w", str(ws))
    assert r.returncode == 0 and "now superseded by e200000000" in r.stdout
    (first, second) = json.loads(cli("history", "e100000000", "-w", str(ws), "--json").stdout)
    assert first["removed"] == [old.rstrip("\n")] and second["added"] == [old.rstrip("\n")]
    assert first["subject"].startswith("edit: hand edits to MEMORY.md")


def test_a_push_that_loses_the_race_is_merged_and_pushed_again(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path)
    one = first_clone(tmp_path, remote, "one")
    two = join(tmp_path, remote, "two")
    # the remote holds one's first push in its hook while two's push goes through
    marker = tmp_path / "hold-next-push"
    hook = remote / "hooks" / "pre-receive"
    hook.write_text(f"#!/bin/sh\nif [ -e {marker} ]; then rm {marker}; sleep 3; fi\nexit 0\n")
    hook.chmod(0o755)
    a = micro_rest("written on one", workspace=one, when=dt.datetime(2026, 12, 1, 9))
    b = micro_rest("written on two", workspace=two, when=dt.datetime(2026, 12, 1, 9))
    marker.touch()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AGENT_SLEEP_PROVIDER": "offline"}
    slow = subprocess.Popen(
        [sys.executable, "-m", "agent_sleep", "sync", "-w", str(one), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    deadline = time.monotonic() + 20
    while marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)  # one's push is now waiting in the hook
    assert cli("sync", "-w", str(two)).returncode == 0
    out, err = slow.communicate(timeout=60)
    assert slow.returncode == 0, err
    assert json.loads(out)["attempts"] >= 2  # rejected once, merged, pushed again
    assert cli("sync", "-w", str(two)).returncode == 0
    for ws in (one, two):
        assert {a, b} <= set(note_counts(ws))
    assert tree(one) == tree(two)


def test_history_names_the_page_a_superseded_entry_moved_to(tmp_path: Path) -> None:
    """Sleep moves a replaced entry from MEMORY.md to a bank page's History in one commit: the
    commit's path is where the entry is after it, not the first file of its diff."""
    ws = tmp_path / "ws"
    assert cli("init", "--git", "-w", str(ws)).returncode == 0
    identity(ws, "t")
    for text, day in (("User lives in Berlin", "01"), ("User moved to Lisbon", "02")):
        r = cli(
            "rest", "-w", str(ws), "--note", text, "--type", "W", "--when", f"2026-03-{day}T10:00"
        )
        assert r.returncode == 0, r.stderr
        assert cli("sleep", "-w", str(ws), "--when", f"2026-03-{day}T22:00").returncode == 0
    memory = fmt.notes_in((ws / "MEMORY.md").read_text())
    assert not [n for n in memory if "Berlin" in n.text], "the Berlin entry left MEMORY.md"
    archived = [
        (p, n)
        for p in (ws / "bank").rglob("*.md")
        for n in fmt.notes_in(p.read_text())
        if "Berlin" in n.text and n.meta.get("superseded_by")
    ]
    ((page, entry),) = archived
    changes = json.loads(cli("history", entry.id, "-w", str(ws), "--json").stdout)
    assert changes[0]["path"] == page.relative_to(ws).as_posix(), changes[0]
    assert changes[-1]["path"] == "MEMORY.md"  # where it was first written
