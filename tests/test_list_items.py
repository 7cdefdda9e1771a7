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
    # the swap's new item is in the list already: the old one went
    ("We deploy to AWS and Azure", "We switched from Azure to AWS", "We deploy to AWS"),
    ("We use Redis and Memcached for caching", "Memcached has been replaced by Redis entirely",
     "We use Redis for caching"),
    ("We support Chrome, Firefox and Safari", "We replaced Safari support with Edge support",
     "We support Chrome, Firefox and Edge"),
    ("We use Redis and Memcached for caching", "Varnish replaced Memcached",
     "We use Redis and Varnish for caching"),
    ("We use Redis and Memcached for caching", "We dropped Memcached in favor of Valkey",
     "We use Redis and Valkey for caching"),
    ("We use Redis and Memcached for caching", "Memcached was swapped out for Valkey",
     "We use Redis and Valkey for caching"),
    ("We use Redis and Memcached for caching", "Memcached is out, Valkey is in",
     "We use Redis and Valkey for caching"),
    ("We use Redis and Memcached for caching", "Memcached -> Valkey",
     "We use Redis and Valkey for caching"),
    ("Kids do piano, swim and chess", "The kids do football instead of chess",
     "Kids do piano, swim and football"),
    # several items gone, in one clause or in several
    ("We write services in Rust, Go and Python", "We dropped Rust and Go",
     "We write services in Python"),
    ("The team is Ana, Ben and Carla", "Ben left the team, and Carla left too", "The team is Ana"),
    # one item gone and another come: a swap
    ("Team: Ana, Ben and Carla", "Ben left; Dave joined", "Team: Ana, Dave and Carla"),
    ("The team is Ana, Ben and Carla", "Ben left the team and Dave joined",
     "The team is Ana, Dave and Carla"),
    # who came is said of something else: only the item gone, and what else the note says
    # stays with it
    ("The team is Ana, Ben and Carla", "Ben left the team and Dave joined Google",
     "The team is Ana and Carla. Dave joined Google."),
    ("The lint stack in pre-commit is black, isort and flake8.",
     "Dropped black and isort from pre-commit; ruff now does formatting and import sorting.",
     "The lint stack in pre-commit is flake8. Ruff now does formatting and import sorting."),
    # a place is no item of a team, and a clause of the one gone no part of the list
    ("Our team members are Ana, Ben and Carla", "Ben left the team; he moved to Lisbon",
     "Our team members are Ana and Carla"),
    ("Kids do piano, swim and chess", "The kids dropped chess and took up football",
     "Kids do piano, swim and football"),
    ("We use Redis and Memcached for caching", "We dropped Memcached and added Varnish",
     "We use Redis and Varnish for caching"),
    # an item said inflected; a run of words that ends in a preposition is no item
    ("Kids do piano, swim and chess", "Kids stopped swimming", "Kids do piano and chess"),
    ("Kids do piano, swim and chess", "The kids quit swimming and chess", "Kids do piano"),
    ("We run lint, tests and builds in CI", "We no longer run builds in CI",
     "We run lint and tests in CI"),
    # a time said (as sleep resolves it), a container named, grammar kept
    ("We use Redis and Memcached for caching",
     "We dropped Memcached last week (week of 2026-11-16)", "We use Redis for caching"),
    ("We use Redis and Memcached for caching", "We removed Memcached from the stack",
     "We use Redis for caching"),
    ("Ana and Ben are the admins", "Ben is no longer an admin", "Ana is the admins"),
    ("Both Ana and Ben have prod access", "Ben lost prod access", "Ana has prod access"),
    ("The user speaks English, French & German", "The user no longer speaks German",
     "The user speaks English & French"),
    # told as a label whose value says the item went
    ("We use Redis and Memcached for caching", "Memcached: removed", "We use Redis for caching"),
    ("Our team members are Ana, Ben and Carla", "Ben: left the team",
     "Our team members are Ana and Carla"),
    ("We use Redis and Memcached for caching", "Memcached: gone", "We use Redis for caching"),
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
    # every item gone: a new value of the whole entry
    ("We use Redis and Memcached for caching", "We dropped Redis and Memcached"),
    # a label whose value says nothing went
    ("We use Redis and Memcached for caching", "Memcached: still used by the API"),
    ("We use Redis and Memcached for caching", "Memcached: 1.6.21"),
    # a time of day is no label and its value: "closed at 16:00 today for a burst pipe" said
    # "Harbor House closed" as a clause of its own, and the rest was spliced into the to-do
    (
        "To-do: reorder olive oil for Harbor House, 2 tins of 5 litres.",
        "Harbor House closed at 16:00 today for a burst pipe in the kitchen; plumber fixed it "
        "by 19:00.",
    ),
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


ABOUT_ONE_ITEM = [
    ("Team: Ana, Ben and Carla", "Ben is the team lead now"),
    ("Kids do piano, swim and chess", "The kids had a piano recital on Saturday"),
    ("On-call rotation: Ana, Ben and Carla", "Ben moved to Porto"),
    ("Maya does soccer and piano", "Maya's soccer practice is now only on Thursdays"),
    # titles and asides inside the list; a name said by its first word; a false list in the
    # note ("leaving for industry and steps down") is none of the same shape
    (
        "Lena's thesis committee: Prof. Okafor (chair), Dr. Marcus Feld, and Dr. Priya Raman.",
        "Dr. Priya Raman is leaving for industry and steps down from Lena's committee; "
        "Dr. Tomás Ibarra replaces her.",
    ),
    (
        "Current clients: Acme Outdoor (website redesign), Lumen Studio (brand guidelines) and "
        "Fernway Coffee (packaging).",
        "Acme website redesign is due Oct 30.",
    ),
]
NOT_ABOUT_ONE_ITEM = [
    (
        "Committee: Prof. Okafor, Dr. Marcus Feld and Dr. Priya Raman.",
        "The committee is Okafor, Feld and Ibarra.",
    ),  # fmt: skip
    # two items start with the same word: "Acme" names neither
    ("Clients: Acme Outdoor, Acme Foods and Lumen Studio", "Acme is due Oct 30"),
    ("We use Redis and Memcached for caching", "We now use only Redis for caching"),
    ("Our team members are Ana, Ben and Carla", "Only Ana remains on the team"),
    ("Tests run on Python 3.11 and 3.12", "Tests now run on Python 3.12 and 3.13"),
    ("We use Redis and Memcached for caching", "Caching is now handled by Valkey"),
    ("Bob lives in Paris and works at Google", "Bob moved to Berlin"),  # no list
]


@pytest.mark.parametrize(("old", "new"), ABOUT_ONE_ITEM)
def test_a_note_about_one_item_is_not_about_the_list(old: str, new: str) -> None:
    assert lists.about_one_item(new, old)


@pytest.mark.parametrize(("old", "new"), NOT_ABOUT_ONE_ITEM)
def test_a_note_of_the_whole_list_or_of_no_list(old: str, new: str) -> None:
    assert not lists.about_one_item(new, old)


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


def _sleep_twice(root: Path, olds: list[str], news: list[str]) -> tuple[list[str], list[str]]:
    """Sleep on ``olds`` (one day), then on ``news`` eight days later (no removal cap): the
    current MEMORY.md texts and the texts filed in History."""
    day1, day2 = dt.datetime(2026, 3, 1, 9), dt.datetime(2026, 3, 9, 10)
    for i, text in enumerate(olds):
        micro_rest(text, "W", workspace=root, when=day1 + dt.timedelta(minutes=i))
    sleep_cycle(root, "both", "offline", now=day1.replace(hour=22))
    for i, text in enumerate(news):
        micro_rest(text, "W", workspace=root, when=day2 + dt.timedelta(minutes=i))
    sleep_cycle(root, "both", "offline", now=day2.replace(hour=22), prune_memory=True)
    return _entries(root)


def _entries(root: Path) -> tuple[list[str], list[str]]:
    """Current MEMORY.md texts, and the texts filed in History anywhere."""
    memory = notes.notes_in((root / "MEMORY.md").read_text())
    current = [n.text for n in memory if not n.meta.get("superseded_by")]
    history = []
    for page in sorted((root / "bank").rglob("*.md")):
        history += [n.text for n in notes.notes_in(page.read_text()) if n.meta.get("superseded_by")]
    return current, history


def test_sleep_edits_the_list_and_files_the_old_entry(tmp_path: Path) -> None:
    olds = [
        "We use Redis and Memcached for caching",
        "Our team members are Ana, Ben and Carla",
        "The staging database runs Postgres 15",
        "Deploys go out on Tuesdays",
    ]
    news = ["We no longer use Memcached", "Ben left the team"]
    current, history = _sleep_twice(tmp_path, olds, news)
    assert "We use Redis for caching" in current
    assert "Our team members are Ana and Carla" in current
    assert not [t for t in current if "Memcached" in t or "Ben" in t]
    assert sorted(history) == sorted(olds[:2])
    # the untouched entries stand
    assert set(olds[2:]) <= set(current)


def test_sleep_edits_the_list_for_a_label_that_says_an_item_went(tmp_path: Path) -> None:
    old = "We use Redis and Memcached for caching"
    current, history = _sleep_twice(tmp_path, [old], ["Memcached: removed"])
    assert "We use Redis for caching" in current
    assert not [t for t in current if "Memcached" in t]
    assert history == [old]


def test_sleep_keeps_a_list_the_note_cannot_edit(tmp_path: Path) -> None:
    old = "Our team members are Ana, Ben and Carla"
    current, history = _sleep_twice(tmp_path, [old], ["Ben left the company"])
    assert old in current
    assert history == []


def test_sleep_keeps_a_list_beside_a_note_about_one_of_its_items(tmp_path: Path) -> None:
    # each used to replace its list whole: the learned last word read the first two as updates,
    # the change language of the third was Ben's own move
    pairs = [
        ("Team: Ana, Ben and Carla", "Ben is the team lead now"),
        ("Kids do piano, swim and chess", "The kids had a piano recital on Saturday"),
        ("On-call rotation: Ana, Ben and Carla", "Ben moved to Porto"),
    ]
    current, history = _sleep_twice(tmp_path, [o for o, _n in pairs], [n for _o, n in pairs])
    assert history == []
    assert {old for old, _new in pairs} <= set(current)


def test_a_subject_set_off_by_commas_is_no_list() -> None:
    """ "Dana Whitfield, VP Operations, is our main contact at Acme Corp." is no list of
    "Dana Whitfield" and "VP Operations": "Dana Whitfield has left Acme Corp; Laura Chen is now
    our main contact" rewrote it as "VP Operations, is our main contact at Acme Corp. Laura Chen
    is now our main contact" (an exploratory test of an account manager's notes)."""
    from agent_sleep.analysis import lists

    new = "Dana Whitfield has left Acme Corp; Laura Chen is now our main contact at Acme."
    old = "Dana Whitfield, VP Operations, is our main contact at Acme Corp."
    assert lists.edited(new, old) is None
    edit = lists.edited("We no longer use Memcached.", "We use Redis, Memcached and Postgres.")
    assert edit is not None and edit.text == "We use Redis and Postgres."
