"""A name said short in one note and spelled out in the other is one thing.

A PhD student's notes (an exploratory test) had "Submission deadline for the Journal of Cell
Science paper is March 20" and, weeks later, "The JCS deadline is now April 3": the two shared
no subject word, so both deadlines stayed current. An abbreviation whose letters open the
capitalised words of a name in the other note ("JCS" for "Journal of Cell Science") now reads
as that name; a different abbreviation, or one whose letters open no such words, does not.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import currency
from tests.currency_support import replaces


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Submission deadline for the Journal of Cell Science paper is March 20.",
         "The JCS deadline is now April 3."),
        ("The JCS deadline is March 20.",
         "The Journal of Cell Science deadline is now April 3."),
    ],
)  # fmt: skip
def test_an_abbreviation_is_the_name_it_shortens(old: str, new: str) -> None:
    assert replaces(("W", old), ("W", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Nature Methods deadline is May 1.", "The JCS deadline is now April 3."),
        ("Submission deadline for the Journal of Clinical Sleep paper is March 20.",
         "The JCB deadline is now April 3."),
    ],
)  # fmt: skip
def test_another_abbreviation_is_another_thing(old: str, new: str) -> None:
    assert not replaces(("W", old), ("W", new))


def test_the_name_is_said_short_only_for_reading() -> None:
    new, old = currency.said_short("JCS moved it to April 3.", "Journal of Cell Science: March 20")
    assert (new, old) == ("JCS moved it to April 3.", "JCS: March 20")
    # "on" and "the" are small words between; a lower-case word is none of the name
    assert currency.said_short("The NHS said so.", "the national health service")[1] == (
        "the national health service"
    )
