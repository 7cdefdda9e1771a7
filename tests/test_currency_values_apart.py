"""Two fields of one thing stay two, and a swap that brings other figures or makes of its own
takes the entry's place whole.

Found replaying a landlord's and a law firm's IT admin's five weeks of notes: "Flat 1 deposit is
£1,065" had retired "Flat 1 rent is £925 pcm" (the learned guess); "Switched from Kirkby
Plumbing to Aqua Fix Leeds …; Aqua Fix number is 0113 496 0388" had made "Our plumber is Dave
Kirkby at Aqua Fix Leeds, 0113 496 0721" (the old number beside the new firm); "Signed with
Copyline Solutions … two Konica Minolta MFPs at £145 a month" had made "Printer lease is with
Copyline Solutions: two Ricoh MFPs".
"""

from __future__ import annotations

import pytest

from tests.currency_support import replaces, rewritten


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Flat 1 rent is £925 pcm.", "Flat 1 deposit is £1,065."),
        ("Flat 2 rent is £780 pcm, bills included.", "Flat 2 deposit is £900."),
    ],
)
def test_another_field_of_one_thing_keeps_the_first(old: str, new: str) -> None:
    assert not replaces(("W", old), ("W", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Primary metric for the summarization study is ROUGE-L.",
         "Summarization study headline metric: BERTScore."),
        ("PCR annealing temperature for the GAPDH primers is 58°C.",
         "GAPDH PCR annealing temp: 61°C after the gradient test."),
    ],
)  # fmt: skip
def test_one_field_said_two_ways_is_still_replaced(old: str, new: str) -> None:
    assert replaces(("W", old), ("W", new))


def test_a_swap_with_a_number_of_its_own_replaces_whole() -> None:
    new = (
        "Switched from Kirkby Plumbing to Aqua Fix Leeds for all plumbing work; "
        "Aqua Fix number is 0113 496 0388."
    )
    old = "Our plumber is Dave Kirkby at Kirkby Plumbing, 0113 496 0721."
    assert rewritten(("W", old), ("W", new)) == new


def test_a_swap_alone_is_still_put_right_in_the_list() -> None:
    old = "Our suppliers are Brakes, Bidfood and Kirkby Plumbing."
    assert rewritten(("W", old), ("W", "Switched from Bidfood to Booker.")) == (
        "Our suppliers are Brakes, Booker and Kirkby Plumbing."
    )


def test_a_provider_taken_on_with_makes_of_its_own_replaces_whole() -> None:
    new = (
        "Signed with Copyline Solutions today for the new printer lease: two Konica Minolta "
        "MFPs at £145 a month."
    )
    old = "Printer lease is with Apex Office Supplies: two Ricoh MFPs, one per floor."
    assert rewritten(("W", old), ("B", new)) == new
