"""The real anthropic SDK against a fake Messages API on 127.0.0.1."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.consolidation.flush import flush
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core.errors import AgentSleepError
from agent_sleep.core.rest import micro_rest
from agent_sleep.providers.anthropic import DEFAULT_MODEL, AnthropicProvider
from tests.conftest import run_cli
from tests.fake_messages_api import FakeMessagesAPI, Reply
from tests.test_hostile_support import AT, NOW, TODAY


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> Any:
    with FakeMessagesAPI() as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "2")
        yield server


def _note(ws: Path, text: str, days_ago: int = 0, **kw: Any) -> str:
    when = dt.datetime.combine(TODAY - dt.timedelta(days=days_ago), dt.time(10, 0))
    return micro_rest(text, kw.pop("type", "B"), workspace=ws, when=when, **kw)


def _nrem(text: str, sources: list[str], **extra: Any) -> dict[str, Any]:
    return {
        "memory_md_updates": [
            {
                "action": "add",
                "type": "W",
                "confidence": 0.9,
                "text": text,
                "replaces": "",
                "sources": sources,
            }
        ],
        "bank_updates": extra.get("bank", []),
        "pruned_count": 0,
        "weakly_learned": [],
        "open_questions": [],
    }


def test_good_reply_is_applied_and_request_is_structured(ws: Path, api: FakeMessagesAPI) -> None:
    nid = _note(ws, "Moved the team to Boston yesterday")
    api.replies.append(Reply.json(_nrem("The team moved to Boston on the day before", [nid])))
    r = sleep_cycle(ws, "nrem", "anthropic", now=NOW)
    assert "The team moved to Boston" in (ws / "MEMORY.md").read_text()
    assert r.tokens["input"] == 120 and r.tokens["output"] == 45 and r.provider == "anthropic"
    req = api.requests[0]
    assert req.path.endswith("/v1/messages")
    assert req.headers.get("Authorization") == "Bearer sk-test-key"
    body = req.body
    assert body["model"] == DEFAULT_MODEL and body["temperature"] == 0 and body["max_tokens"] > 0
    assert body["output_config"]["format"]["type"] == "json_schema"
    assert "memory_md_updates" in body["output_config"]["format"]["schema"]["properties"]
    assert "You MUST preserve verbatim" in body["system"]
    yesterday = (TODAY - dt.timedelta(days=1)).isoformat()
    assert f"yesterday ({yesterday})" in body["messages"][0]["content"]
    line = json.loads((ws / ".agent-sleep/journal.jsonl").read_text().splitlines()[-1])
    assert line["tokens"]["input"] == 120 and line["model"] == DEFAULT_MODEL


def test_temperature_dropped_when_the_model_refuses_it(ws: Path, api: FakeMessagesAPI) -> None:
    nid = _note(ws, "Caroline adopted a dog named Rex")
    api.replies += [
        Reply(status=400, error="temperature: not supported for this model"),
        Reply.json(_nrem("Caroline adopted a dog named Rex", [nid])),
    ]
    sleep_cycle(ws, "nrem", "anthropic", now=NOW)
    assert api.requests[0].body["temperature"] == 0
    assert "temperature" not in api.requests[1].body


def test_model_flag_and_env(
    ws: Path, api: FakeMessagesAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_SLEEP_MODEL", "claude-from-env")
    assert AnthropicProvider().model == "claude-from-env"
    assert AnthropicProvider("claude-from-flag").model == "claude-from-flag"


def test_invalid_json_gets_one_repair(ws: Path, api: FakeMessagesAPI) -> None:
    nid = _note(ws, "Caroline adopted a dog named Rex")
    api.replies += [
        Reply("not json {"),
        Reply.json(_nrem("Caroline adopted a dog named Rex", [nid])),
    ]
    r = sleep_cycle(ws, "nrem", "anthropic", now=NOW)
    assert r.tokens["repairs"] == 1 and len(api.requests) == 2
    assert "could not be used" in api.requests[1].body["messages"][0]["content"]
    assert "dog named Rex" in (ws / "MEMORY.md").read_text()


def test_schema_breaking_twice_fails_and_writes_nothing(ws: Path, api: FakeMessagesAPI) -> None:
    _note(ws, "Caroline adopted a dog named Rex")
    before = (ws / "MEMORY.md").read_bytes()
    bad = {"memory_md_updates": [{"action": "explode"}], "pruned_count": "many"}
    api.replies += [Reply.json(bad), Reply.json(bad)]
    with pytest.raises(AgentSleepError, match="unusable twice"):
        sleep_cycle(ws, "nrem", "anthropic", now=NOW)
    assert (ws / "MEMORY.md").read_bytes() == before
    lines = (ws / ".agent-sleep/journal.jsonl").read_text().splitlines()
    assert [json.loads(x)["event"] for x in lines] == ["sleep-failed"]  # and nothing else
    assert not list((ws / "bank").rglob("*.md"))


def test_cli_exit_1_on_bad_output(ws: Path, api: FakeMessagesAPI) -> None:
    _note(ws, "Caroline adopted a dog named Rex")
    api.replies += [Reply("nope"), Reply("still nope")]
    p = run_cli("sleep", *AT, "--phase", "nrem", "--provider", "anthropic", "-w", str(ws))
    assert p.returncode == 1, p.stderr
    assert p.stderr.strip().splitlines()[-1].startswith("Error: the anthropic model's reply")


def test_529_then_success(ws: Path, api: FakeMessagesAPI) -> None:
    nid = _note(ws, "Melanie ran a charity race last Saturday")
    api.replies += [Reply(status=529), Reply.json(_nrem("Melanie ran a charity race", [nid]))]
    sleep_cycle(ws, "nrem", "anthropic", now=NOW)
    assert len(api.requests) == 2
    assert "charity race" in (ws / "MEMORY.md").read_text()


def test_timeout_fails_cleanly(
    ws: Path, api: FakeMessagesAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_SLEEP_TIMEOUT", "0.5")
    monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "0")
    nid = _note(ws, "Melanie ran a charity race")
    before = (ws / "MEMORY.md").read_bytes()
    api.replies.append(Reply.json(_nrem("x", [nid]), delay=2.0))
    with pytest.raises(AgentSleepError, match="timed out"):
        sleep_cycle(ws, "nrem", "anthropic", now=NOW)
    assert (ws / "MEMORY.md").read_bytes() == before


def test_ungrounded_and_escaping_items(ws: Path, api: FakeMessagesAPI) -> None:
    nid = _note(ws, "Caroline went to a support group")
    out = _nrem("Caroline went to a support group", [nid])
    out["memory_md_updates"].append(
        {
            "action": "add",
            "type": "W",
            "confidence": 1,
            "text": "Invented fact",
            "replaces": "",
            "sources": ["zzzzzzzzzz"],
        }
    )
    out["bank_updates"] = [
        {
            "slug": "../../../etc/passwd",
            "kind": "entity",
            "section": "## Notes",
            "content": "support group",
            "sources": [nid],
        },
        {"slug": "!!!", "kind": "concept", "section": "x", "content": "y", "sources": [nid]},
    ]
    api.replies.append(Reply.json(out))
    r = sleep_cycle(ws, "nrem", "anthropic", now=NOW)
    assert "Invented fact" not in (ws / "MEMORY.md").read_text()
    assert r.dropped["ungrounded"] == 1 and r.dropped["bad_slug"] == 1
    assert (ws / "bank/entities/etc-passwd.md").is_file()


def test_flush_through_the_sdk(ws: Path, api: FakeMessagesAPI) -> None:
    dump = (
        "User: I prefer dark mode in every editor.\nAssistant: dev server listening on port 5173."
    )
    api.replies.append(
        Reply.json(
            {
                "notes": [
                    {
                        "type": "O",
                        "confidence": 0.9,
                        "text": "User prefers dark mode in every editor",
                    },
                    {
                        "type": "W",
                        "confidence": 0.5,
                        "text": "Dev server is listening on port 5173",
                    },
                    {
                        "type": "W",
                        "confidence": 0.5,
                        "text": "User owns three yachts in Monaco harbour",
                    },
                ]
            }
        )
    )
    r = flush(dump, workspace=ws, provider="anthropic", now=NOW)
    assert len(r.written) == 1 and r.rejected == {"ephemeral:port": 1, "ungrounded": 1}
    log = (ws / "memory" / f"{TODAY.isoformat()}.md").read_text()
    assert "O(c=0.9): User prefers dark mode" in log and f"source=flush:{r.dump_hash}" in log
    assert (
        "FLUSH" not in api.requests[0].body["system"]
        and "not ephemeral" in api.requests[0].body["system"]
    )
