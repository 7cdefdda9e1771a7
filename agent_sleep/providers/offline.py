"""The offline consolidator: NREM, REM and flush without a model, deterministic and extractive.

It reads the same JSON payload a model gets and answers with the same JSON shapes, so its
output goes through the same validation and apply path. The algorithm is documented in
references/offline_consolidator.md. In short:

NREM
  1. Tiers come from salience scoring (stage 1, done before any provider): ``prune`` notes are
     counted and left out, ``condense`` notes lose their filler sentences (a sentence holding a
     date, time, duration or age is always kept verbatim), ``keep`` notes stay verbatim.
  2. Near-duplicates (TF-IDF cosine >= 0.8, same temporal anchors) merge into one item citing all
     of them; the number of notes cited is the item's reinforcement count.
  3. Confidence: the note's own (O notes) or a base per type, +0.1 per reinforcement, -0.2 per
     contradiction (a similar note or MEMORY.md entry of opposite polarity).
  4. Fast track -> MEMORY.md: confident (>= 0.7), uncontradicted statements (not questions)
     that are salient (``keep``), reinforced, or deliberate W/O notes. An item repeating a
     MEMORY.md entry updates it (adding its sources) instead of adding a copy.
  5. Slow track -> bank pages: everything else kept, grouped by the name it mentions most
     (entity page), else by its speaker, else by its main topic (concept page), in a section
     per log date.

REM
  Links between today's notes and MEMORY.md entries by similarity; O confidence shifts from
  supporting or contradicting notes; bank pages for names seen in 3+ notes without one; aha
  moments for names recurring across days; next-session actions from open questions and
  notes that state an intention.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from agent_sleep.analysis import currency, distill, lexical, temporal
from agent_sleep.providers import offline_currency
from agent_sleep.providers.base import Usage
from agent_sleep.providers.offline_common import (
    QUESTION_RE,
    RECURRING,
    prunable,
    slugify,
)
from agent_sleep.providers.offline_flush import classify, flush
from agent_sleep.providers.offline_rem import rem

__all__ = ["OfflineProvider", "classify", "condense", "flush", "nrem", "rem", "run", "slugify"]

DUPLICATE = 0.8
CONTRADICTION = 0.5
FAST_CONFIDENCE = 0.7
MAX_FAST = 6  # MEMORY.md additions per log date in a run: the clearest facts only
KEEP_WORDS, CONDENSE_WORDS = 24, 12  # word budgets of condensed chat turns, by tier
BASE_CONFIDENCE = {"W": 0.8, "B": 0.75, "S": 0.6, "O": 0.7}
MAX_OPEN, MAX_WEAK = 5, 10
INFO = distill.INFORMATIVE

_FILLER_RE = re.compile(
    r"^(?:\W*(?:wow|oh|haha|hah|lol|hey|hi|hello|thanks|thank you|yeah|yes|no|ok|okay|cool|great"
    r"|awesome|nice|sure|totally|right|omg|aww|congrats|congratulations)\b[^.!?]*[.!?]?\s*)$",
    re.I,
)


def condense(text: str, tier: str = "condense", known: frozenset[str] | None = None) -> str:
    """The note as memory: its informative sentences (all of them for ``keep``, the best within
    :data:`CONDENSE_WORDS` for ``condense``), dates always kept verbatim, speaker label kept."""
    budget = KEEP_WORDS if tier == "keep" else CONDENSE_WORDS
    return distill.condense(text, budget, known)


def _anchors(text: str) -> set[str]:
    return {e.text.lower() for e in temporal.extract(text)}


def _group(
    text: str,
    counts: Counter[str],
    tfidf: lexical.TfIdf,
    row: int,
    known: frozenset[str],
    proper: frozenset[str] = frozenset(),
) -> tuple[str, str]:
    """(kind, display name) of the bank page an item belongs on: its speaker's page for a chat
    turn (what a person says is what is known about them), else the page of the name it
    mentions that recurs most, else a concept page named after its strongest term that other
    notes of the run share (a topic, "billing"), or its strongest term when none is shared."""
    label, _ = lexical.split_speaker(text)
    if label:
        return "entity", label.rstrip(": ")
    # a real entity: written capitalised mid-sentence somewhere, or recurring; never a
    # sentence-initial common word ("Spent the afternoon…") or a piece of a dotted name
    names = [
        n
        for n in distill.names(text, known)
        if (n in proper or counts[n] >= 2) and not re.search(rf"\b{re.escape(n)}\.\w", text)
    ]
    if names:
        return "entity", max(names, key=lambda n: (counts[n], -names.index(n)))
    words = [
        t
        for t in tfidf.top_terms(row, 8)
        if re.fullmatch(r"[a-z][a-z-]{2,}", t) and t not in distill.FILLER
    ]
    shared = [t for t in words if tfidf.df.get(t, 0) >= RECURRING]  # a topic recurs (3+)
    return "concept", (shared or ["notes"])[0]


def _open_question(text: str, known: frozenset[str]) -> str:
    """The sentence of a note that states a gap worth a next-session action, or "": an
    informative "not sure / TBD / find out…", or a question with real content (not "How have
    you been?"). Returned with the speaker label."""
    label, _ = lexical.split_speaker(text)
    for s in distill.analyse(text, known):
        if s.caption or not QUESTION_RE.search(s.text):
            continue
        asks = s.text.rstrip().endswith("?")
        if s.score + (distill.W_QUESTION if asks else 0) >= (
            distill.STRONG if asks else distill.INFORMATIVE
        ):
            return label + distill.strip_filler(s.text)
    return ""


def nrem(p: dict[str, Any]) -> dict[str, Any]:
    notes: list[dict[str, Any]] = p.get("notes", [])
    memory: list[dict[str, Any]] = p.get("memory", [])
    known = distill.known_names([n["text"] for n in notes] + [m["text"] for m in memory])
    info = {n["id"]: distill.information(n["text"], known) for n in notes}
    kept = [n for n in notes if not prunable(n, info[n["id"]])]
    pruned = len(notes) - len(kept)
    texts = [
        n["text"] if n["type"] in ("W", "O") else condense(n["text"], n.get("tier", ""), known)
        for n in kept
    ]
    corpus = texts + [m["text"] for m in memory]
    tfidf = lexical.TfIdf(corpus)
    sim = tfidf.similarity()
    k = len(kept)

    # near-duplicate clusters among today's notes, greedy in time order
    owner = list(range(k))
    for i in range(k):
        if owner[i] != i:
            continue
        for j in range(i + 1, k):
            if (
                owner[j] == j
                and sim[i, j] >= DUPLICATE
                and _anchors(texts[j]) <= _anchors(texts[i])
                and not offline_currency.differ(texts[i], texts[j], known)
            ):
                owner[j] = i
    clusters: dict[int, list[int]] = {}
    for j in range(k):
        clusters.setdefault(owner[j], []).append(j)

    negs = [lexical.negated(t) for t in corpus]
    counts: Counter[str] = Counter()
    for t in texts:
        counts.update(set(distill.names(t, known)))
    proper = frozenset(n for t in corpus for n in distill.names(t))  # capitalised mid-sentence

    updates: list[dict[str, Any]] = []
    filed: list[tuple[int, str, list[str], float, bool]] = []  # rep, text, sources, conf, fast
    weak: list[dict[str, Any]] = []
    own: dict[int, float] = {}
    for head, members in clusters.items():
        note = kept[head]
        rep = max(members, key=lambda j: (info[kept[j]["id"]], len(texts[j]), -j))
        text = texts[rep]
        sources = [kept[j]["id"] for j in members]
        conf = note.get("confidence") if note["type"] == "O" else None
        conf = float(conf) if conf is not None else BASE_CONFIDENCE[note["type"]]
        conf += 0.1 * (len(members) - 1)
        if _replays(text, p.get("weakly_learned", [])):  # a weak item of an earlier run, again
            conf += 0.1
        own_conf = round(min(0.95, conf), 2)  # before contradictions: what a supersede weighs
        contradicted = [
            o
            for o in range(len(corpus))
            if o not in members
            and sim[rep, o] >= CONTRADICTION
            and negs[o] != negs[rep]
            and currency.same_subject(text, corpus[o], known)  # not another person's view
        ]
        conf = round(min(0.95, max(0.05, conf - 0.2 * len(contradicted))), 2)
        same = [
            k + m
            for m in range(len(memory))
            if sim[rep, k + m] >= DUPLICATE
            and negs[k + m] == negs[rep]
            and _anchors(text) <= _anchors(memory[m]["text"])
            and not offline_currency.differ(text, memory[m]["text"], known)
            and currency.relation(text, memory[m]["text"], known).kind != currency.SUPERSEDE
        ]
        if same:
            entry = memory[same[0] - k]
            updates.append(
                {
                    "action": "update",
                    "type": entry["type"],
                    "confidence": round(
                        min(0.95, float(entry.get("confidence") or conf) + 0.05), 2
                    ),
                    "text": entry["text"],
                    "replaces": entry["id"],
                    "sources": sources,
                }
            )
            continue
        tier_keep = any(kept[j].get("tier") == "keep" for j in members)
        deliberate = note["type"] in ("W", "O")
        clear = distill.information(text, known) >= distill.STRONG
        fast = (
            conf >= FAST_CONFIDENCE
            and not contradicted
            and not text.rstrip().endswith("?")
            and (deliberate or (clear and (tier_keep or len(members) > 1)))
        )
        filed.append((rep, text, sources, conf, fast))
        own[rep] = own_conf
        if conf < FAST_CONFIDENCE or contradicted:
            weak.append({"text": text, "sources": sources})

    # currency: an item giving a new value for an existing entry takes its place
    replacing = offline_currency.supersedes(
        [(kept[f[0]]["type"], f[1], f[2], own[f[0]], kept[f[0]].get("date", "")) for f in filed],
        memory,
        p.get("related", []),
        known,
        offline_currency.Lazy(),
    )
    bank_ids = {str(r["id"]) for r in p.get("related", [])}
    for n, item in replacing.items():
        if filed[n][4] and item["replaces"] in bank_ids:  # clear enough for MEMORY.md
            updates.append({**item, "action": "add", "replaces": ""})
        updates.append(item)
    stale = {f[0] for n, f in enumerate(filed) if n in replacing}
    filed = [f for f in filed if f[0] not in stale]
    weak = [
        w
        for w in weak
        if not set(w["sources"]) & {s for f in replacing.values() for s in f["sources"]}
    ]

    # MEMORY.md takes the clearest facts of the run, a few at a time; the rest go to the bank
    ranked = sorted(
        (f for f in filed if f[4]),
        key=lambda f: (kept[f[0]]["type"] not in ("W", "O"), -info[kept[f[0]]["id"]], f[0]),
    )
    per_day: Counter[str] = Counter()
    to_memory: set[int] = set()
    for f in ranked:
        day = kept[f[0]].get("date", "")
        if per_day[day] < MAX_FAST:
            per_day[day] += 1
            to_memory.add(f[0])
    bank: list[dict[str, Any]] = []
    for rep, text, sources, conf, _fast in filed:
        note = kept[rep]
        if rep in to_memory:
            updates.append(
                {
                    "action": "add",
                    "type": note["type"],
                    "confidence": conf,
                    "text": text,
                    "replaces": "",
                    "sources": sources,
                }
            )
            continue
        kind, name = _group(text, counts, tfidf, rep, known, proper)
        bank.append(
            {
                "slug": slugify(name) or "notes",
                "kind": kind,
                "section": f"## {note.get('date') or p.get('today', '')}".rstrip(),
                "content": text,
                "sources": sources,
            }
        )
    by_salience = sorted(kept, key=lambda n: (-float(n.get("salience", 0)), n["id"]))
    gaps = [(n, _open_question(n["text"], known)) for n in by_salience]
    open_questions = [{"text": q, "sources": [n["id"]]} for n, q in gaps if q][:MAX_OPEN]
    return {
        "memory_md_updates": updates,
        "bank_updates": bank,
        "pruned_count": pruned,
        "weakly_learned": weak[:MAX_WEAK],
        "open_questions": open_questions,
    }


def _replays(text: str, weak: list[dict[str, Any]]) -> bool:
    """Whether ``text`` restates a weakly-learned item of an earlier run (token Jaccard >= 0.5):
    the replay that strengthens it."""
    mine = set(lexical.tokens(text))
    for item in weak:
        theirs = set(lexical.tokens(str(item.get("text", ""))))
        if mine and theirs and len(mine & theirs) / len(mine | theirs) >= 0.5:
            return True
    return False


TASKS = {"nrem": nrem, "rem": rem, "flush": flush}


def run(task: str, p: dict[str, Any]) -> dict[str, Any]:
    return TASKS[task](p)


class OfflineProvider:
    """The deterministic consolidator behind the provider interface: it reads the payload a
    model would be shown and answers with the same JSON shapes."""

    name = "offline"
    model = "offline-consolidator"
    max_notes = 5000

    def complete(
        self,
        system: str,
        payload: dict[str, Any],
        schema: dict[str, Any],
        *,
        repair: str | None = None,
    ) -> tuple[dict[str, Any], Usage]:
        return run(payload["task"], payload), Usage(calls=1)
