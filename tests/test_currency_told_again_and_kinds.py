"""Four more replayed scenarios (a bicycle repair shop, an architecture practice's office, a
sales director's assistant, a school's science department): what each read wrong.

Changes missed:

- "Helen no longer stays at the Steigenberger in Frankfurt; book her at the Jumeirah …": the
  old hotel named after "no longer stays at";
- "Signed with Harbour Mutual today - shop insurance starts 1 October" for "Current shop
  insurer is Brightshield": "insurance" and "insurer" are one word's forms;
- "Signed Hartwell Consulting's appointment for Kiln Lane structures today": a provider's own
  terms signed;
- "Orchard Barn: deal with Geoff Tranter instead of Helen from now on, she's working abroad
  until Christmas": a field's label, read as a chat turn's speaker; and the entry's label
  "Orchard Barn conversion (listed barn near Bisley):" read as something listed;
- "Meridian Retail dinner on 7 October is at The Ivy City Garden, table for six": the same
  thing at another named place;
- "Mrs Patel's extension is 231" for "Mrs Patel is the exams officer, extension 214".

Entries retired or garbled by notes that change nothing of them:

- "Reorganised the physics prep schedule around Dave's new days" (an event with no value) took
  the place of Dave's new days; "Jonathan approved Brackley's revised fee" that of "Jonathan
  Harrow is the principal and signs off every fee proposal";
- "Dave Morris no longer works Wednesdays; …" cut "and works" out of "… is the physics
  technician and works Monday to Wednesday", as if "works" were an item of a list;
- the learned guess: "The OCR A-level practical endorsement monitoring visit is on 12
  November" for "OCR A-level entries deadline is 21 January 2027"; "Eden Project tickets
  confirmed at £14.50 per student; coach is £620 for the day" for "Coach for the Eden trip is
  booked with Kernow Coaches".
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import currency, lists
from agent_sleep.analysis.currency import said_loosely
from agent_sleep.providers import offline_currency
from tests.currency_support import rewritten


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Helen's usual hotel in Frankfurt is the Steigenberger Frankfurter Hof.",
         "Helen no longer stays at the Steigenberger in Frankfurt; book her at the Jumeirah "
         "Frankfurt from now on."),
        ("Orchard Barn conversion (listed barn near Bisley): main client contact is Helen "
         "Tranter.",
         "Orchard Barn: deal with Geoff Tranter instead of Helen from now on, she's working "
         "abroad until Christmas."),
    ],
)  # fmt: skip
def test_the_old_one_named_is_replaced(old: str, new: str) -> None:
    verdict = currency.relation(new, old, frozenset(), offline_currency.similarity())
    assert verdict.why == "the old value named"
    assert rewritten(("W", old), ("W", new)) == new


def test_a_field_label_with_a_lower_case_value_is_no_speaker() -> None:
    assert not currency._chat(
        "Orchard Barn: deal with Geoff Tranter instead of Helen from now on, she's working "
        "abroad until Christmas."
    )
    assert currency._chat("Caroline: I went to the support group yesterday, it was lovely.")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Current shop insurer is Brightshield; their renewal quote is due at the end of "
         "September.",
         "Signed with Harbour Mutual today - shop insurance starts 1 October, policy "
         "HM-558201."),
        ("For Kiln Lane structures we're going with Pinnacle Structures (quote £3,100 + VAT).",
         "Signed Hartwell Consulting's appointment for Kiln Lane structures today. Pinnacle "
         "can't start until January."),
    ],
)  # fmt: skip
def test_a_provider_signed_with_replaces_the_old_one(old: str, new: str) -> None:
    assert currency.provider_put_right(new, old) == new
    assert rewritten(("W", old), ("B", new)) == new


def test_forms_of_one_word() -> None:
    assert said_loosely("insurance", {"insurer"})
    assert said_loosely("translation", {"translator"})
    assert not said_loosely("contract", {"contact"})
    assert not said_loosely("insurance", {"instance"})


def test_the_same_thing_at_another_named_place() -> None:
    old = "Meridian Retail dinner on 7 October is at Hawksmoor Guildhall."
    new = "Meridian Retail dinner on 7 October is at The Ivy City Garden, table for six."
    assert rewritten(("W", old), ("W", new)) == new
    # the entry's own words after the place stay
    kept = "Meridian Retail dinner on 7 October is at Hawksmoor Guildhall; Sam booked it."
    assert rewritten(("W", kept), ("W", "Meridian Retail dinner on 7 October is at The Ivy.")) == (
        "Meridian Retail dinner on 7 October is at The Ivy; Sam booked it."
    )
    # a room's number is of its name
    lectures = "GEO1010 lectures are in Lecture Theatre B, Mondays 11:00."
    assert rewritten(
        ("W", lectures), ("W", "GEO1010 lectures are in Hartley 1.03, Mondays 11:00.")
    ) == ("GEO1010 lectures are in Hartley 1.03, Mondays 11:00.")
    # a time is no place, and another dinner is another thing
    assert rewritten(("W", old), ("W", "Meridian Retail dinner on 7 October is at 8pm.")) is None
    assert rewritten(("W", old), ("W", "Larsen Foods dinner on 7 October is at The Ivy.")) is None


def test_a_number_said_again_beside_the_same_word() -> None:
    old = "Mrs Patel is the exams officer, extension 214."
    assert rewritten(("W", old), ("W", "Mrs Patel's extension is 231.")) == (
        "Mrs Patel is the exams officer, extension 231."
    )
    assert currency.restated_slot_put_right("Mr Jones's extension is 231.", old) is None
    # what happened is no value said again
    deployed = "Bilal deployed the billing service to staging (build 100)"
    assert currency.restated_slot_put_right(deployed.replace("100", "101"), deployed) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Dave Morris no longer works Wednesdays; from next week his days are Monday and "
         "Tuesday.",
         "Reorganised the physics prep schedule around Dave's new days."),
        ("Jonathan Harrow is the principal and signs off every fee proposal.",
         "Jonathan approved Brackley's revised fee."),
    ],
)  # fmt: skip
def test_an_event_that_gives_no_value_of_the_entry_replaces_nothing(old: str, new: str) -> None:
    assert rewritten(("W", old), ("B", new)) is None


def test_a_verb_before_a_day_of_a_range_is_no_list_item() -> None:
    old = "Dave Morris is the physics technician and works Monday to Wednesday."
    new = "Dave Morris no longer works Wednesdays; from next week his days are Monday and Tuesday."
    assert lists.edited(new, old) is None
    assert rewritten(("W", old), ("W", new)) != (
        "Dave Morris is the physics technician Monday to Wednesday. From next week his days "
        "are Monday and Tuesday."
    )
    # an item of a list still goes: "We no longer use Memcached"
    assert lists.edited("We no longer use Memcached.", "We use Redis and Memcached.") is not None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("OCR A-level entries deadline is 21 January 2027.",
         "The OCR A-level practical endorsement monitoring visit is on 12 November."),
        ("Coach for the Eden trip is booked with Kernow Coaches.",
         "Eden Project tickets confirmed at £14.50 per student; coach is £620 for the day."),
    ],
)  # fmt: skip
def test_the_guess_replaces_no_other_attribute(old: str, new: str) -> None:
    assert rewritten(("W", old), ("W", new)) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Portfolio: three flats in Leeds - Flat 1 at 14 Harcourt Road, Flat 2 at 22 Moorfield "
         "Street, Flat 3 at 7 Beckett Court.",
         "Flat 2 rent is all-inclusive, so I pay its council tax myself - direct debit goes out "
         "on the 1st of each month."),
        ("The Salt Orchard: hardback, 352 pages, publication date 15 October 2026. Hardback ISBN "
         "978-1-915432-07-4.",
         "Salt Orchard ebook ISBN is 978-1-915432-08-1."),
    ],
)  # fmt: skip
def test_the_guess_puts_out_no_entry_of_many_values_the_note_does_not_say(
    old: str, new: str
) -> None:
    """Read as a field's label and its value (no chat turn), these entries came within the
    learned guess's reach, which put each out whole for a note of one or two values."""
    assert rewritten(("W", old), ("W", new)) is None


def test_a_run_of_weekdays_said_again() -> None:
    """A bicycle shop's "Priya's days are Tuesday to Saturday", then "… Monday to Thursday":
    a run of weekdays is one day value, put right like a date or a routine's weekday."""
    old = "Priya's days are Tuesday to Saturday."
    assert currency.restated_day_put_right("Priya's days are Monday to Thursday.", old) == (
        "Priya's days are Monday to Thursday."
    )
    assert currency.restated_day_put_right("Priya's days are Mon-Thu.", old) == (
        "Priya's days are Mon-Thu."
    )
    assert currency.restated_day_put_right("Tom's days are Monday to Thursday.", old) is None


def test_what_moved_said_after_the_verb() -> None:
    """An architecture practice's "Council pushed back the Marlow Road decision to 16 October"
    had left "Council's target decision date for Marlow Road is 2 October" standing."""
    old = "Council's target decision date for Marlow Road is 2 October."
    new = (
        "Council pushed back the Marlow Road decision to 16 October, the case officer is off sick."
    )
    assert currency.moved_day_put_right(new, old) == (
        "Council's target decision date for Marlow Road is 16 October."
    )
    other = "Council pushed back the Elm Street decision to 16 October."
    assert currency.moved_day_put_right(other, old) is None


def test_what_a_provider_takes_over_ends_at_its_clause() -> None:
    """A guesthouse's "Signed with Clean Linen Co today for all our laundry, starting next
    week" had rewritten "Eggs come from Fernhill Farm, 10 dozen a week": "all our laundry,
    starting next week" shared "week" with it."""
    new = "Signed with Clean Linen Co today for all our laundry, starting next week."
    assert rewritten(("W", "Eggs come from Fernhill Farm, 10 dozen a week."), ("B", new)) is None
    assert (
        rewritten(("W", "Laundry goes out with Brightwash, pickup Wednesday mornings."), ("B", new))
        == "Laundry goes out with Clean Linen Co, pickup Wednesday mornings."
    )


def test_a_supplier_switched_from_is_named_as_the_old_one() -> None:
    """ "Bread and pastries come from Hollins Bakery, delivered daily at 7am" was read as
    something delivered (a past event), so "We switched from Hollins Bakery to Crumb & Co" left
    it standing: "come" is a verb."""
    old = "Bread and pastries come from Hollins Bakery, delivered daily at 7am."
    new = "We switched from Hollins Bakery to Crumb & Co for bread and pastries."
    verdict = currency.relation(new, old, frozenset(), offline_currency.similarity())
    assert verdict.why == "the old value named"
    assert rewritten(("W", old), ("W", new)) is not None


@pytest.mark.parametrize(
    ("old", "new", "kind"),
    [
        # a time for a price
        ("Ava's ballet costs £7.50 per class, paid termly.",
         "Ava's ballet is now Saturdays at 11:15am — the 9:45 class was full.", "W"),
        # an event with no figure: the agent's own work
        ("Kestrel Cafe runs payroll on the 25th of each month.",
         "Updated Kestrel's payroll calendar in Sage.", "B"),
        # one time of a routine, at its own time
        ("Leo's swimming lessons are Wednesdays at 6:10pm at the Parkway pool.",
         "Leo's first Wednesday swim lesson at 6:10pm; he liked the new group.", "B"),
        ("Ava's ballet is now Saturdays at 11:15am — the 9:45 class was full.",
         "Ava's ballet on Saturday at 11:15am is a parents' watching week.", "W"),
        # a day for a name
        ("Maya's orthodontist is Dr Farouk at Smile Studio; brace checks every six weeks.",
         "Maya's orthodontist review at Smile Studio is on 20 October at 4:10pm.", "W"),
    ],
)  # fmt: skip
def test_a_value_of_another_kind_replaces_nothing(old: str, new: str, kind: str) -> None:
    """A parent's assistant and a bookkeeper's: each of these had retired the entry."""
    assert rewritten(("W", old), (kind, new)) is None


def test_a_new_time_still_replaces_the_routine_it_moves() -> None:
    old = "Ava does ballet at the Pirouette Dance School on Saturdays at 9:45am."
    new = "Ava's ballet is now Saturdays at 11:15am — the 9:45 class was full."
    assert rewritten(("W", old), ("W", new)) is not None


@pytest.mark.parametrize(
    ("old", "new", "now"),
    [
        ("Maya plays tennis at Northgate Tennis Academy on Saturday afternoons.",
         "Signed Maya up with Riverside Tennis Club today for Saturday afternoon coaching.",
         "Maya plays tennis at Riverside Tennis Club on Saturday afternoons."),
        ("Marlow Dental's workplace pension is with NEST.",
         "Dev Patel signed Marlow Dental up with Smart Pension today; the next contribution "
         "goes to them.",
         "Marlow Dental's workplace pension is with Smart Pension."),
    ],
)  # fmt: skip
def test_someone_signed_up_with_another_provider(old: str, new: str, now: str) -> None:
    assert currency.provider_put_right(new, old) == now
    # whom it was for is no service: another of theirs stays
    other = "Marlow Dental's card machine is with Dojo."
    assert currency.provider_put_right(new, other) is None


def test_a_things_owner_said_another_way() -> None:
    """A data team's "Priya Nair owns payments_ingest", then "payments_ingest owner: Tomasz
    Kowal": both stood."""
    old = "Priya Nair owns payments_ingest."
    for new in (
        "payments_ingest owner: Tomasz Kowal.",
        "payments_ingest is now owned by Tomasz Kowal.",
    ):
        assert currency.role_holder_put_right(new, old) == new
    assert currency.role_holder_put_right("orders_daily owner: Tomasz Kowal.", old) is None
    assert currency.role_holder_put_right("Priya Nair owns orders_daily.", old) is None


def test_one_amount_said_again_in_other_words() -> None:
    """A bookkeeper's "Marlow Dental pays £275 a month for bookkeeping and payroll" for "…
    pays a monthly fee of £240 …": both had stood."""
    old = "Marlow Dental pays a monthly fee of £240 for bookkeeping and payroll."
    new = "Marlow Dental pays £275 a month for bookkeeping and payroll."
    assert currency.restated_slot_put_right(new, old) == (
        "Marlow Dental pays a monthly fee of £275 for bookkeeping and payroll."
    )
    # another client's fee is no value of this one
    other = "Ashby Joinery pays £275 a month for bookkeeping and payroll."
    assert currency.restated_slot_put_right(other, old) is None


def test_a_thing_moved_to_a_place_in_lower_case() -> None:
    """A PTA's "Committee meetings moved to the music room" had left "… held in the school
    library at 7pm" standing (an event that gave no value had taken its place before)."""
    old = "Committee meetings are held in the school library at 7pm."
    new = (
        "Committee meetings moved to the music room — Mr Hodge says the refurb will take all term."
    )
    assert currency.moved_place_put_right(new, old) == (
        "Committee meetings are held in the music room at 7pm."
    )
    assert currency.moved_place_put_right("The staff meeting moved to the hall.", old) is None
    assert currency.moved_place_put_right("Committee meetings moved to the afternoon.", old) is None


def test_the_entry_that_shares_what_the_note_is_about_is_replaced() -> None:
    """A bicycle shop's "Ordering Schwalbe tyres from Cyclepoint instead of Ridgeline" names
    Ridgeline, the value of two entries: it replaced the brake pads' price, not the tyres'
    supplier."""
    new = (
        "Ordering Schwalbe tyres from Cyclepoint instead of Ridgeline from now on - better prices."
    )
    memory = [
        {"id": "tyres", "type": "W", "date": "2026-09-11",
         "text": "Schwalbe tyres come from Ridgeline; we add them to the weekly Ridgeline order."},
        {"id": "pads", "type": "W", "date": "2026-09-10",
         "text": "Shimano Deore brake pads from Ridgeline are £9 a pair."},
    ]  # fmt: skip
    names = frozenset({"Ridgeline", "Cyclepoint", "Schwalbe", "Shimano"})
    out = offline_currency.supersedes(
        [("W", new, ["n1"], 0.8, "2026-09-24")], memory, [], names, offline_currency.similarity()
    )
    assert out[0]["replaces"] == "tyres"


def test_things_named_by_their_number_are_no_number_said_again() -> None:
    """A log of numbered notes ("note 10: apollo boston …" after "note 0: …") had each note
    put the one before right, and a large log's run wrote nothing."""
    assert (
        currency.restated_slot_put_right("note 10: apollo boston", "note 0: boston apollo") is None
    )
    assert currency.restated_slot_put_right("Invoice 1043: paid", "Invoice 1042: paid") is None
