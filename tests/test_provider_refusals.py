"""Refusals, fences and tool calls, read the same way by both providers
(:func:`agent_sleep.providers.replies.answer_object`).

- A reply the API flags as refused (Anthropic ``stop_reason: "refusal"``, OpenAI
  ``finish_reason: "content_filter"`` or ``message.refusal``) is an invalid reply even when its
  text is schema-valid JSON, as a cut-off one is: one repair, then an error saying the model
  refused; nothing written.
- A fenced ```` ```json ```` answer is accepted on both providers.
- A reply with only a tool call says so, instead of "not valid JSON (Expecting value at 0)".

The real SDKs talk to :class:`~tests.test_provider_replies.RawServer` on 127.0.0.1, which
answers each request with the body a test scripts.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core.errors import AgentSleepError
from agent_sleep.core.rest import micro_rest
from agent_sleep.providers.openai import OpenAIProvider
from tests.fake_openai_api import honest
from tests.test_hostile_support import NOW, but_failure_lines, day, tree
from tests.test_provider_replies import RawServer

Script = Callable[[dict[str, Any]], dict[str, Any]]  # the request's payload -> a reply's parts


@pytest.fixture
def served(ws: Path) -> Path:
    """A workspace with one note waiting for sleep."""
    micro_rest("Caroline moved to Boston for the new job", "W", workspace=ws, when=day(1))
    return ws


def _payload(body: dict[str, Any]) -> dict[str, Any]:
    user = body["messages"][-1]["content"]
    data = json.loads(user.split("\n\nYour previous reply could not be used", 1)[0])
    assert isinstance(data, dict)
    return data


class Scripted:
    """Replies in order from ``script`` (the last one repeats); records the request bodies."""

    def __init__(self, *script: Script) -> None:
        self.script = list(script)
        self.bodies: list[dict[str, Any]] = []

    def next(self, body: dict[str, Any]) -> dict[str, Any]:
        self.bodies.append(body)
        step = self.script[min(len(self.bodies), len(self.script)) - 1]
        return step(_payload(body))

    def messages(self, _method: str, _path: str, body: dict[str, Any]) -> tuple[str, str]:
        """A Messages API message: ``text`` (default the honest answer), ``stop``, ``tools``."""
        parts = self.next(body)
        text = parts.get("text", json.dumps(honest(_payload(body))))
        blocks = [{"type": "text", "text": text}] if text else []
        blocks += [
            {"type": "tool_use", "id": f"toolu_{i}", "name": name, "input": {}}
            for i, name in enumerate(parts.get("tools", []))
        ]
        message = {
            "id": "msg_1", "type": "message", "role": "assistant", "model": "m",
            "content": blocks, "stop_reason": parts.get("stop", "end_turn"),
            "usage": {"input_tokens": 10, "output_tokens": 5},
        }  # fmt: skip
        return "application/json", json.dumps(message)

    def completions(self, _method: str, path: str, body: dict[str, Any]) -> tuple[str, str]:
        """A chat completion: ``text`` (default the honest answer), ``stop``, ``refusal``,
        ``tools``."""
        if path.endswith("/models"):
            return "application/json", json.dumps({"data": [{"id": "m"}]})
        parts = self.next(body)
        message: dict[str, Any] = {
            "role": "assistant",
            "content": parts.get("text", json.dumps(honest(_payload(body)))),
        }
        if "refusal" in parts:
            message["refusal"] = parts["refusal"]
        if parts.get("tools"):
            message["tool_calls"] = [
                {"id": f"c{i}", "type": "function",
                 "function": {"name": name, "arguments": "{}"}}
                for i, name in enumerate(parts["tools"])
            ]  # fmt: skip
        choice = {"index": 0, "message": message, "finish_reason": parts.get("stop", "stop")}
        reply = {"id": "c", "object": "chat.completion", "created": 1, "model": "m",
                 "choices": [choice]}  # fmt: skip
        return "application/json", json.dumps(reply)


def _honest(**parts: Any) -> Script:
    return lambda _payload: dict(parts)


def _fenced(payload: dict[str, Any]) -> dict[str, Any]:
    return {"text": "Here is the JSON:\n```json\n" + json.dumps(honest(payload)) + "\n```\n"}


def _anthropic(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-key")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", url)
    monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "0")


def _run(provider: str, scripted: Scripted, ws: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``sleep --phase nrem`` with ``provider`` against ``scripted``."""
    if provider == "anthropic":
        with RawServer(scripted.messages) as server:
            _anthropic(monkeypatch, server.url)
            return sleep_cycle(ws, "nrem", "anthropic", now=NOW)
    monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "0")
    with RawServer(scripted.completions) as server:
        prov = OpenAIProvider("m", base_url=f"{server.url}/v1", context_tokens=8192)
        return sleep_cycle(ws, "nrem", prov, now=NOW)


REFUSALS = [
    pytest.param("anthropic", {"stop": "refusal"}, "stop reason 'refusal'", id="anthropic"),
    pytest.param(
        "openai",
        {"stop": "content_filter"},
        "stop reason 'content_filter'",
        id="openai-content-filter",
    ),  # fmt: skip
    pytest.param(
        "openai",
        {"refusal": "I can't help with that."},
        "a refusal, saying",
        id="openai-message-refusal",
    ),  # fmt: skip
]


@pytest.mark.parametrize(("provider", "parts", "why"), REFUSALS)
def test_a_refusal_with_valid_json_is_not_applied(
    served: Path,
    monkeypatch: pytest.MonkeyPatch,
    provider: str,
    parts: dict[str, Any],
    why: str,
) -> None:
    scripted = Scripted(_honest(**parts))
    before = tree(served)
    with pytest.raises(AgentSleepError) as e:
        _run(provider, scripted, served, monkeypatch)
    message = str(e.value)
    assert f"the {provider} model's reply was unusable twice" in message
    assert f"the model refused to answer: {why}" in message, message
    assert len(scripted.bodies) == 2  # the call and its one repair
    assert but_failure_lines(tree(served)) == before


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_a_refusal_then_an_answer_is_repaired(
    served: Path,
    monkeypatch: pytest.MonkeyPatch,
    provider: str,
) -> None:
    stop = "refusal" if provider == "anthropic" else "content_filter"
    scripted = Scripted(_honest(stop=stop), _honest())
    r = _run(provider, scripted, served, monkeypatch)
    assert r.tokens["repairs"] == 1 and len(scripted.bodies) == 2
    repair = scripted.bodies[1]["messages"][-1]["content"]
    assert "could not be used: the model refused to answer" in repair
    assert "Boston" in (served / "MEMORY.md").read_text()


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_a_fenced_answer_is_accepted_by_both_providers(
    served: Path,
    monkeypatch: pytest.MonkeyPatch,
    provider: str,
) -> None:
    scripted = Scripted(_fenced)
    r = _run(provider, scripted, served, monkeypatch)
    assert r.tokens["repairs"] == 0 and len(scripted.bodies) == 1
    assert "Boston" in (served / "MEMORY.md").read_text()


def test_anthropic_plain_text_refusal_says_the_model_refused(
    served: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scripted = Scripted(_honest(stop="refusal", text="I can't help with consolidating these."))
    with pytest.raises(AgentSleepError) as e:
        _run("anthropic", scripted, served, monkeypatch)
    message = str(e.value)
    assert "the model refused to answer: stop reason 'refusal', saying \"I can't help" in message
    assert "Expecting value" not in message


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_a_plain_text_reply_is_quoted(
    served: Path,
    monkeypatch: pytest.MonkeyPatch,
    provider: str,
) -> None:
    scripted = Scripted(_honest(text="I would rather not answer that."))
    with pytest.raises(AgentSleepError) as e:
        _run(provider, scripted, served, monkeypatch)
    assert "the reply is not a JSON object (it reads 'I would rather not" in str(e.value)


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_a_tool_call_instead_of_text_says_so(
    served: Path,
    monkeypatch: pytest.MonkeyPatch,
    provider: str,
) -> None:
    stop = "tool_use" if provider == "anthropic" else "tool_calls"
    scripted = Scripted(_honest(text="" if provider == "anthropic" else None, tools=["answer"],
                                stop=stop))  # fmt: skip
    before = tree(served)
    with pytest.raises(AgentSleepError) as e:
        _run(provider, scripted, served, monkeypatch)
    message = str(e.value)
    assert "the model called a tool ('answer') instead of answering with a JSON object" in message
    assert "Expecting value" not in message and "the reply is empty" not in message
    assert but_failure_lines(tree(served)) == before
