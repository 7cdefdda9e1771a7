"""Sync and history where git is in an unusual state: a merge left with conflicts, a detached
HEAD, an emptied .gitignore from the other side, a remote whose HEAD names a missing branch,
remotes that cannot be reached or chosen, paths with spaces."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import time
from pathlib import Path

from agent_sleep.core import notes as fmt
from tests.test_sync_support import (
    MARKERS,
    bare_remote,
    check_files,
    cli,
    first_clone,
    git,
    identity,
    join,
    note_counts,
)


def _conflicted(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Two clones; the second is in the middle of a plain `git pull` that left a conflict in a
    file no merge driver handles."""
    remote = bare_remote(tmp_path)
    one = first_clone(tmp_path, remote, "one")
    (one / "notes.txt").write_text("first\n")
    assert cli("sync", "-w", str(one)).returncode == 0
    two = join(tmp_path, remote, "two")
    (one / "notes.txt").write_text("one's version\n")
    assert cli("sync", "-w", str(one)).returncode == 0
    (two / "notes.txt").write_text("two's version\n")
    git(two, "commit", "-qam", "two's notes")
    pull = subprocess.run(
        ["git", "-C", str(two), "pull", "-q", "--no-rebase", "origin", "main"],
        capture_output=True,
        text=True,
    )
    assert pull.returncode != 0 and "UU notes.txt" in git(two, "status", "--short")
    return remote, one, two


def test_a_merge_left_with_conflicts_is_neither_committed_nor_pushed(tmp_path: Path) -> None:
    remote, _one, two = _conflicted(tmp_path)
    head, pushed = git(two, "rev-parse", "HEAD"), git(remote, "rev-parse", "main")
    r = cli("sync", "-w", str(two))
    assert r.returncode == 1 and r.stderr.startswith("Error: ") and r.stderr.count("\n") == 1
    assert "unresolved git conflicts in notes.txt" in r.stderr and "merge --abort" in r.stderr
    assert git(two, "rev-parse", "HEAD") == head and git(remote, "rev-parse", "main") == pushed
    assert not any(m in git(remote, "show", "main:notes.txt") for m in MARKERS)
    j = cli("sync", "-w", str(two), "--json")
    assert j.returncode == 1 and json.loads(j.stdout)["exit_code"] == 1
    # git's own way out works, and the next sync goes through
    git(two, "merge", "--abort")
    assert cli("sync", "-w", str(two)).returncode == 0
    check_files(two)


def test_a_sleep_whose_commit_fails_still_succeeds_and_says_so(tmp_path: Path) -> None:
    _remote, _one, two = _conflicted(tmp_path)
    nid = cli("rest", "-w", str(two), "-n", "The billing service runs on Postgres 15").stdout
    r = cli("sleep", "-w", str(two), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["notes_in"] == 1  # the run's result, not an error object
    warning = [line for line in r.stderr.splitlines() if line.startswith("warning: ")]
    assert len(warning) == 1 and "not committed" in warning[0] and "notes.txt" in warning[0]
    assert nid.strip() in (two / "memory").joinpath(os.listdir(two / "memory")[0]).read_text()
    # no git on PATH at all: the same, for a flush too
    git(two, "merge", "--abort")
    env = {"PATH": str(tmp_path / "no-git-here")}
    f = cli("flush", "-w", str(two), "--context-dump", "We decided the API port is 8443.", env=env)
    assert f.returncode == 0 and "not committed" in f.stderr and "git is not installed" in f.stderr


def test_an_emptied_gitignore_never_lets_the_derived_folder_in(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path)
    one = first_clone(tmp_path, remote, "one")
    two = join(tmp_path, remote, "two")
    (two / ".gitignore").write_text("")  # the other side empties it, with plain git
    git(two, "commit", "-qam", "no ignores")
    git(two, "push", "-q", "origin", "main")
    assert cli("sync", "-w", str(one)).returncode == 0
    cli("rest", "-w", str(one), "-n", "User prefers small pull requests", "-t", "O")
    r = cli("sleep", "-w", str(one))
    assert r.returncode == 0, r.stderr
    assert (one / ".agent-sleep" / "journal.jsonl").exists()
    assert git(one, "ls-files", ".agent-sleep") == ""
    assert cli("sync", "-w", str(one)).returncode == 0
    assert git(remote, "ls-tree", "-r", "--name-only", "main", ".agent-sleep") == ""
    assert "small pull requests" in git(remote, "show", "main:MEMORY.md")


def test_an_already_committed_derived_folder_leaves_the_index(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    assert cli("init", "--git", "-w", str(ws)).returncode == 0
    identity(ws, "t")
    cli("rest", "-w", str(ws), "-n", "A note before the leak", "-t", "W")
    git(ws, "add", "-f", ".agent-sleep")
    git(ws, "commit", "-qm", "leaked")
    assert git(ws, "ls-files", ".agent-sleep") != ""
    assert cli("sync", "-w", str(ws)).returncode == 0
    assert git(ws, "ls-files", ".agent-sleep") == ""
    assert (ws / ".agent-sleep").is_dir()  # only untracked, never deleted


def test_the_detached_head_hint_keeps_what_was_committed_there(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path)
    ws = first_clone(tmp_path, remote, "one")
    git(ws, "checkout", "-q", "--detach", "HEAD")
    r = cli("sync", "-w", str(ws))
    assert r.returncode == 1 and f"git -C {ws} switch main`" in r.stderr
    cli("rest", "-w", str(ws), "-n", "The staging database resets on Sunday", "-t", "W")
    assert cli("sleep", "-w", str(ws)).returncode == 0  # commits on the detached HEAD
    r = cli("sync", "-w", str(ws))
    assert r.returncode == 1 and r.stderr.count("\n") == 1
    hint = r.stderr.split("`")[1]
    assert hint == f"git -C {ws} switch -C main", r.stderr
    subprocess.run(shlex.split(hint), check=True, capture_output=True)
    assert cli("sync", "-w", str(ws)).returncode == 0
    assert "resets on Sunday" in git(remote, "show", "main:MEMORY.md")


def test_a_detached_head_beside_a_branch_that_moved_on_is_merged(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path)
    ws = first_clone(tmp_path, remote, "one")
    cli("rest", "-w", str(ws), "-n", "on the branch", "-t", "W")
    assert cli("sync", "-w", str(ws)).returncode == 0
    git(ws, "checkout", "-q", "--detach", "HEAD~1")
    cli("rest", "-w", str(ws), "-n", "while detached", "-t", "W")
    assert cli("sleep", "-w", str(ws)).returncode == 0
    r = cli("sync", "-w", str(ws))
    assert r.returncode == 1 and "merge" in r.stderr
    subprocess.run(["sh", "-c", r.stderr.split("`")[1]], check=True, capture_output=True)
    assert cli("sync", "-w", str(ws)).returncode == 0
    texts = {n.text for n in _notes(ws)}
    assert {"on the branch", "while detached"} <= texts


def _notes(ws: Path) -> list[fmt.Note]:
    return [n for log in (ws / "memory").glob("*.md") for n in fmt.notes_in(log.read_text())]


def test_a_remote_whose_head_names_a_missing_branch_gets_no_second_branch(tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "master", str(remote)], check=True)
    one = first_clone(tmp_path, remote, "one")  # pushes main; the remote's HEAD says master
    a = cli("rest", "-w", str(one), "-n", "written on the first machine").stdout.strip()
    assert cli("sync", "-w", str(one)).returncode == 0
    two = tmp_path / "two"
    git(tmp_path, "clone", "-q", str(remote), str(two))
    identity(two, "two")
    b = cli("rest", "-w", str(two), "-n", "written on the second machine").stdout.strip()
    r = cli("sync", "-w", str(two), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["branch"] == "main"
    assert git(remote, "for-each-ref", "--format=%(refname)", "refs/heads").split() == [
        "refs/heads/main"
    ]
    assert cli("sync", "-w", str(one)).returncode == 0
    for ws in (one, two):
        assert set(note_counts(ws)) >= {a, b} and set(note_counts(ws).values()) == {1}
        check_files(ws)
    git(two, "pull", "-q")  # a plain pull follows the same branch


def test_a_remote_that_cannot_be_read_is_named_with_gits_reason(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    assert cli("init", "--git", "-w", str(ws)).returncode == 0
    git(ws, "remote", "add", "origin", str(tmp_path / "nowhere.git"))
    r = cli("sync", "-w", str(ws))
    assert r.returncode == 1 and r.stderr.count("\n") == 1
    assert "does not appear to be a git repository" in r.stderr, r.stderr


def test_which_remote_is_never_a_guess(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    assert cli("init", "--git", "-w", str(ws)).returncode == 0
    identity(ws, "t")
    backup, team = bare_remote(tmp_path / "b"), bare_remote(tmp_path / "t")
    git(ws, "remote", "add", "backup", str(backup))
    git(ws, "remote", "add", "team", str(team))
    r = cli("sync", "-w", str(ws))
    assert r.returncode == 1 and "backup, team" in r.stderr and "--remote NAME" in r.stderr
    assert git(backup, "for-each-ref") == "" and git(team, "for-each-ref") == ""
    r = cli("sync", "-w", str(ws), "--remote", "")
    assert r.returncode == 2 and "remote name is empty" in r.stderr
    assert cli("sync", "-w", str(ws), "--remote", "team").returncode == 0
    assert git(team, "for-each-ref") != "" and git(backup, "for-each-ref") == ""


def test_the_git_init_hint_quotes_a_path_with_spaces(tmp_path: Path) -> None:
    ws = tmp_path / "my memory" / "ws one"
    assert cli("init", "-w", str(ws)).returncode == 0
    r = cli("sync", "-w", str(ws))
    assert r.returncode == 2
    hint = r.stderr.split("`")[1]
    assert hint == f"agent-sleep git-init --workspace {shlex.quote(str(ws))}"
    assert shlex.split(hint)[-1] == str(ws)


def test_history_of_nothing_is_an_error_and_a_folder_counts_all_its_files(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    assert cli("init", "--git", "-w", str(ws)).returncode == 0
    identity(ws, "t")
    for name, lines in (("a", 2), ("b", 3)):
        (ws / "bank" / "concepts" / f"{name}.md").write_text(
            "".join(f"{i}\n" for i in range(lines))
        )
    assert cli("sync", "-w", str(ws)).returncode == 0
    for empty in ("", "   "):
        r = cli("history", empty, "-w", str(ws))
        assert r.returncode == 2 and r.stderr.startswith("Error: "), r.stdout
    r = cli("history", "bank", "-w", str(ws), "--json")
    assert r.returncode == 0
    assert json.loads(r.stdout)[0]["lines"] == "+5 -0"


def test_a_merge_of_sides_that_changed_different_files_says_so(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path)
    a = first_clone(tmp_path, remote, "a")
    b = join(tmp_path, remote, "b")
    for ws, day in ((a, "2026-12-01"), (b, "2026-12-02")):  # a log each: no file on both sides
        r = cli("rest", "--type", "W", "--note", f"note of {day}", "--when", f"{day}T09:00",
                "-w", str(ws))  # fmt: skip
        assert r.returncode == 0, r.stderr
    for ws in (a, b):
        assert cli("sync", "-w", str(ws)).returncode == 0
    subjects = git(b, "log", "--merges", "--format=%s").splitlines()
    assert subjects == ["sync: merge both sides (no file changed on both)"]


def test_a_lock_of_a_git_still_running_in_the_clone_is_kept(tmp_path: Path, monkeypatch) -> None:
    """A sync clears the locks a killed git left, but never one a live git holds: a real git
    process works in the clone (as a `git commit` waiting for its editor would), and its
    index.lock stays until that git has ended."""
    from agent_sleep.core.workspace import Workspace
    from agent_sleep.sync import repo as repo_mod

    remote = bare_remote(tmp_path)
    one = first_clone(tmp_path, remote, "one")
    lock = one / ".git" / "index.lock"
    repo = repo_mod.Repo(Workspace.at(one))
    monkeypatch.setattr(repo_mod, "LIVE_GIT_WAIT_S", 0.3)
    live = subprocess.Popen(["git", "hash-object", "--stdin"], cwd=one, stdin=subprocess.PIPE)
    try:
        for _ in range(100):  # until the child has become git
            if repo_mod.live_git(one) == live.pid:
                break
            time.sleep(0.05)
        assert repo_mod.live_git(one) == live.pid
        lock.write_text("")
        repo_mod.clear_stale_locks(repo)
        assert lock.exists()
    finally:
        live.communicate(b"done\n")
    assert repo_mod.live_git(one) is None
    repo_mod.clear_stale_locks(repo)
    assert not lock.exists()
    # where processes cannot be listed, only an old lock goes
    monkeypatch.setattr(repo_mod, "live_git", lambda root: -1)
    lock.write_text("")
    repo_mod.clear_stale_locks(repo)
    assert lock.exists()
    os.utime(lock, (0, 0))
    repo_mod.clear_stale_locks(repo)
    assert not lock.exists()
