"""Four replayed scenarios (a community garden's secretary, a conveyancing secretary, a band's
tour manager, a dog-walking business): changes that stood beside the value they replaced.

- "Gareth Pryce has a new direct line: 01632 960775" for "… phone 01632 960418": a direct line
  is a phone number;
- "Correction: the van reg is KX19 PLM, I had the last two letters the wrong way round" and
  "Correction: the Ridgeway compost order is 8 cubic metres": a correction that does not
  quote the wrong value puts right the one value of its shape (a plate, an amount of a unit);
- "Overnight sitting is £50 a night" for "Overnight pet-sitting is £45 a night": a word of a
  hyphened one is said in it;
- "Load-in at King Tut's is now 13:50" for "King Tut's load-in on Sat 26 Sep is 15:30": a time
  said again with no day;
- "We're no longer at Hotel Brooklyn - …, so everyone's moved to Motel One Piccadilly", "Greaves
  are going with Nationwide instead of Halifax": the name gone put right to the one taken on;
- "Kerry Osei has taken over reception from Dawn", "Connor Blake is taking over the Saturday
  walks from Jade": who did the work put right, where the entry says the work.

A role handed to someone else, told in the ways people tell it ("Our new cleaner is Dorota
Nowak" for "Marta Kowalski does our cleaning", "Rosa Delgado started today as our hygienist",
"Tom Reilly is acting practice manager", "Kofi Mensah takes over as gaffer" for "Gaffer is
Tomasz Wren", "Kwame Osei has taken over Crew B" for "Darren Pike leads Crew B"): the role's
words read without how it is held ("new", "acting", "does our …") and the endings of their
forms ("cleaning", "cleaner").
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import currency, lists
from agent_sleep.core import notes
from tests.currency_support import rewritten


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Gareth Pryce is the council allotments officer, phone 01632 960418.",
         "Gareth Pryce has a new direct line: 01632 960775.",
         "Gareth Pryce is the council allotments officer, phone 01632 960775."),
        ("The van is a white Ford Transit Connect, reg KX19 PML.",
         "Correction: the van reg is KX19 PLM, I had the last two letters the wrong way round.",
         "The van is a white Ford Transit Connect, reg KX19 PLM."),
        ("Ridgeway Green Waste are delivering 6 cubic metres of compost on Wed 23 Sept.",
         "Correction: the Ridgeway compost order is 8 cubic metres - I misread the quote "
         "yesterday (2026-09-10).",
         "Ridgeway Green Waste are delivering 8 cubic metres of compost on Wed 23 Sept."),
        ("Overnight pet-sitting is £45 a night.",
         "Overnight sitting is £50 a night.",
         "Overnight pet-sitting is £50 a night."),
        ("King Tut's load-in on Sat 26 Sep is 15:30.",
         "Load-in at King Tut's is now 13:50.",
         "King Tut's load-in on Sat 26 Sep is 13:50."),
        ("Manchester: we're booked into Hotel Brooklyn instead of the Premier Inn, van parking.",
         "We're no longer at Hotel Brooklyn - they overbooked, so everyone's moved to Motel One "
         "Piccadilly.",
         "Manchester: we're booked into Motel One Piccadilly instead of the Premier Inn, van "
         "parking."),
        ("Greaves purchase with Halifax, mortgage offer due.",
         "Greaves are going with Nationwide instead of Halifax - better rate.",
         "Greaves purchase with Nationwide, mortgage offer due."),
        ("Dawn on reception signs for the post and keeps the deeds room key.",
         "Kerry Osei has taken over reception from Dawn, so the post and the deeds room key go "
         "to Kerry.",
         "Kerry Osei on reception signs for the post and keeps the deeds room key."),
        ("Rota this term: Aisha Khan does the weekday mornings, I do afternoons, Jade Morris "
         "covers Saturdays.",
         "Connor Blake is taking over the Saturday walks from Jade as of this weekend.",
         "Rota this term: Aisha Khan does the weekday mornings, I do afternoons, Connor Blake "
         "covers Saturdays."),
    ],
)  # fmt: skip
def test_the_value_is_put_right_in_place(old: str, new: str, expected: str) -> None:
    assert rewritten(("W", old), ("W", new)) == expected


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another time of the same place
        ("King Tut's load-in on Sat 26 Sep is 15:30.", "Doors at King Tut's are 19:00."),
        # one end of a range is no time of its own
        ("Reception is staffed 9:00-17:00.", "Reception is staffed from 8:30."),
        # the name gone is what the entry is about, not its value
        ("Hotel Brooklyn has van parking round the back.",
         "We're no longer at Hotel Brooklyn - they overbooked, so everyone's moved to Motel One "
         "Piccadilly."),
        # the work taken over is not what the one named does there
        ("Jade Morris does the Monday accounts.",
         "Connor Blake is taking over the Saturday walks from Jade as of this weekend."),
        # a correction of one thing is none of another that shares no word with it
        ("Ridgeway Green Waste are delivering 6 cubic metres of compost on Wed 23 Sept.",
         "Correction: the sand order is 2 cubic metres."),
    ],
)  # fmt: skip
def test_what_the_readings_leave_alone(old: str, new: str) -> None:
    assert rewritten(("W", old), ("W", new)) in (None, new) or old in str(
        rewritten(("W", old), ("W", new))
    )
    assert currency.restated_clock_put_right(new, old) is None
    assert currency.named_swap_put_right(new, old) is None
    assert currency.correction_put_right(new, old) is None


def test_a_hedged_correction_puts_no_amount_right() -> None:
    old = "Ridgeway Green Waste are delivering 6 cubic metres of compost on Wed 23 Sept."
    new = "Correction: the Ridgeway compost order might be 8 cubic metres."
    assert currency.correction_put_right(new, old) is None


def test_a_new_direct_line_replaces_the_number_through_two_nights(ws: Path) -> None:
    old = "Gareth Pryce is the council allotments officer, phone 01632 960418."
    new = "Gareth Pryce has a new direct line: 01632 960775."
    for text, day in ((old, dt.datetime(2026, 9, 14, 10)), (new, dt.datetime(2026, 9, 21, 10))):
        micro_rest(text, "W", workspace=ws, when=day)
        sleep_cycle(ws, provider="offline", now=day.replace(hour=23))
    current = [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text())]
    assert old.replace("01632 960418", "01632 960775") in current
    assert not any("960418" in t for t in current)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Marta Kowalski does our cleaning, Tuesday and Friday evenings, £15 an hour.",
         "Our new cleaner is Dorota Nowak, starting next Tuesday; Marta is retiring."),
        ("Priya Shah teaches the Tuesday 18:30 vinyasa flow.",
         "Leo Marsh now teaches the Tuesday 18:30 vinyasa; Priya is off on maternity leave."),
        ("Darren Pike leads Crew B.",
         "Kwame Osei has taken over Crew B. Darren has gone to the Leeds depot."),
        ("Kwame Osei has taken over Crew B. Darren has gone to the Leeds depot.",
         "Sunita Rai is the new Crew B lead; Kwame has moved over to run the storage side."),
        ("Margaret Doyle leads the Friday shift; she opens up at 9.",
         "Friday shift lead is Lucy Brennan from this week (week of 2026-09-28); Kwame's going "
         "over to the warehouse team."),
        ("Gaffer is Tomasz Wren, bringing his own best boy.",
         "Kofi Mensah takes over as gaffer from today (2026-09-15). Tomasz had to leave for a "
         "family emergency."),
        ("Gaffer is Tomasz Wren, bringing his own best boy.",
         "Kofi Mensah replaced Tomasz Wren as gaffer."),
        ("Gemma Hart is the hygienist, in on Tuesdays and Thursdays.",
         "Rosa Delgado started today (2026-09-08) as our hygienist, taking over Gemma's "
         "patients."),
        ("Helen Brooks is the practice manager - she signs off the rota.",
         "Tom Reilly is acting practice manager from today while we recruit; Helen has gone."),
        ("Tom Reilly is acting practice manager from today while we recruit; Helen has gone.",
         "Priya Shah started today as practice manager."),
    ],
)  # fmt: skip
def test_a_role_handed_to_someone_else_replaces_its_holder(old: str, new: str) -> None:
    assert currency.role_holder_put_right(new, old) == new
    assert rewritten(("W", old), ("W", new)) == new


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Darren Pike leads Crew B.", "Sunita Rai leads Crew A."),  # another crew
        ("Priya Shah teaches the Tuesday 18:30 vinyasa flow.",
         "Leo Marsh teaches the Thursday 18:30 vinyasa flow."),  # another class
        # two may clean: with no word of a new holder, one more
        ("Marta Kowalski does our cleaning.", "Dorota Nowak does our cleaning."),
        # a bare role is a role only where a note says it was taken over
        ("Cake is Victoria sponge.", "Kofi Mensah takes over as gaffer from today."),
        ("Gemma Hart is the hygienist.", "Rosa Delgado started today as our receptionist."),
    ],
)  # fmt: skip
def test_another_role_or_a_second_holder_replaces_no_one(old: str, new: str) -> None:
    assert currency.role_holder_put_right(new, old) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a thing of one kind with another number
        ("NHS Band 1 charge is £27.40 this year.", "NHS Band 2 is £75.30."),
        ("Van 3 (the Transit) is KX19 TMR - easy to mix up with Van 1's plate.",
         "Van 2 is the 7.5 tonner, plate LD21 HVB, MOT due 3 December."),
        # a price for a group apart
        ("Private check-up (exam) fee is £31.00.", "A private exam for under-18s is £18."),
        # a count is no new name, place or day
        ("Appointments and patient records are kept in Dentally.",
         "Hygiene appointments are 30 minutes, 45 for a new patient."),
    ],
)  # fmt: skip
def test_the_learned_guess_retires_no_fact_of_another_thing(old: str, new: str) -> None:
    """A dental practice's and a removals firm's replays: each of these had
    taken a true fact of another thing out of current knowledge."""
    assert rewritten(("W", old), ("W", new)) is None


def test_a_day_of_a_month_is_no_numbered_thing() -> None:
    old = "Dr. Patel booked a follow-up for Wednesday, October 14."
    new = "Her GP follow-up with Dr. Patel is on Friday, October 16 at 9:40."
    assert not currency.numbered_apart(new, old)
    assert currency.numbered_apart("NHS Band 2 is £75.30.", "NHS Band 1 charge is £27.40.")
    assert not currency.numbered_apart("Hire fleet has moved into Unit 11.", "Fleet: Unit 4.")


def test_a_new_number_of_a_thing_is_put_right_in_its_sentence() -> None:
    """A sailing club's replay: "The harbour office has a new number" took the whole entry,
    and the harbour master's name with it, out of current knowledge."""
    old = "Harbour master is Ian Doughty. Harbour office line 01621 854310, staffed 8 till 4."
    new = "The harbour office has a new number: 01621 859047, same hours."
    assert rewritten(("W", old), ("W", new)) == old.replace("01621 854310", "01621 859047")
    # a new number of another line is none of the main number's (a dental practice's replay)
    main = "Main practice number is 0161 445 2290."
    line = "The out-of-hours emergency line has a new number: 0161 496 0958."
    assert currency.number_of_another(line, main)
    assert rewritten(("W", main), ("W", line)) is None
    gareth = "Gareth Pryce is the council allotments officer, phone 01632 960418."
    assert not currency.number_of_another("Gareth Pryce has a new number: 01632 960775.", gareth)


def test_a_thing_moved_to_a_named_place_keeps_the_rest_of_its_entry() -> None:
    old = "Annual dinner: Saturday 21 November at the Anchor Hotel. Rob paid the £250 deposit."
    new = (
        "Annual dinner moved to Heybridge Golf Club; the Anchor Hotel double-booked its function "
        "room."
    )
    assert rewritten(("W", old), ("W", new)) == (
        "Annual dinner: Saturday 21 November at Heybridge Golf Club. Rob paid the £250 deposit."
    )
    # someone moved is no thing moved: where Tom works stays
    assert currency.moved_place_put_right("Tom moved to Berlin.", "Tom works at Google.") is None


def test_a_day_pushed_back_again_puts_right_the_day_it_was_pushed_to() -> None:
    """A sailing club's replay: the second postponement stood beside the first, whose entry
    names two days (the one it could not be, the one it moved to)."""
    old = (
        "Harbourside Marine can't take Tern tomorrow (2026-09-23) - service pushed back to 2 "
        "October."
    )
    new = (
        "Tern's service pushed back again, now 14 October - Harbourside are waiting on a water "
        "pump."
    )
    assert currency.moved_day_put_right(new, old) == old.replace("2 October", "14 October")
    # the day of another thing is not put right
    other = "Dinghy training moved to 2 October; Tern's service is on 23 September."
    assert currency.moved_day_put_right(new, other) is None


def test_a_role_of_one_word_is_no_part_of_a_longer_one() -> None:
    """A film's replay: "Council film office contact is Gail Pruitt" took the place of "The
    film is Saltmarsh, a Tidewater Pictures production" ("film" is no role of hers)."""
    old = "The film is Saltmarsh, a Tidewater Pictures production."
    new = "Council film office contact is Gail Pruitt, 0161 555 0198."
    assert currency.role_holder_put_right(new, old) is None
    assert rewritten(("W", old), ("W", new)) is None


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Cat spay is £145, cat castrate £95.",
         "Cat spay is now £160 on the new surgical price list.",
         "Cat spay is £160, cat castrate £95."),
        ("Croissants are £2.80 each, pain au chocolat £3.00.",
         "Croissants go up to £3.10 from today (2026-09-14) because of butter costs; pain au "
         "chocolat stays the same.",
         "Croissants are £3.10 each, pain au chocolat £3.00."),
        # when a thing starts, put right apart from when it ends
        ("Daily call is 10:00, finishing at 18:00.",
         "Calls now start at 10:15 because the toddler group has the hall until ten.",
         "Daily call is 10:15, finishing at 18:00."),
    ],
)  # fmt: skip
def test_one_price_or_time_of_several_is_put_right(old: str, new: str, expected: str) -> None:
    """A vet practice's, a bakery's and a theatre's replays: the note took the whole entry's
    place, and the other price (or when the call ends) left current knowledge."""
    assert rewritten(("W", old), ("W", new)) == expected


@pytest.mark.parametrize(
    "new",
    ["Sold 20 child tickets, £100 taken.", "Child tickets were £4 last year.",
     "Child ticket for members is £4."],
)  # fmt: skip
def test_what_is_no_new_price_of_a_part(new: str) -> None:
    assert currency.priced_part_put_right(new, "Adult ticket £10, child ticket £5.") is None


def test_a_time_said_with_no_start_or_end_puts_neither_right() -> None:
    old = "Daily call is 10:00, finishing at 18:00."
    assert currency.clock_put_right("Calls are at 11:00.", old) is None
    assert currency.clock_put_right("Calls now finish at 17:30.", old) == old.replace(
        "18:00", "17:30"
    )


def test_a_thing_switched_to_a_named_provider_in_an_event() -> None:
    """A film's replay: "Switched the camera package to Northlight Cine today" (what was done)
    left the camera package on hold at Lumen Rentals."""
    old = "Camera package (Alexa Mini + Cooke S4s) is on hold at Lumen Rentals."
    new = (
        "Switched the camera package to Northlight Cine today. Lumen Rentals could not hold the "
        "Alexa Mini for our dates."
    )
    assert rewritten(("W", old), ("B", new)) == old.replace("Lumen Rentals", "Northlight Cine")
    # what was switched is said in the entry, or nothing is put right
    assert currency.moved_place_put_right("Switched the grip truck to Hirecraft.", old) is None


@pytest.mark.parametrize(
    "old",
    [
        # the provider is said again as a place: putting the place right would garble it
        "Van fuel cards are Shell - fill up at the Shell on Cross Lane, cheapest round here.",
        # two named places, with whom and where: which one moved is not said
        "Tour van is booked with Redline Van Hire: 9-seat Transit with a tow bar, pick-up Thu "
        "17 Sep in Sheffield.",
    ],
)
def test_a_switch_puts_no_place_right_where_the_entry_names_it_unclearly(old: str) -> None:
    """A removals firm's and a band's replays: "Switched the fuel cards to Allstar" had written
    "fill up at Allstar on Cross Lane" beside "fuel cards are Shell", and "Switched the van
    hire to Northgate" "pick-up … in Northgate"."""
    for new in (
        "Switched the fuel cards to Allstar; new cards came today (2026-09-22) for all three vans.",
        "Switched the van hire to Northgate, they had a 9-seater with a tow bar on our dates.",
    ):
        assert currency.moved_place_put_right(new, old) is None


def test_a_vet_practices_new_locum_and_nurse() -> None:
    """A vet practice's replay: the new locum stood beside the one who had finished ("Locum Dr
    Hannah Pryce …": a role said before its holder), and the new nurse beside the list of
    nurses she joined in another's place ("on the nursing team, starting 12 October")."""
    old = "Locum Dr Hannah Pryce covers Wednesdays while Dr Lennox is on reduced hours."
    new = "Dr Tomasz Wolski is our new locum from Thursday; Hannah Pryce has finished."
    assert rewritten(("W", old), ("W", new)) == new
    nurses = "The nurses are Jess Carter, Priya Nair, Tom Fielding and Megan Doyle."
    olivia = "Olivia Marsh is taking Megan Doyle's place on the nursing team, starting 12 October."
    assert rewritten(("W", nurses), ("W", olivia)) == nurses.replace("Megan Doyle", "Olivia Marsh")
    # another team's place is none on this list
    other = "Olivia Marsh is taking Megan Doyle's place on the reception team."
    assert lists.edited(other, nurses) is None


def test_work_taken_over_is_the_work_the_entry_says() -> None:
    old = "Tom owns the search service"
    assert currency.named_swap_put_right("Sara took over the billing service from Tom", old) is None


def test_a_conferences_deadline_extended_and_budget_line_now() -> None:
    """A conference planner's replay: "Early-bird extended by one week, to September 25" and
    "AV line in the budget is now $21,000 …" stood beside the entries they put right."""
    old = "Registration will run on Tito; early-bird pricing ends September 18."
    new = "Early-bird extended by one week, to September 25."
    assert rewritten(("W", old), ("W", new)) == old.replace("September 18", "September 25")
    old = "AV budget line set at $18,500 (projectors, mics, keynote streaming)."
    new = "AV line in the budget is now $21,000 after adding a second projector for Room 2A."
    assert rewritten(("W", old), ("W", new)) == old.replace("$18,500", "$21,000")
    # another line's amount, or another's, is none of this one
    assert currency.now_amount_put_right("Catering line is now $9,000.", old) is None
    assert currency.now_amount_put_right("AV budget line is now $21,000 for Room 2A.", old) is None


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # who puts a price up is not whose price it is
        ("School dinners are £2.60 a day this term, paid through ParentPay.",
         "Fresh Start are putting the dinner price up to £2.75 a day from 1 October.",
         "School dinners are £2.75 a day this term, paid through ParentPay."),
        # the one who does a thing, said as the entry's subject
        ("Redline Coaches are the coach firm we normally use for trips.",
         "Switched the trip coach firm to Chiltern Travel - Redline never sent the confirmation.",
         "Chiltern Travel are the coach firm we normally use for trips."),
        # a place named by its first word
        ("Year 6 swim on Thursday afternoons at Kingsmead Leisure Centre.",
         "Year 6 swimming this term is at Oakfield Pool instead of Kingsmead, whose pool is shut "
         "for refurbishment.",
         "Year 6 swim on Thursday afternoons at Oakfield Pool."),
    ],
)  # fmt: skip
def test_a_school_offices_price_coach_firm_and_pool(old: str, new: str, expected: str) -> None:
    """A primary school office's replay: each of these stood beside the entry it put right."""
    assert rewritten(("W", old), ("W", new)) == expected


def test_another_things_price_or_firm_is_none_of_these() -> None:
    dinners = "School dinners are £2.60 a day this term, paid through ParentPay."
    milk = "Fresh Start are putting the milk price up to £2.75 a day from 1 October."
    assert currency.price_moved_put_right(milk, dinners) is None
    coaches = "Redline Coaches are the coach firm we normally use for trips."
    bread = "Switched the bread order to Hartwell."
    assert currency.moved_place_put_right(bread, coaches) is None


def test_a_role_said_before_a_colon_is_handed_over() -> None:
    """A bakery's replay: "Gemma Hurst is weekend shift lead: she opens up …" was no role
    held (the role ended at no colon), so Callum's taking over left her current."""
    old = (
        "Gemma Hurst is weekend shift lead: she opens up on Saturdays and does the Saturday "
        "cash-up."
    )
    new = (
        "Callum Reid is taking over as weekend shift lead from this Saturday (2026-09-26); Gemma "
        "is going back to uni."
    )
    assert rewritten(("W", old), ("W", new)) == new


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a weekday is a word of what a time is of
        ("The Monday sync with design is at 10:00.", "The Thursday sync with design is at 15:00."),
        # a role said before a name may be a label of many
        ("Supplier Greenleaf Packaging is paid on 30-day terms.",
         "Supplier Kestrel Logistics is paid on 14-day terms."),
    ],
)  # fmt: skip
def test_two_things_of_one_kind_stay(old: str, new: str) -> None:
    """bench_currency's controls: each of these had replaced the other."""
    assert rewritten(("W", old), ("W", new)) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Dentist cleaning with Dr. Alvarez on Tuesday at 3pm.",
         "Moved the cleaning to Friday 11am, Dr. Alvarez's office confirmed."),
        ("Backend uses SQLAlchemy 1.4 with the legacy Query API.",
         "bump sqlalchemy 1.4 -> 2.0, migrate queries to select() style"),
        ("User likes 4-space indentation in the YAML files.",
         "YAML in this repo should be indented with 2 spaces, user said."),
    ],
)  # fmt: skip
def test_written_updates_still_replace(old: str, new: str) -> None:
    """bench_currency's written updates: a weekday is no named place ("moved the cleaning to
    Friday" had written "with Friday. Alvarez"), and a count for an entry that gives a figure
    of its own is a new value of it."""
    assert rewritten(("W", old), ("W", new)) == new
