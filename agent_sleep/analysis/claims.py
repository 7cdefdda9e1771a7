"""Claims: what a sentence says of whom, for the currency detector (analysis/currency.py).

A statement is cut into claims (one per clause: "lives in Berlin and works at Siemens" is two).
A claim has an owner (names, "user" for I / we / the user, the subject's head noun, or the
object a change verb acts on), qualifiers (the rest of the subject: "staging"), a head (the
predicate's first verb or adjective, mapped to an attribute class), values (numbers, versions,
times, dates, names, identifiers; other predicate words as weak values), change language, the
values it marks as old, additive language, and whether it is an episode, an activity or an
intention. Pure functions of text; the word lists are in analysis/change_words.py.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from agent_sleep.analysis import change_words as cw
from agent_sleep.analysis import lexical


@dataclass(frozen=True)
class Claim:
    text: str
    owner: frozenset[str]
    qualifiers: frozenset[str]
    head: str  # attribute class or lemma of the predicate's first verb / adjective, "" if none
    attrs: frozenset[str]  # attribute words: classes anywhere, "X of Y" / possessive nouns
    values: tuple[str, ...]  # strong values, in order (numbers, names, times, identifiers)
    words: frozenset[str]  # other content words of the predicate (weak values)
    old: frozenset[str] = field(default_factory=frozenset)  # values marked as old
    negated: bool = False
    change: bool = False
    additive: bool = False
    past: bool = False  # an episode ("went", "visited"), not a state ("lives", "is")
    seq: tuple[str, ...] = ()  # the predicate's content words in order ("tabs over spaces")
    new_of: frozenset[str] = frozenset()  # nouns after "new" ("has a new phone number")
    modal: bool = False  # an intention or a possibility: never replaces, never replaced
    activity: bool = False  # a progressive head ("am now mentoring"): ongoing, not a state
    speaker: str = ""
    # whose owner it is, in a chain of possessors ("tom" in "Tom's manager's phone"): they are
    # qualifiers too, but the claim speaks of another owner than theirs
    whose: frozenset[str] = frozenset()

    @property
    def frame(self) -> frozenset[str]:
        head = {self.head} if self.head and self.head not in cw.GENERIC_HEADS else set()
        return frozenset(self.owner | self.qualifiers | self.attrs | head)


@functools.lru_cache(maxsize=1 << 16)
def lemma(word: str) -> str:
    w = re.sub(r"['’]s$", "", word.lower())
    if w in cw.SHORT:
        return cw.SHORT[w]
    for end, rep in (("ies", "y"), ("ings", ""), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if len(w) > len(end) + 2 and w.endswith(end) and not w.endswith("ss"):
            return w[: -len(end)] + rep
    return w


_JOINED_RE = re.compile(r"[A-Za-z][-_.@][A-Za-z0-9]")
_IDENT_CHAR_RE = re.compile(r"[\dA-Z@]")
_VERB_FORM_RE = re.compile(r"[a-z]{3,}(?:s|ed)")
_PLURAL_OR_PAST_RE = re.compile(r"[a-z]+(?:s|ed)")
_POSSESSIVE_END = ("'s", "’s")
_THOUSANDS_RE = re.compile(r"(?<=\d),(?=\d{3}\b)")
_TAKE_OVER_RE = re.compile(r"\b(took|taken|taking|handed|hands|hand) over\b")


@functools.lru_cache(maxsize=1 << 16)
def _strong(tok: str, at_start: bool, names: frozenset[str]) -> bool:
    """A strong value: a number, a weekday, an identifier, or a capitalised word (at a
    clause's start, only a known name). Cached: asked of every word of every clause."""
    low = tok.lower()
    if any(ch.isdigit() for ch in tok) or low in cw.WEEKDAYS:
        return True
    if _JOINED_RE.search(tok) and _IDENT_CHAR_RE.search(tok):
        return True
    return tok[:1].isupper() and (not at_start or tok in names) and low not in cw.STOP


# a requirement with its day is a standing fact, a deadline: "entries must reach Mrs. Marsh by
# Friday 19 February", "marks must go to Sue by 4 December" (not "we must meet soon")
_DEADLINE_RE = re.compile(
    r"\bmust\b[^;]*\bby\s+(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+)?(?:the\s+)?"
    r"(?:\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d)",
    re.I,
)


def tokens(text: str) -> list[str]:
    return [t.rstrip(".:/'’-") for t in cw.TOKEN_RE.findall(text)]


def claims(text: str, names: frozenset[str] = frozenset()) -> list[Claim]:
    """The claims of a note or entry (see :func:`_claims`); cached: sleep compares each new
    note with many entries. Claims read when the note was indexed (:func:`remember`) are
    taken as they are."""
    if not names:
        known = _known.get(text)
        if known is not None:
            return list(known)
    return list(_claims(text, names))


@functools.lru_cache(maxsize=1 << 14)
def _claims(text: str, names: frozenset[str]) -> tuple[Claim, ...]:
    """The claims of a note or entry: one per clause; a clause without a subject of its own
    ("... and works at Siemens") takes the previous clause's subject."""
    if "(" in text:  # an aside in a label is none of the claim: "Orchard Barn conversion
        # (listed barn near Bisley): main client contact is …" lists nothing
        text = _LABEL_ASIDE_RE.sub(r"\1", text)
    label, body = lexical.split_speaker(_unlabelled(text))  # "Standup: 10:15": no speaker
    speaker = label.rstrip(": ").lower()
    remark = lexical.DISCOURSE_RE.match(body)  # "Correction: …" says what follows is a change
    corrects = bool(remark and remark.group(1))
    # "Decision: the public API will be GraphQL" is decided, not an intention
    decided = remark is not None and remark.group(0).lower().startswith(("decision", "decided"))
    if remark:
        body = body[remark.end() :]
    heard = lexical.REPORTED_RE.match(body)  # "Helen wrote: the rent goes up …"
    if heard:
        body = body[heard.end() :]
    # each substitution only where its pattern's literal text can occur (the same result)
    if "(" in body:
        body = cw.RESOLVED_RE.sub("", body)
    out: list[Claim] = []
    if "'" in body or "’" in body:
        body = cw.CONTRACTION_RE.sub(
            lambda m: f"{m.group(1)} {cw.EXPANDED[m.group(2).lower()]}", body
        )
    if cw.may_hold(body, "place"):
        body = cw.TAKE_PLACE_RE.sub(cw.happens, body)  # "takes place": one verb, not a "place"
    if "," in body:
        body = _THOUSANDS_RE.sub("", body)  # "$1,200" is one number
    if ">" in body or "→" in body:
        body = cw.ARROW_RE.sub(" moved to ", body)
    for sentence in (p for s in lexical.sentences(body) for p in _after_colon(s)):
        if sentence.rstrip().endswith("?"):
            continue  # a question states nothing
        sentence = _unlabelled(cw.REASON_LEAD_RE.sub("", cw.TIME_LEAD_RE.sub("", sentence)))
        lead = cw.LEADING_RE.match(sentence)
        sentence = sentence[lead.end() :] if lead else sentence
        previous: tuple[list[str], list[str]] | None = None
        for clause in _clauses(sentence):
            if not clause.strip():
                continue
            claim, previous = _claim(
                clause, speaker, names, previous, bool(lead) or corrects, decided
            )
            if claim is not None:
                out.append(claim)
    return tuple(_of_the_first(out))


# an aside in parentheses that ends a label: " (listed barn near Bisley)" before ": …"
_LABEL_ASIDE_RE = re.compile(r"^(?=[^:()]{1,60}\([^()]{1,80}\):\s)([^:()]*?)\s*\([^()]*\)(?=:)")


# "doesn't just want …, she wants … as well": the first half is no denial of its own
_NOT_JUST_RE = re.compile(r"(?:n['’]t|\bnot)\s+(?:just|only|merely|simply)\b", re.I)


def _clauses(sentence: str) -> list[str]:
    """The sentence's clauses (``change_words.CLAUSE_RE``), a name alone before a comma kept
    with what follows ("Dana, she asked for the extra hours": she is Dana), and so is a "not
    just …" ("Maya doesn't just want commit messages in it, she wants PR titles in it as
    well")."""
    parts = cw.CLAUSE_RE.split(sentence)
    out: list[str] = []
    for part in parts:
        if out and (re.fullmatch(r"\s*[A-Z][\w'’-]*\s*", out[-1]) or _NOT_JUST_RE.search(out[-1])):
            out[-1] = f"{out[-1].strip()}, {part}"
        else:
            out.append(part)
    return out


_COLON_RE = re.compile(r"(?<=\w):\s+(?=[A-Z])")
_FINITE_RE = re.compile(r"\b(?:is|are|was|were|has|have|had|will|can|does|did|\w{3,}ed)\b", re.I)


def _after_colon(sentence: str) -> list[str]:
    """A sentence with what follows a colon after a clause (a verb, four words or more) read as a
    sentence of its own ("Dark mode is back in 4.2: Ji-woo found the theming work is mostly
    done"); a label's colon ("Standup: 10:15", "Design tool: Figma") is left."""
    m = _COLON_RE.search(sentence)
    if m is None or len(sentence[: m.start()].split()) < 4:
        return [sentence]
    if not _FINITE_RE.search(sentence[: m.start()]):
        return [sentence]  # "Favourite restaurant these days: Kin Khao": a label, no clause
    return [sentence[: m.start()], sentence[m.end() :]]


# a role of someone for something, said with no owner of its own after the note has named it:
# "Our plumber is Stone Plumbing; contact is Ray Stone", "Flour is from Millstone Mills.
# Contact there is Dave Okafor"
_ROLES = frozenset(
    ["contact", "rep", "representative", "liaison", "email", "phone", "number", "address"]
    + ["website", "manager", "owner", "lead", "account", "planner", "coordinator", "organiser"]
    + ["organizer", "host"]
)


# what kind of role it is: "escalation contact", "billing email", "main contact"
_ROLE_KINDS = frozenset(
    ["escalation", "billing", "main", "primary", "support", "sales", "emergency"]
)


# a later clause that points back at the first one's place: "the planner there is Ann"
# (not an opening "There is …", which points nowhere)
_THERE_RE = re.compile(r"(?<=\w )there\b", re.I)


# a later clause whose subject is the first one's own: "her last day", "their new address"
_BACK_RE = re.compile(r"\s*(?:his|her|their)\s", re.I)


def _of_the_first(told: list[Claim]) -> list[Claim]:
    """``told`` with each later claim whose owner is a bare role ("contact is Ray Stone") said
    of what the first claim is about: its owner becomes the role's qualifier, so the contact of
    the plumber and the contact of the window cleaner are two things."""
    if len(told) < 2:
        return told
    first = told[0]
    out = [first]
    for claim in told[1:]:
        if (
            claim.owner
            and (claim.owner <= _ROLES or (len(claim.owner) == 1 and _THERE_RE.search(claim.text)))
            and claim.qualifiers <= _ROLES | _ROLE_KINDS
            and not claim.whose
            and not claim.owner & first.owner
        ):
            claim = replace(claim, qualifiers=claim.qualifiers | first.owner | first.qualifiers)
        elif _BACK_RE.match(claim.text) and first.owner and not claim.owner & first.owner:
            # "Jenny Cole is leaving; her last day is 25 September": Jenny's last day
            claim = replace(claim, qualifiers=claim.qualifiers | first.owner)
        out.append(claim)
    return out


def _unlabelled(text: str) -> str:
    """ "Label: value" as "label is value" when the label has no verb and what follows is a
    bare value (it opens with a number, or is a few words with no verb): the label is then
    the subject, not a speaker ("Standup: 10:15 (was 9:30)", "Payments client timeout: 45
    seconds"); any other text as it is."""
    tag = cw.LABEL_RE.match(text)
    if tag is None or _verb_at(tokens(tag.group(1))) >= 0:
        return text
    value = text[tag.end() :]
    toks = tokens(value)
    bare = bool(toks) and (
        any(ch.isdigit() for ch in toks[0]) or (len(toks) <= 5 and _verb_at(toks) < 0)
    )
    return f"{tag.group(1)} is {value}" if bare else text


def _verbish(tok: str) -> bool:
    low = tok.lower()
    return (
        low in cw.CLASS_OF
        or low in cw.GENERIC
        or low in cw.PAST
        or low in cw.VERB_BASE
        or low in cw.COPULA
        or low in cw.ADVERBS
        or bool(_VERB_FORM_RE.fullmatch(low) and not low.endswith("ss"))
    )


def _verb_at(toks: list[str]) -> int:
    """Index of the predicate's first word: a copula, a change adverb, or a verb-like word."""
    if toks[0].lower() in ("i", "we", "they", "you") and len(toks) > 1:
        return 1
    for i, tok in enumerate(toks):
        low = tok.lower()
        if i == 0 and low not in ("now", "no"):
            continue
        if low in cw.COPULA or low in ("now", "no", "never", "not", "also", "still", "recently"):
            return i
        if low in ("will", "can", "should", "would", "must", "does", "do", "did", "used"):
            return i
        if toks[i - 1].endswith(_POSSESSIVE_END) and not cw.COPULA & {low}:
            continue  # "Gunnar's work email": a noun after a possessive
        if low.endswith(("n't", "n’t")) or low in cw.PAST or low in cw.VERB_BASE:
            return i
        if tok[:1].isupper() or any(ch.isdigit() for ch in tok) or low in cw.STOP:
            continue
        prev = toks[i - 1].lower()
        if prev in ("the", "a", "an", "its", "his", "her", "their", "our", "my", "your", "of"):
            continue
        if prev.endswith(_POSSESSIVE_END):  # "Gunnar's work email": a noun after a possessive
            continue
        # the next word lowercased, unless written capitalised: a name ("pins Go 1.19")
        j = i + 1
        while j < len(toks) - 1 and toks[j].lower() in cw.ADVERBS:
            j += 1  # "passwords now live": the verb after the adverb
        nxt = toks[j].lower() if j < len(toks) and not toks[j][:1].isupper() else ""
        if low.endswith("s") and (
            nxt in cw.COPULA
            or nxt in cw.VERB_BASE
            or nxt in cw.BASE_VERBS
            or nxt in cw.PAST
            or (nxt.endswith("s") and nxt in cw.CLASS_OF)  # "the office hours happens"
            # "Committee meetings moved to the music room": a change told in the past
            or (nxt.endswith("ed") and (nxt in cw.GENERIC or cw.change_word(nxt)))
        ):
            continue  # "my dance moves get …": a plural noun before its verb
        if low in cw.GENERIC or cw.change_word(low):
            return i
        if _VERB_FORM_RE.fullmatch(low) and not low.endswith("ss"):
            return i
    return -1


def _split(
    toks: list[str], previous: tuple[list[str], list[str]] | None
) -> tuple[list[str], list[str]] | None:
    """(subject, predicate) of a clause; a clause opening with its verb ("… and works at X")
    takes the previous clause's subject; None without either."""
    if previous is None and (acted := _acted_on(toks)) is not None:
        return acted
    v = _verb_at(toks)
    first = next((t for t in toks if t.lower() not in cw.ADVERBS), "")
    if previous is not None and first and _verbish(first) and first.lower() not in cw.PRONOUNS:
        v = 0
    if v <= 0 and previous is not None:
        return previous[0], toks
    if v <= 0:
        return None
    return _identifying(toks[:v], toks[v:])


def _acted_on(toks: list[str]) -> tuple[list[str], list[str]] | None:
    """A log line that opens with its change verb ("Bumped pytest to 8.2", "Renamed the default
    branch to trunk"): what the verb acts on is the subject, the verb and the rest the
    predicate; None for any other clause without a subject."""
    low = toks[0].lower()
    if not (low in cw.GENERIC or cw.change_word(low)) or not low.endswith("ed"):
        return None
    k = 2 if len(toks) > 1 and toks[1].lower() in cw.DETERMINERS | {"a", "an"} else 1
    end = k
    while end < len(toks) and toks[end].lower() not in cw.BOUNDARY:
        if toks[end].lower() in cw.COPULA:
            return None  # "Updated docs are in the wiki": a participle, not a log line
        if any(ch.isdigit() for ch in toks[end]) and end > k:
            break
        end += 1
    if end == k or end >= len(toks):
        return None  # nothing acted on, or nothing said of it
    return toks[1:end], [low, *toks[end:]]


def _predicate(
    pred: list[str], names: frozenset[str], skip: set[str], attrs: set[str], bare: bool = False
) -> tuple[str, list[str], list[str]]:
    """(head, strong values, weak values) of a predicate; attribute classes go into ``attrs``;
    ``skip`` holds the object a change verb acts on (with ``bare``, right after the verb)."""
    head, values, words = "", [], []
    content = False  # a content word of the predicate was seen
    acted = False  # a change verb was seen: what it acts on follows
    for k, tok in enumerate(pred):
        low, lem = tok.lower(), lemma(tok)
        if lem in skip and (head or acted):
            continue
        if (
            k
            and _label(pred[k - 1], tok)
            # a day of a month is no label: "due 25 September"
            and not (k + 1 < len(pred) and pred[k + 1].lower()[:3] in _MONTH_STARTS)
        ):  # "fact 2", "room 4": a name for a thing, not a value
            words.append(f"{lemma(pred[k - 1])}-{low}")
            continue
        if _strong(tok, False, names) and low not in cw.CLASS_OF:
            values.append(_norm_value(tok))
            continue
        if low in cw.COPULA:
            head = head or "be"
            continue
        cls = cw.CLASS_OF.get(low) or cw.CLASS_OF.get(lem)
        if low in cw.GENERIC and not content:
            head, content = (lem if head in ("", "be") else head), True
            continue
        if (low in cw.STOP or low in cw.RELATIVE or cw.change_word(low)) and not cls:
            acted = acted or bare and cw.change_word(low)
            continue
        if low in _NOT_VALUES or low.endswith(("n't", "n’t")):
            continue
        if k and pred[k - 1].lower() == "every" and low in _ORDINALS:
            continue  # "every second Friday": how often, not a value
        if cls:
            attrs.add(cls)
        # "is a nurse" and "is 30 seconds": a value and its unit, not what is said of it
        after = k > 0 and (pred[k - 1].lower() in ("a", "an") or _strong(pred[k - 1], False, names))
        if not content and head in ("", "be") and not (head == "be" and after and not cls):
            head, content = cls or lem, True
            continue
        content = True
        if not cls:
            words.append(lem)
    if (
        head in ("", "be")
        and any(_WHEN_VALUE_RE.fullmatch(v) for v in values)
        and all(_WHEN_VALUE_RE.fullmatch(v) or re.fullmatch(r"\d{1,2}", v) for v in values)
    ):
        # "is every Wednesday at 3pm", "is at 9:30": when it happens, as "happens" says
        attrs.add("schedule")
        return "schedule", values, words
    return head or ("be" if values else ""), values, words


# a weekday or a time of day, a value of when a thing recurs ("wednesday", "9:30", "3pm")
_WHEN_VALUE_RE = re.compile(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|\d{1,2}(?::\d{2})?\s?(?:am|pm)|\d{1,2}:\d{2}"
)


_MONTH_STARTS = frozenset(
    "jan feb mar apr may jun jul aug sep oct nov dec".split()  # noqa: SIM905
)


def _label(prev: str, tok: str) -> bool:
    """A number right after a lower-case noun labels it ("fact 2", "sprint 14"); after a verb,
    a preposition or a name ("has 8", "at 9:30", "Python 3.12") it is a value."""
    low = prev.lower()
    return (
        tok.isdigit()
        and prev.isalpha()
        and prev.islower()
        and low not in cw.STOP
        and low not in cw.COPULA
        and low not in cw.CLASS_OF
        and low not in cw.GENERIC
        and not cw.change_word(low)
        and not _PLURAL_OR_PAST_RE.fullmatch(low)
    )


_NOT_VALUES = frozenset(["no", "not", "never", "longer", "anymore", "more", "every"])
_ORDINALS = frozenset(["other", "second", "third", "fourth"])


# where a span of hours or days starts ("from 9:00 to 14:30", "from Monday to Friday")
_SPAN_START_RE = re.compile(
    r"(?:\d{1,2}[:.]\d{2}|\d{1,2}\s?(?:am|pm)|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b",
    re.I,
)


_AFTER_TO_RE = re.compile(r"\s*([A-Za-z]+)")


def to_an_act(clause: str, m: re.Match[str]) -> bool:
    """Whether "from A to B" goes on with what was done, not a value: "exported the trial
    balance from Xero to import into QuickBooks" (a name, then a word in lower case that is
    no article)."""
    after = _AFTER_TO_RE.match(clause, m.end())
    return bool(
        after
        and m.group(2)[:1].isupper()
        and after.group(1).islower()
        and after.group(1) not in ("the", "a", "an", "our", "my", "their", "his", "her")
    )


def _old_values(clause: str) -> set[str]:
    """The values a clause marks as old ("instead of A", "from A to B", "took over … from A");
    not a span with no change word ("works from 9:00 to 14:30", "open from 9 to 5")."""
    changed = cw.found(cw.CHANGE_RE, clause)
    old = {
        _norm_value(t)
        for m in cw.OLD_VALUE_RE.finditer(clause)
        if changed
        or not (m.group(2) and (_SPAN_START_RE.match(m.group(2)) or to_an_act(clause, m)))
        for t in tokens(m.group(1) or m.group(2) or m.group(3) or m.group(4) or "")
    }
    if changed:
        old |= {
            _norm_value(t)
            for m in cw.FROM_RE.finditer(clause)
            if not _SOURCE_BEFORE_RE.search(clause, 0, m.start())
            for t in tokens(m.group(1))
        }
    return old


# a verb "from" names the source of, not an old value: "Drugs now come from MWI", "we now buy
# eggs from Lane Farm"
_SOURCE_BEFORE_RE = re.compile(
    r"\b(?:come|comes|came|coming|buy|buys|bought|order|orders|ordered|get|gets|got|source|"
    r"sources|sourced|supplied|delivered|hire|hires|hired|rent|rents|rented)"
    r"(?:\s+(?:[\w'’-]+\s+){0,3}?)?\s*$",
    re.I,
)


def _claim(
    clause: str,
    speaker: str,
    names: frozenset[str],
    previous: tuple[list[str], list[str]] | None,
    lead: bool = False,
    decided: bool = False,
) -> tuple[Claim | None, tuple[list[str], list[str]] | None]:
    if " over" in clause:
        clause = _TAKE_OVER_RE.sub(r"\1-over", clause)
    if cw.may_hold(clause, "report"):
        clause = cw.REPORTS_TO_RE.sub(r"\1-to", clause)
    clause = _without_aside(clause, names)
    tail = cw.NOT_TAIL_RE.search(clause)  # "…, not 5432.": the value it corrects, no negation
    if tail:  # (currency._old_named reads that value against the older note's own)
        clause = clause[: tail.start()]
    toks = tokens(clause)
    while len(toks) > 1 and toks[0].lower() in cw.ADVERBS and toks[1].lower() in cw.PRONOUNS:
        toks = toks[1:]  # "now I am ready": the adverb is change language, "I" the subject
    parts = _split(toks, previous) if toks else None
    if parts is None:
        return None, previous
    subj, pred = parts
    # "my new manager", "the current owner": the modifier marks a change, it names nothing
    fresh_mod = (
        any(
            t.lower() in cw.NEWNESS and not (k and subj[k - 1][:1].isdigit())  # "42 new players":
            # a count of new ones, no new value
            for k, t in enumerate(subj[:3])
        )
        and not any(t.lower() in ("i", "we", "you", "they", "he", "she") for t in subj)
    )
    subj = [t for t in subj if t.lower() not in cw.NEWNESS]
    owner, qualifiers, attrs, whose = _subject(subj, speaker, names)
    if not owner:
        return None, previous
    obj_owner, obj_qual, obj_attrs, obj_whose = _object(pred, speaker, names)
    attrs |= obj_attrs
    whose |= obj_whose
    skip = obj_owner | obj_qual | obj_attrs
    # without a determiner, what the verb acts on follows it at once ("raised Tom's budget")
    bare = bool(skip) and _after_verb(pred) not in cw.DETERMINERS
    # "we moved standup to 10:00", "I switched the tickets": of the standup, the tickets, not
    # of us ("I replaced my Kindle" is still of mine)
    the = _after_verb(pred) in ("the", "a", "an")
    if (bare or (obj_owner and the)) and owner <= {speaker or "user"}:
        owner = set()
    head, values, words = _predicate(pred, names, skip, attrs, bare)
    old = _old_values(clause)
    modal = cw.intended(clause) and not (
        decided or cw.found(cw.DECIDED_RE, clause) or _DEADLINE_RE.search(clause)
    )
    claim = Claim(
        text=clause,
        owner=frozenset(owner | obj_owner),
        qualifiers=frozenset(qualifiers | obj_qual),
        head=head,
        attrs=frozenset(attrs),
        values=tuple(values),
        words=frozenset(words),
        old=frozenset(old) & frozenset(values)
        | frozenset(lemma(t) for t in old) & (set(words) | owner),  # "Replaced Jenkins with …"
        negated=cw.found(cw.NEGATION_RE, clause),
        change=(lead or fresh_mod or cw.found(cw.WAS_RE, clause) or cw.found(cw.CHANGE_RE, clause))
        and not modal,
        modal=modal,
        activity=_progressive(pred),
        speaker=speaker,
        whose=frozenset(whose),
        new_of=frozenset(
            lemma(w)
            for m in cw.NEW_OF_RE.finditer(clause)
            if not re.search(r"\d\s+$", clause[: m.start()])  # "42 new players": a count
            for w in m.groups()
            if w and w.lower() not in cw.STOP and w.lower() not in cw.COPULA
        ),
        past=_past(pred),
        seq=tuple(
            lemma(t) for t in pred if t.lower() not in cw.STOP and not cw.change_word(t.lower())
        ),
        additive=cw.found(cw.ADDITIVE_RE, clause),
    )
    return claim, (subj, pred)


def _without_aside(clause: str, names: frozenset[str]) -> str:
    """The clause without a trailing reason or occasion ("Tom reports to Hiro after the
    reorg"), when what stays still names a value after its first word."""
    m = cw.ASIDE_RE.search(clause)
    if m is None:
        return clause
    kept = tokens(clause[: m.start()])
    return clause[: m.start()] if any(_strong(t, False, names) for t in kept[1:]) else clause


def _progressive(pred: list[str]) -> bool:
    for tok in pred:
        low = tok.lower()
        if low in cw.ADVERBS or low in ("am", "is", "are", "was", "were", "been", "be"):
            continue
        return low.endswith("ing") and len(low) > 5 and low not in ("using", "living")
    return False


# a booking for a day is where a thing stands, not what happened: "review booked for 14 May"
_BOOKED = frozenset(["booked", "scheduled", "arranged", "planned", "fixed", "set", "confirmed"])


def _past(pred: list[str]) -> bool:
    for k, tok in enumerate(pred):
        low = tok.lower()
        if low in cw.ADVERBS:
            continue
        if low in _BOOKED and any(t.lower() in ("for", "on") for t in pred[k + 1 : k + 5]):
            return False  # "booked a follow-up for Wednesday, October 14"
        return low in cw.PAST or (low.endswith("ed") and len(low) > 4)
    return False


# the head noun of a role said without "the": "is release manager for 4.2", "is tech lead on …"
_ROLE_HEADS = frozenset(["manager", "lead", "owner", "designer", "engineer", "director", "head"])


def _identifying(subj: list[str], pred: list[str]) -> tuple[list[str], list[str]]:
    """ "Omar is the tech lead of payments" reads as "the tech lead of payments is Omar"."""
    low = [t.lower() for t in pred]
    k = 1 if low and low[0] in ("is", "are", "was", "were") else 0
    while k < len(low) and low[k] in cw.ADVERBS:
        k += 1
    # the role's own "of", "for", "on", "at" (not "as of today")
    preps = [j for j in range(k + 1, min(len(low), k + 5)) if low[j] in ("of", "for", "on", "at")]
    if not k or k >= len(low) or not preps or low[preps[0] - 1] == "as":
        return subj, pred
    # "is the tech lead of payments", "is the designer on Atlas", "is release manager for 4.2"
    role = low[k] == "the" or (k + 1 < len(low) and low[k + 1] in _ROLE_HEADS)
    if not role:
        return subj, pred
    held = list(pred[k:])
    at = preps[0] - k
    if held[at].lower() in ("on", "at"):
        held[at] = "of"  # "the designer on Atlas" is Atlas's designer: a role, as "of" says
    return held, [pred[0], *subj]


def _object(
    pred: list[str], speaker: str, names: frozenset[str]
) -> tuple[set[str], set[str], set[str], set[str]]:
    """(owner, qualifiers, attribute words, possessors) of the noun phrase a change verb acts
    on. After a determiner ("changed the cache TTL to 600"), its head noun joins the owner,
    its other words the qualifiers. A possessive phrase ("increased Mr. Halvorsen's dosage to
    1000 mg") is read as a subject is: what the verb changed is the possessor's attribute, not
    the doer's. A short phrase right before "to" or "from" ("upgraded local dev to Postgres
    16") names what changed: its last word the owner."""
    low = [t.lower() for t in pred]
    none: tuple[set[str], set[str], set[str], set[str]] = (set(), set(), set(), set())
    k = _verb_index(low)
    if k >= len(low) or not (low[k] in cw.GENERIC or cw.change_word(low[k])):
        return none
    k += 1
    if k >= len(low):
        return none
    if low[k] not in cw.DETERMINERS:
        return _bare_object(pred[k:], speaker, names)
    phrase: list[str] = []
    rest = pred[k + 1 :]
    for tok in rest:
        if tok.lower() in cw.BOUNDARY or any(ch.isdigit() for ch in tok):
            break
        phrase.append(tok)
    if not phrase:
        return none
    words = [lemma(t) for t in phrase if t.lower() not in cw.STOP]
    after = rest[len(phrase) :]
    if after and after[0].lower() in ("of", "for"):  # "the timeout for Mistral": Mistral's
        tail = []
        for tok in after[1:]:
            if tok.lower() in cw.BOUNDARY or any(ch.isdigit() for ch in tok):
                break
            tail.append(lemma(tok))
        owner = {t for t in tail if t not in cw.STOP}
        if owner:
            return owner, set(words), set(), set()
    return set(words[-1:]), set(words[:-1]), set(), set()


_OBJECT_WORDS = 6  # a longer run before "to" is more than a noun phrase


def _verb_index(low: list[str]) -> int:
    """Where a (lowered) predicate's verb is: its first word past adverbs and copulas."""
    k = 0
    while k < len(low) and low[k] in cw.ADVERBS | cw.COPULA:
        k += 1
    return k


def _after_verb(pred: list[str]) -> str:
    """The word after a predicate's verb (see :func:`_verb_index`), lowered."""
    low = [t.lower() for t in pred]
    k = _verb_index(low)
    return low[k + 1] if k + 1 < len(low) else ""


def _bare_object(
    rest: list[str], speaker: str, names: frozenset[str]
) -> tuple[set[str], set[str], set[str], set[str]]:
    """What a change verb acts on when no determiner opens it (see :func:`_object`)."""
    none: tuple[set[str], set[str], set[str], set[str]] = (set(), set(), set(), set())
    phrase: list[str] = []
    for tok in rest:
        if tok.lower() in cw.BOUNDARY or any(ch.isdigit() for ch in tok):
            break
        phrase.append(tok)
    after = rest[len(phrase) : len(phrase) + 1]
    if not phrase or len(phrase) > _OBJECT_WORDS or not after or after[0].lower() not in (
        "to", "from"
    ):  # fmt: skip
        return none
    if any(t.lower() in cw.PRONOUNS or t.lower() in cw.COPULA for t in phrase):
        return none  # "moved it to Friday": nothing named
    if _amount_of_time(phrase):
        return none  # "the deadline slipped two weeks, to December 18": by how much
    if any(t.endswith(_POSSESSIVE_END) for t in phrase[:-1]):
        return _subject(phrase, speaker, names)
    if len(phrase) > 3:
        return none
    words = [lemma(t) for t in phrase if t.lower() not in cw.STOP]
    return set(words[-1:]), set(words[:-1]), set(), set()


_AMOUNT_WORDS = frozenset(
    """a an one two three four five six seven eight nine ten eleven twelve few couple several
    some another extra more half of""".split()  # noqa: SIM905
)


def _amount_of_time(phrase: list[str]) -> bool:
    """Whether ``phrase`` is an amount of time ("two weeks", "a couple of days"): a unit of
    time after words of number only."""
    *count, unit = [t.lower() for t in phrase]
    return bool(count) and lemma(unit) in cw.UNITS and all(w in _AMOUNT_WORDS for w in count)


def _norm_value(tok: str) -> str:
    return tok.lower().strip("$€£").rstrip("%")


_MINE = frozenset(["my", "our", "his", "her", "their", "your"])  # possessive determiners


_WHEN = frozenset(["week", "weekend", "month", "year", "quarter", "sprint", "morning", "night"])


def _untimed(subj: list[str]) -> list[str]:
    """A subject without the time it is said of ("the on-call this week": the on-call)."""
    low = [t.lower() for t in subj]
    for k in range(1, len(low) - 1):
        if low[k] in ("this", "next", "last") and low[k + 1] in _WHEN:
            return subj[:k] + subj[k + 2 :]
        # "the premium for the new year", "the rent for the coming month": a time, no owner
        rest = [w for w in low[k + 1 :] if w not in _TIME_MODIFIERS]
        if low[k] in ("for", "in") and len(rest) == 1 and rest[0] in _WHEN:
            return subj[:k]
    return subj


_TIME_MODIFIERS = frozenset("the a an this next new coming current upcoming".split())  # noqa: SIM905


def _subject(
    subj: list[str], speaker: str, names: frozenset[str]
) -> tuple[set[str], set[str], set[str], set[str]]:
    """(owner, qualifiers, attribute words, possessors) of a subject phrase. "the deploy target for
    project Atlas": owner {project, atlas}, attributes {deploy, target}; "Tom's phone": owner
    {tom}, attributes {phone}."""
    subj = _untimed(subj)
    low = [t.lower() for t in subj]
    attrs: set[str] = set()
    for k, w in enumerate(low):
        if w in ("of", "for") and 0 < k < len(low) - 1:
            attrs = {lemma(x) for x in low[:k] if x not in cw.STOP}
            subj, low = subj[k + 1 :], low[k + 1 :]
            break
    # the last possessive holds the attribute: "Tom's manager's phone" is the manager's phone
    last = max((k for k, t in enumerate(subj[:-1]) if t.endswith(_POSSESSIVE_END)), default=-1)
    if last >= 0:
        attrs |= {lemma(x) for x in low[last + 1 :] if x not in cw.STOP}
        subj, low = subj[: last + 1], low[: last + 1]
    owner: set[str] = set()
    qualifiers: set[str] = set()
    # a chain of possessors ("Tom's manager's", "my sister's", "the user's wife's"): the last
    # one owns the attribute, the ones before it only say whose it is (qualifiers)
    held = [k for k, w in enumerate(low[:-1]) if w.endswith(_POSSESSIVE_END) or w in _MINE]
    if last >= 0 and held:
        before = low[: held[-1] + 1]
        whose = {speaker or "user" for w in before if w in cw.SUBJECT_WORDS}
        whose |= {lemma(w) for w in before if w not in cw.STOP and w not in _MINE}
        rest = [lemma(w) for w in low[held[-1] + 1 :] if w not in cw.STOP]
        owner |= set(rest[-1:])
        qualifiers |= set(rest[:-1]) | whose
        attrs |= {cw.CLASS_OF[a] for a in attrs if a in cw.CLASS_OF}
        return owner, qualifiers, attrs, whose
    content = [
        (t, lemma(t)) for t in subj if t.lower() not in cw.STOP or t.lower() in cw.SUBJECT_WORDS
    ]
    # "Daily standup": a word capitalised only as the clause's first, before a lower-case noun,
    # modifies it; a name stays an owner ("Tom", "Acme Corp", a name the workspace knows)
    modifier = (
        len(content) > 1
        and subj[:1] == [content[0][0]]
        and content[0][0][1:].islower()
        and content[0][0] not in names
        and content[1][0][:1].islower()
    )
    for k, (tok, lem) in enumerate(content):
        if tok.lower() in cw.SUBJECT_WORDS:
            owner.add(speaker or "user")
        elif k == 0 and modifier:
            qualifiers.add(lem)
        elif tok[:1].isupper() and tok.lower() not in cw.STOP or k == len(content) - 1:
            owner.add(lem)
        else:
            qualifiers.add(lem)
    attrs |= {cw.CLASS_OF[a] for a in attrs if a in cw.CLASS_OF}
    return owner, qualifiers, attrs, set()


# Claims read ahead of time. The search index stores each note's claims when it embeds the
# note (``dump``), and recall's check of newer restatements hands them back (``remember``)
# instead of reading the 12 best notes of every query again: most of a warm search's time
# at 100k notes went there. Stored claims carry the ``reader`` they were read by, so a
# release that reads claims otherwise ignores them.

KNOWN = 4096  # claims remembered (the oldest goes first)
_known: dict[str, tuple[Claim, ...]] = {}
_FIELDS = tuple(f.name for f in fields(Claim))
_KINDS = tuple(str(f.type).split("[")[0] for f in fields(Claim))  # frozenset, tuple, str, bool
_HEAD = 7  # the fields without a default: text, owner, qualifiers, head, attrs, values, words


@functools.cache
def reader() -> str:
    """A fingerprint of the code that reads claims (this module and the word lists and text
    functions it uses, and the Python whose string and regex functions run it): stored claims
    are used only by the reader that wrote them."""
    import hashlib

    digest = hashlib.sha1(sys.version.encode())
    try:
        for module in (cw, lexical, sys.modules[__name__]):
            digest.update(Path(str(module.__file__)).read_bytes())
    except OSError:  # no source to read (a frozen install): nothing is stored or used
        return ""
    return digest.hexdigest()[:12]


def dump(found: Sequence[Claim], text: str) -> list[Any]:
    """``found`` (the claims of ``text``) as JSON values: ``[reader, claim rows]``, each row
    the claim's fields in order (sets sorted; a clause's text that is the whole ``text`` as
    null; the last fields left out while they hold their defaults)."""
    rows = []
    for c in found:
        row: list[Any] = []
        for name, kind in zip(_FIELDS, _KINDS, strict=True):
            value = getattr(c, name)
            if name == "text" and value == text:
                value = None
            elif kind == "frozenset":
                value = sorted(value)
            elif kind == "tuple":
                value = list(value)
            row.append(value)
        while len(row) > _HEAD and row[-1] in ([], False, ""):  # fields left at their defaults
            row.pop()
        rows.append(row)
    return [reader(), rows]


def load(data: Any, text: str) -> tuple[Claim, ...] | None:
    """The claims ``dump`` stored for ``text``, or None when they are of another reader or of
    another shape (an index file is read, not trusted)."""
    if not (isinstance(data, list) and len(data) == 2 and data[0] and data[0] == reader()):
        return None
    rows = data[1]
    if not isinstance(rows, list):
        return None
    out = []
    for row in rows:
        if not isinstance(row, list) or not _HEAD <= len(row) <= len(_FIELDS):
            return None
        args: dict[str, Any] = {}
        for name, kind, value in zip(_FIELDS, _KINDS, row, strict=False):
            if name == "text" and value is None:
                value = text
            elif kind in ("frozenset", "tuple"):
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    return None
                value = frozenset(value) if kind == "frozenset" else tuple(value)
            elif not isinstance(value, bool if kind == "bool" else str):
                return None
            args[name] = value
        out.append(Claim(**args))
    return tuple(out)


def remembered(text: str) -> bool:
    return text in _known


def remember(text: str, found: tuple[Claim, ...]) -> None:
    """Use ``found`` as the claims of ``text`` (read with no names) from now on."""
    if text not in _known and len(_known) >= KNOWN:
        del _known[next(iter(_known))]
    _known[text] = found
