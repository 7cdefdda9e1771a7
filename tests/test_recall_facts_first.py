"""A fact first, where an event or a view of it ranks as high.

Four users replaying five weeks of notes found recall's first hit an event or a view that
named the thing asked about but not the answer: "Sam's swimming at Riverside, 4:30 lesson" (an
event) for "What day is Sam's swimming lesson?", above "Sam's swimming moved to Thursdays at
4:30pm"; "Jenna Park confirmed Orion phase one is 40 stores" for Jenna Park's phone number. A
fact (W) ranked just below the first hit, nearly as high, now comes first, unless the question
asks what happened. LoCoMo's notes are all events (B), so its figures are untouched.
"""

from __future__ import annotations

import pytest

from agent_sleep.retrieval import currency
from agent_sleep.retrieval.units import Unit


class _Index:
    def __init__(self, units: list[Unit]) -> None:
        self.units = units


def _units(*texts: str) -> _Index:
    return _Index([Unit("daily", "memory/2026-10-08.md", t, "2026-10-08") for t in texts])


EVENT = "B: Sam's swimming at Riverside, 4:30 lesson."
VIEW = "O: Sam loves his swimming teacher at Riverside."
FACT = "W: Sam's swimming moved to Thursdays at 4:30pm."
OTHER = "W: Lily's ballet is on Saturdays at 10am."


RECURS = "S: Sam keeps coming up: 3 notes across 2 days; MEMORY.md has 2 entries on it."


@pytest.mark.parametrize("first", [EVENT, VIEW, RECURS])
def test_a_fact_nearly_as_high_comes_first(first: str) -> None:
    index = _units(first, OTHER, FACT)
    ranked = [(1.0, 0), (0.95, 1), (0.9, 2)]
    out = currency.facts_first(index, ranked, "What day is Sam's swimming lesson?")  # type: ignore[arg-type]
    assert [row for _s, row in out] == [1, 0, 2]  # the first fact below it, OTHER here
    assert [s for s, _row in out] == [1.0, 0.95, 0.9]  # the scores still descend


def test_the_first_fact_within_reach_moves() -> None:
    index = _units(EVENT, FACT, OTHER)
    out = currency.facts_first(index, [(1.0, 0), (0.9, 1), (0.85, 2)], "Sam's swimming day?")  # type: ignore[arg-type]
    assert [row for _s, row in out] == [1, 0, 2]


@pytest.mark.parametrize(
    ("ranked", "query"),
    [
        # far below: the event is the better match
        ([(1.0, 0), (0.5, 1)], "What day is Sam's swimming lesson?"),
        # the question asks what happened
        ([(1.0, 0), (0.95, 1)], "When did Sam go swimming?"),
        ([(1.0, 0), (0.95, 1)], "Did Sam swim on Thursday?"),
        ([(1.0, 0), (0.95, 1)], "How much was the Okafor kitchen rewire quote?"),
        ([(1.0, 0), (0.95, 1)], "How many lengths did Sam swim?"),
    ],
)
def test_an_event_stays_first(ranked: list[tuple[float, int]], query: str) -> None:
    index = _units(EVENT, FACT)
    assert currency.facts_first(index, ranked, query) == ranked  # type: ignore[arg-type]


def test_a_fact_first_stays_and_nothing_past_the_depth_moves() -> None:
    assert currency.facts_first(_units(FACT, EVENT), [(1.0, 0), (0.9, 1)], "swimming?") == [  # type: ignore[arg-type]
        (1.0, 0),
        (0.9, 1),
    ]
    deep = _units(EVENT, VIEW, EVENT, VIEW, FACT)
    ranked = [(1.0, 0), (0.99, 1), (0.98, 2), (0.97, 3), (0.96, 4)]
    assert currency.facts_first(deep, ranked, "Sam's swimming day?") == ranked  # type: ignore[arg-type]


def test_the_type_is_read_from_the_prefix() -> None:
    """An entry's confidence goes with its type ("O(c=0.7): …"); a text that opens with a W
    but no type ("Walter …", a line written by hand) is no fact."""
    view = "O(c=0.7): Sam loves his swimming teacher at Riverside."
    moved = currency.facts_first(_units(view, FACT), [(1.0, 0), (0.9, 1)], "swimming day?")  # type: ignore[arg-type]
    assert [row for _s, row in moved] == [1, 0]
    bank = "Riverside Leisure — History\n- B: Sam's swimming at Riverside, 4:30 lesson."
    moved = currency.facts_first(_units(bank, FACT), [(1.0, 0), (0.9, 1)], "swimming day?")  # type: ignore[arg-type]
    assert [row for _s, row in moved] == [1, 0]  # a bank section's entry is read under its heading
    by_hand = _units(EVENT, "Walter says swimming moved to Thursdays.")
    assert currency.facts_first(by_hand, [(1.0, 0), (0.9, 1)], "swimming day?") == [  # type: ignore[arg-type]
        (1.0, 0),
        (0.9, 1),
    ]
