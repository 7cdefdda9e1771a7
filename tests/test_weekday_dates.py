"""A bare weekday ("on Friday") is resolved when its sentence says which way it points.

Before, "Maya started at Globex on Monday." was kept with no date, so a month later MEMORY.md
could not say which Monday; "tomorrow" and "last Friday" were resolved already. Now the
sentence's tense decides: a past form means the weekday before the log's day, a time to come
the one after. A habit, a move to a weekday (a schedule), the log's own weekday and a sentence
that reads both ways keep the words as written.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import temporal

WED = dt.date(2026, 11, 11)  # a Wednesday


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the past: the weekday before
        ("Maya started at Globex on Monday.", "Maya started at Globex on Monday (2026-11-09)."),
        ("On Friday, I got great news.", "On Friday (2026-11-06), I got great news."),
        ("I finished the report on Tuesday.", "I finished the report on Tuesday (2026-11-10)."),
        ("We celebrated Friday's launch.", "We celebrated Friday's (2026-11-06) launch."),
        ("Deployed on Sunday night.", "Deployed on Sunday night (2026-11-08)."),
        # a time to come: the weekday after
        ("The boxes will arrive Thursday.", "The boxes will arrive Thursday (2026-11-12)."),
        ("We're meeting Priya on Friday.", "We're meeting Priya on Friday (2026-11-13)."),
        ("Send the report by Friday.", "Send the report by Friday (2026-11-13)."),
        ("The demo is scheduled for Monday.", "The demo is scheduled for Monday (2026-11-16)."),
        # kept as written
        ("Soccer practice is on Sundays at 10am.", None),  # a habit
        ("The weekly sync is on Monday.", None),
        ("Every Friday we deploy.", None),
        ("Leo's practice moved to Saturday.", None),  # a new schedule, not a day
        # the day a change starts, said of a time to come (a plan that had never come due)
        (
            "From Monday the Zumba class will be 9 to 10 instead of 8 to 9.",
            "From Monday (2026-11-16) the Zumba class will be 9 to 10 instead of 8 to 9.",
        ),
        ("We moved the class from Monday to Thursday.", None),  # a schedule moved
        # under "next week", a weekday is in that week (a chef's notes, written on a Wednesday:
        # "Hartley dinner on Saturday" had been dated this Saturday)
        (
            "Next week: EHO visit on Thursday, Hartley dinner on Saturday.",
            "Next week (week of 2026-11-16): EHO visit on Thursday (2026-11-19), Hartley dinner "
            "on Saturday (2026-11-21).",
        ),
        ("Zumba moved from Monday.", None),  # the old day, no date
        # a name that starts like a month is no date after the weekday
        (
            "We will meet on Friday, Maria and I.",
            "We will meet on Friday (2026-11-13), Maria and I.",
        ),
        ("The standup is on Wednesday.", None),  # the log's own weekday
        ("I'm excited about Friday's party.", None),  # no tense to read
        ("Boxes arrive Thursday.", None),  # present simple: a habit or a plan
        ("Maya got married on Saturday, and she is moving on Monday.", None),  # both ways
        ("Friday, March 13 is the launch.", None),  # dated already
        ("Launch moved to Friday (2026-11-13).", None),
        # read as a user would (an exploratory test): "last" as an adjective, a day's name,
        # a past act of saying about a time to come, a past verb for a day ahead
        ("Dana's last day is Friday; she's leaving Acme.", None),
        ("Rate limit raised to 2000 rps for Black Friday.", None),
        ("Jordan mentioned his kids have a parade Friday.", None),
        (
            "Jordan mentioned his kids will have a parade Friday.",
            "Jordan mentioned his kids will have a parade Friday (2026-11-13).",
        ),
        ("I booked a table for Friday.", None),
        # a weekday that names what recurs on it (six weeks of a personal assistant's notes:
        # the class of every Saturday had read as last Saturday's)
        ("The studio shifted Sofia's Saturday ballet class to 11:30.", None),
        ("The Monday standup moved to 10:00.", None),
        ("Leo's Sunday practice went well.", "Leo's Sunday (2026-11-08) practice went well."),
        # weekdays joined into a list or a span recur (a bakery's notes: "the Tuesday/Friday
        # milk run" had become two one-off dates)
        ("Sarah called to confirm the Tuesday/Friday milk run.", None),
        ("Milk came Tuesday and Friday as usual.", None),
        ("The shop was open Monday to Friday.", None),
        (  # two clauses, each of its own day
            "We met Monday, and Tuesday was quiet.",
            "We met Monday (2026-11-09), and Tuesday (2026-11-10) was quiet.",
        ),
        (
            "We met Tuesday and agreed on the plan.",
            "We met Tuesday (2026-11-10) and agreed on the plan.",
        ),
    ],
)
def test_a_bare_weekday_is_resolved_by_its_sentence(text: str, expected: str | None) -> None:
    out = temporal.resolve(text, WED)
    assert out == (expected or text)
    assert temporal.resolve(out, WED) == out  # idempotent


def test_a_sentence_is_read_on_its_own() -> None:
    text = "I flew home on Sunday. The movers will come Friday."
    assert temporal.resolve(text, WED) == (
        "I flew home on Sunday (2026-11-08). The movers will come Friday (2026-11-13)."
    )


def test_sleep_keeps_the_date_of_a_weekday(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    when = dt.datetime.combine(WED, dt.time(10, 0))
    micro_rest("Maya started at Globex on Monday.", "W", workspace=ws, when=when)
    sleep_cycle(ws, provider="offline", now=when.replace(hour=22))
    assert "on Monday (2026-11-09)" in (ws / "MEMORY.md").read_text()


@pytest.mark.parametrize(
    "text",
    ["Starting next Monday (Nov 9) staging moves.", "See you tomorrow (Nov 12).",
     "Next week (16-20 Nov) is busy.", "We ship next Friday (the 20th)."],
)  # fmt: skip
def test_a_date_the_writer_gave_in_brackets_is_not_given_twice(text: str) -> None:
    # "next Monday (2026-11-09) (Nov 9)" before
    assert temporal.resolve(text, WED) == text
