"""A meeting moved is found among other notes.

A vet practice's "Staff meeting moved to Thursdays at 1pm from this week …" left "Staff meetings
are on Tuesdays at 1pm in the back office" current, for two reasons: "meetings" was reduced to
"meeting" but "meeting" to "meet", so the two were about different things; and, with a booking
for "next week (week of 2026-09-21)" in MEMORY.md, the day sleep wrote after "this week" was
read as a contact detail that other entry already held.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis.claims import lemma
from tests.currency_support import replaced

MOVED = (
    "Staff meeting moved to Thursdays at 1pm from this week (week of 2026-09-21), so Andrew can "
    "attend after his morning surgery list."
)
TUESDAYS = {
    "id": "m1",
    "type": "W",
    "text": "Staff meetings are on Tuesdays at 1pm in the back office.",
    "date": "2026-09-07",
}
BOOKED = {
    "id": "m2",
    "type": "B",
    "text": "Booked Fiona Reid (locum RVN) for two shifts next week (week of 2026-09-21).",
    "date": "2026-09-16",
}


@pytest.mark.parametrize(("one", "many"), [("meeting", "meetings"), ("booking", "bookings")])
def test_one_and_many_are_one_word(one: str, many: str) -> None:
    assert lemma(one) == lemma(many)


def test_the_meeting_moved_replaces_its_day_beside_a_booking_for_that_week() -> None:
    assert replaced(("W", MOVED), [TUESDAYS, BOOKED], day="2026-09-21") == ["m1"]
