"""A note filed in an earlier day's log after a later change was consolidated (an import of
history, ``rest --when``) never replaces the newer entry: it used to, and wrote a History line
whose ``until`` came before its own ``date``."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.core import notes


def _at(day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, 4, day, hour, minute)


def _all(ws: Path) -> list[notes.Note]:
    out = notes.notes_in((ws / "MEMORY.md").read_text())
    for page in sorted((ws / "bank").rglob("*.md")):
        out += notes.notes_in(page.read_text())
    return out


def test_a_backdated_note_does_not_replace_a_newer_entry(tmp_path: Path) -> None:
    for i in range(1, 13):
        micro_rest(f"Server host{i} runs Ubuntu 22.04 in rack R{i}.", "W", workspace=tmp_path,
                   when=_at(1, 8, 10 + i))  # fmt: skip
    micro_rest("Carol works at Siemens.", "W", workspace=tmp_path, when=_at(1, 9))
    sleep_cycle(tmp_path, "both", "offline", now=_at(1, 22))
    micro_rest("Carol now works at Airbus.", "W", workspace=tmp_path, when=_at(8, 9))
    sleep_cycle(tmp_path, "both", "offline", now=_at(8, 22))
    micro_rest("Carol works at Airbus since March.", "W", workspace=tmp_path, when=_at(5, 10))
    sleep_cycle(tmp_path, "both", "offline", now=_at(9, 22), since="2026-04-01")
    entries = _all(tmp_path)
    current = [n.text for n in entries if not n.meta.get("superseded_by")]
    assert "Carol now works at Airbus." in current
    for n in entries:  # no History line ends before it starts
        if n.meta.get("until") and n.meta.get("date"):
            assert n.meta["until"] >= n.meta["date"], n


def test_a_model_cannot_replace_a_newer_entry_with_a_backdated_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the same gate on the provider path: a model's supersede citing only a note told before
    # the entry is filed beside it (an exploratory test: History read date=04-08, until=04-05)
    from tests.fake_messages_api import FakeMessagesAPI, Reply

    micro_rest("The staging database runs Postgres 15.", "W", workspace=tmp_path, when=_at(8, 9))
    sleep_cycle(tmp_path, "both", "offline", now=_at(8, 22))
    old = notes.notes_in((tmp_path / "MEMORY.md").read_text())[0]
    nid = micro_rest("We upgraded the staging database to Postgres 16.", "W", workspace=tmp_path,
                     when=_at(5, 10))  # fmt: skip
    reply = {
        "memory_md_updates": [
            {
                "action": "supersede",
                "type": "W",
                "confidence": 0.9,
                "replaces": old.id,
                "text": "The staging database runs Postgres 16.",
                "sources": [nid],
            },
        ],
        "bank_updates": [],
        "pruned_count": 0,
        "weakly_learned": [],
        "open_questions": [],
    }
    with FakeMessagesAPI() as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        server.replies.append(Reply.json(reply))
        r = sleep_cycle(tmp_path, "nrem", "anthropic", now=_at(9, 22), since="2026-04-01")
    entries = _all(tmp_path)
    current = [n.text for n in entries if not n.meta.get("superseded_by")]
    assert "The staging database runs Postgres 15." in current
    assert "The staging database runs Postgres 16." in current
    assert r.decisions.get("older_than_entry") == 1
    assert r.pending_left == 0  # the note was consolidated: filed beside, not refused
    for n in entries:
        if n.meta.get("until") and n.meta.get("date"):
            assert n.meta["until"] >= n.meta["date"], n
