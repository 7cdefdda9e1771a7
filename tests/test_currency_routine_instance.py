"""One time of a routine is no new routine.

"Daniel's Saturday visit; they fixed the garden gate" retired "Daniel visits Dad every
Saturday and does the big shop", and "FACS slot 10-12 used for the reporter line" retired the
lab's standing Tuesday booking: the learned reading took an instance for a new value. An event
that says no routine of its own and no change retires no routine now, nor does one dated
occasion ("Hannah Moss confirmed for Saturday 10 October" beside "… will do Saturday nights");
a changed routine, or a new value said as new, still does.
"""

from __future__ import annotations

import pytest

from tests.currency_support import replaces


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Daniel visits Dad every Saturday and does the big shop.",
         "Daniel's Saturday visit; they fixed the garden gate."),
        ("Liam the physio comes on Thursdays at 2 pm from now on.",
         "Liam's physio session on Thursday — Dad managed ten step-ups."),
        ("FACS (BD LSRFortessa) booking: Tuesdays 10:00-12:00, standing slot for the lab.",
         "FACS slot 10-12 used for the reporter line; Priya shadowed."),
        # a routine named by its weekday (a runner's notes)
        ("The Eastside Striders' Tuesday runs now start from the Elm Street library; the "
         "boathouse is closed for renovation.",
         "Striders run from the library, 10 km, Achilles fine."),
    ],
)  # fmt: skip
def test_one_time_of_a_routine_keeps_it(old: str, new: str) -> None:
    assert not replaces(("W", old), ("B", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Liam the physio comes on Thursdays at 2 pm.",
         "Liam's physio sessions moved to Fridays at 11 am."),
        ("Harbor Coffee rebrand is billed at 65 euros per hour, invoiced monthly.",
         "Harbor Coffee signed off on the new rate: 80 euros per hour from March onward."),
        ("Nina's dog walks are every weekday at noon, £15 a walk.",
         "Nina's dog walks moved to 1pm every weekday from 12 October."),
    ],
)  # fmt: skip
def test_a_changed_routine_is_read(old: str, new: str) -> None:
    assert replaces(("W", old), ("B", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # "again" is once more here, no change back
        (("W", "Priya is working 7am-7pm day shifts on Thursdays and Fridays."),
         ("B", "Priya was at work until 7, so Grace minded Luca again.")),
        # a plan for one week is no new routine
        (("W", "Home matches kick off at 9:30am on Saturdays."),
         ("S", "No match this Saturday; maybe a fun session at Greenway or just rest.")),
        # one dated occasion of it (a family's notes: the learned guess retired the
        # arrangement and its rate)
        (("W", "Hannah Moss will do Saturday nights from 3 October, £12 an hour."),
         ("W", "Hannah Moss confirmed for Saturday 10 October, 7pm to 11pm.")),
        (("W", "Nina walks the dog every weekday at noon, £15 a walk."),
         ("W", "Nina booked for Friday 16 October at 1pm.")),
    ],
)  # fmt: skip
def test_once_more_or_once_off_keeps_the_routine(
    old: tuple[str, str], new: tuple[str, str]
) -> None:
    assert not replaces(old, new)
