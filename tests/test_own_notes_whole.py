"""A short note the agent wrote itself reaches memory whole: condensing, meant for chat turns,
cut "Fixed the flaky test_settlement test in ledger-svc; it was a timezone issue." to its first
clause, and "Leo's Sunday practice went well; he scored twice." to "… went well." (a six-week
exploratory test). Chat turns are still condensed."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.core import notes

OWN = [
    "Fixed the flaky test_settlement test in ledger-svc; it was a timezone issue.",
    "La mamá de Maya llega el 20 de diciembre; Maya quiere cocinar jollof para la cena.",
    "Leo's Sunday practice went well; he scored twice.",
]


def _texts(root: Path) -> list[str]:
    out = [n.text for n in notes.notes_in((root / "MEMORY.md").read_text())]
    for page in sorted((root / "bank").rglob("*.md")):
        out += [n.text for n in notes.notes_in(page.read_text())]
    return out


def test_short_notes_of_the_agent_are_kept_whole(tmp_path: Path) -> None:
    day = dt.datetime(2026, 11, 18, 11)
    for i, text in enumerate(OWN):
        micro_rest(text, "B", workspace=tmp_path, when=day + dt.timedelta(hours=i))
    sleep_cycle(tmp_path, "both", "offline", now=day.replace(hour=22))
    texts = _texts(tmp_path)
    undated = [re.sub(r" \(\d{4}-\d{2}-\d{2}\)", "", t) for t in texts]  # dates sleep adds
    for text in OWN:
        assert any(text.rstrip(".") in t for t in undated), (text, texts)
    assert any("Leo's Sunday (2026-11-15) practice" in t for t in texts), texts  # the Sunday before


def test_a_chat_turn_is_still_condensed(tmp_path: Path) -> None:
    turn = (
        "Caroline: Oh wow, thanks so much! I went to the LGBTQ support group yesterday and it "
        "was so powerful, honestly, I cried a bit, and then we all got coffee after, which "
        "was lovely, and I think I will keep going every week from now on."
    )
    day = dt.datetime(2026, 11, 18, 11)
    micro_rest(turn, "B", workspace=tmp_path, when=day)
    sleep_cycle(tmp_path, "both", "offline", now=day.replace(hour=22))
    texts = _texts(tmp_path)
    assert texts and all(len(t) < len(turn) for t in texts), texts
