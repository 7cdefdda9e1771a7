"""The same notes give the same MEMORY.md, whatever ids they were written under.

Two replays of one scenario's notes (a carer's five weeks) gave MEMORY.md files that differed
by one entry: over the size budget, entries of one day were ranked by age with their random
ids as the tie-break, so which of them moved out changed from run to run, and with it what
REM connected and what recall ranked first. Entries of one day now rank by their place in
MEMORY.md.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core.notes import ID_ALPHABET, ID_LENGTH

PEOPLE = [
    "Alice Moreau",
    "Bram de Vries",
    "Chidi Okeke",
    "Dana Whitfield",
    "Emil Novak",
    "Farah Siddiqui",
    "Gus Lindqvist",
    "Hana Kobayashi",
    "Ines Carvalho",
    "Jonah Pryce",
    "Kemal Arslan",
    "Lotte Jansen",
    "Mira Kowalczyk",
    "Nils Berg",
    "Orla Quinn",
]
THINGS = ["plays the cello", "keeps bees", "collects stamps", "rows on Sundays", "grows orchids"]


def _id(k: int, descending: bool) -> str:
    n = 10_000 - k if descending else k
    digits = []
    for _ in range(ID_LENGTH):
        n, r = divmod(n, len(ID_ALPHABET))
        digits.append(ID_ALPHABET[r])
    return "".join(reversed(digits))


def _replay(ws: Path, descending: bool, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    k = 0
    made = iter(range(1, 1000))  # the ids micro_rest gives, in one order or the other
    monkeypatch.setattr(notes, "new_id", lambda: _id(next(made), descending))
    for day in range(2, 5):
        for j in range(5):  # five standing facts a day, each about someone else
            k += 1
            text = f"{PEOPLE[k - 1]} {THINGS[j]}."
            micro_rest(text, "W", workspace=ws, when=dt.datetime(2026, 11, day, 9, k))
        sleep_cycle(ws, provider="offline", now=dt.datetime(2026, 11, day, 18),
                    memory_budget_chars=600)  # fmt: skip
    memory = (ws / "MEMORY.md").read_text(encoding="utf-8")
    return [re.sub(r"\s*<!--.*?-->", "", line) for line in memory.splitlines()]


def test_ids_in_another_order_give_the_same_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = _replay(tmp_path / "one", False, monkeypatch)
    two = _replay(tmp_path / "two", True, monkeypatch)
    assert "memory_evicted" in (tmp_path / "one" / ".agent-sleep" / "journal.jsonl").read_text()
    assert one == two


def test_the_first_line_of_a_day_is_not_the_first_to_go_for_being_first(tmp_path: Path) -> None:
    """Over the budget, entries of one day rank by what they tell: the wedding's day and venue,
    written first that morning, outlasts the lines that tell less written after it (it was the
    first entry moved out, for being first of its day)."""
    ws = tmp_path / "ws"
    wedding = (
        "Priya Shah and Daniel Okafor's wedding is on Saturday 21 November 2026 at Hollins Barn."
    )
    things = ["florist", "cake", "barn", "band", "menu", "garden", "dress", "car", "venue"]
    for k, text in enumerate([wedding] + [f"The {w} is lovely." for w in things]):
        micro_rest(text, "W", workspace=ws, when=dt.datetime(2026, 9, 7, 9, k))
    sleep_cycle(ws, provider="offline", now=dt.datetime(2026, 9, 7, 18))
    for k in range(4):
        text = f"{PEOPLE[k]} {THINGS[k]}."
        micro_rest(text, "W", workspace=ws, when=dt.datetime(2026, 9, 8, 9, k))
    sleep_cycle(ws, provider="offline", now=dt.datetime(2026, 9, 8, 18), memory_budget_chars=600)
    memory = (ws / "MEMORY.md").read_text(encoding="utf-8")
    assert "The venue is lovely." not in memory  # room was made among that day's entries
    assert wedding in memory
