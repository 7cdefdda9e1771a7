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

from agent_sleep.analysis import currency, distill, gate, lexical, temporal
from agent_sleep.providers import offline_currency
from agent_sleep.providers.base import Usage

DUPLICATE = 0.8
CONTRADICTION = 0.5
LINK_MIN, LINK_MAX = 0.25, 0.8
FAST_CONFIDENCE = 0.7
MAX_FAST = 6  # MEMORY.md additions per log date in a run: the clearest facts only
KEEP_WORDS, CONDENSE_WORDS = 24, 12  # word budgets of condensed chat turns, by tier
BASE_CONFIDENCE = {"W": 0.8, "B": 0.75, "S": 0.6, "O": 0.7}
MAX_LINKS, MAX_AHA, MAX_ACTIONS, MAX_OPEN, MAX_WEAK = 3, 2, 5, 5, 10
RECURRING = 3
INFO = distill.INFORMATIVE
MAX_PAGES = 2  # new entity pages and concept pages suggested per run, each
TOPIC_SHARE = 0.25

_QUESTION_RE = re.compile(
    r"\?\s*$|\b(?:not sure|unclear|tbd|todo|open question|(?:need|needs|have|has) to"
    r" (?:find|figure) out)\b",
    re.I,
)
_INTENT_RE = re.compile(
    r"\b(?:need to|needs to|plan(?:s|ning)? to|going to|will|want(?:s)? to|should|remember to"
    r"|follow up|next time|todo|deadline|due)\b",
    re.I,
)
_FILLER_RE = re.compile(
    r"^(?:\W*(?:wow|oh|haha|hah|lol|hey|hi|hello|thanks|thank you|yeah|yes|no|ok|okay|cool|great"
    r"|awesome|nice|sure|totally|right|omg|aww|congrats|congratulations)\b[^.!?]*[.!?]?\s*)$",
    re.I,
)
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
# A word right after an article or a possessive is a noun or an adjective; adjectives are
# filtered by _NOT_TOPICS and by their endings.
_AFTER_DETERMINER_RE = re.compile(r"\b(?:a|an|the|my|your|his|her|our|their)\s+([a-z]{4,})\b", re.I)
_ADJECTIVE_END_RE = re.compile(r"(?:ful|ous|ive|ible|able|less|ly|ish|est|er)$")
# Adjectives and quantifiers that often follow an article but name no topic.
_NOT_TOPICS = frozenset(
    """last long first next little whole same other different real true few own best big small
    new old full hard easy more most much many such very only part kind sort type lots couple
    while time times moment moments thing things something someone people person place way ways
    days weeks months years year week month today tonight back help life love lots huge tiny
    favorite favourite local whole recent current latest usual""".split()  # noqa: SIM905
)
_ROLE_RE = re.compile(r"^\s*(?:user|human|assistant|ai|claude)\s*:\s*", re.I)
_SKIP_ROLE_RE = re.compile(r"^\s*(?:system|tool|tool_result|function)\s*:", re.I)


def slugify(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:64].strip("-")


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


def _prunable(note: dict[str, Any], info: float) -> bool:
    """Pruned: the salience tier says so, or a chat turn / experience note is small talk.
    Notes the agent wrote on purpose (W, O) are never pruned here."""
    if note["type"] in ("W", "O"):
        return False
    return note.get("tier") == "prune" or info < distill.INFORMATIVE


def _open_question(text: str, known: frozenset[str]) -> str:
    """The sentence of a note that states a gap worth a next-session action, or "": an
    informative "not sure / TBD / find out…", or a question with real content (not "How have
    you been?"). Returned with the speaker label."""
    label, _ = lexical.split_speaker(text)
    for s in distill.analyse(text, known):
        if s.caption or not _QUESTION_RE.search(s.text):
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
    kept = [n for n in notes if not _prunable(n, info[n["id"]])]
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


def _excerpt(text: str, n: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def rem(p: dict[str, Any]) -> dict[str, Any]:
    notes: list[dict[str, Any]] = p.get("notes", [])
    memory: list[dict[str, Any]] = p.get("memory", [])
    out: dict[str, Any] = {
        "aha_moments": [],
        "creative_connections": [],
        "confidence_updates": [],
        "new_bank_suggestions": [],
        "next_session_actions": [],
    }
    if not notes:
        return out
    corpus = [n["text"] for n in notes] + [m["text"] for m in memory]
    tfidf = lexical.TfIdf(corpus)
    sim = tfidf.similarity()
    k = len(notes)

    known = distill.known_names(corpus)
    useful = [
        i for i in range(k) if not _prunable(notes[i], distill.information(notes[i]["text"], known))
    ]
    out["creative_connections"] = _links(notes, memory, useful, sim, known)
    for change in p.get("changes", [])[:MAX_AHA]:
        out["aha_moments"].append(
            {
                "text": f"Changed on {change.get('until', '')}: {_excerpt(change['old'], 120)} → "
                f"{_excerpt(change['new'], 120)}",
                "sources": change["sources"],
            }
        )

    for m, entry in enumerate(memory):
        if entry.get("type") != "O":
            continue
        old = float(entry.get("confidence") or 0.5)
        seen = set(entry.get("sources", [])) | set(entry.get("evidence", []))
        neg = lexical.negated(entry["text"])
        # a note that disagrees on a value (or supersedes the entry) never supports it
        disagree = {i for i in range(k) if sim[i, k + m] >= 0.35 and (
            lexical.negated(notes[i]["text"]) != neg
            or currency.relation(notes[i]["text"], entry["text"], known).kind
            == currency.SUPERSEDE)}  # fmt: skip
        support = [i for i in range(k) if notes[i]["id"] not in seen and sim[i, k + m] >= 0.45
                   and i not in disagree]  # fmt: skip
        against = [i for i in range(k) if notes[i]["id"] not in seen and i in disagree]
        new = round(min(0.95, max(0.05, old + 0.05 * len(support) - 0.15 * len(against))), 2)
        if new != old:
            out["confidence_updates"].append(
                {
                    "item": entry["id"],
                    "old_c": old,
                    "new_c": new,
                    "reason": f"{len(support)} supporting and {len(against)} contradicting notes",
                    "sources": [notes[i]["id"] for i in support + against],
                }
            )

    speakers = {lexical.split_speaker(n["text"])[0].rstrip(": ") for n in notes} - {""}
    mentions: dict[str, list[int]] = {}
    for i in useful:
        for name in distill.names(notes[i]["text"], known):
            if name not in speakers:
                mentions.setdefault(name, []).append(i)
    recurring = sorted(
        ((name, idx) for name, idx in mentions.items() if len(idx) >= RECURRING),
        key=lambda t: (-len(t[1]), t[0]),
    )
    # A new page is seeded when its name or topic recurs in a run (3+ notes); an existing
    # page already holds what was said, so it gets no line.
    pages = set(p.get("bank_pages", []))
    for name, idx in recurring[:MAX_PAGES]:
        if slugify(name) and slugify(name) not in pages:  # an existing page needs no filler
            out["new_bank_suggestions"].append(_seed(name, "entity", notes, idx, known))
    for topic, idx in _topics(notes, useful, mentions, known)[:MAX_PAGES]:
        if slugify(topic) not in pages:
            out["new_bank_suggestions"].append(_seed(topic, "concept", notes, idx, known))
    for name, idx in recurring:
        days = sorted({notes[i].get("date", "") for i in idx} - {""})
        in_memory = [e["id"] for e in memory if name in e["text"]]
        if len(days) < 2 and not in_memory:
            continue
        where = f" across {len(days)} days" if len(days) > 1 else ""
        count = len(in_memory)
        entries = "entry" if count == 1 else "entries"
        also = f"; MEMORY.md has {count} {entries} on it" if in_memory else ""
        out["aha_moments"].append(
            {
                "text": f"{name} keeps coming up: {len(idx)} notes{where}{also}.",
                "sources": [notes[i]["id"] for i in idx] + in_memory[:3],
            }
        )
        if len(out["aha_moments"]) >= MAX_AHA:
            break

    actions: list[dict[str, Any]] = []
    for entry in memory:  # a disputed entry waits for the evidence that decides it
        if entry.get("contested"):
            actions.append(
                {
                    "text": f"Decide: {_excerpt(entry['text'], 160)} (a newer, weaker note "
                    "disputes it; confirm or correct it)",
                    "sources": [entry["id"]],
                }
            )
    for q in p.get("open_questions", []):
        actions.append({"text": f"Find out: {_excerpt(q['text'], 200)}", "sources": q["sources"]})
    for i in useful:
        intent = _intention(notes[i]["text"], known)
        if intent:
            actions.append({"text": f"Follow up: {intent}", "sources": [notes[i]["id"]]})
    seen_text: set[str] = set()
    for a in actions:
        if a["text"] not in seen_text and len(out["next_session_actions"]) < MAX_ACTIONS:
            seen_text.add(a["text"])
            out["next_session_actions"].append(a)
    return out


def _links(
    notes: list[dict[str, Any]],
    memory: list[dict[str, Any]],
    useful: list[int],
    sim: Any,
    known: frozenset[str],
) -> list[dict[str, Any]]:
    """Connections across days: a note and a MEMORY.md entry from another day that involve the
    same person or project, and neither restate nor update each other (that is NREM's job)."""
    k = len(notes)
    links: list[tuple[float, int, int, str]] = []
    for i in useful:
        note = notes[i]
        names = set(distill.names(note["text"], known))
        for m, entry in enumerate(memory):
            s = float(sim[i, k + m])
            if not LINK_MIN <= s < LINK_MAX or note["id"] in entry.get("sources", []):
                continue
            if entry.get("date", "") == note.get("date", "") or not entry.get("date"):
                continue
            shared = sorted(names & set(distill.names(entry["text"], known)))
            if not shared:
                continue
            if currency.relation(note["text"], entry["text"], known).kind != currency.OTHER:
                continue
            links.append((s, i, m, shared[0]))
    out: list[dict[str, Any]] = []
    used: set[int] = set()
    for _s, i, m, name in sorted(links, key=lambda t: (-t[0], t[1], t[2])):
        if m in used or len(used) >= MAX_LINKS:
            continue
        used.add(m)
        out.append(
            {
                "link": f"{_excerpt(_best_sentence(notes[i]['text'], known), 80)} ↔ "
                f"{_excerpt(memory[m]['text'], 80)}",
                "why": f"both involve {name}: {memory[m].get('date')} and "
                f"{notes[i].get('date', '')}",
                "sources": [notes[i]["id"], memory[m]["id"]],
            }
        )
    return out


def _best_sentence(text: str, known: frozenset[str], must: str = "") -> str:
    """The note's most informative sentence (containing ``must``), with its speaker label."""
    label, _ = lexical.split_speaker(text)
    parts = [
        s for s in distill.analyse(text, known) if not s.caption and must.lower() in s.text.lower()
    ]
    if not parts:
        return ""
    best = max(parts, key=lambda s: s.score)
    return label + distill.strip_filler(best.text)


def _seed(
    name: str,
    kind: str,
    notes: list[dict[str, Any]],
    idx: list[int],
    known: frozenset[str],
) -> dict[str, Any]:
    """A new bank page's overview: the two most informative things said about the name or
    topic, each with its date (no "X came up in N notes" filler: that says nothing)."""
    said = []
    for i in idx:
        best = _best_sentence(notes[i]["text"], known, name)
        if best:
            score = distill.sentence_score(lexical.split_speaker(best)[1], known)
            said.append((score, notes[i].get("date", ""), _excerpt(best, 160), i))
    said.sort(key=lambda t: (-t[0], t[3]))
    lines = [f"{text} ({day})" if day else text for _s, day, text, _i in said[:2]]
    return {
        "slug": slugify(name),
        "kind": kind,
        "seed_content": "; ".join(lines) or name,
        "sources": [notes[i]["id"] for i in idx],
    }


def _topics(
    notes: list[dict[str, Any]],
    useful: list[int],
    mentions: dict[str, list[int]],
    known: frozenset[str],
) -> list[tuple[str, list[int]]]:
    """Recurring topics: nouns (words seen right after an article or a possessive, not names,
    not filler, not common adjectives) in RECURRING informative notes or more, but in at most
    TOPIC_SHARE of them (a word everyone uses is not a topic)."""
    names = {w.lower() for n in mentions for w in n.split()} | {w.lower() for w in known}
    where: dict[str, list[int]] = {}
    nouns: set[str] = set()
    for i in useful:
        body, _caption = distill.split_caption(lexical.split_speaker(notes[i]["text"])[1])
        nouns.update(m.group(1).lower() for m in _AFTER_DETERMINER_RE.finditer(body))
        for w in set(lexical.tokens(body)):
            if len(w) >= 4 and w.isalpha() and w not in distill.FILLER and w not in names:
                where.setdefault(w, []).append(i)
    where = {
        w: idx
        for w, idx in where.items()
        if w in nouns and w not in _NOT_TOPICS and not _ADJECTIVE_END_RE.search(w)
    }
    cap = max(RECURRING, TOPIC_SHARE * len(useful))
    found = [(w, idx) for w, idx in where.items() if RECURRING <= len(idx) <= cap]
    return sorted(found, key=lambda t: (-len(t[1]), t[0]))


def _intention(text: str, known: frozenset[str]) -> str:
    """The informative sentence of a note stating an intention or a plan, or ""."""
    label, _ = lexical.split_speaker(text)
    for s in distill.analyse(text, known):
        if (
            not s.caption
            and s.score >= distill.INFORMATIVE
            and _INTENT_RE.search(s.text)
            and not _QUESTION_RE.search(s.text)
        ):
            return _excerpt(label + distill.strip_filler(s.text), 200)
    return ""


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
