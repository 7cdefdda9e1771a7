"""A day or a time replaces no entry that holds none.

"On-call handoffs now happen Wednesdays at 11am, starting this week" retired "On-call shifts
are two weeks long; Diego updated the PagerDuty schedule" (read as alike: an engineering
manager's notes). A new day or time of an entry that has one is still read.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import update_model
from tests.currency_support import replaced, replaces


def _replaces(old: str, new: str) -> bool:
    return replaces(("W", old), ("W", new), frozenset({"Diego", "PagerDuty"}))


def test_a_handoff_day_is_no_shift_length() -> None:
    old = "On-call shifts are two weeks long; Diego updated the PagerDuty schedule."
    new = "On-call handoffs now happen Wednesdays at 11am, starting this week."
    assert update_model.when_for_none(new, old)
    assert not _replaces(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The standup is at 9:30 in the small room.", "The standup now happens at 10:00."),
        ("Weekend shift lead is Sam; spare keys are in the office.",
         "Who leads weekends? Joanna, starting this Saturday."),
    ],
)  # fmt: skip
def test_a_day_or_time_beside_one_or_beside_a_name_is_read(old: str, new: str) -> None:
    assert not update_model.when_for_none(new, old)


def test_a_new_date_replaces_the_date_not_a_workaround_that_says_date() -> None:
    """ "Release 4.13.0 slipped; new date is March 3" retired "Workaround for BUG-2143: export
    in smaller date ranges" (read as a new one of "date") and left "Next release 4.13.0 is
    scheduled for February 24" current (a support lead's notes)."""
    memory = [
            {"id": "bug", "type": "W", "date": "2026-02-04",
             "text": "Workaround for BUG-2143: export in smaller date ranges (a month at a time)."},
            {"id": "release", "type": "W", "date": "2026-02-04",
             "text": "Next release 4.13.0 is scheduled for February 24."},
    ]  # fmt: skip
    new = ("W", "Release 4.13.0 slipped; new date is March 3.")
    assert replaced(new, memory, frozenset({"BUG-2143"}), day="2026-02-20") == ["release"]
