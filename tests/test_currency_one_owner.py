"""Many notes about one owner: a note replaces another only when both speak of one thing.

Six weeks of an operations assistant's notes about three restaurants (an exploratory test)
retired 28 true facts against 7 real updates. Nearly every note names its restaurant, so two
notes that shared only "The Olive Press" read as one subject said twice: "The Olive Press uses
Lightspeed for POS" retired "The Olive Press manager is Dev Patel", "The Olive Press wine
supplier is now Liberty Wines" retired its address, "Paid the Atlantic Catch invoice for Rua
Nova" retired where Rua Nova buys its fish. The learned last word and the weaker rules
("change language", "a new value", "said alike") now ask for a thing both notes speak of: a
shared word that is no name, an identifier, a date or time for a date or time, numbers of one
long shape, or a diet or health matter on both sides.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import update_model
from agent_sleep.core import notes

DAY1 = dt.datetime(2026, 10, 5, 9, 0)
DAY2 = dt.datetime(2026, 10, 6, 9, 0)
CONTEXT = [  # notes that make the restaurants' names the run's names
    "Dropped the new menus at The Olive Press and at Rua Nova before lunch.",
    "Staff meeting for Rua Nova and The Olive Press moved to the back room.",
    "Ordered napkins for The Olive Press, Rua Nova and Harbor House.",
]


def _current(ws: Path) -> list[str]:
    return [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text())]


def _two_days(ws: Path, olds: list[str], news: list[str]) -> list[str]:
    for text in [*CONTEXT, *olds]:
        micro_rest(text, "W", workspace=ws, when=DAY1)
    sleep_cycle(ws, provider="offline", now=DAY1.replace(hour=22))
    for text in news:
        micro_rest(text, "W", workspace=ws, when=DAY2)
    sleep_cycle(ws, provider="offline", now=DAY2.replace(hour=22))
    return _current(ws)


OLD = [
    "The Olive Press manager is Dev Patel.",
    "The Olive Press is at 88 Mill Lane.",
    "Rua Nova buys its fish from Atlantic Catch.",
    "Harbor House bookings run on SevenRooms.",
    "Harbor House's dishwasher is serviced by KleenTech.",
]
NEW = [
    "The Olive Press uses Lightspeed for POS.",
    "The Olive Press wine supplier is now Liberty Wines.",
    "Paid the Atlantic Catch invoice for Rua Nova, €1,180.",
    "Harbor House now opens 11:30-21:30 every day for the winter.",
    "Harbor House walk-in freezer door gasket split; Frostline coming Thursday.",
]


def test_another_thing_said_of_the_same_restaurant_replaces_nothing(ws: Path) -> None:
    _two_days(ws, OLD, NEW)
    kept = (ws / "MEMORY.md").read_text() + "".join(
        p.read_text() for p in (ws / "bank").rglob("*.md")
    )
    for old in OLD:
        assert old in kept, old  # in MEMORY.md, or filed on a bank page
    assert "superseded_by=" not in kept, kept  # and nothing replaced


@pytest.mark.parametrize(
    ("old", "new", "marker"),
    [
        ("Rua Nova's weekly produce delivery comes on Tuesdays.",
         "Rua Nova's weekly produce delivery comes on Thursdays.", "Thursdays"),
        ("Harbor House's POS is Square.",
         "Harbor House moved from Square to Toast for its POS; the terminals went live at lunch.",
         "Toast"),
        ("The Olive Press health inspection is booked for 12 November.",
         "The council moved The Olive Press health inspection to 19 November.", "19 November"),
        # a place for a place, one attribute class: nothing but the owner's name is shared
        ("Tomás rents a room in Coimbra.", "Tomás now lives in Lisbon.", "Lisbon"),
        ("Priya reports to Helga Strand.", "Priya's new manager is Diego Alvarez after the reorg.",
         "Diego"),
    ],
)  # fmt: skip
def test_a_new_value_of_one_thing_still_replaces_it(
    ws: Path, old: str, new: str, marker: str
) -> None:
    current = _two_days(ws, [old], [new])
    assert old not in current, current
    assert any(marker in t for t in current), current


@pytest.mark.parametrize(
    ("old", "new", "same"),
    [
        ("The Olive Press manager is Dev Patel.", "The Olive Press uses Lightspeed for POS.",
         False),
        ("Rua Nova is at 14 Canal Street.", "Rua Nova did 51 covers on Friday.", False),
        ("Invoice INV-2041 to Brightwater Ltd is outstanding.",
         "Invoice INV-2041 was paid in full on 3 May.", True),
        ("Bread delivery from Forno Rossi arrives at 6:30am.",
         "Forno Rossi's van pulls up at 5:45 these days.", True),
        ("Best number for Cormac: 555-0142.", "Cormac asked us to call his mobile, 555-0199.",
         True),
        ("Olusegun is vegetarian.", "Olusegun went fully vegan in March.", True),
        ("Initech has 25 seats on their license.", "Initech expanded to 40 seats.", True),
    ],
)  # fmt: skip
def test_one_thing(old: str, new: str, same: bool) -> None:
    names = frozenset({"Olive", "Press", "Rua", "Nova", "Forno", "Rossi", "Cormac", "Initech"})
    assert update_model.one_thing(new, old, names) is same
