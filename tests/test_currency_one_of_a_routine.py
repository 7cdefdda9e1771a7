"""One occasion of a routine is no new routine.

Found replaying a family's five weeks of notes: "Hannah Moss confirmed for Saturday 10
October, 7pm to 11pm" retired "… Hannah Moss will do Saturday nights from 3 October, £12 an
hour" (the learned guess read a new day and times for the same babysitter), so the standing
arrangement and its rate were lost.
"""

from __future__ import annotations

import pytest

from tests.currency_support import replaces


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Hannah Moss will do Saturday nights from 3 October, £12 an hour.",
         "Hannah Moss confirmed for Saturday 10 October, 7pm to 11pm."),
        ("Nina walks the dog every weekday at noon, £15 a walk.",
         "Nina booked for Friday 16 October at 1pm."),
    ],
)  # fmt: skip
def test_one_occasion_keeps_the_routine(old: str, new: str) -> None:
    assert not replaces(("W", old), ("W", new))


def test_a_routine_said_anew_still_replaces() -> None:
    assert replaces(
        ("W", "Nina's dog walks are every weekday at noon, £15 a walk."),
        ("W", "Nina's dog walks moved to 1pm every weekday from 12 October."),
    )
