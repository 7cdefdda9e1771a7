"""An additive "not just" or "not only" supports an opinion; it does not dispute it. "Maya wants
PR titles to follow Conventional Commits too, not just commit messages" used to lower "Maya
wants commit messages in Conventional Commits format" from c=0.7 to c=0.55, its "not" read as
a denial; and "… not only in commit messages but also in PR titles" was itself marked
contradicted and kept out of MEMORY.md. A real denial ("Maya does not want Conventional
Commits", "Maya no longer wants …") still lowers the entry."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.core import notes
from agent_sleep.providers import offline
from agent_sleep.providers.offline_rem import negated

COMMITS = "Maya wants commit messages in Conventional Commits format (feat:, fix:, chore:)."
FIRST, LATER = dt.datetime(2026, 9, 10, 10, 0), dt.datetime(2026, 10, 5, 10, 0)


def _entries(ws: Path) -> dict[str, notes.Note]:
    text = (ws / "MEMORY.md").read_text()
    return {n.text: n for n in notes.notes_in(text)}


def _two_nights(ws: Path, later: str) -> dict[str, notes.Note]:
    """The preference filed one night, a later opinion note slept on weeks after."""
    micro_rest(COMMITS, type="O", workspace=ws, when=FIRST)
    sleep_cycle(ws, now=FIRST.replace(hour=23))
    assert _entries(ws)[COMMITS].confidence == 0.7
    micro_rest(later, type="O", workspace=ws, when=LATER)
    sleep_cycle(ws, now=LATER.replace(hour=23))
    return _entries(ws)


def test_a_note_that_adds_to_a_preference_does_not_lower_it(tmp_path: Path) -> None:
    too = "Maya wants PR titles to follow Conventional Commits too, not just commit messages."
    entries = _two_nights(tmp_path, too)
    first = entries[COMMITS]
    assert first.confidence is not None and first.confidence >= 0.7
    assert not first.meta.get("superseded_by")
    assert entries[too].confidence == 0.7  # filed beside it, not disputed either


def test_a_not_only_but_also_note_is_filed_uncontested(tmp_path: Path) -> None:
    also = (
        "Maya wants Conventional Commits format not only in commit messages but also in PR titles."
    )
    entries = _two_nights(tmp_path, also)
    assert entries[COMMITS].confidence == 0.7
    assert also in entries and entries[also].confidence == 0.7  # not held back as contradicted


def test_a_later_denial_still_unseats_the_preference(tmp_path: Path) -> None:
    denial = "Maya does not want Conventional Commits."
    entries = _two_nights(tmp_path, denial)
    assert COMMITS not in entries  # superseded: moved to the memory archive
    assert entries[denial].meta.get("supersedes")


def _rem(text: str) -> list[dict[str, Any]]:
    memory = [{"id": "m1", "type": "O", "confidence": 0.7, "text": COMMITS, "sources": [],
               "evidence": []}]  # fmt: skip
    note = {"id": "n1", "type": "O", "text": text, "date": "2026-10-05", "time": "10:00"}
    p = {"notes": [note], "memory": memory, "open_questions": [], "bank_pages": []}
    return offline.rem(p)["confidence_updates"]


@pytest.mark.parametrize(
    "text",
    [
        "Maya wants PR titles to follow Conventional Commits too, not just commit messages.",
        "Maya wants Conventional Commits format not only in commit messages but also in PR titles.",
        "Maya doesn't just want commit messages in Conventional Commits, she wants PR titles in it"
        " as well.",
        "Maya wants Conventional Commits format for branch names as well, not merely commit "
        "messages.",
    ],
)
def test_rem_never_lowers_an_entry_for_an_additive_note(text: str) -> None:
    assert all(u["new_c"] >= u["old_c"] for u in _rem(text))


@pytest.mark.parametrize(
    "text",
    [
        "Maya does not want commit messages in Conventional Commits format.",
        "Maya no longer wants commit messages in Conventional Commits format.",
        "Maya doesn't want commit messages in Conventional Commits format, not just PR titles.",
    ],
)
def test_rem_lowers_an_entry_for_a_denial(text: str) -> None:
    assert [(u["item"], u["new_c"]) for u in _rem(text)] == [("m1", 0.55)]


@pytest.mark.parametrize(
    ("text", "denies"),
    [
        ("Maya wants PR titles in Conventional Commits too, not just commit messages.", False),
        ("Not only commit messages but also PR titles follow Conventional Commits.", False),
        ("She doesn't just want tests, she wants them fast.", False),
        ("Maya does not want Conventional Commits.", True),
        ("Maya no longer wants Conventional Commits.", True),
        ("Maya does not want Conventional Commits, not just for PR titles.", True),
    ],
)
def test_negated_reads_not_just_as_adding(text: str, denies: bool) -> None:
    assert negated(text) is denies
