"""A note that removes or swaps one item of a list fact edits that entry; it does not replace it
whole. "We no longer use Memcached" replaced "We use Redis and Memcached for caching", so
MEMORY.md lost Redis; "Ben left the team" dropped Ana and Carla (an exploratory test)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import lists
from agent_sleep.core import notes

EDITED = [
    ("We use Redis and Memcached for caching", "We no longer use Memcached",
     "We use Redis for caching"),
    ("We use Redis and Memcached for caching", "We dropped Memcached", "We use Redis for caching"),
    ("We use Redis and Memcached for caching", "Memcached was decommissioned last week",
     "We use Redis for caching"),
    ("We use Redis and Memcached for caching", "We replaced Memcached with Valkey",
     "We use Redis and Valkey for caching"),
    ("The API is written in Go and Python", "We dropped Python from the API; it is all Go now",
     "The API is written in Go"),
    ("Our team members are Ana, Ben and Carla", "Ben left the team",
     "Our team members are Ana and Carla"),
    ("Our team members are Ana, Ben and Carla", "Carla left the team",
     "Our team members are Ana and Ben"),
    ("Our team members are Ana, Ben, and Carla", "Ana left the team",
     "Our team members are Ben and Carla"),
    ("User likes tea and coffee", "User no longer likes coffee", "User likes tea"),
    ("We deploy to AWS, Google Cloud and Azure", "We moved off Google Cloud",
     "We deploy to AWS and Azure"),
    ("We deploy to AWS, Google Cloud and Azure", "We switched from Azure to Hetzner",
     "We deploy to AWS, Google Cloud and Hetzner"),
    ("Supported browsers: Chrome, Firefox and Safari", "Dropped Safari support",
     "Supported browsers: Chrome and Firefox"),
]  # fmt: skip

NOT_EDITED = [
    # another subject: the list is not the one the note speaks of
    ("Our team members are Ana, Ben and Carla", "Ben left the company"),
    ("We use Redis and Memcached for caching", "We dropped Memcached from the mobile app"),
    # not one list: each item has its own complement
    ("We use Redis for caching, and Postgres for storage", "We no longer use Postgres"),
    # no removal: a restatement of one item, an addition
    ("We use Redis and Memcached for caching", "We use Redis"),
    ("We use Redis and Memcached for caching", "We also use Kafka now"),
    # the only item: a plain replacement, which the currency rules read
    ("We use Memcached for caching", "We no longer use Memcached"),
    # the swap's new item is in the list already
    ("We deploy to AWS and Azure", "We switched from Azure to AWS"),
]


@pytest.mark.parametrize(("old", "new", "want"), EDITED)
def test_one_item_is_edited_out(old: str, new: str, want: str) -> None:
    edit = lists.edited(new, old)
    assert edit is not None
    assert edit.text == want


@pytest.mark.parametrize(("old", "new"), NOT_EDITED)
def test_other_notes_edit_nothing(old: str, new: str) -> None:
    assert lists.edited(new, old) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Our team members are Ana, Ben and Carla", "Ben left the company"),
        ("The CI runs lint, unit tests and e2e tests", "The CI no longer runs e2e tests"),
        ("We use Redis for caching, and Postgres for storage", "We no longer use Postgres"),
    ],
)
def test_a_list_is_never_replaced_whole_for_one_item(old: str, new: str) -> None:
    assert lists.partial(new, old)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a new value besides: an update of the entry, which the currency rules read
        ("Standup is at 9:30 and lasts 15 minutes", "Standup is no longer at 9:30; now 10:00"),
        ("We use Memcached for caching", "We no longer use Memcached"),
        ("We use Redis and Memcached for caching", "We use Redis"),
    ],
)
def test_not_a_partial_removal(old: str, new: str) -> None:
    assert not lists.partial(new, old)


def _entries(root: Path) -> tuple[list[str], list[str]]:
    """Current MEMORY.md texts, and the texts filed in History anywhere."""
    memory = notes.notes_in((root / "MEMORY.md").read_text())
    current = [n.text for n in memory if not n.meta.get("superseded_by")]
    history = []
    for page in sorted((root / "bank").rglob("*.md")):
        history += [n.text for n in notes.notes_in(page.read_text()) if n.meta.get("superseded_by")]
    return current, history


def test_sleep_edits_the_list_and_files_the_old_entry(tmp_path: Path) -> None:
    day1, day2 = dt.datetime(2026, 3, 1, 9), dt.datetime(2026, 3, 9, 10)
    olds = [
        "We use Redis and Memcached for caching",
        "Our team members are Ana, Ben and Carla",
        "The staging database runs Postgres 15",
        "Deploys go out on Tuesdays",
    ]
    for i, text in enumerate(olds):
        micro_rest(text, "W", workspace=tmp_path, when=day1 + dt.timedelta(minutes=i))
    sleep_cycle(tmp_path, "both", "offline", now=day1.replace(hour=22))
    for i, text in enumerate(["We no longer use Memcached", "Ben left the team"]):
        micro_rest(text, "W", workspace=tmp_path, when=day2 + dt.timedelta(minutes=i))
    sleep_cycle(tmp_path, "both", "offline", now=day2.replace(hour=22), prune_memory=True)
    current, history = _entries(tmp_path)
    assert "We use Redis for caching" in current
    assert "Our team members are Ana and Carla" in current
    assert not [t for t in current if "Memcached" in t or "Ben" in t]
    assert sorted(history) == sorted(olds[:2])
    # the untouched entries stand
    assert set(olds[2:]) <= set(current)


def test_sleep_keeps_a_list_the_note_cannot_edit(tmp_path: Path) -> None:
    day1, day2 = dt.datetime(2026, 3, 1, 9), dt.datetime(2026, 3, 9, 10)
    old = "Our team members are Ana, Ben and Carla"
    micro_rest(old, "W", workspace=tmp_path, when=day1)
    sleep_cycle(tmp_path, "both", "offline", now=day1.replace(hour=22))
    micro_rest("Ben left the company", "W", workspace=tmp_path, when=day2)
    sleep_cycle(tmp_path, "both", "offline", now=day2.replace(hour=22), prune_memory=True)
    current, history = _entries(tmp_path)
    assert old in current
    assert history == []
