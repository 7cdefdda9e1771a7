"""Per-batch bounded request schemas: a copy of the task's schema that a grammar-constrained
model cannot run away in.

``maxLength`` on strings, ``maxItems`` on every array sized so that the largest answer the copy
allows fits the room kept for the answer (string caps shrink when even one item per array would
not), ``sources`` items an ``enum`` of the batch's note and entry ids, ``replaces`` an enum of
the entry ids shown, REM's ``item`` an enum of the MEMORY.md ids. Replies are still validated
against the original schema; see references/providers.md.
"""

from __future__ import annotations

import json
from typing import Any

from agent_sleep.analysis import lexical

OUTPUT_CHARS = 3.0  # characters a token of the answer (low side)
MAX_SOURCES = 6
ENTRY_KEYS = ("memory", "related")  # existing entries (MEMORY.md, bank) shown beside the notes
STRING_CAPS = {
    "text": 280,
    "content": 480,
    "seed_content": 480,
    "section": 60,
    "slug": 48,
    "link": 200,
    "why": 200,
    "reason": 200,
}
DEFAULT_STRING_CAP = 200
MIN_STRING_CAP = 40
# share of the answer room per top-level array, by task
WEIGHTS = {
    "nrem": {
        "memory_md_updates": 0.4,
        "bank_updates": 0.35,
        "weakly_learned": 0.125,
        "open_questions": 0.125,
    },
    "rem": {
        "aha_moments": 0.15,
        "creative_connections": 0.25,
        "confidence_updates": 0.2,
        "new_bank_suggestions": 0.2,
        "next_session_actions": 0.2,
    },
    "flush": {"notes": 1.0},
}


def ids_of(items: list[dict[str, Any]]) -> list[str]:
    return [str(i["id"]) for i in items if i.get("id")]


def item_chars(schema: dict[str, Any]) -> int:
    """The longest JSON text an instance of (bounded) ``schema`` can be."""
    kind = schema.get("type")
    if "enum" in schema:
        return max((len(json.dumps(v)) for v in schema["enum"]), default=4) + 2
    if kind == "string":
        return int(int(schema.get("maxLength", 2000)) * 1.1) + 2  # a few escapes
    if kind in ("number", "integer"):
        return 24
    if kind == "object":
        props = schema.get("properties", {})
        return 2 + sum(len(k) + 6 + item_chars(v) for k, v in props.items())
    if kind == "array":
        return 2 + int(schema.get("maxItems", 50)) * (item_chars(schema.get("items", {})) + 2)
    return 8


def bounded(
    schema: dict[str, Any], task: str, payload: dict[str, Any], answer_tokens: int
) -> dict[str, Any]:
    """A copy of ``schema`` for one batch: strings capped, ids limited to the batch's, and
    each top-level array's ``maxItems`` sized so the largest answer the copy allows fits
    ``answer_tokens`` (string caps shrink, down to :data:`MIN_STRING_CAP`, when even one item
    per array would not)."""
    chars = answer_tokens * OUTPUT_CHARS / 1.15  # whitespace the grammar allows
    scale = 1.0
    for _ in range(8):
        out = _bounded_once(schema, task, payload, chars, scale)
        worst = item_chars(out)
        if worst <= chars:
            break
        scale *= 0.9 * chars / worst
    return out


def _bounded_once(
    schema: dict[str, Any], task: str, payload: dict[str, Any], chars: float, scale: float
) -> dict[str, Any]:
    note_ids = ids_of(list(payload.get("notes") or []))
    entry_ids = [i for k in ENTRY_KEYS for i in ids_of(list(payload.get(k) or []))]
    memory_ids = ids_of(list(payload.get("memory") or []))
    cite = list(dict.fromkeys(note_ids + entry_ids)) or [""]

    def walk(s: dict[str, Any], key: str) -> dict[str, Any]:
        s = dict(s)
        if key == "sources" and s.get("type") == "array":
            s["items"] = {"type": "string", "enum": cite}
            s["minItems"], s["maxItems"] = 1, min(MAX_SOURCES, len(cite))
        elif key in ("replaces", "item") and s.get("type") == "string":
            s["enum"] = ([""] + entry_ids if key == "replaces" else memory_ids) or [""]
        elif s.get("type") == "string" and "enum" not in s:
            cap = STRING_CAPS.get(key, DEFAULT_STRING_CAP)
            s["maxLength"] = max(min(cap, MIN_STRING_CAP), int(cap * scale))
        if "properties" in s:
            s["properties"] = {k: walk(v, k) for k, v in s["properties"].items()}
        if "items" in s and key != "sources":
            s["items"] = walk(s["items"], key)
        return s

    out = walk(schema, "")
    weights = WEIGHTS.get(task, {})
    # no more items than ids to cite; a flush, no more notes than the dump has sentences
    n_items = max(1, len(note_ids) + len(entry_ids))
    if task == "flush":
        n_items = max(1, len(lexical.sentences(str(payload.get("text", "")))))
    for key, prop in out.get("properties", {}).items():
        if prop.get("type") != "array":
            continue
        size = item_chars(prop.get("items", {})) + 2
        most = int(weights.get(key, 1 / max(1, len(out["properties"]))) * chars / size)
        prop["maxItems"] = max(1, min(most, n_items))
        if key == "confidence_updates" and not memory_ids:
            prop["maxItems"] = 0
    return out
