"""Two couples' things stay two, what names only whose a thing is provides nothing, a new day
is put right in the entry, and what "remains" is no change.

Found replaying a wedding planner's and a publisher's five weeks of notes: "Sugar Loft confirmed
Priya & Daniel's cake at £780" had retired "Cake for Emma & Luca from Sugar Loft is £540";
"Signed with Wildroot Flowers today for Priya & Daniel's florals" had retired their wedding's
date; "Sofia & James wedding pushed back to 19 June 2027 …" had replaced the entry that also
gave the venue; "Salt Orchard publication date remains 15 October" had retired the launch's
date.
"""

from __future__ import annotations

from agent_sleep.analysis import currency
from tests.currency_support import replaces, rewritten


def test_two_couples_cakes_stay_two() -> None:
    assert not replaces(
        ("W", "Cake for Emma & Luca from Sugar Loft is £540."),
        ("W", "Sugar Loft confirmed Priya & Daniel's cake at £780."),
    )
    assert replaces(
        ("W", "Cake for Emma & Luca from Sugar Loft is £540."),
        ("W", "Sugar Loft confirmed Emma & Luca's cake at £580."),
    )


def test_a_provider_for_whose_it_is_provides_nothing_else_of_theirs() -> None:
    old = "Priya Shah and Daniel Okafor's wedding is on Saturday 21 November 2026 at Hollins Barn."
    new = "Signed with Wildroot Flowers today for Priya & Daniel's florals."
    assert not replaces(("W", old), ("B", new))


def test_a_new_day_is_put_right_and_the_venue_stays() -> None:
    old = (
        "Sofia Mendes and James Whitfield's wedding is on 12 June 2027 at Tidewater Pavilion "
        "in Brighton."
    )
    new = "Sofia & James wedding pushed back to 19 June 2027 because the Pavilion double-booked."
    assert rewritten(("W", old), ("W", new)) == (
        "Sofia Mendes and James Whitfield's wedding is on 19 June 2027 at Tidewater Pavilion "
        "in Brighton."
    )


def test_what_remains_is_no_change() -> None:
    assert not replaces(
        ("W", "Salt Orchard launch is on Thursday 29 October at 6:30pm."),
        ("W", "Salt Orchard publication date remains 15 October."),
    )


def test_another_things_day_is_not_put_right_in() -> None:
    # "Android 3.0 …" had put its May 20 into "iOS 3.0 submission deadline is May 12"
    assert (
        rewritten(
            ("W", "iOS 3.0 submission deadline is May 12."),
            ("W", "Android 3.0 must be submitted by May 20."),
        )
        != "iOS 3.0 submission deadline is May 20."
    )


def test_a_name_written_in_mixed_case_is_a_name() -> None:
    # "iOS" opens the entry: "Android 3.0 …" is another thing's deadline, not put right in it
    assert (
        currency._slot_put_right(
            "Android 3.0 must be submitted by May 20.",
            "iOS 3.0 submission deadline is May 12, per the release plan.",
        )
        is None
    )
