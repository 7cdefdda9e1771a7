"""Ten replayed scenarios (a brewery, a physio clinic, a running club, an electrician's office,
a head chef, a release manager, a garden centre, a letting agency, a nursery, a radio station):
what a reading of likeness alone may retire, roles handed over, days and prices moved again, and
weekdays to come told beside a past act.

- Likeness alone (no word of change, no old value named) loses nothing for nothing: no phone,
  code or web address the newer note neither says again nor replaces, nothing where the newer
  note says no value the older lacks, no fact for a price or a count where it had none, no
  standing fact for one dated occasion, and no fact for an event told in the past.
- A phone of another line ("office landline") is no new mobile; "closed for annual leave" ends
  nothing; "Bupa's rate for a follow-up" is the insurer's price, not the clinic's.
- Roles: "takes over as station manager" for "is the station manager and signs off …", "is
  coming in as sous chef", "Our electrician from now on is …" in a second sentence, and a role
  as a label ("Electrician we use: Nina Cole").
- A day moved again ("put back again, it's now Thursday 22 October", "pushed back a week …: new
  date Thu 1 Oct") and a price "going up to £31" with a reason after it are put right in place.
- Lists: "Copper Bitter is off the tap list" takes it out; "We now cover Perivale as well" adds
  it; "Luis Ortega is no longer on the change board; he moved to the data team" takes him out
  and puts nothing in his place (the clause after is of him, no part of the list); "Ben has pulled
  out" takes "Ben Mackie" out whole.
- A weekday governed by a timetable's verb ("arriving Monday", "starts Monday") or a wish
  ("wants the crash cooled on Monday") is the one to come; a present perfect gives no past day.
"""

from __future__ import annotations

import datetime as dt

import pytest

from agent_sleep.analysis import lists, temporal
from agent_sleep.providers import offline_currency
from tests.currency_support import rewritten


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a phone the newer note neither says again nor replaces
        (("W", "Moira Kerr chairs the club. Her mobile is 07700 900241."),
         ("W", "Moira Kerr is standing for chair again at the AGM.")),
        # a code
        (("W", "Greenacre Growers supply our perennials, account GA-5530; they deliver on "
               "Danish trolleys."),
         ("W", "Danish trolleys from the nurseries unload at Bay C.")),
        # a web address, to an event
        (("W", "The status page is status.fernhill.io; comms post there for anything "
               "customer-facing."),
         ("B", "Aisha updated the incident template on the status page.")),
        # no value the older note lacks
        (("W", "Sandy Duthie is head coach, mobile 07700 900214."),
         ("W", "For emergencies at sessions, Sandy Duthie is on 07700 900214.")),
        # a price where the entry had none, of a part of it
        (("W", "Studio 1 is the on-air studio upstairs; Studio 2 is the production room in the "
               "basement."),
         ("W", "Studio 2 hire is now £30 an hour.")),
        # one dated occasion
        (("W", "The Orchard Room takes 25 people for workshops; chairs are in the store behind "
               "it."),
         ("W", "Wreath-making workshop booked for Saturday 5 December in the Orchard Room, £35 "
               "including materials.")),
        # events told in the past
        (("W", "Card payments on the tills go through SumUp readers, three of them."),
         ("B", "Card reader 2 dropped its connection twice over lunch, customers paid cash.")),
        (("W", "Owls have forest school in Hollin Wood on Tuesday afternoons."),
         ("B", "Forest school rained off; Owls built dens in the garden instead.")),
        (("W", "Tom Barker is the tenant of Flat 3, 27 Mill Lane."),
         ("B", "Tom in Flat 3 Mill Lane has handed in his notice - he moves out on 30 "
               "September.")),
        # another line
        (("W", "Rook Plumbing is Dave Rook, mobile 07700 900412."),
         ("W", "Rook Plumbing's office landline is 0161 496 0215 - use it for invoices, Dave's "
               "mobile for jobs.")),
        # shut for a while
        (("W", "Rook Plumbing's office landline is 0161 496 0215."),
         ("W", "Rook Plumbing is closed for annual leave 26-30 October.")),
        # another's price
        (("W", "Initial assessment is £65, follow-ups £48."),
         ("W", "Bupa's rate for a follow-up is £52.")),
        # a phone, where the note's resolved weekend is no number
        (("W", "Devika Rao in housekeeping is on 07700 900131 for room set-up questions."),
         ("W", "Devika Rao is covering housekeeping set-ups this weekend (weekend of "
               "2026-11-14).")),
        # a code where there was none
        (("W", "Plumbase give us 18% off list on our trade account."),
         ("W", "Plumbase account no. PB-44819.")),
        # a person's fact, to a note that does not name them
        (("W", "Dave Harlow drives the van for the collection rounds."),
         ("W", "Collection round covers Bramley, Oakfield and Hatton Park.")),
        # an event of the thing the entry names, told with no verb
        (("W", "Alan has signed us up to ServiceM8 for job management; engineers get the app "
               "this week."),
         ("B", "Two-hour training session on the new job app for the engineers this "
               "afternoon.")),
        # another day's times, the entry's day set apart first
        (("W", "On Saturdays the taproom opens at 12 noon and closes at midnight."),
         ("W", "From this week the taproom shuts at 11:30pm on Fridays.")),
        # a time moved is no carrier added to a list
        (("W", "Saturday collections: DPD, Palletways and XPO."),
         ("W", "Palletways collection moved to 17:15 starting today.")),
        # a time said again in an event, done that time
        (("W", "Payroll needs our timesheets by Wednesday 12:00."),
         ("B", "Payroll timesheets in by 11:30.")),
        # a price, to a note that gives no amount
        (("W", "School dinners are £2.60 a day for KS2; infants are free under UIFSM."),
         ("W", "We've switched our school dinner supplier to Brightmeals from today.")),
        # another day's times
        (("W", "Taproom closes at 10pm on Fridays; last orders twenty minutes before."),
         ("W", "On Saturdays the taproom opens at 12 noon and closes at midnight.")),
    ],
)  # fmt: skip
def test_likeness_alone_loses_nothing_for_nothing(old, new):
    assert rewritten(old, new) is None


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # the guards leave a change said plainly alone
        ("Moira Kerr's mobile is 07700 900241.",
         "Moira Kerr has a new mobile: 07700 900555.",
         "Moira Kerr's mobile is 07700 900555."),
        ("Follow-ups are £48.",
         "Follow-ups are now £52.",
         "Follow-ups are now £52."),
        ("The Riverside branch is open 9 to 5.",
         "The Riverside branch is closed for good.",
         "The Riverside branch is closed for good."),
        # roles handed over
        ("Colette Ambrose is the station manager and signs off any schedule change.",
         "Marcus Fidler takes over as station manager from today (2026-11-10).",
         "Marcus Fidler takes over as station manager from today (2026-11-10)."),
        ("Marco Bellini is our sous chef; he runs the pass on Chef's days off.",
         "Priya Nair is coming in as sous chef, starting Monday (2026-11-16).",
         "Priya Nair is coming in as sous chef, starting Monday (2026-11-16)."),
        ("Electrician we use: Nina Cole at Sparkwell Electrical, mobile 07700 900588.",
         "Sparkwell have stopped taking rental work. Our electrician from now on is Sam Ortiz "
         "at Brightline Electrics, 07700 900317.",
         "Sparkwell have stopped taking rental work. Our electrician from now on is Sam Ortiz "
         "at Brightline Electrics, 07700 900317."),
        # days moved again, a price gone up again
        ("Owls trip to Brook Farm booked for Thursday 15 October, coach with Redline Coaches.",
         "Brook Farm trip has been put back again, it's now Thursday 22 October - Redline "
         "double-booked the coach.",
         "Owls trip to Brook Farm booked for Thursday 22 October, coach with Redline Coaches."),
        ("checkout-api 4.2 is scheduled to ship Thu 24 Sep.",
         "4.2 release pushed back a week because of the address form bugs: new date Thu 1 Oct.",
         "checkout-api 4.2 is scheduled to ship Thu 1 Oct."),
        ("10oz ribeye is £28 on the a la carte.",
         "Ribeye going up to £31 - Whitcombe's beef price rose again.",
         "10oz ribeye is £31 on the a la carte."),
        ("Priya Shah is head nurse and does the nurse rota.",
         "Tom Reilly takes over as head nurse from today (2026-11-10) while Priya is on "
         "maternity leave.",
         "Tom Reilly takes over as head nurse from today (2026-11-10) while Priya is on "
         "maternity leave."),
        ("Crisp Linen Co's depot is at Unit 4, Trafford Park.",
         "Crisp Linen Co moved to Unit 9, Pomona Dock - deliveries come from there now.",
         "Crisp Linen Co moved to Unit 9, Pomona Dock - deliveries come from there now."),
        # a provider switched, named by what it does
        ("Fresh Start Catering supply our hot school dinners.",
         "We've switched our school dinner supplier to Brightmeals from today (2026-11-10).",
         "We've switched our school dinner supplier to Brightmeals from today (2026-11-10)."),
        ("Dave Harlow drives the van for the collection rounds.",
         "Priya Nair is our new van driver - Dave Harlow has stepped back after eight years.",
         "Priya Nair is our new van driver - Dave Harlow has stepped back after eight years."),
        # a thing named with a digit, scrapped
        ("Alan has signed us up to ServiceM8 for job management; engineers get the app this "
         "week.",
         "Alan's scrapped ServiceM8 - we're going with Commusoft instead.",
         "Alan's scrapped ServiceM8 - we're going with Commusoft instead."),
        # a time moved, of what the entry names in another form
        ("Palletways collect from door 9 at 16:30 every weekday.",
         "Palletways collection moved to 17:15 starting today (2026-11-10).",
         "Palletways collect from door 9 at 17:15 every weekday."),
        # a role's holder given in the entry's second part
        ("Sandra Okoye has left the charity; Mark Bellamy is covering as area manager for now.",
         "Fiona Reid starts today (2026-11-10) as our permanent area manager.",
         "Fiona Reid starts today (2026-11-10) as our permanent area manager."),
        # a routine's day switched
        ("Margaret Ellis volunteers on Thursdays, mostly sorting.",
         "Margaret Ellis has switched to Fridays.",
         "Margaret Ellis volunteers on Fridays, mostly sorting."),
        # a round of work taken over, in the note's second part
        ("Gary Tolan looks after the emergency line evenings and weekends.",
         "Gary Tolan has left us; Kasia Nowak takes over the emergency line from tonight.",
         "Gary Tolan has left us; Kasia Nowak takes over the emergency line from tonight."),
        # an address moved, a weekday after it no name
        ("Spare parts and stock live in the lock-up at Unit 4, Kirkstall Trading Estate.",
         "Stock has moved to Unit 11, Thornbury Business Park; we hand the old unit back on "
         "Friday.",
         "Stock has moved to Unit 11, Thornbury Business Park; we hand the old unit back on "
         "Friday."),
        # a provider named first, the one left named after "instead of"
        ("NetDesk Solutions is our IT provider; they look after the PCs, the server and the "
         "phone system.",
         "Pinecrest IT look after our computers and phones now, instead of NetDesk.",
         "Pinecrest IT look after our computers and phones now, instead of NetDesk."),
        # an address moved, its town after it
        ("Kula Props (bolsters, blocks, straps) ship from Unit 4, Ashfield Trading Estate, "
         "Bolton.",
         "Kula Props have relocated to 12 Mill Lane, Stockport.",
         "Kula Props have relocated to 12 Mill Lane, Stockport."),
        ("Heather Lindsay is our welfare officer.",
         "Graham Toal has agreed to take on welfare officer; Heather steps down after six "
         "years.",
         "Graham Toal has agreed to take on welfare officer; Heather steps down after six "
         "years."),
        # no list where nothing is joined by "and": the note takes the entry's place whole
        # (not "… adviser for us is 01632 960744. Dev Malhotra covers …")
        ("Council early years adviser for us is Sandra Pike, 01632 960744.",
         "Sandra Pike is no longer our early years adviser; Dev Malhotra covers our area from "
         "today (2026-11-10), 01632 960733.",
         "Sandra Pike is no longer our early years adviser; Dev Malhotra covers our area from "
         "today (2026-11-10), 01632 960733."),
        # a share for a share of one code-named thing
        ("new_checkout_flow flag is on for 10% of users.",
         "new_checkout_flow now at 25%, raised this morning (2026-11-10) after a clean weekend.",
         "new_checkout_flow now at 25%, raised this morning (2026-11-10) after a clean weekend."),
        # an address moved, the entry's other part kept (not "Unit 12 Mill Lane")
        ("Keg store is at Unit 7 Mill Lane; Owen holds the padlock key.",
         "The keg store has moved: it's now Unit 12 Station Yard, and the Mill Lane unit is "
         "handed back.",
         "Keg store is at Unit 12 Station Yard; Owen holds the padlock key."),
    ],
)  # fmt: skip
def test_changes_put_right(old, new, expected):
    assert rewritten(("W", old), ("W", new)) == expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("On tap this week: Lantern, Millrace Stout, Ferry Pale and Copper Bitter.",
         "Copper Bitter is off the tap list.",
         "On tap this week: Lantern, Millrace Stout and Ferry Pale."),
        ("We cover Ealing, Greenford and Northolt; further out only if it's a big job.",
         "We now cover Perivale as well.",
         "We cover Ealing, Greenford, Northolt and Perivale; further out only if it's a big "
         "job."),
        ("Change advisory board members: Marta Silva (chair), Kenji Ito, Luis Ortega and Aisha "
         "Bello.",
         "Luis Ortega is no longer on the change board; he moved to the data team.",
         "Change advisory board members: Marta Silva (chair), Kenji Ito and Aisha Bello."),
        # a reason after it is no part of what went
        ("Approved florists: Petal & Stem, Wildroot and Bloomhouse.",
         "Bloomhouse is off the approved florist list after the mix-up on the Gardner "
         "anniversary.",
         "Approved florists: Petal & Stem and Wildroot."),
        ("Collection round covers Bramley, Oakfield and Hatton Park.",
         "Hatton Park has been dropped from the collection round - too few bags to justify the "
         "fuel.",
         "Collection round covers Bramley and Oakfield."),
        ("Raj Mehta and Eileen Shaw make up the Wednesday team.",
         "Kwame Asante is joining the Wednesday team.",
         "Raj Mehta, Eileen Shaw and Kwame Asante make up the Wednesday team."),
        # an item named by its first word goes whole (not "Ailsa Grant Mackie")
        ("Club entries for the Kirkcaldy Half: Ailsa Grant, Ben Mackie, Callum Shaw and Dev "
         "Patel.",
         "Ben has pulled out of the Kirkcaldy Half, calf strain.",
         "Club entries for the Kirkcaldy Half: Ailsa Grant, Callum Shaw and Dev Patel."),
        ("Our team members are Ana Lopez, Ben Ortiz and Carla Diaz.",
         "Carla left the team.",
         "Our team members are Ana Lopez and Ben Ortiz."),
    ],
)  # fmt: skip
def test_list_items_taken_out_and_added(old, new, expected):
    assert lists.edited(new, old) == lists.Edit(expected)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # a booking's day moved
        (("B", "Booked the mayor for a live interview in Studio 1 on Wednesday 16 September, "
               "11am."),
         ("W", "Mayor interview moved: Tuesday 22 September at 11am, instead of the 16th."),
         "Booked the mayor for a live interview in Studio 1 on Tuesday 22 September, 11am."),
        # a switch told as an event, a name that opens with a small letter
        (("W", "Playout runs on RadioDJ on the main studio PC."),
         ("B", "Switched playout over to mAirList this morning."),
         "Playout runs on mAirList on the main studio PC."),
        # a day confirmed, moved
        (("B", "Mrs Owens confirmed the Hartley-Owens wedding for Saturday 17 October in the "
               "Marlow Suite, 95 guests."),
         ("B", "Mrs Owens rang - the Hartley-Owens wedding is pushed back a week, to Saturday "
               "24 October."),
         "Mrs Owens confirmed the Hartley-Owens wedding for Saturday 24 October in the Marlow "
         "Suite, 95 guests."),
        # an event that names the one left
        (("W", "Milk supplier is Greenfields Dairy, drop-off Mon/Wed/Fri before 7am."),
         ("B", "Rang Hillside Dairy and set up our milk order - we've switched from "
               "Greenfields, first Hillside drop Wednesday."),
         "Rang Hillside Dairy and set up our milk order - we've switched from Greenfields, "
         "first Hillside drop Wednesday."),
        # an event that moves a day
        (("W", "Warmflow Heating are booked to replace the boiler heat exchanger on 22 "
               "September."),
         ("B", "Warmflow called: the part hasn't come in, so the boiler job is pushed back to 29 "
               "September."),
         "Warmflow Heating are booked to replace the boiler heat exchanger on 29 September."),
    ],
)  # fmt: skip
def test_events_that_move_or_switch_put_right(old, new, expected):
    entry = {"id": "m1", "type": old[0], "text": old[1], "date": "2026-09-07"}
    out = offline_currency.supersedes(
        [(new[0], new[1], ["n1"], 0.8, "2026-09-14")],
        [entry],
        [],
        frozenset({"zz"}),
        offline_currency.similarity(),
    )
    assert [u["text"] for u in out.values()] == [expected]


def test_an_event_keeps_who_was_there():
    # "Bellwether pulled out of weddings" edits no list of an event
    entry = {
        "id": "m1",
        "type": "B",
        "date": "2026-09-07",
        "text": "Final walkthrough for tomorrow's Hale wedding with Aisha and Bellwether.",
    }
    note = ("W", "Bellwether pulled out of weddings; Copper Pot Catering are doing them from now "
                 "on.")  # fmt: skip
    out = offline_currency.supersedes(
        [(*note, ["n1"], 0.8, "2026-09-14")], [entry], [], frozenset({"zz"}),
        offline_currency.similarity(),
    )  # fmt: skip
    assert out == {}


def test_a_word_said_too_of_something_else_adds_nothing():
    listed = "We cover Ealing, Greenford and Northolt; further out only if it's a big job."
    assert lists.edited("Ana likes Perivale as well.", listed) is None


@pytest.mark.parametrize(
    ("day", "text", "expected"),
    [
        ("2026-10-09", "Owen wants the Harvest Red crash cooled on Monday.",
         "Owen wants the Harvest Red crash cooled on Monday (2026-10-12)."),
        ("2026-09-17", "Ordered 12 rolls of couch roll, arriving Monday.",
         "Ordered 12 rolls of couch roll, arriving Monday (2026-09-21)."),
        ("2026-10-01", "App Store approved mobile 7.3; phased release starts Monday.",
         "App Store approved mobile 7.3; phased release starts Monday (2026-10-05)."),
        # a present perfect gives no day of the past
        ("2026-09-14", "Rang Hillside Dairy - we've switched from Greenfields, first Hillside "
                       "drop Wednesday.",
         "Rang Hillside Dairy - we've switched from Greenfields, first Hillside drop "
         "Wednesday."),
        # a group named by its day
        ("2026-09-14", "Kwame Asante is joining the Wednesday team.",
         "Kwame Asante is joining the Wednesday team."),
        # a thing of every such day, its schedule changed
        ("2026-09-24", "From next week the Friday late clinic will finish at 6:30pm instead of "
                       "7pm.",
         "From next week (week of 2026-09-28) the Friday late clinic will finish at 6:30pm "
         "instead of 7pm."),
        # the past stays past
        ("2026-09-17", "Started the new rota Monday.", "Started the new rota Monday (2026-09-14)."),
        ("2026-09-17", "The café opened on Monday.", "The café opened on Monday (2026-09-14)."),
        ("2026-09-17", "The engineer visited Tuesday and fixed the boiler.",
         "The engineer visited Tuesday (2026-09-15) and fixed the boiler."),
    ],
)  # fmt: skip
def test_weekday_to_come_beside_a_past_act(day, text, expected):
    assert temporal.resolve(text, dt.date.fromisoformat(day)) == expected
