"""The offline consolidator's REM: connections across days through what few of the texts
share (a name, never the one every note holds), saying what links them; changes
over time ("Changed on DATE: A → B"), O confidence shifts (a disagreeing note never supports),
bank pages for names and topics recurring in 3+ notes, and next-session actions from open
questions, contested entries and stated intentions. See providers/offline.py."""

from __future__ import annotations

import difflib
import re
from collections import Counter
from typing import Any

from agent_sleep.analysis import change_words as cw
from agent_sleep.analysis import currency, distill, lexical, temporal
from agent_sleep.core import notes as fmt
from agent_sleep.providers.offline_common import (
    POSSESSIVE_RE,
    QUESTION_RE,
    RECURRING,
    best_sentence,
    excerpt,
    prunable,
    slugify,
)

LINK_MIN, LINK_MAX = 0.25, 0.8
LINK_SHARE = 1 / 3  # a name or word in more of the texts REM reads links no pair in particular


MAX_LINKS, MAX_AHA, MAX_ACTIONS, MAX_OPEN, MAX_WEAK = 3, 2, 5, 5, 10


MAX_PAGES = 2  # new entity pages and concept pages suggested per run, each


TOPIC_SHARE = 0.25


_INTENT_RE = re.compile(
    # "should" of someone ("we should book the tiler", "Jamie should confirm …"), not a
    # standing rule ("Agency payments should go to the Qonto account"; with a day, that one
    # is _SHOULD_RE's)
    r"\b(?:need to|needs to|plan(?:s|ning)? to|want(?:s)? to|(?:I|we|you|(?-i:[A-Z][a-z]+))\s+"
    r"should|^\s*should"
    r"|remember to"
    r"|follow up|next time|todo|deadline|due|next week|tomorrow)\b"
    # what one means to do oneself ("we will pick the cake", "I'm going to call"), not a fact
    # about a time to come ("Daniel will be the only driver")
    r"|\b(?:I|we)\s+(?:will|shall|am going to|are going to)\b|\b(?:I|we)['’]ll\b"
    r"|\b(?:I['’]m|we['’]re) going to\b|\blet['’]s\b",
    re.I,
)


# a time to come said of anyone: a follow-up when it has its day ("Denver internet will be
# Google Fiber, installed on Dec 2"), a fact about the future when not ("Daniel will be the only
# driver")
_WILL_RE = re.compile(r"\b(?:will|going to)\b", re.I)


# A word right after an article or a possessive is a noun or an adjective; adjectives are
# filtered by NOT_TOPICS and by their endings.
_AFTER_DETERMINER_RE = re.compile(r"\b(?:a|an|the|my|your|his|her|our|their)\s+([a-z]{4,})\b", re.I)


_ADJECTIVE_END_RE = re.compile(r"(?:ful|ous|ive|ible|able|less|ly|ish|est|er)$")


# Adjectives and quantifiers that often follow an article but name no topic.
NOT_TOPICS = frozenset(
    """last long first next little whole same other different real true few own best big small
    new old full hard easy more most much many such very only part kind sort type lots couple
    while time times moment moments thing things something someone people person place way ways
    days weeks months years year week month today tonight back help life love lots huge tiny
    favorite favourite local whole recent current latest usual
    one two three four five six seven eight nine ten eleven twelve twenty hundred thousand dozen
    away open live early late ready sorted done busy closed final main extra spare okay fine
    sure free due""".split()  # noqa: SIM905
)


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
    sim = lexical.TfIdf(corpus).similarity()
    known = distill.known_names(corpus)
    useful = [
        i
        for i in range(len(notes))
        if not prunable(notes[i], distill.information(notes[i]["text"], known))
    ]
    out["creative_connections"] = _links(notes, memory, useful, sim, known)
    out["aha_moments"] = _changes(p.get("changes", []))
    out["confidence_updates"] = _confidence_updates(notes, memory, sim, known)
    mentions = _mentions(notes, useful, known)
    recurring = sorted(
        ((name, idx) for name, idx in mentions.items() if len(idx) >= RECURRING),
        key=lambda t: (-len(t[1]), t[0]),
    )
    pages = set(p.get("bank_pages", []))
    out["new_bank_suggestions"] = _suggestions(notes, useful, mentions, recurring, pages, known)
    _recurring_ahas(out["aha_moments"], notes, memory, recurring)
    out["next_session_actions"] = _actions(p, notes, memory, useful, known)
    return out


def _changes(changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The "Changed on DATE: A → B" moments of the run's first supersedes."""
    return [
        {
            "text": f"{fmt.CHANGED_ON}{change.get('until', '')}: {excerpt(change['old'], 120)} → "
            f"{excerpt(change['new'], 120)}",
            "sources": change["sources"],
        }
        for change in changes[:MAX_AHA]
    ]


def _confidence_updates(
    notes: list[dict[str, Any]], memory: list[dict[str, Any]], sim: Any, known: frozenset[str]
) -> list[dict[str, Any]]:
    """Each O entry's confidence moved up by the new notes that support it and down by those
    that disagree (a note that disagrees on a value, or supersedes the entry, never supports)."""
    k = len(notes)
    out = []
    moments = {n["id"]: (str(n.get("date") or ""), str(n.get("time") or "")) for n in notes}
    for m, entry in enumerate(memory):
        if entry.get("type") != "O":
            continue
        old = float(entry.get("confidence") or 0.5)
        seen = set(entry.get("sources", [])) | set(entry.get("evidence", []))
        neg = negated(entry["text"])
        disagree = {i for i in range(k) if sim[i, k + m] >= 0.35 and (
            negated(notes[i]["text"]) != neg
            or _swapped(notes[i]["text"], entry["text"])
            or currency.relation(notes[i]["text"], entry["text"], known).kind
            == currency.SUPERSEDE)}  # fmt: skip
        # support says the entry again ("Still prefers squash merges"), not something else of
        # its subject ("prefers small pull requests" is no evidence for squash merges)
        support = [i for i in range(k) if notes[i]["id"] not in seen and sim[i, k + m] >= 0.45
                   and i not in disagree
                   and (sim[i, k + m] >= SAID_AGAIN
                        or _says_again(notes[i]["text"], entry["text"], known))]  # fmt: skip
        # a note told before the entry's own does not dispute it: the later word stands
        said = [moments[s] for s in entry.get("sources", []) if s in moments]
        since = max(said, default=(str(entry.get("date") or ""), ""))
        against = [i for i in range(k) if notes[i]["id"] not in seen and i in disagree
                   and moments[notes[i]["id"]] >= since]  # fmt: skip
        new = round(min(0.95, max(0.05, old + 0.05 * len(support) - 0.15 * len(against))), 2)
        if new != old:
            out.append(
                {
                    "item": entry["id"],
                    "old_c": old,
                    "new_c": new,
                    "reason": f"{len(support)} supporting and {len(against)} contradicting notes",
                    "sources": [notes[i]["id"] for i in support + against],
                }
            )
    return out


# a "not" that adds to what is said rather than denying it: "Maya wants PR titles to follow
# Conventional Commits too, not just commit messages", "not only the API but also the CLI",
# "she doesn't just want tests, she wants them fast"
_ADDITIVE_NOT_RE = re.compile(
    r"\b(?:not|cannot|\w+n['’]t)\s+(?:just|only|merely|simply|solely)\b", re.I
)


def negated(text: str) -> bool:
    """Whether a text denies or drops what it speaks of ("Maya does not want Conventional
    Commits", "Maya no longer wants Conventional Commits"). An additive "not just" or "not
    only" widens the claim instead ("Maya wants PR titles to follow Conventional Commits too,
    not just commit messages" agrees with "Maya wants commit messages in Conventional
    Commits"), so it is not a denial; any other negation in the text still is."""
    return lexical.negated(_ADDITIVE_NOT_RE.sub(" ", text))


# the cosine of a paraphrase ("Maya again asked for short, direct answers" for "Maya wants
# answers short and direct": 0.96); two opinions of one subject reach 0.7-0.8 ("wants detailed
# explanations" / "wants answers short and direct" 0.78, "prefers small pull requests" /
# "prefers squash merges for pull requests" 0.69)
SAID_AGAIN = 0.85


def _says_again(text: str, entry: str, known: frozenset[str]) -> bool:
    """Whether a note says what an opinion entry says: a restatement (:func:`restated`), or
    the same value of the same thing as the claim reader reads them."""
    return restated(text, entry) or currency.relation(text, entry, known).kind == currency.SAME


_WORD = re.compile(r"[\w'’-]+(?:\.\w+)*")  # "v1.2" is a word; a sentence's full stop is not
# words that say how an opinion is held, not what it is: "now prefers dark mode again"
_MANNER = frozenset(
    "again still also too now really actually definitely instead anymore".split()  # noqa: SIM905
)


def restated(text: str, entry: str) -> bool:
    """Whether an opinion note says again what an entry says, and nothing more: its words, less
    stop words and the words of manner ("still", "again", "now"), are all the entry's, at least
    two of them ("Still wants short, direct answers." restates "Maya wants answers short and
    direct."; a note that leaves out its subject is still about the entry's). A restatement
    is evidence for the entry, not a second entry."""
    mine, theirs = (
        {_stem(w.strip(".'’-")) for w in _WORD.findall(t.lower())} - _FUNCTION - _MANNER
        for t in (text, entry)
    )
    return len(mine) >= 2 and mine <= theirs and not _swapped(text, entry)


# stop words that change what an opinion says: "wants more detail" is not "wants detail"
_DEGREE = frozenset(
    """more most less least few no nor not only very too against off out over under up down
    above below before after don't didn't can't won't isn't wasn't dont""".split()  # noqa: SIM905
)
_FUNCTION = lexical.STOPWORDS - _DEGREE  # the words a restatement may add or leave out


def _stem(word: str) -> str:
    """A word without a plural or third-person "s" ("answers", "wants")."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _swapped(a: str, b: str) -> bool:
    """Whether two texts say the same thing but for words swapped for others after a shared
    start: "prefers dark mode in the editor" / "prefers light mode in the editor", "prefers
    tea" / "prefers coffee", "2 spaces" / "4 spaces" (an opinion's opposite, which the TF-IDF
    likeness reads as support). Only one word for one word counts: a word added as well ("now
    … again") or a longer detail ("reviewed early" / "reviewed, part 2") is a restatement with
    details, and another start is another owner."""
    x, y = ([w for w in _WORD.findall(t.lower()) if w not in cw.STOP | _MANNER] for t in (a, b))
    ops = difflib.SequenceMatcher(a=x, b=y, autojunk=False).get_opcodes()
    diffs = [k for k, (op, *_span) in enumerate(ops) if op != "equal"]
    if len(diffs) != 1 or diffs[0] == 0:
        return False
    op, i1, i2, j1, j2 = ops[diffs[0]]
    return op == "replace" and i2 - i1 == 1 and j2 - j1 == 1  # one word for one word


def _mentions(
    notes: list[dict[str, Any]], useful: list[int], known: frozenset[str]
) -> dict[str, list[int]]:
    """The informative notes naming each name (speakers' own names left out)."""
    speakers = {lexical.split_speaker(n["text"])[0].rstrip(": ") for n in notes} - {""}
    mentions: dict[str, list[int]] = {}
    for i in useful:
        for name in distill.names(notes[i]["text"], known):
            if name not in speakers:
                mentions.setdefault(name, []).append(i)
    return mentions


def _suggestions(
    notes: list[dict[str, Any]],
    useful: list[int],
    mentions: dict[str, list[int]],
    recurring: list[tuple[str, list[int]]],
    pages: set[str],
    known: frozenset[str],
) -> list[dict[str, Any]]:
    """A new page is seeded when its name or topic recurs in a run (3+ notes); an existing
    page already holds what was said, so it gets no line."""
    out = []
    for name, idx in recurring[:MAX_PAGES]:
        if slugify(name) and slugify(name) not in pages:  # an existing page needs no filler
            out.append(_seed(name, "entity", notes, idx, known))
    for topic, idx in _topics(notes, useful, mentions, known)[:MAX_PAGES]:
        if slugify(topic) not in pages:
            out.append(_seed(topic, "concept", notes, idx, known))
    return out


def _recurring_ahas(
    ahas: list[dict[str, Any]],
    notes: list[dict[str, Any]],
    memory: list[dict[str, Any]],
    recurring: list[tuple[str, list[int]]],
) -> None:
    """Append "NAME keeps coming up" to ``ahas`` for names recurring across days or already in
    MEMORY.md, until there are MAX_AHA (at least one is added when any qualifies). A name in
    more than ``LINK_SHARE`` of the notes and entries (the user's own) is not news."""
    texts = len(notes) + len(memory)
    for name, idx in recurring:
        days = sorted({notes[i].get("date", "") for i in idx} - {""})
        in_memory = [e["id"] for e in memory if name in e["text"]]
        if len(days) < 2 and not in_memory:
            continue
        said = len(idx) + len(in_memory)
        if said > max(RECURRING, LINK_SHARE * texts):
            continue
        where = f" across {len(days)} days" if len(days) > 1 else ""
        count = len(in_memory)
        entries = "entry" if count == 1 else "entries"
        also = f"; MEMORY.md has {count} {entries} on it" if in_memory else ""
        ahas.append(
            {
                "text": f"{name} keeps coming up: {len(idx)} notes{where}{also}.",
                "sources": [notes[i]["id"] for i in idx] + in_memory[:3],
            }
        )
        if len(ahas) >= MAX_AHA:
            break


def _actions(
    p: dict[str, Any],
    notes: list[dict[str, Any]],
    memory: list[dict[str, Any]],
    useful: list[int],
    known: frozenset[str],
) -> list[dict[str, Any]]:
    """Next-session actions: decide contested entries, find out open questions, follow up on
    stated intentions; each text once, at most MAX_ACTIONS."""
    actions: list[dict[str, Any]] = []
    for entry in memory:  # a disputed entry waits for the evidence that decides it
        if entry.get("contested"):
            actions.append(
                {
                    "text": f"Decide: {excerpt(entry['text'], 160)} (a newer, weaker note "
                    "disputes it; confirm or correct it)",
                    "sources": [entry["id"]],
                }
            )
    for q in p.get("open_questions", []):
        actions.append({"text": f"Find out: {excerpt(q['text'], 200)}", "sources": q["sources"]})
    # a task the agent wrote down ("TODO: confirm DJ playlist by mid-December") before an
    # intention read in a note: the list has room for MAX_ACTIONS
    tasks = [(i, written_task(notes[i]["text"])) for i in range(len(notes))]
    for i, task in tasks:
        if task:
            actions.append({"text": f"To do: {task}", "sources": [notes[i]["id"]]})
    for i in useful:
        # an opinion's "wants to" is a preference MEMORY.md keeps ("Lena wants to keep the
        # learning rate at 2e-5"), no task for the next session
        if tasks[i][1] or notes[i].get("type") == "O":
            continue
        intent = _intention(notes[i]["text"], known)
        if intent:
            actions.append({"text": f"Follow up: {intent}", "sources": [notes[i]["id"]]})
    out: list[dict[str, Any]] = []
    seen_text: set[str] = set()
    for a in actions:
        if a["text"] not in seen_text and len(out) < MAX_ACTIONS:
            seen_text.add(a["text"])
            out.append(a)
    return out


def _links(
    notes: list[dict[str, Any]],
    memory: list[dict[str, Any]],
    useful: list[int],
    sim: Any,
    known: frozenset[str],
) -> list[dict[str, Any]]:
    """Connections across days: a note and a MEMORY.md entry from another day that share a name
    few of the texts REM reads hold (:func:`_linking`), and neither restate nor update each
    other (that is NREM's job). The connection says what links them (the shared names, then
    shared words few texts hold); two texts that share only a name most texts hold (the
    user's own) are not connected."""
    k = len(notes)
    terms = [_terms(t["text"], known) for t in [*notes, *memory]]
    df: Counter[str] = Counter(t for ts in terms for t in set(ts))
    cap = max(2.0, LINK_SHARE * len(terms))
    links: list[tuple[float, int, int, list[str]]] = []
    for i in useful:
        note = notes[i]
        for m, entry in enumerate(memory):
            s = float(sim[i, k + m])
            if not LINK_MIN <= s < LINK_MAX or note["id"] in entry.get("sources", []):
                continue
            if entry.get("date", "") == note.get("date", "") or not entry.get("date"):
                continue
            shared = _linking(terms[i], terms[k + m], df, cap)
            if not shared:
                continue
            if currency.relation(note["text"], entry["text"], known).kind != currency.OTHER:
                continue
            links.append((s, i, m, shared))
    out: list[dict[str, Any]] = []
    used: set[int] = set()
    for _s, i, m, shared in sorted(links, key=lambda t: (-t[0], t[1], t[2])):
        if m in used or len(used) >= MAX_LINKS:
            continue
        used.add(m)
        out.append(
            {
                "link": f"{excerpt(best_sentence(notes[i]['text'], known), 80)} ↔ "
                f"{excerpt(memory[m]['text'], 80)}",
                "why": f"both about {_and(shared)}: {memory[m].get('date')} and "
                f"{notes[i].get('date', '')}",
                "sources": [notes[i]["id"], memory[m]["id"]],
            }
        )
    return out


def _terms(text: str, known: frozenset[str]) -> dict[str, str]:
    """What a text is about, each as shown: its names ("Denver Health"; not a title before a
    name, "Prof." in "Prof. Hallam"), and its content words (not stop words or filler, four
    letters or more, "shifts" as "shift")."""
    names = distill.names(text, known)
    titles = {n.lower() for n in names if re.search(rf"\b{re.escape(n)}\. [A-Z]", text)}
    found = {name.lower(): name for name in names if name.lower() not in titles}
    in_names = {w for name in found for w in name.split()} | titles
    for w in lexical.tokens(lexical.split_speaker(text)[1]):
        if len(w) >= 4 and w.isalpha() and w not in distill.FILLER and w not in in_names:
            found.setdefault(_stem(w), w)
    return found


def _linking(a: dict[str, str], b: dict[str, str], df: Counter[str], cap: float) -> list[str]:
    """What links two texts: the names they share that few texts hold (in at most ``cap`` of
    them), then the words they share that few texts hold; [] without such a name. A name that
    most texts hold ("Maya" in a user's own notes) links nothing, nor do words alone (two
    statements of one kind, "rate limit", are alike, not connected)."""
    shared = [a[key] for key in a if key in b and df[key] <= cap]
    names = [t for t in shared if t[:1].isupper()]
    words = [t for t in shared if not t[:1].isupper()]
    return (names + words)[:3] if names else []


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


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
        best = best_sentence(notes[i]["text"], known, name)
        if best:
            score = distill.sentence_score(lexical.split_speaker(best)[1], known)
            said.append((score, notes[i].get("date", ""), excerpt(best, 160), i))
    said.sort(key=lambda t: (-t[0], t[3]))
    taken: dict[str, tuple[str, str]] = {}  # the same sentence said again is said once
    for _s, day, text, _i in said:
        taken.setdefault(" ".join(lexical.tokens(POSSESSIVE_RE.sub("", text))), (day, text))
    lines = [f"{text} ({day})" if day else text for day, text in list(taken.values())[:2]]
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
        if w in nouns and w not in NOT_TOPICS and not _ADJECTIVE_END_RE.search(w)
    }
    cap = max(RECURRING, TOPIC_SHARE * len(useful))
    found = [(w, idx) for w, idx in where.items() if RECURRING <= len(idx) <= cap]
    return sorted(found, key=lambda t: (-len(t[1]), t[0]))


# a task written down under its label: "TODO: …", "todo call …", "To do - …", "Action item: …",
# "Next step: …"
_TASK_LABEL_RE = re.compile(
    r"^\s*(?:(?:TODO|To[- ]?do)\s*(?:[:\-–—]\s*|\s+(?=[a-z]))"
    r"|(?:Action(?: items?)?|Next steps?|Tasks?)\s*[:\-–—]\s*)(.+)",
    re.I,
)


def written_task(text: str) -> str:
    """The task of a note written as one ("TODO: confirm DJ playlist …"), or ""."""
    m = _TASK_LABEL_RE.match(text)
    if m is None or QUESTION_RE.search(m.group(1)):
        return ""
    return excerpt(m.group(1).strip(), 200)


# what falls due again and again: "£640 a month, due on the 1st", "due every Friday",
# "renewal fee due each January"
_EACH_TIME_RE = re.compile(
    r"\b(?:a|per|each|every) (?:day|week|month|quarter|year|january|february|march|april|may|"
    r"june|july|august|september|october|november|december)\b",
    re.I,
)


def _routine_due(sentence: str) -> bool:
    """Whether what a sentence says is due falls due again and again: a standing fact ("Rent is
    £640 a month, due on the 1st"), no follow-up."""
    said = {m.group(0).lower() for m in _INTENT_RE.finditer(sentence)}
    return (
        bool(said)
        and said <= {"due", "deadline"}
        and bool(_EACH_TIME_RE.search(sentence) or temporal.ROUTINE_RE.search(sentence))
    )


_SHOULD_RE = re.compile(r"\bshould\b", re.I)  # "Claire should confirm the tiles by Friday"
# someone else away for a time: "Priya will be on holiday October 19-23" is a fact about those
# days, nothing to follow up (not "I will be away", nor "we'll be off")
_AWAY_RE = re.compile(
    r"^(?!\s*(?:I|we)\b)[^.;:!?]*?\bwill\s+be\s+(?:away|off|on\s+(?:annual\s+)?(?:holiday|"
    r"leave|vacation|sabbatical|paternity\s+leave|maternity\s+leave)|out\s+of\s+(?:the\s+)?"
    r"office|unavailable|abroad)\b",
    re.I,
)


def _intention(text: str, known: frozenset[str]) -> str:
    """The informative sentence of a note stating an intention or a plan (one's own, or
    anything to come on a day it names), or ""."""
    label, _ = lexical.split_speaker(text)
    for s in distill.analyse(text, known):
        if (
            not s.caption
            and s.score >= distill.INFORMATIVE
            and (
                _INTENT_RE.search(s.text)
                or (
                    s.temporal
                    and (_WILL_RE.search(s.text) or _SHOULD_RE.search(s.text))
                    and not _AWAY_RE.search(s.text)
                )
            )
            and not QUESTION_RE.search(s.text)
            and not _routine_due(s.text)
        ):
            return excerpt(label + distill.strip_filler(s.text), 200)
    return ""
