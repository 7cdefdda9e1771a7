"""A note about another attribute of the same person or thing retires no true fact.

Two exploratory tests, untuned: five weeks of a health assistant's notes about one person, and
of a wedding planner's notes about one couple. A diet change retired "takes vitamin D 1000 IU
daily" (both read as a schedule: "takes", "started"); a new 10K best retired the 5K best ("a
new personal best" read as a new one of any best); a gym session logged as what happened
retired the gym days, and the gym days' change then retired the blood-pressure dose (they shared
"day"); an opinion retired the running plan; one gym session "replaced" another; "Emailed guests
the hotel booking code again" retired the florist's email; "the second shooter will be Kai
Mendes" retired the photographer's phone and email; the rehearsal dinner's menu retired its
date, time and size; "Ana loves the idea" retired "Ana loves the lavender linens". The updates
of the same notes are still read.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import vital
from agent_sleep.core import notes
from tests.currency_support import replaces

START = dt.datetime(2026, 10, 12, 9, 0)


def _replaces(old: tuple[str, str], new: tuple[str, str]) -> bool:
    return replaces(
        old, new, frozenset({"Maya", "Ana", "Ben", "Jorge", "Sara", "Riverside", "Inn"})
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (("W", "Maya takes vitamin D 1000 IU daily."),
         ("W", "Maya has started eating fish again — she's pescatarian now, mainly for protein.")),
        (("W", "Maya's 5K personal best is 24:10, set at the Parkrun in June."),
         ("B", "Maya raced the Harbour 10K today and finished in 51:15 — a new personal best!")),
        (("W", "Maya's gym days are Tuesday and Thursday (strength work at FitHub)."),
         ("B", "Gym session: squats and deadlifts, Maya felt strong.")),
        (("W", "Maya takes losartan 25 mg once a day in the morning for high blood pressure."),
         ("W", "From now on Maya's gym days are Monday and Wednesday — the Tuesday class clashes "
               "with a work meeting.")),
        (("W", "Maya's running plan right now is about 25 km per week, with the long run on "
               "Sundays."),
         ("O", "Maya prefers running in the early morning rather than after work.")),
        (("B", "Gym Monday: light lower body after the race."),
         ("B", "Gym Wednesday: full body circuit.")),
        (("W", "Ben's parents are Linda and Tom Carter in Portland, Oregon; phone 503-555-0198."),
         ("B", "Ben's parents contributed $5,000 toward the budget.")),
        (("W", "Photographer: Lumen Studio, contact Priya Shah, phone 555-0147, "
               "priya@lumenstudio.com."),
         ("W", "Photographer's second shooter will be Kai Mendes.")),
        (("W", "Florist contact email: dana@petalandstem.com."),
         ("B", "Emailed guests the hotel booking code ANABEN27 again after a few people lost it.")),
        (("W", "Guest count is 130 after Ana and Ben trimmed the plus-ones."),
         ("B", "Emailed Sara at Olive & Thyme the updated guest count.")),
        (("W", "Rehearsal dinner will be at Osteria Lupa on Friday June 11, 2027 at 7 PM, about "
               "40 people."),
         ("W", "Rehearsal dinner menu at Osteria Lupa: family-style pasta and a tiramisu.")),
        (("O", "Ana loves the lavender linens she saw at the Petal & Stem showroom."),
         ("O", "Jorge wants to give a toast in Spanish; Ana loves the idea.")),
        # a family assistant's notes: someone dropped off somewhere is no change, and a vital
        # fact gives way to no generic change
        (("W", "Zara has a severe peanut allergy — EpiPen goes in her backpack every day."),
         ("B", "Dropped Zara at ballet after school.")),
        (("W", "Zara's ballet class is Mondays at 4pm at Pointe Dance Studio; her teacher is "
               "Miss Clara."),
         ("B", "Dropped Zara at ballet; Miss Renata has them working on a new routine.")),
        (("W", "Dr. Greene changed Tobi's rescue inhaler to ProAir HFA."),
         ("B", "Picked up the new inhaler from Walgreens.")),  # no inhaler named beside "new"
        (("W", "Tobi has swim lessons on Tuesdays at 4:30pm at the Eastside YMCA."),
         ("B", "Took Tobi to his swim lesson; he passed the level 3 test.")),
        (("S", "TODO: buy Tobi a new pair of swim goggles."),
         ("W", "The YMCA moved Tobi's swim lessons to Thursdays at 4:30pm starting next week.")),
        # a freelancer's notes: an invoice's amount is no new payment term, a record of one
        # delivery no new requirement
        (("W", "Acme Outdoor payment terms are net 30."),
         ("W", "INV-2041 to Acme Outdoor for £2,400 sent today (status: sent, awaiting "
               "payment).")),
        (("W", "Acme wants all deliverables exported as PDF plus PNG at 2x."),
         ("B", "Wrapped up the Acme homepage; final files exported as PDF + PNG.")),
        # a research assistant's notes: a percentage is no new count, nor a new setting
        (("W", "LowResQA test split has 6,000 examples."),
         ("W", "The mBERT baseline gets 64.3% accuracy on LowResQA test.")),
        (("W", "Training config for the adapter model: learning rate 3e-5, batch size 32."),
         ("W", "The adapter model now hits 73.5% accuracy on LowResQA test.")),
    ],
)  # fmt: skip
def test_another_attribute_replaces_nothing(old: tuple[str, str], new: tuple[str, str]) -> None:
    assert not _replaces(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (("W", "Maya's 10K personal best is 52:40."),
         ("B", "Maya raced the Harbour 10K today and finished in 51:15 — a new personal best!")),
        (("W", "Maya's gym days are Tuesday and Thursday (strength work at FitHub)."),
         ("W", "From now on Maya's gym days are Monday and Wednesday — the Tuesday class clashes "
               "with a work meeting.")),
        (("W", "Maya's running plan right now is about 25 km per week, with the long run on "
               "Sundays."),
         ("W", "Maya is running about 32 km a week now as the half-marathon block builds.")),
        (("W", "Total wedding budget is $35,000, set by Ana and Ben together."),
         ("W", "Ana and Ben bumped the total budget up to $42,000 after Hartwell and the new "
               "caterer.")),
        (("W", "Hotel block at the Riverside Inn: 20 rooms at $169/night."),
         ("W", "Riverside Inn agreed to $149/night for the block since it's a weekend in June.")),
        (("W", "Maya is vegetarian — no meat or fish."),
         ("W", "Maya has started eating fish again — she's pescatarian now.")),
        (("W", "Our babysitter is Maya Patel; she charges $16 an hour and usually does Friday "
               "nights."),
         ("W", "Hannah Brooks is our new babysitter; she charges $18 an hour.")),
        (("W", "Pinned numpy to 1.24.4 because the legacy scipy wheels break on anything newer."),
         ("W", "Pinned numpy to 1.26.4 for the scipy 1.13 wheels.")),
    ],
)  # fmt: skip
def test_the_same_notes_updates_are_still_read(old: tuple[str, str], new: tuple[str, str]) -> None:
    assert _replaces(old, new)


def test_a_new_one_needs_its_name_beside_it() -> None:
    from agent_sleep.analysis import currency

    old = "Our caterer is Olive & Thyme Catering now; Harvest Table is out."
    new = "Ana and Ben bumped the total budget up to $42,000 after Hartwell and the new caterer."
    assert currency._new_one(new, old) is None  # "Hartwell and the new caterer": no caterer named
    teacher = "Sofia's piano teacher is Mr. Okonkwo."
    for said in (
        "Sofia had her first lesson with Ms. Brandt, her new piano teacher.",
        "Sofia's new piano teacher, Ross Hale, is great.",
        "Sofia's new piano teacher is Ms. Brandt.",
    ):
        verdict = currency._new_one(said, teacher)
        assert verdict is not None and verdict.why == "a new one", said


def test_a_pescatarian_diet_is_vital() -> None:
    assert "diet" in vital.kinds("She's pescatarian now.")
    assert "diet" in vital.kinds("Keeps a dairy-free diet.")


def test_in_a_workspace_the_dose_and_the_gym_days_each_keep_their_own(ws: Path) -> None:
    days = [
        [("W", "Maya takes losartan 25 mg once a day in the morning for high blood pressure.")],
        [("W", "Maya's gym days are Tuesday and Thursday (strength work at FitHub).")],
        [("B", "Gym session: squats and deadlifts, Maya felt strong.")],
        [("W", "From now on Maya's gym days are Monday and Wednesday — the Tuesday class clashes "
               "with a work meeting.")],
    ]  # fmt: skip
    for d, day in enumerate(days):
        when = START + dt.timedelta(days=d)
        for kind, text in day:
            micro_rest(text, kind, workspace=ws, when=when)
        sleep_cycle(ws, provider="offline", now=when.replace(hour=22))
    current = [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text())]
    assert days[0][0][1] in current
    # the days put right in place: where the strength work is done stays
    assert "Maya's gym days are Monday and Wednesday (strength work at FitHub)." in current
    assert days[1][0][1] not in current


def test_a_value_put_right_in_place_only_when_the_note_changes_no_other() -> None:
    from agent_sleep.analysis import currency

    old = "Internet is Xfinity, account in Chidi's name, $79/month."
    new = "We switched the internet from Xfinity to Sonic fiber; Sonic is $65/month."
    assert currency.in_place(new, old) is None  # had kept $79/month beside Sonic
    assert (
        currency.in_place(
            "Correction: Postgres is on 5435, not 5434.",
            "payments-gateway runs locally on port 8443 and its Postgres on 5434.",
        )
        == "payments-gateway runs locally on port 8443 and its Postgres on 5435."
    )


def test_a_list_with_asides_is_still_a_list() -> None:
    from agent_sleep.analysis import lists

    text = (
        "Priya's current clients: Acme Outdoor (website redesign), Lumen Studio (brand "
        "guidelines) and Fernway Coffee (packaging)."
    )
    assert lists._joined_items(text) == ["Acme Outdoor", "Lumen Studio", "Fernway Coffee"]


def test_the_learned_reading_retires_no_allergy_for_a_note_that_adds_nothing_to_it() -> None:
    """ "Vueling lets us bring Isla's EpiPens in the cabin" retired "Isla is allergic to tree
    nuts … She carries two EpiPens" (a travel planner's notes; the learned last word read an
    update, and both notes are of health). A note saying something new of it still does."""
    allergy = (
        "W",
        "Isla is allergic to tree nuts (almonds, walnuts, cashews). Peanuts are fine for her. "
        "She carries two EpiPens.",
    )
    flight = (
        "W",
        "Vueling lets us bring Isla's EpiPens in the cabin; no nuts are sold on board per their "
        "allergy page, but they can't guarantee it.",
    )
    assert not _replaces(allergy, flight)
    assert _replaces(("W", "Olusegun is vegetarian."), ("B", "Olusegun went fully vegan in March."))


def test_what_a_note_says_of_another_persons_diet_retires_no_diet() -> None:
    """ "Booked a kids' cooking class …; confirmed a nut-free menu for Isla and fish instead of
    chicken for Noah" retired "Noah eats fish now — he's pescatarian since Easter" (a trip's
    notes, replayed): the learned reading took the note's diet words for news of Noah's, but
    they are said of Isla."""
    old = ("W", "Noah eats fish now — he's pescatarian since Easter. Still no meat.")
    new = (
        "B",
        "Booked a kids' cooking class in Granada on July 15 at 17:00; confirmed a nut-free menu "
        "for Isla and fish instead of chicken for Noah.",
    )
    assert not _replaces(old, new)
    # said of him, it still does ("in May" is a month, not "may")
    assert _replaces(("W", "Noah is vegetarian."), ("B", "Noah went fully vegan in May."))
