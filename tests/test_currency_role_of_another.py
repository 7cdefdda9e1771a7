"""A role said after a note names what it is about belongs to that thing; a liking is no attribute.

Exploratory tests, untuned. A bakery's notes: "Bramble Café standing order is …; contact is
Jonas Berg" retired "Main bread flour is T65 from Millstone Mills … Contact there is Dave
Okafor" (two contacts, read as one attribute), and a plumber's contact was retired by a window
cleaner's. A renovation's: "Switched the countertop to Taj Mahal quartzite - Priya and Arjun
both preferred its warmer tones" retired "Priya likes the matte black finish for the kitchen
faucet" (both "preference"). The updates of a contact are still read.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import distill
from tests.currency_support import replaced, replaces


def _replaces(
    old: tuple[str, str], new: tuple[str, str], names: frozenset[str] = frozenset()
) -> bool:
    return replaces(old, new, names)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (("W", "Main bread flour is T65 from Millstone Mills, £18.40 per 25kg sack. Contact there "
               "is Dave Okafor (dave@millstonemills.co.uk)."),
         ("W", "Bramble Café standing order is 30 croissants and 8 sourdough loaves daily "
               "Tue–Sat; contact is Jonas Berg.")),
        (("W", "Our plumber is Stone Plumbing; contact is Ray Stone."),
         ("W", "The window cleaner is ClearView; contact is Jonas Berg.")),
        # a kind of role, said after the note names its customer (a support lead's notes)
        (("W", "Northwind Logistics: Enterprise plan, 450 seats, CSM Priya Raman. Escalation "
               "contact on their side is Tom Becker (VP Ops)."),
         ("W", "Kestrel Bank is on the Business plan with 350 seats. Escalation contact: Ruth "
               "Adler.")),
        (("O", "Priya likes the matte black finish for the kitchen faucet (Delta Trinsic)."),
         ("W", "Switched the countertop to Taj Mahal quartzite - Priya and Arjun both preferred "
               "its warmer tones over the Calacatta Laza quartz.")),
    ],
)  # fmt: skip
def test_another_things_role_or_liking_replaces_nothing(
    old: tuple[str, str], new: tuple[str, str]
) -> None:
    names = frozenset(distill.names(old[1]) + distill.names(new[1]))  # as a sleep reads them
    assert not _replaces(old, new, names)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (("W", "Our plumber is Stone Plumbing; contact is Ray Stone."),
         ("W", "Stone Plumbing's contact is now Jonas Berg.")),
        (("W", "Our plumber is Stone Plumbing; contact is Ray Stone."),
         ("W", "Our plumber is Stone Plumbing; contact is Jonas Berg now.")),
        (("W", "Acme is our biggest client; the account manager is Dana."),
         ("W", "The account manager for Acme is now Laura.")),
        (("O", "Priya likes the matte black finish for the kitchen faucet."),
         ("O", "Priya now prefers a brushed brass finish for the kitchen faucet.")),
    ],
)  # fmt: skip
def test_a_new_contact_is_still_read(old: tuple[str, str], new: tuple[str, str]) -> None:
    assert _replaces(old, new)


def test_a_number_asked_for_again_is_its_own_entrys(tmp_path: Path) -> None:
    """ "Priya asked for Karen's number again: 555-0193" retired the contractor's line with his
    own phone and email (read as alike); the number stands in the electrician's entry, which the
    note only says again."""
    ws = tmp_path / "ws"
    days = [
        (dt.datetime(2026, 3, 2, 9), "Priya is renovating her kitchen. General contractor is Tom "
         "Hadley of Hadley Home Builders, phone 555-0142, email tom@hadleyhomes.com."),
        (dt.datetime(2026, 3, 4, 9), "Electrician is Karen Voss from Bright Spark Electric, phone "
         "555-0193, kvoss@brightsparkelectric.com."),
        (dt.datetime(2026, 3, 31, 9), "Priya asked for Karen's number again: 555-0193."),
    ]  # fmt: skip
    for when, text in days:
        micro_rest(text, "W", workspace=ws, when=when)
        sleep_cycle(ws, provider="offline", now=when.replace(hour=22))
    memory = (ws / "MEMORY.md").read_text()
    assert "555-0142" in memory and "555-0193" in memory
    assert "superseded_by" not in "".join(p.read_text() for p in (ws / "bank").rglob("*.md"))


def test_a_fact_replaces_the_standing_entry_before_a_plan() -> None:
    """ "Afternoon counter is Dmitri now" replaced the plan "Put up a job ad for the afternoon
    counter shift" and left "Chloe covers the afternoon counter" current (a bakery's notes)."""
    memory = [
            {"id": "chloe", "type": "W", "date": "2026-11-03",
             "text": "Chloe covers the afternoon counter, 12 to 6pm, on £12.10/h."},
            {"id": "ad", "type": "S", "date": "2026-11-11",
             "text": "Put up a job ad for the afternoon counter shift, 12–6pm."},
    ]  # fmt: skip
    new = ("W", "Afternoon counter is Dmitri now.")
    assert replaced(new, memory, frozenset({"Chloe", "Dmitri"}), day="2026-12-01") == ["chloe"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # two people's things ("Farida's council tax", "Noor's phone"), however alike
        (("W", "Noor's phone is on giffgaff, £12 a month for 30GB, rolling monthly."),
         ("B", "Farida's council tax at Kingsway is now set up with Havering; Noor helped her by "
               "phone.")),
        # a line of the agent's own work: reminders added give no new policy
        (("W", "Home insurance is with Aviva, policy AV-HH-302177, £312 a year, renews 1 June "
               "2026."),
         ("B", "Added reminders for car insurance (14 April) and home insurance (1 June).")),
    ],
)  # fmt: skip
def test_another_persons_thing_or_a_work_log_line_replaces_nothing(
    old: tuple[str, str], new: tuple[str, str]
) -> None:
    names = frozenset(distill.names(old[1]) + distill.names(new[1]))  # as a sleep reads them
    assert not _replaces(old, new, names)
