"""``sleep --since`` later than the day the run is as of read no log and said "Nothing to
consolidate" with exit 0, hiding the mistyped date: it is bad input now (exit 2, one line,
nothing written)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from agent_sleep import micro_rest
from tests.conftest import run_cli

WHEN = "2026-11-01T10:00"


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _filled(ws: Path) -> dict[str, bytes]:
    micro_rest("The staging database is Postgres 16", "W", workspace=ws,
               when=dt.datetime(2026, 10, 30, 9, 0))  # fmt: skip
    return _files(ws)


def test_since_after_when_is_refused_and_nothing_is_written(ws: Path) -> None:
    before = _filled(ws)
    r = run_cli("sleep", "--since", "2026-12-01", "--when", WHEN, "-p", "offline", "-w", str(ws))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.splitlines() == [
        "Error: --since 2026-12-01 is after --when 2026-11-01T10:00: no log would be read; "
        "give a --since on or before 2026-11-01"
    ]
    assert _files(ws) == before


def test_since_after_today_is_refused_with_json(ws: Path) -> None:
    before = _filled(ws)
    later = (dt.date.today() + dt.timedelta(days=3)).isoformat()
    r = run_cli("sleep", "--since", later, "-p", "offline", "-w", str(ws), "--json")
    assert r.returncode == 2
    error = json.loads(r.stdout)
    assert error["exit_code"] == 2 and error["error"].startswith(f"--since {later} is after today")
    assert _files(ws) == before


def test_since_on_the_day_of_when_still_runs(ws: Path) -> None:
    _filled(ws)
    r = run_cli("sleep", "--since", "2026-10-30", "--when", WHEN, "-p", "offline", "-w", str(ws),
                "--json")  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["notes_in"] == 1
