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
     MEMORY.md entry updates it (adding its sources) instead of adding a copy; so does an
     opinion said again in fewer words ("Still wants short, direct answers."), and a fact said
     to hold still ("Orla is still our main contact at Halden Foods.").
  5. Slow track -> bank pages: everything else kept, grouped by the name it mentions most
     (entity page), else by its speaker, else by its main topic (concept page), in a section
     per log date.

REM
  Links between today's notes and MEMORY.md entries by similarity and what few texts share
  (a name, not one most texts hold; the link says what); O confidence shifts from
  supporting or contradicting notes; bank pages for names seen in 3+ notes without one; aha
  moments for names recurring across days; next-session actions from open questions and
  notes that state an intention.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from agent_sleep.analysis import currency, distill, gazetteer, lexical, salience, temporal
from agent_sleep.providers import offline_common, offline_currency
from agent_sleep.providers.base import Usage
from agent_sleep.providers.offline_common import (
    POSSESSIVE_RE,
    QUESTION_RE,
    RECURRING,
    prunable,
    slugify,
)
from agent_sleep.providers.offline_flush import classify, flush
from agent_sleep.providers.offline_rem import NOT_TOPICS, negated, rem, restated, written_task

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


def _vital(text: str, kind: str, conf: float) -> bool:
    """A fact the next session must not miss (:func:`salience.vital`), or an opinion held
    strongly (0.9 or more): MEMORY.md takes these first when a day brings more than it takes."""
    return kind in ("W", "O", "B") and (salience.vital(text) or (kind == "O" and conf >= 0.9))


def _whole(note: dict[str, Any]) -> bool:
    """Whether a note goes to memory as written: a fact or an opinion, or a short note the agent
    wrote itself (no speaker label), whose every clause it meant ("Fixed the flaky test; it was
    a timezone issue"); chat turns and long notes are condensed."""
    if note["type"] in ("W", "O"):
        return True
    text = note["text"]
    return not lexical.split_speaker(text)[0] and len(text.split()) <= KEEP_WORDS


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
    said_by = label.rstrip(": ")
    # "Friday: out at 3", "Question: which day …", "Plan: …" are no speakers
    if label and not _calendar(said_by) and said_by.lower() not in distill.NOTE_LABELS:
        return "entity", said_by
    # a real entity: written capitalised mid-sentence somewhere, or recurring; never a
    # sentence-initial common word ("Spent the afternoon…") or a piece of a dotted name, and
    # only a name a page can be named after (not one of letters no slug keeps: "Дмитрий")
    names = [
        n
        for n in distill.names(text, known)
        if (n in proper or counts[n] >= 2)
        and not re.search(rf"\b{re.escape(n)}\.\w", text)
        and not _code_or_unit(n, text)
        and not _calendar(n)
        and not _ROMAN_RE.fullmatch(n)  # "R6 II": a model's number, no page
        and slugify(n)
    ]
    if names:
        name = max(names, key=lambda n: (counts[n], -names.index(n)))
        # "the Brandts" are the Brandt family: one page, the name's
        one = name[:-1] if name.endswith("s") and " " not in name else ""
        if one and (counts[one] or one in known or one in proper):
            return "entity", one
        # a first name said alone is the one full name it opens ("Dev" is Dev Patel's page;
        # a place stays itself: "Leeds" is no "Leeds Building Society")
        full: list[str] = []
        if " " not in name and gazetteer.kind(name) is None:
            full = sorted(
                {n for n in (*counts, *known, *proper) if n.startswith(name + " ")}, key=len
            )
        # one full name, however much more a longer reading holds ("Dev Patel DBS")
        one = full[0] if full and all(n.startswith(full[0]) for n in full) else ""
        return "entity", one or name
    words = [
        t
        for t in tfidf.top_terms(row, 8)
        # "redacted" is what is left of a credential's placeholder, no topic
        if re.fullmatch(r"[a-z][a-z-]{2,}", t)
        and t not in distill.FILLER
        and t != "redacted"
        and not _no_topic(t)
    ]
    shared = [t for t in words if tfidf.df.get(t, 0) >= RECURRING]  # a topic recurs (3+)
    return "concept", (shared or ["notes"])[0]


_ROMAN_RE = re.compile(r"[IVXL]{2,5}")


def _no_topic(word: str) -> bool:
    """Whether a note's strongest term names no topic a page could be about: an adjective or
    a quantifier ("new", "first"), a word that opens log lines ("plan", "question"), a past
    form ("packed", "booked", "felt"), or a time ("saturday", "day", "morning": when, not what)."""
    return (
        word in NOT_TOPICS
        or word in _UNITS  # "eur" of "Rates in EUR"
        or word in distill.LOG_OPENERS
        or word.rstrip("s") in _TIMES
        or (len(word) >= 5 and word.endswith("ed"))
        or word in _IRREGULAR_PAST
    )


# past forms that do not end in "-ed" ("Long run 16 km, felt good": no page "Felt")
_IRREGULAR_PAST = frozenset(
    """felt went got made said thought took came saw left kept told found gave bought brought
    sat met paid ran began spent sent held won lost""".split()  # noqa: SIM905
)


_SHORT_DAYS = frozenset((*temporal.SHORT_WEEKDAYS, *temporal.SHORT_MONTHS))  # "Nov 16", "Tue"
_TIMES = frozenset(
    [*temporal.WEEKDAYS, *temporal.MONTHS, *_SHORT_DAYS]
    + """day week weekend month year morning afternoon evening night today tomorrow yesterday
    hour minute""".split()  # noqa: SIM905
)


# capitalised words that are no one's name: units and a pull request
_UNITS = frozenset(
    "gbps mbps kbps tbps gb mb kb tb gib mib kib tib ghz mhz khz pr prs".split()  # noqa: SIM905
    # a currency's code ("EUR 0.09 per word"), no one a page is about
    + "eur usd gbp chf jpy cad aud nzd sek nok dkk pln czk inr cny".split()  # noqa: SIM905
)
# a language pair ("DE>EN", "FR > EN"): two codes, no page
_PAIR_RE = re.compile(r"\b[A-Z]{2}\s?>\s?[A-Z]{2}\b")


# a day, not someone or something a page is about: "Friday", "Veterans Day", "Black Friday"
_CALENDAR = frozenset(
    [*temporal.WEEKDAYS, *temporal.MONTHS, *_SHORT_DAYS, "day", "eve", "week", "weekend",
     "thanksgiving",
     "christmas", "xmas", "halloween", "easter", "hanukkah", "diwali", "ramadan", "eid",
     "passover"]
)  # fmt: skip


def _calendar(name: str) -> bool:
    """Whether ``name`` names a day or a season of the calendar ("Friday", "Fridays", "Nov",
    "Veterans Day", "Black Friday", "Thanksgiving"): its last word is one."""
    words = name.replace("'s", "").split()
    last = words[-1].lower().strip(".,") if words else ""
    # "Fridays going forward": the days of a habit
    return bool(last) and (last in _CALENDAR or (last.endswith("s") and last[:-1] in _CALENDAR))


def _code_or_unit(name: str, text: str) -> bool:
    """Whether ``name`` stands in ``text`` as a piece of code ("Arc<AppState>", "`Vec`",
    "Foo::bar", "Config(") or is a unit ("1 Gbps"), not a name a page is about."""
    if name.lower() in _UNITS:
        return True
    if any(name in pair for pair in _PAIR_RE.findall(text)):
        return True
    n = re.escape(name)
    return bool(re.search(rf"(?:[<`]|::){n}\b|\b{n}(?:<|`|::|\()", text))


def _open_question(text: str, known: frozenset[str]) -> str:
    """The sentence of a note that states a gap worth a next-session action, or "": an
    informative "not sure / TBD / find out…", or a question with real content (not "How have
    you been?"). Returned with the speaker label. A task written down ("todo: book the
    tasting") is REM's to list, as a task."""
    if written_task(text):
        return ""
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


@dataclass
class _Batch:
    """One NREM payload, analysed: the notes kept, their condensed texts, similarities."""

    p: dict[str, Any]
    memory: list[dict[str, Any]]
    known: frozenset[str]
    info: dict[str, float]
    kept: list[dict[str, Any]]
    texts: list[str]
    corpus: list[str]
    tfidf: lexical.TfIdf
    sim: Any
    negs: list[bool]
    counts: Counter[str]
    proper: frozenset[str]


@dataclass
class _Filed:
    rep: int  # the cluster's representative (index into kept)
    text: str
    sources: list[str]
    conf: float  # after contradictions
    own: float  # before them: what a supersede weighs
    fast: bool
    contradicted: bool = False


def _prepare(p: dict[str, Any]) -> tuple[_Batch, int]:
    """The batch analysed, and how many notes were pruned."""
    notes: list[dict[str, Any]] = p.get("notes", [])
    memory: list[dict[str, Any]] = p.get("memory", [])
    known = distill.known_names([n["text"] for n in notes] + [m["text"] for m in memory])
    info = {n["id"]: distill.information(n["text"], known) for n in notes}
    kept = [n for n in notes if not prunable(n, info[n["id"]])]
    texts = [
        n["text"] if _whole(n) else condense(n["text"], n.get("tier", ""), known) for n in kept
    ]
    corpus = texts + [m["text"] for m in memory]
    tfidf = lexical.TfIdf([POSSESSIVE_RE.sub("", t) for t in corpus])  # a possessive is no word
    counts: Counter[str] = Counter()
    for t in texts:
        counts.update(set(distill.names(t, known)))
    proper = frozenset(n for t in corpus for n in distill.names(t))  # capitalised mid-sentence
    negs = [negated(t) for t in corpus]  # "not just …, also …" adds; it denies nothing
    batch = _Batch(p, memory, known, info, kept, texts, corpus, tfidf, tfidf.similarity(), negs,
                   counts, proper)  # fmt: skip
    return batch, len(notes) - len(kept)


def _near(row: Any, threshold: float, start: int, end: int) -> list[int]:
    """The columns in ``start:end`` where ``row`` may reach ``threshold``, in order: a superset
    (a hair below it too), each to be checked as before; a Python loop over every column made
    a run quadratic in its notes."""
    import numpy as np

    return (np.flatnonzero(row[start:end] >= threshold - 1e-6) + start).tolist()


def _clusters(b: _Batch) -> dict[int, list[int]]:
    """Near-duplicate clusters among the batch's notes, greedy in time order; notes whose
    values differ (numbers, names, dates, negation) never merge."""
    k = len(b.kept)
    owner = list(range(k))
    for i in range(k):
        if owner[i] != i:
            continue
        for j in _near(b.sim[i], DUPLICATE, i + 1, k):
            if (
                owner[j] == j
                and b.sim[i, j] >= DUPLICATE
                and _anchors(b.texts[j]) <= _anchors(b.texts[i])
                and not offline_currency.differ(b.texts[i], b.texts[j], b.known)
            ):
                owner[j] = i
    clusters: dict[int, list[int]] = {}
    for j in range(k):
        clusters.setdefault(owner[j], []).append(j)
    return clusters


# a state told as holding on: "still", "remains", "as before", "unchanged", "as usual"
_GOING_ON_RE = re.compile(
    r"\b(?:still|remains?|remained|again|as before|unchanged|as usual|continues? to)\b", re.I
)


def _restates(b: _Batch, rep: int, text: str) -> dict[str, Any] | None:
    """The MEMORY.md entry the item restates with the same value (reinforced), if any: a near
    duplicate that disagrees on no value, or an opinion said again, or a fact said to hold
    still, in fewer words of its own (``offline_rem.restated``: its words are all the entry's,
    so it states no other value, and REM would count it as the entry's evidence; filed, it was
    a second entry beside it)."""
    k = len(b.kept)
    kind = b.kept[rep]["type"]
    # a fact said to hold still ("Orla is still our main contact at Halden Foods") restates
    # the entry its words are all in, like an opinion said again
    confirms = kind == "O" or (kind == "W" and bool(_GOING_ON_RE.search(text)))
    for m, entry in enumerate(b.memory):
        if b.negs[k + m] != b.negs[rep] or not _anchors(text) <= _anchors(entry["text"]):
            continue
        same = b.sim[rep, k + m] >= DUPLICATE and not offline_currency.differ(
            text, entry["text"], b.known
        )
        again = (
            confirms
            and entry.get("type") == kind
            and restated(_GOING_ON_RE.sub(" ", text), entry["text"])
        )
        if (same or again) and currency.relation(
            text, entry["text"], b.known
        ).kind != currency.SUPERSEDE:
            return entry
    return None


def _judge(b: _Batch, head: int, members: list[int]) -> _Filed | dict[str, Any]:
    """A cluster: a reinforcement of a MEMORY.md entry (an update item), or an item to file."""
    note = b.kept[head]
    rep = max(members, key=lambda j: (b.info[b.kept[j]["id"]], len(b.texts[j]), -j))
    text, sources = b.texts[rep], [b.kept[j]["id"] for j in members]
    conf = note.get("confidence") if note["type"] == "O" else None
    conf = float(conf) if conf is not None else BASE_CONFIDENCE[note["type"]]
    conf += 0.1 * (len(members) - 1)
    if _replays(text, b.p.get("weakly_learned", [])):  # a weak item of an earlier run, again
        conf += 0.1
    own = round(min(0.95, conf), 2)
    contradicted = [
        o
        for o in _near(b.sim[rep], CONTRADICTION, 0, len(b.corpus))
        if o not in members
        and b.sim[rep, o] >= CONTRADICTION
        and b.negs[o] != b.negs[rep]
        and currency.same_subject(text, b.corpus[o], b.known)  # not another person's view
    ]
    conf = round(min(0.95, max(0.05, conf - 0.2 * len(contradicted))), 2)
    entry = _restates(b, rep, text)
    if entry is not None:
        bump = round(min(0.95, float(entry.get("confidence") or conf) + 0.05), 2)
        return {"action": "update", "type": entry["type"], "confidence": bump,
                "text": entry["text"], "replaces": entry["id"], "sources": sources}  # fmt: skip
    tier_keep = any(b.kept[j].get("tier") == "keep" for j in members)
    clear = distill.information(text, b.known) >= distill.STRONG
    fast = (
        conf >= FAST_CONFIDENCE
        and not contradicted
        and not text.rstrip().endswith("?")
        and (
            note["type"] in ("W", "O")
            or (clear and (tier_keep or len(members) > 1))
            or (note["type"] == "B" and salience.vital(text))  # a name, pronouns, an allergy
        )
    )
    return _Filed(rep, text, sources, conf, own, fast, bool(contradicted))


def _currency(b: _Batch, filed: list[_Filed], updates: list[dict[str, Any]]) -> list[_Filed]:
    """Items giving a new value for an existing entry take its place (supersede items); the
    rest, returned, are filed as usual."""
    replacing = offline_currency.supersedes(
        [(b.kept[f.rep]["type"], _as_read(b.kept[f.rep], f.text), f.sources, f.own,
          b.kept[f.rep].get("date", ""))
         for f in filed],
        b.memory,
        b.p.get("related", []),
        b.known,
        offline_currency.Lazy(),
    )  # fmt: skip
    bank_ids = {str(r["id"]) for r in b.p.get("related", [])}
    for n, item in replacing.items():
        copies = item.pop("copies", {})
        if filed[n].fast and item["replaces"] in bank_ids:  # clear enough for MEMORY.md
            updates.append({**item, "action": "add", "replaces": ""})
        updates.append(item)
        # another entry that held the same value, put right too
        updates += [{**item, "replaces": ref, "text": text} for ref, text in copies.items()]
    return [f for n, f in enumerate(filed) if n not in replacing]


def _as_read(note: dict[str, Any], text: str) -> str:
    """What currency reads of a filed item: a recap as written, for a recap condensed to a
    part or two ("Week 5: …; Dr Patel on leave next week …; CQC inspection 4 November") is
    still one, and replaces nothing (``offline_currency.recap``); else the item's text."""
    if note["type"] == "S" and offline_currency.recap(note["text"]):
        return str(note["text"])
    return text


def _file(b: _Batch, filed: list[_Filed], updates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """MEMORY.md takes the clearest facts of the run, a few per log date; the rest go to the
    bank (entity or concept page, a section per date). Returns the bank updates."""
    ranked = sorted(
        (f for f in filed if f.fast),
        key=lambda f: (not _vital(f.text, b.kept[f.rep]["type"], f.conf),
                       b.kept[f.rep]["type"] not in ("W", "O"), -b.info[b.kept[f.rep]["id"]],
                       f.rep),
    )  # fmt: skip
    per_day: Counter[str] = Counter()
    to_memory: set[int] = set()
    for f in ranked:
        day = b.kept[f.rep].get("date", "")
        if per_day[day] < MAX_FAST:
            per_day[day] += 1
            to_memory.add(f.rep)
    bank: list[dict[str, Any]] = []
    for f in filed:
        note = b.kept[f.rep]
        if f.rep in to_memory:
            updates.append({"action": "add", "type": note["type"], "confidence": f.conf,
                            "text": f.text, "replaces": "", "sources": f.sources})  # fmt: skip
            continue
        kind, name = _group(f.text, b.counts, b.tfidf, f.rep, b.known, b.proper)
        section = f"## {note.get('date') or b.p.get('today', '')}".rstrip()
        bank.append({"slug": slugify(name) or "notes", "kind": kind, "section": section,
                     "content": f.text, "sources": f.sources})  # fmt: skip
    return bank


def nrem(p: dict[str, Any]) -> dict[str, Any]:
    b, pruned = _prepare(p)
    long = len(b.kept) + pruned >= offline_common.PROGRESS_EVERY  # a short run stays quiet
    if long:
        offline_common.say(
            f"  NREM: {len(b.kept)} notes kept, {pruned} pruned; merging near-duplicates"
        )
    updates: list[dict[str, Any]] = []
    filed: list[_Filed] = []
    clusters = _clusters(b)
    if long:
        offline_common.say(f"  NREM: {len(clusters)} items; confidence and contradictions")
    for head, members in clusters.items():
        judged = _judge(b, head, members)
        if isinstance(judged, dict):
            updates.append(judged)
        else:
            filed.append(judged)
    weak = [{"text": f.text, "sources": f.sources} for f in filed
            if f.conf < FAST_CONFIDENCE or f.contradicted]  # fmt: skip
    kept_filed = _currency(b, filed, updates)
    kept_ids = {id(f) for f in kept_filed}
    replaced = {s for f in filed if id(f) not in kept_ids for s in f.sources}
    weak = [w for w in weak if not set(w["sources"]) & replaced]
    bank = _file(b, kept_filed, updates)
    by_salience = sorted(b.kept, key=lambda n: -float(n.get("salience", 0)))  # stable: note order
    gaps = [(n, _open_question(n["text"], b.known)) for n in by_salience]
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
