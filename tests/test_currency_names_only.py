"""Two notes that share nothing but who they are about are no update.

"Happy hour tonight; Jordan is skipping it for Leo's soccer game." replaced "Jordan is in US
Eastern time", and "Weekend check-in: Jordan asked for the k8s upgrade plan" replaced "Jordan
is vegetarian": the learned last word read the name they share as a subject said twice (an
exploratory test of five weeks of notes). A name written capitalised past a sentence's start
is who a note is about; sharing only that, the two notes both stand. A note that marks the
name as the value replaced still replaces ("handed the pager from Ravi to Beth"), and a name
opening both notes is not read as one ("Olusegun went fully vegan" replaces "Olusegun is
vegetarian").
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.core import notes

DAY1 = dt.datetime(2026, 11, 2, 9, 0)
DAY2 = dt.datetime(2026, 11, 3, 9, 0)
CONTEXT = [  # notes that make the names the run's names
    "Leo has soccer on Saturdays with the Rangers.",
    "Lunch with Priya and Jordan went long.",
]


def _current(ws: Path) -> list[str]:
    return [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text())]


def _two_days(ws: Path, old: str, new: str) -> list[str]:
    for text in [*CONTEXT, old]:
        micro_rest(text, "W", workspace=ws, when=DAY1)
    sleep_cycle(ws, provider="offline", now=DAY1.replace(hour=22))
    micro_rest(new, "B", workspace=ws, when=DAY2)
    sleep_cycle(ws, provider="offline", now=DAY2.replace(hour=22))
    return _current(ws)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Jordan is in US Eastern time (America/New_York).",
         "Happy hour tonight; Jordan is skipping it for Leo's soccer game."),
        ("Jordan is vegetarian; team lunch orders should be veggie.",
         "Weekend check-in: Jordan asked for the k8s upgrade plan for the deadline."),
    ],
)  # fmt: skip
def test_a_note_sharing_only_a_name_replaces_nothing(ws: Path, old: str, new: str) -> None:
    current = _two_days(ws, old, new)
    assert old in current, current
    pages = [p.read_text() for p in (ws / "bank").rglob("*.md")]
    assert not [p for p in pages if "superseded_by=" in p], pages  # nothing replaced


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Ravi is on call this week.", "Handed the on-call pager from Ravi to Beth."),
        ("Olusegun is vegetarian.", "Olusegun went fully vegan in March."),
    ],
)
def test_a_change_of_who_or_of_what_a_name_opens_still_replaces(
    ws: Path, old: str, new: str
) -> None:
    current = _two_days(ws, old, new)
    assert old not in current, current


def test_a_name_is_not_replaced_by_a_diet(ws: Path) -> None:
    # read only as alike, "Jordan is vegetarian; …" replaced the note with his name and
    # pronouns (an exploratory test); a diet replaces a diet ("went fully vegan", above)
    old = "First session with Jordan Reyes. He leads the platform team. Pronouns he/him."
    new = "Jordan is vegetarian; team lunch orders should be veggie and peanut-free."
    for text in CONTEXT:
        micro_rest(text, "W", workspace=ws, when=DAY1)
    micro_rest(old, "B", workspace=ws, when=DAY1)
    sleep_cycle(ws, provider="offline", now=DAY1.replace(hour=22))
    micro_rest(new, "W", workspace=ws, when=DAY2)
    sleep_cycle(ws, provider="offline", now=DAY2.replace(hour=22))
    current = _current(ws)
    assert old in current and new in current, current


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Jordan uses Neovim; give him vim-friendly snippets.",
         "Thanksgiving week, Jordan is off Thursday."),
        ("The staging database is Postgres.", "The staging database is down until Friday."),
    ],
)  # fmt: skip
def test_a_day_is_no_new_value_of_a_thing(old: str, new: str) -> None:
    """A weekday, a time or a month on one side only is no new value of what the other says:
    "Jordan is off Thursday" replaced "Jordan uses Neovim" (both read as "be" with one word)."""
    from agent_sleep.analysis import currency

    assert currency.relation(new, old, frozenset({"Jordan"})).kind != currency.SUPERSEDE


def test_a_new_day_still_replaces_a_day() -> None:
    from agent_sleep.analysis import currency

    v = currency.relation("Weekly sync is Wednesdays at 14:00.", "Weekly sync is Mondays at 11.")
    assert v.kind == currency.SUPERSEDE, v
