"""A hostile stand-in for an OpenAI-compatible server, for the real ``openai`` SDK.

``FakeOpenAIAPI`` is a real HTTP server on 127.0.0.1 (random port, own thread) serving
``GET /v1/models`` and ``POST /v1/chat/completions``. Each completion pops the next scripted
:class:`Reply` (content, a reasoning field, a finish reason, an HTTP status with headers, a delay);
when the queue is empty, ``responder`` (if set) answers from the request itself, by default
:func:`honest`: every note of the payload cited once. Every request is recorded, with the
payload the model was shown parsed back out of the user message.

Hostile behaviour the tests script with it: invalid JSON, schema-breaking JSON, a 400 for
``json_schema``, ``<think>`` preambles, a reply only in ``reasoning_content``, empty content,
429/503 with ``Retry-After``, a timeout, 10 MB fields, unknown note ids, ``finish_reason=length``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    content: str | None = ""
    status: int = 200
    delay: float = 0.0
    error: str = "server overloaded"
    headers: dict[str, str] = field(default_factory=dict)
    finish_reason: str = "stop"
    reasoning: str | None = None  # sent as message.reasoning_content
    usage: tuple[int, int] = (120, 45)

    @classmethod
    def json(cls, data: dict[str, Any], **kw: Any) -> Reply:
        return cls(content=json.dumps(data), **kw)


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def system(self) -> str:
        return str(self.body["messages"][0]["content"])

    @property
    def user(self) -> str:
        return str(self.body["messages"][-1]["content"])

    @property
    def payload(self) -> dict[str, Any]:
        """The payload the model was shown (the user message without a repair sentence)."""
        text = self.user.split("\n\nYour previous reply could not be used", 1)[0]
        data = json.loads(text)
        assert isinstance(data, dict)
        return data

    @property
    def schema(self) -> dict[str, Any] | None:
        fmt = self.body.get("response_format") or {}
        return (fmt.get("json_schema") or {}).get("schema")


def honest(payload: dict[str, Any]) -> dict[str, Any]:
    """A valid answer about ``payload`` that cites only what it was shown."""
    task = payload.get("task")
    notes = payload.get("notes") or []
    if task == "nrem":
        return {
            "memory_md_updates": [
                {
                    "action": "add",
                    "type": "W",
                    "confidence": 0.9,
                    "text": str(n["text"])[:200],
                    "replaces": "",
                    "sources": [n["id"]],
                }
                for n in notes
            ],
            "bank_updates": [],
            "pruned_count": 0,
            "weakly_learned": [],
            "open_questions": [],
        }
    if task == "rem":
        return {
            "aha_moments": [],
            "creative_connections": [],
            "confidence_updates": [],
            "new_bank_suggestions": [],
            "next_session_actions": [],
        }
    lines = [ln.strip() for ln in str(payload.get("text", "")).splitlines() if ln.strip()]
    return {
        "notes": [
            {"type": "W", "confidence": 0.8, "text": ln.split(": ", 1)[-1]} for ln in lines[:5]
        ]
    }


def honest_reply(rec: Recorded) -> Reply:
    return Reply.json(honest(rec.payload))


class FakeOpenAIAPI:
    def __init__(self, models: list[dict[str, Any]] | None = None) -> None:
        self.replies: list[Reply] = []
        self.requests: list[Recorded] = []
        self.models = models if models is not None else [{"id": "tiny-model"}]
        self.responder: Callable[[Recorded], Reply] | None = honest_reply
        self.on_request: Callable[[Recorded], None] | None = None
        self._lock = threading.Lock()
        api = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": api.models})
                else:
                    self._send(404, {"error": {"message": "not found", "type": "not_found"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                rec = Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                with api._lock:
                    api.requests.append(rec)
                    reply = api.replies.pop(0) if api.replies else None
                if api.on_request is not None:
                    api.on_request(rec)
                if reply is None:
                    reply = api.responder(rec) if api.responder else Reply(status=500)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.status != 200:
                    error = {"message": reply.error, "type": "invalid_request_error"}
                    self._send(reply.status, {"error": error}, reply.headers)
                    return
                message: dict[str, Any] = {"role": "assistant", "content": reply.content}
                if reply.reasoning is not None:
                    message["reasoning_content"] = reply.reasoning
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-{len(api.requests)}",
                        "object": "chat.completion",
                        "created": 1700000000,
                        "model": body.get("model", "?"),
                        "choices": [
                            {"index": 0, "message": message, "finish_reason": reply.finish_reason}
                        ],
                        "usage": {
                            "prompt_tokens": reply.usage[0],
                            "completion_tokens": reply.usage[1],
                            "total_tokens": sum(reply.usage),
                        },
                    },
                    reply.headers,
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
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def completions(self) -> list[Recorded]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def __enter__(self) -> FakeOpenAIAPI:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
