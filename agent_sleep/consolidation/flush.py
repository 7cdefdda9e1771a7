"""Pre-compaction flush: extract durable notes from a context dump into today's daily log.

Write-gated (reusable, not derivable from code or config, not ephemeral), grounded (a note's
words must come from the dump), redacted, capped (no more notes than the request's bounded
schema allows: :func:`note_cap`; the rest are dropped and counted as ``item_cap``), and once
per dump: the dump's hash is remembered in ``.agent-sleep/flush.json`` and stamped on every
note it produced (``source=flush:<hash>``), so flushing the same dump again writes nothing even
after the state folder is deleted.
Never touches MEMORY.md; sleep consolidates the notes later.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from dataclasses import dataclass, field

from agent_sleep.analysis import gate, lexical, temporal
from agent_sleep.consolidation import batches
from agent_sleep.consolidation.bounded import bounded
from agent_sleep.core import args, notes
from agent_sleep.core.errors import BadInput
from agent_sleep.core.redact import redact
from agent_sleep.core.rest import append_notes, build_note
from agent_sleep.core.workspace import Workspace
from agent_sleep.providers import prompts
from agent_sleep.providers.base import Provider, get_provider
from agent_sleep.providers.prompts import FLUSH_SCHEMA, FLUSH_SYSTEM

STATE_FILE = "flush.json"
MAX_DUMP_CHARS = 2_000_000
GROUNDED_SHARE = 0.6
DEFAULT_RESERVE = 20000
DEFAULT_SOFT_THRESHOLD = 4000


def flush_threshold(
    context_window: int, reserve: int | None = None, soft_threshold: int | None = None
) -> int:
    """``context_window - reserve - soft_threshold``: the session size past which to flush.
    Left out, the reserve is ``DEFAULT_RESERVE`` and the soft threshold
    ``DEFAULT_SOFT_THRESHOLD``, each at most a share of the window (a quarter, a sixteenth), so
    a small local model's 8,192 tokens flush past 5,632 rather than at every turn. Values given
    that leave no room (the threshold at 0 or below) are refused."""
    args.count(context_window=context_window)
    args.count_or_none(reserve=reserve, soft_threshold=soft_threshold)
    if reserve is None:
        reserve = min(DEFAULT_RESERVE, context_window // 4)
    if soft_threshold is None:
        soft_threshold = min(DEFAULT_SOFT_THRESHOLD, context_window // 16)
    threshold = context_window - reserve - soft_threshold
    if threshold <= 0:
        raise BadInput(
            f"reserve {reserve} and soft threshold {soft_threshold} leave nothing of a "
            f"{context_window}-token context window"
        )
    return threshold


def should_flush(
    tokens: int,
    context_window: int,
    reserve: int | None = None,
    soft_threshold: int | None = None,
) -> bool:
    """True when the session (``tokens``) is past :func:`flush_threshold`."""
    args.count(tokens=tokens)
    return tokens > flush_threshold(context_window, reserve, soft_threshold)


@dataclass(frozen=True)
class FlushResult:
    dump_hash: str
    written: list[str]
    already_flushed: bool = False
    duplicates: int = 0
    rejected: dict[str, int] = field(default_factory=dict)
    provider: str = ""
    path: str = ""
    max_notes: int = 0  # the cap on the model's notes for this dump (note_cap); 0: not asked


def dump_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _flushed(ws: Workspace) -> dict[str, str]:
    raw = ws.read_text(ws.state_dir / STATE_FILE)
    try:
        data = json.loads(raw) if raw else {}
    except json.JSONDecodeError:
        data = {}
    return data if isinstance(data, dict) else {}


def _grounded(text: str, dump_tokens: set[str]) -> bool:
    toks = lexical.tokens(text)
    return bool(toks) and sum(t in dump_tokens for t in toks) >= GROUNDED_SHARE * len(toks)


def note_cap(provider: Provider, payload: dict[str, object]) -> int:
    """The most notes a flush of ``payload`` keeps: one a sentence of the dump, each line at
    least one (:func:`_units`; a bulleted list is one sentence to
    :func:`agent_sleep.analysis.lexical.sentences`). For a provider with a context window it is
    counted for each batch ``ask_all`` sends, never below the notes' ``maxItems`` of that
    batch's bounded request schema (:mod:`agent_sleep.consolidation.bounded`), and summed;
    the same whether or not the provider is sent the bounds (anthropic is not)."""
    win = batches.window_of(provider)
    if win is None:
        return _units(str(payload.get("text", "")))
    total = 0
    for part in batches.split(payload, FLUSH_SYSTEM, win, FLUSH_SCHEMA):
        sent = bounded(FLUSH_SCHEMA, "flush", part, win.answer_tokens)
        stated = int(sent["properties"]["notes"]["maxItems"])
        total += max(stated, _units(str(part.get("text", ""))))
    return total


def _units(text: str) -> int:
    """Sentences of ``text`` counted line by line (at least one)."""
    return max(1, sum(len(lexical.sentences(line)) for line in text.splitlines()))


def flush(
    text: str,
    *,
    workspace: str | os.PathLike[str] | Workspace | None = None,
    provider: Provider | str | None = None,
    model: str | None = None,
    now: dt.datetime | None = None,
) -> FlushResult:
    """Extract durable notes from ``text`` into today's log (``now``: local time, default the
    clock); returns what was written."""
    args.text(text=text)
    args.text_or_none(model=model)
    args.provider(provider)
    args.moment_or_none(now=now)
    if not isinstance(text, str) or not text.strip():
        raise BadInput("the context dump is empty")
    if len(text) > MAX_DUMP_CHARS:
        raise BadInput(
            f"the context dump is {len(text)} characters, over {MAX_DUMP_CHARS}; flush in parts"
        )
    ws = Workspace.at(workspace).ensure()
    prov = (
        get_provider(provider, model) if provider is None or isinstance(provider, str) else provider
    )
    h = dump_hash(text)
    now = now or dt.datetime.now()
    today = now.date()
    log = ws.day_log(today)
    with ws.lock():
        seen = h in _flushed(ws) or f"source=flush:{h}" in ws.read_text(log)
    if seen:
        return FlushResult(h, [], already_flushed=True, provider=prov.name, path=str(log))
    clean = temporal.resolve(redact(text), today)
    request = prompts.payload("flush", today=today.isoformat(), text=clean)
    answer = batches.ask_all(  # a dump bigger than the provider's window goes in parts
        prov, FLUSH_SYSTEM, request, FLUSH_SCHEMA, workspace=ws
    )
    # the reply is validated against the unbounded schema: a model (or a server ignoring the
    # bounds) may send thousands of notes; at most ``cap`` are written, the rest counted
    cap = note_cap(prov, request)
    present = {" ".join(n.text.split()) for n in notes.notes_in(ws.read_text(log))}
    built, duplicates, rejected = _vet(answer.data.get("notes", []), clean, present, h, now, cap)
    if built:
        append_notes(ws, today, built)
    with ws.lock():
        state = _flushed(ws)
        state[h] = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
        ws.write_text(ws.state_dir / STATE_FILE, json.dumps(state, indent=0, sort_keys=True))
    return FlushResult(
        h,
        [n.id for n in built],
        duplicates=duplicates,
        rejected=rejected,
        provider=prov.name,
        path=str(log),
        max_notes=cap,
    )


def _vet(
    items: list[dict[str, object]],
    clean: str,
    present: set[str],
    h: str,
    now: dt.datetime,
    cap: int,
) -> tuple[list[notes.Note], int, dict[str, int]]:
    """The proposed notes worth writing, the first ``cap`` of them: through the gate, grounded
    in the dump, not already in the log. Returns them, the duplicates count, and rejections by
    reason (``item_cap``: the items left unread once ``cap`` notes were kept)."""
    dump_tokens = set(lexical.tokens(clean))
    rejected: dict[str, int] = {}
    built: list[notes.Note] = []
    duplicates = 0
    for i, item in enumerate(items):
        if len(built) >= cap:
            rejected["item_cap"] = len(items) - i
            break
        body = " ".join(notes.normalize_text(redact(str(item.get("text", "")))).split())
        reason = gate.reject_reason(body)
        kind = str(item.get("type", "W"))
        conf = item.get("confidence") if kind == "O" else None
        if reason is None and not _grounded(body, dump_tokens):
            reason = "ungrounded"
        if reason is None and conf is not None and _confidence(conf) is None:
            reason = "bad_confidence"  # outside 0..1 or not a number: refused, not clamped
        if reason:
            rejected[reason] = rejected.get(reason, 0) + 1
            continue
        if body in present:
            duplicates += 1
            continue
        present.add(body)
        note, _ = build_note(
            body, kind, confidence=_confidence(conf), when=now, source=f"flush:{h}"
        )
        built.append(note)
    return built, duplicates, rejected


def _confidence(conf: object) -> float | None:
    """A model's confidence for an opinion, when it is a number from 0 to 1 (as sleep reads
    one: ``bad_confidence`` otherwise); None when missing or not."""
    if conf is None or isinstance(conf, bool) or not isinstance(conf, (int, float)):
        return None
    value = float(conf)
    return value if 0.0 <= value <= 1.0 else None
