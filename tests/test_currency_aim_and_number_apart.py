"""What one aims at is no new deadline, and a person's number no new anything else of theirs.

From two scenarios of five weeks' notes: "Revised the grant timeline; aiming to submit by 14
October" retired the corrected grant deadline (16 October), and "Mira Okafor's mobile is 07700
900231 (for launch logistics, rather than going via Julia)" took the place of "Mira Okafor … is
represented by Julia Benning at Hartwell Agency", losing her agent. Both were the learned
guess's; it reads neither now. A number said for someone whose number the entry gives is still
a new number.
"""

from __future__ import annotations

import pytest

from tests.currency_support import replaces, rewritten


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (("W", "Correction: the Community Fund grant deadline is 16 October, not the 23rd."),
         ("B", "Revised the grant timeline; aiming to submit by 14 October.")),
        (("W", "Mira Okafor (The Salt Orchard) is represented by Julia Benning at Hartwell "
               "Agency. Julia's number is 07700 900412."),
         ("W", "Mira Okafor's mobile is 07700 900231 (for launch logistics, rather than going "
               "via Julia).")),
    ],
)  # fmt: skip
def test_nothing_is_replaced(old: tuple[str, str], new: tuple[str, str]) -> None:
    assert rewritten(old, new) is None


def test_a_number_for_the_one_the_entry_gives_it_of_still_replaces() -> None:
    assert replaces(
        ("W", "Dr Priya Nair, locum vet: +44 7700 900412."),
        ("W", "Priya Nair's mobile is 07700 900587."),
    )
