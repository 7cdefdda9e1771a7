"""A model's item must take its numbers and names from what it cites.

A small local model "updated" an entry about CI into "The payments API is written in Go",
citing only other notes, and sleep wrote it: nothing checked an item's text against the notes
it cites (an exploratory test of the model path). Now a number, version or identifier must be
in the notes it cites (as the model read them, with their dates) or the entry it rewrites, and
a name there or in anything the model was shown; else the item is refused
(``unsupported_value``) and its note stays pending.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.analysis import grounding
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core.rest import micro_rest
from tests.fake_messages_api import QueueProvider
from tests.test_hostile_support import NOW, TODAY, nrem_answer


@pytest.mark.parametrize(
    ("text", "cited", "names", "missing"),
    [
        ("Maya prefers tea over coffee.", ["I prefer tea over coffee."], ["Maya"], []),
        ("Leo is 8 now.", ["Leo turned eight yesterday (2026-11-20)."], ["Leo"], []),
        ("Rent is $2,100 from December (2026-12).",
         ["rent is 2100 dollars from December (2026-12)"], [], []),
        ("trailmap is on Axum 0.8.", ["trailmap is now on Axum v0.8"], [], []),
        ("The staging DB has 5GB of disk.", ["staging db: 5 GB disk"], [], []),
        ("Migration due 2026-12-11.", ["migration deadline Dec 11", "2026-11-20"], [], []),
        ("The new key is [REDACTED:anthropic-key].", ["Rotated the deploy key"], [], []),
        # values no cited text holds
        ("The payments API is written in Go 1.22.", ["The CI runner moved to a bigger box."], [],
         ["API", "Go", "1.22"]),
        ("Standup is at 10:45.", ["Standup moved to 10:15."], [], ["10:45"]),
        ("Billing is owned by Priya.", ["Billing has a new owner."], ["Dev"], ["Priya"]),
        # a sentence's first word is not read as a name (it may be any word)
        ("Priya owns billing.", ["Billing has a new owner."], ["Dev"], []),
    ],
)  # fmt: skip
def test_unsupported_values(
    text: str, cited: list[str], names: list[str], missing: list[str]
) -> None:
    shown = grounding.support_of(names)
    assert grounding.unsupported(text, grounding.support_of(cited), shown) == missing


_nrem = nrem_answer


def _item(action: str, text: str, sources: list[str], replaces: str = "") -> dict[str, Any]:
    return {"action": action, "type": "W", "confidence": 0.9, "text": text,
            "replaces": replaces, "sources": sources}  # fmt: skip


def _entries(ws: Path) -> list[str]:
    return [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text()) if n.id]


def test_an_item_with_values_its_notes_never_say_is_refused_and_its_note_waits(ws: Path) -> None:
    at = dt.datetime.combine(TODAY, dt.time(9, 0))
    ci = micro_rest("The CI runner moved to a bigger box.", "W", workspace=ws, when=at)
    tea = micro_rest("I prefer tea over coffee.", "O", workspace=ws, when=at, confidence=0.8)
    made_up = _item("add", "The payments API is written in Go 1.22.", [ci])
    fine = _item("add", "Maya prefers tea over coffee.", [tea])
    (ws / "MEMORY.md").write_text(
        (ws / "MEMORY.md").read_text() + "- W: Maya is the user. <!-- id=maya000000 -->\n"
    )
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem([made_up, fine])), now=NOW)
    assert r.dropped.get("unsupported_value") == 1, r.dropped
    assert "Maya prefers tea over coffee." in _entries(ws)  # a name it was shown: fine
    assert not [t for t in _entries(ws) if "Go 1.22" in t]
    assert r.unapplied == 1 and r.pending_left == 1  # the CI note waits for the next run
    # the next run, answered from the note, lands
    again = _item("add", "The CI runner moved to a bigger box.", [ci])
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem([again])), now=NOW)
    assert not r.dropped and r.pending_left == 0
    assert "The CI runner moved to a bigger box." in _entries(ws)


def test_a_supersede_may_keep_the_values_of_the_entry_it_rewrites(ws: Path) -> None:
    at = dt.datetime.combine(TODAY, dt.time(9, 0))
    old = micro_rest("payments-gateway runs on port 8443 with Postgres on 5434.", "W",
                     workspace=ws, when=at - dt.timedelta(days=1))  # fmt: skip
    sleep_cycle(ws, "nrem", "offline", now=NOW - dt.timedelta(days=1))
    [entry] = [
        n
        for n in notes.notes_in((ws / "MEMORY.md").read_text())
        if old in n.meta.get("sources", "")
    ]
    fix = micro_rest("Correction: its Postgres is on 5435.", "W", workspace=ws, when=at)
    item = _item(
        "supersede", "payments-gateway runs on port 8443 with Postgres on 5435.", [fix], entry.id
    )
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem([item])), now=NOW)
    assert not r.dropped.get("unsupported_value"), r.dropped
    assert "payments-gateway runs on port 8443 with Postgres on 5435." in _entries(ws)
