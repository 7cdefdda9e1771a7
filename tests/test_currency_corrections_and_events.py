"""A correction's value put right, a provider taken on instead of the one an entry names, and
events that are no new value.

Four replayed scenarios (an ML engineer's coding agent, a food bank's volunteer coordinator, an
electrician's business, a family moving abroad) showed:

- "Correction: our flight is TP1337, I noted the wrong flight number last week" and
  "Correction: the trustees' meeting is on Wednesday 21 October" left TP1331 and 15 October
  current: neither says what it corrects with ", not …";
- "Going with ActivoBank instead of Millennium BCP" shared no word but the bank's name with the
  entry it replaces, and "… instead of Sarah Bloom as his accountant" was held back because
  "Bloom & Co" read as a list of two;
- "Tom did the Wednesday van run; dropped 40 parcels to the churches" and "Dan fitted a new
  cooker circuit for a walk-in customer on Elm Road", told as what happened, each retired a
  standing fact ("dropped" read as a change, "new" as something new of that fact);
- a provider taking over "managing Flat 2" retired Flat 1's mortgage.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import change_words as cw
from agent_sleep.analysis.currency import correction_put_right
from agent_sleep.analysis.lists import about_one_item
from agent_sleep.analysis.update_model import tells_a_change
from tests.currency_support import rewritten


@pytest.mark.parametrize(
    ("old", "new", "now"),
    [
        ("Flights booked: TAP TP1331 Manchester to Lisbon on 24 September, 3 passengers.",
         "Correction: our flight is TP1337, I noted the wrong flight number last week. Still "
         "24 September, departs 11:40.",
         "Flights booked: TAP TP1337 Manchester to Lisbon on 24 September, 3 passengers."),
        ("The next trustees' meeting is on 15 October at 7pm in the St Mark's vestry.",
         "Correction: the trustees' meeting is on Wednesday 21 October.",
         "The next trustees' meeting is on Wednesday 21 October at 7pm in the St Mark's vestry."),
        ("Invoice INV-1043 is £405, due 30 October.",
         "Correction: the invoice was £450.",
         "Invoice INV-1043 is £450, due 30 October."),
        # any label that tells a change of an earlier word, ended by a colon or a dash
        ("The next trustees' meeting is on 15 October at 7pm in the St Mark's vestry.",
         "Update: the trustees' meeting is on 21 October.",
         "The next trustees' meeting is on 21 October at 7pm in the St Mark's vestry."),
        ("Flights booked: TAP TP1331 Manchester to Lisbon on 24 September, 3 passengers.",
         "Correction - our flight is TP1337.",
         "Flights booked: TAP TP1337 Manchester to Lisbon on 24 September, 3 passengers."),
    ],
)  # fmt: skip
def test_a_correction_puts_its_value_right(old: str, new: str, now: str) -> None:
    assert correction_put_right(new, old) == now
    assert rewritten(("W", old), ("W", new)) == now


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another person's number
        ("Dev Patel's number is 07700 900123.", "Correction: Tom's number is 07700 900587."),
        # another thing's day
        ("The trustees meeting is on 15 October.", "Correction: the dentist is on 21 October."),
        # no correction said
        ("The trustees meeting is on 15 October.", "The AGM is on 21 October."),
        # the same value said again
        ("Flight TP1337 on 24 September.", "Correction: our flight is TP1337."),
        # a label that tells no change
        ("The trustees meeting is on 15 October.", "Note: the trustees meeting is on 21 October."),
    ],
)  # fmt: skip
def test_a_correction_puts_right_nothing_else(old: str, new: str) -> None:
    assert correction_put_right(new, old) is None


def test_a_provider_taken_on_instead_of_the_one_named() -> None:
    old = ("Opening the Portuguese bank account with Millennium BCP; need NIF, passport and "
           "proof of address.")  # fmt: skip
    new = (
        "Going with ActivoBank instead of Millennium BCP — no monthly fees, the app is in English."
    )
    got = rewritten(("W", old), ("W", new))
    # the bank put right in place: what the account needs stays
    assert got == old.replace("Millennium BCP", "ActivoBank")
    # the bank named, not as the one an account is with
    assert rewritten(("W", "Millennium BCP branch in Chiado opens at 8:30."), ("W", new)) is None


def test_a_firm_and_co_is_one_name() -> None:
    old = "Dan's accountant is Sarah Bloom at Bloom & Co; she handles the year-end and VAT returns."
    new = ("Dan will use Mark Ellis instead of Sarah Bloom as his accountant from this tax year; "
           "Mark does fixed fees.")  # fmt: skip
    assert not about_one_item(new, old)
    assert rewritten(("W", old), ("B", new)) == new
    # a list of names is still one
    assert about_one_item("Ben is the team lead now.", "The admins are Ana, Ben and Carla.")


def test_what_happened_is_no_new_value_of_a_standing_fact() -> None:
    van = (
        "Tom Briggs drives the Wednesday van run, delivering parcels to the church drop-off points."
    )
    assert (
        rewritten(
            ("W", van), ("B", "Tom did the Wednesday van run; dropped 40 parcels to the churches.")
        )
        is None
    )
    house = "New customer Priya Patel, 3-bed semi at 7 Birch Close."
    cooker = "Dan fitted a new cooker circuit for a walk-in customer on Elm Road."
    assert rewritten(("W", house), ("B", cooker)) is None
    assert not tells_a_change(cooker, house)
    assert tells_a_change(cooker)  # without the entry, "new" still tells of something new
    # a new figure of the entry's kind, or of what it names, does tell a change
    assert tells_a_change(
        "Harbor Coffee signed off on the new rate: 80 euros per hour from March onward.",
        "Harbor Coffee rebrand is billed at 65 euros per hour, invoiced monthly.",
    )
    assert tells_a_change(
        "Maya finished in 51:15 — a new personal best!", "Maya's 10K personal best is 52:40."
    )


def test_dropped_somewhere_is_no_change() -> None:
    assert not cw.found(cw.CHANGE_RE, "Tom dropped 40 parcels to the churches.")
    assert not cw.found(cw.CHANGE_RE, "Dropped Zara at ballet.")
    assert cw.found(cw.CHANGE_RE, "The rating dropped 2 points to 4.1.")
    assert cw.found(cw.CHANGE_RE, "We dropped Memcached.")


def test_a_provider_for_one_numbered_thing_is_none_for_another() -> None:
    new = "Signed with Northgate Property today - they take over managing Flat 2 at 8% plus VAT."
    assert (
        rewritten(("W", "Flat 1 mortgage is with Kent Reliance, fixed until 2028."), ("B", new))
        is None
    )
    assert (
        rewritten(
            ("W", "Hartwell Lettings manage Flat 2 for us, 10% of rent plus VAT."), ("B", new)
        )
        == new
    )


def test_a_note_of_two_parts_puts_right_the_one_part_it_is_about() -> None:
    old = "Marco owns the eval harness; the repo is github.com/lumen-ai/evalkit."
    new = "Marco no longer owns the eval harness; Dana took it over."
    assert rewritten(("W", old), ("W", new)) == (
        "Marco no longer owns the eval harness; Dana took it over; the repo is "
        "github.com/lumen-ai/evalkit."
    )
    # the entry said again with a part put right is no part of it: it takes the entry's place
    old = "Pool is open 7am-9pm; swim club Tuesdays; lessons Saturdays."
    new = "Pool is open 6am-9pm; swim club Tuesdays; lessons Saturdays."
    assert rewritten(("W", old), ("W", new)) == new


def test_a_value_denied_is_no_new_value() -> None:
    old = "Jake's college day is now Thursday, Bexley College changed the timetable."
    new = "Jake on site with Dan at Carlton Road today (no college on Wednesdays now)."
    assert rewritten(("W", old), ("B", new)) is None
    # a value given, not denied, still replaces
    assert (
        rewritten(
            ("W", "Jake's college day is Wednesday."), ("W", "Jake's college day is now Thursday.")
        )
        == "Jake's college day is now Thursday."
    )
