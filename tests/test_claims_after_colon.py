"""What follows a colon after a clause is a sentence of its own.

A product manager's notes (an exploratory test): "Dark mode is back in 4.2: Ji-woo found the
theming work is mostly done" was read as one clause whose values were "4.2" and "Ji-woo", and
it retired "Loomboard 4.2 slipped: it now ships July 29" (both "work" and "4.2"), while "Dark
mode is cut from 4.2" stayed. A colon after a clause with a verb now opens a sentence; a
label's colon ("Favourite restaurant these days: Kin Khao") is left as it was.
"""

from __future__ import annotations

from agent_sleep.analysis import claims
from tests.currency_support import replaces


def test_a_colon_after_a_clause_opens_a_sentence() -> None:
    text = "Dark mode is back in 4.2: Ji-woo found the theming work is mostly done."
    assert claims._after_colon(text) == [
        "Dark mode is back in 4.2",
        "Ji-woo found the theming work is mostly done.",
    ]
    label = "Favourite restaurant these days: Kin Khao on Elm Street."
    assert claims._after_colon(label) == [label]


def test_the_reason_after_the_colon_retires_nothing_else() -> None:
    old = "Loomboard 4.2 slipped: it now ships July 29, since the SSO work needs two more weeks."
    new = "Dark mode is back in 4.2: Ji-woo found the theming work is mostly done."
    assert not replaces(("W", old), ("W", new))
    assert replaces(("W", "Dark mode is cut from 4.2 to protect the date."), ("W", new))
