"""A changed value put right in the part of an entry that holds it; the rest stays.

"Walter's bisoprolol is 5 mg each morning now" retired "Walter's current meds: bisoprolol 2.5
mg once daily, furosemide 40 mg …, atorvastatin 40 mg …" whole (2.5 and 5 were read as two
kinds of number), "Split HeLa today, now at passage 15" retired HEK293T's passage with HeLa's,
and a follow-up moved to April 21 retired who the cardiologist is and the diagnosis.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import claims
from tests.currency_support import rewritten


@pytest.mark.parametrize(
    ("old", "new", "now"),
    [
        ("Walter's current meds: bisoprolol 2.5 mg once daily, furosemide 40 mg in the morning, "
         "atorvastatin 40 mg at night.",
         "Walter's bisoprolol is 5 mg each morning now.",
         "Walter's current meds: bisoprolol 5 mg once daily, furosemide 40 mg in the morning, "
         "atorvastatin 40 mg at night."),
        ("HeLa cells currently at passage 12; HEK293T at passage 27.",
         "Split HeLa today, now at passage 15.",
         "HeLa cells currently at passage 15; HEK293T at passage 27."),
        ("Cardiologist is Dr. Marcus Feld at St. Luke's Hospital. Walter has heart failure; "
         "follow-up with Dr. Feld booked for April 14 at 10:30.",
         "St. Luke's cardiology letter: Dad's follow-up clinic has been moved to April 21, "
         "10:30, same place.",
         "Cardiologist is Dr. Marcus Feld at St. Luke's Hospital. Walter has heart failure; "
         "follow-up with Dr. Feld booked for April 21 at 10:30."),
    ],
)  # fmt: skip
def test_the_part_is_put_right(old: str, new: str, now: str) -> None:
    assert rewritten(("W", old), ("W", new)) == now


def test_another_persons_number_is_not_put_in() -> None:
    # the entry names Sam; a note of Noor's card is no new number of Sam's
    old = "Sam's debit card ends 2256."
    new = "Noor's new debit card ends 8032."
    assert rewritten(("W", old), ("W", new)) != "Sam's debit card ends 8032."


@pytest.mark.parametrize(
    ("old", "new", "now"),
    [
        # a time of day is a number put right too, even in an entry that names two people
        ("Maria and Jonas Lindqvist's wedding is on June 20, 2026 at Rosewood Winery; "
         "ceremony at 4pm.",
         "Maria emailed: the ceremony is now at 3pm because the winery has another event.",
         "Maria and Jonas Lindqvist's wedding is on June 20, 2026 at Rosewood Winery; "
         "ceremony at 3pm."),
        # the day the note moves put right in place, the rest kept (", so …" is a clause of its
        # own; "Okafor" is said in "Okafor's")
        ("Priya and Daniel Okafor's wedding is June 13, 2026 at Gray's Lodge. They're on the "
         "Gold package.",
         "Gray's Lodge had water damage in the main hall, so the Okafor wedding is pushed back "
         "to September 19, 2026.",
         "Priya and Daniel Okafor's wedding is September 19, 2026 at Gray's Lodge. They're on "
         "the Gold package."),
    ],
)  # fmt: skip
def test_the_rest_of_the_entry_stays(old: str, new: str, now: str) -> None:
    assert rewritten(("W", old), ("W", new)) == now


def test_a_time_is_no_owner() -> None:
    (_, claim) = claims.claims("Hiscox renewed the policy; the premium for the new year is $1,260.")
    assert claim.owner == {"premium"}


def test_who_said_it_stays_with_the_note() -> None:
    old = "Landlord is Mrs Helen Pryce, phone 07700 900312. Rent is £1,850 a month, due on the 1st."
    new = "Helen Pryce wrote: the rent goes up to £1,920 a month from January."
    assert rewritten(("W", old), ("W", new)) == (
        "Landlord is Mrs Helen Pryce, phone 07700 900312. "
        "The rent goes up to £1,920 a month from January."
    )


def test_what_the_entry_says_of_the_old_value_goes_with_it() -> None:
    """ "switched from Zotero to Paperpile" had put Paperpile in place of Zotero in "Amara uses
    Zotero … and finds its Word plugin flaky", pinning Zotero's flaw on Paperpile."""
    old = ("O", "Amara uses Zotero for references and finds its Word plugin flaky.")
    new = ("W", "Amara has switched from Zotero to Paperpile; it plays nicer with Google Docs.")
    assert rewritten(old, new) == new[1]


def test_one_part_of_an_entry_of_parts_is_put_right() -> None:
    """A bookkeeper's notes: "Northside Physio now runs payroll monthly" left "… payroll runs
    fortnightly" current: the whole entry (software, year-end, payroll) read as another
    attribute. The one part the note replaces, read on its own, is now swapped for it."""
    from tests.currency_support import rewritten

    old = "Northside Physio (Sam Patel) uses Xero; year-end 30 September; payroll runs fortnightly."
    new = "Northside Physio now runs payroll monthly, on the last working day of the month."
    assert rewritten(("W", old), ("W", new)) == (
        "Northside Physio (Sam Patel) uses Xero; year-end 30 September; Northside Physio now "
        "runs payroll monthly, on the last working day of the month."
    )
    # a note of none of its parts leaves it
    assert rewritten(("W", old), ("W", "Northside Physio sent the March receipts.")) is None


@pytest.mark.parametrize(
    ("old", "now"),
    [
        ("Postgres upgraded to 16.2 over the weekend; no downtime.",
         "Postgres minor bump to 16.4 done in the maintenance window."),
        ("Postgres upgraded to 16.2 over the weekend; no downtime; the replica runs on db-2.",
         "Postgres minor bump to 16.4 done in the maintenance window; the replica runs on db-2."),
    ],
)  # fmt: skip
def test_what_a_past_part_told_of_goes_with_it(old: str, now: str) -> None:
    """'; no downtime' was said of the upgrade to 16.2: put right in place, the entry had
    said it of 16.4 too. A part with no claim of its own after a past one goes with it."""
    new = "Postgres minor bump to 16.4 done in the maintenance window."
    assert rewritten(("W", old), ("W", new)) == now


def test_the_listed_part_the_note_opens_with_is_put_right() -> None:
    """A vet practice's "Saturday opening is now 9am-1pm" replaced the whole of "Opening
    hours: Monday to Friday 8:30am-6:30pm, Saturday 9am-12pm, closed Sundays", and the weekday
    hours left MEMORY.md."""
    old = "Opening hours: Monday to Friday 8:30am-6:30pm, Saturday 9am-12pm, closed Sundays."
    new = "Saturday opening is now 9am-1pm."
    assert rewritten(("W", old), ("W", new)) == (
        "Opening hours: Monday to Friday 8:30am-6:30pm, Saturday 9am-1pm, closed Sundays."
    )


@pytest.mark.parametrize(
    "new",
    [
        "Saturday opening is now 9am-1pm and 2pm-4pm.",  # two values
        "Saturday opening is now until lunchtime, 12.",  # another form
    ],
)
def test_no_listed_part_is_put_right_without_one_value_of_its_form(new: str) -> None:
    from agent_sleep.analysis.currency import listed_part_put_right

    old = "Opening hours: Monday to Friday 8:30am-6:30pm, Saturday 9am-12pm, closed Sundays."
    assert listed_part_put_right(new, old) is None
    assert listed_part_put_right("Sunday opening is now 10am-2pm.", old) is None  # no Sunday value


def test_a_loose_month_is_put_right_to_the_day() -> None:
    """A publisher's "Priya's Burley Fisher reading is confirmed for 12 November at 7pm" took
    the place of "Priya is doing a reading at Burley Fisher Books, 400 Kingsland Road, in
    November", and the shop's address left MEMORY.md."""
    old = "Priya is doing a reading at Burley Fisher Books, 400 Kingsland Road, in November."
    new = "Priya's Burley Fisher reading is confirmed for 12 November at 7pm."
    assert rewritten(("W", old), ("W", new)) == (
        "Priya is doing a reading at Burley Fisher Books, 400 Kingsland Road, on 12 November "
        "at 7pm."
    )


def test_a_day_of_another_month_puts_no_month_right() -> None:
    from agent_sleep.analysis.currency import day_put_right

    old = "Priya is doing a reading at Burley Fisher Books, 400 Kingsland Road, in November."
    assert day_put_right("The reading moved to 3 December at 7pm.", old) is None
    assert (
        day_put_right("Priya reads on 12 November.", old.replace("in November", "on 5 November"))
        is None
    )
