"""REM in the plan: confidence updates of opinions, dreams and next-session actions for today's
log, and bank pages REM suggests.

Functions of the :class:`~agent_sleep.consolidation.apply.Builder` (as ``supersede.py`` is):
every item must cite ids the model was shown; an opinion's confidence changes only with new
evidence, to a number from 0 to 1 (``bad_confidence``; never clamped); a dream or action already
in a log is not written twice, nor one whose numbers or names nothing the model was shown
says (``unsupported_value``); a run writes at most ``MAX_DREAMS`` dreams and
``MAX_NEXT_ACTIONS`` actions, and takes at most ``ITEMS_PER_NOTE`` bank suggestions per note
(``item_cap`` past them).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from agent_sleep.consolidation.plan import (
    MAX_DREAMS,
    MAX_ITEMS,
    MAX_NEXT_ACTIONS,
    MAX_TEXT_CHARS,
    bounded,
    finite,
    merge_ids,
)
from agent_sleep.core import notes as fmt
from agent_sleep.core.memory import one_line
from agent_sleep.core.notes import Note, stable_id

if TYPE_CHECKING:
    from agent_sleep.consolidation.apply import Builder


def rem(b: Builder, out: dict[str, Any]) -> None:
    """Apply a REM answer to the builder ``b``."""
    out = bounded(out)
    for item in out.get("confidence_updates", [])[:MAX_ITEMS]:
        confidence(b, item)
    for item in out.get("creative_connections", [])[:MAX_ITEMS]:
        text = f"{item.get('link', '')} — {item.get('why', '')}"
        log_note(b, b.dreams, text, item.get("sources"), "dreams", MAX_DREAMS)
    for item in out.get("aha_moments", [])[:MAX_ITEMS]:
        text = str(item.get("text", ""))
        log_note(b, b.dreams, text, item.get("sources"), "dreams", MAX_DREAMS)
    for item in out.get("next_session_actions", [])[:MAX_ITEMS]:
        text = str(item.get("text", ""))
        log_note(b, b.actions, text, item.get("sources"), "next_session", MAX_NEXT_ACTIONS)
    for item in b.capped(out.get("new_bank_suggestions", []), b.item_limit()):
        b._bank_update(
            item.get("slug", ""),
            item.get("kind", ""),
            "Overview",
            item.get("seed_content", ""),
            item.get("sources"),
            "bank_suggestions",
        )


def confidence(b: Builder, item: dict[str, Any]) -> None:
    """A MEMORY.md opinion's new confidence, when the item cites evidence it had not seen."""
    ids = b._grounded(item.get("sources"))
    if ids is None:
        return
    i = b.memory.index(str(item.get("item", "")))
    note = b.memory.blocks[i].note if i is not None else None
    if i is None or note is None:
        b.plan.dropped["stale_reference"] += 1
        return
    if note.type != "O":
        b.plan.dropped["not_an_opinion"] += 1
        return
    value = finite(item.get("new_c", 0))
    if value is None or not 0.0 <= value <= 1.0:  # NaN, an infinity, 42: never clamped
        b.plan.dropped["bad_confidence"] += 1
        return
    new_c = round(value, 2)
    evidence = [s for s in note.meta.get("evidence", "").split(",") if s]
    new_ids = [s for s in ids if s not in evidence and s != note.id]
    if not new_ids or new_c == note.confidence:
        b.plan.dropped["unchanged"] += 1
        return
    meta = {**note.meta, "evidence": ",".join(merge_ids(evidence, new_ids))}
    b.memory.set(i, replace(note, confidence=new_c, meta=meta))
    b.plan.superseded.append(
        {
            "old_id": note.id,
            "old": f"O(c={note.confidence}) {note.text}",
            "new_id": note.id,
            "new": f"O(c={new_c}) {note.text}",
            "sources": new_ids,
            "why": one_line(str(item.get("reason", "")))[:300] or "confidence update",
        }
    )
    b.plan.decisions["confidence_updates"] += 1


def log_note(
    b: Builder, into: list[str], text: str, sources: object, decision: str, limit: int
) -> None:
    """A note for today's log (``into``: the builder's dreams or actions), once; at most
    ``limit`` of them per run."""
    if len(into) >= limit:
        b.plan.dropped["item_cap"] += 1
        return
    ids = b._grounded(sources)
    if ids is None:
        return
    text = one_line(text)
    if not text:
        b.plan.dropped["empty"] += 1
        return
    if b._too_big(text, MAX_TEXT_CHARS) or text in b.inputs.dream_texts:
        if text in b.inputs.dream_texts:
            b.plan.dropped["duplicate"] += 1
        return
    # a number or a name nothing the model was shown says (unsupported_value)
    if b.inputs.check_rem and not b._said(text, ids, loose=True):
        return
    # a dream and an action may say the same: each keeps an id of its own in the log
    note_id = stable_id("dream" if decision == "dreams" else decision, text, ",".join(ids))
    note = Note(
        type="S",
        text=text,
        id=note_id,
        time=b.now,
        meta={"id": note_id, "sources": ",".join(ids)},
    )
    rendered = fmt.render_note(note)
    if rendered not in into:
        into.append(rendered)
        b.plan.decisions[decision] += 1
