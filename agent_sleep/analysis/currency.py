# ruff: noqa: SIM905 (word lists read better as one string)
"""Currency: does a new statement give a new value for what an older one says?

A statement is cut into claims (one per clause: "lives in Berlin and works at Siemens" is two).
A claim has

- an owner: who or what it is about (names, "user" for I / we / the user, the head noun of the
  subject: "the standup", "the staging server");
- qualifiers: the other words of its subject ("staging" in "the staging server");
- a head: what is said of the owner, the first verb or adjective of the predicate, mapped to an
  attribute class when it names one (lives / moved / relocated / based -> location);
- values: what the predicate gives: numbers, versions, times, dates, names, identifiers
  ("us-east-1"), and the other content words of the predicate;
- change language ("now", "no longer", "moved to", "switched to", "instead of", "from A to B",
  "renamed", "replaced by", "was raised to", …), the values it marks as old ("from A", "instead
  of A", "no longer A"), and additive language ("also", "too", "as well", "another").

:func:`compare` decides, for a new claim against an old one, ``supersede`` (same owner and
attribute, a different value), ``same`` (same owner, attribute and value: a restatement) or
``other`` (facts that merely look alike: another owner or qualifier, another attribute, an
added fact). Without change language a supersede needs the same head and a frame that differs
only in values of the same kind (a number for a number, a name for a name). Optionally a
sentence-embedding function confirms that two claims with different heads talk about the same
thing (used only when change language is present). Pure functions, no model of its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from agent_sleep.analysis import lexical

SUPERSEDE, SAME, OTHER = "supersede", "same", "other"
CHANGE_FRAME = 0.5  # frame overlap needed with change language
IMPLICIT_FRAME = 0.75  # frame overlap needed without it
EMBED_SAME = 0.8  # cosine of masked frames that stands in for a shared head (change language)

# Attribute classes: words that name what is being said about an owner.
_CLASSES = {
    "location": "live lives lived living based reside resides resided residing home "
    "relocated relocate relocates relocating located settled city hometown address base rent "
    "rents rented renting flat apartment house",
    "employer": "work works worked working employed employer job company joined join joins hired "
    "employs",
    "role": "role title position promoted became become becomes job-title rank serves",
    "owner": "took-over taken-over handed-over taking-over owner owns own owned maintainer "
    "maintains maintained maintain responsible lead leads led manages managed manage runs "
    "ownership handed charge assigned reassigned",
    "preference": "prefer prefers preferred preference like likes liked love loves favourite "
    "favorite rather enjoys enjoy",
    "version": "version upgraded upgrade downgraded downgrade bumped release",
    "schedule": "scheduled rescheduled schedule meets meeting happens starts start held takes",
    "name": "name named renamed called",
    "size": "count number total headcount size",
}
CLASS_OF = {w: c for c, ws in _CLASSES.items() for w in ws.split()}
_COPULA = frozenset(
    "am is are was were be been 's has have had uses use used using runs run".split()
)
_GENERIC = frozenset(
    "be changed change switched switch migrated migrate moved replaced swapped "
    "updated set turned converted left quit resigned retired transferred shifted chang "
    "switch migrat replac swapp updat convert transferr shift turn cut doubled halved "
    "extended shortened postponed delayed pushed doubl halv extend shorten postpon delay "
    "push".split()
)
GENERIC_HEADS = _GENERIC | {"mov", "be"}
_CHANGE_RE = re.compile(
    r"\b(?:now|no longer|not any ?more|any ?more|from now on|going forward|these days|"
    r"moved|relocated|switched|changed|migrated|renamed|replaced|instead|quit|retired|"
    r"resigned|promoted|became|raised|lowered|increased|decreased|reduced|bumped|upgraded|"
    r"downgraded|updated|rescheduled|shifted|transferred|handed|took over|taken over|"
    r"stopped|swapped|formerly|previously|used to|went from|cut|doubled|halved|extended|"
    r"took-over|taken-over|taking-over|handed-over|hands-over|"
    r"shortened|postponed|delayed|pushed back|"
    r"reassigned|changed (?:his|her|their|its|my) mind)\b",
    re.I,
)
_OLD_VALUE_RE = re.compile(
    r"\b(?:instead of|replacing|replaced|no longer(?: \w+)?|formerly|"
    r"previously|used to(?: \w+)?|left|quit)\s+"
    r"((?:the |a |an )?[\w.:$%/'@-]+(?: [\w.:$%/'@-]+)?)"
    r"|\bfrom\s+((?:the |a |an )?[\w.:$%/'@-]+(?: [\w.:$%/'@-]+)?)\s+(?:to|into|over to)\b",
    re.I,
)
_FROM_RE = re.compile(r"\bfrom\s+((?:the |a |an )?[\w.:$%/'@-]+)", re.I)
_FROM_RE = re.compile(r"\bfrom\s+((?:the |a |an )?[\w.:$%/'@-]+)", re.I)
# an intention or a possibility is not a fact that replaces another ("I won't quit")
_MODAL_RE = re.compile(
    r"\b(?:will|won't|would|wouldn't|can't|cannot|could|should|might|may|must|gonna|"
    r"going to|want to|wants to|plan to|plans to|hope to|hoping to|if)\b|\?\s*$",
    re.I,
)
_CONTRACTION_RE = re.compile(r"\b(I|we|you|they|he|she|it|that)['’](m|re|ve|s|ll|d)\b", re.I)
_EXPANDED = {"m": "am", "re": "are", "ve": "have", "s": "is", "ll": "will", "d": "would"}
# a sentence-initial time phrase that is not change language ("Last week, I built …")
_TIME_LEAD_RE = re.compile(
    r"^(?:(?:last|this|next) (?:week|weekend|month|year|night|morning|time)|yesterday|"
    r"earlier today|a while ago|the other day|on \w+day)[,]?\s+",
    re.I,
)
_ADDITIVE_RE = re.compile(
    r"\b(?:also|too|as well|another|in addition|additionally|besides|plus|as another|"
    r"second|other than|along with|on top of)\b",
    re.I,
)
_NEGATION_RE = re.compile(
    r"\b(?:not|never|no longer|n't|don't|doesn't|didn't|isn't|aren't|wasn't|stopped|quit)\b|n't\b",
    re.I,
)
# a sentence-initial time adverbial ("These days", "From now on", "As of May,") is change
# language, not the subject; the change itself stays visible through _CHANGE_RE on the clause
_LEADING_RE = re.compile(
    r"^(?:(?:these days|nowadays|from now on|going forward|since then|as of (?:now|today|"
    r"this \w+|\w+(?: \d+)?)|starting (?:today|now|this \w+|\w+)|now)"
    r",?\s+)",
    re.I,
)
_RESOLVED_RE = re.compile(r"\s*\((?:week of |weekend of )?\d{4}(?:-\d{2}){0,2}\)")
_TOKEN_RE = re.compile(r"[$€£]?[A-Za-z0-9][\w$€£%.:/'’+@-]*[\w%+]|[$€£]?[A-Za-z0-9%]")
_CLAUSE_RE = re.compile(
    r"\s*(?:;|,?\s+and\s+(?=(?:now\s+|also\s+)?[a-z]+(?:s|ed)\b)|,\s+but\s+)\s*"
)
_SUBJECT_WORDS = {"i": "user", "we": "user", "me": "user", "user": "user", "my": "user"}
_RELATIVE = frozenset(
    "today yesterday tomorrow tonight recently lately week month year last next this ago "
    "morning afternoon evening weekend earlier later soon since after before".split()
)
_WEEKDAYS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays "
    "thursdays fridays saturdays sundays noon midnight".split()
)
_STOP = lexical.STOPWORDS | frozenset(
    "the a an its his her their our your my to in at of for on with by over from into "
    "onto per via as than then that which who whom whose".split()
)


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

    @property
    def frame(self) -> frozenset[str]:
        head = {self.head} if self.head and self.head not in GENERIC_HEADS else set()
        return frozenset(self.owner | self.qualifiers | self.attrs | head)


def lemma(word: str) -> str:
    w = re.sub(r"['’]s$", "", word.lower())
    for end, rep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if len(w) > len(end) + 2 and w.endswith(end) and not w.endswith("ss"):
            return w[: -len(end)] + rep
    return w


def _strong(tok: str, at_start: bool, names: frozenset[str]) -> bool:
    low = tok.lower()
    if any(ch.isdigit() for ch in tok) or low in _WEEKDAYS:
        return True
    if re.search(r"[A-Za-z][-_.@][A-Za-z0-9]", tok) and re.search(r"[\dA-Z@]", tok):
        return True
    return tok[:1].isupper() and (not at_start or tok in names) and low not in _STOP


def _tokens(text: str) -> list[str]:
    return [t.rstrip(".:/'’-") for t in _TOKEN_RE.findall(text)]


def claims(text: str, names: frozenset[str] = frozenset()) -> list[Claim]:
    """The claims of a note or entry: one per clause; a clause without a subject of its own
    ("... and works at Siemens") takes the previous clause's subject."""
    label, body = lexical.split_speaker(text)
    speaker = label.rstrip(": ").lower()
    body = _RESOLVED_RE.sub("", body)
    out: list[Claim] = []
    body = _CONTRACTION_RE.sub(lambda m: f"{m.group(1)} {_EXPANDED[m.group(2).lower()]}", body)
    for sentence in lexical.sentences(body):
        if sentence.rstrip().endswith("?"):
            continue  # a question states nothing
        sentence = _TIME_LEAD_RE.sub("", sentence)
        lead = _LEADING_RE.match(sentence)
        sentence = sentence[lead.end() :] if lead else sentence
        previous: tuple[list[str], list[str]] | None = None
        for clause in _CLAUSE_RE.split(sentence):
            if not clause.strip():
                continue
            claim, previous = _claim(clause, speaker, names, previous, bool(lead))
            if claim is not None:
                out.append(claim)
    return out


def _verbish(tok: str) -> bool:
    low = tok.lower()
    return (
        low in CLASS_OF
        or low in _GENERIC
        or low in _PAST
        or low in _VERB_BASE
        or low in _COPULA
        or low in _ADVERBS
        or bool(re.fullmatch(r"[a-z]{3,}(?:s|ed)", low) and not low.endswith("ss"))
    )


def _verb_at(toks: list[str]) -> int:
    """Index of the predicate's first word: a copula, a change adverb, or a verb-like word."""
    if toks[0].lower() in ("i", "we", "they", "you") and len(toks) > 1:
        return 1
    for i, tok in enumerate(toks):
        low = tok.lower()
        if i == 0 and low not in ("now", "no"):
            continue
        if low in _COPULA or low in ("now", "no", "never", "not", "also", "still", "recently"):
            return i
        if low in ("will", "can", "should", "would", "must", "does", "do", "did", "used"):
            return i
        if re.search(r"['’]s$", toks[i - 1]) and not _COPULA & {low}:
            continue  # "Gunnar's work email": a noun after a possessive
        if low.endswith(("n't", "n’t")) or low in _PAST or low in _VERB_BASE:
            return i
        if tok[:1].isupper() or any(ch.isdigit() for ch in tok) or low in _STOP:
            continue
        prev = toks[i - 1].lower()
        if prev in ("the", "a", "an", "its", "his", "her", "their", "our", "my", "your", "of"):
            continue
        if re.search(r"['’]s$", prev):  # "Gunnar's work email": a noun after a possessive
            continue
        nxt = toks[i + 1].lower() if i + 1 < len(toks) else ""
        if low.endswith("s") and (
            nxt in _COPULA or nxt in _VERB_BASE or nxt in _BASE_VERBS or nxt in _PAST
        ):
            continue  # "my dance moves get …": a plural noun before its verb
        if low in _GENERIC or _CHANGE_RE.fullmatch(low):
            return i
        if re.fullmatch(r"[a-z]{3,}(?:s|ed)", low) and not low.endswith("ss"):
            return i
    return -1


def _claim(
    clause: str,
    speaker: str,
    names: frozenset[str],
    previous: tuple[list[str], list[str]] | None,
    lead: bool = False,
) -> tuple[Claim | None, tuple[list[str], list[str]] | None]:
    clause = re.sub(r"\b(took|taken|taking|handed|hands|hand) over\b", r"\1-over", clause)
    toks = _tokens(clause)
    while len(toks) > 1 and toks[0].lower() in _ADVERBS and toks[1].lower() in _PRONOUNS:
        toks = toks[1:]  # "now I am ready": the adverb is change language, "I" the subject
    if not toks:
        return None, previous
    v = _verb_at(toks)
    first = next((t for t in toks if t.lower() not in _ADVERBS), "")
    if previous is not None and first and _verbish(first) and first.lower() not in _PRONOUNS:
        v = 0
    if v <= 0 and previous is not None:
        subj, pred = previous[0], toks
    elif v <= 0:
        return None, previous
    else:
        subj, pred = toks[:v], toks[v:]
    subj, pred = _identifying(subj, pred)
    # "my new manager", "the current owner": the modifier marks a change, it names nothing
    fresh_mod = any(t.lower() in _NEWNESS for t in subj[:3]) and not any(
        t.lower() in ("i", "we", "you", "they", "he", "she") for t in subj
    )
    subj = [t for t in subj if t.lower() not in _NEWNESS]
    owner, qualifiers, attrs = _subject(subj, speaker, names)
    if not owner:
        return None, previous
    obj_owner, obj_qual = _object(pred, names)
    owner |= obj_owner
    qualifiers |= obj_qual
    head, values, words = "", [], []
    content = False  # a content word of the predicate was seen
    for k, tok in enumerate(pred):
        low = tok.lower()
        lem = lemma(tok)
        if lem in obj_owner | obj_qual and head:  # the object a change verb acts on
            continue
        if _strong(tok, False, names) and low not in CLASS_OF:
            values.append(_norm_value(tok))
            continue
        if low in _COPULA:
            head = head or "be"
            continue
        cls = CLASS_OF.get(low) or CLASS_OF.get(lem)
        if low in _GENERIC and not content:
            head = lem if head in ("", "be") else head
            content = True
            continue
        if (low in _STOP or low in _RELATIVE or _CHANGE_RE.fullmatch(low)) and not cls:
            continue
        if low in ("no", "not", "never", "longer", "anymore", "more", "every") or low.endswith(
            ("n't", "n’t")
        ):
            continue
        if cls:
            attrs.add(cls)
        # "is a nurse" and "is 30 seconds": a value and its unit, not what is said of it
        after = k > 0 and (pred[k - 1].lower() in ("a", "an") or _strong(pred[k - 1], False, names))
        if not content and head in ("", "be") and not (head == "be" and after and not cls):
            head = cls or lem
            content = True
            continue
        content = True
        if cls:
            continue
        words.append(lem)
    if not head and values:
        head = "be"
    old = {
        _norm_value(t)
        for m in _OLD_VALUE_RE.finditer(clause)
        for t in _tokens(m.group(1) or m.group(2) or "")
    }
    if _CHANGE_RE.search(clause):  # in a change, "from X" is the old state ("took over … from X")
        old |= {_norm_value(t) for m in _FROM_RE.finditer(clause) for t in _tokens(m.group(1))}
    claim = Claim(
        text=clause,
        owner=frozenset(owner),
        qualifiers=frozenset(qualifiers),
        head=head,
        attrs=frozenset(attrs),
        values=tuple(values),
        words=frozenset(words),
        old=frozenset(old) & frozenset(values) | frozenset(lemma(t) for t in old) & set(words),
        negated=bool(_NEGATION_RE.search(clause)),
        change=(lead or fresh_mod or bool(_CHANGE_RE.search(clause)))
        and not _MODAL_RE.search(clause),
        modal=bool(_MODAL_RE.search(clause)),
        activity=_progressive(pred),
        speaker=speaker,
        new_of=frozenset(lemma(m.group(1)) for m in _NEW_OF_RE.finditer(clause)),
        past=_past(pred),
        seq=tuple(
            lemma(t) for t in pred if t.lower() not in _STOP and not _CHANGE_RE.fullmatch(t.lower())
        ),
        additive=bool(_ADDITIVE_RE.search(clause)),
    )
    return claim, (subj, pred)


_PAST = frozenset(
    "was were had did went saw met took made got came gave found thought told left bought "
    "ate ran wrote read spent won lost began drove flew felt heard kept knew paid sent "
    "sold stood taught threw understood wore built brought caught chose drew fell fought "
    "forgot grew held hung laid lent meant rode rose said sang sat shot showed shut slept "
    "spoke stole swam tore woke".split()
)
_VERB_BASE = frozenset(
    "live work prefer like love own lead manage run use enjoy move took-over handed-over "
    "stepped speak speaks drink eat hate".split()
)
_ADVERBS = frozenset("now no not never still also just recently finally already".split())


def _progressive(pred: list[str]) -> bool:
    for tok in pred:
        low = tok.lower()
        if low in _ADVERBS or low in ("am", "is", "are", "was", "were", "been", "be"):
            continue
        return low.endswith("ing") and len(low) > 5 and low not in ("using", "living")
    return False


def _past(pred: list[str]) -> bool:
    for tok in pred:
        low = tok.lower()
        if low in _ADVERBS:
            continue
        return low in _PAST or (low.endswith("ed") and len(low) > 4)
    return False


_BASE_VERBS = frozenset(
    "get make give help keep take go come need want seem look feel boost are were have".split()
)
_PRONOUNS = frozenset("i we you they he she it this that there".split())
_NEWNESS = frozenset("new current latest".split())
_NEW_OF_RE = re.compile(r"\bnew (?:\w+ )?(\w+)", re.I)
_DETERMINERS = frozenset("the its his her their our my your".split())
_BOUNDARY = frozenset("to from with by for on in at into onto over as".split())


def _identifying(subj: list[str], pred: list[str]) -> tuple[list[str], list[str]]:
    """ "Omar is the tech lead of payments" reads as "the tech lead of payments is Omar"."""
    low = [t.lower() for t in pred]
    k = 1 if low and low[0] in ("is", "are", "was", "were") else 0
    while k < len(low) and low[k] in _ADVERBS:
        k += 1
    if not k or k >= len(low) or low[k] != "the" or not any(w in ("of", "for") for w in low[k:]):
        return subj, pred
    return pred[k:], [pred[0], *subj]


def _object(pred: list[str], names: frozenset[str]) -> tuple[set[str], set[str]]:
    """The noun phrase a change verb acts on ("changed the cache TTL to 600"): its head noun
    joins the owner, its other words the qualifiers."""
    low = [t.lower() for t in pred]
    k = 0
    while k < len(low) and low[k] in _ADVERBS | _COPULA:
        k += 1
    if k >= len(low) or not (low[k] in _GENERIC or _CHANGE_RE.fullmatch(low[k])):
        return set(), set()
    k += 1
    if k >= len(low) or low[k] not in _DETERMINERS:
        return set(), set()
    phrase: list[str] = []
    rest = pred[k + 1 :]
    for tok in rest:
        if tok.lower() in _BOUNDARY or any(ch.isdigit() for ch in tok):
            break
        phrase.append(tok)
    if not phrase:
        return set(), set()
    words = [lemma(t) for t in phrase if t.lower() not in _STOP]
    after = rest[len(phrase) :]
    if after and after[0].lower() in ("of", "for"):  # "the timeout for Mistral": Mistral's
        tail = []
        for tok in after[1:]:
            if tok.lower() in _BOUNDARY or any(ch.isdigit() for ch in tok):
                break
            tail.append(lemma(tok))
        owner = {t for t in tail if t not in _STOP}
        if owner:
            return owner, set(words)
    return set(words[-1:]), set(words[:-1])


def _norm_value(tok: str) -> str:
    return tok.lower().strip("$€£").rstrip("%")


def _subject(
    subj: list[str], speaker: str, names: frozenset[str]
) -> tuple[set[str], set[str], set[str]]:
    """(owner, qualifiers, attribute words) of a subject phrase. "the deploy target for
    project Atlas": owner {project, atlas}, attributes {deploy, target}; "Tom's phone": owner
    {tom}, attributes {phone}."""
    low = [t.lower() for t in subj]
    attrs: set[str] = set()
    for k, w in enumerate(low):
        if w in ("of", "for") and 0 < k < len(low) - 1:
            attrs = {lemma(x) for x in low[:k] if x not in _STOP}
            subj, low = subj[k + 1 :], low[k + 1 :]
            break
    for k, t in enumerate(subj):
        if re.search(r"['’]s$", t) and k < len(subj) - 1:
            attrs |= {lemma(x) for x in low[k + 1 :] if x not in _STOP}
            subj, low = subj[: k + 1], low[: k + 1]
            break
    owner: set[str] = set()
    qualifiers: set[str] = set()
    content = [(t, lemma(t)) for t in subj if t.lower() not in _STOP or t.lower() in _SUBJECT_WORDS]
    for k, (tok, lem) in enumerate(content):
        if tok.lower() in _SUBJECT_WORDS:
            owner.add(speaker or "user")
        elif tok[:1].isupper() and tok.lower() not in _STOP or k == len(content) - 1:
            owner.add(lem)
        else:
            qualifiers.add(lem)
    attrs |= {CLASS_OF[a] for a in attrs if a in CLASS_OF}
    return owner, qualifiers, attrs


@dataclass(frozen=True)
class Verdict:
    kind: str  # supersede | same | other
    why: str
    old_value: str = ""
    new_value: str = ""


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / min(len(a), len(b)) if a and b else 1.0


def _values_differ(new: Claim, old: Claim) -> tuple[bool, str, str]:
    """Whether the new claim gives another value than the old one, and the two values."""
    fresh = [v for v in new.values if v not in new.old and v not in old.frame]
    if set(fresh) != set(old.values) and (fresh or old.values):
        if fresh and set(fresh) <= set(old.values) and not new.old:
            return False, "", ""  # the new note names part of what the old one says
        return True, " ".join(old.values), " ".join(fresh)
    if new.negated != old.negated:
        return True, "not" if old.negated else "", "not" if new.negated else ""
    weak_new, weak_old = new.words - old.words, old.words - new.words
    if weak_new or weak_old:
        return True, " ".join(sorted(weak_old)), " ".join(sorted(weak_new))
    if new.values != old.values and tuple(reversed(new.values)) != new.values:
        return True, " ".join(old.values), " ".join(new.values)
    if sorted(new.seq) == sorted(old.seq) and new.seq != old.seq:  # "B over A" for "A over B"
        return True, " ".join(old.seq), " ".join(new.seq)
    return False, "", ""


def _same_kind(a: Sequence[str], b: Sequence[str]) -> bool:
    def kind(v: str) -> str:
        return "n" if any(ch.isdigit() for ch in v) else "w"

    return sorted(map(kind, a)) == sorted(map(kind, b))


def compare(new: Claim, old: Claim, similar: Callable[[str, str], float] | None = None) -> Verdict:
    """``supersede``, ``same`` or ``other`` for a new claim against an old one."""
    if new.modal or old.modal:
        return Verdict(OTHER, "an intention, not a fact")
    if new.speaker and old.speaker and new.speaker != old.speaker:
        return Verdict(OTHER, "another speaker")  # each speaks of their own life
    names_new, names_old = _names(new), _names(old)
    same_subject = _subject_bag(new) == _subject_bag(old)  # "the lab wifi" / "the wifi of the lab"
    if not same_subject and (
        not (new.owner & old.owner) or (names_new and names_old and not names_new & names_old)
    ):
        return _crossed(new, old)
    if new.new_of & (old.attrs | old.owner):
        new = replace(new, change=True)  # "a new phone number" for the phone number
    if new.qualifiers - old.frame - old.words and old.qualifiers - new.frame - new.words:
        return Verdict(OTHER, "another qualifier")
    nouns_new = {a for a in new.attrs if a not in _CLASSES and a not in CLASS_OF}
    nouns_old = {a for a in old.attrs if a not in _CLASSES and a not in CLASS_OF}
    if (
        (nouns_new and not nouns_new & _bag(old))
        or (nouns_old and not nouns_old & _bag(new))
        or (nouns_new - _bag(old) and nouns_old - _bag(new))  # "staging" / "production"
    ):
        return Verdict(OTHER, "another attribute")
    differ, was, now = _values_differ(new, old)
    frame = _overlap(new.frame, old.frame)
    heads = new.head == old.head or bool(new.attrs & old.attrs - {""})
    if not differ:
        return (
            Verdict(SAME, "same value")
            if frame >= IMPLICIT_FRAME and heads
            else Verdict(OTHER, "another attribute")
        )
    if new.additive and not new.old:
        return Verdict(OTHER, "an added fact")
    if new.old & set(old.values) and frame >= CHANGE_FRAME:  # "from A to B" naming A
        return Verdict(SUPERSEDE, "the old value named", was, now)
    if old.past and not (old.attrs & set(_CLASSES)) and old.head not in GENERIC_HEADS:
        return Verdict(OTHER, "an episode, not a state")  # "went to a support group"
    if new.activity and not (new.old & (set(old.values) | old.words)):
        return Verdict(OTHER, "an ongoing activity")  # "I am now mentoring …"
    if new.change or new.old:
        generic = new.head in GENERIC_HEADS or old.head in GENERIC_HEADS
        # chat turns (a speaker label) are episodic: only the same verb or attribute counts
        chat = bool(new.speaker or old.speaker)
        loose = generic and not chat and frame >= CHANGE_FRAME and _comparable(new, old)
        related = (heads and (not chat or new.head not in GENERIC_HEADS)) or loose
        if not related and similar is not None and frame >= CHANGE_FRAME and not old.past:
            related = similar(_masked(new), _masked(old)) >= EMBED_SAME
        if related and frame >= CHANGE_FRAME:
            return Verdict(SUPERSEDE, "change language" if heads else "a generic change", was, now)
        return Verdict(OTHER, "another attribute")
    if new.past or old.past:
        return Verdict(OTHER, "an episode, not a state")
    if (
        new.head == old.head
        and frame >= IMPLICIT_FRAME
        and not (new.words ^ old.words)
        and (not new.values or _same_kind(new.values, old.values))
        and (new.head != "be" or new.words or new.attrs - set(_CLASSES) or not new.speaker)
    ):
        return Verdict(SUPERSEDE, "a new value", was, now)
    shared = new.words & old.words or set(new.values) & set(old.values)
    if new.head == old.head and new.negated != old.negated and frame >= IMPLICIT_FRAME and shared:
        return Verdict(SUPERSEDE, "negation", was, now)
    return Verdict(OTHER, "another attribute or value kind")


def _comparable(new: Claim, old: Claim) -> bool:
    """With a generic verb ("moved to", "is now"), the two claims must give values of a kind:
    a number or a name for a number or a name, or words where the old one states a role."""

    def kinds(values: Sequence[str]) -> set[str]:
        return {("n" if re.fullmatch(r"[\d.,:%]+[a-z]{0,3}", v) else "w") for v in values}

    if new.values and old.values:
        fresh = [v for v in new.values if v not in new.old] or list(new.values)
        return kinds(fresh) == kinds(old.values)
    if new.values or old.values:
        return bool(new.words & old.words)
    return old.head in ("role", "employer") or bool(new.words & old.words)


def _subject_bag(c: Claim) -> frozenset[str]:
    return c.owner | c.qualifiers | {a for a in c.attrs if a not in _CLASSES}


def _names(c: Claim) -> set[str]:
    """The owner's names: words written capitalised in the claim (or "user")."""
    caps = {lemma(t) for t in _tokens(c.text) if t[:1].isupper()} | {c.speaker}
    return {o for o in c.owner if o in caps or o == "user"}


def _personal(c: Claim) -> bool:
    """A possessive subject ("Tom's email"): the attribute is the owner's own."""
    return bool(re.search(r"^\W*\w+['’]s\b|\b(?:his|her|their|my|our)\b", c.text, re.I))


def _bag(c: Claim) -> frozenset[str]:
    return c.owner | c.qualifiers | c.words | c.attrs | frozenset(c.values)


def _crossed(new: Claim, old: Claim) -> Verdict:
    """Owners differ, but one's owner is in the other's predicate ("Maria owns the billing
    service" / "the billing service is now owned by Dev"): a change of the same relation when
    both name the same attribute class and the new one brings a value the old one lacks."""
    if _personal(new) or _personal(old):  # "Yusuf's email" belongs to Yusuf: no crossing
        return Verdict(OTHER, "another owner")
    anchor = (
        (new.owner & _bag(old) and new.qualifiers <= _bag(old))
        or (old.owner & _bag(new) and old.qualifiers <= _bag(new))
        or (new.words and new.words == old.words)
    )
    named = bool(new.old & set(old.values))  # "replaced Jenkins with …" for "… on Jenkins"
    if not anchor or not (new.attrs & old.attrs or named) or not (new.change or new.old):
        return Verdict(OTHER, "another owner")
    if new.additive and not new.old:
        return Verdict(OTHER, "an added fact")
    fresh = (frozenset(new.values) | new.owner) - _bag(old) - new.old
    if not fresh:
        return Verdict(OTHER, "no new value")
    gone = (frozenset(old.values) | old.owner) - _bag(new)
    return Verdict(SUPERSEDE, "change language", " ".join(sorted(gone)), " ".join(sorted(fresh)))


def _masked(c: Claim) -> str:
    text = c.text
    for v in c.values:
        text = re.sub(re.escape(v), "something", text, flags=re.I)
    return _CHANGE_RE.sub("", text)


def relation(
    new_text: str,
    old_text: str,
    names: frozenset[str] = frozenset(),
    similar: Callable[[str, str], float] | None = None,
) -> Verdict:
    """The strongest verdict between any claim of ``new_text`` and any of ``old_text``:
    ``supersede`` wins; ``same`` needs every claim of the new text restated."""
    new_claims, old_claims = claims(new_text, names), claims(old_text, names)
    if not new_claims or not old_claims:
        return Verdict(OTHER, "no claim")
    verdicts = [compare(n, o, similar) for n in new_claims for o in old_claims]
    for v in verdicts:
        if v.kind == SUPERSEDE:
            return v
    if all(any(compare(n, o, similar).kind == SAME for o in old_claims) for n in new_claims):
        return Verdict(SAME, "same value")
    return Verdict(OTHER, verdicts[0].why)


def values_differ(a: str, b: str, names: frozenset[str] = frozenset()) -> bool:
    """True when two look-alike texts disagree on a value (a number, a name, a date, a
    negation): near-duplicate merging must keep both."""
    va = {v for c in claims(a, names) for v in c.values}
    vb = {v for c in claims(b, names) for v in c.values}
    nums_a = set(re.findall(r"\d[\d.:,]*", a))
    nums_b = set(re.findall(r"\d[\d.:,]*", b))
    return (
        va != vb
        or nums_a != nums_b
        or _capitals(a) != _capitals(b)
        or bool(_NEGATION_RE.search(a)) != bool(_NEGATION_RE.search(b))
    )


def _capitals(text: str) -> set[str]:
    """Capitalised words (function words aside): names, wherever they stand."""
    out = set()
    for sentence in lexical.sentences(lexical.split_speaker(text)[1]):
        toks = _tokens(sentence)
        out |= {t.lower() for t in toks if t[:1].isupper() and t.lower() not in _STOP}
    return out


def same_subject(a: str, b: str, names: frozenset[str] = frozenset()) -> bool:
    """Whether two texts speak of the same owner (a contradiction needs one); True when either
    has no claim to compare."""
    ca, cb = claims(a, names), claims(b, names)
    if not ca or not cb:
        return True
    for x in ca:
        for y in cb:
            nx, ny = _names(x), _names(y)
            if x.owner & y.owner and not (nx and ny and not nx & ny):
                return True
    return False
