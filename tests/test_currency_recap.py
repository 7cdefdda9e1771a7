"""A summary of several things replaces no entry.

An editor's agent wrote "Week summary: Salt Orchard printer switched to CPI, run up to 4,500,
launch moved to Daunt, RRP corrected." after the notes that told each change in full: sleep let
the summary replace the entry "switched from Clays to CPI Antony Rowe …; print run is now 4,500
copies", and a later size trim then dropped the summary, so MEMORY.md held neither. On an
allotment site's notes, "Week 4: shed code changed after the break-in, compost and seed suppliers
switched, …" retired the seed store's code, which it never gives. A recap (an S note of three
parts or more, under a recap's label or with a change in two of its parts) is filed beside what
it sums up; a summary of one change still replaces what it changes.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.providers.offline_currency import recap
from tests.currency_support import replaces


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Seed store cupboard code is 2690; the key is in the shed.",
         "Week 4: shed code changed after the break-in, compost and seed suppliers switched, "
         "water key moved to Sunita."),
        ("Half plot rent for 2027 is £36.",
         "Week 5: plot 7 reassigned, 2027 rents confirmed, waiting list cleaned up."),
        ("The print run of The Salt Orchard is 4,500 copies, printed by CPI Antony Rowe.",
         "Salt Orchard printer switched to CPI, run up to 4,500, launch moved to Daunt."),
    ],
)  # fmt: skip
def test_a_recap_replaces_no_entry(old: str, new: str) -> None:
    assert recap(new)
    assert not replaces(("W", old), ("S", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Team standup is at 9:30 every weekday.", "Summary: standup moved to 10:15."),
        ("My 1:1 with Dana is every other week on Thursdays.",
         "Dana and I moved our 1:1 to Mondays at 2pm, every week."),
        ("Cell passaging protocol uses 0.25% trypsin for 5 minutes.",
         "Passaging protocol updated: 0.05% trypsin, 3 minutes, to reduce cell stress."),
    ],
)  # fmt: skip
def test_a_summary_of_one_change_still_replaces(old: str, new: str) -> None:
    assert not recap(new)
    assert replaces(("W", old), ("S", new))


def _replayed(ws: Path, notes: list[tuple[str, str, str]]) -> Path:
    """``ws`` with each note (when, type, text) written and a sleep at 23:00 that day."""
    for when, kind, text in notes:
        moment = dt.datetime.strptime(when, "%Y-%m-%d %H:%M")
        micro_rest(text, type=kind, workspace=ws, when=moment)
        sleep_cycle(ws, now=moment.replace(hour=23))
    return ws


def test_the_facts_a_weekly_summary_sums_up_stay(tmp_path: Path) -> None:
    notes = [
        ("2026-09-07 14:10", "W",
         "The Salt Orchard is being printed by Clays in Bungay; first print run 3,000 copies."),
        ("2026-09-21 09:20", "W",
         "Salt Orchard printing: switched from Clays to CPI Antony Rowe - better price and they "
         "can hit the date."),
        ("2026-09-22 14:00", "W",
         "Salt Orchard print run is now 4,500 copies after strong pre-orders."),
        ("2026-09-25 15:00", "S",
         "Week summary: Salt Orchard printer switched to CPI, run up to 4,500, launch moved to "
         "Daunt, RRP corrected."),
    ]  # fmt: skip
    ws = _replayed(tmp_path / "ws", notes)
    facts = [
        line for line in (ws / "MEMORY.md").read_text().splitlines() if line.startswith("- W:")
    ]
    assert any("CPI Antony Rowe" in line and "4,500 copies" in line for line in facts)
    assert not any("Clays in Bungay" in line for line in facts)


def test_a_recap_condensed_to_a_part_or_two_is_still_a_recap(tmp_path: Path) -> None:
    """A dental practice's "Week 5: …; Dr Patel on leave next week with Dr Lindqvist covering;
    CQC inspection 4 November" was condensed to its last two parts before currency read it,
    no longer looked like a recap, and replaced "Dr Patel is on leave 12-16 October": the
    days of the leave were lost."""
    notes = [
        ("2026-10-06 10:30", "W",
         "Reminder: Dr Patel is on leave 12-16 October, Dr Lindqvist covering."),
        ("2026-10-09 14:00", "S",
         "Week 5: Dentally bedded in, mock CQC done; Dr Patel on leave next week with Dr "
         "Lindqvist covering; CQC inspection 4 November."),
    ]  # fmt: skip
    ws = _replayed(tmp_path / "ws", notes)
    memory = (ws / "MEMORY.md").read_text()
    assert "Dr Patel is on leave 12-16 October" in memory
