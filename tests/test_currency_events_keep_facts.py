"""What happened retires no standing fact it gives no new value of.

Found replaying a game studio's and a dental practice's five weeks of notes (the learned guess
each time): "Printed 20 playtest consent forms for Saturday" retired the playtest's venue; "Lena
delivered 5 of the 12 tracks" retired "Lena delivers 12 tracks by Oct 30"; "Arthur Bell's INR
was 2.4; the extraction went ahead" retired "Arthur Bell is on warfarin", which was not read as
vital, a drug named without "medication" or a dose.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import vital
from tests.currency_support import replaces


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Playtest 3 (Saturday Oct 3) venue: Bytes Cafe, 14 Mill Street.",
         "Printed 20 playtest consent forms for Saturday (2026-09-19)."),
        ("Composer deliverable: Lena delivers 12 tracks by Oct 30.",
         "Lena delivered 5 of the 12 tracks; harbor theme is beautiful."),
        ("Arthur Bell is on warfarin; we must check his INR before any extraction.",
         "Arthur Bell's INR was 2.4; the extraction went ahead without issue."),
    ],
)  # fmt: skip
def test_an_event_keeps_the_fact(old: str, new: str) -> None:
    assert not replaces(("W", old), ("B", new))


@pytest.mark.parametrize(
    "text", ["Arthur Bell is on warfarin.", "Dad takes atorvastatin at night.", "on apixaban"]
)
def test_a_drug_named_is_vital(text: str) -> None:
    assert vital.vital(text)


def test_a_drug_stopped_still_replaces() -> None:
    assert replaces(
        ("W", "Arthur Bell is on warfarin; we must check his INR before any extraction."),
        ("W", "Arthur Bell stopped warfarin; he is on apixaban now."),
    )
