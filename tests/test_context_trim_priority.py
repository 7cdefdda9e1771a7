"""A trimmed MEMORY.md keeps what still holds, not what is newest.

Over ``max_memory_chars`` the session-start block kept what a session must not miss, then each
section's newest entries. Four users replaying five weeks of notes each found standing facts of
the first week cut (the cleaner's phone number, the insurance policy number, the boiler service
still to come) while last week's one-off events and appointments already over were shown
("Booked Sam's asthma review for 6 October" on 17 October, "Dana wants the QBR slides by Oct
13", "Maria cleaned; paid her £45 cash"). Now what names a day soon comes first with what a
session must not miss, then standing facts however old, then events, impressions, and last
what a date says is over.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from agent_sleep import get_context
from agent_sleep.retrieval.context import memory_section

TODAY = dt.date(2026, 10, 17)
BUDGET = 500

CLEANER = "Cleaner is Maria Lopes, mobile 07700 900123; she comes on Thursdays."
POLICY = "Home insurance is with Aviva, policy number AV-5531-0092."
ACCOMPANIST = "Tom Reddish is the choir's accompanist from 1 October."  # a start: no appointment
BOILER = "British Gas boiler service is on Friday (2026-10-23), 8am to 12pm."  # soon
OVER = [
    "Booked Sam's asthma review for 6 October at 9:40 with Dr Shah.",  # vital, but over
    "Emma's dentist appointment is Thu 8 Oct at 4pm.",
    "Parents' evening at Oakfield is Tuesday (2026-10-13) at 6pm.",
    "Dana wants the QBR slides by Oct 13.",
]
EVENTS = [
    "Sent Emma a reminder: dentist today (2026-10-08).",
    "Bought a new kettle from Argos for £24.",
    "Took the car through the hand car wash on Mill Lane.",
    "Returned the library books to the Heaton branch.",
    "Ordered black printer ink from Cartridge People.",
    "Walked the dog at Heaton Park with Jo.",
    "Maria cleaned; paid her £45 cash.",
]


def _entry(kind: str, text: str, n: int, day: str) -> str:
    return f"- {kind}: {text} <!-- id=trim{n:06d} sources=note{n:05d} date={day} -->"


def _memory() -> str:
    """Facts learned in September, appointments made since, and a week of events."""
    facts = [
        _entry("W", CLEANER, 1, "2026-09-07"),
        _entry("W", POLICY, 2, "2026-09-08"),
        _entry("W", BOILER, 3, "2026-09-10"),
        _entry("W", OVER[0], 4, "2026-09-20"),
        _entry("W", ACCOMPANIST, 5, "2026-09-29"),
        _entry("W", OVER[1], 6, "2026-10-01"),
        _entry("W", OVER[2], 7, "2026-10-09"),
        _entry("W", OVER[3], 8, "2026-10-12"),
    ]
    events = [_entry("B", EVENTS[0], 10, "2026-10-08")]
    events += [_entry("B", t, 10 + k, f"2026-10-{9 + k:02d}") for k, t in enumerate(EVENTS[1:], 1)]
    return (
        "# MEMORY\n\n## Facts\n\n"
        + "\n".join(facts)
        + "\n\n## Experiences\n\n"
        + "\n".join(events)
        + "\n"
    )


def _entries(section: str) -> list[str]:
    """The entries shown, without the day each was said (" (said 7 Sep)")."""
    return [
        re.sub(r" \(said \d{1,2} [A-Z][a-z]{2}\)$", "", line[5:])
        for line in section.splitlines()
        if line.startswith("- ")
    ]


def test_standing_and_upcoming_facts_are_kept_over_events_and_what_is_over() -> None:
    section = memory_section(_memory(), BUDGET, today=TODAY)
    shown = _entries(section)
    for fact in (CLEANER, POLICY, ACCOMPANIST, BOILER):
        assert fact in shown, section  # before: cut for the newer entries below
    for over in OVER:
        assert over not in shown, section  # before: all four shown
    assert EVENTS[-1] in shown  # the newest events fill the room left after the facts
    assert EVENTS[1] not in shown  # a week-old kettle is cut before a month-old phone number
    assert EVENTS[0] not in shown  # the oldest event goes first
    assert re.search(r"\[MEMORY\.md trimmed to max_memory_chars=500: \d+ older entries", section)


def test_the_trimmed_memory_fits_and_shows_whole_entries_in_the_files_order() -> None:
    text = _memory()
    section = memory_section(text, BUDGET, today=TODAY)
    body, _, notice = section.rpartition("\n\n[MEMORY.md trimmed")
    assert notice and len(body) <= BUDGET
    written = [re.sub(r" <!--.*-->$", "", line)[5:] for line in text.splitlines() if "<!--" in line]
    shown = _entries(body)
    assert shown == [e for e in written if e in shown]  # whole entries, in the file's order
    assert "### Facts" in body and "### Experiences" in body


def test_a_date_is_read_against_today() -> None:
    """On 2 October the asthma review and Emma's dentist appointment are still to come: with
    the boiler service, they are kept before the standing facts."""
    written = [(re.findall(r"date=([\d-]+)", line) or [""])[0] for line in _memory().splitlines()]
    text = "".join(  # MEMORY.md as it stood on 2 October: nothing written after 1 October
        line + "\n"
        for line, day in zip(_memory().splitlines(), written, strict=True)
        if day <= "2026-10-01"
    )
    assert OVER[1] in text and OVER[2] not in text
    shown = _entries(memory_section(text, 310, today=dt.date(2026, 10, 2)))
    assert shown == [BOILER, OVER[0], OVER[1]]


def test_the_session_start_block_keeps_what_still_holds(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "MEMORY.md").write_text(_memory())
    block = get_context(ws, max_memory_chars=BUDGET, today=TODAY)
    assert CLEANER in block and BOILER in block and "trimmed" in block
    assert "QBR slides" not in block and "asthma review" not in block
    assert (ws / "MEMORY.md").read_text() == _memory()  # nothing written


def test_the_date_of_a_reason_after_what_was_done_is_no_appointment() -> None:
    """ "Switched from Ace Skips to BinGo Skips - Ace couldn't swap until next week (week of
    2026-09-28)" was read as over once that week had passed, so the skip firm was cut at
    session start (a house renovation's notes)."""
    from agent_sleep.retrieval.context import when

    switched = (
        "Switched from Ace Skips to BinGo Skips - Ace couldn't swap until next week "
        "(week of 2026-09-28)."
    )
    assert when(switched, dt.date(2026, 9, 22), TODAY) == "past"  # a standing fact, for W
    booked = "Skip swap booked with Ace for next week (week of 2026-09-28)."
    assert when(booked, dt.date(2026, 9, 22), TODAY) == "over"


@pytest.mark.parametrize(
    ("text", "written"),
    [
        # what was done that day, before what the new provider will do (a smallholding's
        # butcher, cut at session start as an appointment gone by)
        ("Signed with Haddon Meats in Northallerton today (2026-09-25) — they'll do all our "
         "butchery.", dt.date(2026, 9, 25)),
        # a day from which it holds
        ("The market office has moved us to pitch 22 at Ashby, by the fountain, from this "
         "Saturday (2026-10-03).", dt.date(2026, 10, 1)),
        # a week from which it holds (a food bank's new shift lead, cut at session start)
        ("Friday shift lead is Lucy Brennan from this week (week of 2026-09-28); Kwame's going "
         "over to the warehouse team.", dt.date(2026, 10, 1)),
        # a day a timetable starts (a garden centre's café, cut at session start)
        ("Winter hours for the café start Monday (2026-10-05): it'll close at 4pm.",
         dt.date(2026, 10, 2)),
    ],
)  # fmt: skip
def test_a_day_done_or_a_day_from_which_it_holds_is_not_over(text: str, written: dt.date) -> None:
    from agent_sleep.retrieval.context import when

    assert when(text, written, dt.date(2026, 10, 10)) != "over"
    # an appointment that lay ahead is
    booked = "Booked Sam's asthma review for 6 October."
    assert when(booked, written, dt.date(2026, 10, 10)) == "over"
