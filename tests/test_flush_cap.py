"""``flush`` writes at most the notes the request's bounded schema allows for the dump.

The reply is validated against the unbounded schema, so a model (or a server that ignores the
bounds) answering a 5-line dump with 3,000 grounded notes had every one written to today's log,
each a pending note for the next sleep. Now :func:`agent_sleep.consolidation.flush.note_cap`
gives the cap (the notes' ``maxItems`` of each batch's bounded schema, summed: the dump's
sentences, at most what fits the answer room), the same for a provider that is not sent the
bounds (anthropic); the rest are counted as ``item_cap`` and reported.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.consolidation.flush import flush
from agent_sleep.providers.openai import OpenAIProvider
from tests.fake_messages_api import FakeMessagesAPI
from tests.fake_messages_api import Reply as MessagesReply
from tests.fake_openai_api import FakeOpenAIAPI, Recorded, Reply
from tests.test_hostile_support import AT, NOW, TODAY, cli

DUMP = (
    "User: We decided to ship the Apollo beta on Friday 2026-03-13.\n"
    "User: Priya owns the billing migration.\n"
    "User: I prefer tabs over spaces in every repository.\n"
    "User: The staging database runs Postgres 16.\n"
    "User: Our standup moved to 09:30 every weekday.\n"
)
FLOOD = 3000


def _flood(text: str, count: int = FLOOD) -> dict[str, Any]:
    """``count`` grounded notes: the dump's lines, reworded by a suffix, over and over."""
    lines = [ln.split(": ", 1)[-1] for ln in text.splitlines() if ln.strip()]
    return {
        "notes": [
            {"type": "W", "confidence": 0.8, "text": f"{lines[i % len(lines)]} ({i})"}
            for i in range(count)
        ]
    }


def _written(ws: Path) -> list[str]:
    """The lines of today's log a flush wrote."""
    log = ws / "memory" / f"{TODAY.isoformat()}.md"
    return [ln for ln in log.read_text().splitlines() if "source=flush:" in ln]


@pytest.fixture
def api(openai_stand_in: FakeOpenAIAPI) -> FakeOpenAIAPI:
    return openai_stand_in


def test_openai_flush_keeps_at_most_the_cap_the_request_states(
    ws: Path, api: FakeOpenAIAPI
) -> None:
    api.responder = lambda rec: Reply.json(_flood(str(rec.payload["text"])))
    r = flush(DUMP, workspace=ws, provider="openai", now=NOW)
    schema = api.completions()[0].schema
    assert schema is not None
    assert schema["properties"]["notes"]["maxItems"] == 5  # one a sentence
    assert len(r.written) == 5 and len(_written(ws)) == 5
    assert r.rejected.get("item_cap") == FLOOD - 5, r.rejected
    assert r.max_notes == 5


def test_a_dump_in_batches_keeps_at_most_the_sum_of_their_caps(
    ws: Path, api: FakeOpenAIAPI
) -> None:
    dump = "".join(f"User: Project number {i} is owned by the team in room {i}.\n"
                   for i in range(400))  # fmt: skip
    api.responder = lambda rec: Reply.json(_flood(str(rec.payload["text"]), 200))
    prov = OpenAIProvider(context_tokens=2048)
    r = flush(dump, workspace=ws, provider=prov, now=NOW)
    requests: list[Recorded] = api.completions()
    assert len(requests) > 1
    cap = 0
    for req in requests:
        assert req.schema is not None
        stated = req.schema["properties"]["notes"]["maxItems"]
        lines = [ln for ln in str(req.payload["text"]).splitlines() if ln.strip()]
        cap += max(stated, len(lines))  # one sentence a line here
    assert 0 < len(r.written) <= cap < 200 * len(requests)
    assert r.rejected.get("item_cap", 0) > 0
    assert r.max_notes == cap


def test_a_bulleted_dump_keeps_a_note_a_line(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # one "sentence" to the sentence splitter, which cuts at a full stop only
    dump = (
        "User: Remember these team rules:\n"
        "- Deploys happen on Tuesdays after the standup\n"
        "- Code review needs two approvals from the owners\n"
        "- I prefer tabs over spaces in every file\n"
        "- The on-call owner is responsible for the pager rota\n"
    )
    rules = [ln[2:] for ln in dump.splitlines() if ln.startswith("- ")]
    answer = {"notes": [{"type": "W", "confidence": 0.8, "text": t} for t in rules]}
    with FakeMessagesAPI() as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "0")
        server.replies.append(MessagesReply.json(answer))
        r = flush(dump, workspace=ws, provider="anthropic", now=NOW)
    assert len(r.written) == 4 and "item_cap" not in r.rejected and r.max_notes == 5


def test_anthropic_flush_is_capped_too(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeMessagesAPI() as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "0")
        server.replies.append(MessagesReply.json(_flood(DUMP)))
        r = flush(DUMP, workspace=ws, provider="anthropic", now=NOW)
    assert len(r.written) == 5 and len(_written(ws)) == 5
    assert r.rejected == {"item_cap": FLOOD - 5}
    assert r.max_notes == 5


def test_cli_reports_the_notes_past_the_cap(ws: Path, api: FakeOpenAIAPI) -> None:
    api.responder = lambda rec: Reply.json(_flood(str(rec.payload["text"])))
    env = {"OPENAI_BASE_URL": "", "AGENT_SLEEP_MAX_RETRIES": "0"}
    p = cli("flush", *AT, "--base-url", api.url, "--context-dump", DUMP, "-w", str(ws), env=env)
    assert p.returncode == 0, p.stderr
    line = p.stdout.strip()
    assert line.startswith("5 notes written to "), line
    assert line.endswith(f"({FLOOD - 5} past the cap of 5 notes for this dump)"), line
    p = cli("flush", *AT, "--base-url", api.url, "--context-dump", DUMP + "User: one more.",
            "-w", str(ws), "--json", env=env)  # fmt: skip
    out = json.loads(p.stdout)
    assert out["max_notes"] == 6 and out["rejected"]["item_cap"] > 0


def test_a_model_within_the_cap_loses_nothing(ws: Path, api: FakeOpenAIAPI) -> None:
    r = flush(DUMP, workspace=ws, provider="openai", now=NOW)  # the honest stand-in: 5 notes
    assert len(r.written) == 5 and "item_cap" not in r.rejected
