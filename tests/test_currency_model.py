"""The model path keeps knowledge current: the real anthropic SDK against the local fake
Messages API. NREM is shown the related MEMORY.md and bank entries; its supersedes go through
the same gates as the offline consolidator's."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core.rest import micro_rest
from tests.fake_messages_api import FakeMessagesAPI, Reply

DAY1 = dt.datetime(2026, 11, 2, 10, 0)
DAY2 = dt.datetime(2026, 11, 20, 10, 0)


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> Any:
    with FakeMessagesAPI() as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "2")
        yield server


def _nrem(updates: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "memory_md_updates": updates,
        "bank_updates": [],
        "pruned_count": 0,
        "weakly_learned": [],
        "open_questions": [],
    }


def _item(action: str, text: str, sources: list[str], replaces: str = "", **kw: Any) -> dict:
    return {
        "action": action,
        "type": kw.get("type", "W"),
        "confidence": kw.get("confidence", 0.9),
        "text": text,
        "replaces": replaces,
        "sources": sources,
    }


def _seed(ws: Path) -> dict[str, str]:
    """MEMORY.md with eight facts (offline), a bank page with one; returns text -> entry id."""
    facts = ["Redis listens on port 6379.", "The wiki lives on Confluence.",
             "Invoices go out on the first Monday.", "Kubernetes runs the batch jobs.",
             "Grafana dashboards track latency.", "Sentry collects frontend errors.",
             "The VPN requires a hardware key.", "The user lives in Berlin."]  # fmt: skip
    for f in facts:
        micro_rest(f, "W", workspace=ws, when=DAY1)
    sleep_cycle(ws, "nrem", "offline", now=DAY1.replace(hour=22))
    page = ws / "bank/entities/atlas.md"
    page.write_text(
        "# Atlas\n\n## 2026-11-02\n\n"
        "- W: Atlas deploys to AWS us-east-1. <!-- id=bankatlas1 sources=zzzzzzzzzz -->\n"
    )
    return {n.text: n.id for n in notes.notes_in((ws / "MEMORY.md").read_text()) if n.id}


def test_payload_carries_related_entries_and_supersede_applies(
    ws: Path, api: FakeMessagesAPI
) -> None:
    ids = _seed(ws)
    berlin = ids["The user lives in Berlin."]
    moved = micro_rest("The user moved to Paris.", "W", workspace=ws, when=DAY2)
    gcp = micro_rest("Atlas migrated from AWS to GCP.", "W", workspace=ws, when=DAY2)
    api.replies.append(
        Reply.json(
            _nrem(
                [
                    _item("supersede", "The user lives in Paris.", [moved], berlin),
                    _item("supersede", "Atlas deploys to GCP.", [gcp], "bankatlas1"),
                    _item("supersede", "Nobody knows this.", [moved], "no-such-id"),
                    _item("supersede", "Cites no new note.", [berlin], berlin),
                ]
            )
        )
    )
    r = sleep_cycle(ws, "nrem", "anthropic", now=DAY2.replace(hour=22))
    payload = json.loads(api.requests[0].body["messages"][0]["content"])
    assert {e["id"] for e in payload["memory"]} >= {berlin}
    assert "bankatlas1" in {e["id"] for e in payload["related"]}  # the bank, not only MEMORY.md
    assert "supersede" in api.requests[0].body["system"]
    assert r.decisions["memory_supersede"] == 1 and r.decisions["bank_supersede"] == 1
    assert r.dropped["unknown_id"] == 1 and r.dropped["supersede_without_note"] == 1
    memory = (ws / "MEMORY.md").read_text()
    assert "The user lives in Paris." in memory and "Berlin" not in memory
    atlas = (ws / "bank/entities/atlas.md").read_text()
    current, _, history = atlas.partition("## History")
    assert "Atlas deploys to GCP." in current and "AWS us-east-1" in history
    assert "superseded_by=" in history and "until=2026-11-20" in history


def test_weaker_model_supersede_contests_and_counts_against_the_cap(
    ws: Path, api: FakeMessagesAPI
) -> None:
    ids = _seed(ws)
    micro_rest("User prefers tabs.", "O", workspace=ws, when=DAY1, confidence=0.9)
    sleep_cycle(ws, "nrem", "offline", now=DAY1.replace(hour=23))
    entries = {n.text: n for n in notes.notes_in((ws / "MEMORY.md").read_text()) if n.id}
    tabs = entries["User prefers tabs."].id
    nid = micro_rest("User maybe prefers spaces.", "O", workspace=ws, when=DAY2, confidence=0.4)
    others = [i for t, i in ids.items() if "Berlin" not in t][:5]
    api.replies.append(
        Reply.json(
            _nrem(
                [_item("supersede", "User prefers spaces.", [nid], tabs, type="O", confidence=0.4)]
                + [
                    _item("supersede", f"Fact {chr(97 + k)} changed.", [nid], i)
                    for k, i in enumerate(others)
                ]
            )
        )
    )
    r = sleep_cycle(ws, "nrem", "anthropic", now=DAY2.replace(hour=22))
    [pref] = [n for n in notes.notes_in((ws / "MEMORY.md").read_text()) if "tabs" in n.text]
    assert pref.meta.get("contested") == nid and pref.confidence == 0.9  # never reinforced
    assert r.decisions["contested"] == 1
    cap = (len(entries)) // 4
    assert r.decisions["memory_supersede"] == cap and r.dropped["removal_cap"] == 5 - cap
