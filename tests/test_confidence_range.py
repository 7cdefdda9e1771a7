"""A model's confidence outside 0..1 is refused, not clamped: 1.7 became "O(c=1.0)", -0.3
"O(c=0.0)" and a REM update to 42 a certainty (an exploratory test of the model path)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep.consolidation.apply import Builder
from agent_sleep.consolidation.plan import Inputs
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from tests.fake_messages_api import QueueProvider
from tests.test_hostile_support import NOW, day


def _nrem(conf: float, nid: str) -> dict:
    item = {"action": "add", "type": "O", "confidence": conf, "replaces": "",
            "text": "User prefers tabs over spaces.", "sources": [nid]}  # fmt: skip
    return {"memory_md_updates": [item], "bank_updates": [], "pruned_count": 0,
            "weakly_learned": [], "open_questions": []}  # fmt: skip


@pytest.mark.parametrize("conf", [1.7, -0.3, 42])
def test_an_out_of_range_confidence_is_refused(ws: Path, conf: float) -> None:
    nid = micro_rest("User prefers tabs over spaces.", "O", workspace=ws, when=day(0),
                     confidence=0.7)  # fmt: skip
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem(conf, nid)), now=NOW)
    assert r.dropped.get("bad_confidence") == 1
    memory = ws / "MEMORY.md"
    assert not memory.exists() or not notes.notes_in(memory.read_text())


@pytest.mark.parametrize("conf", [0.3, 0.55, 1.0, 0])
def test_a_confidence_in_range_is_kept(ws: Path, conf: float) -> None:
    nid = micro_rest("User prefers tabs over spaces.", "O", workspace=ws, when=day(0),
                     confidence=0.7)  # fmt: skip
    sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem(conf, nid)), now=NOW)
    (entry,) = notes.notes_in((ws / "MEMORY.md").read_text())
    assert entry.confidence == conf


def test_a_rem_update_out_of_range_is_refused(tmp_path: Path) -> None:
    ws = Workspace.at(tmp_path / "ws")
    memory = (
        "## Preferences\n\n- O(c=0.8): User likes tea <!-- id=m000000000 sources=a000000000 -->\n"
    )
    inputs = Inputs(
        note_dates={"n000000000": "2026-03-10"},
        note_types={"n000000000": "O"},
        memory_ids=frozenset({"m000000000"}),
        cited=frozenset(),
        dream_texts=frozenset(),
    )
    b = Builder(ws, {ws.memory_md: memory}.get, inputs, today=dt.date(2026, 3, 10),
                now="22:00", budget=8000)  # fmt: skip
    item = {"item": "m000000000", "old_c": 0.8, "new_c": 42, "reason": "",
            "sources": ["n000000000"]}  # fmt: skip
    b.rem({"aha_moments": [], "creative_connections": [], "confidence_updates": [item],
           "new_bank_suggestions": [], "next_session_actions": []})  # fmt: skip
    plan = b.finish(None)
    assert plan.dropped["bad_confidence"] == 1
    assert ws.memory_md not in plan.texts  # MEMORY.md unchanged
