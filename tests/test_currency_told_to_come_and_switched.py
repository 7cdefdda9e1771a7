"""Four replayed scenarios (a B&B, a parish office, a bike shop, a tutoring agency): changes
told in the words of one to come, providers switched, prices gone up, and events that retired
facts they only mention.

- A change told as one to come but in force already is read as done: "Sunday Parish Communion
  moves to 10:15am" (a timetable's present), "Choir will practise on Fridays … instead of
  Thursdays, from this week", "Harvest supper tickets will be £9.25 now". From a day still to
  come ("from 20 September", a day of a month said without its year) it is a plan, applied on
  that day.
- "Sea Room goes up to £110 a night from today": money gone up is a price, put right in place.
- "We've switched our laundry to Crisp Linen Co" takes the place of "Brightwash Laundry picks up
  sheets and towels on Tuesdays …" (a name ending in the thing switched).
- "Correction: breakfast starts at 7:30, not 8:00 as I noted on Monday": an aside after the
  value corrected.
- Guards: "Gary Pike serviced the boiler and replaced the pressure relief valve" keeps his
  number (what was replaced is not named in the entry), "Texted the Patels the new key safe
  code" keeps the code (who was told is no new one), "The user moved to Paris" keeps "User
  prefers tabs over spaces" (a word that opens an entry is no name of what moved).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import plans
from agent_sleep.core import notes
from tests.currency_support import replaced, rewritten


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Sunday Parish Communion is at 9:45am.",
         "Sunday Parish Communion moves to 10:15am.",
         "Sunday Parish Communion is at 10:15am."),
        ("Harvest supper tickets are £8.50 a head.",
         "Harvest supper tickets will be £9.25 now, as the caterer has added a dessert.",
         "Harvest supper tickets are £9.25 a head."),
        ("Sea Room is £95 a night, breakfast included.",
         "Sea Room goes up to £110 a night from today (2026-11-10), new season pricing.",
         "Sea Room is £110 a night, breakfast included."),
        ("Brightwash Laundry picks up sheets and towels on Tuesdays and brings them back "
         "Thursday.",
         "We've switched our laundry to Crisp Linen Co from this week (week of 2026-11-09).",
         "We've switched our laundry to Crisp Linen Co from this week (week of 2026-11-09)."),
        ("Choir practice: Thursdays 7.30pm in the choir vestry.",
         "Choir will practise on Fridays at 7.15pm instead of Thursdays, from this week (week "
         "of 2026-11-09), as Judith can't do Thursdays.",
         "Choir will practise on Fridays at 7.15pm instead of Thursdays, from this week (week "
         "of 2026-11-09), as Judith can't do Thursdays."),
        ("Breakfast is served 8:00 to 9:30.",
         "Correction: breakfast starts at 7:30, not 8:00 as I noted on Monday. Still finishes "
         "at 9:30.",
         "Correction: breakfast starts at 7:30, not 8:00 as I noted on Monday. Still finishes "
         "at 9:30."),
        ("E-bike hire is £35 a day, helmet and lock included.",
         "From today (2026-11-10) e-bike hire is £40 a day.",
         "E-bike hire is £40 a day, helmet and lock included."),
        ("Landlord is Calder Estates, and our contact there is Gareth Pryce.",
         "Sinead Flood has taken over our account at Calder Estates; Gareth has gone to their "
         "Leeds office.",
         "Landlord is Calder Estates, and our contact there is Sinead Flood."),
        ("Job R-2291 is Mr Hollis's Brompton, rear hub rebuild, promised back Thu 10 Sep.",
         "R-2291 pushed back to Mon 14 Sep - the replacement hub shell isn't in until Friday "
         "(2026-09-11). Rang Mr Hollis.",
         "Job R-2291 is Mr Hollis's Brompton, rear hub rebuild, promised back Mon 14 Sep."),
        ("Wednesday Year 12 chemistry group with Priya: Ella, Ravi and Noor.",
         "Jonah Mensah joins the Wednesday Year 12 chemistry group from this week (week of "
         "2026-11-09).",
         "Wednesday Year 12 chemistry group with Priya: Ella, Ravi, Noor and Jonah Mensah."),
        ("Autumn flower rota is Mrs Dunn, Mrs Achebe and Mr Varley, a week each in turn.",
         "Mr Varley is stepping down from the flower rota and Rosa Kemp is taking his weeks "
         "from October.",
         "Autumn flower rota is Mrs Dunn, Mrs Achebe and Rosa Kemp, a week each in turn."),
        ("Gardner & Sons funeral directors: 14 Mill Lane, office 01632 960441.",
         "Gardner & Sons have moved; they're now at Unit 3, Foundry Yard, same phone number.",
         "Gardner & Sons funeral directors: Unit 3, Foundry Yard, office 01632 960441."),
        ("Out of hours, patients with a dental emergency should ring 0161 496 0732.",
         "Correction: the out-of-hours emergency number is 0161 496 0417 - the one I noted on "
         "the 10th was wrong.",
         "Out of hours, patients with a dental emergency should ring 0161 496 0417."),
        ("Our dentures are made by Harrow & Finch, 14 Mill Lane, Stockport.",
         "Harrow & Finch have moved to Unit 7, Canal Street, Stockport SK1 3QT.",
         "Harrow & Finch have moved to Unit 7, Canal Street, Stockport SK1 3QT."),
        ("Caterer is Saffron & Sage: lunch buffet plus two coffee breaks each day.",
         "Switched caterers: Bluebell Kitchens will do all meals.",
         "Switched caterers: Bluebell Kitchens will do all meals."),
        ("Reserves are coached by Lee Fairbrother",
         "Ian Campbell is taking the reserves for now; Lee has stepped down for work reasons",
         "Reserves are coached by Ian Campbell"),
        ("From 1 October the unlimited membership goes up to £95 a month.",
         "Correction: the new unlimited price is £94, not £95 - I typed it wrong last week.",
         "From 1 October the unlimited membership goes up to £94 a month."),
        ("Bogdan Nowak is the cleaner, Mondays and Thursdays.",
         "Ewa Lis is the cleaner now.",
         "Ewa Lis is the cleaner now."),
        ("Daniel Reeve does our accounts.",
         "Helen Marsh does our accounts now.",
         "Helen Marsh does our accounts now."),
        ("OOD rota: Colin Barrett is officer of the day for the Autumn Pursuit on Sunday 27 "
         "September.",
         "Correction, I had the wrong name down: the officer of the day on 27 September is Jill "
         "Sayer, not Colin Barrett.",
         "Correction, I had the wrong name down: the officer of the day on 27 September is Jill "
         "Sayer, not Colin Barrett."),
        ("U12 training is on Thursdays instead of Tuesdays from this week (week of 2026-11-09), "
         "same times, still St Aidan's",
         "Correction: U12 training is Wednesdays, not Thursdays. Phil texted; I got it wrong on "
         "Monday (2026-11-09)",
         "Correction: U12 training is Wednesdays, not Thursdays. Phil texted; I got it wrong on "
         "Monday (2026-11-09)"),
    ],
)  # fmt: skip
def test_a_change_is_read(old: str, new: str, expected: str) -> None:
    assert rewritten(("W", old), ("W", new)) == expected


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # what was replaced is no word of the entry: a service visit, not a new engineer
        (("W", "Gary Pike is our boiler engineer, mobile 07700 900123."),
         ("B", "Gary Pike serviced the boiler and replaced the pressure relief valve, £145.")),
        # who was told it is no new one
        (("W", "Changed the key safe code to 2093 after the Okoro stay."),
         ("B", "Texted the Patels the new key safe code.")),
        # "User" opens the entry, a word, no name of a thing moved
        (("O", "User prefers tabs over spaces."),
         ("W", "The user moved to Paris last week and now works at Airbus.")),
        # a change from a day to come is a plan until then
        (("W", "Sunday Parish Communion is at 9:45am."),
         ("W", "Sunday Parish Communion moves to 10:15am from 20 November.")),
        # what will be, with no word of now
        (("W", "Harvest supper tickets are £8.50 a head."),
         ("W", "Harvest supper tickets will be £9.25 next year.")),
        # another attribute of the one person, no value read
        (("W", "Ella Brooks is Year 12 and does chemistry with Priya."),
         ("W", "Ella Brooks' target grade in chemistry is an A.")),
        # renewed every three years is a rule, no change
        (("W", "Hannah Cole tutors A-level English; Noor's personal statement goes through her."),
         ("W", "All tutors need an enhanced DBS check, renewed every three years.")),
        # an ID for an entry with no figure, read only as alike
        (("W", "Online lessons use Miro boards; each student has their own board link."),
         ("W", "Zoom meeting ID for online lessons: 884 2210 5567 (same link every week).")),
        # someone else taking something, with no one of the entry gone
        (("W", "Tom drives the school run on Mondays."),
         ("W", "Ann is taking the kids to swimming; Tom has gone to the gym.")),
        # a full name corrected is one person's, but of another thing here
        (("W", "Colin Barrett is the electrician."),
         ("W", "Tom Hale is the plumber, not Colin Barrett.")),
        # a cover for one day, or one more: no new holder
        (("W", "Bogdan Nowak is the cleaner, Mondays and Thursdays."),
         ("W", "Ewa Lis is the cleaner today.")),
        (("W", "Bogdan Nowak is the cleaner, Mondays and Thursdays."),
         ("W", "Ewa Lis is the cleaner too.")),
        # a time for an entry that gives no figure, read only as alike
        (("W", "Clients can send completion money by bank transfer or banker's draft."),
         ("W", "Completion money has to be in client account by 12 noon the day before "
               "completion.")),
        # an event of a count, said alike only, puts out no entry of many values
        (("W", "Harvest supper is Saturday 10 October in the Main Hall, tickets £7.50."),
         ("B", "61 harvest supper tickets sold now.")),
    ],
)  # fmt: skip
def test_nothing_is_replaced(old: tuple[str, str], new: tuple[str, str]) -> None:
    entry = {"id": "m1", "type": old[0], "text": old[1], "date": "2026-11-01"}
    assert replaced(new, [entry]) == []


@pytest.mark.parametrize(
    ("text", "written", "expected"),
    [
        ("Communion moves to 10:15am from 20 September.", "2026-09-14", "2026-09-20"),
        ("Rent goes up starting Sunday 4 October.", "2026-09-14", "2026-10-04"),
        ("Gym membership changes as of January 5th.", "2026-12-20", "2027-01-05"),
        ("Standup moves to 10:15 starting next Monday (2026-11-16).", "2026-11-12", "2026-11-16"),
        ("Open from 20 September to 4 October.", "2026-09-14", None),  # a span, no start
        ("Communion moves to 10:15am.", "2026-09-14", None),
    ],
)
def test_the_day_a_change_starts(text: str, written: str, expected: str | None) -> None:
    day = plans.start(text, dt.date.fromisoformat(written))
    assert (day.isoformat() if day else None) == expected


def test_read_now_keeps_plans_and_what_is_to_come() -> None:
    plan = "Sunday Parish Communion moves to 10:15am from 20 September."
    assert plans.read_now(plan, "2026-09-14") == plan
    assert plans.read_now(plan, "2026-09-21") == "Sunday Parish Communion moved to 10:15am."
    ahead = "We will move the meeting next week."
    assert plans.read_now(ahead, "2026-09-14") == ahead
    asked = "Will the tickets be £9.25 now?"
    assert plans.read_now(asked, "2026-09-14") == asked
    for later in (  # a day still to come, however it is said
        "Next week (week of 2026-09-21) the standup moves to 10:15.",
        "Standup moves to 10:15 on Monday (2026-09-21).",
        "Standup moves to 10:15 tomorrow (2026-09-15).",
    ):
        assert plans.read_now(later, "2026-09-14") == later
    assert plans.read_now("The May fair moves to the green.", "2026-09-14") == (
        "The May fair moved to the green."  # "May" is a month, no "may"
    )


def _memory(ws: Path) -> list[str]:
    return [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text())]


def test_a_plan_from_a_day_of_a_month_comes_due(tmp_path: Path) -> None:
    ws = tmp_path / "ws"

    def at(day: int, hour: int) -> dt.datetime:
        return dt.datetime(2026, 9, day, hour)

    micro_rest("Sunday Parish Communion is at 9:45am.", "W", workspace=ws, when=at(7, 9))
    sleep_cycle(ws, provider="offline", now=at(7, 22))
    plan = "Sunday Parish Communion moves to 10:15am from 20 September."
    micro_rest(plan, "W", workspace=ws, when=at(14, 9))
    sleep_cycle(ws, provider="offline", now=at(14, 22))
    assert sorted(_memory(ws)) == sorted(["Sunday Parish Communion is at 9:45am.", plan])
    micro_rest("Bought candles for the altar.", "B", workspace=ws, when=at(21, 9))
    r = sleep_cycle(ws, provider="offline", now=at(21, 22))
    assert r.decisions.get("memory_due") == 1, r
    assert [t for t in _memory(ws) if "Communion" in t] == [plan]


def test_what_someone_is_and_does_is_no_list() -> None:
    from agent_sleep.analysis import lists

    entry = "Martin Hale is our organist and plays for both Sunday services and most weddings."
    note = "Martin Hale has retired as organist after 22 years; collecting for a card and gift."
    assert lists.edited(note, entry) is None  # not "Martin Hale is our plays for both …"
    listed = lists.edited("We no longer run builds in CI", "We run lint, tests and builds in CI")
    assert listed is not None and listed.text == "We run lint and tests in CI"


def test_a_weekday_in_a_name_gets_no_date_and_a_plan_with_will_comes_due() -> None:
    from agent_sleep.analysis import temporal

    note = "Sunday Social will meet at Mytholm Bridge instead from this weekend."
    resolved = temporal.resolve(note, dt.date(2026, 9, 9))
    assert resolved.startswith("Sunday Social will meet")
    assert plans.as_done(resolved) == resolved.replace("will meet", "meets")


def test_an_aside_on_the_item_gone_is_not_kept_with_the_list() -> None:
    from agent_sleep.analysis import lists

    edit = lists.edited(
        "We're no longer on Expedia - took all the rooms off today, the fees weren't worth it.",
        "We're listed on Booking.com, Airbnb and Expedia.",
    )
    assert edit is not None and edit.text == "We're listed on Booking.com and Airbnb."


def test_a_price_to_go_up_from_a_day_comes_due(tmp_path: Path) -> None:
    ws = tmp_path / "ws"

    def at(month: int, day: int, hour: int) -> dt.datetime:
        return dt.datetime(2026, month, day, hour)

    micro_rest("Unlimited monthly membership is £89.", "W", workspace=ws, when=at(9, 7, 9))
    sleep_cycle(ws, provider="offline", now=at(9, 7, 22))
    plan = "From 1 October the unlimited membership goes up to £95 a month."
    assert plans.as_done(plan) == "From 1 October the unlimited membership went up to £95 a month."
    micro_rest(plan, "W", workspace=ws, when=at(9, 14, 9))
    sleep_cycle(ws, provider="offline", now=at(9, 14, 22))
    assert len([t for t in _memory(ws) if "membership" in t]) == 2  # £89 holds until October
    micro_rest("Bought six new mats.", "B", workspace=ws, when=at(10, 2, 9))
    r = sleep_cycle(ws, provider="offline", now=at(10, 2, 22))
    assert r.decisions.get("memory_due") == 1, r
    assert [t for t in _memory(ws) if "membership" in t] == [plan]


def test_a_note_read_as_done_is_kept_as_written() -> None:
    entry = "Supply cover is booked through Tempest Education; ring their bookings line before 7am."
    note = ("From now on we use Prospero Teaching for supply cover, not Tempest - Mrs Ashworth's "
            "decision after this morning (2026-11-10).")  # fmt: skip
    assert plans.read_now(note, "2026-11-10").startswith("We use Prospero Teaching")
    assert rewritten(("W", entry), ("W", note)) == note
    read = "Choir practises on Fridays; the vestry is free."
    said = "Choir will practise on Fridays; the vestry is free."
    assert plans.as_said("Old part. Choir practises on Fridays", read, said) == (
        "Old part. Choir will practise on Fridays"
    )


@pytest.mark.parametrize(
    ("new", "expected"),
    [
        ("Zoom meeting ID for online lessons: 884 2210 5567.", True),
        ("Completion money has to be in client account by 12 noon the day before.", True),
        # a code's digits show a shape, a date sleep wrote says when: no figure of its own
        ("Per Sam, tags should start with the author's initials, e.g. sk-1234.", False),
        ("Postmark is handling our email since last week (week of 2026-11-02).", False),
    ],
)
def test_a_figure_for_an_entry_that_gives_none(new: str, expected: bool) -> None:
    from agent_sleep.analysis import update_model

    old = "Online lessons and our email use tools with no numbers in their names."
    assert update_model.number_for_none(new, old) is expected
