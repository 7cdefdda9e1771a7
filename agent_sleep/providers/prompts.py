"""System prompts and JSON schemas for NREM, REM and the pre-compaction flush.

The prompts follow the specification's wording, with two additions every abstracting prompt
carries: temporal anchors are a protected category (one sentence that keeps dates, times,
durations and ages verbatim), and every item cites the ids of the notes it came from. The user
content is a JSON payload (see :func:`payload`), which the offline provider reads as well;
:func:`render` lays it out for a model, every string redacted.
"""

from __future__ import annotations

import json
from typing import Any

from agent_sleep.core.redact import redact

TEMPORAL_PROTECTION = (
    "You MUST preserve verbatim: all specific dates, times, durations, ages, and temporal "
    "expressions (e.g. '7 May', 'last Tuesday', 'at 9pm'), including the resolved dates given "
    "in parentheses (e.g. 'yesterday (2023-05-07)')."
)
GROUNDING = (
    "Be strictly grounded. No invention. Every item must list in `sources` the ids of the input "
    "notes or MEMORY.md entries it comes from; items citing ids that are not in the input are "
    "discarded."
)

NREM_SYSTEM = f"""{TEMPORAL_PROTECTION}

You simulate NREM deep-sleep memory consolidation for an AI agent.

The user message is JSON: `notes` are today's new notes (id, date, time, type, confidence, text),
`memory` the current MEMORY.md entries (id, type, confidence, text; `contested` when a weaker
note disputed it), `related` the current bank entries most related to the notes (id, type,
confidence, text, date, page), `weakly_learned` items of earlier runs still waiting for
reinforcement (replay them: reinforce, supersede or leave them).

KEEP KNOWLEDGE CURRENT. For each note, compare it with the `memory` and `related` entries on
the same subject and attribute (who or what it is about, and what is said of it):
  - "keep": the note adds nothing (an entry already says it); cite the entry and the note.
  - "merge": the note restates an entry with the same value: `replaces` = the entry id; the
    entry keeps its text and gains the note as evidence. Never merge notes whose values differ
    (numbers, names, dates, versions, places, negation).
  - "supersede": the note gives a NEW VALUE for the same subject and attribute (explicitly:
    "now", "moved to", "switched to", "no longer", "instead of", "from A to B", "renamed",
    "replaced by", "was raised to"; or implicitly: the same statement with another value).
    `replaces` = the id of the outdated entry (MEMORY.md or bank), `text` = the current fact,
    `sources` MUST include the new note's id. The old entry moves to History; never keep both.
    A contradicting opinion never raises the old confidence. When the note removes or swaps
    ONE item of a list entry ("We use Redis and Memcached" / "We no longer use Memcached"),
    `text` = the entry rewritten with that item gone or swapped ("We use Redis"): the other
    items stay current.
  - "remove": `replaces` = an entry that is redundant or wrong.
  - "add": a new fact (no entry on the same subject and attribute).
Facts that merely look alike are both kept ("Ana is allergic to peanuts" / "Ana also avoids
shellfish" are two facts, not an update).

Two-track processing:

FAST TRACK (compressed replay — high-confidence, clear facts):
  - Distill into single-sentence durable memories for MEMORY.md
  - Prune ~20% as redundant (synaptic homeostasis: sleep removes weak connections)
  - Use prefixes: W (world fact), B (experience), O(c=N) (opinion + confidence), S (summary)
  - Do not add what MEMORY.md already says; use "update" (with `replaces` set to the entry
    id) when a note refines an entry without changing its value, "supersede" when it changes it.

SLOW TRACK (dilated replay — weakly-learned, uncertain, needing reinforcement):
  - Expand on low-confidence or partial-knowledge items
  - Write to bank/ as entity (a person, project, place) or concept (a topic) pages; `slug` is
    lower-case words joined by hyphens; `content` is one plain-text entry, no headings
  - These are what human NREM prioritizes (Schapiro et al. 2018)

{GROUNDING}

Respond ONLY with valid JSON matching the schema: memory_md_updates, bank_updates,
pruned_count, weakly_learned (items for slow-track attention), open_questions (gaps for the
next session). Use "" for `replaces` when the action is "add"."""

REM_SYSTEM = f"""{TEMPORAL_PROTECTION}

You simulate REM dream-sleep creative synthesis for an AI agent.
Find non-obvious connections. Update beliefs where evidence shifted.

The user message is JSON: `notes` are today's notes, `memory` the MEMORY.md entries (after
today's NREM), `open_questions` the gaps NREM found.

Tasks:
1. Cross-domain links between today's memories and MEMORY.md (creative_connections, aha_moments)
2. Update O(c=N) confidence values where evidence has shifted (confidence_updates: `item` is
   the id of the MEMORY.md entry, old_c its current confidence, new_c the new one)
3. Generate concrete next-session actions
4. Propose new bank/ pages if a topic recurred 3+ times this session

{GROUNDING}

Respond ONLY with valid JSON matching the schema."""

FLUSH_SYSTEM = f"""{TEMPORAL_PROTECTION}

The agent's context window is about to be compacted. Extract from the raw context below the
notes worth keeping in the agent's daily log, before they are lost.

Keep a note only if it passes all three gates:
  - reusable: it will matter in a later session (preferences, decisions and their reasons,
    facts about people and projects, lessons learned, commitments, open problems);
  - not derivable: it cannot be read back from the code, configuration or files;
  - not ephemeral: no port numbers, temporary paths, process or run ids, hashes, stack traces.

Each note is one self-contained sentence. Types: W world fact, B experience, O opinion or
preference (with confidence 0-1), S summary. Copy wording from the context; do not invent.
Respond ONLY with valid JSON matching the schema; an empty list when nothing qualifies."""

REPAIR = (
    "Your previous reply could not be used: {problems}\n"
    "Reply again with only a JSON object that matches the schema."
)

ACTIONS = ("add", "keep", "merge", "update", "supersede", "remove")
_STR: dict[str, Any] = {"type": "string"}
_NUM: dict[str, Any] = {"type": "number"}
_IDS: dict[str, Any] = {"type": "array", "items": _STR}
_KIND: dict[str, Any] = {"type": "string", "enum": ["entity", "concept"]}
_TYPE: dict[str, Any] = {"type": "string", "enum": ["W", "B", "O", "S"]}


def _obj(props: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }


def _arr(item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": item}


_CITED_TEXT = _obj({"text": _STR, "sources": _IDS})

NREM_SCHEMA = _obj(
    {
        "memory_md_updates": _arr(
            _obj(
                {
                    "action": {"type": "string", "enum": list(ACTIONS)},
                    "type": _TYPE,
                    "confidence": _NUM,
                    "text": _STR,
                    "replaces": _STR,
                    "sources": _IDS,
                }
            )
        ),
        "bank_updates": _arr(
            _obj({"slug": _STR, "kind": _KIND, "section": _STR, "content": _STR, "sources": _IDS})
        ),
        "pruned_count": {"type": "integer"},
        "weakly_learned": _arr(_CITED_TEXT),
        "open_questions": _arr(_CITED_TEXT),
    }
)

REM_SCHEMA = _obj(
    {
        "aha_moments": _arr(_CITED_TEXT),
        "creative_connections": _arr(_obj({"link": _STR, "why": _STR, "sources": _IDS})),
        "confidence_updates": _arr(
            _obj({"item": _STR, "old_c": _NUM, "new_c": _NUM, "reason": _STR, "sources": _IDS})
        ),
        "new_bank_suggestions": _arr(
            _obj({"slug": _STR, "kind": _KIND, "seed_content": _STR, "sources": _IDS})
        ),
        "next_session_actions": _arr(_CITED_TEXT),
    }
)

FLUSH_SCHEMA = _obj({"notes": _arr(_obj({"type": _TYPE, "confidence": _NUM, "text": _STR}))})


def payload(task: str, **fields: Any) -> dict[str, Any]:
    """What a provider is given: the task and its fields, one JSON-ready object."""
    return {"task": task, **fields}


def redacted(value: Any) -> Any:
    """``value`` (a payload: dicts, lists, strings, numbers) with every string passed through
    :func:`agent_sleep.core.redact.redact`; keys are the payload's own and stay."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: redacted(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redacted(v) for v in value]
    return value


def render(data: dict[str, Any], repair: str | None = None) -> str:
    """The user content a model reads: the payload as JSON, and on a retry what was wrong.

    Every string is redacted here, the last step before a request leaves for any provider
    (a hosted API or a local server): notes are redacted when written, but MEMORY.md and bank
    pages may hold credentials typed in by hand, and this is the one place every payload
    (NREM's ``memory`` and ``related``, REM's, a flush dump) passes through."""
    text = json.dumps(redacted(data), ensure_ascii=False, indent=1)
    if repair is None:
        return text
    return text + "\n\n" + REPAIR.format(problems=redact(repair))
