"""A value put right in place is a value of the kind it replaces: a number for a number.

An on-call rota's notes (an exploratory test): "Sam's next primary on-call week starts Dec 7;
Jonas is secondary", then "Swapped on-call weeks with Jonas: Sam's primary week now starts
Dec 14 and Jonas takes Dec 7". "Swapped on-call weeks with …" read as naming "on-call" the old
value, and the one new value, "14", was put in its place: MEMORY.md said "Sam's next primary
14 week starts Dec 7", a sentence no note said, with the old date kept. A number never takes a
word's place now; the note takes the place of the part it replaces.
"""

from __future__ import annotations

from agent_sleep.analysis import currency
from tests.currency_support import rewritten


def test_a_number_never_takes_a_words_place() -> None:
    old = "Sam's next primary on-call week starts Dec 7; Jonas is secondary."
    new = (
        "Swapped on-call weeks with Jonas: Sam's primary week now starts Dec 14 and Jonas "
        "takes Dec 7."
    )
    out = rewritten(("W", old), ("W", new))
    # the note takes the place of the part it replaces; no number stands for a word
    assert out is not None and out.startswith(new.rstrip(".")), out
    assert "primary 14 week" not in out


def test_no_word_is_put_right_with_a_number() -> None:
    old = "The weekly sync is on Zoom; notes go to Notion."
    assert currency.in_place("Moved the weekly sync from Zoom to 10:30.", old) is None
    # a word for a word is still put right
    assert currency.in_place("Moved the weekly sync from Zoom to Meet.", old) == (
        "The weekly sync is on Meet; notes go to Notion."
    )


def test_a_number_is_still_put_right_in_place() -> None:
    old = "payments-gateway runs locally on port 8443 and its Postgres on 5434."
    new = "Correction: the payments-gateway Postgres is on 5435, not 5434."
    assert currency.in_place(new, old) == (
        "payments-gateway runs locally on port 8443 and its Postgres on 5435."
    )
