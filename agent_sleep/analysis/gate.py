"""The write gate of the pre-compaction flush: is a candidate note worth keeping?

A note must be reusable, not derivable from code or configuration, and not ephemeral. The gate
applies to every flushed note, whichever provider proposed it.
"""

from __future__ import annotations

import re

_EPHEMERAL = [
    ("address-port", re.compile(r"\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\]):\d+", re.I)),
    ("port", re.compile(
        r"\b(?:listening|running|served|serving|bound) (?:on|at) (?:port )?\d{2,5}\b", re.I)),
    ("port", re.compile(r"\bport \d{4,5}\b(?! (?:is|by) default)", re.I)),
    ("temp-path", re.compile(
        r"(?:^|[\s'\"(])(?:/tmp/|/var/tmp/|/var/folders/|/private/var/|C:\\\\Temp)", re.I)),
    ("run-id", re.compile(
        r"\b(?:run|job|build|request|trace|session|process|pid|container)[ _-]?(?:id)?[:= #]+"
        r"[0-9a-f-]{6,}\b", re.I)),
    ("pid", re.compile(r"\bpid[:= ]+\d+\b", re.I)),
    ("uuid", re.compile(
        r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I)),
    ("hash", re.compile(r"\b[0-9a-f]{16,}\b", re.I)),
    ("timestamp", re.compile(
        r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?\b")),
]  # fmt: skip
_CODE = [
    ("traceback", re.compile(r"^(?:Traceback \(most recent call last\)|\s*File \".*\", line \d+)")),
    ("code", re.compile(
        r"^\s*(?:def |class |import |from \S+ import |function |const |let |var |#include"
        r"|return\b|public |private )")),
    ("code", re.compile(r"[;{}]\s*$")),
    ("shell", re.compile(r"^\s*(?:\$ |# |>>> |\.\.\. |C:\\>)")),
    ("config", re.compile(r"^\s*[\w.-]+\s*[:=]\s*[\w\"'./-]+\s*$")),
    ("markup", re.compile(r"^\s*(?:</?\w+[^>]*>|[\[{]\s*$|\"[\w-]+\"\s*:)")),
]  # fmt: skip
MIN_WORDS = 3  # subject, verb, object: "He uses vim.", "I'm vegetarian." ("I'm" is two)
MAX_WORDS = 80
# a contraction holds a verb or a negation: "I'm", "she's", "we've", "don't"
_CONTRACTION_RE = re.compile(r"\w['’](?:m|s|re|ve|ll|d|t)\b", re.I)


def reject_reason(text: str) -> str | None:
    """Why ``text`` fails the gate, or ``None`` when it may be written."""
    words = text.split()
    if len(words) + len(_CONTRACTION_RE.findall(text)) < MIN_WORDS:
        return "too-short"
    if len(words) > MAX_WORDS:
        return "too-long"
    for kind, pattern in _EPHEMERAL:
        if pattern.search(text):
            return f"ephemeral:{kind}"
    for kind, pattern in _CODE:
        if pattern.search(text):
            return f"derivable:{kind}"
    if sum(ch.isalpha() for ch in text) < 0.6 * len(text.replace(" ", "")):
        return "not-prose"
    return None
