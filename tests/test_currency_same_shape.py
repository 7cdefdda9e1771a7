"""Two things told in one sentence shape stay two; one thing's new value is read however said.

A product manager's notes (an exploratory test): "Notion is on the Team plan, renewed on 1 March,
owned by the ops group" and "Zoom is on the Team plan, renewed on 2 March, owned by the ops
group", written the same day, became one entry: "Notion … renewed on 2 March", a sentence no
note said, and Zoom was gone. "Owned by the ops group" said of both read as a handover of one
thing, and the date was put right in Notion's entry though the note named Zoom. A relocating
family's notes: "Cotham Vets moved Biscuit's AHC appointment to 19 November" retired the town
hall appointment, read as alike; and "Priya's mobile is +31 6 4827 1190" did not replace
"Priya's mobile: +44 7700 900123".
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import currency
from tests.currency_support import replaces, rewritten


def test_two_things_one_holder_holds_stay_two() -> None:
    old = "Notion is on the Team plan, renewed on 1 March, owned by the ops group."
    new = "Zoom is on the Team plan, renewed on 2 March, owned by the ops group."
    assert currency.in_place(new, old) is None
    assert rewritten(("W", old), ("W", new)) is None
    # a handover of one thing is still read
    assert replaces(("W", "Maria owns the billing service."),
                    ("W", "The billing service is now owned by Dev."))  # fmt: skip


def test_two_appointments_told_alike_stay_two() -> None:
    old = (
        "Gemeente Utrecht registration (BRP inschrijving) appointment for all four of us: "
        "24 November, 13:30, Stadskantoor."
    )
    assert not replaces(("W", old), ("W", "Cotham Vets moved Biscuit's AHC appointment to 19 "
                                           "November, 16:00."))  # fmt: skip


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Priya's mobile: +44 7700 900123.", "Priya's mobile is +31 6 4827 1190 (Lebara)."),
        # a name as the new value is still read
        ("Rental car pickup is at Reykjavik airport, Hertz desk.",
         "The rental car pickup has been changed to the Budget office downtown."),
    ],
)  # fmt: skip
def test_one_things_new_value(old: str, new: str) -> None:
    assert replaces(("W", old), ("W", new))


def test_a_new_one_beside_the_one_still_named_replaces_no_one() -> None:
    """A product manager's notes: "Lunch with Lena and Sara Okafor, the new designer who joined
    this week" retired the team's roster ("… Lena Fischer is the designer"). The note names
    Lena too: Sara is a designer beside her. "Ms. Brandt, her new piano teacher" still replaces
    Mr. Okonkwo, whom the note does not name."""
    old = (
        "Team Beacon (growth) is led by Kofi Mensah; Aisha Bello is the engineer and Lena "
        "Fischer is the designer."
    )
    new = "Lunch with Lena and Sara Okafor, the new designer who joined this week."
    assert rewritten(("W", old), ("B", new)) is None
    lesson = "Sofia had her first lesson with Ms. Brandt, her new piano teacher."
    assert replaces(("W", "Sofia's piano teacher is Mr. Okonkwo."), ("B", lesson))
