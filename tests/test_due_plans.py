"""A planned change replaces the entry it changes once its day has come.

"Standup moves to 10:15 starting next Monday", slept on the Thursday before, is a plan: it is
added beside "Team standup is at 9:30 every weekday". Before, nothing later said the move had
happened, so both times stayed current for good (an exploratory test of six weeks of notes).
Now the first sleep on or after that Monday moves 9:30 to History, replaced by the plan.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.consolidation import due
from agent_sleep.core import notes
from agent_sleep.core.notes import Note


def _entry(i: str, text: str, date: str) -> Note:
    return Note(type="W", text=text, id=i * 10, time="", confidence=None, meta={"date": date})


@pytest.mark.parametrize(
    ("text", "done"),
    [
        ("Standup moves to 10:15 starting next Monday (2026-11-16).",
         "Standup moved to 10:15 starting next Monday (2026-11-16)."),
        ("The team will switch to Linear from next week (week of 2026-11-16).",
         "The team switched to Linear from next week (week of 2026-11-16)."),
        ("We're moving the office to Lisbon from December (2026-12).",
         "We moved the office to Lisbon from December (2026-12)."),
        ("Standup moved to 10:15 starting Monday (2026-11-16).", None),  # said as done
        ("Standup is at 10:15 from Monday (2026-11-16).", None),  # no change said
        # "will be" with the value it will be, or the one it replaces
        ("From Monday (2026-11-16) Zumba will be 9 to 10 instead of 8 to 9.",
         "From Monday (2026-11-16) Zumba is now 9 to 10 instead of 8 to 9."),
        ("From March (2027-03) the rent will be £950.",
         "From March (2027-03) the rent is now £950."),
        ("The pool will be closed from Monday (2026-11-16).", None),  # no value said
    ],
)  # fmt: skip
def test_a_change_to_come_is_read_as_done(text: str, done: str | None) -> None:
    assert due.as_done(text) == done


def test_a_plan_replaces_the_entry_it_changes_from_its_day_on(similar: object) -> None:
    standup = _entry("a", "Team standup is at 9:30 every weekday on Zoom.", "2026-11-09")
    allergy = _entry("b", "Maya is allergic to penicillin.", "2026-11-09")
    plan = _entry("c", "Standup moves to 10:15 starting next Monday (2026-11-16).", "2026-11-12")
    memory = [standup, allergy, plan]
    sim = similar  # type: ignore[assignment]
    assert due.plans(memory, dt.date(2026, 11, 13), sim) == {}  # not yet
    assert due.plans(memory, dt.date(2026, 11, 16), sim) == {standup.id: plan}
    assert due.plans(memory, dt.date(2026, 12, 1), sim) == {standup.id: plan}
    assert due.plans(memory, dt.date(2027, 3, 1), sim) == {}  # long past: not read again
    # an entry written after the plan is not what it changes
    later = _entry("d", "Team standup is at 9:45 every weekday.", "2026-11-14")
    assert due.plans([later, plan], dt.date(2026, 11, 20), sim) == {}


def test_a_plan_of_another_thing_replaces_nothing(similar: object) -> None:
    memory = [
        _entry("a", "Team standup is at 9:30 every weekday on Zoom.", "2026-11-09"),
        _entry("b", "The billing service is written in Go.", "2026-11-09"),
        _entry("c", "Maya's gym moves to Riverside starting next month (2026-12).", "2026-11-12"),
    ]
    assert due.plans(memory, dt.date(2026, 12, 2), similar) == {}  # type: ignore[arg-type]


def _at(day: int, hour: int) -> dt.datetime:
    return dt.datetime(2026, 11, day, hour, 0)


def _memory(ws: Path) -> list[str]:
    return [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text())]


def test_sleep_applies_a_plan_once_its_day_has_come(ws: Path) -> None:
    micro_rest("Team standup is at 9:30 every weekday on Zoom.", "W", workspace=ws, when=_at(9, 9))
    sleep_cycle(ws, provider="offline", now=_at(9, 22))
    micro_rest("Standup moves to 10:15 starting next Monday.", "W", workspace=ws, when=_at(12, 9))
    sleep_cycle(ws, provider="offline", now=_at(12, 22))
    assert len([t for t in _memory(ws) if "tandup" in t]) == 2  # a plan: 9:30 still holds
    r = sleep_cycle(ws, provider="offline", now=_at(13, 22))
    assert r.run_id is None  # the plan's day has not come: nothing to do
    r = sleep_cycle(ws, provider="offline", now=_at(17, 22))  # no note pending: a run of its own
    assert r.run_id and r.decisions.get("memory_due") == 1, r
    assert [t for t in _memory(ws) if "tandup" in t] == [
        "Standup moves to 10:15 starting next Monday (2026-11-16)."
    ]
    assert any("9:30" in p.read_text() for p in (ws / "bank").rglob("*.md"))  # in History
    # undone byte for byte like any run
    from agent_sleep.consolidation.journal import rollback

    rollback(ws, r.run_id)
    assert len([t for t in _memory(ws) if "tandup" in t]) == 2


def test_a_plan_slept_after_its_day_is_applied_in_the_same_run(ws: Path) -> None:
    """A user who sleeps once a week: the plan, written on the Thursday, is first slept on the
    Tuesday after its Monday. Before, it was filed beside 9:30 and only the next run applied it."""

    micro_rest("Team standup is at 9:30 every weekday on Zoom.", "W", workspace=ws, when=_at(9, 9))
    micro_rest("Maya is allergic to penicillin.", "W", workspace=ws, when=_at(9, 10))
    sleep_cycle(ws, provider="offline", now=_at(9, 22))
    micro_rest("Standup moves to 10:15 starting next Monday.", "W", workspace=ws, when=_at(12, 9))
    r = sleep_cycle(ws, provider="offline", now=_at(17, 22))
    assert r.decisions.get("memory_due") == 1, r
    assert [t for t in _memory(ws) if "tandup" in t] == [
        "Standup moves to 10:15 starting next Monday (2026-11-16)."
    ]
    assert "Maya is allergic to penicillin." in _memory(ws)
    from agent_sleep.consolidation.journal import rollback

    rollback(ws, r.run_id)
    assert [t for t in _memory(ws) if "tandup" in t] == [
        "Team standup is at 9:30 every weekday on Zoom."
    ]


def test_a_plan_slept_before_its_day_waits_in_the_same_run(ws: Path) -> None:
    micro_rest("Team standup is at 9:30 every weekday on Zoom.", "W", workspace=ws, when=_at(9, 9))
    sleep_cycle(ws, provider="offline", now=_at(9, 22))
    micro_rest("Standup moves to 10:15 starting next Monday.", "W", workspace=ws, when=_at(12, 9))
    r = sleep_cycle(ws, provider="offline", now=_at(15, 22))  # the Sunday before
    assert not r.decisions.get("memory_due"), r
    assert len([t for t in _memory(ws) if "tandup" in t]) == 2


def test_a_plan_from_a_bare_weekday_with_will_be_comes_due(ws: Path) -> None:
    """An exploratory test's carer: "From Monday … will be 9 to 10 instead of 8 to 9" was kept
    as written (no date after "from Monday", no change word), so both times stayed current."""
    zumba = "Zumba at the leisure centre is 8 to 9 on Tuesdays."
    micro_rest(zumba, "W", workspace=ws, when=_at(9, 9))
    sleep_cycle(ws, provider="offline", now=_at(9, 22))
    micro_rest(
        "From Monday the Zumba class will be 9 to 10 instead of 8 to 9.",
        "W",
        workspace=ws,
        when=_at(12, 9),  # a Thursday
    )
    sleep_cycle(ws, provider="offline", now=_at(12, 22))
    assert len([t for t in _memory(ws) if "Zumba" in t]) == 2  # not yet
    r = sleep_cycle(ws, provider="offline", now=_at(16, 22))
    assert r.decisions.get("memory_due") == 1, r
    assert [t for t in _memory(ws) if "Zumba" in t] == [
        "From Monday (2026-11-16) the Zumba class will be 9 to 10 instead of 8 to 9."
    ]


def test_a_plan_read_as_a_change_when_slept_is_not_applied_again(similar: object) -> None:
    """A plan that already replaced an entry the night it was slept (its ``supersedes=``) is
    not read again on its day: what it replaced is gone, and another entry it looks like (a
    lab's room, for "Lab meeting is moving to Thursdays …") must not go too."""
    standup = _entry("a", "Team standup is at 9:30.", "2026-11-09")
    plan = _entry("b", "Team standup moves to 10:15 from 16 November.", "2026-11-12")
    assert set(due.plans([standup, plan], dt.date(2026, 11, 16), similar)) == {"aaaaaaaaaa"}  # type: ignore[arg-type]
    plan.meta["supersedes"] = "cccccccccc"
    assert due.plans([standup, plan], dt.date(2026, 11, 16), similar) == {}  # type: ignore[arg-type]
