"""An archived entry says again the note it came from: recall shows the two once, not as two
hits of one budget ("W: The API runs on port 5000" from the log, and "Memory Archive —
History / - W: The API runs on port 5000" from the archive)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from agent_sleep import micro_rest, recall, sleep_cycle

FILLER = ["Deploys happen on Fridays", "The team uses Slack for chat", "Staging is in eu-west-1"]


def test_an_archived_entry_and_its_note_are_one_hit(tmp_path: Path) -> None:
    ws = tmp_path / "w"
    day = dt.datetime(2026, 3, 1, 10)
    for text in ["The API runs on port 5000", *FILLER]:
        micro_rest(text, "W", workspace=ws, when=day)
    sleep_cycle(ws, provider="offline", now=day.replace(hour=22))
    for k, port in enumerate((8080, 9090), start=1):
        when = day + dt.timedelta(days=k)
        micro_rest(f"We moved the API to port {port}", "W", workspace=ws, when=when)
        sleep_cycle(ws, provider="offline", now=when.replace(hour=22))
    archived = [
        p for p in (ws / "bank").rglob("*.md") if "The API runs on port 5000" in p.read_text()
    ]
    assert archived, "the old value is filed in History"
    hits = recall(ws, "The API runs on port", k=10)
    old = [h for h in hits if h.text.endswith("W: The API runs on port 5000")]
    assert len(old) == 1, [h.text for h in hits]
    assert not old[0].current and old[0].superseded_by == "We moved the API to port 9090"
    assert len(old[0].sources) == 2  # the note and its archived entry
