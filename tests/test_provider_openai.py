"""The real openai SDK against a hostile OpenAI-compatible stand-in on 127.0.0.1."""

from __future__ import annotations

import datetime as dt
import email.utils
import json
import time
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.consolidation.flush import flush
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core.errors import AgentSleepError, BadInput
from agent_sleep.core.rest import micro_rest
from agent_sleep.providers import prompts
from agent_sleep.providers.base import get_provider
from agent_sleep.providers.openai import OpenAIProvider
from agent_sleep.providers.replies import find_object, retry_after, strip_reasoning
from tests.conftest import run_cli
from tests.fake_openai_api import FakeOpenAIAPI, Reply, honest
from tests.test_hostile_support import AT, NOW, TODAY


@pytest.fixture
def api(openai_stand_in: FakeOpenAIAPI, monkeypatch: pytest.MonkeyPatch) -> FakeOpenAIAPI:
    monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "2")
    return openai_stand_in


def _note(ws: Path, text: str, days_ago: int = 0, kind: str = "B") -> str:
    when = dt.datetime.combine(TODAY - dt.timedelta(days=days_ago), dt.time(10, 0))
    return micro_rest(text, kind, workspace=ws, when=when)


def _nrem(text: str, sources: list[str]) -> dict[str, Any]:
    out = honest({"task": "nrem", "notes": []})
    out["memory_md_updates"] = [
        {
            "action": "add",
            "type": "W",
            "confidence": 0.9,
            "text": text,
            "replaces": "",
            "sources": sources,
        }
    ]
    return out


def _untouched(ws: Path, before: bytes) -> None:
    assert (ws / "MEMORY.md").read_bytes() == before
    journal = ws / ".agent-sleep/journal.jsonl"  # the failed run's one line, and nothing else
    lines = [json.loads(x) for x in journal.read_text().splitlines()] if journal.exists() else []
    assert [e["event"] for e in lines] in ([], ["sleep-failed"]), lines
    assert not list((ws / "bank").rglob("*.md"))


def test_good_reply_request_shape_and_journal(ws: Path, api: FakeOpenAIAPI) -> None:
    nid = _note(ws, "Moved the team to Boston yesterday")
    api.replies.append(Reply.json(_nrem("The team moved to Boston", [nid]), usage=(321, 54)))
    r = sleep_cycle(ws, "nrem", "openai", now=NOW)
    assert "The team moved to Boston" in (ws / "MEMORY.md").read_text()
    assert r.provider == "openai" and r.model == "tiny-model"  # the server's only model
    assert r.tokens["input"] == 321 and r.tokens["output"] == 54 and r.tokens["calls"] == 1
    req = api.completions()[0]
    assert req.path == "/v1/chat/completions"
    assert req.headers.get("authorization") == "Bearer not-needed"  # no key: a placeholder
    body = req.body
    assert body["model"] == "tiny-model" and body["temperature"] == 0
    assert 256 <= body["max_tokens"] <= 4096
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    schema = fmt["json_schema"]["schema"]
    # bounded for the batch: ids as an enum, strings and arrays capped
    updates = schema["properties"]["memory_md_updates"]
    assert updates["items"]["properties"]["sources"]["items"]["enum"] == [nid]
    assert updates["items"]["properties"]["text"]["maxLength"] > 0 and updates["maxItems"] >= 1
    assert "You MUST preserve verbatim" in req.system
    assert '"memory_md_updates"' in req.system  # the schema is stated in the prompt too
    yesterday = (TODAY - dt.timedelta(days=1)).isoformat()
    assert f"yesterday ({yesterday})" in req.user
    line = json.loads((ws / ".agent-sleep/journal.jsonl").read_text().splitlines()[-1])
    assert line["provider"] == "openai" and line["model"] == "tiny-model"
    assert line["tokens"]["input"] == 321 and line["tokens"]["batches"] == 1
    assert line["seconds"] >= 0


def test_key_model_and_extra_body(
    ws: Path, api: FakeOpenAIAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")
    monkeypatch.setenv("AGENT_SLEEP_MODEL", "qwen3:4b")
    monkeypatch.setenv(
        "AGENT_SLEEP_EXTRA_BODY", '{"chat_template_kwargs": {"enable_thinking": false}}'
    )
    nid = _note(ws, "Caroline adopted a dog named Rex")
    api.replies.append(Reply.json(_nrem("Caroline adopted a dog named Rex", [nid])))
    sleep_cycle(ws, "nrem", "openai", now=NOW)
    req = api.completions()[0]
    assert req.headers.get("authorization") == "Bearer sk-local"
    assert req.body["model"] == "qwen3:4b"
    assert req.body["chat_template_kwargs"] == {"enable_thinking": False}
    monkeypatch.setenv("AGENT_SLEEP_EXTRA_BODY", "[1, 2]")
    with pytest.raises(BadInput, match="JSON object"):
        OpenAIProvider()


def test_model_discovery_and_context_window(api: FakeOpenAIAPI) -> None:
    api.models = [{"id": "one.gguf", "object": "model", "meta": {"n_ctx": 4096}}]
    p = OpenAIProvider()
    assert p.model == "one.gguf" and p.context_tokens == 4096
    api.models = [{"id": "vllm-model", "max_model_len": 32768}]
    assert OpenAIProvider().context_tokens == 32768
    assert OpenAIProvider(context_tokens=2048).context_tokens == 2048
    api.models = [{"id": "ollama-model"}]
    assert OpenAIProvider().context_tokens == 8192
    api.models = [{"id": "a"}, {"id": "b"}]
    with pytest.raises(BadInput, match="offers 2 models .a, b.: pick one with --model"):
        _ = OpenAIProvider().model
    assert OpenAIProvider("b").model == "b"


def test_no_server_configured(monkeypatch: pytest.MonkeyPatch, ws: Path) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(BadInput, match="--base-url"):
        get_provider("openai")
    with pytest.raises(BadInput, match="--base-url is for --provider openai"):
        get_provider("anthropic", base_url="http://127.0.0.1:9/v1")
    p = run_cli("sleep", *AT, "--provider", "openai", "-w", str(ws), env={"OPENAI_BASE_URL": ""})
    assert p.returncode == 2 and p.stderr.startswith("Error: no server for --provider openai")


def test_json_schema_refused_falls_back_and_is_remembered(ws: Path, api: FakeOpenAIAPI) -> None:
    nid = _note(ws, "Melanie ran a charity race on 2026-03-04")
    api.replies += [
        Reply(status=400, error="maxLength is not permitted in response_format json_schema"),
        Reply(status=400, error="response_format type json_schema is not supported"),
        Reply(status=400, error="'response_format.type' json_object is not supported"),
        Reply.json(_nrem("Melanie ran a charity race on 2026-03-04", [nid])),
    ]
    r = sleep_cycle(ws, "both", "openai", now=NOW)
    reqs = api.completions()
    assert [q.body.get("response_format", {}).get("type") for q in reqs] == [
        "json_schema",
        "json_schema",
        "json_object",
        None,  # plain prompting, schema in the prompt
        None,  # REM: the fallback is remembered for the run
    ]
    assert "maxLength" in json.dumps(reqs[0].schema) and "maxLength" not in json.dumps(
        reqs[1].schema
    )
    assert '"memory_md_updates"' in reqs[3].system
    assert "charity race on 2026-03-04" in (ws / "MEMORY.md").read_text()
    assert r.tokens["calls"] == 2


def test_other_400_is_an_error(ws: Path, api: FakeOpenAIAPI) -> None:
    _note(ws, "Melanie ran a charity race")
    api.replies.append(Reply(status=400, error="messages: too many tokens in the prompt"))
    with pytest.raises(AgentSleepError, match="refused the request: .*too many tokens"):
        sleep_cycle(ws, "nrem", "openai", now=NOW)
    assert len(api.completions()) == 1


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param(lambda d: Reply(content="<think>Let me see. {no}</think>\n" + d), id="think"),
        pytest.param(lambda d: Reply(content="", reasoning="Thinking... answer: " + d), id="field"),
        pytest.param(lambda d: Reply(content=None, reasoning=d), id="field-null-content"),
        pytest.param(lambda d: Reply(content="```json\n" + d + "\n```"), id="fence"),
        pytest.param(lambda d: Reply(content="Here is the JSON: " + d + " Done."), id="prose"),
    ],
)
def test_reasoning_and_wrapped_answers_are_used(ws: Path, api: FakeOpenAIAPI, reply: Any) -> None:
    nid = _note(ws, "Caroline adopted a dog named Rex")
    api.replies.append(reply(json.dumps(_nrem("Caroline adopted a dog named Rex", [nid]))))
    r = sleep_cycle(ws, "nrem", "openai", now=NOW)
    assert r.tokens["repairs"] == 0
    assert "dog named Rex" in (ws / "MEMORY.md").read_text()


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param(Reply(content="not json {"), id="invalid-json"),
        pytest.param(Reply(content=""), id="empty"),
        pytest.param(Reply(content='<think>I will answer {"a": 1} soon'), id="unclosed-think"),
        pytest.param(
            Reply(content='{"memory_md_updates": [{"a"', finish_reason="length"), id="length"
        ),
        pytest.param(Reply.json({"memory_md_updates": "nope"}), id="schema-breaking"),
        pytest.param(Reply(content="[1, 2, 3]"), id="not-an-object"),
    ],
)
def test_bad_reply_gets_one_repair(ws: Path, api: FakeOpenAIAPI, bad: Reply) -> None:
    nid = _note(ws, "Caroline adopted a dog named Rex")
    api.replies += [bad, Reply.json(_nrem("Caroline adopted a dog named Rex", [nid]))]
    r = sleep_cycle(ws, "nrem", "openai", now=NOW)
    assert r.tokens["repairs"] == 1 and r.tokens["calls"] == 2
    assert "could not be used" in api.completions()[1].user
    assert "dog named Rex" in (ws / "MEMORY.md").read_text()


def test_finish_reason_length_even_with_valid_json_is_invalid(ws: Path, api: FakeOpenAIAPI) -> None:
    nid = _note(ws, "Caroline adopted a dog named Rex")
    good = _nrem("Caroline adopted a dog named Rex", [nid])
    api.replies += [Reply.json(good, finish_reason="length")] * 2
    before = (ws / "MEMORY.md").read_bytes() if (ws / "MEMORY.md").exists() else b""
    with pytest.raises(AgentSleepError, match="unusable twice .*cut off"):
        sleep_cycle(ws, "nrem", "openai", now=NOW)
    assert ((ws / "MEMORY.md").read_bytes() if (ws / "MEMORY.md").exists() else b"") == before


def test_cli_exit_1_and_nothing_written(ws: Path, api: FakeOpenAIAPI) -> None:
    _note(ws, "Caroline adopted a dog named Rex")
    before = (ws / "MEMORY.md").read_bytes()
    api.replies += [Reply(content="nope"), Reply(content="<think>still thinking")]
    p = run_cli("sleep", *AT, "--phase", "nrem", "--provider", "openai", "-w", str(ws))
    assert p.returncode == 1, p.stderr
    assert p.stderr.strip().splitlines()[-1].startswith("Error: the openai model's reply")
    _untouched(ws, before)


def test_429_and_503_honour_retry_after(ws: Path, api: FakeOpenAIAPI) -> None:
    nid = _note(ws, "Melanie ran a charity race last Saturday")
    api.replies += [
        Reply(status=429, headers={"Retry-After": "0.4"}),
        Reply(status=503, headers={"retry-after-ms": "300"}),
        Reply.json(_nrem("Melanie ran a charity race", [nid])),
    ]
    started = time.monotonic()
    sleep_cycle(ws, "nrem", "openai", now=NOW)
    assert time.monotonic() - started >= 0.7
    assert len(api.completions()) == 3
    assert "charity race" in (ws / "MEMORY.md").read_text()


def test_503_forever_fails_after_the_retries(ws: Path, api: FakeOpenAIAPI) -> None:
    _note(ws, "Melanie ran a charity race")
    before = (ws / "MEMORY.md").read_bytes()
    api.replies += [Reply(status=503, headers={"Retry-After": "0"})] * 3
    with pytest.raises(AgentSleepError, match="answered 503 after 2 retries"):
        sleep_cycle(ws, "nrem", "openai", now=NOW)
    assert len(api.completions()) == 3
    _untouched(ws, before)


def test_timeout_is_not_retried(
    ws: Path, api: FakeOpenAIAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_SLEEP_TIMEOUT", "0.5")
    nid = _note(ws, "Melanie ran a charity race")
    before = (ws / "MEMORY.md").read_bytes()
    api.replies.append(Reply.json(_nrem("x", [nid]), delay=2.0))
    with pytest.raises(AgentSleepError, match="timed out after 0.5s"):
        sleep_cycle(ws, "nrem", "openai", now=NOW)
    assert len(api.completions()) == 1  # a single-slot server must not get it again
    _untouched(ws, before)


def test_unreachable_server(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "1")
    _note(ws, "Melanie ran a charity race")
    prov = OpenAIProvider("m", base_url="http://127.0.0.1:9/v1", context_tokens=4096)
    with pytest.raises(AgentSleepError, match="could not reach http://127.0.0.1:9/v1"):
        sleep_cycle(ws, "nrem", prov, now=NOW)


def test_ten_megabyte_field_and_unknown_ids(ws: Path, api: FakeOpenAIAPI) -> None:
    nid = _note(ws, "Caroline went to a support group")
    out = _nrem("Caroline went to a support group", [nid])
    out["memory_md_updates"] += [
        {**out["memory_md_updates"][0], "text": "x" * 10_000_000},
        {**out["memory_md_updates"][0], "text": "Invented fact", "sources": ["zzzzzzzzzz"]},
    ]
    out["weakly_learned"] = [{"text": "y" * 1_000_000, "sources": [nid]}]
    api.replies.append(Reply.json(out))
    started = time.monotonic()
    r = sleep_cycle(ws, "nrem", "openai", now=NOW)
    assert time.monotonic() - started < 20
    text = (ws / "MEMORY.md").read_text()
    assert "support group" in text and "Invented fact" not in text and "xxxx" not in text
    assert r.tokens["repairs"] == 0
    assert r.dropped.get("ungrounded") == 1 and r.dropped.get("oversized") == 1, r.dropped
    line = (ws / ".agent-sleep/journal.jsonl").read_text()
    assert len(line) < 100_000


def test_flush_through_the_sdk(ws: Path, api: FakeOpenAIAPI) -> None:
    dump = "User: I prefer dark mode in every editor.\nAssistant: dev server on port 5173."
    api.replies.append(
        Reply.json(
            {
                "notes": [
                    {
                        "type": "O",
                        "confidence": 0.9,
                        "text": "User prefers dark mode in every editor",
                    },
                    {"type": "W", "confidence": 0.5, "text": "User owns three yachts in Monaco"},
                ]
            }
        )
    )
    r = flush(dump, workspace=ws, provider="openai", now=NOW)
    assert len(r.written) == 1 and r.rejected == {"ungrounded": 1}
    schema = api.completions()[0].schema
    assert schema is not None and schema["properties"]["notes"]["maxItems"] >= 1


def test_cli_flush_and_sleep_with_base_url(ws: Path, api: FakeOpenAIAPI) -> None:
    env = {"OPENAI_BASE_URL": ""}
    p = run_cli(
        "flush", *AT, "--base-url", api.url, "--context-dump",
        "User: We decided to ship the Apollo beta on Friday 2026-03-06.", "-w", str(ws),
        "--json", env=env,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["provider"] == "openai"
    p = run_cli(
        "sleep", *AT, "--base-url", api.url, "--context-tokens", "4096", "-w", str(ws), env=env
    )
    assert p.returncode == 0, p.stderr
    assert "Apollo beta" in (ws / "MEMORY.md").read_text()
    p = run_cli("sleep", *AT, "--context-tokens", "100", "-w", str(ws))
    assert p.returncode == 2 and "--context-tokens" in p.stderr


def test_helpers() -> None:
    assert strip_reasoning("<think>a</think>\n<think>b</think> {}") == "{}"
    assert strip_reasoning("<thinking>never closed {") == ""
    assert find_object('a {"x": {"y": 1}} b {"z": 2}') == {"z": 2}
    assert find_object('{"x": 1') is None
    assert find_object("[" * 100_000) is None
    assert prompts.render({"task": "x"}).startswith("{")
    soon = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 <= (retry_after({"retry-after": soon}) or 0) <= 31
    assert retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert retry_after({"retry-after": "soon"}) is None and retry_after({}) is None
