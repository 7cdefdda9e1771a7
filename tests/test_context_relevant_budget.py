"""``get_context(query=…, budget_tokens=N)``: the relevant memories as shown (their day and
time, a superseded label, the file) fit in N tokens, and the context as of a day leaves out
notes dated after it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import get_context, micro_rest, sleep_cycle
from agent_sleep.retrieval.recall import count_tokens


def _at(day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, 3, day, hour, minute)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    for minute, text in enumerate(
        ["We pin pytest to version 7.4.", "We use Jenkins for CI.", "Alice lives in Berlin.",
         "Redis default port is 6379."]
    ):  # fmt: skip
        micro_rest(text, "W", workspace=tmp_path, when=_at(2, 9, minute))
    sleep_cycle(tmp_path, "both", "offline", now=_at(2, 22))
    micro_rest("We bumped pytest to 8.1.", "W", workspace=tmp_path, when=_at(9, 10))
    micro_rest("Alice moved to Munich.", "W", workspace=tmp_path, when=_at(9, 10, 5))
    sleep_cycle(tmp_path, "both", "offline", now=_at(9, 22))
    micro_rest("We no longer use Jenkins; CI runs on GitHub Actions.", "W", workspace=tmp_path,
               when=_at(20, 10))  # fmt: skip
    sleep_cycle(tmp_path, "both", "offline", now=_at(20, 22))
    return tmp_path


def _relevant(text: str) -> list[str]:
    part = text.split("## Relevant memories", 1)[1]
    return [line for line in part.splitlines() if line.startswith("- ")]


@pytest.mark.parametrize("budget", [20, 50, 100])
def test_the_lines_shown_fit_the_budget(ws: Path, budget: int) -> None:
    text = get_context(workspace=ws, query="which pytest version do we pin", budget_tokens=budget,
                       today=dt.date(2026, 3, 25))  # fmt: skip
    lines = _relevant(text)
    assert sum(count_tokens(line) for line in lines) <= budget, lines
    if budget >= 50:
        assert lines  # something fits


def test_the_context_as_of_a_day_shows_nothing_dated_after_it(ws: Path) -> None:
    text = get_context(workspace=ws, query="what do we use for CI", budget_tokens=400,
                       today=dt.date(2026, 3, 10))  # fmt: skip
    lines = _relevant(text)
    assert lines
    assert not [line for line in lines if "2026-03-2" in line or "GitHub Actions" in line], lines
