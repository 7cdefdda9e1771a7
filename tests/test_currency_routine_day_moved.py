"""A routine's weekday moved, and a provider taken on for one thing it takes over.

A restaurant's five weeks of notes (a replayed scenario) told "Green Valley have moved our veg
deliveries to Thursdays from this week" of "Veg and salad come from Green Valley Produce,
delivered Tuesdays around 8am", and "Signed with Hook & Line Fisheries today — they take over
all our fish from Monday" of "Fish comes from Brixham Catch — they deliver …". Both old entries
stayed current: the move named what moved after the verb ("moved our veg deliveries to"), and
the provider shared one word only with the entry it replaced.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis.currency import moved_day_put_right, provider_put_right
from tests.currency_support import rewritten


@pytest.mark.parametrize(
    ("old", "new", "now"),
    [
        ("Veg and salad come from Green Valley Produce, delivered Tuesdays around 8am.",
         "Green Valley have moved our veg deliveries to Thursdays from this week.",
         "Veg and salad come from Green Valley Produce, delivered Thursdays around 8am."),
        ("Sam has swimming every Wednesday at 4:30 at Riverside.",
         "Riverside moved Sam's swimming to every Friday.",
         "Sam has swimming every Friday at 4:30 at Riverside."),
        ("Kitchen is from Howdens. Fitting booked for 19 October.",
         "Moved the kitchen fitting to Monday 26 October.",
         "Kitchen is from Howdens. Fitting booked for Monday 26 October."),
    ],
)  # fmt: skip
def test_the_day_moved_is_put_right(old: str, new: str, now: str) -> None:
    assert moved_day_put_right(new, old) == now
    assert rewritten(("W", old), ("W", new)) == now


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # what moved is not what the entry gives the day of
        ("Bins go out Tuesdays.", "Moved the team standup to Thursdays."),
        # two days in the entry: which one moved is not said
        ("Gym sessions are Mondays and Wednesdays.", "Moved gym to Fridays."),
        # another thing of the entry's
        ("Veg comes from Green Valley on Tuesdays; fish deliveries are Fridays.",
         "Moved the bread deliveries to Thursdays."),
    ],
)  # fmt: skip
def test_no_other_day_is_moved(old: str, new: str) -> None:
    assert moved_day_put_right(new, old) is None


def test_a_provider_taking_over_the_one_thing_the_entry_names() -> None:
    old = ("Fish comes from Brixham Catch — they deliver Tuesday to Saturday before 9am, order "
           "by 4pm the day before.")  # fmt: skip
    new = "Signed with Hook & Line Fisheries today — they take over all our fish from Monday."
    # the old provider's delivery days go with it: the note takes the entry's place
    assert rewritten(("W", old), ("B", new)) == new
    # one word shared and nothing taken over is not enough
    assert provider_put_right("Signed with Hook & Line Fisheries today for fish.", old) is None
    # what it takes over, with no provider in the entry
    assert provider_put_right(new, "Fish of the day is hake, Tuesday to Saturday.") is None


def test_who_said_the_day_moved_is_no_part_of_what_moved() -> None:
    old = "Shipping: the container leaves Manchester (via Felixstowe) on 18 September."
    new = ("Anglo-Iberian says the ship date is pushed back to 2 October because of a port "
           "backlog in Felixstowe.")  # fmt: skip
    assert moved_day_put_right(new, old) == (
        "Shipping: the container leaves Manchester (via Felixstowe) on 2 October."
    )
    # what moved must still be what the entry gives the day of
    assert moved_day_put_right("The school says the trip is pushed back to 2 October.", old) is None


def test_a_word_said_short_is_read_in_full() -> None:
    from agent_sleep.analysis.currency import in_full

    old = ("Temporary flat in Lisbon booked on Airbnb: Rua das Flores 42, Chiado, from 24 "
           "September for four weeks.")  # fmt: skip
    new = "Airbnb cancelled on us; moved temp flat to Rua do Norte 15, Bairro Alto, same dates."
    assert in_full(new, old)[0].startswith("Airbnb cancelled on us; moved temporary flat")
    assert in_full("The temp is 21C.", "Boiler service is booked.") == (
        "The temp is 21C.", "Boiler service is booked.",
    )  # fmt: skip
    assert rewritten(("W", old), ("W", new)) == new


def test_a_day_moved_with_a_reason_keeps_the_entrys_time() -> None:
    old = ("Beneficiaries' meeting with the solicitor set for Thursday 15 October at 2pm, at the "
           "Ashby office.")  # fmt: skip
    new = ("Beneficiaries' meeting moved to Wednesday 21 October, same time, because Tom Everett "
           "is in court on the 15th.")  # fmt: skip
    assert moved_day_put_right(new, old) == (
        "Beneficiaries' meeting with the solicitor set for Wednesday 21 October at 2pm, at the "
        "Ashby office."
    )
    # a new time of day too, where the entry gives one: both put right, whose team it is kept
    weekly = "Weekly Kestrel sync is Tuesdays at 10am with Ana's team."
    assert (
        moved_day_put_right("Kestrel weekly sync moved to Thursdays at 2pm.", weekly)
        == "Weekly Kestrel sync is Thursdays at 2pm with Ana's team."
    )
    choir = "Choir practice is Wednesdays at 7pm in the church hall."
    assert moved_day_put_right("Choir practice moved to Sundays at noon, same hall.", choir) is None


def test_a_word_both_write_in_lower_case_is_a_thing_whatever_it_names_elsewhere() -> None:
    """ "Bexley College" made "college" a name, so "Jake's college day is now Thursday, Bexley
    College changed the timetable" shared nothing but names with "Jake's college day is
    Wednesday …", and both stood."""
    from agent_sleep.providers import offline_currency

    old = "Jake's college day is Wednesday, so he's not on site Wednesdays."
    new = "Jake's college day is now Thursday, Bexley College changed the timetable."
    out = offline_currency.supersedes(
        [("W", new, ["n1"], 0.8, "2026-09-21")],
        [{"id": "m1", "text": old, "type": "W", "date": "2026-09-07"}],
        [],
        frozenset({"Jake", "Bexley", "College"}),
        offline_currency.similarity(),
    )
    assert [u["replaces"] for u in out.values()] == ["m1"]
