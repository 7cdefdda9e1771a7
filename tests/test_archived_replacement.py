"""A replacement moved out of MEMORY.md to the archive page still replaces what it replaced.

When MEMORY.md is over its budget, sleep moves entries out to the archive page under a new id
(``was=<old id>``). The entry the moved one had replaced still named the old id, so recall
warned "names a missing replacement … (fix its metadata)" about metadata sleep itself wrote,
and showed the outdated entry as current, with no label (an exploratory test)."""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path

from agent_sleep import micro_rest, recall, sleep_cycle
from agent_sleep.core import notes

DAY = dt.datetime(2026, 11, 10, 9)


def _day(root: Path, n: int, text: str, budget: int = 8000) -> None:
    when = DAY + dt.timedelta(days=n)
    micro_rest(text, "W", workspace=root, when=when)
    sleep_cycle(root, "both", "offline", now=when.replace(hour=22), memory_budget_chars=budget)


def test_a_moved_out_replacement_still_outdates_the_old_entry(
    tmp_path: Path, caplog: logging.LogCaptureFixture
) -> None:
    _day(tmp_path, 0, "Team standup is at 9:30 every weekday.")
    _day(tmp_path, 1, "Standup moved to 10:15.")
    others = [
        "Main service is ledger-svc, a FastAPI app.",
        "Node version for the admin frontend is 20.",
        "CI runs on Jenkins.",
        "The VPN is Tailscale.",
        "The Postgres for ledger-svc is on 5433.",
        "Deploys happen on Tuesdays.",
    ]
    for n, text in enumerate(others, start=2):
        _day(tmp_path, n, text, budget=700)
    archive = (tmp_path / "bank" / "concepts" / "memory-archive.md").read_text()
    moved = [n for n in notes.notes_in(archive) if n.text == "Standup moved to 10:15."]
    assert moved and moved[0].meta.get("was")  # the situation: it left MEMORY.md, new id
    with caplog.at_level(logging.WARNING):
        hits = recall(tmp_path, "standup time", k=6)
    assert "missing replacement" not in caplog.text
    old = [h for h in hits if h.text == "W: Team standup is at 9:30 every weekday."]
    assert old, [h.text for h in hits]
    assert all(not h.current and h.superseded_by == "Standup moved to 10:15." for h in old)
