"""``micro_rest(when=…)`` takes the ISO strings ``rest --when`` takes, read by the same parser
(the Python API refused them: "when must be a datetime, not str"), and refuses what the CLI
refuses, in the same words but for the parameter's name."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest
from agent_sleep.core import notes
from agent_sleep.core.errors import BadInput
from tests.conftest import run_cli


@pytest.mark.parametrize(
    ("when", "day", "time"),
    [
        ("2026-12-01T10:00", "2026-12-01", "10:00"),
        ("2026-12-01 18:05:30", "2026-12-01", "18:05"),
        ("2026-12-01", "2026-12-01", "00:00"),
    ],
)
def test_an_iso_string_files_the_note_as_the_cli_does(
    ws: Path, when: str, day: str, time: str
) -> None:
    note_id = micro_rest("Redis default port is 6379", "W", workspace=ws, when=when)
    (note,) = notes.notes_in((ws / "memory" / f"{day}.md").read_text())
    assert (note.id, note.time) == (note_id, time)
    cli = ws.parent / "cli"
    r = run_cli(
        "rest", "-w", str(cli), "-t", "W", "-n", "Redis default port is 6379", "--when", when
    )
    assert r.returncode == 0, r.stderr
    (same,) = notes.notes_in((cli / "memory" / f"{day}.md").read_text())
    assert same.time == time


@pytest.mark.parametrize(
    ("when", "said"),
    [
        ("yesterday", "when 'yesterday' is not an ISO date or date-time"),
        ("0999-01-01T10:00", "when '0999-01-01T10:00' is out of range (years 1000 to 9998)"),
    ],
)
def test_a_string_the_cli_refuses_is_refused_in_the_same_words(
    ws: Path, when: str, said: str
) -> None:
    with pytest.raises(BadInput) as e:
        micro_rest("x", workspace=ws, when=when)
    assert str(e.value) == said
    r = run_cli("rest", "-w", str(ws), "-n", "x", "--when", when)
    assert r.returncode == 2 and r.stderr == f"Error: --{said}\n"
    assert not (ws / "memory").exists() or not list((ws / "memory").glob("*.md"))


def test_a_datetime_is_taken_as_before(ws: Path) -> None:
    micro_rest("went hiking", workspace=ws, when=dt.datetime(2023, 5, 8, 13, 56))
    assert (ws / "memory" / "2023-05-08.md").is_file()
