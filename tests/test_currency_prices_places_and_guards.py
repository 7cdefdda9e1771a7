"""Four more replayed scenarios (a touring theatre's stage manager, a freelance translator, a
daughter coordinating her father's care, an amateur football club's secretary): what each
read wrong.

Changes missed:

- "Kestrel Scenic's price has gone up to £4,650 because of timber costs" for "Kestrel Scenic
  are building the set, quoted £4,200 all in"; "Verbalis raised Maren's rate to €0.12 per
  word …"; "Brightwater's hourly rate goes up to £26.80 …": a price moved, put right in place;
- "Leanne is taking Tomasz's place on the Saturday bar rota", "Leanne has replaced Tomasz on
  the Saturday bar rota": one item of a list swapped, said after where it is.

Entries retired or garbled by notes that change nothing of them:

- "Kestrel Scenic workshop: Unit 12, Canal Wharf, Reading" made "Kestrel's workshop is Unit
  12, Mill Lane Industrial Estate, Reading", an address that never was;
- the learned guess: "Hannah Ostrow's understudy run is on Thursday 8 October" for "…
  Hannah Ostrow is covering Maggie as understudy"; "The upright piano for music calls needs
  tuning; the Foundry will do it on Wednesday" for "Calls now start at 10:15"; "The Brenner
  manual now has 11 chapters" for its length and deadline; "First team host Ashby Town
  tomorrow at Marsh Lane" for "First team home games have moved to Marsh Lane 3G …";
- "Dana has pushed the tour opening back a week …" for "Dana needs the programme copy by 25
  September": what was pushed back is no thing the entry names.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import currency, lists, update_model
from agent_sleep.core import notes
from tests.currency_support import replaces, rewritten


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Kestrel Scenic are building the set, quoted £4,200 all in.",
         "Kestrel Scenic's price has gone up to £4,650 because of timber costs.",
         "Kestrel Scenic are building the set, quoted £4,650 all in."),
        ("Verbalis GmbH, the Hamburg agency, pays Maren €0.11 per word for DE>EN.",
         "Verbalis raised Maren's rate to €0.12 per word for jobs from October.",
         "Verbalis GmbH, the Hamburg agency, pays Maren €0.12 per word for DE>EN."),
        ("Brightwater charge £24.50 an hour for the visits.",
         "Brightwater's hourly rate goes up to £26.80 from 1 October.",
         "Brightwater charge £26.80 an hour for the visits."),
        # "an afternoon snack" is no unit a price is per
        ("Bluebell quote is $52.75 per head per day, coffee breaks included.",
         "Bluebell raised the per-head price to $54.25, they added an afternoon snack station.",
         "Bluebell quote is $54.25 per head per day, coffee breaks included."),
    ],
)  # fmt: skip
def test_a_price_moved_is_put_right_in_place(old: str, new: str, expected: str) -> None:
    assert rewritten(("W", old), ("W", new)) == expected


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # whose price: another firm's
        ("Kestrel Scenic are building the set, quoted £4,200 all in.",
         "Harbour Hire's price has gone up to £4,650 because of timber costs."),
        # per another unit
        ("Verbalis pays Maren €0.11 per word for DE>EN.",
         "Verbalis raised Maren's rate to €2.50 per page for proofreading."),
        # said as a plan
        ("Brightwater charge £24.50 an hour for the visits.",
         "Brightwater's hourly rate might go up to £26.80 next year."),
    ],
)  # fmt: skip
def test_a_price_of_another_thing_puts_nothing_right(old: str, new: str) -> None:
    assert currency.price_moved_put_right(new, old) is None


@pytest.mark.parametrize(
    "new",
    [
        "Leanne is taking Tomasz's place on the Saturday bar rota",
        "Leanne has replaced Tomasz on the Saturday bar rota",
    ],
)
def test_one_of_a_list_swapped_where_it_is_said_after(new: str) -> None:
    old = "Saturday bar rota at the clubhouse: Bev, Dez and Tomasz"
    edit = lists.edited(new, old)
    assert edit is not None
    assert edit.text == "Saturday bar rota at the clubhouse: Bev, Dez and Leanne"


def test_a_new_address_is_no_new_unit_of_the_old_one() -> None:
    old = "Kestrel's workshop is Unit 4, Mill Lane Industrial Estate, Reading."
    new = "Kestrel Scenic workshop: Unit 12, Canal Wharf, Reading."
    assert currency.listed_part_put_right(new, old) is None
    assert rewritten(("W", old), ("W", new)) == new
    # one part of a list of parts, said again with another value, is still put right
    hours = "Opening hours: Monday to Friday 8:30am-6:30pm, Saturday 9am-12pm, closed Sundays"
    assert currency.listed_part_put_right("Saturday opening is now 9am-1pm", hours) == (
        "Opening hours: Monday to Friday 8:30am-6:30pm, Saturday 9am-1pm, closed Sundays"
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Priya has taken a TV job, so Hannah Ostrow is covering Maggie as understudy from today.",
         "Hannah Ostrow's understudy run is on Thursday 8 October."),
        ("Brenner Maschinenbau operating manual: 48,000 words DE>EN, due 2 October.",
         "The Brenner manual now has 11 chapters; chapter 7 was split in two."),
        ("First team home games have moved to Marsh Lane 3G from this Saturday while Cobden "
         "Road is reseeded",
         "First team host Ashby Town tomorrow at Marsh Lane, 2pm kick-off"),
        ("Dana needs the programme copy by 25 September.",
         "Dana has pushed the tour opening back a week: we now open at the Corn Exchange on "
         "Wednesday 21 October."),
    ],
)  # fmt: skip
def test_a_note_of_another_thing_replaces_nothing(old: str, new: str) -> None:
    assert not replaces(("W", old), ("W", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the same things counted: a new count
        ("Helix Bio has 120 licensed seats on the Team plan.",
         "Helix Bio expanded: order form for 200 seats countersigned."),
        # pushed back again: "back" and "again" name no other thing
        ("Oakridge Vet Clinic's Microsoft 365 Business Standard renewal is due 14 October (11 "
         "licences).",
         "Oakridge's Microsoft 365 renewal has been pushed back again, now 21 October."),
        # the day the entry's thing moved, pushed back: still its day
        ("The tour opens at the Corn Exchange on Wednesday 14 October.",
         "Dana has pushed the tour opening back a week: we now open at the Corn Exchange on "
         "Wednesday 21 October."),
    ],
)  # fmt: skip
def test_controls_still_replace(old: str, new: str) -> None:
    assert replaces(("W", old), ("W", new), frozenset({"Helix", "Bio"}))


def _two_nights(ws: Path, old: str, new: str) -> list[str]:
    """MEMORY.md's entries after ``old`` (W) is told and slept on, then ``new`` (W) a week
    later: where the workspace's names reach the gates, as a pair alone they do not."""
    for text, day in ((old, dt.datetime(2026, 9, 14, 10)), (new, dt.datetime(2026, 9, 21, 10))):
        micro_rest(text, "W", workspace=ws, when=day)
        sleep_cycle(ws, provider="offline", now=day.replace(hour=23))
    return [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text())]


def test_a_day_is_no_new_time_of_day(ws: Path) -> None:
    """Through two nights' sleep: the piano's tuning day took the place of the time calls
    start (the learned guess)."""
    calls = "Calls now start at 10:15 because the toddler group has the hall until ten."
    piano = "The upright piano for music calls needs tuning; the Foundry will do it on Wednesday."
    current = _two_nights(ws, calls, piano)
    assert calls in current
    assert any(t.startswith("The upright piano") for t in current)


def test_a_title_names_no_one_whose_number_it_is() -> None:
    """A vet practice's notes: "Dr Lennox's mobile is 07700 900381" put Lennox's number in
    place of Okafor's ("Dr Okafor's mobile: 07700 900318"): "Dr" was the name both shared."""
    old = "Dr Okafor's mobile: 07700 900318"
    assert currency.number_put_right("Dr Lennox's mobile is 07700 900381.", old) is None
    assert currency.number_put_right("Dr Okafor's mobile is 07700 900381.", old) == (
        "Dr Okafor's mobile: 07700 900381"
    )


@pytest.mark.parametrize(
    ("new", "expected"),
    [
        ("Cold room 2 no longer holds the buffers.",
         "Cold room 2 holds the agar plates and the antibodies."),
        ("Cold room 2 no longer holds the agar plates.",
         "Cold room 2 holds the antibodies and the buffers."),
    ],
)  # fmt: skip
def test_items_with_an_article_leave_their_list(new: str, expected: str) -> None:
    """A lab's notes: "Cold room 2 no longer holds the buffers" replaced the whole entry, and
    the agar plates and antibodies left current knowledge: items said with "the" were no items,
    and "2" before the cue read as a count of things done ("102 jobs closed")."""
    old = "Cold room 2 holds the agar plates, the antibodies and the buffers."
    edit = lists.edited(new, old)
    assert edit is not None and edit.text == expected
    assert rewritten(("W", old), ("W", new)) == expected


def test_a_source_after_from_is_the_new_value() -> None:
    """ "Drugs now come from MWI" was read as naming MWI as the old value ("from A"), so it
    replaced nothing of "Drugs come from Covetrus"."""
    assert rewritten(("W", "Drugs come from Covetrus."), ("W", "Drugs now come from MWI.")) == (
        "Drugs now come from MWI."
    )
    # "from A to B" still names A as the old one
    assert replaces(("W", "Drugs come from Covetrus."),
                    ("W", "Drug orders moved from Covetrus to MWI."))  # fmt: skip


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("League fixtures secretary is Graham Pellow - any fixture change goes through him with "
         "14 days' notice",
         "Sunita Rao has taken over as league fixtures secretary; Graham has retired from the "
         "job"),
        ("Tomasz does Dad's morning visits.", "Aisha now does Dad's morning visits."),
        ("Rosa Delgado does the communal cleaning (kitchen, both bathrooms, stairs), £60 a visit.",
         "Mandy Fletcher is taking over the communal cleaning from next week, £65 a visit."),
        ("Dr Okafor does Saturday morning surgery.",
         "Dr Lennox now does Saturday morning surgery."),
    ],
)  # fmt: skip
def test_someone_else_takes_a_role_or_a_round_of_work(old: str, new: str) -> None:
    assert currency.role_holder_put_right(new, old) == new
    assert rewritten(("W", old), ("W", new)) == new


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # two may do one round of work: no "now", no taking over
        ("Tomasz does Dad's morning visits.", "Aisha does Dad's morning visits."),
        # no role said with no article unless a role's word ends it
        ("Cake is Victoria sponge.", "Cake is Lemon Drizzle."),
        # the same holder, said again with a title
        ("Dr Okafor does Saturday morning surgery.",
         "Dr Okafor now does Saturday morning surgery."),
    ],
)  # fmt: skip
def test_no_role_handed_over(old: str, new: str) -> None:
    assert currency.role_holder_put_right(new, old) is None


def test_one_listed_part_after_and_is_put_right() -> None:
    """A carer's notes: "Furosemide reduced to 20mg each morning - the GP thinks …" left
    "Dad's morning tablets: amlodipine 5mg, furosemide 40mg and lansoprazole 15mg" current: the
    last part, after "and", was no part, and the reason after the dash named words the entry
    lacks."""
    old = "Dad's morning tablets: amlodipine 5mg, furosemide 40mg and lansoprazole 15mg."
    new = "Furosemide reduced to 20mg each morning - the GP thinks his kidneys need a rest."
    expected = "Dad's morning tablets: amlodipine 5mg, furosemide 20mg and lansoprazole 15mg."
    assert currency.listed_part_put_right(new, old) == expected
    assert rewritten(("W", old), ("W", new)) == expected
    # another drug's dose names no part
    assert currency.listed_part_put_right("Ramipril reduced to 2.5mg each morning.", old) is None


def test_a_tally_told_again_replaces_the_last() -> None:
    old, new = "182 registrations so far.", "241 registrations as of this morning."
    assert rewritten(("W", old), ("W", new)) == new
    assert currency.tally_put_right("241 tickets sold.", old) is None  # another thing counted


def test_a_recap_is_rewritten_by_no_fact() -> None:
    old = ("Week 1: venue, caterer, AV, hotel block and Gold sponsors in place; draft agenda "
           "out; next up is opening registration.")  # fmt: skip
    new = "Vantis Bank is no longer a Gold sponsor, budget freeze on their side."
    assert rewritten(("S", old), ("W", new)) is None
    # a list loses its item, the reason after the comma aside
    sponsors = "Gold sponsors confirmed so far: Kestrel Freight, Vantis Bank and Orbital Cargo."
    assert rewritten(("W", sponsors), ("W", new)) == (
        "Gold sponsors confirmed so far: Kestrel Freight and Orbital Cargo."
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Linden Estate Agents' office is at 14 Castle Street, parking round the back.",
         "Linden Estate Agents are now at 3 Mill Lane."),
        ("Bluebell Cafe deliveries go to 3 Quay Street, round the back, before 8am.",
         "Bluebell Cafe's new address for deliveries: 41 Marsh Lane (they've relocated)."),
    ],
)  # fmt: skip
def test_a_new_street_address_takes_the_old_ones_place(ws: Path, old: str, new: str) -> None:
    """Four held-out scenarios (a bakery, a school office, a photographer, an IT contractor),
    replayed midway: a new address told "now at" or "new address" left the old one current
    beside it. Through two nights' sleep."""
    assert _two_nights(ws, old, new) == [new]


def test_someone_elses_address_replaces_nothing() -> None:
    old = "Bluebell Cafe deliveries go to 3 Quay Street, round the back, before 8am."
    assert (
        update_model.address_moved_put_right("Harbour Deli has moved to 41 Marsh Lane.", old)
        is None
    )
    assert (
        update_model.address_moved_put_right("Bluebell Cafe might move to 41 Marsh Lane.", old)
        is None
    )


def test_a_role_said_with_no_article_is_handed_over() -> None:
    old = "Gemma Hurst is weekend shift lead."
    new = "Callum Reid is now the weekend shift lead."
    assert rewritten(("W", old), ("W", new)) == new
    # without a word of change, two may hold a role said with no article
    assert currency.role_holder_put_right("Callum Reid is weekend shift lead.", old) is None


def test_an_event_told_as_a_change_without_the_number_keeps_it() -> None:
    """ "Riverside confirmed their new number is on the letterheads now" (an event) had taken
    the place of the new number itself, and the number left current knowledge."""
    old = ("W", "Riverside Opticians have a new main number: 01632 961207.")
    assert not replaces(
        old, ("B", "Riverside confirmed their new number is on the letterheads now.")
    )


@pytest.mark.parametrize(
    "new",
    [
        "Counter cakes: pistachio loaf instead of carrot cake.",
        "Pistachio loaf goes on the counter instead of carrot cake from now on.",
    ],
)
def test_an_item_that_comes_instead_of_another_is_swapped_in_its_list(new: str) -> None:
    """A bakery's notes: "Counter cakes: pistachio loaf instead of carrot cake." had replaced
    the whole list, and lemon drizzle, Victoria sponge and brownies left current knowledge."""
    old = "Counter cakes: lemon drizzle, carrot cake, Victoria sponge and brownies."
    expected = "Counter cakes: lemon drizzle, pistachio loaf, Victoria sponge and brownies."
    assert rewritten(("W", old), ("W", new)) == expected
    # a subject before the item is no part of it
    assert lists.edited("We use Valkey instead of Memcached", "We use Redis and Memcached") == (
        lists.Edit("We use Redis and Valkey")
    )


def test_a_round_of_work_said_as_run_by_someone_is_taken_over() -> None:
    old = "The after-school club (Hollybrook Owls) is run by Jade Okoro, 3:15 to 6pm in the hall."
    new = "Priya Nair takes over the after-school club from Monday; Jade Okoro has left."
    assert currency.role_holder_put_right(new, old) == new
    # without a word of change, two may run it
    assert currency.role_holder_put_right("Sam Lee runs the after-school club.", old) is None


def test_a_price_of_one_part_is_put_right_in_its_part() -> None:
    """A photographer's notes: "Raised the full-day package to £2,650 today" left "Current
    packages: full day £2,400, half day £1,450" current: the entry gave two amounts."""
    old = "Current packages: full day £2,400, half day £1,450."
    assert (
        currency.price_moved_put_right(
            "Raised the full-day package to £2,650 today; website updated.", old
        )
        == "Current packages: full day £2,650, half day £1,450."
    )
    # a part the entry does not give names no amount of it
    assert currency.price_moved_put_right("Raised the evening package to £1,650.", old) is None
    # nor is an entry of facts merged, each its own clause, put right in part: its other
    # amounts would stand there unread by their own changes
    merged = ("Adult subs are £120 for the season (2026-09-09); Brindle Motors sponsorship is "
              "£1,500 for the season (2026-09-09)")  # fmt: skip
    assert currency.price_moved_put_right("Adult subs are going up to £135.", merged) is None


def test_how_far_a_day_moved_is_no_part_of_what_moved() -> None:
    """A school office's notes: "Verulamium trip pushed back a week, to Thursday 15 October"
    left "… trip to Verulamium Museum, St Albans, is on Thursday 8 October" current."""
    old = "Year 4 (Oak class) trip to Verulamium Museum, St Albans, is on Thursday 8 October."
    new = (
        "Verulamium trip pushed back a week, to Thursday 15 October - the museum double-booked "
        "the education room."
    )
    assert currency.moved_day_put_right(new, old) == (
        "Year 4 (Oak class) trip to Verulamium Museum, St Albans, is on Thursday 15 October."
    )
