"""Reading what a model sends back, and telling it what to send: token estimates, the schema
as a compact shape for the prompt, reasoning preambles, a JSON object inside prose or a code
fence, ``Retry-After``. Pure functions, no SDK."""

from __future__ import annotations

import email.utils
import json
import re
import time
from typing import Any

SCAN_LIMIT = 200_000  # a reply longer than this is not searched for an embedded object
BOUNDS = ("maxLength", "maxItems", "minItems")
PROSE_CHARS, JSON_CHARS = 3.3, 2.2  # characters a token, on the low side (estimate_tokens)
_THINK_RE = re.compile(r"^\s*<(think|thinking|reasoning)>.*?</\1>\s*", re.S | re.I)
_OPEN_THINK_RE = re.compile(r"^\s*<(think|thinking|reasoning)>", re.I)
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
