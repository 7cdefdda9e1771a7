"""A unit written with the micro sign ("µL", "µg") is one word.

A lab's notes (an exploratory test): "Lipofectamine 3000 at 1.5 µL per well" stayed current
beside "Lipofectamine dropped to 1 µL per well from now on", while the same two notes in
"uL" or "ml" were read as one changed amount. The micro sign opened no word, so "µL" was
read as "L", a word too short to say what two notes share.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import claims
from tests.currency_support import replaces


@pytest.mark.parametrize("unit", ["µL", "μL", "uL", "ml"])  # micro sign, Greek mu, ASCII
def test_a_new_amount_in_any_unit_replaces_the_old(unit: str) -> None:
    old = f"Transfection: Lipofectamine 3000 at 1.5 {unit} per well in 24-well plates."
    assert replaces(("W", old), ("W", f"Lipofectamine dropped to 1 {unit} per well from now on."))


def test_the_micro_sign_opens_a_word() -> None:
    assert "µL" in claims.tokens("1.5 µL per well")
    # an amount of another reagent in the same unit is another thing
    old = "Transfection: Lipofectamine 3000 at 1.5 µL per well in 24-well plates."
    assert not replaces(("W", old), ("W", "Puromycin selection uses 2 µg/mL for 48 hours."))
