"""On a day that brings more facts than MEMORY.md takes, the ones a session must not miss go
there first: "Maya is allergic to penicillin." went to a bank page, short and so low on
information, while "Maya drives a 2015 Honda Civic." reached MEMORY.md (a six-week exploratory
test)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.core import notes

DAY = [
    "Maya lives in Portland, Oregon, in the Sellwood neighborhood.",
    "Maya's partner is Sam, an ER nurse at OHSU who works night shifts.",
    "Maya's son Leo is 7 and plays soccer; practice is Saturdays at 9am.",
    "Family dog is Biscuit, a 5 year old beagle mix.",
    "Maya's editor is VS Code with the Vim keybindings extension.",
    "Maya drives a 2015 Honda Civic.",
    "Maya is allergic to penicillin.",
]


def test_an_allergy_reaches_memory_on_a_busy_day(tmp_path: Path) -> None:
    day = dt.datetime(2026, 11, 7, 10, 11)
    for i, text in enumerate(DAY):
        micro_rest(text, "W", workspace=tmp_path, when=day + dt.timedelta(minutes=i))
    sleep_cycle(tmp_path, "both", "offline", now=day.replace(hour=22))
    memory = [n.text for n in notes.notes_in((tmp_path / "MEMORY.md").read_text())]
    assert "Maya is allergic to penicillin." in memory, memory
    assert len(memory) < len(DAY)  # the situation: the day brought more than MEMORY.md takes
