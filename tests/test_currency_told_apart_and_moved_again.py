"""Replayed scenarios (a dog groomer, a community theatre, an allotment society, an IT service
desk, a mobile hairdresser, a village pub): look-alikes a reading of likeness alone must not
retire, list items taken out in more words, and days moved again.

- Likeness alone retires no look-alike: a thing of one kind under another letter ("Tub room B"
  for "Tub room A"), one the note tells apart ("not to be mixed up with Jan Kowalski"), nor a
  code for a code of another shape ("P1" for contract "HD-2211").
- Lists: "is off the set build crew", "Portslade's off the Wednesday round …, it's just …" (the
  clause after the comma names no item gone), "no longer taking Plum Porter" (an item named by
  its last words), "… on the weekend on-call rota" for a "pool"; a clause of the one gone is
  no part of the list ("he's stepped back …"); a firm's name with "&" is no list.
- Days: "moved again, now 15 Oct", "put back again, now Thu 15 Oct, 10am" (the time with it;
  "still 11am" no longer still), "Ramblers gig pushed back a week to Friday 2 October" for
  "Booked the Wrekin Ramblers for Friday 25 September", "Quiz is moving to Thursdays" for "every
  Tuesday".
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import currency, lists, update_model, vital
from agent_sleep.retrieval.context import memory_section
from tests.currency_support import rewritten


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        ("Tub room A is the large-dog room with the walk-in tub.",
         "Tub room B has the raised tub and is for small dogs.", "another of its kind"),
        ("Jan Kowalski is on plot 22.",
         "Jan Kowalczyk has plot 52 (not to be mixed up with Jan Kowalski).", "told apart"),
        ("Margaret Hale has a perm every 12 weeks.",
         "Margaret Hollis (not Margaret Hale) has a weekly roller set, Tuesdays at 9.",
         "told apart"),
        ("Harbour Dental Group is on contract HD-2211 (6 practices).",
         "Harbour Dental P1 tickets get a 4-hour response under their contract.",
         "a code lost"),
    ],
)  # fmt: skip
def test_look_alikes_likeness_alone_keeps(old, new, why):
    assert update_model.alike_apart(new, old) == why


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # one thing's new code of the same shape, a correction ("not Mondays"), one room's price
        ("Trade account at Sally Beauty Pro is SP-40917.",
         "Trade account at Sally Beauty Pro is SP-40971."),
        ("Tom Birch takes Mondays off.", "Tom takes Tuesdays off (not Mondays)."),
        ("Room 2 hire is £25 an hour.", "Room 2 hire is now £30 an hour."),
    ],
)  # fmt: skip
def test_look_alike_guards_leave_a_change_alone(old, new):
    assert update_model.alike_apart(new, old) == ""


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (("W", "Tub room A is the large-dog room with the walk-in tub."),
         ("W", "Tub room B has the raised tub and is for small dogs.")),
        (("W", "Jan Kowalski is on plot 22."),
         ("W", "Jan Kowalczyk has plot 52 (not to be mixed up with Jan Kowalski).")),
    ],
)  # fmt: skip
def test_look_alikes_stay(old, new):
    assert rewritten(old, new) is None


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Set build crew: Gareth, Moira, Steve and Lou.",
         "Steve is off the set build crew - his back's playing up.",
         "Set build crew: Gareth, Moira and Lou."),
        ("Wednesday is Hove, Portslade and Shoreham.",
         "Portslade's off the Wednesday round from today, it's just Hove and Shoreham now.",
         "Wednesday is Hove and Shoreham."),
        ("Cask lines at the moment: Hobsons Best, Wye Valley HPA and Titanic Plum Porter.",
         "We're no longer taking Plum Porter - it wasn't moving.",
         "Cask lines at the moment: Hobsons Best and Wye Valley HPA."),
        ("Weekend on-call pool: Priya Nair, Dele Adeyemi and Sam Ortiz, rotating weekly.",
         "Dele is no longer on the weekend on-call rota.",
         "Weekend on-call pool: Priya Nair and Sam Ortiz, rotating weekly."),
        ("Saturday shed rota: Bill Farrant, Lena Mork and Otis Green take turns opening the "
         "tool shed.",
         "Otis Green is no longer on the shed rota; he's stepped back for health reasons.",
         "Saturday shed rota: Bill Farrant and Lena Mork take turns opening the tool shed."),
    ],
)  # fmt: skip
def test_list_items_taken_out(old, new, expected):
    edit = lists.edited(new, old)
    assert edit is not None and edit.text == expected


def test_a_firm_named_with_an_ampersand_is_no_list():
    old = "Hair colour comes from Capital Hair & Beauty: Wella Koleston and Illumina."
    new = (
        "We no longer get colour from Capital Hair & Beauty, deliveries kept coming short; "
        "ordering Wella from Salon Services instead."
    )
    assert lists.edited(new, old) is None


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Orchard Vets renewal meeting booked for 1 Oct, 10am at their Ely site.",
         "Orchard Vets renewal meeting moved again, now 15 Oct - the new practice owner wants "
         "to be there.",
         "Orchard Vets renewal meeting booked for 15 Oct, 10am at their Ely site."),
        ("Review meeting with Gary has been put back to Fri 2 Oct, still 11am.",
         "Priya has put the review meeting back again, now Thu 15 Oct, 10am.",
         "Review meeting with Gary has been put back to Thu 15 Oct, 10am."),
        ("Booked the Wrekin Ramblers for Friday 25 September, £250 for two sets.",
         "Ramblers gig pushed back a week to Friday 2 October - their drummer is away.",
         "Booked the Wrekin Ramblers for Friday 2 October, £250 for two sets."),
        ("Quiz is every Tuesday at 8pm, £1 a head.",
         "Quiz is moving to Thursdays because the darts league wants the room.",
         "Quiz is every Thursday at 8pm, £1 a head."),
    ],
)  # fmt: skip
def test_days_moved_again(old, new, expected):
    assert currency.moved_day_put_right(new, old) == expected


def test_a_new_time_with_a_moved_day_goes_with_the_day():
    # the entry gives no time: the day is put right with the time said right after it
    old = "Review meeting with Gary booked for Fri 2 Oct."
    new = "Priya has put the review meeting back again, now Thu 15 Oct, 10am."
    assert currency.moved_day_put_right(new, old) == (
        "Review meeting with Gary booked for Thu 15 Oct, 10am."
    )
    # a time said elsewhere in the note is no time of the day moved
    new = "Priya has put the review meeting back again to Thu 15 Oct; I'm free from 10am."
    assert currency.moved_day_put_right(new, old) != (
        "Review meeting with Gary booked for Thu 15 Oct, 10am."
    )


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # the one whose work the entry gives is gone, someone else does it now
        ("Gary Mills at Harcourt Accounts does Nadia's books and tax return.",
         "Priya Shah at Harcourt Accounts is my accountant now; Gary has retired.",
         "Priya Shah at Harcourt Accounts is my accountant now; Gary has retired."),
        # a correction told as what was had wrong
        ("Trade account at Sally Beauty Pro is SP-40917.",
         "Got the Sally Beauty Pro account number wrong earlier: it's SP-40971 (last two "
         "digits were the other way round).",
         "Trade account at Sally Beauty Pro is SP-40971."),
        ("Tom Birch, our head chef, takes Mondays off.",
         "I had Tom's day off wrong - it's Tuesdays he has off.",
         "Tom Birch, our head chef, takes Tuesdays off."),
        # a name said with its possessive in both
        ("Tom Reid's French with Claire Dubois starts at 4:30pm on Tuesdays.",
         "Correction: Tom Reid's French actually starts at 5:15pm, not 4:30 - I wrote the wrong "
         "time yesterday.",
         "Tom Reid's French with Claire Dubois starts at 5:15pm on Tuesdays."),
        # put right, the entry would tell a change that never was: the note takes its place
        ("Hobsons Best going up to £4.80 a pint from today.",
         "Pint of Best is now £4.95 - passed on Hobsons' October increase.",
         "Pint of Best is now £4.95 - passed on Hobsons' October increase."),
        # a new address: what the entry says of whose it is stays
        ("Accountant is Hughes & Co, 14 Mill Street, Ludlow.",
         "Hughes & Co's new address is Unit 3, Burway Business Park, Ludlow.",
         "Accountant is Hughes & Co, Unit 3, Burway Business Park, Ludlow."),
    ],
)  # fmt: skip
def test_handovers_corrections_and_moves(old, new, expected):
    assert rewritten(("W", old), ("W", new)) == expected


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # someone gone, but not the one the entry gives the work of
        ("Gary Mills lives at 3 Oak Road.", "Priya Shah is our accountant now; Gary has retired."),
        # the one gone is the one said to take it: no handover
        ("Gary Mills does our books.", "Gary Mills is our accountant now; Gary has retired."),
        # a correction of another one's day
        ("Dev Patel, our plumber, comes Mondays.",
         "I had Tom's day off wrong - it's Tuesdays he has off."),
    ],
)  # fmt: skip
def test_handover_and_correction_guards(old, new):
    assert rewritten(("W", old), ("W", new)) is None


def test_a_new_number_lands_on_the_one_named_not_another_of_the_family():
    note = "Sunita Patel rang from a new mobile, 07700 900877 - the old one's gone."
    assert (
        currency.number_put_right(
            note, "Sunita Patel, landlord of 14 Elm Road, mobile 07700 900431."
        )
        == "Sunita Patel, landlord of 14 Elm Road, mobile 07700 900877."
    )
    assert (
        currency.number_put_right(
            note, "Anil Patel (landlord, 27 Ferry Road) mobile is 07700 900362."
        )
        is None
    )


def test_a_correction_puts_right_the_thing_it_names():
    note = (
        "Correction on 5 Mill Lane: the deposit is £1,320 (five weeks' rent). I had it wrong "
        "last week."
    )
    assert currency.correction_put_right(note, "Deposit for 5 Mill Lane is £1,380.") == (
        "Deposit for 5 Mill Lane is £1,320."
    )
    assert currency.correction_put_right(note, "5 Mill Lane rent is £1,144 pcm.") is None


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        ("Member invoices go out on the 1st of each month from Nexudus.",
         "Supplier invoices must be paid by the 15th of the month.", "another of its kind"),
        ("Staging DB is db-stg-1.", "Prod DB is db-prd-3.", "another of its kind"),
        ("Jonas de Wit is the office manager at Hendricks & Lowe and handles their invoices.",
         "Jonas de Wit wants Hendricks & Lowe invoices sent to their accounts inbox from now on.",
         "a wish, no value"),
    ],
)  # fmt: skip
def test_more_that_likeness_alone_keeps(old, new, why):
    assert update_model.alike_apart(new, old) == why


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Committee meets on the first Tuesday of each month, 7.30pm in the Chart Room.",
         "Committee has switched to meeting on the first Wednesday of the month, starting in "
         "October.",
         "Committee meets on the first Wednesday of each month, 7.30pm in the Chart Room."),
        ("Bins go out every Tuesday night.", "Bins now go out on Thursday.",
         "Bins go out every Thursday night."),
        ("Jess works Tuesdays behind the bar.", "Jess now works Fridays.",
         "Jess works Fridays behind the bar."),
    ],
)  # fmt: skip
def test_a_weekday_put_right(old, new, expected):
    assert currency.weekday_put_right(new, old) == expected


def test_a_weekday_put_right_takes_its_ordinal_with_it():
    old = (
        "Rotary Club have a standing lunch on the first Wednesday of each month, 12:30, Ashby Room."
    )
    assert currency.weekday_put_right(
        "Rotary lunch is now on the second Thursday - their chair can't do Wednesdays.", old
    ) == (
        "Rotary Club have a standing lunch on the second Thursday of each month, 12:30, Ashby Room."
    )
    assert currency.weekday_put_right("Rotary lunch is now every Thursday.", old) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Journal club meets Fridays at 3pm in the small seminar room.",
         "Journal club moved to Mondays at noon, same room."),
        ("Sprint retro is on Friday afternoons.", "Retro moved to Thursday mornings."),
    ],
)  # fmt: skip
def test_a_weekday_with_a_new_time_is_no_put_right_of_the_weekday(old, new):
    assert currency.weekday_put_right(new, old) is None


def test_a_weekday_of_two_is_no_put_right():
    assert (
        currency.weekday_put_right("Jess now works Fridays.", "Jess works Mondays and Tuesdays.")
        is None
    )


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Duke, the Hendersons' Great Dane, has to wear a muzzle for nail trims.", "rule"),
        ("Patch test has to be done at least 48 hours before any colour.", "rule"),
        ("Holding deposits are capped at one week's rent.", "rule"),
        ("Only Bill Farrant and Lena Mork are trained to use the society strimmer.", "rule"),
        ("I'm the lettings negotiator at Marlow & Finch in Westbury.", "identity"),
        ("I work for Harbour Dental Group.", "identity"),
    ],
)
def test_rules_and_whom_the_agent_works_for_are_vital(text, kind):
    assert kind in vital.kinds(text)


@pytest.mark.parametrize(
    "text",
    ["Tom has to leave early today.", "Towels are laundered in-house, two loads a day.",
     "We must have been overcharged."],
)  # fmt: skip
def test_an_errand_or_a_plain_fact_is_not_vital(text):
    assert not vital.kinds(text)


def test_a_rule_told_on_the_first_day_reaches_the_session_start():
    lines = [
        "## Facts",
        "",
        "- W: Duke has to wear a muzzle for nail trims. <!-- id=r0 date=2026-09-01 -->",
    ]
    lines += [
        f"- W: Client {k} comes every {k % 5 + 2} weeks for a bath and tidy. "
        f"<!-- id=f{k} date=2026-09-{k % 28 + 2:02d} -->"
        for k in range(60)
    ]
    shown = memory_section("\n".join(lines) + "\n", 1200)
    assert "muzzle" in shown and "not shown" in shown


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # a day moved again, "- now …"
        ("Autumn members' mixer planned for Thursday Oct 1 in the event space.",
         "Mixer moved again - now Thursday Oct 15, since the event space floor is being resealed "
         "that week.",
         "Autumn members' mixer planned for Thursday Oct 15 in the event space."),
        # a move told with its reason: the last reason goes with it
        ("Whitby trip pushed back a week to Thursday 1 October - the minibus needs a new tyre.",
         "Whitby trip moved again, now Thursday 15 October - Gina is on her D1 refresher that "
         "week.",
         "Whitby trip moved again, now Thursday 15 October - Gina is on her D1 refresher that "
         "week."),
        # a code of the provider gone is none of the one taken on
        ("We order craft materials from Paper Lantern Crafts, account PLC-4471.",
         "Switched our craft ordering to Makers Den - Paper Lantern shorted us on felt twice.",
         "Switched our craft ordering to Makers Den - Paper Lantern shorted us on felt twice."),
        # from when the entry held is no phrase it opens with
        ("From today (2026-09-14) card payments go through Zettle instead of SumUp.",
         "Switched card payments to Square this morning.",
         "Switched card payments to Square this morning."),
        # a new number labelled as new
        ("Bookings line is 0161 496 0732 - rings in the workshop and on Nadia's mobile.",
         "New bookings number: 0161 496 0881. BT moved us onto the new line this morning.",
         "Bookings line is 0161 496 0881 - rings in the workshop and on Nadia's mobile."),
        # an address that "relocates to"
        ("Tuesday mobile pantry sets up at 14 Mill Road (old bus depot yard), 3 to 5pm.",
         "The mobile pantry relocates to 220 Canal Street, the rec center parking lot.",
         "The mobile pantry relocates to 220 Canal Street, the rec center parking lot."),
        # someone stepping back, by their first name, someone else doing it from this week
        ("Tomasz Nowak is the Saturday shift lead; he opens the lot and does the headcount.",
         "Tomasz is stepping back from Saturdays after six years; Keisha Moore leads the "
         "Saturday shift from this week.",
         "Tomasz is stepping back from Saturdays after six years; Keisha Moore leads the "
         "Saturday shift from this week."),
        ("Tom Reilly covers activities at weekends, Saturday and Sunday 10 till 4.",
         "Kelly Ashworth now covers weekend activities; Tom has moved over to the kitchen team.",
         "Kelly Ashworth now covers weekend activities; Tom has moved over to the kitchen team."),
        # a day put right keeps the entry's sentence whole
        ("Bosch eBike diagnostics training is booked for 8 October at their Leeds centre.",
         "Bosch have pushed the training again, it's now 15 October.",
         "Bosch eBike diagnostics training is booked for 15 October at their Leeds centre."),
    ],
)  # fmt: skip
def test_more_changes_read(old, new, expected):
    assert rewritten(("W", old), ("W", new)) == expected


def test_no_value_of_another_kind_and_no_list_of_a_firm():
    # an email where the entry gave none is no new town: nothing replaced
    assert (
        rewritten(
            (
                "W",
                "Kestrel Wheels (rims, hubs, spokes) are in Bolton and only take orders by email.",
            ),
            ("W", "Kestrel Wheels order email is orders@kestrelwheels.co.uk."),
        )
        is None
    )
    # a firm named with "&" takes no item on: the switch replaces the entry whole
    assert (
        rewritten(
            ("W", "The bar's beer comes from Hall & Woodhouse, delivered Tuesday mornings."),
            ("W", "Bar switched to Otter Brewery for its beer this week."),
        )
        == "Bar switched to Otter Brewery for its beer this week."
    )


def test_an_ampersand_firm_is_no_list():
    assert (
        lists.edited(
            "Bar switched to Otter Brewery for its beer this week.",
            "The bar's beer comes from Hall & Woodhouse, delivered Tuesday mornings.",
        )
        is None
    )
    assert update_model.alike_apart(
        "Kestrel Wheels order email is orders@kestrelwheels.co.uk.",
        "Kestrel Wheels (rims, hubs, spokes) are in Bolton and only take orders by email.",
    ) == ("a contact where there was none")


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Members can book four meeting rooms: Orchid, Fern, Maple and Birch.",
         "Birch isn't bookable anymore; Vermeer is turning it into a podcast studio.",
         "Members can book three meeting rooms: Orchid, Fern and Maple. Vermeer is turning Birch "
         "into a podcast studio."),
        ("Our three chemistry students: Ella, Ravi and Noor.",
         "Jonah Mensah joins the chemistry group.",
         "Our four chemistry students: Ella, Ravi, Noor and Jonah Mensah."),
        ("Inter-home quiz team for Larchfield House: Arthur Bell, Edna Price, Harold Finch and "
         "Joan Webb.",
         "Harold can't do the inter-home quiz after all, so Mavis Green is taking his place on "
         "the team.",
         "Inter-home quiz team for Larchfield House: Arthur Bell, Edna Price, Mavis Green and Joan "
         "Webb."),
    ],
)  # fmt: skip
def test_lists_counted_and_places_taken(old, new, expected):
    edit = lists.edited(new, old)
    assert edit is not None and edit.text == expected


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # two firms or two streets of one last word are no family ("… Dental Lab", "… Road")
        ("Crowns and bridges go to Castlegate Dental Lab.",
         "We've switched our crown work to Brightwater Dental Lab; new cases go there from "
         "today."),
        ("Greggs on Station Road gives us their unsold bread every Tuesday evening.",
         "Switched bread collections from Greggs to the Baker's Oven on Kings Road - more "
         "loaves, and it's on the van's route."),
    ],
)  # fmt: skip
def test_no_family_of_firms_or_streets(old, new):
    assert not currency.another_of_the_name(new, old)
    # the old one goes: the note takes its place, or its name is put right in place (what is
    # sent to it, "Crowns and bridges go to …", stays)
    assert rewritten(("W", old), ("W", new)) in (
        new,
        "Crowns and bridges go to Brightwater Dental Lab.",
    )


def test_a_day_moved_keeps_its_code_and_range():
    # a job's code stays where its day is put right
    old = "Job R-2291 is Mr Hollis's Brompton, rear hub rebuild, promised back Mon 14 Sep."
    new = "Hollis Brompton pushed back again, now Wed 16 Sep - the hub came with the wrong spacing."
    assert rewritten(("W", old), ("W", new)) == (
        "Job R-2291 is Mr Hollis's Brompton, rear hub rebuild, promised back Wed 16 Sep."
    )
    # the end of a range is no day of its own
    assert (
        currency.moved_day_put_right(
            "The retreat has moved again, now 6-8 November: Brackenfell need the weekend.",
            "Brackenfell Hall double-booked us, so the retreat is pushed back to 23-25 October.",
        )
        is None
    )
    # a time for a time: the account stays
    assert (
        rewritten(
            ("W", "Brookside Dairy cut-off is 3pm for next-day delivery, account BD-20931."),
            ("W", "Brookside Dairy order cut-off is 1pm now."),
        )
        == "Brookside Dairy cut-off is 1pm for next-day delivery, account BD-20931."
    )
