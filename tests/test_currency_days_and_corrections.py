"""A time of day is no new day; a trip is no intention; a correction before ";" is read.

From a community choir's five weeks of notes: "Christmas concert starts at 3pm (afternoon
concert)" retired "Christmas concert: Saturday 12 December 2026 at All Saints' Church, Vicarage
Road" (the learned guess), losing the date and the venue; "Correction: the Bad Sassendorf tour
is 21-24 May 2027, not 14-17 May; the Liederkranz misread our dates" retired the tour hotel and
left the old dates, because "we're going to Bad Sassendorf" read as an intention and ", not
14-17 May" was not read before a ";".
"""

from __future__ import annotations

from agent_sleep.analysis import change_words as cw
from tests.currency_support import replaced, replaces

CORRECTION = (
    "Correction: the Bad Sassendorf tour is 21-24 May 2027, not 14-17 May; the Liederkranz "
    "misread our dates."
)


def test_a_time_of_day_keeps_the_day() -> None:
    assert not replaces(
        ("W", "Christmas concert: Saturday 12 December 2026 at All Saints' Church, Vicarage Road."),
        ("W", "Christmas concert starts at 3pm (afternoon concert)."),
    )


def test_going_to_a_place_is_no_intention() -> None:
    assert not cw.found(cw.MODAL_RE, "Twin town tour: we're going to Bad Sassendorf, May 2027.")
    assert cw.found(cw.MODAL_RE, "We're going to move the standup.")


def test_the_correction_replaces_the_dates_not_the_hotel() -> None:
    dates = {
        "id": "m1",
        "type": "W",
        "text": "Twin town tour: we're going to Bad Sassendorf, Germany, 14-17 May 2027.",
        "date": "2026-09-15",
    }
    hotel = {
        "id": "m2",
        "type": "W",
        "text": "Tour hotel in Bad Sassendorf: Hotel Am Kurpark, 28 rooms held.",
        "date": "2026-09-17",
    }
    assert replaced(("W", CORRECTION), [dates, hotel], day="2026-10-06") == ["m1"]
