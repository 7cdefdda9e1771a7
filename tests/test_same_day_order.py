"""Sleep reads a day's notes in the order they were taken, not the order they sit in the log:
``rest --when`` appends, so a change told at 10:00 and written after one told at 15:00 used to
replace it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.consolidation.snapshot import DayNote, in_time_order
from agent_sleep.core import notes

DAY1 = dt.datetime(2026, 10, 1, 8)
DAY2 = dt.datetime(2026, 10, 8)


def _current(ws: Path) -> list[str]:
    out = []
    for path in [ws / "MEMORY.md", *sorted((ws / "bank").rglob("*.md"))]:
        out += [n.text for n in notes.notes_in(path.read_text()) if not n.meta.get("superseded_by")]
    return out


def test_the_change_told_last_in_the_day_stands(tmp_path: Path) -> None:
    for i in range(1, 9):
        micro_rest(f"Server host{i} runs Ubuntu 22.04 in rack R{i}.", "W", workspace=tmp_path,
                   when=DAY1.replace(minute=10 + i))  # fmt: skip
    micro_rest("Alice lives in Berlin.", "W", workspace=tmp_path, when=DAY1.replace(hour=9))
    sleep_cycle(tmp_path, "both", "offline", now=DAY1.replace(hour=22))
    micro_rest("Alice moved to Lisbon.", "W", workspace=tmp_path, when=DAY2.replace(hour=15))
    micro_rest("Alice moved to Munich.", "W", workspace=tmp_path, when=DAY2.replace(hour=10))
    log = (tmp_path / "memory" / "2026-10-08.md").read_text()
    assert log.index("Lisbon") < log.index("Munich")  # the log keeps the order of writing
    sleep_cycle(tmp_path, "both", "offline", now=DAY2.replace(hour=22))
    current = [t for t in _current(tmp_path) if "Alice" in t]
    assert "Alice moved to Lisbon." in current
    assert "Alice moved to Munich." not in current and "Alice lives in Berlin." not in current


def _n(i: str, time: str) -> DayNote:
    return DayNote(i, "2026-10-08", time, "W", None, f"note {i}")


def test_time_order_keeps_untimed_notes_after_the_one_before() -> None:
    day = [_n("a", "15:00"), _n("b", ""), _n("c", "10:00"), _n("d", "10:00"), _n("e", "")]
    assert [n.id for n in in_time_order(day)] == ["c", "d", "e", "a", "b"]
    assert [n.id for n in in_time_order([_n("x", ""), _n("y", "")])] == ["x", "y"]
