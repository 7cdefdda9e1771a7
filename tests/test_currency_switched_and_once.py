"""Replayed scenarios (a physiotherapy clinic, a community radio station, a scout group, a
removals firm, a youth hostel, a florist): changes told in more ways, and what must not retire
a fact.

- Read as changes: "We switched our linen service to Brightwash" (what moved to a provider),
  "Ordering ribbon from Ribbonhouse instead of Craftmill" (the old provider named, a word of
  what is provided shared), "postponed the van service; the new date is 6 Oct", "Frau Brandt
  moved her office to Holstenstraße 112" (a street named before its number), "Studio 2 floor
  is being relaid, so Pilates has moved to Room 4" (the reason first), "Priya Raman is taking
  over the breakfast show …; Dana is stepping down", and a change from a day, with no other
  word of one: "Scouts start at 7.15pm from this week", "Martin confirmed the exec vote: subs
  rise to £52 per term from 1 October" (read on its day).
- Not read as changes: what happened once ("short-delivered: 160 stems instead of 200"), a
  request turned down, someone's share of what has no one in it ("Jonas covers reception
  Saturday and Sunday"), an insurer's rate ("Bupa pays £46 per follow-up session"), a thing
  told apart ("separate from the Arts Council one"), a noun that looks like a verb ("small
  flat moves"), and a standing change for what happened (an event entry stays as it was).
"""

from __future__ import annotations

import datetime as dt

import pytest

import agent_sleep
from agent_sleep.analysis import plans, temporal, update_model
from tests.currency_support import replaced, rewritten


@pytest.mark.parametrize(
    ("old", "new", "want"),
    [
        ("Bed linen and towels go to CleanLine Textilservice, pickup Monday and Thursday mornings.",
         "We switched our linen service to Brightwash; first pickup is this Thursday.",
         "Bed linen and towels go to Brightwash, pickup Monday and Thursday mornings."),
        ("Roses come from Van Dijk Flowers - standing order of 200 stems, delivered Mondays.",
         "Moved our rose order over to Aalsmeer Direct, same 200 stems, first delivery Thursday.",
         "Moved our rose order over to Aalsmeer Direct, same 200 stems, first delivery Thursday."),
        ("Ribbon: we buy from Craftmill, satin and chiffon, about 12 rolls a month.",
         "Ordering ribbon from Ribbonhouse instead of Craftmill from now on - cheaper.",
         "Ribbon: we buy from Ribbonhouse, satin and chiffon, about 12 rolls a month."),
        ("Van booked in at Kennington Motors for a service on 22 Sept.",
         "Kennington Motors postponed the van service; the new date is 6 Oct.",
         "Van booked in at Kennington Motors for a service on 6 Oct."),
        ("Our tax advisor is Frau Brandt, office at Max-Brauer-Allee 40.",
         "Frau Brandt moved her office to Holstenstraße 112, second floor.",
         "Our tax advisor is Frau Brandt, office at Holstenstraße 112."),
        ("Pilates classes run in Studio 2 on Tuesday and Thursday evenings.",
         "Studio 2 floor is being relaid, so Pilates has moved to Room 4 until further notice.",
         "Pilates classes run in Room 4 on Tuesday and Thursday evenings."),
        ("Dana Okoye presents the breakfast show, weekdays 7-9am.",
         "Priya Raman is taking over the breakfast show; Dana is stepping down for her degree.",
         "Priya Raman is taking over the breakfast show; Dana is stepping down for her degree."),
        ("Initial assessment costs £65; a follow-up session is £48.",
         "Initial assessment price goes up to £72 from today (was £65); follow-ups stay the same.",
         "Initial assessment costs £72; a follow-up session is £48."),
    ],
)  # fmt: skip
def test_changes_told_in_more_ways(old, new, want):
    assert rewritten(("W", old), ("W", new)) == want


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (("W", "Roses come from Van Dijk Flowers - standing order of 200 stems."),
         ("B", "Aalsmeer Direct short-delivered: 160 stems instead of 200.")),
        (("W", "Priya works Saturdays in the shop."),
         ("B", "Priya asked to work Friday instead of Saturday next week - told her no.")),
        (("W", "Priya works Saturdays in the shop."),
         ("W", "Priya asked to work Friday instead of Saturday next week; we said no.")),
        (("W", "Reception is staffed 07:00-23:00 every day; after that guests use the side door."),
         ("W", "Jonas covers reception Saturday and Sunday, 07:00-15:00.")),
        (("W", "Initial assessment costs £65; a follow-up session is £48."),
         ("W", "Bupa pays £46 per follow-up session.")),
        (("W", "The Arts Council project report is due 12 October."),
         ("W", "Community Radio Fund report due 19 October (separate from the Arts Council one).")),
        (("W", "House clearance junk goes to the Evanston Road tip; the trade permit lives in "
               "the Transit glovebox."),
         ("W", "The Transit is YR68 HNW - the one we use for small flat moves.")),
        (("B", "Mark Oduya off sick; Shona covered the Pudsey job with Jay."),
         ("W", "Jay no longer does weekend jobs - Mon to Fri only from this week.")),
    ],
)  # fmt: skip
def test_what_must_not_retire_a_fact(old, new):
    assert rewritten(old, new) is None


def test_why_each_guard_holds():
    assert update_model.once_instead(
        "Aalsmeer Direct short-delivered: 160 stems instead of 200.", True
    )
    assert not update_model.once_instead(
        "Aalsmeer Direct short-delivered: 160 instead of 200.", False
    )
    assert not update_model.once_instead(
        "Switched the van service to Hillside instead of Kennington.", True
    )
    assert not update_model.once_instead(
        "Ordered from Ribbonhouse instead of Craftmill, starting next week.", True
    )
    assert update_model.once_instead("Tom asked for Friday off; told him no.", False)
    assert (
        update_model.alike_apart(
            "Jonas covers reception Saturday and Sunday, 07:00-15:00.",
            "Reception is staffed 07:00-23:00 every day.",
        )
        == "someone's share"
    )
    assert (
        update_model.alike_apart(
            "Community Radio Fund report due 19 October (separate from the Arts Council one).",
            "The Arts Council project report is due 12 October.",
        )
        == "told apart"
    )


def test_a_change_from_a_day_is_read_as_now():
    said = "Scouts start at 7.15pm from this week (week of 2026-09-14) - 7.30 left too little time."
    assert (
        plans.read_now(said, "2026-09-14")
        == "Scouts start at 7.15pm now - 7.30 left too little time."
    )
    told = "Martin confirmed the exec vote: subs rise to £52 per term from 1 October."
    assert plans.start_as_now(told, dt.date(2026, 9, 24)) == (
        "Martin confirmed the exec vote: subs rise to £52 per term now."
    )
    # who told it is no part of what was told
    assert plans.read_now("Martin confirmed the exec vote: subs are now £52.", "2026-10-02") == (
        "Subs are now £52."
    )
    # a verb of starting, or today, is said as written; a day still to come is a plan
    for text in (
        "Fiona Reid starts today (2026-11-10) as our permanent area manager.",
        "Tom Reilly takes over as head nurse from today (2026-11-10).",
        "Subs are £52 per child per term from 1 October.",
    ):
        assert plans.read_now(text, "2026-09-14" if "October" in text else "2026-11-10") == text
    # a noun is no verb of a change told as one to come
    flat = "The Transit is YR68 HNW - the one we use for small flat moves."
    assert plans.read_now(flat, "2026-09-14") == flat


def _current(ws) -> str:
    text = (ws / "MEMORY.md").read_text()
    return text


def test_a_value_from_a_day_replaces_the_old_one_on_that_day(tmp_path):
    ws = tmp_path / "ws"
    notes = [
        (dt.date(2026, 9, 10), "Subs are £45 per child per term, paid through OSM."),
        (dt.date(2026, 9, 24), "Martin confirmed the exec vote: subs rise to £52 from 1 October."),
        (dt.date(2026, 9, 30), "Bought new tent pegs for the patrol boxes."),
        (dt.date(2026, 10, 2), "Ordered woggles for the new Beavers."),
    ]  # fmt: skip
    states = []
    for day, text in notes:
        agent_sleep.micro_rest(text, "W", workspace=ws, when=dt.datetime.combine(day, dt.time(10)))
        agent_sleep.sleep_cycle(ws, now=dt.datetime.combine(day, dt.time(23)), provider="offline")
        states.append(_current(ws).split("## History")[0])
    assert "£45" in states[2]  # 30 September: still the old subs
    assert "£45" not in states[3] and "£52" in states[3]  # 2 October: the new


@pytest.mark.parametrize(
    ("text", "day", "want"),
    [
        ("Moved our rose order over to Aalsmeer Direct, first delivery Thursday.",
         dt.date(2026, 9, 14), "first delivery Thursday (2026-09-17)"),
        ("Kieran Doyle will be Saturday supervisor from the 26th.", dt.date(2026, 9, 18),
         "Saturday supervisor"),
        ("Gemma's last Saturday is tomorrow.", dt.date(2026, 9, 18), "Gemma's last Saturday is"),
        ("Saw her last Tuesday.", dt.date(2026, 9, 18), "last Tuesday (2026-09-15)"),
        ("First delivery came Thursday.", dt.date(2026, 9, 14), "Thursday (2026-09-10)"),
    ],
)  # fmt: skip
def test_weekdays_read_as_meant(text, day, want):
    assert want in temporal.resolve(text, day)


@pytest.mark.parametrize(
    ("old", "new", "want"),
    [
        ("Dean Rowley is foreman of Crew A.", "Marcus Tilley is now foreman of Crew A.",
         "Marcus Tilley is now foreman of Crew A."),
        ("Dean Rowley is foreman of Crew A.", "Marcus Tilley has taken over as Crew A foreman.",
         "Marcus Tilley has taken over as Crew A foreman."),
        ("Dean Rowley is foreman of Crew A.",
         "Marcus Tilley has replaced Dean Rowley as Crew A foreman.",
         "Marcus Tilley has replaced Dean Rowley as Crew A foreman."),
        ("Gemma Hollis is reception lead - she runs the front desk rota and patient recalls.",
         "Liam Fraser from the Brightstaff agency is covering as reception lead until we hire.",
         "Liam Fraser from the Brightstaff agency is covering as reception lead until we hire."),
        ("Skips come from Hartley Skips - 8 yard skip is £260.",
         "We've switched skip hire to Brennan Waste.",
         "Skips come from Brennan Waste - 8 yard skip is £260."),
        ("Saturday market range is sourdough, rye, spelt and seeded loaves.",
         "We've dropped spelt from the Saturday market range; it wasn't selling.",
         "Saturday market range is sourdough, rye and seeded loaves."),
        ("The market office moved us to pitch 22 at Castle Square, nearer the fountain.",
         "Castle Square: we're pitch 9 now, by the market cross.",
         "The market office moved us to pitch 9 at Castle Square, nearer the fountain."),
        ("The Hartley family's furniture is in storage Unit 14 at the Stourton yard.",
         "Hartley storage has moved to Unit 22 - Unit 14's roof is leaking.",
         "Hartley storage has moved to Unit 22 - Unit 14's roof is leaking."),
        ("Group kit (tents, stoves, the trailer) lives in the lock-up at Unit 4, Brindley Yard.",
         "Kit store has moved to Unit 11, Canal Street Depot - the Brindley Yard lease has ended.",
         "Kit store has moved to Unit 11, Canal Street Depot - the Brindley Yard lease has ended."),
    ],
)  # fmt: skip
def test_holders_providers_items_and_places(old, new, want):
    assert rewritten(("W", old), ("W", new)) == want


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Carter Plant Hire charge £145 a day for the 1.5t mini digger.",
         "We've switched skip hire to Brennan Waste."),
        ("Saturday market is at Castle Square and we're on pitch 14.",
         "We've dropped spelt from the Saturday market range; it wasn't selling."),
        ("We have a stall at the Riverside evening market on Thursdays, 5-8pm.",
         "The Riverside market runs until the end of October, then stops for winter."),
    ],
)  # fmt: skip
def test_a_shared_word_alone_retires_nothing(old, new):
    assert rewritten(("W", old), ("W", new)) is None


def test_a_weekday_of_every_week_or_of_a_day_said_before_is_no_date():
    assert (
        temporal.resolve(
            "Saturday market range is sourdough, rye and seeded loaves.", dt.date(2026, 9, 10)
        )
        == "Saturday market range is sourdough, rye and seeded loaves."
    )
    said = "Devika can't do the 17 October market; Dev will cover the stall that Saturday."
    assert temporal.resolve(said, dt.date(2026, 10, 7)) == said


@pytest.mark.parametrize(
    ("old", "new", "want"),
    [
        # an item said in the plural, and a word of an item no item of its own
        ("Clients can send completion money by bank transfer or banker's draft.",
         "We've stopped taking banker's drafts - bank transfer only for client money.",
         "Clients can send completion money by bank transfer."),
        # a time of day after "till" is a new closing time, not how long a thing runs
        ("Sunday roast is served 12 till 3pm.", "Sunday roasts 12 till 4pm.",
         "Sunday roast is served 12 till 4pm."),
    ],
)  # fmt: skip
def test_an_item_in_the_plural_and_a_time_till(old, new, want):
    assert rewritten(("W", old), ("W", new)) == want


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # ", not Van 2" corrects no "Van 1"
        ("Van 1 is the Luton, reg KX19 TRM. MOT due 14 November.",
         "Alder Road has a 3.5 tonne weight limit, so Van 3 or the Luton only, not Van 2."),
        # what was switched is said in the entry, or it is another thing's provider
        ("Shimano warranty claims go through Madison, not our parts supplier.",
         "Switched our inner tube supplier to Northwind Cycle Supply; they deliver Mondays."),
    ],
)  # fmt: skip
def test_a_word_of_a_value_is_no_value(old, new):
    assert rewritten(("W", old), ("W", new)) is None


def test_a_reason_after_a_dash_is_read_first_then_set_aside():
    moved = "Hartley storage has moved to Unit 22 - Unit 14's roof is leaking."
    assert plans.readings(moved, "2026-09-15") == [moved, "Hartley storage has moved to Unit 22."]
    # the reason read first may name whose the change is
    repair = "Boiler repair is now 6 October - Warmflow's engineer is off sick."
    assert plans.readings(repair, "2026-09-28")[0] == repair
    for kept in (
        "Using Tidewell Cranes instead of Bayliss Lifting - if they can do the 24th.",
        "Luton MOT pushed again - Brook Street can't do it today; new date Tue 13 Oct.",
        "Correction - our flight is TP1337.",
    ):
        assert plans.readings(kept, "2026-09-28") == [kept]


def test_a_repair_moved_stays_with_whose_it_is():
    booked = "Warmflow Heating are booked to replace the boiler heat exchanger on 29 September."
    make = "The boiler is a Potterton Commercial put in in 2009; Warmflow hold the service history."
    moved = "Boiler repair is now 6 October - Warmflow's engineer is off sick."
    memory = [
        {"id": "booked", "type": "W", "text": booked, "date": "2026-09-15"},
        {"id": "make", "type": "W", "text": make, "date": "2026-09-18"},
    ]
    assert replaced(("W", moved), memory, day="2026-09-28") == ["booked"]


def test_a_correction_puts_right_the_entry_with_the_amount_it_names():
    standard = "Standard 2-bed local move is £650 - 3 men, the Luton, up to 6 hours."
    planned = "Prices go up from Monday 21 Sept: a 2-bed local move will be £695."
    fixed = "Correction to the new price list: the 2-bed local move is £685, not £695 - a typo."
    memory = [
        {"id": "standard", "type": "W", "text": standard, "date": "2026-09-07"},
        {"id": "planned", "type": "W", "text": planned, "date": "2026-09-14"},
    ]
    assert replaced(("W", fixed), memory, day="2026-09-16") == ["planned"]


@pytest.mark.parametrize(
    ("old", "new", "want"),
    [
        ("The van (white Transit Connect, LK19 PWR) is parked overnight at the Elm Street lot, "
         "bay 12.",
         "Van moved to the Harbour Road garage, unit 3 - Elm Street is being resurfaced.",
         "The van (white Transit Connect, LK19 PWR) is parked overnight at the Harbour Road "
         "garage, unit 3."),
        ("Thursday group walk is Biscuit, Luna, Pepper and Otis, 2pm, meeting at Hollow Lane "
         "field.",
         "From this week the Thursday group walk meets at the Beacon Park gate instead of "
         "Hollow Lane field.",
         "Thursday group walk is Biscuit, Luna, Pepper and Otis, 2pm, meeting at Beacon Park "
         "gate."),
        ("MOT pushed back to Tuesday 6 October, Kwik Fit are short-staffed that week.",
         "Kwik Fit moved the MOT again: now Tuesday 13 October, 9am.",
         "MOT pushed back to Tuesday 13 October, 9am, Kwik Fit are short-staffed that week."),
    ],
)  # fmt: skip
def test_a_place_or_a_day_put_right_with_what_goes_with_it(old, new, want):
    assert rewritten(("W", old), ("W", new)) == want


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a deadline is no new start
        ("We've switched public liability insurer to Hollis Mutual from 1 October, policy "
         "HM-7781-B.",
         "Hollis Mutual need a copy of the first aid certificate by 20 October."),
        # a note that names no day is no new booking of one
        ("Van MOT booked for Tuesday 22 September, 9am, Kwik Fit Stockport.",
         "Van moved to the Harbour Road garage, unit 3 - Elm Street is being resurfaced."),
    ],
)  # fmt: skip
def test_a_day_of_another_kind_or_none_retires_nothing(old, new):
    assert rewritten(("W", old), ("W", new)) is None


def test_a_limit_said_with_no_more_than_is_a_standing_rule():
    from agent_sleep.analysis import vital

    assert vital.vital("House rule: no walker takes more than 4 dogs at once.")
    assert not vital.vital("We sold no more than 40 tickets.")


def test_a_new_number_retires_no_other_fact_and_a_price_from_today_replaces():
    # a phone number where the entry gave none is no new ticketing system (nor its clause)
    assert (
        rewritten(
            ("W", "Box office runs on Ticketsolve; both counter PCs log in through it."),
            ("W", "The box office number is now 01632 960775; the old line was switched off."),
        )
        is None
    )
    # who approved it is no part of the price; "from today" says it holds now
    assert (
        rewritten(
            ("W", "Standard adult ticket for The Glass Menagerie is £18.50."),
            (
                "W",
                "Board approved the price rise: standard tickets are £21 from today (2026-11-10).",
            ),
        )
        == "Board approved the price rise: standard tickets are £21 from today (2026-11-10)."
    )
    # a lead-in with no clause after it is kept: the subject is in it
    said = "Harbor Coffee signed off on the new rate: 80 euros per hour from March onward."
    assert plans.read_now(said, "2026-11-10") == said


@pytest.mark.parametrize(
    ("old", "new", "want"),
    [
        # items of two words, a name in each, then one of a name alone
        ("Front desk sells Grenade bars, Myprotein shakes and Huel.",
         "Stopped stocking Huel at the front desk; it wasn't selling.",
         "Front desk sells Grenade bars and Myprotein shakes."),
        ("Front desk sells Grenade bars, Myprotein shakes and Huel.",
         "The front desk no longer sells Huel; it wasn't selling.",
         "Front desk sells Grenade bars and Myprotein shakes."),
    ],
)  # fmt: skip
def test_an_item_goes_from_a_list_of_branded_things(old, new, want):
    assert rewritten(("W", old), ("W", new)) == want


def test_what_holds_from_tonight_is_no_appointment_that_passed():
    import datetime as dt

    from agent_sleep.retrieval import context

    said = "HIIT is in the Main Hall from tonight (2026-09-30) - it outgrew Studio 2."
    assert context.when(said, dt.date(2026, 9, 30), dt.date(2026, 10, 10)) != "over"


@pytest.mark.parametrize(
    ("old", "new", "want"),
    [
        ("Diesel for the yard tank comes from Tilbury Fuels, delivery usually Tuesdays.",
         "Switched the diesel supply to Hawkins Marine Fuels - Tilbury kept missing drops.",
         "Diesel for the yard tank comes from Hawkins Marine Fuels, delivery usually Tuesdays."),
        ("Bookings all go through BoatBook (online calendar + deposits).",
         "We've gone over to Harbourline for bookings from this week; deposits are taken there.",
         "Bookings all go through Harbourline (online calendar + deposits)."),
        # the one left named: that name put right, not another place of the entry
        ("Card payments at events go through SumUp; the reader is kept in the PTA cupboard.",
         "Switched our card reader from SumUp to Zettle - lower fees.",
         "Card payments at events go through Zettle; the reader is kept in the PTA cupboard."),
        ("Gareth Holloway is PTA treasurer and holds the cheque book.",
         "Priya Natarajan is our new treasurer, voted in at the AGM after Gareth stood down.",
         "Priya Natarajan is our new treasurer, voted in at the AGM after Gareth stood down."),
        # an item named short, and a reason after a dash
        ("Raffle prizes so far: a Waitrose hamper, a Kindle Paperwhite and a family pass.",
         "The Kindle is no longer a raffle prize - the donor pulled out.",
         "Raffle prizes so far: a Waitrose hamper and a family pass."),
        ("Raffle prizes so far: a Waitrose hamper, a Kindle Paperwhite and a family pass.",
         "The Kindle Paperwhite is no longer a raffle prize - the donor pulled out.",
         "Raffle prizes so far: a Waitrose hamper and a family pass."),
    ],
)  # fmt: skip
def test_providers_holders_and_items_in_more_words(old, new, want):
    assert rewritten(("W", old), ("W", new)) == want


@pytest.mark.parametrize(
    ("old", "new", "want"),
    [
        # two days of a month each: no list; the days put right in place, the times stay
        ("Volunteer workdays are the first and third Saturday of each month, 9:30 till 12:30.",
         "Workdays have moved to the second and fourth Sunday of the month.",
         "Volunteer workdays are the second and fourth Sunday of each month, 9:30 till 12:30."),
        ("Derek Asante at the council is our parks liaison - he signs off the boundary trees.",
         "Priya Lal has taken over as our parks liaison at the council.",
         "Priya Lal has taken over as our parks liaison at the council."),
        # one joins a list whose last item has an aside
        ("Committee is Maria Okonkwo (chair), Tom Whitaker and Fiona Reyes (treasurer).",
         "Jae-won Park is on the committee now as well.",
         "Committee is Maria Okonkwo (chair), Tom Whitaker, Fiona Reyes (treasurer) and "
         "Jae-won Park."),
    ],
)  # fmt: skip
def test_days_of_a_month_a_liaison_and_a_list_with_asides(old, new, want):
    assert rewritten(("W", old), ("W", new)) == want


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Compost bays take green waste, coffee grounds and eggshells.",
         "Autumn leaves go in the leaf-mould cage, not the compost bays."),
        ("The festival cake stall needs someone with a food hygiene certificate; Fiona has one.",
         "Festival stalls: cakes, plant swap, pumpkin weigh-in, kids' crafts."),
    ],
)  # fmt: skip
def test_what_a_thing_is_not_and_a_list_for_none_retire_nothing(old, new):
    assert rewritten(("W", old), ("W", new)) is None


@pytest.mark.parametrize(
    ("old", "new", "want"),
    [
        # the one left said again as a place: the note takes the entry's place
        ("Van fuel cards are Shell - fill up at the Shell on Cross Lane, cheapest round here.",
         "Switched the fuel cards to Allstar; new cards came today for all three vans.",
         "Switched the fuel cards to Allstar; new cards came today for all three vans."),
        # a role "at" a firm is the role
        ("Our building manager at Vermeer Properties is Tomás Reyes.",
         "Ingrid Vos takes over as our building manager at Vermeer Properties from today.",
         "Ingrid Vos takes over as our building manager at Vermeer Properties from today."),
    ],
)  # fmt: skip
def test_a_provider_said_twice_and_a_role_at_a_firm(old, new, want):
    assert rewritten(("W", old), ("W", new)) == want


def test_a_deadline_pushed_back_is_the_same_deadline():
    from agent_sleep.analysis import update_model

    assert not update_model.dates_apart(
        "Nina and Owen asked for more retouching, so their gallery deadline is pushed back to "
        "14 October.",
        "Nina Marsh and Owen Kelly's full gallery is due 25 September.",
    )
    # a label and a clause with commas is no list
    assert (
        update_model.alike_apart(
            "Venue receiving address changed: deliveries now go to 455 Pier Street, Dock D, "
            "because of construction on Lakeshore.",
            "All deliveries to the venue go to 410 Lakeshore Ave; the loading dock is open 6-10am.",
        )
        != "a list where there was none"
    )


def test_a_day_it_happens_on_may_move_a_deadline():
    from agent_sleep.analysis import update_model

    # only a deadline and a start are days of two kinds
    assert not update_model.dates_apart(
        "Alpha milestone: October 11, per the publisher call.",
        "Alpha milestone for Ember is due August 30.",
    )
    assert not update_model.dates_apart(
        "Apple review date for iOS 3.0 slipped to May 28.",
        "iOS 3.0 submission deadline is May 14.",
    )
