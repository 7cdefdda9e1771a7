"""The offline consolidator's pre-compaction flush: the sentences of a context dump that state
something durable and pass the write gate. See providers/offline.py."""

from __future__ import annotations

import re
from typing import Any

from agent_sleep.analysis import distill, gate, lexical

_PREFERENCE_RE = re.compile(
    r"\b(?:prefer|prefers|preferred|like|likes|love|loves|hate|hates|dislike|dislikes|want|wants"
    r"|rather|favou?rite|enjoy|enjoys)\b",
    re.I,
)


_EXPERIENCE_RE = re.compile(
    r"\b(?:I|we|user|they)\b.{0,40}\b(?:fixed|deployed|decided|moved|went|finished|shipped"
    r"|tried|found|learned|chose|agreed|switched|migrated|released|started|met|visited)\b",
    re.I,
)


_DURABLE_RE = re.compile(
    r"\b(?:prefer\w*|always|never|decided|decision|agreed|chose|remember|important|note that"
    r"|learned|lesson|root cause|fixed|the fix|because|deadline|due|wants?|likes?|loves?|hates?"
    r"|dislikes?|requires?|must|avoid|uses|works (?:at|on)|lives in|birthday|name is|plan(?:s|ned)?"
    r"|will|goal|owner|responsible)\b",
    re.I,
)


_ROLE_RE = re.compile(r"^\s*(?:user|human|assistant|ai|claude)\s*:\s*", re.I)


_SKIP_ROLE_RE = re.compile(r"^\s*(?:system|tool|tool_result|function)\s*:", re.I)


_FIRST_PERSON_RE = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|me|my|mine|we|we're|our|us)\b")


def _candidates(dump: str) -> list[str]:
    """Sentences of the dump's turns. A first-person sentence keeps who said it ("User: I
    prefer…"), since "I" means nothing once the turn is out of its context."""
    out: list[str] = []
    in_fence = False
    for line in dump.splitlines():
        if line.strip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence or _SKIP_ROLE_RE.match(line) or not line.strip():
            continue
        role = _ROLE_RE.match(line)
        speaker = role.group(0).strip().rstrip(":").strip().capitalize() if role else ""
        body = _ROLE_RE.sub("", line).strip().lstrip("-*• ").strip()
        for sentence in lexical.sentences(body):
            sentence = distill.strip_filler(sentence)
            if speaker and _FIRST_PERSON_RE.search(sentence):
                sentence = f"{speaker}: {sentence}"
            out.append(sentence)
    return out


def classify(text: str) -> tuple[str, float | None]:
    if _PREFERENCE_RE.search(text):
        return "O", 0.8
    if _EXPERIENCE_RE.search(text):
        return "B", None
    return "W", None


def flush(p: dict[str, Any]) -> dict[str, Any]:
    """Sentences of the dump that state something durable and pass the write gate."""
    found: list[dict[str, Any]] = []
    seen: set[str] = set()
    for sentence in _candidates(p.get("text", "")):
        if gate.reject_reason(sentence) or not _DURABLE_RE.search(sentence):
            continue
        key = " ".join(lexical.tokens(sentence))
        if key in seen:
            continue
        seen.add(key)
        kind, conf = classify(sentence)
        found.append(
            {"type": kind, "confidence": conf if conf is not None else 0.8, "text": sentence}
        )
    return {"notes": found}
