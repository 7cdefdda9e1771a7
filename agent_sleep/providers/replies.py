"""Reading what a model sends back, and telling it what to send: token estimates, the schema
as a compact shape for the prompt, reasoning preambles, a JSON object inside prose or a code
fence, refusals and cut-off replies (:func:`answer_object`, the one reading both providers
share), ``Retry-After`` and the wait before a retry. Pure functions, no SDK."""

from __future__ import annotations

import email.utils
import json
import random
import re
import time
from collections.abc import Sequence
from typing import Any

from agent_sleep.providers.base import InvalidOutput, Usage, snippet

SCAN_LIMIT = 200_000  # a reply longer than this is not searched for an embedded object
BOUNDS = ("maxLength", "maxItems", "minItems")
PROSE_CHARS, JSON_CHARS = 3.3, 2.2  # characters a token, on the low side (estimate_tokens)
_THINK_RE = re.compile(r"^\s*<(think|thinking|reasoning)>.*?</\1>\s*", re.S | re.I)
_OPEN_THINK_RE = re.compile(r"^\s*<(think|thinking|reasoning)>", re.I)
MAX_REPLY_CHARS = 16_000_000  # openai: the whole reply; longer is refused before parsing
MAX_RETRY_WAIT = 60.0  # seconds, whatever Retry-After asks
# why a reply stopped, as the Messages API (stop_reason) and Chat Completions (finish_reason)
# say it: cut off before its end, or refused (the text may still be schema-valid JSON)
CUT_OFF = {
    "max_tokens": "at the output token limit",
    "length": "at the output token limit",
    "model_context_window_exceeded": "at the end of the context window",
}
REFUSED = frozenset({"refusal", "content_filter"})
_FENCE_RE = re.compile(r"^\s*```(?:json|JSON)?\s*\n?(.*?)\n?```\s*$", re.S)


def estimate_tokens(text: str, chars_per_token: float = JSON_CHARS) -> int:
    """Tokens ``text`` takes, erring on the large side (measured on SmolLM2's tokenizer: prose
    3.7 characters a token, the indented JSON payload 2.3)."""
    return int(len(text) / chars_per_token) + 1


def shape(schema: dict[str, Any]) -> str:
    """``schema`` as a compact example of its shape, for the prompt: ``{"a": "…", "b": [...]}``;
    an enum of a few values reads ``"x|y"``, a long one (the batch's ids) ``"<an id given>"``."""
    if "enum" in schema:
        values = [str(v) for v in schema["enum"]]
        return json.dumps("|".join(values) if len(values) <= 8 else "<an id given above>")
    kind = schema.get("type")
    if kind == "object":
        props = schema.get("properties", {})
        return "{" + ", ".join(f"{json.dumps(k)}: {shape(v)}" for k, v in props.items()) + "}"
    if kind == "array":
        return "[" + shape(schema.get("items", {})) + ", ...]"
    return {"string": '"..."', "number": "0.8", "integer": "0", "boolean": "true"}.get(
        str(kind), "null"
    )


def schema_instruction(schema: dict[str, Any]) -> str:
    return (
        "\n\nReply with one JSON object and nothing else (no prose, no code fence), shaped "
        "like this (arrays may be empty or hold several items):\n" + shape(schema)
    )


def unbounded(schema: Any) -> Any:
    """``schema`` without length and count bounds (for servers whose strict mode refuses them)."""
    if isinstance(schema, dict):
        return {k: unbounded(v) for k, v in schema.items() if k not in BOUNDS}
    if isinstance(schema, list):
        return [unbounded(v) for v in schema]
    return schema


def strip_reasoning(text: str) -> str:
    """``text`` without a leading ``<think>…</think>`` block; "" when the block never closes."""
    while True:
        m = _THINK_RE.match(text)
        if not m:
            break
        text = text[m.end() :]
    return "" if _OPEN_THINK_RE.match(text) else text.strip()


def find_object(text: str) -> dict[str, Any] | None:
    """The JSON object in a model's text: the whole text, a fenced block, or (for a text of at
    most :data:`SCAN_LIMIT` characters) the last complete top-level object embedded in prose."""
    text = text.strip()
    fenced = _FENCE_RE.match(text)
    for candidate in (text, fenced.group(1) if fenced else None):
        if candidate:
            try:
                data = json.loads(candidate)
            except (json.JSONDecodeError, RecursionError):
                continue
            return data if isinstance(data, dict) else None
    if len(text) > SCAN_LIMIT:
        return None
    decoder = json.JSONDecoder()
    found: dict[str, Any] | None = None
    at = text.find("{")
    tries = 0
    while at >= 0 and tries < 64:
        tries += 1
        try:
            data, end = decoder.raw_decode(text, at)
        except (json.JSONDecodeError, RecursionError):
            at = text.find("{", at + 1)
            continue
        if isinstance(data, dict):
            found = data
        at = text.find("{", end)
    return found


def answer_object(
    text: object,
    usage: Usage,
    *,
    stop: object = None,
    refusal: object = None,
    tools: Sequence[str] = (),
    fallback: str = "",
    limit: int | None = None,
) -> dict[str, Any]:
    """The JSON object a model's reply holds, read the same way for every provider; else
    :class:`InvalidOutput` saying why (the repair prompt and the final error quote it).

    ``text`` is the reply's text, ``stop`` its stop or finish reason, ``refusal`` a refusal
    the API reports apart (Chat Completions' ``message.refusal``), ``tools`` the names of the
    tools the model called instead, ``fallback`` text to read when ``text`` holds nothing (a
    reasoning field), ``limit`` the most characters read (longer is invalid; the openai
    provider's :data:`MAX_REPLY_CHARS`). A refusal (``refusal``, ``content_filter``) and a
    cut-off reply are invalid even when their text is valid JSON. The text may carry a
    ``<think>`` preamble, a code fence or prose around the object (:func:`find_object`)."""
    text = text if isinstance(text, str) else ""
    why = stop if isinstance(stop, str) else ""
    said = refusal if isinstance(refusal, str) and refusal.strip() else ""
    if why in REFUSED or said:
        words = f"stop reason {why!r}" if why in REFUSED else "a refusal"
        prose = len(text) <= SCAN_LIMIT and find_object(text) is None  # not a JSON answer
        quoted = said or (text if prose else "")
        if quoted.strip():
            words += f", saying {snippet(quoted)}"
        raise InvalidOutput(f"the model refused to answer: {words}", usage)
    if why in CUT_OFF:
        raise InvalidOutput(f"the reply was cut off {CUT_OFF[why]}", usage)
    content = strip_reasoning(text)
    if not content and fallback.strip():
        content = fallback
    called = ", ".join(repr(t) for t in tools[:3]) + (", …" if len(tools) > 3 else "")
    if not content.strip():
        if tools:
            raise InvalidOutput(
                f"the model called a tool ({called}) instead of answering with a JSON object "
                "in text",
                usage,
            )
        raise InvalidOutput("the reply is empty", usage)
    if limit is not None and len(content) > limit:
        raise InvalidOutput(f"the reply is over {limit} characters", usage)
    data = find_object(content)
    if data is None:
        also = f", and called a tool ({called})" if tools else ""
        raise InvalidOutput(
            f"the reply is not a JSON object (it reads {snippet(content)}{also})", usage
        )
    return data


def backoff(attempt: int, headers: Any) -> float:
    """Seconds to wait before retry ``attempt + 1``: what the server asks (``Retry-After``),
    else exponential with jitter; at most :data:`MAX_RETRY_WAIT`."""
    wait = retry_after(headers)
    if wait is None:
        wait = 0.5 * 2 ** min(attempt, 10) * (1 + random.random() / 4)
    return min(wait, MAX_RETRY_WAIT)


def retry_after(headers: Any) -> float | None:
    """Seconds the server asks to wait (``retry-after-ms``, ``retry-after`` seconds or date)."""
    if headers is None:
        return None
    for key, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        raw = headers.get(key)
        if raw is None:
            continue
        try:
            return max(0.0, float(raw) / scale)
        except ValueError:
            when = email.utils.parsedate_tz(raw)
            if when is not None:
                return max(0.0, email.utils.mktime_tz(when) - time.time())
    return None
