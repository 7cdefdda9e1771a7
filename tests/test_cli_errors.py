"""What the CLI answers when something is wrong, for people and for agents: an unknown history
target is an error, ``--json`` errors are also one JSON object on stdout, a dry run works on a
workspace it may not write, and status counts the notes sleep skips (each case was a reported
defect)."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_sleep.core import notes as fmt
from tests.conftest import permissions_enforced, run_cli
from tests.test_cli_hardening import _one_error_line, _ws
from tests.test_hostile_support import tree
from tests.test_sync_support import identity


def test_history_of_a_target_that_exists_nowhere_is_an_error(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    assert run_cli("init", "--git", "-w", str(ws)).returncode == 0
    identity(ws, "t")
    run_cli("rest", "-w", str(ws), "--note", "Redis listens on port 6379", "--type", "W")
    assert run_cli("sleep", "-w", str(ws), "--provider", "offline").returncode == 0
    entry = next(n for n in fmt.notes_in((ws / "MEMORY.md").read_text()) if n.id)
    known = run_cli("history", entry.id, "-w", str(ws))
    assert known.returncode == 0 and "6379" in known.stdout, known.stderr

    for target in ("zzzzzzzzzz", "bank/entities/nosuch.md"):
        r = run_cli("history", target, "-w", str(ws))
        assert r.returncode == 2 and r.stdout == ""
        assert target in _one_error_line(r)

    # a note taken since the last commit has no history yet, but it exists: no error
    fresh = run_cli("rest", "-w", str(ws), "--note", "The CI runs on Fridays", "--type", "W")
    r = run_cli("history", fresh.stdout.strip(), "-w", str(ws))
    assert r.returncode == 0 and "No history" in r.stdout, r.stderr


def _json_error(r: subprocess.CompletedProcess[str]) -> dict[str, object]:
    """The one JSON object a failed ``--json`` command prints, checked against its stderr line
    and exit code."""
    err = _one_error_line(r)
    lines = r.stdout.splitlines()
    assert len(lines) == 1, r.stdout
    obj = json.loads(lines[0])
    assert obj == {"error": err.removeprefix("Error: "), "exit_code": r.returncode}
    return obj


def test_with_json_an_error_is_also_one_json_object_on_stdout(tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    assert run_cli("git-init", "-w", str(ws)).returncode == 0
    missing = str(tmp_path / "typo")
    cases = [
        ("search", "redis", "-w", missing),  # the project's own error (WorkspaceError)
        ("history", "zzzzzzzzzz", "-w", str(ws)),
        ("search", "x", "-w", str(ws), "--half-life", "nan"),  # a bad option value
        ("status", "-w", str(ws), "--memory-budget", "lots"),  # click's type error
        ("status", "-w", str(ws), "--no-such-option"),  # click's parser, before --json
        ("history", "-w", str(ws)),  # a missing argument
        ("sleep", "-w", str(ws), "--since", "yesterday", "--dry-run"),
    ]
    for args in cases:
        plain = run_cli(*args)
        assert plain.stdout == "", args  # without --json nothing changes
        _one_error_line(plain)
        for where in ("end", "first"):
            argv = (*args, "--json") if where == "end" else (args[0], "--json", *args[1:])
            r = run_cli(*argv)
            assert r.returncode == plain.returncode and r.stderr == plain.stderr, argv
            _json_error(r)
    assert _json_error(run_cli("history", "zzzzzzzzzz", "-w", str(ws), "--json"))["exit_code"] == 2


def test_an_os_error_with_json_is_one_json_object_too(tmp_path: Path) -> None:
    """The OSError path of app.main: MEMORY.md turned into a folder."""
    ws = _ws(tmp_path)
    (ws / "MEMORY.md").unlink()
    (ws / "MEMORY.md").mkdir()
    for command in ("status", "context"):
        plain = run_cli(command, "-w", str(ws))
        assert plain.stdout == "" and "MEMORY.md" in _one_error_line(plain)
        r = run_cli(command, "-w", str(ws), "--json")
        assert r.returncode == plain.returncode == 1 and r.stderr == plain.stderr
        _json_error(r)


# -- a dry run on a read-only workspace ----------------------------------------------------


@contextlib.contextmanager
def _read_only(root: Path) -> Iterator[None]:
    """``chmod -R a-w root`` for the block."""
    paths = [root, *root.rglob("*")]
    modes = {p: p.stat().st_mode for p in paths}
    for p in paths:
        p.chmod(modes[p] & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        yield
    finally:
        for p in reversed(paths):
            p.chmod(modes[p])


def test_a_dry_run_works_on_a_workspace_it_may_not_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = _ws(tmp_path)
    run_cli(
        "rest", "-w", str(ws), "--note", "The staging database resets on Sundays", "--type", "W"
    )
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "XDG_CACHE_HOME": ""}
    for state in ("with its state folder", "without its state folder"):
        if state.startswith("without"):  # nothing to lock or cache in: nothing is created
            for p in sorted((ws / ".agent-sleep").rglob("*"), reverse=True):
                p.rmdir() if p.is_dir() else p.unlink()
            (ws / ".agent-sleep").rmdir()
        before = tree(ws)
        with _read_only(ws), permissions_enforced(monkeypatch):
            refused = run_cli("rest", "-w", str(ws), "--note", "x", "--type", "W")
            assert refused.returncode != 0, "the workspace is writable: the test proves nothing"
            r = run_cli("sleep", "--dry-run", "-w", str(ws), "--provider", "offline", env=env)
            assert r.returncode == 0, (state, r.stderr)
            assert "staging database resets" in r.stdout
            r = run_cli("sleep", "--dry-run", "--json", "-w", str(ws), "-p", "offline", env=env)
            assert r.returncode == 0, (state, r.stderr)
            out = json.loads(r.stdout)
            assert out["dry_run"] and out["run_id"] is None and out["notes_in"] == 1
            assert "Error" not in run_cli("status", "-w", str(ws)).stderr
        assert tree(ws) == before, state
        assert [p for p in home.rglob("*") if p.is_file()] == []
    # a real run still refuses, and a writable workspace still dry-runs
    with _read_only(ws), permissions_enforced(monkeypatch):
        err = _one_error_line(run_cli("sleep", "-w", str(ws), "--provider", "offline"))
        assert "not writable" in err
    r = run_cli("sleep", "--dry-run", "-w", str(ws), "--provider", "offline")
    assert r.returncode == 0 and "staging database" in r.stdout, r.stderr
    assert not (ws / ".agent-sleep" / "journal.jsonl").exists()


# -- status counts what sleep skips ------------------------------------------------------


def test_status_counts_the_notes_sleep_skips_for_want_of_an_id(tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    run_cli("rest", "-w", str(ws), "--note", "Redis listens on port 6379", "--type", "W")
    log = ws / "memory" / f"{dt.date.today()}.md"
    with log.open("a") as f:
        f.write("- W: The VPN needs a new certificate\n- O(c=0.5): Tabs beat spaces\n  really\n")
        f.write("\n## Dreams\n\n- W: a dream written by hand\n")  # REM's section: not a note
    r = run_cli("status", "-w", str(ws), "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert (s["pending_notes"], s["notes_without_id"]) == (1, 2)
    text = run_cli("status", "-w", str(ws))
    assert "2 notes with no id comment, which sleep cannot track" in text.stdout
    assert "take notes with `agent-sleep rest`" in text.stdout
    # the warning the same lines give a sleep run uses the same words
    warned = run_cli("sleep", "--dry-run", "-w", str(ws), "--provider", "offline").stderr
    assert "2 notes with no id comment, which sleep cannot track" in warned

    clean = _ws(tmp_path, "clean")
    s = json.loads(run_cli("status", "-w", str(clean), "--json").stdout)
    assert s["notes_without_id"] == 0
    assert "no id comment" not in run_cli("status", "-w", str(clean)).stdout


def test_json_output_reports_progress_only_to_a_terminal(monkeypatch) -> None:
    """With --json, a long sleep or sync reports progress on stderr when a person watches it
    (stderr is a terminal), and nothing when a program reads both streams."""
    import sys

    from agent_sleep.cli.common import progress_lines

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert progress_lines(True) is not None and progress_lines(False) is not None
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert progress_lines(True) is None and progress_lines(False) is not None


@pytest.mark.parametrize("query", ["", "   ", "\t\n"])
def test_an_empty_search_is_refused_as_the_mcp_tool_refuses_it(tmp_path: Path, query: str) -> None:
    ws = _ws(tmp_path)
    run_cli("rest", "-w", str(ws), "--note", "Redis listens on port 6379", "--type", "W")
    r = run_cli("search", query, "-w", str(ws))
    assert r.returncode == 2 and r.stdout == ""
    assert "QUERY" in _one_error_line(r)
    r = run_cli("search", query, "-w", str(ws), "--json")
    assert r.returncode == 2
    assert "give some words" in _json_error(r)["error"]  # type: ignore[operator]


def test_run_from_inside_a_workspace_it_says_which_one(tmp_path: Path) -> None:
    """Every command failed with "no workspace at ~/.agent_workspace: run `agent-sleep init`"
    when run from inside a workspace folder without naming it; it now says the folder is one
    and how to use it (the default is still the default: nothing is read from it)."""
    ws = tmp_path / "ws"
    assert run_cli("init", "-w", str(ws)).returncode == 0
    (ws / "memory" / "sub").mkdir()
    env = {"HOME": str(tmp_path / "home"), "AGENT_SLEEP_WORKSPACE": ""}
    for cwd in (ws, ws / "memory" / "sub"):
        r = run_cli("status", cwd=cwd, env=env)
        assert r.returncode == 2 and r.stdout == ""
        line = _one_error_line(r)
        assert f"{ws} is one" in line and f"--workspace {ws}" in line, line
    r = run_cli("status", cwd=tmp_path, env=env)  # outside any workspace: init, as before
    assert r.returncode == 2 and "agent-sleep init" in _one_error_line(r)
