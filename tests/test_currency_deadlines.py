"""A requirement with its day is a deadline, a standing fact that a later day replaces.

A teacher's notes (an exploratory test): "AQA exam entries for Year 11 must reach the exams
officer, Mrs. Linda Marsh, by Friday 19 February 2027" was read as an intention ("must"), which
neither replaces nor is replaced, so "Linda Marsh has brought the AQA entries deadline forward
to Friday 12 February 2027" left both days current; "brought … forward" with words between was
no change word either. And "Year 11 mock marks are due to Sue Bramley … on Friday 11 December"
lost all it said after "due to", read as a reason, and what was left retired "Year 11 are on
AQA GCSE Combined Science: Trilogy".
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import change_words as cw
from agent_sleep.analysis import claims
from tests.currency_support import replaces


def test_a_deadline_brought_forward_replaces_it() -> None:
    old = (
        "AQA exam entries for Year 11 must reach the exams officer, Mrs. Linda Marsh, by "
        "Friday 19 February 2027."
    )
    new = "Linda Marsh has brought the AQA entries deadline forward to Friday 12 February 2027."
    assert replaces(("W", old), ("W", new))


@pytest.mark.parametrize(
    ("text", "modal"),
    [
        ("Mock marks must go to Sue Bramley by Friday 4 December.", False),
        ("The form must be signed by the 12th.", False),
        ("We must meet soon.", True),
        ("The form must be signed by a parent.", True),  # by whom, no day
    ],
)
def test_must_with_a_day_is_a_deadline(text: str, modal: bool) -> None:
    assert claims.claims(text)[0].modal is modal


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("Linda has brought the entries deadline forward to 12 February.", True),
        ("They pushed the launch back to May.", True),
        ("Brought the kids back from school.", False),
    ],
)
def test_brought_forward_and_pushed_back_with_words_between(text: str, change: bool) -> None:
    assert cw.found(cw.CHANGE_RE, text) is change


def test_due_to_a_person_is_no_reason() -> None:
    new = "Year 11 mock marks are due to Sue Bramley (data manager) on Friday 11 December."
    assert "Bramley" in claims.claims(new)[0].text
    old = "Year 11 are on AQA GCSE Combined Science: Trilogy (8464)."
    assert not replaces(("W", old), ("W", new))
    # a reason is still set aside
    assert "rain" not in claims.claims("The match moved to Sunday due to rain.")[0].text
