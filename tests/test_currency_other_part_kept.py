"""What a change leaves of an entry of two facts: the one part the note gives anew is put
right in place, the other part stays (replayed scenarios: a community garden, a theatre box
office, a physiotherapy clinic, a running club, a tutoring agency, a print shop's customer).

- Shapes a note gives on their own: a phone number, the days of a month by their place in it
  ("the second and fourth Sunday"), a span of the day ("12:00-18:00"), two weekdays or more,
  a street address; and a place a thing meets or runs at ("now meets at Lochside boathouse").
- Replaced whole still: a note that gives more than that part (another name, another number),
  an entry that holds nothing but that part, and whatever a guard keeps from being replaced at
  all (a look-alike's code, another thing's place).
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import currency
from tests.currency_support import rewritten


@pytest.mark.parametrize(
    ("old", "new", "want"),
    [
        ("Box office phone is 01632 960418, answered Tue-Sat 12:00-18:00.",
         "The box office number is now 01632 960775; the old line was switched off after the "
         "phone provider change.",
         "Box office phone is 01632 960775, answered Tue-Sat 12:00-18:00."),
        ("Volunteer workdays are the first and third Saturday of each month, 9:30 till 12:30.",
         "Workdays have moved to the second and fourth Sunday of the month.",
         "Volunteer workdays are the second and fourth Sunday of each month, 9:30 till 12:30."),
        ("Tickets and posters are printed by Kestrel Print, Unit 5 Fenwick Trading Estate.",
         "Kestrel Print's new address is 14 Carver Street.",
         "Tickets and posters are printed by Kestrel Print, 14 Carver Street."),
        ("Harbour Catch delivers the fish Tuesdays and Fridays, before 8am.",
         "Harbour Catch have moved our deliveries to Wednesday and Saturday.",
         "Harbour Catch delivers the fish Wednesday and Saturday, before 8am."),
        ("Reception is staffed 8:30am-5pm on weekdays by Jo and Sam.",
         "Reception hours are now 9am-5:30pm.",
         "Reception is staffed 9am-5:30pm on weekdays by Jo and Sam."),
    ],
)  # fmt: skip
def test_one_shape_put_right_in_place(old: str, new: str, want: str) -> None:
    assert currency.shape_put_right(new, old) == want
    assert rewritten(("W", old), ("W", new)) == want


@pytest.mark.parametrize(
    ("old", "new", "want"),
    [
        ("Thursday tempo group meets at the Albert Park gates, 18:30.",
         "Thursday tempo now meets at Lochside boathouse instead of the park gates, because of "
         "the path works.",
         "Thursday tempo group meets at Lochside boathouse, 18:30."),
        ("Thursday GCSE physics group (Year 11) meets in the Willow Room, 17:45-18:40.",
         "Thursday physics group is now in the Maple Room - Willow was too cramped for seven.",
         "Thursday GCSE physics group (Year 11) meets in the Maple Room, 17:45-18:40."),
        ("Pilates classes run in Studio 2 on Tuesday and Thursday evenings.",
         "Studio 2 floor is being relaid, so Pilates has moved to Room 4 until further notice.",
         "Pilates classes run in Room 4 on Tuesday and Thursday evenings."),
    ],
)  # fmt: skip
def test_the_place_a_thing_meets_at_put_right_in_place(old: str, new: str, want: str) -> None:
    assert currency.venue_put_right(new, old) == want
    assert rewritten(("W", old), ("W", new)) == want


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another name with the number: the provider changed, the note takes the entry's place
        ("IT support is Bytewise IT - helpdesk 0113 496 0350, log a ticket by email first.",
         "We've switched IT support to Norcom Systems; Norcom helpdesk is 0113 496 0488."),
        # another town with the street: the entry said nothing else the note leaves standing
        ("Our yard is at Unit 4, Millbrook Industrial Estate, Hatherley.",
         "The yard has moved to Unit 9, Fenwick Business Park, Leeds."),
        # more than the days: a name and a time of its own
        ("Towels are laundered by Crisp Linen, collected Tuesdays and Fridays.",
         "Lakeside Laundry collect on Mondays and Thursdays at 7am now."),
        # the number is all the entry holds
        ("Box office phone: 01632 960418.", "The box office number is now 01632 960775."),
        # an ISBN is no phone number
        ("The Salt Orchard: hardback, 352 pages. Hardback ISBN 978-1-915432-07-4.",
         "Salt Orchard hardback ISBN is now 978-1-915432-08-1."),
    ],
)  # fmt: skip
def test_shapes_not_put_right(old: str, new: str) -> None:
    assert currency.shape_put_right(new, old) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # what moved is not what meets: the kit, not the session
        ("Thursday session meets in the Church Hall, 7pm.",
         "Moved the Thursday session's kit to the Blue Cupboard."),
        # a person at a firm is no place a thing meets at
        ("Accountant is Priya Shah at Ledgerline, Tuesdays by appointment.",
         "Priya has moved to Brightside Accounting."),
        # a time comes with the place: more than the place
        ("Thursday tempo group meets at the Albert Park gates, 18:30.",
         "Thursday tempo now meets at Lochside boathouse at 19:00."),
        # the place is all the entry holds
        ("Book club meets at Tern Books.", "Book club has moved to the Harbour Cafe."),
    ],
)  # fmt: skip
def test_places_not_put_right(old: str, new: str) -> None:
    assert currency.venue_put_right(new, old) is None


def test_a_look_alike_kept_apart_is_put_right_by_no_shape() -> None:
    """A guard that keeps the entry from being replaced at all still does: the put right
    comes only where the entry would otherwise go whole."""
    old = (
        "The Salt Orchard: hardback, 352 pages, publication date 15 October 2026. Hardback "
        "ISBN 978-1-915432-07-4."
    )
    assert rewritten(("W", old), ("W", "Salt Orchard ebook ISBN is 978-1-915432-08-1.")) is None


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("Kestrel Hill Brewing taproom holds 120 people max under the fire certificate.", True),
        ("The minibus takes a maximum of 16 passengers.", True),
        ("No under-18s in the taproom after 9pm - ID checks at the door.", True),
        ("No dogs allowed in the main hall.", True),
        ("No reply from Dave after the 5pm call.", False),
        ("No college on Wednesdays now.", False),
        ("The taproom holds a quiz on Tuesdays.", False),
    ],
)  # fmt: skip
def test_a_most_allowed_or_a_thing_kept_out_is_a_standing_rule(text: str, rule: bool) -> None:
    """A session must not miss them: a taproom's limit and its under-18s rule had been cut
    from the session start for newer, lesser facts."""
    from agent_sleep.analysis import vital

    assert vital.vital(text) is rule


def test_a_shape_put_right_with_another_word_changed_is_none() -> None:
    """ "Sam Okoro is on lates, 15:00-23:00, instead of earlies": the shift changed, not only its
    times; the plan takes the entry's place when it comes due."""
    old = "Sam Okoro (line cook) is on earlies, 07:00-15:00."
    assert (
        currency.shape_put_right("Sam Okoro is on lates, 15:00-23:00, instead of earlies.", old)
        is None
    )
    assert currency.shape_put_right("Sam Okoro is on lates now, 15:00-23:00.", old) is None


def test_a_place_moved_again_told_after_but() -> None:
    old = "Pilates classes run in Room 4 on Tuesday and Thursday evenings."
    new = (
        "Studio 2 floor is finished, but Pilates is now in Studio 1 for good - more space; "
        "Studio 2 becomes a treatment room."
    )
    want = "Pilates classes run in Studio 1 on Tuesday and Thursday evenings."
    assert currency.venue_put_right(new, old) == want
    assert rewritten(("W", old), ("W", new)) == want
