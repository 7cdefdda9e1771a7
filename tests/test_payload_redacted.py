"""Credentials typed by hand into MEMORY.md or a bank page never reach a model.

Notes are redacted when they are written, but MEMORY.md and bank pages are "safe to edit by
hand", so a password or a key may sit there; NREM shows them to the model as ``memory`` and
``related``, REM as ``memory``. Every payload is redacted in the provider layer, as the request
is rendered (:func:`agent_sleep.providers.prompts.render`), for the hosted API and a local
server alike. The real SDKs talk to stand-ins on 127.0.0.1 that record every request body.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core.rest import micro_rest
from agent_sleep.providers import prompts
from tests.fake_openai_api import FakeOpenAIAPI, honest
from tests.test_hostile_support import NOW, TODAY
from tests.test_provider_replies import RawServer

SECRETS = ("Hunter2Hunter2", "sk_live_51HabcdefghijklmnopqrstuvwxYZ", "Tr0ub4dor&3xyz")


def _workspace(ws: Path) -> None:
    """A note about the staging database; a MEMORY.md entry and a bank entry on it, written
    by hand, holding a password, a Stripe key and a password said in a sentence."""
    when = dt.datetime.combine(TODAY, dt.time(9, 0))
    micro_rest("Our staging database runs Postgres 15 on db-stage.internal", "W", workspace=ws,
               when=when)  # fmt: skip
    micro_rest("The staging database admin account was rotated", "W", workspace=ws, when=when)
    with (ws / "MEMORY.md").open("a") as f:
        f.write(
            "\n## Facts\n\n- W: The staging database uses PGPASSWORD=Hunter2Hunter2 and the "
            "Stripe key sk_live_51HabcdefghijklmnopqrstuvwxYZ <!-- id=handmem001 -->\n"
        )
    page = ws / "bank/concepts/staging-database.md"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(
        "---\ntitle: Staging Database\nkind: concept\nupdated: 2026-03-01\n---\n\n"
        "# Staging Database\n\n## Notes\n\n"
        "- W: The staging database admin password is Tr0ub4dor&3xyz "
        "<!-- id=handbank01 date=2026-03-01 -->\n"
    )


def _shown(payloads: list[dict[str, Any]], key: str) -> list[str]:
    return [str(e.get("text", "")) for p in payloads for e in p.get(key) or []]


def _check(bodies: list[str], payloads: list[dict[str, Any]]) -> None:
    for body in bodies:
        for secret in SECRETS:
            assert secret not in body, secret
    tasks = [p["task"] for p in payloads]
    assert "nrem" in tasks and "rem" in tasks
    memory = _shown(payloads, "memory")
    assert any("PGPASSWORD=[REDACTED:password]" in t and "[REDACTED:stripe-key]" in t
               for t in memory), memory  # fmt: skip
    related = _shown([p for p in payloads if p["task"] == "nrem"], "related")
    assert "The staging database admin password is [REDACTED:password]" in related, related


@pytest.fixture
def openai_api(openai_stand_in: FakeOpenAIAPI) -> FakeOpenAIAPI:
    return openai_stand_in


def test_openai_local_server_gets_memory_and_bank_redacted(
    ws: Path, openai_api: FakeOpenAIAPI
) -> None:
    _workspace(ws)
    sleep_cycle(ws, "both", "openai", now=NOW, dry_run=True)
    requests = openai_api.completions()
    _check([json.dumps(r.body) for r in requests], [r.payload for r in requests])


def test_anthropic_gets_memory_and_bank_redacted(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bodies: list[str] = []
    payloads: list[dict[str, Any]] = []

    def route(_method: str, _path: str, body: dict[str, Any]) -> tuple[str, str]:
        bodies.append(json.dumps(body))
        payload = json.loads(body["messages"][0]["content"])
        payloads.append(payload)
        text = json.dumps(honest(payload))
        message = {"type": "message", "role": "assistant", "stop_reason": "end_turn",
                   "content": [{"type": "text", "text": text}]}  # fmt: skip
        return "application/json", json.dumps(message)

    with RawServer(route) as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "0")
        _workspace(ws)
        sleep_cycle(ws, "both", "anthropic", now=NOW, dry_run=True)
    _check(bodies, payloads)


def test_render_redacts_every_string_and_the_repair_sentence() -> None:
    payload = {
        "task": "nrem",
        "notes": [{"id": "abc", "text": "token=ghp_" + "a" * 36, "confidence": 0.5}],
        "nested": {"deep": ["my PIN is 4821", 3, None, {"x": "PGPASSWORD=Hunter2Hunter2"}]},
    }
    text = prompts.render(payload, repair="you wrote password=Hunter2Hunter2")
    assert "Hunter2Hunter2" not in text and "ghp_aaaa" not in text and "4821" not in text
    data = json.loads(text.split("\n\nYour previous reply", 1)[0])
    assert data["notes"][0]["id"] == "abc" and data["notes"][0]["confidence"] == 0.5
    assert data["nested"]["deep"][1:3] == [3, None]
    assert payload["nested"]["deep"][3] == {"x": "PGPASSWORD=Hunter2Hunter2"}  # not changed
