"""The next-session section at session start shows what is still ahead: an action whose dates
have passed is not shown, a list a week older than a later sleep's output is not carried, and
an old list says its age."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from agent_sleep import get_context
from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval.context import next_session
from tests.conftest import run_cli

TODAY = dt.date(2026, 12, 4)


def _log(ws: Path, day: dt.date, section: str, *texts: str) -> None:
    micro_rest(f"a note of {day}", "B", workspace=ws, when=dt.datetime.combine(day, dt.time(9)))
    log = Workspace.at(ws).day_log(day)
    lines = "".join(
        f"- 22:00 S: {t} <!-- id={section[:1].lower()}{day:%m%d}{k:05d} -->\n"
        for k, t in enumerate(texts)
    )
    log.write_text(log.read_text() + f"\n## {section}\n\n{lines}")


def _section(ws: Path, today: dt.date = TODAY) -> str:
    text = get_context(workspace=ws, today=today)
    return text.split("## Next session", 1)[1] if "## Next session" in text else ""


def test_an_action_whose_dates_have_passed_is_not_shown(ws: Path) -> None:
    day = TODAY - dt.timedelta(days=4)
    _log(
        ws,
        day,
        "Next session",
        "Follow up: Denver internet will be Google Fiber, installed on Dec 2.",
        "Follow up: the movers come tomorrow (2026-12-01).",
        "Follow up: Leo starts at the new school on Dec 7.",
        "Follow up: Sam's birthday was 1990-05-01; send the photos.",
        "Follow up: book a dentist in Denver.",
    )
    section = _section(ws)
    assert "Google Fiber" not in section and "movers" not in section
    assert "Leo starts" in section  # still ahead
    assert "Sam's birthday" in section  # a date behind it when planned says nothing
    assert "book a dentist" in section  # no date: nothing says it is done
    # the same list seen on the day before the first date: everything still ahead
    before = _section(ws, day - dt.timedelta(days=1))
    assert before == ""  # planned after that day
    assert "Google Fiber" in _section(ws, day)


def test_a_list_all_past_gives_way_to_the_one_before(ws: Path) -> None:
    _log(ws, TODAY - dt.timedelta(days=5), "Next session", "Follow up: find a dentist in Denver.")
    _log(ws, TODAY - dt.timedelta(days=3), "Next session", "Follow up: fiber installed on Dec 2.")
    section = _section(ws)
    assert "fiber" not in section
    assert section.startswith(" (planned on 2026-11-29, 5 days ago)\n\n- 22:00 S: Follow up: find")


def test_an_old_list_says_its_age(ws: Path) -> None:
    _log(ws, TODAY - dt.timedelta(days=6), "Next session", "Follow up: ask about the offer.")
    assert _section(ws).startswith(" (planned on 2026-11-28, 6 days ago)\n\n")
    from agent_sleep.retrieval.context import planned_heading

    assert planned_heading("2026-12-03", TODAY) == "## Next session (planned on 2026-12-03)"
    two_days = "## Next session (planned on 2026-12-02, 2 days ago)"
    assert planned_heading("2026-12-02", TODAY) == two_days


def test_a_list_a_week_older_than_a_later_sleep_is_not_carried(ws: Path) -> None:
    old = TODAY - dt.timedelta(days=10)
    _log(ws, old, "Next session", "Follow up: ask whether the offer came.")
    # no sleep since: the plan is the newest there is, shown with its age
    assert _section(ws).startswith(" (planned on 2026-11-24, 10 days ago)")
    assert next_session(Workspace.at(ws), TODAY) is not None
    # a sleep that read notes two days later: the list is 2 days older than it, still shown
    _log(ws, old + dt.timedelta(days=2), "Dreams", "Changed on 2026-11-26: A → B")
    assert "ask whether the offer came" in _section(ws)
    # sleeps went on reading notes for more than a week after it: no longer shown
    _log(ws, TODAY - dt.timedelta(days=1), "Dreams", "Changed on 2026-12-03: B → C")
    assert _section(ws) == ""
    assert next_session(Workspace.at(ws), TODAY) is None
    # the context as of a day before that sleep still shows it
    assert "ask whether the offer came" in _section(ws, TODAY - dt.timedelta(days=2))


def test_a_slept_past_action_is_gone_from_the_context_a_week_on(ws: Path) -> None:
    """End to end with the offline consolidator: the action planned from a note with a date
    is shown while the date is ahead, and not once it has passed."""
    run_cli("rest", "--type", "W", "--note", "Denver internet will be Google Fiber, installed on "
            "Dec 2.", "--when", "2026-11-28T16:00", "--workspace", str(ws))  # fmt: skip
    run_cli("sleep", "--when", "2026-11-28T22:00", "--workspace", str(ws))
    log = Workspace.at(ws).day_log(dt.date(2026, 11, 28)).read_text()
    assert "## Next session" in log and "Google Fiber" in log.split("## Next session")[1]
    assert "Google Fiber" in _section(ws, dt.date(2026, 11, 30))
    assert "Google Fiber" not in _section(ws, TODAY)
