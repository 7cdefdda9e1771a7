"""The session-start context says when MEMORY.md may be out of date: a small MEMORY.md takes
several sleeps to catch up with many changes (the removal cap lets a run change a quarter of
its entries), and until then its entries showed the old values with nothing to say so."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from agent_sleep import get_context, micro_rest, rollback, sleep_cycle
from agent_sleep.core import storage
from agent_sleep.core.workspace import JOURNAL, Workspace

OLD = [
    "Carol works at Siemens.",
    "The staging database listens on port 5432.",
    "Our standup is at 9:30.",
    "The deploy target is eu-west-1.",
]
NEW = [
    "Carol now works at Airbus.",
    "The staging database now listens on port 5433.",
    "Our standup moved to 10:15.",
    "The deploy target is now eu-central-1.",
]


def _at(day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, 4, day, hour, minute)


def _held(ws: Path) -> bool:
    return "held back the changes of" in get_context(ws)


def test_the_context_says_changes_wait_until_the_cap_lets_them_through(tmp_path: Path) -> None:
    for i, text in enumerate(OLD):
        micro_rest(text, "W", workspace=tmp_path, when=_at(1, 9, i))
    assert sleep_cycle(tmp_path, "both", "offline", now=_at(1, 22)).deferred == 0
    assert not _held(tmp_path)
    for i, text in enumerate(NEW):
        micro_rest(text, "W", workspace=tmp_path, when=_at(2, 9, i))
    first = sleep_cycle(tmp_path, "both", "offline", now=_at(2, 22))
    assert first.deferred == 3
    context = get_context(tmp_path)
    assert "held back the changes of 3 notes" in context
    assert "Our standup is at 9:30." in context  # the stale entry the line warns of
    # the context as of another day says nothing of the last sleep
    assert "held back" not in get_context(tmp_path, today=dt.date(2026, 4, 2))
    runs = 1
    while sleep_cycle(tmp_path, "both", "offline", now=_at(2, 22, runs)).deferred:
        runs += 1  # each run lets one more change through
        assert _held(tmp_path) and runs < 6
    assert not _held(tmp_path)
    memory = (tmp_path / "MEMORY.md").read_text()
    assert all(text not in memory for text in OLD[1:])


def test_a_rollback_after_the_capped_run_clears_the_line(tmp_path: Path) -> None:
    for i, text in enumerate(OLD):
        micro_rest(text, "W", workspace=tmp_path, when=_at(1, 9, i))
    sleep_cycle(tmp_path, "both", "offline", now=_at(1, 22))
    for i, text in enumerate(NEW):
        micro_rest(text, "W", workspace=tmp_path, when=_at(2, 9, i))
    assert sleep_cycle(tmp_path, "both", "offline", now=_at(2, 22)).deferred
    assert _held(tmp_path)
    rollback(tmp_path)
    assert not _held(tmp_path)


def test_the_last_event_is_read_from_the_end_past_other_lines(tmp_path: Path) -> None:
    ws = Workspace.at(tmp_path)
    ws.state_dir.mkdir(parents=True)
    lines = [{"event": "sleep", "deferred": 1, "n": 0}, {"event": "sleep", "deferred": 2, "n": 1}]
    lines += [{"event": "hook", "pad": "x" * 500, "n": i} for i in range(400)]  # > 3 blocks
    text = "\n".join(json.dumps(e) for e in lines) + "\n{damaged\n[1, 2]\n"
    path = ws.state_dir / JOURNAL
    path.write_text(text)
    found = storage.last_event(path, ("sleep", "rollback"))
    assert found is not None and found["n"] == 1
    assert storage.last_event(path, ("rollback",)) is None
    assert storage.last_event(path, ("sleep",), limit=1 << 16) is None  # not read that far back
    assert storage.last_event(tmp_path / "none" / JOURNAL, ("sleep",)) is None
