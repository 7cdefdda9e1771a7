"""A logged call or email replaces no standing fact, and a change replaces the fact it changes
rather than a line of what happened.

Four weeks of an account manager's notes (an exploratory test): "Emailed Brightpath the case
study" retired "Brightpath billing email is accounts@…" (the learned last word read "emailed"
and "email" as one thing), and "Tom Becker has left Northwind; Priya Shah is taking over as our
main contact" replaced "Called Tom at Northwind to kick off the quarter" (the old value named:
"Tom") instead of "Northwind's main contact is Tom Becker", which stayed current beside it.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.core import notes

START = dt.datetime(2026, 11, 9, 9, 0)


def _current(ws: Path) -> list[str]:
    return [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text())]


def _days(ws: Path, days: list[list[tuple[str, str]]]) -> None:
    for d, day in enumerate(days):
        when = START + dt.timedelta(days=d)
        for k, (kind, text) in enumerate(day):
            micro_rest(text, kind, workspace=ws, when=when + dt.timedelta(minutes=10 * k))
        sleep_cycle(ws, provider="offline", now=when.replace(hour=22))


def test_a_logged_email_or_call_replaces_no_fact(ws: Path) -> None:
    facts = [
        "Halden Foods billing email is ap@haldenfoods.example.",
        "Kestrel Freight renewal deal stage is proposal sent.",
        "Orla Byrne is the main contact at Halden Foods.",
    ]
    _days(
        ws,
        [
            [("W", f) for f in facts],
            [("B", "Emailed Halden the onboarding checklist.")],
            [("B", "Emailed Kestrel the revised proposal.")],
            [("B", "Called Orla at Halden about the invoice run.")],
        ],
    )
    current = _current(ws)
    kept = current + [
        n.text for p in (ws / "bank").rglob("*.md") for n in notes.notes_in(p.read_text())
    ]
    for fact in facts:
        assert fact in kept, fact
    assert not any("superseded_by" in p.read_text() for p in (ws / "bank").rglob("*.md"))


def test_a_change_replaces_the_fact_not_the_line_of_a_call(ws: Path) -> None:
    fact = "Kestrel Freight's main contact is Ivo Marsh, their head of operations."
    _days(
        ws,
        [
            [("W", fact), ("B", "Called Ivo at Kestrel to kick off the quarter.")],
            [("W", "Ivo Marsh has left Kestrel; Dana Wolfe is taking over as our main contact.")],
        ],
    )
    assert fact not in _current(ws)
    history = "".join(p.read_text() for p in (ws / "bank").rglob("*.md"))
    assert "Kestrel Freight's main contact is Ivo Marsh" in history
