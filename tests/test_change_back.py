"""A value changed and then changed back: the second change replaces the first. "Zoe moved to
Munich" then "Zoe lives in Berlin again" left both current, because a change told in the past
tense read as an episode ("visited Riga"), which nothing replaces, and "again", "is back to",
"reverted to" were no change language."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import currency
from agent_sleep.core import notes

RATE = "The API rate limit was raised to 200 requests per minute"


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("Zoe lives in Berlin again", "Zoe moved to Munich"),
        ("The API rate limit is back to 100 requests per minute", RATE),
        ("The API rate limit was reverted to 100 requests per minute", RATE),
        ("The API rate limit is 100 requests per minute", RATE),
    ],
)
def test_a_change_back_supersedes_the_change(new: str, old: str) -> None:
    assert currency.relation(new, old).kind == currency.SUPERSEDE


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("We visited Riga again", "We visited Bilbao"),  # episodes stay episodes
        ("Tom lives in Oslo again", "Zoe moved to Munich"),  # another person
        ("The build is failing again", "The build passes"),  # another attribute
    ],
)
def test_again_does_not_replace_what_is_not_the_same_thing(new: str, old: str) -> None:
    assert currency.relation(new, old).kind != currency.SUPERSEDE


def _at(day: int, hour: int) -> dt.datetime:
    return dt.datetime(2026, 3, day, hour)


def test_the_value_changed_back_is_the_only_current_one(tmp_path: Path) -> None:
    for i, text in enumerate(["Bob lives in Paris", "The CI runs on GitHub Actions",
                              "Our office is in Lisbon", "Zoe lives in Berlin"]):  # fmt: skip
        micro_rest(text, "W", workspace=tmp_path, when=_at(1, 9) + dt.timedelta(minutes=i))
    sleep_cycle(tmp_path, "both", "offline", now=_at(1, 22))
    micro_rest("Zoe moved to Munich", "W", workspace=tmp_path, when=_at(2, 10))
    sleep_cycle(tmp_path, "both", "offline", now=_at(2, 22))
    micro_rest("Zoe lives in Berlin again", "W", workspace=tmp_path, when=_at(3, 10))
    sleep_cycle(tmp_path, "both", "offline", now=_at(3, 22))
    memory = (tmp_path / "MEMORY.md").read_text()
    current = [n.text for n in notes.notes_in(memory) if "Zoe" in n.text]
    assert current == ["Zoe lives in Berlin again"]
