"""Batches that fit: one NREM, REM or flush request split into calls a model's context holds.

A provider with a ``context_tokens`` window (openai, anthropic) gets the pending notes in
batches: each call holds the system prompt with the schema, the batch's notes, the existing
MEMORY.md entries most related to them and room for the answer. Notes are grouped by subject
(the name a note mentions that recurs most in the backlog, else its most specific shared word)
so a call sees one topic where it can; a group larger than a batch is split, small groups share
a batch. A flush dump is split on line boundaries. A provider without a window (offline) gets
the request whole, as before.

Providers that honour them (``bounded_schemas``) are sent a per-batch copy of the schema
(:mod:`agent_sleep.consolidation.bounded`):
``maxLength`` on strings, ``maxItems`` on arrays sized so the largest possible answer fits the
room kept for it, and ``sources`` / ``replaces`` / ``item`` limited to an ``enum`` of the
batch's ids, so a grammar-constrained model cannot loop until the context is full and cannot
cite a note it was not shown. Every reply is still validated against the original schema.

The answers are merged (lists concatenated, counts added) into one answer, which the caller
turns into one plan, one apply and one journal line. Nothing is written before every batch has
answered; each batch's validated answer is kept under ``.agent-sleep/batches/`` (keyed by the
exact request), so a run killed between batches leaves every file whole and the next run
reuses the answers it already has and completes. A run that commits drops the answers it used
(:func:`forget`): a note it left pending is asked about again, not answered by the same reply.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agent_sleep.analysis import distill, lexical
from agent_sleep.consolidation.bounded import ENTRY_KEYS, MAX_SOURCES, bounded, ids_of
from agent_sleep.core import schema as jsonschema
from agent_sleep.core.errors import BadInput, StorageError
from agent_sleep.core.workspace import Workspace
from agent_sleep.providers.base import Answer, Provider, UnusableReply, Usage, ask
from agent_sleep.providers.replies import PROSE_CHARS, estimate_tokens, schema_instruction

log = logging.getLogger(__name__)

JSON_CHARS = 2.2  # characters a token of the indented JSON payload (low side)
ANSWER_SHARE = 3 / 8  # of the window kept for the answer
MAX_ANSWER_TOKENS = 16000
MEMORY_SHARE = 0.4  # of the prompt room at most for related MEMORY.md entries
MARGIN_TOKENS = 300  # chat template, the repair sentence on a retry
MIN_ROOM = 160  # tokens left for notes, at least: about one note
CITED_CHARS = 300  # a string of an open question (or the like) as a batch is shown it
ID_TOKENS = 10  # an id, once in the payload and once in the enums of the bounded schema
MAX_KEPT_CHARS = 100_000  # a larger answer is not kept for an interrupted run's successor
SUBJECT_MIN = 3  # a subject with this many notes gets calls of its own
CACHE_DIR = "batches"
CACHE_DAYS = 7


def tokens_of(value: Any) -> int:
    """Estimated tokens of ``value`` as :func:`prompts.render` lays it out (indented JSON)."""
    text = json.dumps(value, ensure_ascii=False, indent=1)
    return estimate_tokens(text, JSON_CHARS)


@dataclass(frozen=True)
class Window:
    context_tokens: int
    answer_tokens: int
    batch_notes: int | None  # notes per call at most (None: as many as fit)


def window_of(provider: Provider) -> Window | None:
    """The provider's window, or None when it has none (the offline consolidator)."""
    ctx = getattr(provider, "context_tokens", None)
    if not isinstance(ctx, int) or isinstance(ctx, bool) or ctx <= 0:
        return None
    answer = min(MAX_ANSWER_TOKENS, int(ctx * ANSWER_SHARE))
    return Window(ctx, answer, getattr(provider, "batch_notes", None))


# -- subjects ----------------------------------------------------------------------------------


def subjects(texts: list[str]) -> list[str]:
    """A subject key per text: the name it mentions that recurs most among ``texts``, else
    its most specific word shared with another text, else ""."""
    known = distill.known_names(texts)
    named = [distill.names(t, known) for t in texts]
    counts = Counter(n for ns in named for n in set(ns))
    toks = [
        [t for t in lexical.tokens(text) if t.isalpha() and len(t) > 3 and t not in distill.FILLER]
        for text in texts
    ]
    df = Counter(t for ts in toks for t in set(ts))
    out = []
    for ns, ts in zip(named, toks, strict=True):
        shared = [n for n in ns if counts[n] >= 2]
        if shared:
            out.append("name:" + max(shared, key=lambda n: (counts[n], -ns.index(n))))
            continue
        words = [t for t in ts if df[t] >= 2]
        out.append("word:" + min(words, key=lambda t: (df[t], ts.index(t))) if words else "")
    return out


def group_by_subject(notes: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Notes in subject groups, groups in order of first appearance, notes in input order."""
    keys = subjects([str(n.get("text", "")) for n in notes])
    groups: dict[str, list[dict[str, Any]]] = {}
    loose: list[list[dict[str, Any]]] = []
    for key, note in zip(keys, notes, strict=True):
        if key:
            groups.setdefault(key, []).append(note)
        else:
            loose.append([note])
    position = {id(n): i for i, n in enumerate(notes)}
    return sorted([*groups.values(), *loose], key=lambda g: position[id(g[0])])


# -- splitting -----------------------------------------------------------------------------------


def _fit_text(note: dict[str, Any], room: int) -> dict[str, Any]:
    """``note`` with its text cut to fit ``room`` tokens (marked), for a note too big to fit."""
    over = tokens_of(note) - room
    if over <= 0:
        return note
    text = str(note.get("text", ""))
    keep = max(0, len(text) - math.ceil(over * JSON_CHARS) - 8)
    return {**note, "text": text[:keep] + " […]"}


def pack(
    notes: list[dict[str, Any]], room: int, most: int | None, extra: int = 0
) -> list[list[dict[str, Any]]]:
    """Subject groups packed into batches of at most ``room`` tokens (``extra`` more per
    note) and ``most`` notes: a subject of :data:`SUBJECT_MIN` notes or more gets batches of
    its own (split when too big); smaller ones share a batch while they fit."""
    batches: list[list[dict[str, Any]]] = []
    current: list[dict[str, Any]] = []
    used = 0
    limit = most or len(notes) or 1
    for group in group_by_subject(notes):
        cost = sum(tokens_of(n) + extra for n in group)
        alone = len(group) >= SUBJECT_MIN  # one topic per call; small ones share a call
        if current and (alone or used + cost > room or len(current) + len(group) > limit):
            batches.append(current)
            current, used = [], 0
        for note in group:
            note = _fit_text(note, room - extra)
            c = tokens_of(note) + extra
            if current and (used + c > room or len(current) >= limit):
                batches.append(current)
                current, used = [], 0
            current.append(note)
            used += c
        if alone and current:
            batches.append(current)
            current, used = [], 0
    if current:
        batches.append(current)
    return batches


def related(
    entries: list[dict[str, Any]], notes: list[dict[str, Any]], room: int, extra: int = 0
) -> list[dict[str, Any]]:
    """The MEMORY.md entries most related to ``notes`` that fit in ``room`` tokens (``extra``
    more per entry; all of them when they fit), in their original order."""
    if sum(tokens_of(e) + extra for e in entries) <= room:
        return entries
    words = Counter(t for n in notes for t in set(lexical.tokens(str(n.get("text", "")))))

    def score(e: dict[str, Any]) -> float:
        ts = set(lexical.tokens(str(e.get("text", ""))))
        return sum(1 for t in ts if t in words) / math.sqrt(len(ts) + 1)

    chosen: set[int] = set()
    used = 0
    for i in sorted(range(len(entries)), key=lambda i: -score(entries[i])):
        c = tokens_of(entries[i]) + extra
        if used + c <= room:
            chosen.add(i)
            used += c
    return [e for i, e in enumerate(entries) if i in chosen]


def split_text(text: str, room: int) -> list[str]:
    """``text`` in chunks of at most ``room`` tokens, cut at line ends where possible."""
    size = max(200, int(room * JSON_CHARS))
    chunks: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        while len(line) > size:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:size])
            line = line[size:]
        if len(current) + len(line) > size:
            chunks.append(current)
            current = ""
        current += line
    if current.strip():
        chunks.append(current)
    return [c for c in chunks if c.strip()] or [text[:size]]


def _cited_items(items: list[Any], known: set[str], room: int) -> list[dict[str, Any]]:
    """The items (open questions, earlier runs' leftovers) citing this batch's ids, their
    strings trimmed, as many as fit ``room`` tokens."""
    out: list[dict[str, Any]] = []
    used = 0
    for item in items:
        sources = [str(s) for s in item.get("sources") or []]
        if not set(sources) & known:
            continue
        short = {
            k: (v[:CITED_CHARS] if isinstance(v, str) else v)
            for k, v in item.items()
            if k != "sources"
        }
        short["sources"] = sources[:MAX_SOURCES]
        used += tokens_of(short)
        if used > room:
            break
        out.append(short)
    return out


def _cited_keys(payload: dict[str, Any]) -> list[str]:
    """Fields (other than notes and entries) holding lists of items with ``sources``."""
    return [
        k
        for k, v in payload.items()
        if k not in ("notes", *ENTRY_KEYS)
        and isinstance(v, list)
        and v
        and all(isinstance(i, dict) and "sources" in i for i in v)
    ]


def split(payload: dict[str, Any], system: str, win: Window, schema: dict[str, Any]) -> list[Any]:
    """The payloads of the batches of ``payload`` (one, unchanged, when it fits)."""
    fixed = (
        estimate_tokens(system + schema_instruction(schema), PROSE_CHARS)
        + win.answer_tokens
        + MARGIN_TOKENS
    )
    cited_keys = _cited_keys(payload)
    rest = {k: v for k, v in payload.items() if k not in ("notes", "text", *ENTRY_KEYS)}
    rest = {k: v for k, v in rest.items() if k not in cited_keys}
    room = win.context_tokens - fixed - tokens_of(rest)
    if room < MIN_ROOM:
        raise BadInput(
            f"a {payload.get('task', '')} call needs about {fixed + tokens_of(rest) + MIN_ROOM} "
            f"tokens of context; --context-tokens {win.context_tokens} is too small for it"
        )
    if payload.get("task") == "flush":
        text = str(payload.get("text", ""))
        if tokens_of(text) <= room:
            return [payload]
        return [{**payload, "text": chunk} for chunk in split_text(text, room)]
    notes = list(payload.get("notes") or [])
    entries = {k: list(payload.get(k) or []) for k in ENTRY_KEYS if k in payload}
    all_entries = [e for es in entries.values() for e in es]
    whole = sum(tokens_of(x) + ID_TOKENS for x in [*notes, *all_entries])
    whole += sum(tokens_of(payload[k]) for k in cited_keys)
    if whole <= room and (win.batch_notes is None or len(notes) <= win.batch_notes):
        return [payload]
    cited_room = room // 10 if cited_keys else 0
    room -= cited_room
    entry_room = min(int(room * MEMORY_SHARE), sum(tokens_of(e) + ID_TOKENS for e in all_entries))
    out = []
    for batch in pack(notes, room - entry_room, win.batch_notes, ID_TOKENS):
        left = room - sum(tokens_of(n) + ID_TOKENS for n in batch)
        part = {**payload, "notes": batch}
        for key, es in entries.items():  # each kind of entry gets its share of what is left
            share = left * sum(tokens_of(e) for e in es) // max(1, sum(map(tokens_of, all_entries)))
            part[key] = related(es, batch, share, ID_TOKENS)
        known = set(ids_of(batch)) | {i for k in entries for i in ids_of(part[k])}
        for key in cited_keys:
            part[key] = _cited_items(payload[key], known, cited_room // len(cited_keys))
        out.append(part)
    return out or [payload]


# -- merging and the run -----------------------------------------------------------------------


def merge(schema: dict[str, Any], answers: list[dict[str, Any]]) -> dict[str, Any]:
    """One answer from many: arrays concatenated, numbers added, other values from the first."""
    if len(answers) == 1:
        return answers[0]
    out: dict[str, Any] = {}
    for key, prop in schema.get("properties", {}).items():
        values = [a[key] for a in answers if key in a]
        if not values:
            continue
        if prop.get("type") == "array":
            out[key] = [x for v in values for x in v]
        elif prop.get("type") in ("integer", "number"):
            out[key] = sum(values)
        else:
            out[key] = values[0]
    return out


@dataclass(frozen=True)
class Batched(Answer):
    batches: int = 1
    reused: int = 0  # batches answered by a previous, interrupted run
    keys: tuple[str, ...] = ()  # the kept answers: :func:`forget` them once the run commits


def _cache_key(prov: Provider, system: str, part: dict[str, Any], sent: dict[str, Any]) -> str:
    blob = json.dumps(
        [prov.name, prov.model, system, part, sent], ensure_ascii=False, sort_keys=True
    )
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _cached(ws: Workspace | None, key: str, schema: dict[str, Any]) -> dict[str, Any] | None:
    """A kept answer, validated again (the state folder is ours, but a file may be damaged)."""
    if ws is None:
        return None
    path = ws.state_dir / CACHE_DIR / f"{key}.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(ws.read_text(path))
    except (json.JSONDecodeError, RecursionError):
        return None
    return data if isinstance(data, dict) and not jsonschema.errors(data, schema) else None


def _keep(ws: Workspace | None, key: str, data: dict[str, Any]) -> None:
    if ws is None:
        return
    text = json.dumps(data, ensure_ascii=False)
    if len(text) > MAX_KEPT_CHARS:
        return
    folder = ws.state_dir / CACHE_DIR
    try:
        folder.mkdir(parents=True, exist_ok=True)
        ws.write_text(folder / f"{key}.json", text)
    except (OSError, StorageError):  # a cache: a dry run on a read-only workspace goes on
        return
    cutoff = time.time() - CACHE_DAYS * 86400
    for old in folder.glob("*.json"):
        try:
            if old.stat().st_mtime < cutoff:
                old.unlink()
        except OSError:
            pass


def forget(ws: Workspace | None, keys: list[str] | tuple[str, ...]) -> None:
    """Drop the kept answers ``keys`` (a run that committed): a note left pending must be asked
    again, not answered by the reply that left it so."""
    if ws is None:
        return
    folder = ws.state_dir / CACHE_DIR
    for key in keys:
        with contextlib.suppress(OSError):
            (folder / f"{key}.json").unlink(missing_ok=True)


def ask_all(
    provider: Provider,
    system: str,
    payload: dict[str, Any],
    schema: dict[str, Any],
    *,
    workspace: Workspace | None = None,
    progress: Callable[[str], None] | None = None,
) -> Batched:
    """:func:`ask` over the batches of ``payload``; one merged, validated answer. Any batch
    failing twice raises (nothing written). ``workspace`` keeps each batch's answer, so an
    interrupted run's successor reuses it."""
    win = window_of(provider)
    task = str(payload.get("task", ""))
    if win is None:
        one = ask(provider, system, payload, schema)
        return Batched(one.data, one.usage, one.repairs)
    parts = split(payload, system, win, schema)
    say = progress or (lambda _m: None)
    answers: list[dict[str, Any]] = []
    keys: list[str] = []
    usage, repairs, reused = Usage(), 0, 0
    for k, part in enumerate(parts, 1):
        sent = (
            bounded(schema, task, part, win.answer_tokens)
            if getattr(provider, "bounded_schemas", False)
            else schema
        )
        key = _cache_key(provider, system, part, sent)
        if len(parts) > 1:
            keys.append(key)
        hit = _cached(workspace, key, schema) if len(parts) > 1 else None
        if hit is not None:
            answers.append(hit)
            reused += 1
            continue
        if len(parts) > 1:
            size = len(part.get("notes") or []) or len(str(part.get("text", "")))
            unit = "notes" if part.get("notes") else "characters"
            say(f"  {task} batch {k}/{len(parts)}: {size} {unit}")
        try:
            one = ask(provider, system, part, schema, request_schema=sent)
        except UnusableReply as e:
            e.usage = usage + e.usage  # the batches before it were paid for too
            raise
        usage, repairs = usage + one.usage, repairs + one.repairs
        answers.append(one.data)
        if len(parts) > 1:
            _keep(workspace, key, one.data)
    return Batched(merge(schema, answers), usage, repairs, len(parts), reused, tuple(keys))
