"""Holding something off until a weekday points ahead; a weekday's nights or shifts are a habit.

Before, "Held the docs deploy until Monday because the review ran past 15:00." in the log of
Friday 2026-09-18 was dated the Monday before (2026-09-14): a past verb anywhere in the
sentence ("ran") made "until Monday" read as the past. Holding, pausing, postponing or pushing
something until a weekday puts it off to a day still to come, whatever the tense, so now it is
the Monday after. "I was off sick until Monday" is a past state that ended: still the Monday
before.

And "Hannah Moss will do Saturday nights from 3 October" was rewritten "Saturday (2026-09-26)
nights", though "Saturday nights" is a slot that recurs, not one date. A weekday before a plural
time of day or occasion (nights, mornings, shifts, classes) is now kept as written; "Saturday
night", one night, is still resolved.
"""

from __future__ import annotations

import datetime as dt

import pytest

from agent_sleep.analysis import temporal

FRI = dt.date(2026, 9, 18)  # a Friday
FRI2 = dt.date(2026, 9, 25)  # the Friday after


@pytest.mark.parametrize(
    ("text", "day", "expected"),
    [
        # holding something off until a weekday: the weekday after, whatever the tense
        (
            "Held the docs deploy until Monday because the review ran past 15:00.",
            FRI,
            "Held the docs deploy until Monday (2026-09-21) because the review ran past 15:00.",
        ),
        (
            "The release was postponed until Wednesday.",
            FRI,
            "The release was postponed until Wednesday (2026-09-23).",
        ),
        (
            "Pushed the launch till Tuesday as the copy was late.",
            FRI,
            "Pushed the launch till Tuesday (2026-09-22) as the copy was late.",
        ),
        (
            "Put the migration off until Tuesday since Sam was away.",
            FRI,
            "Put the migration off until Tuesday (2026-09-22) since Sam was away.",
        ),
        (
            "Froze the main branch until Monday after the outage yesterday.",
            FRI,
            "Froze the main branch until Monday (2026-09-21) after the outage yesterday "
            "(2026-09-17).",
        ),
        (
            "The vendor deferred the call until Thursday, which was a relief.",
            FRI,
            "The vendor deferred the call until Thursday (2026-09-24), which was a relief.",
        ),
        (
            "The rollout was on hold until Monday.",
            FRI,
            "The rollout was on hold until Monday (2026-09-21).",
        ),
        # a past state that ended: the weekday before, as it was
        ("I was off sick until Monday.", FRI, "I was off sick until Monday (2026-09-14)."),
        ("Dana was out until Monday.", FRI, "Dana was out until Monday (2026-09-14)."),
        # a verb of holding in another clause says nothing of this "until"
        (
            "We postponed the demo because I was off sick until Monday.",
            FRI,
            "We postponed the demo because I was off sick until Monday (2026-09-14).",
        ),
        # a weekday's nights, mornings or shifts: a habit, kept as written
        ("Hannah Moss will do Saturday nights from 3 October, £12 an hour.", FRI2, None),
        (
            "Leo will take Tuesday evenings and Saturday mornings from next month.",
            FRI2,
            "Leo will take Tuesday evenings and Saturday mornings from next month (2026-10).",
        ),
        ("She will cover the Sunday morning shifts.", FRI2, None),
        # one night: resolved as before
        (
            "Hannah will work Saturday night, £12 an hour.",
            FRI2,
            "Hannah will work Saturday night (2026-09-26), £12 an hour.",
        ),
        ("We went out on Tuesday night.", FRI2, "We went out on Tuesday night (2026-09-22)."),
        ("See you Saturday night.", FRI2, None),  # no tense said: kept, as before
    ],
)
def test_holds_point_ahead_and_recurring_slots_are_kept(
    text: str, day: dt.date, expected: str | None
) -> None:
    out = temporal.resolve(text, day)
    assert out == (expected or text)
    assert temporal.resolve(out, day) == out  # idempotent


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a rule of every month, not last week's Friday (a restaurant's notes: "Staff are paid
        # on the last Friday (2026-09-11) of the month")
        ("Staff are paid on the last Friday of the month.",
         "Staff are paid on the last Friday of the month."),
        # still resolved: "last Friday" alone, and a weekday after a preposition
        ("We paid them last Friday.", "We paid them last Friday (2026-09-18)."),
        ("Met Dana on Friday about the menu.", "Met Dana on Friday (2026-09-18) about the menu."),
    ],
)  # fmt: skip
def test_a_weekday_of_every_month_is_kept(text: str, expected: str) -> None:
    assert temporal.resolve(text, dt.date(2026, 9, 23)) == expected


@pytest.mark.parametrize(
    ("text", "day", "expected"),
    [
        # the weekday a thing's day is falls every week: no date (it had been last Thursday's,
        # for the past verb after it)
        ("Jake's college day is now Thursday, Bexley College changed the timetable.",
         dt.date(2026, 9, 21),
         "Jake's college day is now Thursday, Bexley College changed the timetable."),
        ("Bin day is Tuesday.", FRI, "Bin day is Tuesday."),
        # what one is ready to do on a weekday is still to come: not the Monday before
        ("Finalised the Lottery application, ready to submit on Monday.", dt.date(2026, 10, 9),
         "Finalised the Lottery application, ready to submit on Monday."),
        # a day that was is still dated
        ("The day was Monday, we met Tom.", dt.date(2026, 10, 9),
         "The day was Monday (2026-10-05), we met Tom."),
        ("Sent the draft on Monday.", dt.date(2026, 10, 9),
         "Sent the draft on Monday (2026-10-05)."),
    ],
)  # fmt: skip
def test_a_things_weekday_and_a_readiness(text: str, day: dt.date, expected: str) -> None:
    assert temporal.resolve(text, day) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the date says when: the weekday beside it is none of its own (it had become
        # "(Sunday (2026-09-06) edition)")
        ("Claire has pencilled publication for 18 October (Sunday edition).",
         "Claire has pencilled publication for 18 October (Sunday edition)."),
        ("Paid Friday; the next invoice is due 3 October.",
         "Paid Friday; the next invoice is due 3 October."),
        # a weekday alone is still dated
        ("Met Tom on Friday.", "Met Tom on Friday (2026-09-04)."),
    ],
)  # fmt: skip
def test_a_weekday_beside_a_date_is_not_dated(text: str, expected: str) -> None:
    assert temporal.resolve(text, dt.date(2026, 9, 9)) == expected


def test_a_count_of_things_in_a_span_is_no_day_ahead() -> None:
    """A sales director's assistant noted "three customer meetings in two days": a span, which
    had become "in two days (2026-09-20)"."""
    day = dt.date(2026, 9, 18)
    assert temporal.resolve("Tough week: three customer meetings in two days.", day) == (
        "Tough week: three customer meetings in two days."
    )
    assert temporal.resolve("Sold 40 bikes in two weeks.", day) == "Sold 40 bikes in two weeks."
    assert (
        temporal.resolve("We fly out in two days.", day) == "We fly out in two days (2026-09-20)."
    )
    assert (
        temporal.resolve("Invoices are due in 30 days.", day)
        == "Invoices are due in 30 days (2026-10-18)."
    )


@pytest.mark.parametrize(
    "text",
    [
        "Leanne is taking Tomasz's place on the Saturday bar rota",
        "Joe Tanaka is joining the Saturday shed rota too.",
        "Connor Blake covered the Saturday walks for Jade.",
        "The committee has switched its monthly meeting to the first Tuesday.",
    ],
)
def test_a_rota_or_an_ordinal_weekday_is_no_date(text: str) -> None:
    """Replayed scenarios found "the Saturday bar rota" written "the Saturday (2026-09-19) bar
    rota" and "the first Tuesday" of each month dated the Tuesday before: a rota, a weekday's
    walks and an ordinal weekday name days that recur."""
    assert temporal.resolve(text, FRI2) == text
    # one Saturday is still a date
    assert temporal.resolve("Leanne worked the bar on Saturday.", FRI2) == (
        "Leanne worked the bar on Saturday (2026-09-19)."
    )


def test_a_weekday_of_what_holds_from_now_on_is_no_date() -> None:
    """A sailing club's replay: "Sunday first gun will be 11:00 from now on" was written
    "Sunday (2026-09-20) first gun …", a rule for every Sunday pinned to one."""
    text = "Race officer: Sunday first gun will be 11:00 from now on, because of the low tides."
    assert temporal.resolve(text, FRI2) == text
    assert temporal.resolve("Race officer: Sunday first gun will be 11:00.", FRI2) == (
        "Race officer: Sunday (2026-09-27) first gun will be 11:00."
    )
