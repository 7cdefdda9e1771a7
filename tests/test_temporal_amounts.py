"""Relative times counted in days, weeks, months or years, however the amount is said.

"two weeks from now" reached MEMORY.md with no date while "in two weeks" was resolved, and "a
couple of days ago" was never dated (an exploratory test). "A couple" is two; "a few" is
resolved to the range two to four gives, earliest first, so no precise day is invented;
"several" is left as written.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import temporal

MAY8 = dt.date(2023, 5, 8)  # a Monday


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "from now" / "from today", as "in N" is
        ("two weeks from now", "two weeks from now (2023-05-22)"),
        ("3 days from now", "3 days from now (2023-05-11)"),
        ("a week from today", "a week from today (2023-05-15)"),  # not "today (2023-05-08)"
        ("six months from now", "six months from now (2023-11)"),
        ("a year from now", "a year from now (2024)"),
        # a couple: two
        ("a couple of days ago", "a couple of days ago (2023-05-06)"),
        ("a couple days ago", "a couple days ago (2023-05-06)"),
        ("A couple of weeks ago", "A couple of weeks ago (2023-04-24)"),
        ("in a couple of weeks", "in a couple of weeks (2023-05-22)"),
        ("a couple of months from now", "a couple of months from now (2023-07)"),
        # a few: a range, earliest first
        ("a few days ago", "a few days ago (2023-05-04 to 2023-05-06)"),
        ("a few weeks ago", "a few weeks ago (2023-04-10 to 2023-04-24)"),
        ("a few months ago", "a few months ago (2023-01 to 2023-03)"),
        ("a few years ago", "a few years ago (2019 to 2021)"),
        ("in a few days", "in a few days (2023-05-10 to 2023-05-12)"),
        ("a few days from now", "a few days from now (2023-05-10 to 2023-05-12)"),
        # what was resolved before still is
        ("in two weeks", "in two weeks (2023-05-22)"),
        ("two weeks ago", "two weeks ago (2023-04-24)"),
        ("3 days ago", "3 days ago (2023-05-05)"),
        ("a month ago", "a month ago (2023-04)"),
        ("today", "today (2023-05-08)"),
        # no date to give
        ("several days ago", "several days ago"),
        ("From now on, always stream large exports.", "From now on, always stream large exports."),
        ("Two weeks from now on we review weekly.", "Two weeks from now on we review weekly."),
        ("for a few days", "for a few days"),
    ],
)
def test_an_amount_of_time_before_or_after_the_log_is_dated(text: str, expected: str) -> None:
    assert temporal.resolve(text, MAY8) == expected
    assert temporal.resolve(expected, MAY8) == expected  # idempotent


@pytest.mark.parametrize(
    "text",
    ["two weeks from now", "a couple of days ago", "a few days ago", "several weeks ago"],
)
def test_each_is_one_relative_expression(text: str) -> None:
    """For the preservation metric, and for the flush, which keeps a plan only with a date."""
    assert [(e.kind, e.text) for e in temporal.extract(f"We met {text}.")] == [("relative", text)]


def test_sleep_keeps_the_date_of_two_weeks_from_now(ws: Path) -> None:
    when = dt.datetime(2023, 5, 8, 14, 5)
    micro_rest("User prefers the deploy to happen two weeks from now", "O", workspace=ws, when=when)
    micro_rest("The audit logs were rotated a couple of days ago", "W", workspace=ws, when=when)
    sleep_cycle(ws, provider="offline", now=when.replace(hour=22))
    memory = (ws / "MEMORY.md").read_text()
    assert "two weeks from now (2023-05-22)" in memory
    assert "a couple of days ago (2023-05-06)" in memory


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a span from the day: no calendar week ("Watch for dizziness over the next week" was
        # dated a week late, "(week of 2026-03-16)")
        ("Watch for dizziness over the next week.", "Watch for dizziness over the next week."),
        ("Spent the last month on the grant.", "Spent the last month on the grant."),
        # a calendar week still is one
        ("Dentist next week.", "Dentist next week (week of 2026-03-16)."),
    ],
)
def test_the_next_week_is_a_span(text: str, expected: str) -> None:
    assert temporal.resolve(text, dt.date(2026, 3, 9)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the tour's last night is no night before the note (a replayed band tour's notes)
        ("Glasgow is the last night of the tour.", "Glasgow is the last night of the tour."),
        ("Last night the van broke down.", "Last night (2023-05-07) the van broke down."),
    ],
)
def test_the_last_night_of_something_is_no_day(text: str, expected: str) -> None:
    assert temporal.resolve(text, MAY8) == expected
