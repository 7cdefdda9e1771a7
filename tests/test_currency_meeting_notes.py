"""The minutes of a meeting, and a feeling about something else, retire no standing fact.

Exploratory tests, untuned: an engineering manager's five weeks of notes, and a homeowner's
renovation. "Aisha's 1:1: release checklist draft for v2.3 done" retired "Payments v2.3 is
going out Nov 17" (the stale Nov 10 stayed current); "Hana's 1:1: Dashboard 5.0 code freeze
Nov 5" retired the release date; "Priya thinks the bathroom is going to be her favorite room"
retired the cabinet colour she had picked as her favorite. The learned last word read each as
an update; a meeting's minutes now go by like a work log's lines, and "favorite" is a feeling
two notes may share. A change said in a meeting is still read, by the rules.
"""

from __future__ import annotations

import pytest

from tests.currency_support import replaces


def _replaces(old: tuple[str, str], new: tuple[str, str]) -> bool:
    return replaces(old, new, frozenset({"Aisha", "Hana", "Priya", "Dashboard"}))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (("S", "Payments v2.3 is going out Nov 17; Aisha owns the release checklist."),
         ("B", "Aisha's 1:1: release checklist draft for v2.3 done.")),
        (("W", "Dashboard 5.0 release is planned for Nov 12."),
         ("B", "Hana's 1:1: Dashboard 5.0 code freeze Nov 5.")),
        (("W", "Aisha Bello is the QA engineer; her 1:1 is Wednesdays."),
         ("B", "Aisha's 1:1: she wants to automate the regression suite for v2.3.")),
        (("O", "Cabinet paint color: Evergreen Fog (SW 9130) - Priya's favorite of the samples."),
         ("O", "Priya thinks the bathroom is going to be her favorite room in the house.")),
    ],
)  # fmt: skip
def test_minutes_and_feelings_replace_nothing(old: tuple[str, str], new: tuple[str, str]) -> None:
    assert not _replaces(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (("W", "Dashboard 5.0 release is planned for Nov 12."),
         ("B", "Hana's 1:1: the Dashboard 5.0 release moved to Nov 19.")),
        # a label that only looks like a meeting's: the alarm's first call is a value
        (("W", "The -80 freezer alarm calls Wojciech Nowak first."),
         ("W", "Freezer alarm first call: Aylin Demir.")),
    ],
)  # fmt: skip
def test_a_change_said_in_a_meeting_is_still_read(
    old: tuple[str, str], new: tuple[str, str]
) -> None:
    assert _replaces(old, new)


def test_a_plan_carried_out_replaces_no_plan() -> None:
    """ "Bathroom floor hex tile went down today" retired "Bathroom floor will be 2-inch Carrara
    marble hex tile …" (a renovation's notes): the plan happened; what it says still holds."""
    old = (
        "W",
        "Bathroom floor will be 2-inch Carrara marble hex tile with a light grey grout; Megan is "
        "ordering 60 sq ft.",
    )
    assert not _replaces(old, ("B", "Bathroom floor hex tile went down today."))
