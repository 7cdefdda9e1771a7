"""A label said as where something is, is a value of one thing, not another thing.

"Freezer A is in room B214" and "Freezer B was moved; now in room B220" are two freezers, and
both stay. But a runner's notes (an exploratory test) had "Maya is in start corral C" and,
weeks later, "Maya starts in corral D": corral C and corral D were read as two things of one
kind, so both stayed current. A label after "in", "into", "to", "at" or "on" is now where the
thing is, and a new one replaces it.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import currency
from tests.currency_support import replaces


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Maya's bike is kept in Garage A.", "Maya's bike is now kept in Garage B."),
        ("Maya is in start corral C for Lakeshore.", "Maya starts in corral D at Lakeshore now."),
    ],
)
def test_a_new_place_by_label_replaces_the_old(old: str, new: str) -> None:
    assert not currency.labels_apart(new, old)
    assert replaces(("W", old), ("W", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Freezer A is in room B214.", "Freezer B was moved; now in room B220."),
        ("The antibodies are in Freezer A.", "The plasmids are in Freezer B."),
    ],
)
def test_labelled_things_stay_two(old: str, new: str) -> None:
    assert not replaces(("W", old), ("W", new))
