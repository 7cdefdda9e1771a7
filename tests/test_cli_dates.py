"""The CLI's dates: ``rest --when``, ``sleep --when``, ``flush --when``, ``status --date`` and
``context --date`` run a command as of another day (catching up on old logs), in real
processes, independent of the clock."""

from __future__ import annotations

import json
from pathlib import Path

from agent_sleep.core import notes
from tests.test_hostile_support import cli


def _ok(*args: str) -> str:
    r = cli(*args)
    assert r.returncode == 0 and "Traceback" not in r.stderr, (args, r.stderr)
    return r.stdout


def test_sleep_status_and_context_as_of_a_day(ws: Path) -> None:
    w = str(ws)
    _ok("rest", "-w", w, "--when", "2024-02-28T10:00", "-t", "W", "-n", "Caroline moved to Boston")
    _ok("rest", "-w", w, "--when", "2024-02-29T09:00", "-n", "Melanie adopted a cat named Luna")
    on = json.loads(_ok("status", "-w", w, "--date", "2024-02-29", "--json"))
    later = json.loads(_ok("status", "-w", w, "--date", "2024-06-01", "--json"))
    assert (on["pending_notes"], on["backlog_notes"], on["window_start"]) == (2, 0, "2024-01-30")
    assert (later["pending_notes"], later["backlog_notes"]) == (0, 2)  # out of the look-back

    shown = _ok("context", "-w", w, "--date", "2024-02-29")
    assert "Luna" in shown and "Boston" in shown  # that day's log and the day before's
    assert "Boston" not in _ok("context", "-w", w, "--date", "2024-02-29", "--no-yesterday")
    assert "Luna" not in _ok("context", "-w", w, "--date", "2024-03-05")

    run = json.loads(_ok("sleep", "-w", w, "-p", "offline", "--when", "2024-02-29T22:00", "--json"))
    assert run["notes_in"] == 2
    assert "Boston" in (ws / "MEMORY.md").read_text()
    assert all(
        not p.startswith("memory/") or p == "memory/2024-02-29.md" for p in run["files_changed"]
    )
    assert sorted(p.name for p in (ws / "memory").glob("*.md")) == [
        "2024-02-28.md",
        "2024-02-29.md",
    ]
    after = json.loads(_ok("status", "-w", w, "--date", "2024-02-29", "--json"))
    assert after["pending_notes"] == 0 and after["memory_entries"] >= 1


def test_flush_as_of_a_day(ws: Path) -> None:
    dump = (
        "User: We decided to deploy the billing service to staging every Friday.\n"
        "Assistant: Noted, I will keep the Friday staging deploys in mind."
    )
    args = ("flush", "-w", str(ws), "-p", "offline", "--context-dump", dump, "--json")
    out = json.loads(_ok(*args, "--when", "2024-03-01T18:00"))
    assert out["written"] and Path(out["path"]).name == "2024-03-01.md"
    logged = notes.notes_in((ws / "memory" / "2024-03-01.md").read_text())
    assert logged and all(n.time == "18:00" for n in logged), logged
    assert json.loads(_ok(*args, "--when", "2024-03-01T19:00"))["already_flushed"]


def test_bad_dates_are_one_line_errors(ws: Path) -> None:
    for args in (
        ("sleep", "-p", "offline", "--when", "yesterday"),
        ("flush", "-p", "offline", "--when", "2024-13-01", "--context-dump", "x"),
        ("status", "--date", "2024-02-30"),
        ("context", "--date", "soon"),
    ):
        r = cli(*args, "-w", str(ws))
        assert r.returncode == 2, (args, r.stderr)
        assert r.stderr.startswith("Error: ") and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert "Traceback" not in r.stderr
