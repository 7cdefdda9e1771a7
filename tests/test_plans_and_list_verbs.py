"""A plan replaces nothing until its day, not even an entry the rules cannot read; a list
item's verb is no item of the list.

Found replaying a dental practice's six weeks of notes: "Dr. Fletcher no longer works Mondays;
from this week he does Wednesdays and Fridays" rewrote "Dr. Tom Fletcher, our associate dentist,
works Mondays and Wednesdays in chair 2" as "…, our associate dentist, Wednesdays in chair 2"
(the item taken out was "works Mondays"). Four days later the learned guess read the plan "From
next week the staff meeting will be 1pm Friday instead of 8am Monday" as an update of that
entry, which the rules could no longer parse, and wrote the staff meeting into the dentist's
entry in place of his Fridays.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import lists
from agent_sleep.core import notes
from tests.currency_support import replaces

FLETCHER = "Dr. Tom Fletcher, our associate dentist, works Mondays and Wednesdays in chair 2."
NO_MONDAYS = "Dr. Fletcher no longer works Mondays; from this week he does Wednesdays and Fridays."
MEETING = "Weekly staff meeting is 8am Monday, before the first patient."
PLAN = "From next week the staff meeting will be 1pm Friday instead of 8am Monday."


@pytest.mark.parametrize(
    ("old", "new", "edited"),
    [
        (FLETCHER, NO_MONDAYS,
         "Dr. Tom Fletcher, our associate dentist, works Wednesdays in chair 2. From this week "
         "he does Wednesdays and Fridays."),
        ("Priya works Mondays, Tuesdays and Fridays at the Leeds office.",
         "Priya no longer works Tuesdays.", "Priya works Mondays and Fridays at the Leeds office."),
        ("Ms. Okafor teaches French and Spanish to Year 9.",
         "Ms. Okafor no longer teaches Spanish.", "Ms. Okafor teaches French to Year 9."),
    ],
)  # fmt: skip
def test_the_verb_before_an_item_stays(old: str, new: str, edited: str) -> None:
    edit = lists.edited(new, old)
    assert edit is not None and edit.text == edited


def test_a_title_ends_no_clause() -> None:
    assert lists._clauses("Dr. Fletcher no longer works Mondays; he does Fridays") == [
        "Dr. Fletcher no longer works Mondays",
        "he does Fridays",
    ]


@pytest.mark.parametrize(
    "old",
    [
        "Dr. Tom Fletcher, our associate dentist, works Wednesdays in chair 2. From this week he "
        "does Wednesdays and Fridays.",
        "Dr. Tom Fletcher, our associate dentist, Wednesdays in chair 2. From this week he does "
        "Wednesdays and Fridays.",
    ],
)
def test_a_plan_is_no_update_of_an_entry_the_rules_cannot_read(old: str) -> None:
    assert not replaces(("W", old), ("W", PLAN))


def _at(day: int, hour: int) -> dt.datetime:
    return dt.datetime(2026, 9, day, hour, 0)


def _memory(ws: Path) -> list[str]:
    return [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text())]


def test_the_dentist_keeps_his_days_and_the_meeting_moves_when_due(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    micro_rest(FLETCHER, "W", workspace=ws, when=_at(7, 9))
    micro_rest(MEETING, "W", workspace=ws, when=_at(7, 10))
    sleep_cycle(ws, provider="offline", now=_at(7, 23))
    micro_rest(NO_MONDAYS, "W", workspace=ws, when=_at(21, 9))
    sleep_cycle(ws, provider="offline", now=_at(21, 23))
    micro_rest(PLAN, "W", workspace=ws, when=_at(25, 9))  # a Friday: the plan's week is the 28th
    sleep_cycle(ws, provider="offline", now=_at(25, 23))
    dentist = [t for t in _memory(ws) if "Fletcher" in t]
    assert len(dentist) == 1
    assert "works Wednesdays" in dentist[0] and "Fridays" in dentist[0]
    assert "Mondays" not in dentist[0] and "staff meeting" not in dentist[0]
    assert MEETING in _memory(ws)  # until the plan's week, the Monday meeting holds
    micro_rest("Emailed the team about the staff meeting change.", "B", workspace=ws,
               when=_at(29, 9))  # fmt: skip
    sleep_cycle(ws, provider="offline", now=_at(29, 23))
    memory = _memory(ws)
    assert MEETING not in memory
    assert any(t.startswith("From next week (week of 2026-09-28) the staff meeting will be 1pm")
               for t in memory)  # fmt: skip
    assert [t for t in memory if "Fletcher" in t] == dentist
