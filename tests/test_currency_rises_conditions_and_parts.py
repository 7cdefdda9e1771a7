"""Replayed scenarios (a plumbing and heating firm, a wedding planner, a taproom): what a
reading of likeness alone, a rise in price and a correction may not retire.

- A price gone up to an amount is no price that was higher ("Call-out charge is going up to
  £85" puts right the £75 call-out, not the £130 out-of-hours one).
- A correction labelled with whom it is of ("Correction on Ashdown: the contract renews on 30
  November") puts right the entry of what it says, not another that names Ashdown.
- To a reading of likeness alone: what holds on a condition or is only expected replaces
  nothing ("If it rains, the Palm House is the backup", "The Loft floor should be finished by
  12 October"); a note with no day and no figure keeps an entry's day ("The Okonkwo install
  needs a new condensate route"); the one part of an entry a note shares plain words with is
  the part replaced (the day the contract renews stays).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import currency, update_model
from agent_sleep.core import notes
from tests.currency_support import replaced, rewritten

START = dt.datetime(2026, 9, 7, 9)


def _memory(ws: Path, days: list[list[tuple[str, str]]]) -> list[str]:
    """The entries of MEMORY.md after one sleep a week, each week's notes told first."""
    for d, day in enumerate(days):
        when = START + dt.timedelta(days=7 * d)
        for k, (kind, text) in enumerate(day):
            micro_rest(text, kind, workspace=ws, when=when + dt.timedelta(minutes=k))
        sleep_cycle(ws, provider="offline", now=when.replace(hour=22))
    return [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text())]


def test_a_rise_puts_right_a_lower_price_only() -> None:
    standard = "Standard call-out fee is £75, covers the first hour."
    night = "Out-of-hours call-out (after 6pm and at weekends) is £130."
    rise = "Call-out charge is going up to £85 as of today, parts prices have gone up."
    assert currency.price_moved_put_right(rise, night) is None
    assert currency.price_moved_put_right(rise, standard) == (
        "Standard call-out fee is £85, covers the first hour."
    )
    cut = "Call-out charge is going down to £95 for the winter."
    assert currency.price_moved_put_right(cut, standard) is None
    memory = [
        {"id": "std", "type": "W", "text": standard, "date": "2026-11-01"},
        {"id": "ooh", "type": "W", "text": night, "date": "2026-11-01"},
    ]
    assert replaced(("W", rise), memory) == ["std"]


def test_a_correction_on_a_name_puts_right_the_entry_of_what_it_says() -> None:
    fix = "Correction on Ashdown: the contract renews on 30 November, I had the month wrong."
    visit = (
        "The Gas Safe inspector's on-site assessment is booked for Wednesday 14 October; "
        "they'll shadow Kev on an Ashdown job."
    )
    contract = "Ashdown contract renews on 30 October; Mark wants the renewal pack ready."
    assert currency.correction_put_right(fix, visit) is None
    assert currency.correction_put_right(fix, contract) == (
        "Ashdown contract renews on 30 November; Mark wants the renewal pack ready."
    )
    # an aside after the value says nothing of what is corrected
    assert rewritten(
        ("W", "Trade account at Sally Beauty Pro is SP-40917."),
        ("W", "Correction on Sally Beauty Pro: it's SP-40971 (the last two digits swapped)."),
    ) == ("Trade account at Sally Beauty Pro is SP-40971.")


def test_what_holds_on_a_condition_or_is_expected_replaces_nothing(tmp_path: Path) -> None:
    ceremony = (
        "The Ortiz-Bell ceremony is no longer at St Mary's; they'll marry on the Glasshouse "
        "lawn at 13:00."
    )
    memory = _memory(
        tmp_path / "a",
        [
            [("W", ceremony)],
            [
                (
                    "W",
                    "If it rains, the Palm House at the Glasshouse is the backup for the ceremony.",
                )
            ],
        ],
    )
    assert ceremony in memory
    memory = _memory(
        tmp_path / "b",
        [
            [("W", "Oktoberfest party is booked for 26 September in the Loft.")],
            [("W", "Oktoberfest pushed back to 17 October - the Loft floor won't be finished.")],
            [("W", "The Loft floor should be finished by 12 October.")],
        ],
    )
    assert "Oktoberfest party is booked for 17 October in the Loft." in memory
    assert "The Loft floor should be finished by 12 October." in memory


def test_a_note_with_no_day_keeps_the_day_and_one_part_is_replaced(tmp_path: Path) -> None:
    install = "New date for the Okonkwo install: Monday 12 October, she's fine with it."
    route = "The Okonkwo install needs a new condensate route; Dave says allow an extra two hours."
    assert update_model.day_for_none(route, install)
    assert not update_model.day_for_none("The Okonkwo install is cancelled.", install)
    assert not update_model.day_for_none("Okonkwo install moved to Tuesday.", install)
    memory = _memory(tmp_path / "a", [[("W", install)], [("W", route)]])
    assert install in memory and route in memory
    memory = _memory(
        tmp_path / "b",
        [
            [("W", "Ashdown contract renews on 30 November; Mark wants the renewal pack ready "
                   "a month before.")],
            [("W", "Ashdown want the renewal pack from us by the end of October.")],
        ],
    )  # fmt: skip
    assert (
        "Ashdown contract renews on 30 November; Ashdown want the renewal pack from us by the "
        "end of October." in memory
    )


def test_a_role_taken_over_from_someone_or_with_a_reason_after_it() -> None:
    assert rewritten(
        ("W", "Priya Raman is our shift lead - she opens Tue-Thu and signs off the till."),
        ("W", "Tomasz Wrobel is taking over as shift lead now that Priya has moved to the "
              "brewery side."),
    ) is not None  # fmt: skip
    assert rewritten(
        ("W", "Harriet Moss is the events coordinator at Ashcombe Barn."),
        ("W", "Callum Reid has taken over from Harriet Moss as events coordinator at Ashcombe "
              "Barn."),
    ) is not None  # fmt: skip
    # another role is no handover
    assert rewritten(
        ("W", "Harriet Moss is the events coordinator at Ashcombe Barn."),
        ("W", "Callum Reid has taken over from Jo Park as head chef at Ashcombe Barn."),
    ) is None  # fmt: skip


def test_what_happened_before_a_colon_then_the_change_it_brought() -> None:
    from agent_sleep.analysis import plans

    said = "Licence variation came through: last orders now 11:15pm."
    assert plans.readings(said, "2026-10-05") == [said, "Last orders now 11:15pm."]
    assert plans.readings("Correction: last orders now 11:15pm.", "2026-10-05") == [
        "Correction: last orders now 11:15pm."
    ]
    assert rewritten(("W", "Last orders are at 10:45pm every night."), ("W", said)) == (
        "Last orders are at 11:15pm every night."
    )


def test_closed_on_days_that_come_back_is_no_ending() -> None:
    branch = "Millbrook branch surgery: 14 Station Road, Millbrook. Phone 01632 960774."
    assert (
        rewritten(("W", branch), ("W", "The Millbrook branch is closed Wednesday afternoons."))
        is None
    )
    keg = "Our keg distributor is Northgate Beverage; orders go in by Thursday noon."
    assert rewritten(("W", keg), ("W", "We're closed Mondays - Monday is admin.")) is None


def test_one_who_pulled_out_is_replaced_by_one_doing_it_instead(tmp_path: Path) -> None:
    memory = _memory(
        tmp_path,
        [
            [("W", "Tap takeover booked with Verdant for 22 October.")],
            [("W", "Verdant pulled out of the tap takeover; Cloudwater will do it instead.")],
            [("W", "Cloudwater can't make 22 October either - Northern Monk are doing the tap "
                   "takeover now.")],
        ],
    )  # fmt: skip
    assert memory == [
        "Cloudwater can't make 22 October either - Northern Monk are doing the tap takeover now."
    ]
    # one who can't make it, and no one instead, is no change
    assert not update_model.pulled_out(
        "Cloudwater can't make the Tuesday call.", "Cloudwater will do the tap takeover."
    )


def test_a_fee_said_now_and_a_thing_given_back() -> None:
    band = "Velvet Hours charge £2,750 for three sets at the Ortiz-Bell wedding."
    fee = "Gus says the Velvet Hours fee is now £2,900 with a sax player added."
    assert currency.now_amount_put_right(fee, band) == (
        "Velvet Hours charge £2,900 for three sets at the Ortiz-Bell wedding."
    )
    other = "Brass Monkeys charge £2,750 for three sets at the Ortiz-Bell wedding."
    assert currency.now_amount_put_right(fee, other) is None  # another band's price
    van = "Dave Pritchard drives the white Transit, reg LS68 KWT."
    swap = "Dave now has the new Vivaro, YD22 HPF; the Transit goes back to the lease company."
    assert rewritten(("W", van), ("W", swap)) == swap
    # a log retention dropped to a figure is a new value, not a thing given back
    assert currency._ended("Dropped log retention to 14 days.", "Log retention is 30 days.") is None


def test_a_primary_schools_changes() -> None:
    """Replayed: a school business manager's notes, each change once left beside the old."""
    lease = "Copyline photocopier lease costs £412 a month."
    letter = "Letter from Copyline: the lease goes up to £436 a month under the RPI clause."
    assert currency.price_moved_put_right(letter, lease) == (
        "Copyline photocopier lease costs £436 a month."
    )
    assert rewritten(
        ("W", "Supply teachers are booked through Teachwise, day rate £185."),
        ("W", "We've switched our supply agency to Pinnacle Supply - Teachwise couldn't fill "
              "two days last week."),
    ) == "Supply teachers are booked through Pinnacle Supply, day rate £185."  # fmt: skip
    # an ending said of a day that is the entry's own: no put right that changes nothing
    zumba = "Kerry's Zumba class is no longer hiring the hall on Tuesdays - numbers dropped."
    assert rewritten(
        ("W", "Kerry runs Zumba in the main hall on Tuesday evenings, £22 a session."),
        ("W", zumba),
    ) == zumba  # fmt: skip
    assert rewritten(
        ("W", "Fresh Plates do our catering; the area manager is Dawn Ellery."),
        ("W", "Fresh Plates have a new area manager, Marcus Pryce, since Dawn left."),
    ) == (
        "Fresh Plates do our catering; Fresh Plates have a new area manager, Marcus Pryce, "
        "since Dawn left."
    )
    assert rewritten(
        ("W", "Year 6 Kingswood deposits (£75 a child) have to be in by 18 September."),
        ("W", "Kingswood deposits now due 25 September - deadline pushed back a week."),
    ) == "Year 6 Kingswood deposits (£75 a child) have to be in by 25 September."  # fmt: skip


def test_a_day_of_a_month_after_a_noun_is_a_value() -> None:
    from agent_sleep.analysis.claims import claims

    (found,) = claims("Kingswood deposits now due 25 September.")
    assert "25" in found.values
    (found,) = claims("Guests are in room 4.")
    assert "4" not in found.values  # "room 4" names the room


def test_a_town_librarys_changes() -> None:
    """Replayed: a library volunteer coordinator's notes."""
    # pence are money
    assert currency.price_moved_put_right(
        "Printing goes up to 15p a page (council fees review).",
        "Public printing costs 10p a page, black and white.",
    ) == "Public printing costs 15p a page, black and white."  # fmt: skip
    assert currency.price_moved_put_right(
        "Printing goes up to £0.15 a page.", "Public printing costs 10p a page."
    ) == "Public printing costs £0.15 a page."  # pence are pounds' too  # fmt: skip
    # the one gone "has moved to" other work, someone new in what they did
    assert rewritten(
        ("W", "Dev Malhotra from council IT looks after the computer suite PCs."),
        ("W", "Priya Nandakumar is our new IT contact for the computer suite; Dev has moved to "
              "the county archives project."),
    ) is not None  # fmt: skip
    # what happened to another, unnamed in the entry
    round_ = (
        "The home delivery round for housebound readers runs on the first and third Thursday; "
        "Colin Mays drives."
    )
    news = "Colin Mays rang: Mrs Hebden from the delivery round has moved into a care home."
    assert update_model.of_someone_unnamed(news, round_)
    assert rewritten(("W", round_), ("B", news)) is None
    assert not update_model.of_someone_unnamed(
        "Dr. Shah stopped Walter's simvastatin.", "Walter takes simvastatin 20 mg at night."
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Marion Fairweather is our accompanist this term.",
         "Marion has had to step down for health reasons. Declan Oyelaran is our new "
         "accompanist from tomorrow."),
        ("Dr Hughes is the locum doing Dr Okafor's sessions while she's off.",
         "Dr Lindqvist is our locum for Dr Okafor's sessions from today; Dr Hughes has gone to "
         "a practice in Leeds."),
        ("Karen Doyle is our ICB IT contact - smartcards and new starter logins go through her.",
         "Ben Ashworth has taken over from Karen as our ICB IT contact."),
        ("Dave Hollins drives the donations van and does the house collections.",
         "Marek Nowak is doing the donation collections now - Dave has gone back to college."),
    ],
)  # fmt: skip
def test_one_gone_and_another_doing_it(old: str, new: str) -> None:
    """A choir, a surgery, a charity shop: the one gone named, someone new doing the work."""
    assert update_model.holder_gone(new, old)
    assert rewritten(("W", old), ("W", new)) == new


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # where the one named went, with someone, is no handover
        ("Dave Hollins drives the donations van.",
         "Dave has gone to Leeds to collect the donations van with Sam Price."),
        # one of a committee: swapped in the list, never the whole replaced by this reading
        ("Committee is Malcolm Reid (chair), Janet Ruddock (treasurer) and Gordon Pike "
         "(secretary).",
         "Gordon Pike has stepped down; Anya Kowalczyk has taken over the minutes."),
        # no word of the work shared
        ("Priya Shah does our books.", "Priya has moved house; Tom Lee is fixing the boiler."),
    ],
)  # fmt: skip
def test_one_gone_is_no_handover_otherwise(old: str, new: str) -> None:
    assert not update_model.holder_gone(new, old)


def test_a_charity_shops_changes() -> None:
    assert rewritten(
        ("W", "Landlord is Brightwell Lettings; our property manager there is Gareth Price."),
        ("W", "Brightwell have given us a new property manager: Sophie Lang, 07700 900554."),
    ) == (
        "Landlord is Brightwell Lettings; Brightwell have given us a new property manager: "
        "Sophie Lang, 07700 900554."
    )
    # a price list joined by "and"; pence are pounds'
    assert currency.priced_part_put_right(
        "Paperback price goes up to £1.25 from today.", "Paperbacks are 99p and hardbacks £2.49."
    ) == "Paperbacks are £1.25 and hardbacks £2.49."  # fmt: skip
    assert currency.priced_part_put_right(
        "Paperbacks are £1.50.", "Paperbacks are £1.25 and hardbacks £2.49."
    ) == "Paperbacks are £1.50 and hardbacks £2.49."  # fmt: skip
    # the place left said closing, in the reason
    switched = (
        "Switched paying-in to the Post Office on Gold Street, as the Sheep Street Barclays is "
        "closing."
    )
    assert rewritten(
        ("W", "We pay the takings in at Barclays on Sheep Street, daily before 3pm."),
        ("W", switched),
    ) == switched  # fmt: skip
    # closing early, or at a time, is no ending
    assert currency._ended("The shop is closing early on Friday.", "The shop opens 9 to 5.") is None


def test_a_count_of_new_ones_is_no_new_value() -> None:
    """ "Processed 42 new player registrations" had retired the day registrations close."""
    deadline = "Player registrations for this season close on Wednesday 30 September."
    done = "Processed 42 new player registrations through the Whole Game System."
    assert rewritten(("W", deadline), ("B", done)) is None
    assert currency.relation(done, deadline).kind != currency.SUPERSEDE
    # a new one named still is
    assert currency.relation(
        "Our new phone number is 01632 960123.", "Our phone number is 01632 960999."
    ).kind == currency.SUPERSEDE  # fmt: skip


def test_a_hair_salons_and_a_surgerys_look_alikes_kept() -> None:
    """Wrong retirements found in a salon's and a GP surgery's replays."""
    colourist = "Priya Shah does all the colour work, she's the salon's colourist."
    assert rewritten(
        ("W", colourist), ("W", "Switched our colour account over to Halden Pro from Kestrel.")
    ) is None  # a person told of is no provider  # fmt: skip
    assert rewritten(
        ("W", "Dr Sam Ahmed does the Monday and Friday sessions."),
        ("W", "Dr Mensah is covering Dr Okafor's sessions from today."),
    ) is None  # another's sessions  # fmt: skip
    assert rewritten(
        ("W", "On the retail shelf we stock Olaplex, Kevin Murphy and Moroccanoil."),
        ("W", "Retail stock is ordered from Brookfield Wholesale, account BW-4471."),
    ) is None  # a list none of whose items the note names  # fmt: skip
    # a correction of a weekday said of every week
    fix = "Correction: Ellie's college day is Monday, not Tuesday. I got that wrong."
    assert rewritten(
        ("W", "Ellie is at Bramford College on Tuesdays for her apprenticeship."), ("W", fix)
    ) == fix  # fmt: skip


def test_a_possessive_that_is_no_others_thing() -> None:
    """ "Alan's signed it off" (Alan has) and "instead of Camille's personal address" (the one
    replaced) name no one else's thing."""
    assert not update_model.anothers(
        "Call-out charge goes up to £95 from today, Alan's signed it off.",
        "The call-out charge is £85 and covers the first hour on site.",
    )
    assert not update_model.anothers(
        "Atelier Roux invoices now go to compta@atelier-roux.fr instead of Camille's address.",
        "Atelier Roux invoices go to camille@atelier-roux.fr",
    )
    assert update_model.anothers(
        "Dr Mensah is covering Dr Okafor's sessions from today.",
        "Dr Sam Ahmed does the Monday and Friday sessions.",
    )
