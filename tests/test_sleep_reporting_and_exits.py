"""What sleep reports when the removal cap holds changes back, and the exit codes of a sleep on
a missing workspace, a status on a file and a sync with a remote that does not exist.

- ``pending_left`` counts the notes still pending after the run, the ones the cap held back
  included: the same number ``status`` gives as of that day.
- The human output says in one line that the cap held changes back, that their notes wait for
  the next sleep, and that ``--prune-memory`` lifts the cap.
- ``sleep`` (the CLI) refuses a workspace that does not exist, as ``context`` and ``search`` do:
  a cron job with a mistyped path must not consolidate nothing into a new, empty workspace.
- ``status`` on a path that is a file says so (exit 2), as every other command does; on a
  path that does not exist too (the library's ``status`` still reports it as a value).
- ``sleep`` and ``flush`` with ``--provider anthropic`` and no API key: bad configuration, one
  line and exit 2 before any progress line, nothing written.
- ``status`` counts MEMORY.md's entries in words ("1 entry") and names those written by hand
  without an id, which sleep leaves as they are.
- ``sync --remote NAME`` with no such remote is bad input (exit 2), not a failed run (exit 1).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.consolidation.status import status
from tests.conftest import run_cli

OLD = [
    ("The staging DB runs Postgres 14", "2026-11-20T10:00"),
    ("Deploys happen on Fridays", "2026-11-20T10:10"),
    ("Alice is the tech lead of the billing service", "2026-11-20T10:15"),
    ("The VPN gateway is vpn1.example.com", "2026-11-20T10:20"),
]
NEW = [
    ("The staging DB moved from Postgres 14 to 16", "2026-11-24T09:00"),
    ("Deploys no longer happen on Fridays; they now happen on Tuesdays", "2026-11-24T09:10"),
    ("Bob replaced Alice as the tech lead of the billing service", "2026-11-24T09:15"),
]
DAY2 = "2026-11-24"


def _ok(*args: str) -> str:
    r = run_cli(*args)
    assert r.returncode == 0, (args, r.stderr)
    return r.stdout


def _capped(tmp_path: Path) -> Path:
    """Four entries in MEMORY.md, then three notes that supersede three of them: one run may
    change one entry (25% of four), so the cap holds two updates back."""
    ws = tmp_path / "ws"
    _ok("init", "-w", str(ws))
    for text, when in OLD:
        _ok("rest", "-w", str(ws), "-t", "W", "--note", text, "--when", when)
    _ok("sleep", "-w", str(ws), "-p", "offline", "--when", "2026-11-20T22:00")
    for text, when in NEW:
        _ok("rest", "-w", str(ws), "-t", "W", "--note", text, "--when", when)
    return ws


def _pending(ws: Path) -> int:
    return int(json.loads(_ok("status", "-w", str(ws), "--date", DAY2, "--json"))["pending_notes"])


def test_pending_left_counts_the_notes_the_cap_held_back(tmp_path: Path) -> None:
    ws = _capped(tmp_path)
    r = json.loads(
        _ok("sleep", "-w", str(ws), "-p", "offline", "--when", f"{DAY2}T22:00", "--json")
    )
    assert r["dropped"].get("removal_cap", 0) >= 1, r
    left = _pending(ws)
    assert r["pending_left"] == left >= 1, r  # was 0 while status said 2
    assert r["deferred"] == left  # the held-back notes are all that is left
    # each later run applies what the cap held back, and its count still agrees with status
    for minute in range(1, 4):
        again = json.loads(
            _ok("sleep", "-w", str(ws), "-p", "offline", "--when", f"{DAY2}T22:0{minute}", "--json")
        )
        assert again["pending_left"] == _pending(ws), again
    assert _pending(ws) == 0
    memory = (ws / "MEMORY.md").read_text(encoding="utf-8")
    assert all(text in memory for text, _ in NEW)


def test_the_api_pending_left_agrees_with_status_too(tmp_path: Path) -> None:
    import datetime as dt

    ws = tmp_path / "ws"
    for text, when in OLD:
        micro_rest(text, "W", workspace=ws, when=dt.datetime.fromisoformat(when))
    sleep_cycle(ws, "nrem", "offline", now=dt.datetime(2026, 11, 20, 22))
    for text, when in NEW:
        micro_rest(text, "W", workspace=ws, when=dt.datetime.fromisoformat(when))
    r = sleep_cycle(ws, "nrem", "offline", now=dt.datetime(2026, 11, 24, 22))
    left = status(ws, today=dt.date(2026, 11, 24))["pending_notes"]
    assert r.pending_left == left >= 1
    assert r.deferred == left
    # a dry run reports what would be left the same way, and writes nothing
    before = (ws / "MEMORY.md").read_text(encoding="utf-8")
    dry = sleep_cycle(ws, "nrem", "offline", dry_run=True, now=dt.datetime(2026, 11, 24, 22, 1))
    assert (ws / "MEMORY.md").read_text(encoding="utf-8") == before
    assert dry.notes_in == r.deferred
    assert dry.pending_left == dry.deferred  # what this run's cap would hold back again


def test_the_human_output_says_the_cap_held_changes_back(tmp_path: Path) -> None:
    ws = _capped(tmp_path)
    out = _ok("sleep", "-w", str(ws), "-p", "offline", "--when", f"{DAY2}T22:00")
    (line,) = [x for x in out.splitlines() if "cap" in x.lower() and "held back" in x]
    assert "wait for the next sleep" in line and "--prune-memory" in line, line
    assert "2 notes" in line, line
    # with --prune-memory nothing is held back, and the line is not printed
    _ok("rest", "-w", str(ws), "-t", "W", "--note", "The VPN gateway moved to vpn2.example.com",
        "--when", f"{DAY2}T09:20")  # fmt: skip
    out = _ok("sleep", "-w", str(ws), "-p", "offline", "--when", f"{DAY2}T23:00", "--prune-memory")
    assert "held back" not in out, out
    assert _pending(ws) == 0


def test_the_sleep_help_does_not_promise_that_a_second_run_changes_nothing(tmp_path: Path) -> None:
    text = " ".join(_ok("sleep", "--help").split())
    assert "Running it again over the same notes changes nothing" in text
    assert "except that it applies what an earlier run held back" in text
    assert "--prune-memory lifts this cap" in text


# -- sleep on a missing workspace ----------------------------------------------------------


def test_sleep_refuses_a_workspace_that_does_not_exist(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    for extra in ((), ("--phase", "nrem"), ("--prune-memory",)):
        r = run_cli("sleep", "-w", str(missing), "-p", "offline", *extra)
        assert r.returncode == 2, r
        assert r.stdout == ""
        assert r.stderr.strip() == (
            f"Error: no workspace at {missing}: run `agent-sleep init` first"
        ), r.stderr
        assert not missing.exists(), extra  # nothing created
    r = run_cli("sleep", "-w", str(missing), "-p", "offline", "--json")
    assert r.returncode == 2
    assert json.loads(r.stdout) == {
        "error": f"no workspace at {missing}: run `agent-sleep init` first",
        "exit_code": 2,
    }
    assert not missing.exists()
    # the same words as context and search
    assert (
        run_cli("context", "-w", str(missing)).stderr
        == run_cli("sleep", "-w", str(missing), "-p", "offline").stderr
    )
    # once initialised, the same command consolidates
    _ok("init", "-w", str(missing))
    _ok("rest", "-w", str(missing), "--note", "Redis listens on 6379", "-t", "W")
    assert json.loads(_ok("sleep", "-w", str(missing), "-p", "offline", "--json"))["notes_in"] == 1
    # a path that is a file is refused as before, in the same words as every command
    afile = tmp_path / "afile"
    afile.write_text("not a folder\n")
    r = run_cli("sleep", "-w", str(afile), "-p", "offline", "--json")
    assert r.returncode == 2
    assert json.loads(r.stdout)["error"] == f"workspace {afile} is a file, not a folder"
    assert afile.read_text() == "not a folder\n"


# -- status on a file ----------------------------------------------------------------------


def test_status_on_a_file_is_an_error_not_a_missing_workspace(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("not a folder\n")
    plain = run_cli("status", "-w", str(afile))
    assert plain.returncode == 2 and plain.stdout == "", plain
    assert plain.stderr.strip() == f"Error: workspace {afile} is a file, not a folder"
    r = run_cli("status", "-w", str(afile), "--json")
    assert r.returncode == 2 and r.stderr == plain.stderr
    assert json.loads(r.stdout) == {
        "error": f"workspace {afile} is a file, not a folder",
        "exit_code": 2,
    }
    assert afile.read_text() == "not a folder\n"


def test_status_on_a_missing_workspace_is_an_error_as_for_context_search_and_sleep(
    tmp_path: Path,
) -> None:
    nope = tmp_path / "nope"
    said = {
        command: run_cli(command, *extra, "-w", str(nope))
        for command, extra in (("status", ()), ("context", ()), ("search", ("x",)))
    }
    for command, r in said.items():
        assert r.returncode == 2 and r.stdout == "", (command, r)
        assert r.stderr == f"Error: no workspace at {nope}: run `agent-sleep init` first\n"
    r = run_cli("status", "-w", str(nope), "--json")
    assert r.returncode == 2 and json.loads(r.stdout)["exit_code"] == 2
    assert not nope.exists()
    # the library (and the MCP server's memory_status) still reports it as a value
    assert status(nope) == {"workspace": str(nope), "exists": False}


# -- sync with a remote that does not exist ------------------------------------------------


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], check=True, capture_output=True, text=True, timeout=60
    ).stdout


def test_sync_with_a_remote_that_does_not_exist_is_bad_input(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    _ok("init", "--git", "-w", str(ws))
    for have in ("none", "origin"):
        r = run_cli("sync", "-w", str(ws), "--remote", "backup", "--json")
        assert r.returncode == 2, r
        data = json.loads(r.stdout)
        assert data["exit_code"] == 2
        assert data["error"].startswith(f"no git remote named 'backup' (have: {have})")
        assert "remote add backup URL" in data["error"]
        plain = run_cli("sync", "-w", str(ws), "--remote", "backup")
        assert plain.returncode == 2 and plain.stdout == ""
        assert len(plain.stderr.strip().splitlines()) == 1
        assert plain.stderr.startswith("Error: no git remote named 'backup'")
        if have == "none":
            bare = tmp_path / "origin.git"
            _git("init", "-q", "--bare", str(bare))
            _git("-C", str(ws), "remote", "add", "origin", str(bare))
    # the remote that does exist syncs
    done = json.loads(_ok("sync", "-w", str(ws), "--json"))
    assert done["remote"] == "origin" and done["pushed"]


# -- the anthropic provider with no key ----------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ("sleep", "--provider", "anthropic"),
        ("sleep", "--phase", "nrem", "--json"),  # the provider from AGENT_SLEEP_PROVIDER
        ("flush", "--provider", "anthropic", "--context-dump", "User prefers tabs."),
    ],
)
def test_anthropic_with_no_api_key_is_bad_input_before_the_run_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...]
) -> None:
    monkeypatch.delenv("ANTHROPIC_AUTH_TOKEN", raising=False)
    ws = tmp_path / "ws"
    _ok("init", "-w", str(ws))
    _ok("rest", "-w", str(ws), "-t", "W", "--note", "Redis default port is 6379")
    before = {p: p.read_bytes() for p in sorted(ws.rglob("*")) if p.is_file()}
    r = run_cli(*command, "-w", str(ws), env={"AGENT_SLEEP_PROVIDER": "anthropic"})
    assert r.returncode == 2, r
    assert r.stderr == "Error: no API key: set ANTHROPIC_API_KEY, or use --provider offline\n"
    if "--json" in command:
        assert json.loads(r.stdout)["exit_code"] == 2
    assert {p: p.read_bytes() for p in sorted(ws.rglob("*")) if p.is_file()} == before


# -- status in words -----------------------------------------------------------------------


def test_status_says_one_entry_and_counts_the_ones_written_by_hand(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    micro_rest("Redis default port is 6379", "W", workspace=ws)
    sleep_cycle(ws, provider="offline")
    assert "chars, 1 entry\n" in _ok("status", "-w", str(ws))
    with (ws / "MEMORY.md").open("a", encoding="utf-8") as f:
        f.write("- Deploys happen on Fridays\n- W: The VPN gateway is vpn1\n")
    data = json.loads(_ok("status", "-w", str(ws), "--json"))
    assert data["memory_entries"] == 1 and data["memory_entries_without_id"] == 2
    said = _ok("status", "-w", str(ws))
    assert (
        "1 entry, plus 2 without an id (written by hand: recall reads them, sleep leaves " in said
    )
