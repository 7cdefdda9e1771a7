"""The letters of a ticket code are no name, so no entity page is named after them.

Notes like "Dave reviewed the search cluster ticket PAY-1049 and found latency of 49 ms" filed a
run's entries on ``bank/entities/pay.md``: "PAY" was read as a name, and as the name every note
shared it outranked the people (an exploratory test; "BUG-240" likewise made ``bug.md``).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest
from agent_sleep.analysis import distill
from agent_sleep.consolidation.sleep import sleep_cycle

TICKETS = [
    "Dave reviewed the search cluster ticket PAY-1049 and found latency of 49 ms",
    "Erin closed PAY-1050 after the auth gateway fix",
    "Fixed BUG-325 in the Stripe webhook handler",
    "ABC-DEF-12 blocks the release",
]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (TICKETS[0], ["Dave"]),
        (TICKETS[1], ["Erin"]),
        (TICKETS[2], ["Stripe"]),
        (TICKETS[3], []),
        ("The PAY project moved to Jira", ["PAY", "Jira"]),  # the word alone is a name
        ("Upgraded the laptops to Windows-11 today", ["Windows"]),  # not capitals: no code
        # the letters of a code or a model written with its number (a bicycle shop's "Di2", a
        # school's "KS3", a module's "GEO1010" had made pages "patel-di", "ks", "geo")
        ("Mr. Patel's Di2 battery is on back order", ["Patel"]),
        ("Year 8 moved KS3 science to Lab 4", ["Lab"]),
        ("Dr Aisha Bello is module leader for GEO2110", ["Aisha Bello"]),
    ],
)
def test_the_letters_of_a_code_are_no_name(text: str, found: list[str]) -> None:
    assert distill.names(text, {"Dave", "Erin"}) == found


def test_a_code_opening_notes_is_no_known_name() -> None:
    known = distill.known_names(["PAY-12 is done.", "PAY-13 is next.", "BUG-9 is open."])
    assert not known & {"PAY", "BUG"}


def test_sleep_files_ticket_notes_on_the_peoples_pages(ws: Path) -> None:
    people, things = ["Dave", "Erin", "Ivan"], ["search cluster", "auth gateway", "billing"]
    now = dt.datetime(2026, 12, 5, 9, 0)
    for i in range(12):
        text = (
            f"{people[i % 3]} reviewed the {things[i // 4]} ticket PAY-{1040 + i} and found "
            f"latency of {40 + i} ms"
        )
        micro_rest(text, "B", workspace=ws, when=now + dt.timedelta(minutes=i))
    sleep_cycle(ws, "both", "offline", now=now.replace(hour=22))
    pages = sorted(p.name for p in (ws / "bank" / "entities").glob("*.md"))
    assert pages == ["dave.md", "erin.md", "ivan.md"]  # before: dave.md and pay.md


def test_what_was_done_and_to_whom_is_no_speaker() -> None:
    """ "Called Mr. Patel: the Di2 battery is still on back order." had filed the note on a page
    named "Called Mr Patel", its label read as the speaker of a chat turn."""
    from agent_sleep.analysis import lexical

    assert lexical.split_speaker("Called Mr. Patel: the Di2 battery is still on back order.") == (
        "",
        "Called Mr. Patel: the Di2 battery is still on back order.",
    )
    assert lexical.split_speaker("Caroline: I went there.") == ("Caroline: ", "I went there.")
    assert lexical.split_speaker("Dr Okafor: see you Monday.")[0] == "Dr Okafor: "
