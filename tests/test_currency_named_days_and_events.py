"""Readings found replaying a wet-lab PhD student's and a sailing club secretary's five weeks of
notes, each checked against the read sets' pairs before it was kept.

- "Annual Dinner pushed back to Saturday 28 November" left "Annual Dinner will be on Saturday
  21 November" standing: the two share only a name, and "21" / "28" were read as counts;
- "Using Tidewell Cranes instead of Bayliss Lifting" left "Crane for lift-out booked with
  Bayliss Lifting" standing: an arrangement told as done was read as an event;
- "No longer using incubator 2 …; all of Maya's cultures are in incubator 5" left "Maya's cells
  live in incubator 2" standing: "incubator 2" was read as a count of two;
- "Signed with Keel & Co Insurance today for the club policy" left "Club insurance … is with
  Harbour Mutual" standing: the provider's name says what it provides;
- a new phone number rewrote "Rang Dave Pritchard on 07700 900123 …", a call made, and left the
  number's own entry standing;
- wrong retirements: "AGM papers must go out 21 days before the meeting" retired the AGM's date;
  "Fiona confirmed she'll stand again as commodore" retired "Fiona Blake is the commodore";
  "Plate reader: final MTT replicate" retired "Plate reader: luciferase assay on HEK293T" (two
  events); "Dropped mycoplasma samples at C105 (first Monday)" cut "first Monday" out of where
  the samples go.
"""

from __future__ import annotations

import pytest

from tests.currency_support import replaced, replaces, rewritten


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Annual Dinner will be on Saturday 21 November.",
         "Annual Dinner pushed back to Saturday 28 November."),
        ("Crane for lift-out booked with Bayliss Lifting.",
         "Using Tidewell Cranes instead of Bayliss Lifting for the lift-out."),
        ("Maya's cells live in incubator 2, top shelf.",
         "No longer using incubator 2 (fungal contamination found); all of Maya's cultures are in "
         "incubator 5."),
    ],
)  # fmt: skip
def test_the_change_is_read(old: str, new: str) -> None:
    names = frozenset({"Annual", "Dinner", "Maya", "Bayliss", "Lifting", "Tidewell"})
    assert replaces(("W", old), ("W", new), names)


def test_a_provider_named_for_what_it_provides() -> None:
    old = "Club insurance (public liability and club boats) is with Harbour Mutual; renewal 1 Oct."
    new = "Signed with Keel & Co Insurance today for the club policy, starting 1 October."
    assert replaces(("W", old), ("B", new))


def test_a_new_number_puts_right_the_fact_not_a_call_made() -> None:
    memory = [
        {"id": "fact", "type": "W", "text": "Dave Pritchard's number is 07700 900123.",
         "date": "2026-09-08"},
        {"id": "call", "type": "B", "date": "2026-09-16",
         "text": "Rang Dave Pritchard on 07700 900123 about the slipway winch."},
    ]  # fmt: skip
    new = ("W", "Dave Pritchard's number is 07700 900456.")
    assert replaced(new, memory, day="2026-09-29") == ["fact"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (("W", "AGM is on Friday 4 December at 7pm in the clubhouse."),
         ("W", "AGM papers must go out 21 days before the meeting.")),
        (("W", "Fiona Blake is the commodore."),
         ("B", "Fiona confirmed she'll stand again as commodore at the AGM.")),
        (("B", "Plate reader: luciferase assay on HEK293T."),
         ("B", "Plate reader: final MTT replicate for the knockdown.")),
    ],
)  # fmt: skip
def test_the_entry_stays(old: tuple[str, str], new: tuple[str, str]) -> None:
    assert not replaces(old, new)


def test_a_delivery_is_no_item_dropped() -> None:
    old = "Mycoplasma samples go to the tissue culture core, room C105, first Monday of the month."
    assert (
        rewritten(("W", old), ("B", "Dropped mycoplasma samples at C105 (first Monday).")) is None
    )
    assert rewritten(
        ("W", "Pre-commit runs black, isort and ruff."), ("W", "Dropped isort from pre-commit.")
    ) == ("Pre-commit runs black and ruff.")
