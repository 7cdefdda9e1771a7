"""``AGENT_SLEEP_TIMEOUT`` is a deadline for the whole call, and a call past it is not retried,
on both providers.

The SDKs' own timeout applies to each read of the socket: a server (or a proxy) that sends a
byte now and then held a call, and the ``sleep`` behind it, for as long as it liked; and the
anthropic SDK retried a timed-out call (``AGENT_SLEEP_MAX_RETRIES`` + 1 calls of
``AGENT_SLEEP_TIMEOUT`` each). :class:`TrickleServer` answers 200 at once, then sends its body
one space at a time (leading spaces are valid JSON) for far longer than any deadline here; the
call must be abandoned, and its connection closed. No wall-clock duration is asserted.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core.errors import AgentSleepError
from agent_sleep.core.rest import micro_rest
from agent_sleep.providers.anthropic import AnthropicProvider
from agent_sleep.providers.openai import OpenAIProvider
from tests.fake_messages_api import FakeMessagesAPI, Reply
from tests.fake_openai_api import honest
from tests.test_hostile_support import NOW, but_failure_lines, day, tree

GAP = 0.05  # seconds between two bytes: far under the deadline, so no read ever times out
SPACES = 400  # bytes of padding: 20 s of trickle, long past the deadline


class TrickleServer:
    """Answers every POST (Messages API or chat completion) with an honest answer, its body
    sent one byte every :data:`GAP` seconds; ``GET /v1/models`` at once. ``gone`` is set when
    the client closes a connection it was being sent a body on."""

    def __init__(self) -> None:
        self.posts = 0
        self.gone = threading.Event()
        self.stop = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                self._send(json.dumps({"data": [{"id": "m"}]}).encode(), trickle=False)

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                server.posts += 1
                user = body["messages"][-1]["content"]
                text = json.dumps(honest(json.loads(user.split("\n\nYour previous", 1)[0])))
                if self.path.endswith("/messages"):
                    reply: dict[str, Any] = {
                        "id": "msg_1", "type": "message", "role": "assistant", "model": "m",
                        "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
                        "usage": {"input_tokens": 1, "output_tokens": 1},
                    }  # fmt: skip
                else:
                    message = {"role": "assistant", "content": text}
                    reply = {"id": "c", "object": "chat.completion", "created": 1, "model": "m",
                             "choices": [{"index": 0, "message": message,
                                          "finish_reason": "stop"}]}  # fmt: skip
                self._send(b" " * SPACES + json.dumps(reply).encode(), trickle=True)

            def _send(self, data: bytes, *, trickle: bool) -> None:
                try:
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    if not trickle:
                        self.wfile.write(data)
                        return
                    for i in range(len(data)):
                        if server.stop.is_set():
                            return
                        self.wfile.write(data[i : i + 1])
                        self.wfile.flush()
                        time.sleep(GAP)
                except (BrokenPipeError, ConnectionResetError):
                    server.gone.set()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> TrickleServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def served(ws: Path) -> Path:
    micro_rest("Caroline moved to Boston for the new job", "W", workspace=ws, when=day(1))
    return ws


@pytest.fixture
def trickle() -> Iterator[TrickleServer]:
    with TrickleServer() as server:
        yield server


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_a_trickling_reply_is_abandoned_at_the_deadline(
    served: Path, trickle: TrickleServer, monkeypatch: pytest.MonkeyPatch, provider: str
) -> None:
    monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "2")
    prov: Any
    if provider == "anthropic":
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", trickle.url)
        prov = AnthropicProvider(timeout=0.5)
    else:
        prov = OpenAIProvider("m", base_url=f"{trickle.url}/v1", context_tokens=8192, timeout=0.5)
    before = tree(served)
    with pytest.raises(AgentSleepError, match=r"timed out after 0.5s \(a timeout is not retried"):
        sleep_cycle(served, "nrem", prov, now=NOW)
    assert trickle.posts == 1  # not retried
    assert trickle.gone.wait(10)  # the abandoned request's connection was closed
    assert but_failure_lines(tree(served)) == before
    trickle.stop.set()


def test_anthropic_does_not_retry_a_timeout(served: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeMessagesAPI() as api:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "2")
        monkeypatch.setenv("AGENT_SLEEP_TIMEOUT", "0.5")
        api.replies.append(Reply.json({"never": "read"}, delay=3.0))
        before = tree(served)
        with pytest.raises(AgentSleepError, match=r"timed out after 0.5s \(a timeout is not"):
            sleep_cycle(served, "nrem", "anthropic", now=NOW)
        assert len(api.requests) == 1  # as the openai provider: a hung endpoint costs one call
    assert but_failure_lines(tree(served)) == before


def test_anthropic_still_retries_an_overloaded_server(
    served: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeMessagesAPI() as api:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "2")
        api.replies += [Reply(status=529), Reply(status=503)]  # then 500: the queue is empty
        with pytest.raises(AgentSleepError, match="the Messages API answered 500 after 2 retries"):
            sleep_cycle(served, "nrem", "anthropic", now=NOW)
        assert len(api.requests) == 3
        api.replies += [Reply(status=429)]
        monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "0")
        with pytest.raises(AgentSleepError, match=r"answered 429; nothing was written"):
            sleep_cycle(served, "nrem", "anthropic", now=NOW)
        assert len(api.requests) == 4
