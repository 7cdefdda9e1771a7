"""Two patients on one drug are two facts.

A vet practice's notes: "Daisy (Cavalier, Mrs Lowe) has MVD and is on Vetmedin 2.5 mg twice
daily" put Rocky's entry "right" ("… is on Vetmedin 2.5 mg twice daily"): "Vetmedin 5" read as a
version of Vetmedin, and Daisy left MEMORY.md. A dose is an amount measured in a unit, not a
version, and two notes naming different animals or people told alike are not one thing's new
value. A new dose for the same patient still replaces the old one.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import currency
from tests.currency_support import replaces, rewritten

ROCKY = "Rocky (Boxer, Mr Greaves) has DCM and is on Vetmedin 5 mg twice daily."


@pytest.mark.parametrize(
    "new",
    [
        "Daisy (Cavalier, Mrs Lowe) has MVD and is on Vetmedin 2.5 mg twice daily.",
        "Daisy has MVD and is on Vetmedin 2.5 mg twice daily.",
    ],
)
def test_another_patients_dose_leaves_the_entry(new: str) -> None:
    assert rewritten(("W", ROCKY), ("W", new)) is None


def test_a_dose_is_no_version() -> None:
    assert currency._versions("Rocky is on Vetmedin 5 mg twice daily.") == {}
    assert currency._versions("The API runs on Python 3.11.") == {"python": frozenset({"3.11"})}


def test_the_same_patients_new_dose_replaces() -> None:
    assert replaces(("W", ROCKY), ("W", "Rocky's Vetmedin dose is now 7.5 mg twice daily."))
