"""A reason after a spaced dash is no intention of what the note says before it.

"Using Tidewell Cranes instead of Bayliss Lifting for the lift-out - Bayliss can't do the 24th"
read as an intention (its "can't"), so it left "Crane for lift-out booked with Bayliss Lifting"
standing in a boat club's replayed workspace. An aside that hedges ("- if they can do the
24th", "- tbc") still makes the note a plan. And a plural noun before a verb of change told in
the past is the subject, not the verb ("Committee meetings moved to the music room").
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import change_words as cw
from agent_sleep.analysis.claims import claims
from tests.currency_support import replaces


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("Using Tidewell Cranes instead of Bayliss Lifting - Bayliss can't do the 24th.", False),
        ("Committee meetings moved to the music room — the refurb will take all term.", False),
        ("Using Tidewell Cranes instead of Bayliss Lifting - if they can do the 24th.", True),
        ("Using Tidewell Cranes instead of Bayliss Lifting - tbc.", True),
        ("We will use Tidewell Cranes - Bayliss is booked up.", True),
        ("Quiz night will be on Wednesdays - Gav can't do Tuesdays.", True),
        ("Crane for lift-out booked with Bayliss Lifting.", False),
    ],
)
def test_an_aside_is_read_for_a_hedge_only(text: str, meant: bool) -> None:
    assert cw.intended(text) is meant


def test_a_switch_with_its_reason_after_a_dash_replaces() -> None:
    old = "Crane for lift-out booked with Bayliss Lifting."
    assert replaces(("W", old), ("W", "Using Tidewell Cranes instead of Bayliss Lifting for the "
                                       "lift-out - Bayliss can't do the 24th."))  # fmt: skip
    assert not replaces(("W", old), ("W", "Using Tidewell Cranes instead of Bayliss Lifting for "
                                           "the lift-out - if they can do the 24th."))  # fmt: skip


def test_a_plural_noun_before_a_past_change_is_the_subject() -> None:
    told = claims("Committee meetings moved to the music room.")
    assert told and "meet" in told[0].owner and told[0].head == "mov"
