"""Offline sleep merges a fact said again with a possessive or a full stop, and keeps apart
what differs in a value; a new bank page's overview says each sentence once."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from agent_sleep.analysis.currency import values_differ
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes as fmt
from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace

DAY = dt.datetime(2026, 11, 24, 9, 20)


def _entries(ws: Path) -> list[fmt.Note]:
    return list(fmt.notes_in(Workspace.at(ws).memory_md.read_text()))


def test_a_full_stop_after_a_number_is_no_other_value() -> None:
    assert not values_differ("Redis default port is 6379", "Redis's default port is 6379.")
    assert not values_differ("We run Python 3.12.", "We run Python 3.12")
    assert values_differ("Redis default port is 6379", "Redis's default port is 6380.")
    assert values_differ("We run Python 3.12.", "We run Python 3.11")
    assert values_differ("Redis default port is 6379", "Valkey default port is 6379.")


def test_the_same_fact_said_three_ways_is_one_entry(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    said = ["Redis default port is 6379", "Redis default port is 6379",
            "Redis's default port is 6379."]  # fmt: skip
    ids = [micro_rest(t, "W", workspace=ws, when=DAY + dt.timedelta(minutes=i))
           for i, t in enumerate(said)]  # fmt: skip
    sleep_cycle(ws, provider="offline", now=DAY.replace(hour=22))
    about = [n for n in _entries(ws) if "6379" in n.text]
    assert len(about) == 1, [n.text for n in about]
    assert set(about[0].meta["sources"].split(",")) == set(ids)
    page = (Workspace.at(ws).bank_dir / "entities" / "redis.md").read_text()
    lines = [ln for ln in page.splitlines() if "6379" in ln]
    assert all(ln.count("6379") == 1 for ln in lines), lines


def test_another_value_is_not_merged_away(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    micro_rest("The staging Redis port is 6379", "W", workspace=ws, when=DAY)
    micro_rest("The cache Redis's port is 6380.", "W", workspace=ws,
               when=DAY + dt.timedelta(minutes=1))  # fmt: skip
    sleep_cycle(ws, provider="offline", now=DAY.replace(hour=22))
    text = Workspace.at(ws).memory_md.read_text()
    assert "6379" in text and "6380" in text
