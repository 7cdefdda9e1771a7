"""Test doubles for the model: a fake Messages API server and a queue-driven provider.

``FakeMessagesAPI`` is a real HTTP server on 127.0.0.1 (random port, own thread) that the real
``anthropic`` SDK reaches through ``ANTHROPIC_BASE_URL``. Each request pops the next scripted
reply: a JSON object as the model's text, raw text (invalid JSON), tool_use blocks
(``Reply.tools``), an HTTP error status, or a delay before replying (to trip the client
timeout). Every request is recorded.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from agent_sleep.providers.base import Usage


@dataclass
class Reply:
    text: str = ""
    status: int = 200
    delay: float = 0.0
    error: str = "Overloaded"
    # tool_use blocks to send, each {"name": ..., "input": ...}
    tool_uses: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def json(cls, data: dict[str, Any], delay: float = 0.0) -> Reply:
        return cls(text=json.dumps(data), delay=delay)

    @classmethod
    def tools(cls, *calls: tuple[str, dict[str, Any]], text: str = "") -> Reply:
        """A reply asking the client to run tools: one ``tool_use`` block per (name, input)."""
        return cls(text=text, tool_uses=[{"name": n, "input": i} for n, i in calls])


def _content(reply: Reply, n: int) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = [{"type": "text", "text": reply.text}] if reply.text else []
    blocks += [
        {"type": "tool_use", "id": f"toolu_{n:03d}_{i:02d}", "name": c["name"], "input": c["input"]}
        for i, c in enumerate(reply.tool_uses)
    ]
    return blocks or [{"type": "text", "text": ""}]


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class FakeMessagesAPI:
    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                with api._lock:
                    api.requests.append(Recorded(self.path, dict(self.headers), body))
                    reply = api.replies.pop(0) if api.replies else Reply(status=500)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.status != 200:
                    payload = {
                        "type": "error",
                        "error": {"type": "api_error", "message": reply.error},
                    }
                    self._send(reply.status, payload, {"retry-after-ms": "10"})
                    return
                self._send(
                    200,
                    {
                        "id": f"msg_{len(api.requests)}",
                        "type": "message",
                        "role": "assistant",
                        "model": body.get("model", "?"),
                        "content": _content(reply, len(api.requests)),
                        "stop_reason": "tool_use" if reply.tool_uses else "end_turn",
                        "stop_sequence": None,
                        "usage": {"input_tokens": 120, "output_tokens": 45},
                    },
                )

            def _send(
                self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
            ) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> FakeMessagesAPI:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@dataclass
class QueueProvider:
    """A provider for unit tests: answers from a queue and keeps the history of what it got."""

    answers: list[dict[str, Any] | str] = field(default_factory=list)
    name: str = "queue"
    model: str = "queue-model"
    max_notes: int = 1000
    history: list[dict[str, Any]] = field(default_factory=list)
    during_call: Callable[[], None] | None = None

    def enqueue(self, answer: dict[str, Any] | str) -> QueueProvider:
        self.answers.append(answer)
        return self

    def complete(
        self,
        system: str,
        payload: dict[str, Any],
        schema: dict[str, Any],
        *,
        repair: str | None = None,
    ) -> tuple[dict[str, Any], Usage]:
        self.history.append({"system": system, "payload": payload, "repair": repair})
        if self.during_call is not None:
            self.during_call()
        answer = self.answers.pop(0)
        if isinstance(answer, str):
            from agent_sleep.providers.base import InvalidOutput

            raise InvalidOutput(answer, Usage(10, 5, 1))
        return answer, Usage(10, 5, 1)
