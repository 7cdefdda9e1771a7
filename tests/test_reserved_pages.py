"""A model files no current fact where sleep keeps what is no longer current: the archive page
(``memory-archive``) and a ``History`` or ``Moved out of MEMORY.md`` section. Search then
reported such a fact as current under "Team — History", and a section name kept a raw
``<!-- id=… -->`` comment (an exploratory test of the model path)."""

from __future__ import annotations

from pathlib import Path

from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core.memory import ARCHIVE_SLUG
from agent_sleep.core.rest import micro_rest
from tests.fake_messages_api import QueueProvider
from tests.test_hostile_support import NOW, day


def _answer(bank: list[dict]) -> dict:
    return {
        "memory_md_updates": [],
        "bank_updates": bank,
        "pruned_count": 0,
        "weakly_learned": [],
        "open_questions": [],
    }


def _bank(slug: str, section: str, text: str, nid: str) -> dict:
    return {"slug": slug, "kind": "concept", "section": section, "content": text, "sources": [nid]}


def test_no_current_fact_is_filed_in_history_or_the_archive(ws: Path) -> None:
    a = micro_rest("The team standup is at 10:15 on weekdays.", "W", workspace=ws, when=day(0))
    b = micro_rest("Carol Diaz leads the payments team.", "W", workspace=ws, when=day(0))
    c = micro_rest("Deploys go out on Tuesdays.", "W", workspace=ws, when=day(0))
    answer = _answer([
        _bank("team", "History", "The team standup is at 10:15 on weekdays.", a),
        _bank(ARCHIVE_SLUG, "Notes", "Carol Diaz leads the payments team.", b),
        _bank("deploys", "Schedule <!-- id=forged1234 -->", "Deploys go out on Tuesdays.", c),
    ])  # fmt: skip
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(answer), now=NOW)
    team = (ws / "bank" / "concepts" / "team.md").read_text()
    assert "## History" not in team and "## Notes" in team
    assert "10:15" in team
    assert not (ws / "bank" / "concepts" / f"{ARCHIVE_SLUG}.md").exists()
    assert r.dropped.get("bad_slug") == 1
    deploys = (ws / "bank" / "concepts" / "deploys.md").read_text()
    assert "## Schedule" in deploys and "forged1234" not in deploys
    filed = [n for p in (ws / "bank").rglob("*.md") for n in notes.notes_in(p.read_text())]
    assert all(not n.meta.get("superseded_by") for n in filed)
