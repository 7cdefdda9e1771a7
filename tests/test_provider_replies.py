"""What the anthropic and openai providers do when a server answers 200 with something that is
not the reply they asked for (an HTML page, other JSON), and with out-of-range retry and timeout
settings: one ``Error:`` line and an exit code, never a traceback, nothing written (each case
was a reported defect).

The real SDKs talk to :class:`RawServer`, a stand-in on 127.0.0.1 that answers each request
with whatever body and content type the test gives it."""

from __future__ import annotations

import json
import subprocess
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core.errors import AgentSleepError, BadInput
from agent_sleep.core.rest import micro_rest
from agent_sleep.providers.anthropic import AnthropicProvider
from agent_sleep.providers.base import get_provider
from agent_sleep.providers.openai import OpenAIProvider
from tests.fake_openai_api import honest
from tests.test_hostile_support import AT, NOW, but_failure_lines, cli, day, tree

HTML = ("text/html; charset=utf-8", "<!doctype html><html><body><h1>Welcome</h1></body></html>")
Answer = tuple[str, str]  # content type, body
Route = Callable[[str, str, dict[str, Any]], Answer]  # method, path, JSON body -> answer


class RawServer:
    """Answers every request with ``route(method, path, body)``: HTTP 200, the content type and
    the body it returns. Records the paths asked for."""

    def __init__(self, route: Route) -> None:
        self.paths: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _answer(self) -> None:
                length = int(self.headers.get("content-length", 0) or 0)
                raw = self.rfile.read(length) if length else b""
                server.paths.append(self.path)
                ctype, body = route(self.command, self.path, json.loads(raw or b"{}"))
                data = body.encode()
                try:
                    self.send_response(200)
                    self.send_header("content-type", ctype)
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_GET = do_POST = _answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> RawServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def always(ctype: str, body: str) -> Route:
    return lambda _method, _path, _body: (ctype, body)


def _json(data: object) -> Answer:
    return "application/json", json.dumps(data)


@pytest.fixture
def served(ws: Path) -> Path:
    """A workspace with one note waiting for sleep."""
    micro_rest("Caroline moved to Boston for the new job", "W", workspace=ws, when=day(1))
    return ws


def _anthropic_env(url: str) -> dict[str, str]:
    return {
        "ANTHROPIC_API_KEY": "sk-test-key",
        "ANTHROPIC_BASE_URL": url,
        "AGENT_SLEEP_PROVIDER": "anthropic",
        "AGENT_SLEEP_MAX_RETRIES": "0",
    }


def _openai_env() -> dict[str, str]:
    return {"OPENAI_API_KEY": "sk-test-key", "OPENAI_BASE_URL": "", "AGENT_SLEEP_MAX_RETRIES": "0"}


def _failed(r: subprocess.CompletedProcess[str], code: int) -> str:
    """The one ``Error:`` line a failed command ends with (progress lines may precede it)."""
    assert r.returncode == code, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("Error: "), r.stderr
    assert [ln for ln in r.stderr.splitlines() if ln.startswith("Error: ")] == [last]
    return last


# -- anthropic: a 200 that is not a Messages API message -----------------------------------------

NOT_A_MESSAGE = [
    pytest.param(*HTML, id="html"),
    pytest.param(*_json({"foo": 1}), id="other-json-object"),
    pytest.param("application/json", "<html>not json</html>", id="json-type-not-json"),
    pytest.param(*_json([1, 2]), id="json-list"),
    pytest.param(*_json(None), id="json-null"),
    pytest.param(*_json({"content": "text", "usage": {"input_tokens": 1}}), id="content-a-string"),
    pytest.param(
        *_json({"content": [1, {"type": "text", "text": 5}], "usage": 7, "stop_reason": 5}),
        id="content-blocks-of-any-type",
    ),
]


def test_anthropic_cli_sleep_refuses_an_html_page(served: Path) -> None:
    with RawServer(always(*HTML)) as server:
        before = tree(served)
        r = cli("sleep", *AT, "--phase", "nrem", "-w", str(served), env=_anthropic_env(server.url))
        err = _failed(r, 1)
        assert "the anthropic model's reply was unusable twice" in err
        assert "not a Messages API message (text '<!doctype html>" in err
        assert r.stdout == ""
        assert server.paths == ["/v1/messages"] * 2  # the call and its one repair retry
    assert but_failure_lines(tree(served)) == before


def test_anthropic_cli_flush_json_refuses_other_json(served: Path) -> None:
    with RawServer(always(*_json({"foo": 1}))) as server:
        before = tree(served)
        r = cli("flush", *AT, "--context-dump", "User: I prefer tea.", "-w", str(served),
                "--json", env=_anthropic_env(server.url))  # fmt: skip
        err = _failed(r, 1)
        assert "the anthropic model's reply was unusable twice" in err
        assert "not a Messages API message (no content)" in err
        assert json.loads(r.stdout) == {"error": err.removeprefix("Error: "), "exit_code": 1}
        assert server.paths == ["/v1/messages"] * 2
    assert but_failure_lines(tree(served)) == before


@pytest.mark.parametrize(("ctype", "body"), NOT_A_MESSAGE)
def test_anthropic_reply_that_is_not_a_message_is_an_invalid_reply(
    served: Path, monkeypatch: pytest.MonkeyPatch, ctype: str, body: str
) -> None:
    with RawServer(always(ctype, body)) as server:
        for key, value in _anthropic_env(server.url).items():
            monkeypatch.setenv(key, value)
        before = tree(served)
        with pytest.raises(AgentSleepError, match="anthropic model's reply was unusable twice"):
            sleep_cycle(served, "nrem", "anthropic", now=NOW)
        assert len(server.paths) == 2
    assert but_failure_lines(tree(served)) == before


def test_anthropic_usage_of_any_type_counts_zero(
    served: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def route(_method: str, _path: str, body: dict[str, Any]) -> Answer:
        user = body["messages"][0]["content"]
        payload = json.loads(user[user.find("{") : user.rindex("}") + 1])
        text = json.dumps(honest(payload))
        content = [{"type": "text", "text": text}]
        return _json({"content": content, "usage": {"input_tokens": "many"}, "type": "message"})

    with RawServer(route) as server:
        for key, value in _anthropic_env(server.url).items():
            monkeypatch.setenv(key, value)
        r = sleep_cycle(served, "nrem", "anthropic", now=NOW)
    assert r.tokens["calls"] == 1 and r.tokens["input"] == 0 and r.tokens["output"] == 0
    assert "Boston" in (served / "MEMORY.md").read_text()


# -- openai: /v1/models that is not a model list -------------------------------------------------

NOT_A_MODEL_LIST = [
    pytest.param(*HTML, id="html"),
    pytest.param("application/json", "<html>not json</html>", id="json-type-not-json"),
    pytest.param(*_json([1, 2]), id="json-list"),
    pytest.param(*_json({"foo": 1}), id="no-data"),
    pytest.param(*_json({"data": [1, "x"]}), id="entries-not-objects"),
    pytest.param(*_json({"data": [{"name": "m"}]}), id="entry-without-id"),
    pytest.param("application/json", "[" * 100_000, id="nested-too-deep"),
]


@pytest.mark.parametrize(("ctype", "body"), NOT_A_MODEL_LIST)
def test_openai_model_discovery_refuses_a_body_that_is_not_a_model_list(
    served: Path, ctype: str, body: str
) -> None:
    with RawServer(always(ctype, body)) as server:
        before = tree(served)
        prov = OpenAIProvider(base_url=f"{server.url}/v1")
        with pytest.raises(AgentSleepError, match="could not list the models of http") as e:
            _ = prov.model
        assert type(e.value) is AgentSleepError  # as when the server cannot be reached
        assert "pass --model" in str(e.value) and "\n" not in str(e.value)
        assert server.paths == ["/v1/models"]
    assert but_failure_lines(tree(served)) == before


def test_openai_cli_without_model_and_a_bad_model_list(served: Path) -> None:
    with RawServer(always(*HTML)) as server:
        before = tree(served)
        url = f"{server.url}/v1"
        r = cli("sleep", *AT, "--base-url", url, "-w", str(served), "--json", env=_openai_env())
        err = _failed(r, 1)  # the exit code of the other failures to list the models
        assert err.startswith(f"Error: could not list the models of {url} (the answer is not JSON")
        assert json.loads(r.stdout)["exit_code"] == 1
        assert server.paths == ["/v1/models"]  # no completion asked for
    assert but_failure_lines(tree(served)) == before


def test_openai_with_model_a_bad_model_list_leaves_the_default_window(
    served: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "0")

    def route(_method: str, path: str, body: dict[str, Any]) -> Answer:
        if path.endswith("/models"):
            return HTML
        message = {"role": "assistant", "content": json.dumps(honest(json.loads(
            body["messages"][-1]["content"])))}  # fmt: skip
        choice = {"index": 0, "message": message, "finish_reason": "stop"}
        return _json({"id": "c", "object": "chat.completion", "choices": [choice]})

    with RawServer(route) as server:
        prov = OpenAIProvider("m", base_url=f"{server.url}/v1")
        assert prov.context_tokens == 8192
        sleep_cycle(served, "nrem", prov, now=NOW)
    assert "Boston" in (served / "MEMORY.md").read_text()


def test_openai_model_list_null_is_an_empty_list(monkeypatch: pytest.MonkeyPatch) -> None:
    # Ollama with no model pulled answers {"data": null}
    empty = always(*_json({"object": "list", "data": None}))
    with RawServer(empty) as server, pytest.raises(BadInput, match="offers 0 models"):
        _ = OpenAIProvider(base_url=f"{server.url}/v1").model
    listing = {"data": [{"id": "a.gguf", "meta": {"n_ctx": 4096}}, {"id": "b", "n_ctx": 2048}]}
    with RawServer(always(*_json(listing))) as server:
        assert OpenAIProvider("b", base_url=f"{server.url}/v1").context_tokens == 2048
        with pytest.raises(BadInput, match=r"offers 2 models \(a.gguf, b\)"):
            _ = OpenAIProvider(base_url=f"{server.url}/v1").model


# -- openai: a 200 that is not a chat completion -------------------------------------------------

NOT_A_COMPLETION = [
    pytest.param("application/json", "<html>not json</html>", id="json-type-not-json"),
    pytest.param(*_json({"choices": "abc"}), id="choices-a-string"),
    pytest.param(*_json({"choices": [1]}), id="choice-not-an-object"),
    pytest.param(*_json({"choices": [{"message": 5, "finish_reason": "stop"}]}), id="message-5"),
    pytest.param(
        *_json({"choices": [{"message": {"content": 5}, "finish_reason": "stop"}]}), id="content-5"
    ),
    pytest.param(*_json({"choices": [], "usage": {"prompt_tokens": "a"}}), id="usage-text"),
]


@pytest.mark.parametrize(("ctype", "body"), NOT_A_COMPLETION)
def test_openai_reply_that_is_not_a_completion_is_an_invalid_reply(
    served: Path, monkeypatch: pytest.MonkeyPatch, ctype: str, body: str
) -> None:
    monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "0")
    with RawServer(always(ctype, body)) as server:
        before = tree(served)
        prov = OpenAIProvider("m", base_url=f"{server.url}/v1", context_tokens=4096)
        with pytest.raises(AgentSleepError, match="openai model's reply was unusable twice"):
            sleep_cycle(served, "nrem", prov, now=NOW)
        assert server.paths == ["/v1/chat/completions"] * 2
    assert but_failure_lines(tree(served)) == before


# -- out-of-range settings -----------------------------------------------------------------------

BAD_TIMEOUTS = ["-1", "0", "-0.5", "nan", "inf", "-inf", "1e12"]
BAD_RETRIES = ["-1", "2.5", "nan", "inf", "-inf"]


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_out_of_range_settings_are_refused_before_any_call(
    provider: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    for name, values, accepted in (
        ("AGENT_SLEEP_TIMEOUT", BAD_TIMEOUTS, "give a number of seconds greater than 0"),
        ("AGENT_SLEEP_MAX_RETRIES", BAD_RETRIES, "give an integer >= 0"),
    ):
        for value in values:
            monkeypatch.setenv(name, value)
            with pytest.raises(BadInput) as e:
                get_provider(provider)
            assert str(e.value).startswith(f"${name}={value!r} is not a valid"), str(e.value)
            assert accepted in str(e.value)
        monkeypatch.delenv(name)
    for timeout, retries in (("0.5", "0"), ("1000000", "3.0"), (" 2 ", "1e1")):
        monkeypatch.setenv("AGENT_SLEEP_TIMEOUT", timeout)
        monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", retries)
        prov: Any = get_provider(provider)
        assert prov.timeout == float(timeout) and prov.max_retries == int(float(retries))
    for kwargs in ({"timeout": 0.0}, {"timeout": float("nan")}, {"max_retries": -1}):
        cls: Any = AnthropicProvider if provider == "anthropic" else OpenAIProvider
        with pytest.raises(BadInput, match="is not a valid"):
            cls(**kwargs)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("AGENT_SLEEP_TIMEOUT", "-1"),
        ("AGENT_SLEEP_TIMEOUT", "0"),
        ("AGENT_SLEEP_TIMEOUT", "nan"),
        ("AGENT_SLEEP_MAX_RETRIES", "-1"),
    ],
)
def test_cli_refuses_out_of_range_settings_for_both_providers(
    served: Path, name: str, value: str
) -> None:
    with RawServer(always(*HTML)) as server:
        before = tree(served)
        runs = [
            cli("sleep", *AT, "-w", str(served), env={**_anthropic_env(server.url), name: value}),
            cli("sleep", *AT, "--base-url", f"{server.url}/v1", "--model", "m",
                "-w", str(served), env={**_openai_env(), name: value}),
        ]  # fmt: skip
        for r in runs:
            err = _failed(r, 2)
            assert err.startswith(f"Error: ${name}={value!r} is not a valid "), err
            assert len(r.stderr.strip().splitlines()) == 1, r.stderr  # refused up front
        assert server.paths == []
    assert but_failure_lines(tree(served)) == before
