"""A note read only as like a standing fact retires it only when it says a value of its own.

Found replaying a landlord's, a carer's and a conference's five weeks of notes (the learned
guess each time): "Renewed the landlord insurance online" had retired the £447 premium,
"Kestrel Labs paid the silver sponsorship invoice" the sponsorship's £2,000, "Flat 3 rent of
£895 arrived today" a licence number, "Booked Mum into the memory café for 6 November" the
café's address and its first Friday of the month. A note that says the change in words, or a
new value, still replaces.
"""

from __future__ import annotations

import pytest

from tests.currency_support import replaced, replaces


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Landlord insurance with Alan Boe: premium £447 a year.",
         "Renewed the landlord insurance online."),
        ("Flat 3 is in the council's selective licensing area; licence number LCC-SL-20417.",
         "Flat 3 rent of £895 arrived today, first month at the new rent."),
        ("Memory café runs at the library, 2 Market Square, first Friday of the month.",
         "Booked Mum into the memory café for 6 November."),
        ("Silver sponsor: Kestrel Labs, £2,000.",
         "Kestrel Labs paid the silver sponsorship invoice."),
    ],
)  # fmt: skip
def test_an_event_read_as_alike_keeps_the_fact(old: str, new: str) -> None:
    assert not replaces(("W", old), ("B", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Our broadband is Zenfibre, 500 Mbps.",
         "Switched the broadband from Zenfibre to Brightwave today."),
        ("Landlord insurance is with Alan Boe, premium £412 a year.",
         "Landlord insurance premium went up to £447 a year at renewal."),
    ],
)  # fmt: skip
def test_an_event_that_says_the_change_replaces(old: str, new: str) -> None:
    assert replaces(("W", old), ("B", new))


def test_a_fact_read_as_alike_still_replaces() -> None:
    # the same guess on a fact told as a fact still stands
    assert replaces(
        ("W", "Landlord insurance is with Alan Boe, premium £412 a year, renews 30 September."),
        ("W", "Landlord insurance with Alan Boe: premium £447 a year."),
    )


def test_a_change_told_without_its_value_keeps_that_days_value() -> None:
    # the code noted that morning is the new one; the log line after it gives none
    memory = [{"id": "code", "type": "W", "text": "Key safe code is 8093.", "date": "2026-09-28"}]
    new = ("B", "Changed the key safe code ahead of the agency handover; told Comfort Care.")
    assert replaced(new, memory, day="2026-09-28") == []
