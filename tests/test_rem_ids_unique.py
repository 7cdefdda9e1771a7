"""A dream and a next-session action that say the same sentence each get an id of their own in
the day's log: both were written under one id (a real local model did it; ids are what sync
merges logs by)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.core import notes

TEXT = "Check whether the staging database upgrade to Postgres 16 affects the payments team"


def test_a_dream_and_an_action_of_one_text_have_two_ids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.fake_messages_api import FakeMessagesAPI, Reply

    now = dt.datetime(2026, 4, 8, 22)
    nid = micro_rest("We upgraded the staging database to Postgres 16.", "W", workspace=tmp_path,
                     when=now.replace(hour=9))  # fmt: skip
    reply = {
        "aha_moments": [{"text": TEXT, "sources": [nid]}],
        "creative_connections": [],
        "confidence_updates": [],
        "new_bank_suggestions": [],
        "next_session_actions": [{"text": TEXT, "sources": [nid]}],
    }
    with FakeMessagesAPI() as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        server.replies.append(Reply.json(reply))
        sleep_cycle(tmp_path, "rem", "anthropic", now=now)
    log = (tmp_path / "memory" / "2026-04-08.md").read_text()
    ids = [n.id for n in notes.notes_in(log) if n.id]
    said = [n for n in notes.notes_in(log) if n.text == TEXT]
    assert len(said) == 2
    assert len(ids) == len(set(ids)), log
