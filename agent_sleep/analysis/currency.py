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

import functools
import itertools
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from agent_sleep.analysis import change_words as cw
from agent_sleep.analysis import gazetteer, lexical, temporal
from agent_sleep.analysis.claims import Claim, claims, lemma, to_an_act, tokens
from agent_sleep.analysis.distill import TITLES
from agent_sleep.analysis.restated import MONEY_RE, money_unit, restated

__all__ = ["OTHER", "SAME", "SUPERSEDE", "Candidates", "Claim", "Verdict", "claims", "compare",
           "relation", "likeness", "restates", "same_subject", "shared_names",
           "values_differ"]  # fmt: skip

SUPERSEDE, SAME, OTHER = "supersede", "same", "other"
_LABEL = re.compile(r"-\d+$")  # a labelled thing from analysis/claims.py ("fact-2")
CHANGE_FRAME = 0.5  # frame overlap needed with change language
IMPLICIT_FRAME = 0.75  # frame overlap needed without it
EMBED_SAME = 0.8  # cosine of masked frames that stands in for a shared head (change language)

# Attribute classes: words that name what is being said about an owner.


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
    dated = _day_numbers(new.text)  # "10 December" is a date, though "Year 10" names the year
    fresh = [v for v in new.values if v not in new.old and (v not in old.frame or v in dated)]
    if set(fresh) != set(old.values) and (fresh or old.values):
        if fresh and set(fresh) <= set(old.values) and not new.old:
            return False, "", ""  # the new note names part of what the old one says
        return True, " ".join(old.values), " ".join(fresh)
    if new.negated != old.negated:
        return True, "not" if old.negated else "", "not" if new.negated else ""
    weak_new, weak_old = new.words - old.words, old.words - new.words
    if weak_old and not weak_new and not new.old and not new.negated:
        return False, "", ""  # it leaves out a detail and says nothing else: "now … again"
    if weak_new or weak_old:
        return True, " ".join(sorted(weak_old)), " ".join(sorted(weak_new))
    if new.values != old.values and tuple(reversed(new.values)) != new.values:
        return True, " ".join(old.values), " ".join(new.values)
    if sorted(new.seq) == sorted(old.seq) and new.seq != old.seq:  # "B over A" for "A over B"
        return True, " ".join(old.seq), " ".join(new.seq)
    return False, "", ""


_DAY_NUMBER_RE = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?{temporal.MONTH_RE}"
    rf"|{temporal.MONTH_RE} (\d{{1,2}})\b(?!:)"
)


def _day_numbers(text: str) -> set[str]:
    """The numbers of ``text`` that are days of a month ("10" of "Thursday 10 December")."""
    return {m.group(1) or m.group(2) for m in _DAY_NUMBER_RE.finditer(text)}


def _value_kinds(values: Iterable[str]) -> set[str]:
    """The kinds of ``values``: "n" for one with a digit, "w" for one without."""
    return {"n" if any(map(str.isdigit, v)) else "w" for v in values}


def _same_kind(a: Sequence[str], b: Sequence[str]) -> bool:
    def kind(v: str) -> str:
        return "n" if any(ch.isdigit() for ch in v) else "w"

    # as sets: "FitHub on Canal Street" for "CoreWorks in Camden"
    return set(map(kind, a)) == set(map(kind, b))


# what a claim read as "be" says with its verb: "has a gym" (possession) or "uses Neovim" (a
# tool) is not what "is in Lisbon" or "works at Shopify" is of the same owner
_BE_KIND = {"has": "has", "have": "has", "had": "has", "uses": "use", "use": "use",
            "used": "use", "using": "use"}  # fmt: skip
_HELD_CLASSES = frozenset(["location", "employer", "role", "owner"])


def _be_kind(c: Claim) -> str:
    """``has`` or ``use`` for a claim read as "be" whose verb is one of those, else ""."""
    if c.head != "be":
        return ""
    for tok in tokens(c.text.lower()):
        if tok in _BE_KIND:
            return _BE_KIND[tok]
        if tok in ("is", "are", "was", "were", "am", "be", "been"):
            return ""
    return ""


def _kinds_apart(new: Claim, old: Claim) -> bool:
    """Whether the two claims say different relations of their owner: "has a gym" / "is in
    Lisbon", "uses Neovim" / "works at Shopify", two attribute classes ("works at Stripe" /
    "lives in Oslo"), or a verb of its own against an attribute class ("drives a Tesla" /
    "lives in Paris")."""
    kn, ko = _be_kind(new), _be_kind(old)
    # "has a new manager" is of the manager "Dev's manager is Karen" names
    of_one = bool(new.new_of & (old.attrs | old.owner)) or bool(_nouns(new) & _nouns(old))
    if (
        new.head == old.head == "be"
        and kn != ko
        and "has" in (kn, ko)
        and not of_one
        # a count of one thing, whatever verb holds it: "The team has 6 engineers" / "The team
        # is now 8 engineers" (read last: every pair of claims compared comes here)
        and not set(_slots(new.text)) & set(_slots(old.text))
    ):
        return True
    classes = set(cw.CLASSES)
    # the classes their verbs say ("lives in" is a home; "flight home" names none)
    cn, co = {new.head} & classes, {old.head} & classes
    # two classes and nothing said of one thing: "works at Stripe" / "lives in Oslo" (not
    # "relocated to the Berlin office" / "works from the Lisbon office")
    common = (_bag(new) & _bag(old)) - new.owner - old.owner - classes
    if cn and co and not cn & co and not common:
        return True
    if kn == "use" and co & _HELD_CLASSES:
        return True
    # a verb of its own for a class, values of no common fine kind: "drives a Tesla" / "lives
    # in Paris" (not "is serving from eu-central-1" / "lives in us-east-1")
    specific = new.head not in cw.GENERIC_HEADS and new.head not in cw.CLASS_OF and not cn
    fine = _fine_kinds(new.values) & _fine_kinds(old.values) or (
        any(map(_digit, new.values)) and any(map(_digit, old.values))
    )
    return (specific and bool(co) and not fine) or _names_apart(new, old)


def _names_apart(new: Claim, old: Claim) -> bool:
    """Whether the new value is a name of another kind than the old one's (analysis/gazetteer):
    "speaks German" (a language) / "is from Canada" (a place), or a place against a relation
    that holds none ("moved to Berlin" / "works at Google": where one works is a company)."""
    known = _kinds_of(old.values, old.text)
    held = ({old.head} | old.attrs) & set(cw.CLASSES)
    fresh = _kinds_of([v for v in new.values if v not in new.old], new.text)
    # a move to a place changes where one is: "moved to Portland" is not of "favorite city
    # is Paris" (a preference), though both values are places
    if fresh == {gazetteer.PLACE} and new.head == "mov" and held - {"location"}:
        return "location" not in held or "preference" in held
    # where one is from stays so: "moved to Rome" / "lives in Rome" is not of "is from Canada"
    if known == {gazetteer.PLACE} and _FROM_RE.search(old.text) and not _FROM_RE.search(new.text):
        return True
    if len(fresh) != 1:
        return False
    if known:
        return not fresh & known
    return fresh == {gazetteer.PLACE} and bool(held) and not held - _PLACELESS


def _kinds_of(values: Iterable[str], text: str) -> set[str]:
    """The gazetteer's kinds of ``values`` said on their own in ``text`` (not a word of a longer
    name: "Little Lagos" is a restaurant)."""
    out = set()
    for v in values:
        k = gazetteer.kind(v)
        if k is None:
            continue
        m = re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", text, re.I)
        if m is not None:
            before = text[: m.start()].split()[-1:]
            after = text[m.end() :].split()[:1]
            if any(w[:1].isupper() and w.lower() not in cw.STOP for w in [*before, *after]):
                continue
        out.add(k)
    return out


_FROM_RE = re.compile(
    r"\b(?:is|are|am|was|were|comes?|came|hails?)\s+(?:originally\s+)?from\b", re.I
)
# the relations whose value is never a place (where one meets, lives or what one likes may be)
_PLACELESS = frozenset(["employer", "role", "manager", "owner", "name", "size", "version"])


def compare(new: Claim, old: Claim, similar: Callable[[str, str], float] | None = None) -> Verdict:
    """``supersede``, ``same`` or ``other`` for a new claim against an old one.

    One decision list, read top to bottom (the order of the checks is the rule): first whether
    the two claims speak of the same thing, then whether the value differs, then with change
    language (:func:`_changed`) or without (:func:`_implicit`)."""
    if new.modal or old.modal:
        return Verdict(OTHER, "an intention, not a fact")
    if new.speaker and old.speaker and new.speaker != old.speaker:
        return Verdict(OTHER, "another speaker")  # each speaks of their own life
    # "the billing service" / "the search service": two things of one kind, unless the new one
    # names the old one's value as what it replaced
    # (the thing itself, its owner: "oat milk" / "almond milk" are values of one thing)
    names_new, names_old = _names(new), _names(old)
    # "the lab wifi" / "the wifi of the lab"; "payments client timeout" / "the request timeout
    # for the payments client" (one subject holds the other's, two words or more; not when the
    # longer one owns it through a possessor: "Tom's manager's phone" is not "Tom's phone")
    small, big = sorted((new, old), key=lambda c: len(_subject_bag(c)))
    same_subject = _subject_bag(small) == _subject_bag(big) or (
        len(_subject_bag(small)) >= 2
        and _subject_bag(small) < _subject_bag(big)
        and not (big.whose and big.owner - _subject_bag(small))
    )
    # names apart: "Maria …" / "Dev …"; not a word that opens a sentence capitalised and is
    # the other's owner too ("Metrics are shipped to Datadog" / "We moved our metrics …")
    names_apart = (
        names_new
        and names_old
        and not names_new & names_old
        and not (names_old <= new.owner or names_new <= old.owner)
    )
    if not same_subject and (not (new.owner & old.owner) or names_apart):
        return _crossed(new, old)
    # "Primary R5 body serial" / "Backup R5 body serial": each subject has a word of its own
    # the other never says; without a word of change, two things of one kind
    if (
        not same_subject
        and not (new.change or new.old)
        and new.owner - _bag(old)
        and old.owner - _bag(new)
    ):
        return Verdict(OTHER, "another thing of one kind")
    if new.new_of & (old.attrs | old.owner):
        new = replace(new, change=True)  # "a new phone number" for the phone number
    if new.qualifiers - old.frame - old.words and old.qualifiers - new.frame - new.words:
        return Verdict(OTHER, "another qualifier")
    if _other_nouns(new, old) and not new.new_of & old.attrs:  # "a new number": the phone's
        return Verdict(OTHER, "another attribute")
    if _contact_kinds_apart(new.text, old.text):  # a personal email is no new work email
        return Verdict(OTHER, "another attribute")
    if _kinds_apart(new, old) and not new.old & (set(old.values) | old.words):
        return Verdict(OTHER, "another relation")
    labels = {w for w in new.words if _LABEL.search(w)}, {w for w in old.words if _LABEL.search(w)}
    # "team 1" / "team 2" are two things; "switched the gateway to port 9443" for "listens on
    # port 8080" changes the number of one
    relabelled = new.change and {_LABEL.sub("", w) for w in labels[0]} == {
        _LABEL.sub("", w) for w in labels[1]
    }
    if labels[0] and labels[1] and labels[0] != labels[1] and not relabelled:
        return Verdict(OTHER, "another labelled thing")
    differ, was, now = _values_differ(new, old)
    frame = _overlap(new.frame, old.frame)
    # a chat turn is long and loose: a class word anywhere in it ("the love and …", "options
    # like …") is no head; only the same head counts there
    heads = new.head == old.head or (
        not (new.speaker or old.speaker) and bool(new.attrs & old.attrs - {""})
    )
    if not differ:
        return (
            Verdict(SAME, "same value")
            if frame >= IMPLICIT_FRAME and heads
            else Verdict(OTHER, "another attribute")
        )
    if new.additive and not new.old:
        return Verdict(OTHER, "an added fact")
    # "from A to B" naming A (a note may name a word of the old one: "instead of tabs")
    named = set(old.values) | (set() if new.speaker or old.speaker else old.words)
    if new.old & named and frame >= CHANGE_FRAME:
        return Verdict(SUPERSEDE, "the old value named", was, now)
    if (
        old.past
        and not (old.attrs & set(cw.CLASSES))
        and old.head not in cw.GENERIC_HEADS
        and not _reached(old)
    ):
        return Verdict(OTHER, "an episode, not a state")  # "went to a support group"
    if new.activity and not (new.old & (set(old.values) | old.words)):
        return Verdict(OTHER, "an ongoing activity")  # "I am now mentoring …"
    if new.change or new.old:
        return _changed(new, old, frame, heads, similar, (was, now))
    if new.past and _entered(new, old):  # "Tom joined Stripe": a new employer, told as a past
        return _changed(replace(new, change=True), old, frame, heads, similar, (was, now))
    return _implicit(new, old, frame, (was, now))


def _reached(c: Claim) -> bool:
    """Whether ``c`` tells a change to an amount in the past tense ("Club membership grew to 46
    people", "the dose was raised to 3 tablets", "went up to £34 a month"): the amount it left
    holds until the next change, as a state does, whatever verb told it (a head of its own had
    read it as an episode, "went to a support group", and kept it beside the next amount).
    An amount of an occasion stays an episode: "Sales jumped to 40 orders on Black Friday",
    "Response time went up to 800ms during the outage"."""
    m = _REACHED_RE.search(c.text) if c.change else None
    return m is not None and not _OCCASION_RE.search(c.text, m.end())


# a change to an amount: "to" then, within two words, a number ("to 46 people", "to £34",
# "to -75C", "up by £50 to £950")
_REACHED_RE = re.compile(r"\bto\s+(?:[A-Za-z'’-]+\s+){0,2}?[£$€+-]?\d", re.I)
# what an amount was of, said after it: an occasion, not what it is per ("a month", "each")
_OCCASION_RE = re.compile(
    r"\b(?:during|on|at|for|in|after|before|when|while|over|across|since|because|with|by)\b",
    re.I,
)


# taking up a new home or employer, told in the past tense
_ENTERED_RE = re.compile(
    # "joined Stripe (as …)", not "joined the Stripe call"
    r"\bjoined (?:the )?[A-Z][\w&.-]*(?: [A-Z][\w&.-]*)*(?=\s*$|[,.;]|\s+(?:as|in|on|at|from|"
    r"last|this|after|before|today|yesterday|and|for)\b)|"
    r"\b(?:was hired|got hired|got a job|got an offer|started (?:at|with|working)|relocated|"
    r"settled)\b"
)


def _entered(new: Claim, old: Claim) -> bool:
    """Whether the new claim tells of taking up a home or an employer (a past event that
    leaves a state: "joined Stripe", "got a job at Globex", "relocated to Lisbon") of the kind
    the old claim holds now ("works at Acme", "lives in Porto")."""
    classes = {old.head} | old.attrs
    return (
        not old.past
        and bool(classes & {"employer", "location"})
        and bool(_ENTERED_RE.search(new.text))
        and not classes & {"employer", "location"} - ({new.head} | new.attrs)
    )


# which of one person's addresses or numbers: "work email", "personal email", "home phone"
_CONTACT_KIND_RE = re.compile(
    r"\b(work|personal|home|private|office|mobile|landline|cell)\s+(?:e-?mail|phone|number|"
    r"address|line)\b",
    re.I,
)


def _contact_kinds_apart(new_text: str, old_text: str) -> bool:
    """Whether the two texts name kinds of one contact detail and share none ("Ngozi's
    personal email" / "Ngozi's work email")."""
    new = {k.lower() for k in _CONTACT_KIND_RE.findall(new_text)}
    old = {k.lower() for k in _CONTACT_KIND_RE.findall(old_text)}
    return bool(new) and bool(old) and not new & old


def _other_nouns(new: Claim, old: Claim) -> bool:
    """Whether the claims name different attribute nouns ("staging" / "production")."""
    nouns_new = {a for a in new.attrs if a not in cw.CLASSES and a not in cw.CLASS_OF}
    nouns_old = {a for a in old.attrs if a not in cw.CLASSES and a not in cw.CLASS_OF}
    # a class word is said in the predicate too ("got a new number" for "phone number")
    # and a value that says what it is names its attribute (an address is an email's)
    bag_new = _bag(new) | set(new.seq) | _kind_nouns(new.values)
    bag_old = _bag(old) | set(old.seq) | _kind_nouns(old.values)
    return bool(
        (nouns_new and not nouns_new & bag_old)
        or (nouns_old and not nouns_old & bag_new)
        or (nouns_new - bag_old and nouns_old - bag_new)
    )


def _changed(
    new: Claim,
    old: Claim,
    frame: float,
    heads: bool,
    similar: Callable[[str, str], float] | None,
    values: tuple[str, str],
) -> Verdict:
    """The verdict when the new claim uses change language: a supersede when it speaks of the
    same attribute (the same head, a generic change of comparable values, or, given
    ``similar``, frames that mean the same)."""
    # "renamed the default branch to trunk": what it is called, when the old claim speaks of
    # the thing renamed ("Bob renamed the repo" says nothing of Bob's car)
    renamed = new.head == "name" and not new.owner - _bag(old) - {new.speaker or "user"}
    generic = new.head in cw.GENERIC_HEADS or old.head in cw.GENERIC_HEADS or renamed
    # chat turns (a speaker label) are episodic: only the same verb or attribute counts
    chat = bool(new.speaker or old.speaker)
    # a generic verb says nothing of what changed: the old claim's own words must be named
    # ("raised the retry limit to 7" is not about "has 58 contributors")
    named = (
        not old.words
        or bool(old.words & _bag(new))
        or bool(_fine_kinds(old.values) & _fine_kinds(v for v in new.values if v not in new.old))
    )
    # a generic verb of another attribute class ("switched to Emacs and no longer likes Vim"
    # is a preference, "lives in Porto" a location) changes nothing of the old claim
    classes = set(cw.CLASSES)
    if new.attrs & classes and old.attrs & classes and not new.attrs & old.attrs & classes:
        generic = renamed
    # "was promoted to analytics lead" for "is a senior data analyst": a role for a role
    role = new.head == "role" and old.head == "be" and bool(old.words) and not old.values
    loose = (
        generic and not chat and (named or role) and frame >= CHANGE_FRAME
        and not _departed(new, old)
        and (renamed or _comparable(new, old)) and _said_of_same(new, old)
        and (renamed or role or _attrs_named(new, old)
             or bool(_fine_kinds(old.values) & _fine_kinds(new.values)))
    )  # fmt: skip
    # the same verb of change ("switched", "moved", "replaced") says that something changed,
    # not what: it is no shared head ("switched to oat milk" / "switched to a standing desk")
    verb = new.head in cw.GENERIC_HEADS and (chat or new.head != "be")
    shared = bool(new.attrs & old.attrs - {""}) and not chat
    if heads and new.head == old.head == "be" and not _attrs_named(new, old):
        heads = False  # "We dropped LaunchDarkly" says nothing of "The user's name is Dana"
    # a class every owner has many of ("wants", "works", "job"): the same class says the same
    # attribute only with values of a kind ("wants drafts in Portuguese" / "wants emails signed
    # 'Cheers'" are two wishes; "prefers tabs" / "now prefers spaces" one)
    if (
        heads
        and new.head in _BROAD_HEADS
        and not (_comparable(new, old) and _known_alike(new, old))
    ):
        heads = False
    related = (heads and (not verb or shared)) or loose
    if not related and similar is not None and frame >= CHANGE_FRAME and not old.past:
        related = (chat or _said_of_same(new, old)) and (
            similar(_masked(new), _masked(old)) >= EMBED_SAME
        )
    if related and frame >= CHANGE_FRAME:
        return Verdict(SUPERSEDE, "change language" if heads else "a generic change", *values)
    return Verdict(OTHER, "another attribute")


# classes and light verbs every owner has many of: "wants", "works", a "job", "goes to" (yoga
# on Tuesdays, a coworking on Tuesdays and Thursdays), "has", "takes", "gets", "does"
_BROAD_HEADS = frozenset({"preference", "employer", "go", "goe", "have", "take", "get", "do"})


def _known_alike(new: Claim, old: Claim) -> bool:
    """Whether the values of known kind (:mod:`gazetteer`: a place, a language) the two claims
    give are of a kind: "in Portuguese" is no value "signed 'Cheers, Inês'" replaces."""
    kinds_new, kinds_old = _kinds_of(new.values, new.text), _kinds_of(old.values, old.text)
    return not (kinds_new or kinds_old) or bool(kinds_new & kinds_old)


# attributes a change must name: "We dropped LaunchDarkly" changes no name ("moved to Lisbon"
# does change where one lives, "switched to Neovim" what one prefers)
_NAMED_ONLY = frozenset({"name"})


def _attrs_named(new: Claim, old: Claim) -> bool:
    """Whether the new claim says something of the attribute the old one gives a value of
    when it is one a change must name (a name), or the old one gives none such."""
    named = old.attrs & _NAMED_ONLY
    return not named or bool(named & (new.attrs | _bag(new)))


# a place of a name of words, then the one it replaces: "meets at the Beacon Park gate
# instead of Hollow Lane field"
_PLACE_INSTEAD_RE = re.compile(
    r"\b(?:at|in|to|on)\s+(?:the\s+)?(?P<new>[A-Z][\w'’-]*(?:\s+[\w'’-]+){0,4}?)\s+"
    r"(?:instead of|rather than)\s+(?:the\s+)?(?P<old>[A-Z][\w'’-]*(?:\s+[\w'’-]+){0,4}?)"
    r"(?=[.,;!?]|\s[-–—]\s|$)"
)


def _phrase_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with a place of a name of words put right, where the newer note gives
    the one it replaces word for word ("Thursday group walk is Biscuit, Luna, Pepper and Otis,
    2pm, meeting at Hollow Lane field", then "… the Thursday group walk meets at the Beacon
    Park gate instead of Hollow Lane field": "…, meeting at Beacon Park gate"), said once."""
    m = _PLACE_INSTEAD_RE.search(new_text)
    if m is None:
        return None
    at = list(re.finditer(rf"(?<![\w-]){re.escape(m.group('old'))}(?![\w-])", old_text))
    if len(at) != 1 or m.group("new").lower() in old_text.lower():
        return None
    return old_text[: at[0].start()] + m.group("new") + old_text[at[0].end() :]


def in_place(new_text: str, old_text: str, names: frozenset[str] = frozenset()) -> str | None:
    """The older text with the one value the newer note names as replaced put right, when the
    older text says more than that fact ("payments-gateway runs locally on port 8443 and its
    Postgres on 5434", then "Correction: … Postgres is on 5435, not 5434": "… port 8443 and its
    Postgres on 5435"), or None: the newer note must name one old value ("from A to B", "(was
    A)", ", not A"), said once in the older text, and give one new value the older text lacks;
    the older text must hold another fact (two claims, or a list separator)."""
    if len(claims(old_text, names)) < 2 and not _MORE_RE.search(old_text):
        return None
    # ", not A" closes a clause: "… on 5435, not 5434 - 5434 is the test DB"
    parts = re.split(r"\s+[-–—]\s+|;\s+", new_text)
    corrected = set().union(*(_corrected(p) for p in parts))
    named = {p for phrase in _marked_old(new_text) for p in phrase} | corrected
    if not named:
        return _slot_put_right(new_text, old_text)
    if len(named) > 1:
        # a word the note says again with the new value names what changed, not the value:
        # "from Node 18.19 to Node 20.11" replaces "18.19"
        named = {p for p in named if sum(1 for t in tokens(new_text) if t.lower() == p) < 2}
    if len(named) > 1:
        return _phrase_put_right(new_text, old_text)
    if len(named) != 1:
        return None
    (gone,) = named
    at = list(re.finditer(rf"(?<![\w.-]){re.escape(gone)}(?![\w-]|\.\w)", old_text, re.I))
    plural = False
    if not at and gone in temporal.WEEKDAYS:  # "Monday, not Tuesday" for "on Tuesdays"
        at = list(re.finditer(rf"(?<![\w.-]){gone}s\b", old_text, re.I))
        plural = True
    if len(at) != 1:
        return None
    if _IT_RE.search(old_text, at[0].end()):
        return None  # "uses Zotero … and finds its Word plugin flaky": the rest is of Zotero
    if not any(map(str.isdigit, gone)) and (
        _in_longer_name(old_text, at[0].start(), at[0].end()) or _told_of_it(old_text, at[0].end())
    ):
        return None  # "LastPass Families" is no "Bitwarden Families"; "Bookings come in
        # through OpenTable; the commission is eating into margins": the rest is of OpenTable
    said = _pieces(tokens(old_text)) | {re.sub(r"['’]s$", "", w) for w in _pieces(tokens(old_text))}
    # the new values of the clauses that name the old one ("5434 is the test DB" says no new
    # value of it)
    told = " ".join(
        p for p in parts if gone in _corrected(p) or any(gone in ph for ph in _marked_old(p))
    )
    fresh = {
        v
        for v in _pieces(_strong_words(told))
        if v != gone and v not in said and re.sub(r"['’]s$", "", v) not in said
    }
    if len(fresh) != 1:
        return None
    (value,) = fresh
    if any(map(str.isdigit, value)) != any(map(str.isdigit, gone)):
        return None  # a number for a word is no value put right ("Sam's next primary 14 week")
    m = re.search(rf"(?<![\w.-]){re.escape(value)}(?![\w-]|\.\w)", new_text, re.I)
    if m is None:
        return None
    # another value the note gives in place of one the older text holds ("switched from
    # Xfinity to Sonic fiber; Sonic is $65/month" for "Xfinity, …, $79/month"): not one value
    # put right, the entry is replaced whole
    shape = {_shape_of(v) for v in _strong_words(old_text) - _strong_words(new_text)}
    if any(
        _shape_of(v) in shape and any(ch.isdigit() for ch in v)
        for v in _strong_words(new_text) - _strong_words(old_text) - {value.lower()}
    ):
        return None
    said = m.group(0) + ("s" if plural and m.group(0).lower() in temporal.WEEKDAYS else "")
    return old_text[: at[0].start()] + said + old_text[at[0].end() :]


# a part of an entry that speaks of what an earlier part named: "she files the VAT returns",
# "they deliver Tuesday to Saturday", "the commission is eating into margins"
_OF_IT_RE = re.compile(
    r"\s*(?:(?i:she|he|they|it|her|his|their|its|them)\b|(?i:the|this|that)\s+[a-z])"
)


def _in_longer_name(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is one word of a longer name: a capitalised word right
    after it ("LastPass Families", "Brixham Catch"), or right before it unless that word
    opens the text ("Green Valley" in "… from Green Valley"; after a sentence's stop too: the
    search meets the stop before the word's own start)."""
    if re.match(r" [A-Z]", text[end:]):
        return True
    before = re.search(r"(?:^|(?<=[.!?;:]\s)|(\S))\s*([A-Z][\w'’-]*) $", text[:start])
    return bool(before and before.group(1))


def _told_of_it(text: str, end: int) -> bool:
    """Whether the part of ``text`` after the one ending past ``end`` (parts between ";", a
    spaced dash and sentences) speaks of what that part named, by a pronoun or "the …"
    ("Accountant is Priya Shah at Ledgerline; she files the VAT returns"): a name put right
    would leave it told of another."""
    rest = text[end:]
    if _ASIDE_OF_IT_RE.match(rest):
        return True  # "Billing vendor is Adapty (we're on a trial account)": ours with Adapty
    m = re.search(r";\s+|\s[-–—]\s+|[.!?]\s+(?=[A-Z])", rest)
    return bool(m and _OF_IT_RE.match(rest[m.end() :]))


# an aside in brackets right after a name, told of our dealings with it
_ASIDE_OF_IT_RE = re.compile(
    r"\s*\((?i:we|we're|we’re|we've|we’ve|our|they|they're|they’re|their|it|it's|its)\b"
)


def sentence_put_right(
    new_text: str,
    old_text: str,
    names: frozenset[str] = frozenset(),
    similar: Callable[[str, str], float] | None = None,
    judge: Callable[[str, str], Verdict] | None = None,
) -> str | None:
    """The older text with the newer note in place of the one sentence of it the note
    replaces, when the older text says more ("Priya and Daniel Okafor's wedding is June 13 at
    Gray's Lodge. They're on the Gold package.", then "… so the Okafor wedding is pushed back to
    September 19": the package stays), or None: the older text has two sentences at least (or
    one of parts joined by ";"), the note replaces exactly one and none of the others (as
    ``judge`` reads a note and a sentence, the rules' :func:`relation` by default)."""
    parts, joint = lexical.sentences(old_text), " "
    if len(parts) < 2:
        # one sentence of parts: "Northside Physio (Sam Patel) uses Xero; year-end 30
        # September; payroll runs fortnightly" (the note is put in place of one part); a
        # note of parts itself only where it shares no word with the others ("Marco no longer
        # owns the eval harness; Dana took it over" for "Marco owns the eval harness; the repo
        # is …": the repo stays), not the entry said again with one part put right
        parts, joint = re.split(r";\s+", old_text.strip()), "; "
        if ";" in new_text and sum(bool(_content(p) & _content(new_text)) for p in parts) != 1:
            return None
    if len(parts) < 2 or len(lexical.sentences(new_text)) > 1:
        return None
    read = judge or (lambda new, part: relation(new, part, names, similar))
    verdicts = [read(new_text, part) for part in parts]
    hits = [k for k, v in enumerate(verdicts) if v.kind == SUPERSEDE]
    if len(hits) != 1:
        return None
    gone = verdicts[hits[0]].old_value
    if (
        gone
        and not any(map(str.isdigit, gone))
        and hits[0] + 1 < len(parts)
        and _OF_IT_RE.match(parts[hits[0] + 1])
    ):
        return None  # "Accountant is Priya Shah at Ledgerline; she files the VAT returns":
        # what follows is of the one replaced
    told = new_text.strip()
    heard = lexical.REPORTED_RE.match(told)  # who said it is the note's, not the entry's
    if heard and told[heard.end() :]:
        told = told[heard.end() :]
        told = told[:1].upper() + told[1:]
    if joint == "; ":  # a part: the entry's own end stays where it was
        told = told.rstrip(".!? ")
        k = hits[0]
        if temporal.tense(parts[k]) < 0:
            # what the part told of goes with it: "…upgraded to 16.2 over the weekend; no
            # downtime" (a part with no claim of its own, after a past one)
            end = k + 1
            while end < len(parts) and not claims(parts[end]):
                end += 1
            if end == len(parts):
                parts[k:] = [parts[-1]]  # the entry's own end stays
            else:
                parts[k + 1 : end] = []
            if len(parts) < 2:
                return None  # nothing else stays: the note takes the entry's place
        if hits[0] == len(parts) - 1:
            told += parts[-1][len(parts[-1].rstrip(".!?")) :]
    elif told[-1:] not in ".!?":
        told += "."
    return joint.join(told if k == hits[0] else part for k, part in enumerate(parts))


# what speaks of a thing named before it
_IT_RE = re.compile(r"\b(?:its|it|it['’]s)\b", re.I)


# a number as a value: "13", "75%", "$12.50", "7:30" (not a version's dots run on: "v2.3")
_SLOT_VALUE = r"[$€£]?\d[\d,.:]*(?:%|[ap]m\b)?"
_SLOT_GAP = r"(?:\s+(?:is|are|was|at|now|of|to|on|by|=)|:)*\s+"
_SLOT_RES = (  # the word before the number, and after it
    re.compile(rf"(?<![\w.$€£-])(?P<word>[A-Za-z][\w-]{{2,}}){_SLOT_GAP}(?P<value>{_SLOT_VALUE})"
               r"(?![\w-]|\.\d)"),
    re.compile(rf"(?<![\w.$€£-])(?P<value>{_SLOT_VALUE}){_SLOT_GAP}(?P<word>[A-Za-z][\w-]{{2,}})"),
)  # fmt: skip


def _slots(text: str) -> dict[str, set[str]]:
    """The numbers of ``text`` by the word beside them ("Postgres 13": postgres -> 13; "75%
    hydration": hydration -> 75%), the word's lemma as key (light words aside)."""
    out: dict[str, set[str]] = {}
    for rx in _SLOT_RES:
        for m in rx.finditer(text):
            word, value = m.group("word").lower(), m.group("value").rstrip(".,:")
            if word in cw.STOP or word in ("and", "or", "per", "every", "each"):
                continue
            out.setdefault(lemma(word), set()).add(value)
    return out


def _slot_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its one number the newer note gives anew beside the same word put
    right ("billing-api listens on port 8080 and runs on Postgres 13", then "… it's on
    Postgres 15 now": "… port 8080 and runs on Postgres 15"; "40 croissants and 12 loaves …,
    delivered by 7:30", then "55 croissants and 12 loaves a day"), or None: one pair of
    numbers only (old, new), each said once beside that word, the old once in the older text.
    Where the older text says the same of two people ("Noor's debit card ends 4417, Sam's
    debit card ends 2256"), only the part of the one the note names is read and put right."""
    start, end = _part_of_whom(new_text, old_text)
    part = old_text[start:end]
    old_slots, new_slots = _slots(part), _slots(new_text)
    pairs = set()
    for word in old_slots.keys() & new_slots.keys():
        olds, news = old_slots[word], new_slots[word]
        if len(olds) != 1 or len(news) != 1 or olds == news:
            continue
        (a,), (b,) = olds, news
        if _number_kind(a) != _number_kind(b):
            continue  # "75%" and "78%" are one kind, "2.5" and "5" too, "13" and "$15" two
        pairs.add((a, b))
    if len(pairs) != 1:
        return None
    ((a, b),) = pairs
    # the note gives nothing else anew: no other number ("closing time pushed to 11pm; last
    # orders at 10:30"), and no name where the entry has one it does not say ("should land
    # in my Revolut Business account, IBAN ending 0458" for "Wise, IBAN ending 7731")
    fresh = _strong_words(new_text) - _strong_words(part)
    gone = _strong_words(part) - _strong_words(new_text)
    if any(_digit(v) for v in fresh - _pieces([b])):
        return None
    lead, old_lead = _lead_name(new_text), _lead_name(part)
    if lead and old_lead and lead not in part.lower() and old_lead not in new_text.lower():
        return None  # "Zoom is on the Team plan, renewed on 2 March" is not Notion's renewal
    names = {v for v in fresh if not _digit(v)}
    if not any(_OWNS_RE.search(v) for v in gone):  # whose it is, when the entry names no one
        names = {v for v in names if not _OWNS_RE.search(v)}  # else ("Dad's follow-up clinic")
    if any(not _digit(v) for v in gone) and names:
        return None
    at = list(re.finditer(rf"(?<![\w.$€£-]){re.escape(a)}(?![\w]|\.\d)", part))
    if len(at) != 1:
        return None
    return old_text[: start + at[0].start()] + b + old_text[start + at[0].end() :]


_POSSESSIVE_RE = re.compile(r"\b([A-Z][a-z]+)['’]s\b")
_OWNS_RE = re.compile(r"['’]s$")


def possessors(text: str) -> set[str]:
    """The names ``text`` speaks of as someone's ("Noor's phone", "Farida's council tax")."""
    return set(_POSSESSIVE_RE.findall(text))


def _part_of_whom(new_text: str, old_text: str) -> tuple[int, int]:
    """The span of the older text's part about the one person the newer note names, when the
    older text speaks of several, each in a part of its own opening with their name ("Noor's
    debit card ends 4417, Sam's debit card ends 2256"); else the whole older text."""
    whole = (0, len(old_text))
    named = possessors(new_text)
    if not named:
        return _part_of_what(new_text, old_text)
    parts = _spans(old_text, r"[,;]\s+")
    whose = [possessors(old_text[a:b]) for a, b in parts]
    people = [w for w in whose if w]
    if len(people) < 2 or len(set().union(*people)) < 2:
        return whole
    hits = [p for p, w in zip(parts, whose, strict=True) if w & named]
    return hits[0] if len(hits) == 1 else whole


def _part_of_what(new_text: str, old_text: str) -> tuple[int, int]:
    """The span of the older text's part about the one thing the newer note names, when the
    older text says the same of several, each in a part of its own (split at ";" or a
    sentence's end) opening with its name ("HeLa cells at passage 12; HEK293T at passage 27",
    then "Split HeLa today, now at passage 15"); else the whole older text."""
    whole = (0, len(old_text))
    parts = _spans(old_text, r"[;.]\s+")
    if len(parts) < 2:
        return whole
    leads = [_lead_name(old_text[a:b]) for a, b in parts]
    if not all(leads) or len(set(leads)) < len(leads):
        return whole
    said = {w.lower() for w in tokens(new_text)}
    hits = [p for p, lead in zip(parts, leads, strict=True) if lead in said]
    return hits[0] if len(hits) == 1 else whole


def _spans(text: str, separator: str) -> list[tuple[int, int]]:
    """The (start, end) spans of the parts of ``text`` between matches of ``separator``."""
    cuts = [0, *(m.end() for m in re.finditer(separator, text)), len(text)]
    return [(a, b) for a, b in itertools.pairwise(cuts) if a < b]


def _lead_name(part: str) -> str:
    """The name a part of a text opens with: its first word written with a capital (anywhere:
    "iOS"), among its first two words, lowered ("" without one)."""
    for tok in tokens(part)[:2]:
        if any(ch.isupper() for ch in tok) and tok.lower() not in cw.STOP:
            return tok.lower()
    return ""


def _shape_of(value: str) -> str:
    return re.sub(r"\d", "9", value)


def _number_kind(value: str) -> str:
    """What a number is beside its digits: "$", "%", ":" of a time; a decimal point or a
    thousands comma is no kind of its own ("2.5" and "5" mg are one kind)."""
    return re.sub(r"(?<=9)[.,](?=9)", "", _shape_of(value)).strip("9")


# another fact beside one: "… on 9:30 and retro on Fridays", "…, not …"
_MORE_RE = re.compile(r"\band\b|[,;]\s")


def _nouns_apart(new: Claim, old: Claim) -> bool:
    """Whether each claim names an attribute noun the other never says ("Maya's standup at
    Globex moved to 9:30" / "Maya's time zone is now Mountain Time"): two attributes."""
    nouns_new, nouns_old = _nouns(new), _nouns(old)
    said_new = not nouns_new & (_bag(old) | set(old.seq))  # each names one of its own
    said_old = not nouns_old & (_bag(new) | set(new.seq))
    return bool(nouns_new and nouns_old) and said_new and said_old


def _departed(new: Claim, old: Claim) -> bool:
    """Whether the old claim says only what went ("Priya left Dropbox"): a change of another
    verb ("upgraded to a MacBook") holds no newer value of it."""
    return bool(old.values) and set(old.values) <= old.old and new.head != old.head


def _said_of_same(new: Claim, old: Claim) -> bool:
    """Whether a generic change ("switched", "moved", "replaced") may be of what the old claim
    says: the value it marks as replaced, if any, is the old claim's (the change "from Python"
    is not of "lives in Munich"), and, when the two share only the user as their owner, what
    the new claim says of the user is said in the old one ("switched to Go for the backend" is
    not about "moved to Munich", "changed my dentist" not about "replaced my bike"): the user
    owns everything they say of themselves, so that owner tells nothing of the attribute."""
    fresh = set(new.values) - new.old  # "from Mateus instead": no value marked old after all
    # "from January" says since when, not what was replaced
    gone = {v for v in new.old if not _fine_kinds([v]) & {"weekday", "time", "month"}}
    if gone and fresh and not gone & (set(old.values) | old.words | old.owner):
        return False
    person = {"user", new.speaker, old.speaker} - {""}
    if not new.owner & old.owner <= person:
        return True
    about = (new.owner - person) | new.qualifiers | new.words | _nouns(new)
    said = _bag(old) | set(old.seq) | _kind_nouns(old.values)
    return not about or bool(about & said)


def _nouns(c: Claim) -> set[str]:
    """The claim's attribute nouns (not its attribute classes)."""
    return {a for a in c.attrs if a not in cw.CLASSES and a not in cw.CLASS_OF}


def _implicit(new: Claim, old: Claim, frame: float, values: tuple[str, str]) -> Verdict:
    """The verdict without change language: a supersede needs the same head and a frame that
    differs only in values of the same kind, or a negation of the same statement."""
    if new.past or (old.past and not old.change):  # "moved to Munich" left a state behind
        return Verdict(OTHER, "an episode, not a state")
    if (
        new.head == old.head
        and frame >= IMPLICIT_FRAME
        and not (new.words ^ old.words)
        and (not new.values or _same_kind(new.values, old.values))
        # no value read, and what it is of named apart ("Ella Brooks' target grade in
        # chemistry is an A" is no new year group of "Ella Brooks is Year 12")
        and (new.values or not new.qualifiers - _bag(old) - set(old.seq))
        and (new.head != "be" or new.words or new.attrs - set(cw.CLASSES) or not new.speaker)
        and _when(new.values) == _when(old.values)
    ):
        return Verdict(SUPERSEDE, "a new value", *values)
    shared = new.words & old.words or set(new.values) & set(old.values)
    if (
        new.head == old.head
        and new.negated != old.negated
        and frame >= IMPLICIT_FRAME
        and shared
        and _denies(*((new, old) if new.negated else (old, new)))
    ):
        return Verdict(SUPERSEDE, "negation", *values)
    return Verdict(OTHER, "another attribute or value kind")


def _denies(negated: Claim, other: Claim) -> bool:
    """Whether what the negated claim denies is what the other says: a word of the few after
    its negation ("doesn't drink coffee") is said in the other ("drinks coffee every
    morning"); "prefers not to shoot rehearsal dinners" denies nothing of "wants two working
    bodies at every wedding, no exceptions"."""
    said = set(other.words) | set(other.values) | set(other.seq) | {other.head}
    for m in cw.NEGATION_RE.finditer(negated.text):
        after = [
            lemma(t)
            for t in tokens(negated.text[m.end() :])
            if t.lower() not in cw.STOP and t.lower() not in cw.ADVERBS and t.lower() != "anymore"
        ][:3]
        shared = set(after) & said
        # the verb alone is not what is denied when its object is another ("doesn't pay
        # council tax on a void" / "prefers to pay tradespeople by bank transfer")
        if shared and not (shared == {after[0]} and len(after) > 1):
            return True
    return False


_WHEN_KINDS = frozenset(("weekday", "time", "month"))


def _when(values: Iterable[str]) -> bool:
    """Whether ``values`` say when (a weekday, a time, a month): "Jordan is off Thursday" says
    nothing of what "Jordan uses Neovim" says, though both read as "be" with one word."""
    return bool(_fine_kinds(values) & _WHEN_KINDS)


_NUMBERISH_RE = re.compile(r"[\d.,:%]+(?:[a-z]{0,3}|/[a-z]+)")


def _comparable(new: Claim, old: Claim) -> bool:
    """With a generic verb ("moved to", "is now"), the two claims must give values of a kind:
    a number or a name for a number or a name, or words where the old one states a role."""

    def kinds(values: Sequence[str]) -> set[str]:
        # a rate is a number ("65/month", "£12/hr")
        return {("n" if _NUMBERISH_RE.fullmatch(v) else "w") for v in values}

    if new.values and old.values:
        # what the old claim says already ("rebooked his Bogotá flight for the 17th") is no
        # value of the new one
        said = _bag(old) - frozenset(old.values)
        fresh = [v for v in new.values if v not in new.old and v not in said] or list(new.values)
        # a time of the week or day for a value of no such kind, or the other way round:
        # "Production moved to eu-central-1" is not of "deploys are on Tuesdays" (a host or a
        # version may name what a plain name does: "Statuspage.io" / "Instatus")
        # (a value the other note says too, "Saturday hours" for "on Saturdays", is no change)
        said_new, said_old = new.text.lower(), old.text.lower()
        fine_new = _fine_kinds(v for v in fresh if v.rstrip("s") not in said_old)
        fine_old = _fine_kinds(v for v in old.values if v.rstrip("s") not in said_new)
        fine_new, fine_old = fine_new & _WHEN_KINDS, fine_old & _WHEN_KINDS
        if (fine_new or fine_old) and not fine_new & fine_old:
            return False
        return kinds(fresh) == kinds(old.values)
    if new.values or old.values:
        return bool(new.words & old.words)
    return old.head in ("role", "employer") or bool(new.words & old.words)


_WHEN_KINDS = frozenset(["weekday", "time", "month"])
_FINE = (
    ("weekday", re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?")),
    ("time", re.compile(r"\d{1,2}[:.]\d{2}(?:am|pm)?|\d{1,2}(?:am|pm)")),
    ("month", re.compile(r"jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|aug(?:ust)?|"
                         r"sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")),
    ("email", re.compile(r"[^@\s]+@[^@\s]+")),
    ("host", re.compile(r"(?:https?://)?[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:/\S*)?")),
    ("version", re.compile(r"v?\d+(?:\.\d+)+")),
)  # fmt: skip


def _fine_kinds(values: Iterable[str]) -> set[str]:
    """The kinds of values that name what they are on their own (a weekday, a time, a month, an
    email, a host, a version), unlike a bare number or a word."""
    return {k for v in values for k, rx in _FINE if rx.fullmatch(v)}


_KIND_NOUNS = {
    "email": {"email", "mail", "address"},
    "host": {"url", "host", "address", "domain", "site", "endpoint", "link", "server"},
    "time": {"time"},
    "weekday": {"day"},
    "month": {"date", "month", "day"},
    "version": {"version"},
}


def _kind_nouns(values: Iterable[str]) -> set[str]:
    return {n for k in _fine_kinds(values) for n in _KIND_NOUNS[k]}


def _subject_bag(c: Claim) -> frozenset[str]:
    return c.owner | c.qualifiers | {a for a in c.attrs if a not in cw.CLASSES}


def _names(c: Claim) -> set[str]:
    """The owner's names: words written capitalised in the claim (or "user")."""
    caps = _capitalised(c.text) | {c.speaker}
    return {o for o in c.owner if o in caps or o == "user"}


@functools.lru_cache(maxsize=1 << 14)
def _capitalised(text: str) -> frozenset[str]:
    return frozenset(lemma(t) for t in tokens(text) if t[:1].isupper())


def _personal(c: Claim) -> bool:
    return bool(c.whose) or _possessive(c.text)


@functools.lru_cache(maxsize=1 << 14)
def _possessive(text: str) -> bool:
    """A possessive subject ("Tom's email"): the attribute is the owner's own."""
    return bool(re.search(r"^\W*\w+['’]s\b|\b(?:his|her|their|my|our)\b", text, re.I))


def _bag(c: Claim) -> frozenset[str]:
    return c.owner | c.qualifiers | c.words | c.attrs | frozenset(c.values)


_OWNED_BY_RE = re.compile(r"\b(?:owned|held|run|managed|led) by\b", re.I)


def _crossed(new: Claim, old: Claim) -> Verdict:
    """Owners differ, but one's owner is in the other's predicate ("Maria owns the billing
    service" / "the billing service is now owned by Dev"): a change of the same relation when
    both name the same attribute class and the new one brings a value the old one lacks."""
    if _personal(new) or _personal(old):  # "Yusuf's email" belongs to Yusuf: no crossing
        return Verdict(OTHER, "another owner")
    if not new.old & (set(old.values) | old.words) and _things_apart(new, old):
        return Verdict(OTHER, "another thing of one kind")  # the billing / the search service
    # the same predicate of two owners is a handover only for a relation with one holder
    # ("Dev now leads the billing team"): two people may both prefer tea or live in Paris
    # (not "owned by the ops group" said of both: two things one holder holds, Notion and Zoom)
    held = "owner" in new.attrs & old.attrs and not (
        _OWNED_BY_RE.search(new.text) and _OWNED_BY_RE.search(old.text)
    )
    anchor = (
        (new.owner & _bag(old) and new.qualifiers <= _bag(old))
        # the old owner in the new predicate, not only as who is given something the old
        # claim does not say ("Handed the pager to Priya" is nothing of "Priya Raman
        # (payments lead) mobile: …")
        or (
            old.owner & _bag(new)
            and old.qualifiers <= _bag(new)
            and not (old.owner & _bag(new) <= set(new.values) and new.owner - _bag(old))
        )
        or (held and new.words and new.words == old.words)
    )
    named = bool(new.old & set(old.values))  # "replaced Jenkins with …" for "… on Jenkins"
    # "Bumped pytest to 8.2" for "the suite uses pytest 7.4": the new claim's owner is what
    # the old one says, and the values are of a kind
    said = [v for v in old.values if v not in new.owner]  # "targets Node 18" less "Node"
    acted = (
        bool(new.owner)
        and new.owner <= {old.head} | set(old.values)
        and bool(new.values)
        and _comparable(new, replace(old, values=tuple(said)))
        # not of two things: "Living room paint is now Hardwick White" is no new colour of
        # "Front door to be painted Farrow & Ball Railings"
        and not (_lemmas(new.qualifiers) - _lemmas(_bag(old)) and old.owner - _bag(new))
    )
    anchor = anchor or acted
    if not anchor or not (new.attrs & old.attrs or named or acted) or not (new.change or new.old):
        return Verdict(OTHER, "another owner")
    if new.additive and not new.old:
        return Verdict(OTHER, "an added fact")
    fresh = (frozenset(new.values) | new.owner | (new.words if named else frozenset())) - _bag(old)
    fresh -= new.old | ({old.head} | set(old.values) if acted else set())
    if not fresh:
        return Verdict(OTHER, "no new value")
    gone = (frozenset(old.values) | old.owner) - _bag(new)
    return Verdict(SUPERSEDE, "change language", " ".join(sorted(gone)), " ".join(sorted(fresh)))


def _lemmas(words: frozenset[str]) -> set[str]:
    return {lemma(w) for w in words}


def _masked(c: Claim) -> str:
    text = c.text
    for v in c.values:
        text = re.sub(re.escape(v), "something", text, flags=re.I)
    return cw.CHANGE_RE.sub("", text)


# an abbreviation said for a name in capitals ("JCS" for "Journal of Cell Science", "NHS" for
# "National Health Service"): its letters open the name's capitalised words, small words between
_ACRONYM_RE = re.compile(r"\b[A-Z]{2,6}\b")
_ACRONYM_GAP = r"(?:\s+(?:of|and|for|the|&|de|in|on|to)\s+|\s+)"


def _acronym_of(acronym: str, text: str) -> re.Match[str] | None:
    pattern = _ACRONYM_GAP.join(f"{letter}[a-z]+" for letter in acronym)
    return re.search(rf"\b{pattern}\b", text)


@functools.lru_cache(maxsize=1 << 16)
def _found_all(rx: re.Pattern[str], text: str) -> tuple[Any, ...]:
    """``rx.findall(text)``, cached: a sleep's currency reads each text once per pair it is in."""
    return tuple(rx.findall(text))


@functools.lru_cache(maxsize=1 << 16)
def _opening(rx: re.Pattern[str], text: str) -> re.Match[str] | None:
    """``rx.match(text)``, cached (as :func:`_found_all`)."""
    return rx.match(text)


def said_short(new_text: str, old_text: str) -> tuple[str, str]:
    """The two texts with a name one spells out and the other abbreviates said short in both
    ("The JCS deadline is now April 3" / "The Journal of Cell Science deadline is March 20":
    the second reads "The JCS deadline is March 20"), so they are read as of one thing."""
    for acronym in dict.fromkeys(_found_all(_ACRONYM_RE, new_text)):
        if acronym not in old_text and (m := _acronym_of(acronym, old_text)):
            old_text = old_text[: m.start()] + acronym + old_text[m.end() :]
    for acronym in dict.fromkeys(_found_all(_ACRONYM_RE, old_text)):
        if acronym not in new_text and (m := _acronym_of(acronym, new_text)):
            new_text = new_text[: m.start()] + acronym + new_text[m.end() :]
    return in_full(new_text, old_text)


def in_full(new_text: str, old_text: str) -> tuple[str, str]:
    """The two texts with a word said short in one ("moved temp flat to Rua do Norte 15") and
    in full in the other ("Temporary flat in Lisbon …") said in full in both."""
    for short in _shorts(new_text):
        full = _SHORT_WORDS[short]
        if re.search(rf"\b{full}\b", old_text, re.I):
            new_text = re.sub(rf"\b{short}\b", full, new_text)
    for short in _shorts(old_text):
        full = _SHORT_WORDS[short]
        if re.search(rf"\b{full}\b", new_text, re.I):
            old_text = re.sub(rf"\b{short}\b", full, old_text)
    return new_text, old_text


@functools.lru_cache(maxsize=1 << 14)
def _shorts(text: str) -> frozenset[str]:
    """The short forms of :data:`_SHORT_WORDS` ``text`` writes (cached: sleep asks it of one
    note against every entry)."""
    return frozenset(_SHORT_RE.findall(text))


# words often written short, and in full
_SHORT_WORDS = {
    "temp": "temporary", "info": "information", "admin": "administration", "dept": "department",
    "appt": "appointment", "govt": "government", "mgmt": "management", "cert": "certificate",
    "certs": "certificates", "approx": "approximately", "accom": "accommodation",
    "reg": "registration", "uni": "university", "exec": "executive", "quals": "qualifications",
}  # fmt: skip
_SHORT_RE = re.compile(rf"\b({'|'.join(_SHORT_WORDS)})\b")


# a note that is one thing's name and its value: "Incident bridge: meet.google.com/kvx-qwrt-pza",
# "Incident bridge is Zoom room 884-221-0937" (a short value, no clause of its own)
_LABEL_VALUE_RE = re.compile(
    r"^\s*(?:the\s+)?(?P<label>[A-Za-z][\w'’ -]{2,40}?)(?:\s+(?:is|are)\s+|:\s+)(?P<value>[^;,]+?)"
    r"[.!]?\s*$",
    re.I,
)
# after "is", a value named: "Zoom room 884-…", "4:00", "a Zoom link" (not "on the …", "based")
_NAMED_VALUE_RE = re.compile(r"(?:[A-Z0-9+$€£@#]|(?:a|an|the)\s)")
_CLAUSE_WORD_RE = re.compile(
    r"\b(?:is|are|was|were|has|have|had|will|would|can|could|and|but|or|not|no|now|also|"
    r"moved|changed|switched|new|again|until|since|from|every|each)\b|\?",
    re.I,
)


def _one_label(new_text: str, old_text: str) -> Verdict | None:
    """A new value of one thing named the same in both notes, each note no more than its name
    and a short value ("Incident bridge is Zoom room 884-221-0937", then, weeks later,
    "Incident bridge: meet.google.com/kvx-qwrt-pza"): whatever the values' kinds, one thing
    has one value here. None otherwise (a clause in the value: "Standup: Hana is out Friday"
    says no new value of "Standup: 9:30 daily"; a value said again, or a meeting's minutes)."""
    new, old = _opening(_LABEL_VALUE_RE, new_text), _opening(_LABEL_VALUE_RE, old_text)
    if new is None or old is None:
        return None
    label = new.group("label").strip().casefold()
    if label != old.group("label").strip().casefold() or label in cw.STOP:
        return None
    values = new.group("value").strip(), old.group("value").strip()
    if any(len(v.split()) > 6 or _CLAUSE_WORD_RE.search(v) for v in values):
        return None
    if any(":" not in m.group(0)[: m.start("value")] and not _NAMED_VALUE_RE.match(m["value"])
           for m in (new, old)):  # fmt: skip
        return None  # "is on the Starter plan", "is based in Auckland": what it is, no value
    if (
        _strong_words(values[0]) & _strong_words(values[1])
        or values[0].casefold() == values[1].casefold()
    ):
        return None  # the same value, or part of it, said again
    return Verdict(SUPERSEDE, "a new value", values[1], values[0])


def relation(
    new_text: str,
    old_text: str,
    names: frozenset[str] = frozenset(),
    similar: Callable[[str, str], float] | None = None,
) -> Verdict:
    """The strongest verdict between any claim of ``new_text`` and any of ``old_text``:
    ``supersede`` wins; ``same`` needs every claim of the new text restated. With ``similar``,
    where the rules find no update the embedding has a last word (:func:`_said_alike`); the
    learned model (analysis/update_model.py) reads what is left."""
    if _PLANNED_RE.match(new_text):
        return Verdict(OTHER, "an intention, not a fact")  # "Plan for next week: upgrade …"
    views = _VIEW_RE.match(new_text), _VIEW_RE.match(old_text)
    if views[0] and views[1] and views[0].group("who") == views[1].group("who"):
        # one person's two views of two things: "Sam thinks OpenTable isn't worth the
        # commission any more" is no newer view of the menu cards he thinks cramped
        of = relation(views[0].group("view"), views[1].group("view"), names, similar)
        if of.why in ("nothing shared", "another owner"):
            return of
    new_text, old_text = said_short(new_text, old_text)
    marked = _marked_old(new_text) or _corrected(new_text)
    named = _old_named(new_text, old_text) if marked else None
    if named is not None:
        return named
    if not marked and _tail_words(new_text):
        named = _word_corrected(new_text, old_text)
        if named is not None:
            return named
    if labels_apart(new_text, old_text):
        return Verdict(OTHER, "another labelled thing")  # "Freezer B" is not "Freezer A"
    labelled = _one_label(new_text, old_text)
    if labelled is None:  # "Treasurer: Graham Oakes. Receipts go to him.": its first sentence
        told = lexical.sentences(new_text)
        labelled = _one_label(told[0], old_text) if len(told) > 1 else None
    if labelled is not None:
        return labelled
    said_again = (  # "Saturday hours are 8:30am to 12:30pm"; a chat turn says who speaks
        None if _chat(new_text) or _chat(old_text) else restated(new_text, old_text)
    )
    if said_again is not None:
        return Verdict(SUPERSEDE, "a new value", *said_again)
    version = (
        _new_version(new_text, old_text)
        or _new_one(new_text, old_text)
        or _toggled(new_text, old_text)
        or _ended(new_text, old_text)
        or _resolved(new_text, old_text)
    )
    if version is not None:
        return version
    new_claims, old_claims = claims(new_text, names), claims(old_text, names)
    if not new_claims or not old_claims:
        return _said_alike(new_text, old_text, names, similar) or Verdict(OTHER, "no claim")
    if not _keys(tuple(new_claims)) & _keys(
        tuple(old_claims)
    ):  # nothing in common: cheap and common
        return _said_alike(new_text, old_text, names, similar) or Verdict(OTHER, "nothing shared")
    speakers = {c.speaker for c in new_claims}, {c.speaker for c in old_claims}
    if "" not in speakers[0] | speakers[1]:  # two chat turns
        if not speakers[0] & speakers[1]:
            return Verdict(OTHER, "another speaker")
        if not _topic(tuple(new_claims)) & _topic(tuple(old_claims)):
            return Verdict(OTHER, "nothing said of the same thing")
    verdicts = {(i, j): compare(n, o, similar) for i, n in enumerate(new_claims)
                for j, o in enumerate(old_claims)}  # fmt: skip
    for v in verdicts.values():
        if v.kind == SUPERSEDE:
            if v.why in _LOOSE and _another_thing_changed(new_text, old_text):
                return Verdict(OTHER, "another thing changed")
            replaced = {w for c in new_claims for w in c.old if not _timeword(w)}
            if v.why in _LOOSE and replaced and not any(w in old_text.lower() for w in replaced):
                # "prefers to start training with a small-sided game rather than drills": what
                # it replaces is no word of "wants match reminders the evening before"
                return Verdict(OTHER, "another value replaced")
            return v
    if all(
        any(verdicts[i, j].kind == SAME for j in range(len(old_claims)))
        for i in range(len(new_claims))
    ):
        return Verdict(SAME, "same value")
    return _said_alike(new_text, old_text, names, similar) or Verdict(OTHER, verdicts[0, 0].why)


# someone's view, told as theirs: "Sam thinks the new menu cards look cramped"
_VIEW_RE = re.compile(
    r"\s*(?P<who>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?) (?:thinks|feels|believes|reckons|finds)"
    r"(?: that)? (?P<view>\S.*)",
    re.S,
)


# a note labelled as a plan or a to-do: what is to be done, not what holds ("Plan for next week
# (week of 2026-11-09): upgrade billing-api to Python 3.12", "To-do: move the cron to 02:00")
_PLANNED_RE = re.compile(
    r"\s*(?:plan|plans|planned|todo|to-do|to do|next steps?|idea|proposal)\b[^:\n]{0,48}:", re.I
)


def _timeword(word: str) -> bool:
    """Whether a word says when (a month, a weekday, a number), not what: "from April"."""
    low = word.lower()
    return (
        low in temporal.MONTHS
        or low in temporal.WEEKDAYS
        or low.removesuffix("s") in temporal.WEEKDAYS  # "comes Wednesdays"
        or _digit(low)
    )


# what a verb of change acts on, when it names it: "switched dentists", "moved the standup"
_CHANGED_THING_RE = re.compile(
    r"\b(?:switched|changed|swapped|replaced|moved|migrated|updated|upgraded|bumped|pushed|"
    r"brought|postponed|rescheduled|delayed)\s+"
    r"(?:(?:the|our|my|her|his|their|its|a|an)\s+)?([a-z][a-z-]{2,})\b",
    re.I,
)
_LOOSE = frozenset({"change language", "a generic change"})


# words after a verb of change that name no thing: "pushed back again", "brought forward"
_PARTICLES = frozenset(["mind", "back", "forward", "forwards", "up", "down", "out", "off", "again"])


def _another_thing_changed(new_text: str, old_text: str) -> bool:
    """Whether the verb of change of ``new_text`` acts on a thing ``old_text`` never names:
    "Inês switched dentists: she sees Dr. Vasconcelos now, five minutes from the new flat"
    says nothing of where she lives ("flat" only places the dentist)."""
    said = _content(old_text)
    for m in _CHANGED_THING_RE.finditer(new_text):
        word = m.group(1).lower()
        if word in cw.STOP or word in cw.BOUNDARY or cw.change_word(word) or word in _PARTICLES:
            continue  # "moved to Lisbon", "switched back", "changed their mind", "pushed back"
        if re.match(r"\s+(?:to|into|for|with)\b", new_text[m.end() :]):
            continue  # "moved her accounts to Revolut": the rules read the value it got
        if lemma(word) not in said and word not in old_text.lower():
            return True
    return False


def _digit(text: str) -> bool:
    return any(ch.isdigit() for ch in text)


def _modified_apart(new_text: str, old_text: str, shared: frozenset[str]) -> bool:
    """Whether a word the two notes share follows a content word in each, the two different
    and each missing from the other note: two things of one kind ("car insurance" / "health
    insurance", "staging Kubernetes" / "runs Kubernetes" on the production cluster)."""
    content_new, content_old = _content(new_text), _content(old_text)
    at_new, at_old = _preceding(new_text), _preceding(old_text)
    for w in shared:
        mods_new = at_new.get(w, set()) & content_new - content_old
        mods_old = at_old.get(w, set()) & content_old - content_new
        if mods_new and mods_old:
            return True
    return False


def _preceding(text: str) -> dict[str, set[str]]:
    """Each word of ``text`` (lemmatised) -> the words right before it."""
    out: dict[str, set[str]] = {}
    toks = [lemma(t) for t in tokens(text)]
    for a, b in zip(toks, toks[1:], strict=False):
        out.setdefault(b, set()).add(a)
    return out


def _things_apart(new: Claim, old: Claim) -> bool:
    """Whether the new claim's subject is another thing of the old one's kind: a word of its
    owner follows a different modifier in each ("the billing service" / "the search
    service"). Not a verb ("migrate queries" / "the legacy Query API"), a newness word ("a
    new number" / "phone number") or a modifier inside the other ("lint" / "ESLint")."""

    def modifier(m: str) -> bool:  # not a verb ("bump sqlalchemy", "uses SQLAlchemy")
        return not (
            m in cw.NEWNESS or cw.change_word(m) or m in cw.GENERIC or m in cw.COPULA
            or m in cw.CLASS_OF or m in cw.VERB_BASE
        )  # fmt: skip

    content_new, content_old = _content(new.text), _content(old.text)
    at_new, at_old = _preceding(new.text), _preceding(old.text)
    for w in (new.owner | new.qualifiers) & content_new & content_old:
        mods_new = {m for m in at_new.get(w, set()) & content_new - content_old if modifier(m)}
        mods_old = {m for m in at_old.get(w, set()) & content_old - content_new if modifier(m)}
        if any(not (a in b or b in a) for a in mods_new for b in mods_old):
            return True
    return False


def _path_pieces(text: str) -> frozenset[str]:
    """The named pieces of the paths and URLs of ``text`` ("github.com/brightwater/route-planner":
    "brightwater", "route-planner"), lower case; no word of a plain sentence."""
    return frozenset(
        p
        for w in tokens(text)
        if "/" in w
        for p in _pieces([w])
        if len(p) > 2 and p not in cw.STOP and not p.replace(".", "").isdigit()
    )


def _pieces(words: Iterable[str]) -> frozenset[str]:
    """Values cut at slashes, currency signs and edge punctuation dropped ("$29/month" gives
    "29" and "month"), lower case."""
    return frozenset(
        p.strip(".,;:'\"()").lstrip("$€£").lower() for w in words for p in w.split("/")
    ) - {""}


@functools.lru_cache(maxsize=1 << 14)
def _marked_old(text: str) -> tuple[frozenset[str], ...]:
    """The values (numbers, identifiers, capitalised words; lower case, see :func:`_pieces`)
    of each phrase of a note that marks what it replaced, none for a chat turn or an
    intention (what will be done instead of something is settled, unless from a day to come).
    Cached per note: sleep asks it of one new note against every entry."""
    if _chat(text) or (
        cw.intended(text)
        and not cw.found(cw.DECIDED_RE, text)
        and not cw.SETTLED_INSTEAD_RE.search(text)
    ):
        return ()
    out = []
    changed = cw.found(cw.CHANGE_RE, text)
    for rx in (cw.OLD_VALUE_RE, cw.REPLACED_RE):
        for m in rx.finditer(text):
            if rx is cw.OLD_VALUE_RE and m.group(2) and not changed and to_an_act(text, m):
                continue  # "exported … from Xero to import into QuickBooks": no value replaced
            for g in m.groups():
                strong = _strong_words(g) if g else frozenset()  # "scripts/deploy.sh"
                told = tokens(g or "")
                named = _pieces(
                    t for t in told if t[:1].isupper() or _digit(t) or t.lower() in strong
                )
                if named:
                    out.append(named)
    # who no longer does it: "Priya is no longer doing our environment art; Tomas Berg takes
    # over" marks Priya as the value replaced
    for m in _NO_LONGER_WHO_RE.finditer(text):
        out.append(_pieces(tokens(m.group("who"))))
    return tuple(out)


_NO_LONGER_WHO_RE = re.compile(
    r"(?:^|[;.]\s+)(?P<who>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?) (?:is |are )?no longer "
    r"(?:doing|does|do|running|runs|handling|handles|leading|leads|covering|covers|works on|"
    r"working on|our|the|a|an)\b"
)


@functools.lru_cache(maxsize=1 << 12)
def _not_tails(text: str) -> tuple[str, ...]:
    """What a note's closing ", not A" corrects, per sentence or part of one between ";" ("the
    staging database is on port 5433, not 5432"); none for a chat turn or an intention."""
    # a note that calls itself a correction corrects a rule's figure too ("Correction: call the
    # team if ketones are above 1.0, not 1.5"), but not what only might be
    remark = lexical.DISCOURSE_RE.match(text)
    correction = remark is not None and remark.group(1) and not cw.HEDGE_RE.search(text)
    if _chat(text) or (cw.intended(text) and not cw.found(cw.DECIDED_RE, text) and not correction):
        return ()
    found = (  # a sentence's parts between ";" or a spaced dash too: "…, not 14-17 May; the
        # hosts misread …", "£1,100, not £900 - Jess sent the wrong draft"
        cw.NOT_TAIL_RE.search(part)
        for sentence in lexical.sentences(text)
        for part in re.split(r";\s+|\s+[-–—]\s+", sentence)
    )
    return tuple(m.group(1) for m in found if m)


def _corrected(text: str) -> frozenset[str]:
    """The values (numbers, names) a closing ", not A" corrects (:func:`_not_tails`)."""
    tails = _not_tails(text)
    return _pieces(t for tail in tails for t in tokens(tail) if t[:1].isupper() or _digit(t))


def _full_name_corrected(new_text: str, old_text: str) -> set[str]:
    """The words of a person's full name a closing ", not A B" corrects, where the older text
    says that name word for word and the two share a word besides names and days ("the officer
    of the day on 27 September is Jill Sayer, not Colin Barrett" for "OOD rota: Colin Barrett
    is officer of the day …"), else none: a full name is one person's, whoever the claims read
    as the subject."""
    for tail in _not_tails(new_text):
        words = tail.split()
        if len(words) < 2 or not all(w[:1].isupper() and w.isalpha() for w in words):
            continue
        if not re.search(rf"(?<![\w'’-]){re.escape(tail)}(?![\w'’-])", old_text):
            continue
        apart = {lemma(w.lower()) for w in words}
        shared = {
            w
            for w in _content(new_text) & _content(old_text)
            if w not in apart and not _timeword(w) and not temporal.day_name(w)
        }
        if shared:
            return {w.lower() for w in words}
    return set()


# a departure told of someone by name: "Tessa Grant left Soylent Labs", "Tom has quit Globex"
_LEFT_RE = re.compile(
    r"(?:^|[;.]\s+)(?P<who>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)*) (?:has |had )?(?:left|quit)\s+"
    r"(?P<what>(?:the )?[\w.&'’-]+(?: [A-Z][\w.&'’-]*)*)"
)


def _left_by_another(new_text: str, old_text: str) -> set[str]:
    """The values of what someone the old note does not name left: "Tessa Grant left Soylent
    Labs" names Soylent Labs as what Tessa left, no value replaced in "Omar Haddad is a data
    engineer at Soylent Labs"."""
    out: set[str] = set()
    for m in _LEFT_RE.finditer(new_text):
        who = {w.casefold() for w in m.group("who").split()}
        if not who & {w.casefold() for w in tokens(old_text)}:
            out |= _pieces(tokens(m.group("what")))
    return out


def _old_named(new_text: str, old_text: str) -> Verdict | None:
    """A note that names a value of an older one as what it replaced ("Upload cap raised from
    25 MB to 100 MB" for "Max upload size for attachments is 25 MB"; "Swapped Harbor for GitHub
    Container Registry" for "images are pushed to the Harbor registry"), whatever the two
    notes' subjects: the claims may read two owners ("upload cap", "attachments") where the
    notes speak of one thing. The named value must be a value of the old note (a number, an
    identifier, a name; three characters or more, or a digit), the two must share a content
    word besides it, the new note must bring a value of its own and state a fact (no
    intention), and the old one must state something that can go stale (not an event: every
    clause in the past tense). Notes only: chat turns never get here."""
    marked, corrected = _marked_old(new_text), _corrected(new_text)
    if not (marked or corrected) or _chat(old_text):
        return None
    values = _pieces(_strong_words(old_text))
    # a weekday said of every week is that weekday: "not Tuesday" for "on Tuesdays"
    values |= {v[:-1] for v in values if v[:-1] in temporal.WEEKDAYS}
    doers: frozenset[str] = frozenset()
    # a name the older note opens with is one of its values too ("Mark Ellis is running the
    # cake stall", for "… instead of Mark Ellis")
    opening = re.match(r"\s*((?:[A-Z][\w'’-]*\s+)+)", old_text)
    if opening and len(opening.group(1).split()) > 1:
        values |= _pieces(tokens(opening.group(1)))
    elif opening:
        # one word, a name where the newer note writes it capitalised past its start ("Jess
        # works the Saturday lunch shift", for "… instead of Jess"): not "Login is …"
        word = opening.group(1).strip()
        if re.search(rf"(?<=\w)\W+{re.escape(word)}\b", new_text):
            values |= _pieces([word])
            doer = re.match(r"\s*([A-Z][\w'’-]*)\s+(?:is|are|was|has|will|now)\b", new_text)
            if doer:  # "Tom is doing the Saturday lunch shift instead of Jess": Tom, the new one
                doers = _pieces([doer.group(1)])
    # every value of a phrase is the old note's ("Hotel Granvia" is not "Hotel Europa")
    gone = {p for named in marked if named <= values for p in named if len(p) >= 3 or _digit(p)}
    gone -= _left_by_another(new_text, old_text)
    gone = {p for p in gone if not _small_count_apart(p, new_text, old_text)}
    label = lexical.LABEL_RE.match(new_text)  # "Correction: U12 training is …": its body
    body = new_text[label.end() :] if label is not None and label.group(1) else new_text
    if not gone and corrected and _anchored(body, old_text, frozenset()):
        # "…, not 5432" corrects the value of the same subject only: "The API runs on Python
        # 3.11, not 3.12" says nothing of "The docs build uses Python 3.12"
        # each value corrected whole: ", not Van 2" names no "Van 1"
        gone = {
            p
            for tail in _not_tails(new_text)
            if (named := _pieces(t for t in tokens(tail) if t[:1].isupper() or _digit(t)))
            and named <= values
            for p in named
            if len(p) >= 3 or _digit(p)
        }
    if not gone and corrected:
        gone = _full_name_corrected(new_text, old_text)
    if not gone:
        return None
    shared = _content(new_text) & _content(old_text) - {lemma(p) for p in gone} - cw.UNITS
    fresh = (_pieces(_strong_words(new_text)) | doers) - values
    ours = _our_switch(new_text, old_text, gone)
    if not fresh or (shared and not ours and _modified_apart(new_text, old_text, shared)):
        return None
    if (
        not shared
        and not any(_BUILD_RE.fullmatch(p) for p in gone)
        and not ours
        and not _decided_instead(new_text, old_text, gone)
        and not _engaged_instead(new_text, old_text, gone)
    ):
        return None  # a build number is one thing's: "from Unity 2022.3.21f1 to 2022.3.45f1"
    told = claims(old_text)
    # an event's figure put right ("final invoice came in: £4,260" / "…'s final invoice is
    # £4,620, not £4,260") is the entry corrected; a past event otherwise stays what it was
    if (
        told
        and all(c.past for c in told)
        and not _ARRANGED_RE.match(old_text)
        and not (corrected and gone <= corrected)
    ):
        return None
    was, now = " ".join(sorted(gone)), " ".join(sorted(fresh))
    return Verdict(SUPERSEDE, "the old value named", was, now)


def _decided_instead(new_text: str, old_text: str, gone: set[str]) -> bool:
    """Whether the newer note settles on something in place of a name the older one gives as
    its value, for good ("Ordering Dalefoot peat-free compost instead of Melcourt from now on"
    for "Potting mix is Melcourt SylvaGrow"), though the two share no other word: the name is
    the older note's value (not who or what it is about) and no word of time marks one
    occasion."""
    if not (cw.found(cw.DECIDED_RE, new_text) and cw.found(cw.OLD_VALUE_RE, new_text)):
        return False
    told = claims(old_text)
    return bool(told) and gone <= set(told[0].values) and not gone & told[0].owner


def _engaged_instead(new_text: str, old_text: str, gone: set[str]) -> bool:
    """Whether the newer note takes on a provider in place of one the older note names as
    its provider ("Going with ActivoBank instead of Millennium BCP - no monthly fees" for
    "Opening the Portuguese bank account with Millennium BCP; …"), though the two share no
    other word: the older note says the replaced name after "with", "by", "at", "through" …
    (not "Millennium BCP's branch in Chiado opens at 8:30")."""
    m = _ENGAGED_RE.match(new_text)
    if m is None or not cw.found(cw.OLD_VALUE_RE, new_text) or _pieces([m.group("who")]) & gone:
        return False
    for n in _NAME_RE.finditer(old_text):
        if _pieces(tokens(n.group(0))) >= gone and _PROVIDED_BY_RE.search(old_text, 0, n.start()):
            return True
    return False


# an arrangement told as done, with no one doing it: "Crane for lift-out booked with Bayliss
# Lifting", "Venue confirmed: the Old Barn" (what stands, not an event: "We booked …" is one)
_ARRANGED_RE = re.compile(
    r"\s*(?!(?:we|i|they|he|she|you)\b)[A-Za-z][\w'’-]*(?:\s+(?!(?:was|were|had|has|have|is|are|"
    r"we|i|they|he|she)\b)[\w'’-]+){0,5}\s+(?:booked|confirmed|arranged|scheduled|reserved|"
    r"hired|contracted|agreed|ordered|assigned|set)\b(?!\s+(?:up|off|out)\b)",
    re.I,
)


# a switch told with no subject: what we did ("Switched from Zenfibre to Brightwave today")
_OUR_SWITCH_RE = re.compile(
    r"\s*(?:we\s+)?(?:switched|moved|changed|swapped|migrated|went)\s+(?:over\s+)?from\s"
    r"|\s*(?:we(?:['’]re| are)?\s+)?no longer (?:us(?:e|ing)|with)\s",
    re.I,
)


# a swap told with no subject: "Swapped Auth0 for Clerk across web and mobile", "Replaced
# Mailchimp with Buttondown"
_SWAP_OPEN_RE = re.compile(
    r"\s*(?:we(?:['’]ve| have)?\s+)?(?:swapped|replaced|ditched|traded)\s+(?:out\s+)?"
    r"(?:the\s+|our\s+)?[\w.@+-]+(?:\s+[\w.@+-]+)?\s+(?:for|with)\s+[\w$£€]",
    re.I,
)


def _our_switch(new_text: str, old_text: str, gone: set[str]) -> bool:
    """Whether the newer note tells of a switch of ours from a name the older one gives as the
    value of a thing of ours, no one's ("Our broadband is Zenfibre"; not "Dave lives in
    Leeds"), or that we no longer use it ("We're no longer using Casewise; Lawbase is live").
    The older note's first word is read as a name only when a capitalised word follows it
    ("Accountant is Priya Shah at Ledgerline" and "Login is handled by Auth0" are of a thing;
    "Dave Kirkby lives in Leeds" of someone)."""
    swap = bool(_SWAP_OPEN_RE.match(new_text))
    if not swap and not _OUR_SWITCH_RE.match(new_text):
        return False
    told = claims(old_text)
    if not told:
        return False
    first = told[0]
    words = tokens(old_text)
    said = {
        t.lower()
        for i, t in enumerate(words)
        if t[:1].isupper() and (i > 0 or (len(words) > 1 and words[1][:1].isupper()))
    }
    return gone <= set(first.values) and not (first.owner - {"user"}) & said


# a version with its build or patch letters ("2022.3.21f1", "1.4.2b3"), or dotted in three
# parts ("16.4.2"): one thing's, whatever else two notes share
_BUILD_RE = re.compile(r"v?\d+\.\d+(?:\.\d+[a-z]+\d*|\.\d+|[a-z]+\d+)")


def _small_count_apart(value: str, new_text: str, old_text: str) -> bool:
    """Whether ``value`` is a bare small number (one or two digits) that counts another thing
    in each note: the older note writes it alone, and no content word of the two after it there
    (what it counts) is said in the newer one ("replicas from 2 to 3" names no "2 failures";
    "reviews from 1 to 2" does name "requires 1 approving review")."""
    if not re.fullmatch(r"\d{1,2}", value):
        return False
    told = tokens(old_text)
    at = [i for i, t in enumerate(told) if t == value]
    counted = {lemma(w) for i in at for w in told[i + 1 : i + 3] if w.lower() not in cw.STOP}
    # a number that names, after the noun the newer note numbers too: "incubator 2" /
    # "incubator 5" (not a count)
    named = {told[i - 1].lower() for i in at if i > 0 and told[i - 1][:1].isalpha()}
    if any(re.search(rf"\b{re.escape(w)}\s+\d", new_text, re.I) for w in named):
        return False
    return bool(at) and not counted & _content(new_text)


# A name and its version: "Node 22", "Python 3.12", "Grafana v11", "ledger-api v1.6.0" (a name
# joined the way code names things), or a dotted or v-number a
# few words on that "to", "on" or "at" leads to ("Postgres upgraded to 16.2", "Postgres minor
# bump to 16.4"). A bare whole number counts only right after its name and after a word that
# says what something runs on ("are on Node 22", "bumped to Node 20"): "in Room 204", "Sprint
# 14" and "Nov 16" are no versions, nor a number something is counted in ("3.5 TB", "2 nodes").
_VERSION = r"v?\d+(?:\.\d+){1,2}|v\d+"
_NAMED_VERSION_RE = re.compile(
    # (what a build pins or targets: "now pins Postgres 16", "targets Java 17")
    r"(?P<lead>\b(?:on|to|with|uses?|using|runs?|from|pins?|pinned|targets?|targeting)\s+)?"
    r"\b(?P<name>[A-Z][A-Za-z][\w+#]*(?:\.js)?|[a-z]{2,}(?:[-_][a-z]{2,})+)"
    rf"(?:\s+(?P<near>{_VERSION}|\d+)|(?:\s+[a-z][\w-]*){{0,3}}?\s+(?:to|on|at)\s+(?P<far>{_VERSION}))"
    r"(?!\.?\d|[\w%:/$])(?:\s+(?P<after>[A-Za-z]+))?"
)
# numbered in a sequence, not versioned: "Release 2.3 shipped" stays true beside "Release 2.4"
_SEQUENCE_WORDS = """release version sprint chapter phase step stage round room floor building
level season episode part section issue ticket page gate terminal platform table lane route unit
week day year quarter batch cohort wave tier grade class"""
_SEQUENCE = frozenset(_SEQUENCE_WORDS.split())
_NOT_NAMES = frozenset(
    (*temporal.MONTHS, *(m[:3] for m in temporal.MONTHS), *temporal.WEEKDAYS, *_SEQUENCE)
)


# what an amount is measured in: "Vetmedin 5 mg" is a dose, not a version of Vetmedin
_MEASURE_WORDS = """mg mcg µg μg g kg ml l mmol iu ug lb lbs oz mm cm m km kb mb gb tb kw kwh w v
hz ghz mhz"""
_MEASURES = frozenset(_MEASURE_WORDS.split())


@functools.lru_cache(maxsize=1 << 12)
def _versions(text: str) -> dict[str, frozenset[str]]:
    """The versions ``text`` gives names (:data:`_NAMED_VERSION_RE`): lower-case name -> its
    versions, a leading "v" dropped."""
    out: dict[str, set[str]] = {}
    for m in _NAMED_VERSION_RE.finditer(text):
        name, value = m.group("name"), m.group("near") or m.group("far")
        low = name.lower()
        if low in _NOT_NAMES or low in cw.STOP or cw.change_word(low) or low in cw.VERB_BASE:
            continue
        if low.endswith("ed") and name[1:].islower():
            continue  # a verb opening a sentence: "Pinned numpy to 1.26.4"
        if (
            m.group("near")
            and "." not in value
            and not value.startswith("v")
            and not m.group("lead")
            and not low.endswith(".js")  # "Next.js 14" is a version
        ):
            continue  # "Sprint 14", "Room 204"
        after = (m.group("after") or "").lower()
        plural = after.endswith("s") and lemma(after) != after and after not in cw.STOP
        if after and (lemma(after) in cw.UNITS or plural or after in _MEASURES):
            continue  # counted in: "3.5 TB", "2 nodes", a dose ("Vetmedin 5 mg")
        out.setdefault(name.casefold(), set()).add(value.lstrip("v"))
    return {k: frozenset(v) for k, v in out.items()}


def _new_version(new_text: str, old_text: str) -> Verdict | None:
    """A new version of what an older note gives a version of: "CI base images are on Node 22"
    for "CI images bumped to Node 20", "Postgres minor bump to 16.4 done in the maintenance
    window" for "Postgres upgraded to 16.2 over the weekend". The name is the same, none of
    the new note's versions of it is the old note's, the new note states a fact (no intention,
    no question, no chat turn) and does not name the old version (the rules that read "from 16.2
    to 16.4" see it), and the two speak of one thing: the name opens both, or they share a
    content word besides it, not said of two different things ("The API runs on Python 3.11"
    is not "The docs build uses Python 3.12", nor "Bumped my laptop to Python 3.12")."""
    new_v, old_v = _versions(new_text), _versions(old_text)
    common = new_v.keys() & old_v.keys()
    if not common or "?" in new_text or _chat(new_text) or _chat(old_text):
        return None
    if cw.found(cw.ADDITIVE_RE, new_text):
        return None  # "We also run Postgres 15 for analytics": 14 still runs
    if cw.found(cw.MODAL_RE, new_text) and not cw.found(cw.DECIDED_RE, new_text):
        return None
    for name in sorted(common):
        if new_v[name] & old_v[name] or any(v in _pieces(tokens(new_text)) for v in old_v[name]):
            continue
        key = lemma(name)
        # the pieces of a path or a URL too: "route-planner" of "github.com/…/route-planner"
        shared = (_content(new_text) | _path_pieces(new_text)) & (
            _content(old_text) | _path_pieces(old_text)
        ) - {key, name}
        opens = all(next(iter(_ordered_content(t)), "") == key for t in (new_text, old_text))
        if _named_apart(new_text, old_text):
            continue  # "Daisy (Cavalier, Mrs Lowe) … is on Vetmedin 2.5 mg": not Rocky's dose
        if (
            not opens
            and not _changes_name(new_text, name)
            and (not shared or _modified_apart(new_text, old_text, shared))
        ):
            continue
        was, now = " ".join(sorted(old_v[name])), " ".join(sorted(new_v[name]))
        return Verdict(SUPERSEDE, "a new version", was, now)
    return None


def version_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with the one version the newer note gives anew put right, when the older
    text says more than that ("Brightwater's repo is github.com/…/route-planner — Django 4.2
    on Python 3.11", then "Bumped route-planner to Django 5.1": "… Django 5.1 on Python
    3.11"), or None: one name whose version differs, one version of it in each, said once."""
    new_v, old_v = _versions(new_text), _versions(old_text)
    changed = [n for n in new_v.keys() & old_v.keys() if not new_v[n] & old_v[n]]
    if len(changed) != 1 or len(old_v) < 2 and len(old_text.split()) < 8:
        return None
    (name,) = changed
    if len(new_v[name]) != 1 or len(old_v[name]) != 1:
        return None
    (was,), (now,) = old_v[name], new_v[name]
    at = list(
        re.finditer(
            rf"(?<![\w.]){re.escape(name)}\s+v?{re.escape(was)}(?![\w.]\d|\w)", old_text, re.I
        )
    )
    if len(at) != 1:
        return None
    m = at[0]
    head = old_text[m.start() : m.end() - len(was)]
    return old_text[: m.start()] + head + now + old_text[m.end() :]


# a release number: "v4.12.0", "4.12.0" (three parts, or two after a "v")
_RELEASE_RE = re.compile(r"(?<![\w.-])v?\d+\.\d+\.\d+(?![\w.]\w)|(?<![\w.-])v\d+\.\d+(?![\w.]\w)")
_IDENTIFIER_RE = re.compile(r"\b[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+\b")


def release_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its one release number put right, when each text gives one and
    both name the same service by an identifier ("checkout-api runs v4.12.0 in production and
    listens on port 8443", then "Rolled out checkout-api v4.13.2 to production": "…
    checkout-api runs v4.13.2 in production and listens on port 8443"), or None."""
    new_r, old_r = _found_all(_RELEASE_RE, new_text), _found_all(_RELEASE_RE, old_text)
    if len(set(new_r)) != 1 or len(old_r) != 1:
        return None
    if (
        temporal.tense(new_text) > 0
        or cw.found(cw.MODAL_RE, new_text)
        or _PLANNED_RE.match(new_text)
    ):
        return None  # "Next week we'll roll out v4.14.0": until then, v4.13.2 runs
    was, now = old_r[0], new_r[0]
    if was.lstrip("v") == now.lstrip("v"):
        return None
    ids_new, ids_old = set(_IDENTIFIER_RE.findall(new_text)), set(_IDENTIFIER_RE.findall(old_text))
    if len(ids_old) != 1 or ids_old != ids_new:
        return None  # one service in each, the same
    if _environments(new_text) != _environments(old_text):
        return None  # "to staging" is no new release of what runs in production
    if was.startswith("v") != now.startswith("v"):
        now = ("v" + now) if was.startswith("v") else now.lstrip("v")
    m = next(_RELEASE_RE.finditer(old_text))
    return old_text[: m.start()] + now + old_text[m.end() :]


# a provider taken on, told as what happened: "Signed with Medequip Vet Engineering today",
# "We hired Brightwave for the newsletter", "Went with Northgate Polytunnels for the re-skin"
_NAME = r"[A-Z][\w&'’.-]*(?:\s+(?:[A-Z][\w&'’.-]*|&|of)(?=[\s,.;:!?)-]|$))*"
_ENGAGED_RE = re.compile(
    # who took it on may open the note: "Maya signed with Postmark today for transactional email"
    r"^\s*(?:(?:(?i:we|I)|[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)\s+(?i:have\s+|has\s+|['’]ve\s+)?)?"
    # (someone signed up: "Signed Maya up with Riverside Tennis Club", "signed Marlow Dental up
    # with Smart Pension")
    r"(?i:signed(?:(?P<whom>(?-i:\s+[A-Z][\w'’-]*){1,2})\s+up|\s+up)?\s+with|went\s+with|"
    r"going\s+with|hired|engaged|contracted|appointed|brought\s+in|took\s+on|chose|picked|"
    # "We've gone over to Harbourline for bookings"
    r"(?:gone|went|switched|moved|changed)\s+over\s+to|switched\s+to|changed\s+to)\s+"
    # a name, or one written in lower case ("Signed with exali today for …") before what
    # follows it at once
    rf"(?:the\s+)?(?P<who>{_NAME}|(?!(?:them|him|her|us|it|you|me|my|our|their|his|a|an|the|"
    r"up|out|off|in|on|over|back|down|both|all|one|some|this|that|these|those)\b)"
    r"[a-z][\w&'’.-]*(?=\s+(?:today|yesterday|this\s+\w+|for|to)\b))"
)
# a provider's own terms signed or accepted: "Signed Hartwell Consulting's appointment …",
# "Accepted Dunn Plumbing's quote"
_SIGNED_THEIRS_RE = re.compile(
    r"^\s*(?:(?i:we|I)\s+(?i:have\s+|['’]ve\s+)?)?(?i:signed|accepted)\s+"
    r"(?P<who>[A-Z][\w&.-]*(?:\s+(?:[A-Z][\w&.-]*|&|of))*)['’]s\s+"
    r"(?i:appointment|contract|agreement|engagement(?:\s+letter)?|terms|quote|proposal)\b"
)
# the words of what a provider is engaged for that name no thing: "linen service", "rose order"
_SERVICE_WORDS = frozenset(
    (  # noqa: SIM905
        "service services order orders supplier suppliers supply work hire contract account "
        "provider providers cover delivery deliveries agency agencies firm company"
    ).split()
)
# what is done moved to another provider: "We switched our linen service to Brightwash",
# "Moved our rose order over to Aalsmeer Direct" (what moved is what it takes over)
_SWITCHED_TO_RE = re.compile(
    r"^\s*(?:(?i:we|I)(?:\s+(?i:have)|['’]ve)?\s+)?"
    r"(?i:switched|moved|changed|transferred|swapped|shifted)\s+(?:(?i:our|my)\s+)?"
    r"(?:(?i:the)\s+)?(?!(?:a|an|it|them|him|her)\b)"
    r"(?P<what>[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,2}?)\s+(?i:over\s+)?to\s+(?:the\s+)?"
    r"(?!(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|(?:Jan|Febr)uary|March|April|May|June|July"
    r"|August|(?:Septem|Octo|Novem|Decem)ber)"
    rf"(?P<who>{_NAME})"
)
_NAME_RE = re.compile(rf"(?<![\w'’]){_NAME}")
_CLAUSE_END_RE = re.compile(r"[.;]\s|[.;]?$")
_CLAUSE_START_RE = re.compile(r"[.;]\s")
# what a provider taken on will do: the verb after "she'll", "they", "to" ("she'll translate")
_DOES_RE = re.compile(r"\b(?i:I|we|you|he|she|they|it|to|will|['’]ll)\s+([a-z][a-z-]+)")


def _digits(text: str) -> bool:
    """Whether ``text`` gives a figure (a date sleep wrote aside)."""
    return any(ch.isdigit() for ch in cw.RESOLVED_RE.sub("", text))


# a place a note names after a preposition: "deliver to Leeds", "from the Estonian"
_PLACE_SAID_RE = re.compile(r"\b(?i:to|in|at|from|near|into)\s+(?:the\s+)?([A-Z][\w'’-]*)")
ENGAGED_SHARED = 2  # content words the two share besides the names and what is done
# what a provider taken on takes over from the one before: "they take over all our fish",
# "they'll do all our butchery"
_TAKE_OVER_RE = re.compile(
    r"\b(?:(?:take|takes|taking|took|taken)\s+over|all\s+(?:of\s+)?(?:our|my|the))\s+"
    # what is taken over, up to its clause's end: not "starting next week" after a comma
    r"(?P<what>[^.;:!?,(]+)",
    re.I,
)


def provider_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its provider put right, when the newer note tells of taking on
    another one for what the older one says of ("Signed with Medequip Vet Engineering today -
    they take over all our equipment servicing" for "Equipment servicing contract is with
    Pennine Vet Services (x-ray, …)"): :data:`ENGAGED_SHARED` content words at least are
    shared besides what it will do and when, and the older one's provider (the one it takes
    on, else a name said "by", "with", "at" … after what is done or a shared word, in that
    word's clause) is no name the newer note says. Where both give figures, the newer note is
    the entry ("… £910 including hot-spot tape" for "… their quote is £840"); else None."""
    m = _ENGAGED_RE.match(new_text) or _SIGNED_THEIRS_RE.match(new_text)
    if m is None and (m := _SWITCHED_TO_RE.match(new_text)) is not None:
        # where the entry gives the one left "at" or "in", that place put right first: "Switched
        # the camera package to Northlight Cine" for "… is on hold at Lumen Rentals"
        placed = _moved_named_place(new_text, old_text)
        if placed is not None:
            return placed
    if m is None or "?" in new_text or labels_apart(new_text, old_text):
        return None
    if _numbered_apart(new_text, old_text):
        return None  # "… take over managing Flat 2" is nothing of Flat 1's mortgage
    who = m.group("who").strip()
    if who.endswith(".") and len(who.split()[-1]) > 4:
        who = who[:-1]  # the sentence's full stop, not a name's ("Brennan Waste.", "Co.")
    if who.casefold() in old_text.casefold():
        return None  # the same provider said again
    rest = new_text[m.end() :]
    does = {_stem(v) for v in _DOES_RE.findall(rest)}
    # what is shared, the provider's name too where it says what it provides ("Keel & Co
    # Insurance" for "Club insurance … is with Harbour Mutual")
    # not a place the note names ("… they can deliver to Leeds" is no new venue
    # of "Tour opens at the Brudenell Social Club in Leeds"), nor when: "Oct" shares no service
    named = {lemma(t) for t in _PLACE_SAID_RE.findall(rest)} - _content(who)
    said = set(_content(old_text))
    shared = {  # what it is for, in another form too: "transcription" for "transcripts"
        w
        for w in _content(rest) | _content(who)
        if (w in said or w in _content(rest) and said_loosely(w, said))
        and _stem(w) not in does
        and not _when_word(w)
        and w not in named
    }
    # whom it was signed up for, where the entry names them too ("signed Marlow Dental up with
    # Smart Pension" for "Marlow Dental's workplace pension is with NEST")
    shared |= _content(m.groupdict().get("whom") or "") & said
    # the trade a provider's name says, for the trade the entry names ("Brightwire Electrical"
    # for "Electrician for the rewire", "Dunn Plumbing" for "Plumber")
    shared |= {w for w in _content(who) if any(_trade_alike(w, x) for x in _content(old_text))}
    # what it takes over, said in the entry, is enough alone: "they take over all our fish"
    # for "Fish comes from Brixham Catch …"
    over = _TAKE_OVER_RE.search(rest)
    moved = m.groupdict().get("what") or ""  # what was moved to it: "our linen service"
    if moved and not all(
        w in said or said_loosely(w, said) for w in _content(moved) - _SERVICE_WORDS
    ):
        return None  # "Switched our inner tube supplier to …" is nothing of where "Shimano
        # warranty claims go through"
    shared |= {w for w in _content(moved) if w in said or said_loosely(w, said)}
    if (
        len(shared) < ENGAGED_SHARED
        and not (over and shared & _content(over.group("what")))
        and not {lemma(w) for w in _content(moved)} & {lemma(w) for w in said}
    ):
        return None  # "Kadri Tamm is translating the Estonian anthology": another book
    told = tokens(old_text)  # the first word counts, unless a name goes on ("Night Ferry")
    plain = {
        lemma(t)
        for i, t in enumerate(told)
        if t.islower() or (i == 0 and not (told[1:2] and told[1][:1].isupper()))
    }
    if not shared & plain and not does & {_stem(t) for t in tokens(old_text)}:
        return None  # only names shared, no service: "Going with Brook & Lacey as estate agent
        # for Larch Close" is no new insurer of "… insurance for Larch Close is with Direct Line"
    whose = {n.lower() for m in WHOSE_RE.finditer(rest) for n in m.groups() if n}
    if shared <= whose:
        return None  # only whose it is shared: "… for Priya & Daniel's florals" is no new
        # venue of their wedding
    names_new = {lemma(t) for t in tokens(new_text) if t[:1].isupper()}
    for start, end in _provider_spans(old_text, does, shared):
        if m.re is _SWITCHED_TO_RE and len(_spans_of(old_text[start:end], old_text)) > 1:
            return new_text  # the one left said again as a place ("Van fuel cards are Shell -
            # fill up at the Shell on Cross Lane"): the note takes the entry's place
        if all(lemma(t) in names_new for t in tokens(old_text[start:end])) and not _leaving(
            old_text[start:end], who, rest
        ):
            continue  # "Night Ferry", "Tallinn": what the newer note is about too
        if _digits(rest) and _digits(old_text):
            return new_text  # its own figures: "35 rooms, £129/night" for "40 rooms held"
        if m.re is _SWITCHED_TO_RE and _PERSON_TOLD_RE.search(old_text, end):
            return None  # a person told of, not a provider: "Priya Shah does all the colour
            # work, she's the salon's colourist" keeps her for "Switched our colour account
            # over to Halden Pro"
        if m.re is _SWITCHED_TO_RE and not old_text[:start].strip():
            return new_text  # the entry opens with the one left, and what it says is theirs:
            # "Fresh Start Catering supply our hot school dinners", then "We've switched our
            # school dinner supplier to Brightmeals from today"
        if _makes_apart(rest, old_text[:start] + old_text[end:]):
            return new_text  # its own makes: "two Konica Minolta MFPs" for "two Ricoh MFPs"
        if _told_of_it(old_text, end):
            return new_text  # "…; they deliver Tuesday to Saturday": of the old provider
        return old_text[:start] + who + old_text[end:]
    return None


# a person, said of after their name: "…, she's the salon's colourist", "his mobile"
_PERSON_TOLD_RE = re.compile(r"\b(?:she|he|her|his|she['’]s|he['’]s|him)\b", re.I)


def _spans_of(name: str, text: str) -> list[re.Match[str]]:
    """Where ``text`` says ``name``, whole words."""
    return list(re.finditer(rf"(?<![\w'’-]){re.escape(name)}(?![\w'’-])", text))


def _leaving(provider: str, who: str, rest: str) -> bool:
    """Whether the note taking on ``who`` speaks of the provider before as the subject of a
    clause of its own, past what ``who`` shares of its name ("Signed with Crestwood Dental Lab
    today; Meridian will only finish the cases they already have", for "Meridian Dental
    Lab"): the one it leaves, not what the new one works on ("she'll translate Night Ferry")."""
    own = [t for t in tokens(provider) if lemma(t) not in {lemma(w) for w in tokens(who)}]
    if not own:
        return False
    name = r"\s+".join(re.escape(t) for t in own)
    return bool(
        re.search(rf"(?:^|[.;:]\s+|\s[-–—]\s+){name}(?:['’]s)?\s+(?!and\b|or\b)[a-z]", rest)
    )


# a thing named by a word and its number: "Flat 2", "Plot 7", "Room 4B"
_NUMBERED_RE = re.compile(r"\b([A-Z][a-z]+) (\d{1,3}[A-Z]?)\b(?![:.,]\d)")


def _numbered_apart(new_text: str, old_text: str) -> bool:
    """Whether the two texts name things by the same word with other numbers only ("Flat 2"
    and "Flat 1")."""

    def numbers(text: str) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for word, number in _NUMBERED_RE.findall(text):
            out.setdefault(word, set()).add(number)
        return out

    new, old = numbers(new_text), numbers(old_text)
    return any(not new[w] & old[w] for w in new.keys() & old.keys())


def numbered_apart(new_text: str, old_text: str) -> bool:
    """:func:`_numbered_apart` of the things each names by a number, not said as where
    something is ("moved into Unit 11" gives a place, it names no other thing)."""

    def unplaced(text: str) -> str:  # a month's day is a day ("October 16"), no label
        return "".join(
            " "
            if _PLACED_BEFORE_RE.search(text, 0, m.start()) or temporal.day_name(m.group(0))
            else m.group(0)
            for m in re.finditer(r"\S+\s*|\s+", text)
        )

    return _numbered_apart(unplaced(new_text), unplaced(old_text))


def _makes_apart(new_text: str, old_text: str) -> bool:
    """Whether each text names, past its first word, something capitalised the other does not
    say."""

    def names(text: str) -> set[str]:
        return {t.lower() for t in tokens(text)[1:] if t[:1].isupper() and t.lower() not in cw.STOP}

    new, old = names(new_text), names(old_text)
    return bool(new - {t.lower() for t in tokens(old_text)}) and bool(
        old - {t.lower() for t in tokens(new_text)}
    )


# whose a thing is: "Priya & Daniel's", "Maya's"
WHOSE_RE = re.compile(r"\b([A-Z][a-z]+)(?:\s+(?:&|and)\s+([A-Z][a-z]+))?['’]s\b")


TRADE_PREFIX = 5  # letters two words of one trade open with alike ("plumb-ing", "plumb-er")
_TRADE_ENDINGS = ("al", "ian", "ing", "er", "ers", "ry", "ist", "ists")


def _trade_alike(a: str, b: str) -> bool:
    """Whether two different words name one trade: the same opening of TRADE_PREFIX letters
    or more, each then ending in a trade's ending or nothing ("electrical" and "electrician",
    "plumbing" and "plumber"; not "station" and "stationery", nor "election")."""
    a, b = a.lower(), b.lower()
    if a == b:
        return False
    n = len(os.path.commonprefix([a, b]))
    return n >= TRADE_PREFIX and all(
        w[n:] == "" or w[n:] in _TRADE_ENDINGS or w[n - 1 :] in _TRADE_ENDINGS for w in (a, b)
    )


def _stem(word: str) -> str:
    """A word's lemma without a final "e": "translate" and "translated" are one."""
    return lemma(word.lower()).removesuffix("e")


def _provider_spans(text: str, does: set[str], shared: set[str]) -> list[tuple[int, int]]:
    """Where ``text`` may name its provider, likeliest first: the one it takes on, else the
    names after what is done ("translated … by Kadri Tamm"), else after the first shared word
    ("servicing contract is with Pennine Vet Services"), each in that word's clause."""
    m = _ENGAGED_RE.match(text) or _SIGNED_THEIRS_RE.match(text) or _SWITCHED_TO_RE.match(text)
    if m:
        return [m.span("who")]
    words = [(t.group(0), t.end()) for t in re.finditer(r"[\w'’-]+", text)]
    for anchors in (does, {_stem(w) for w in shared}):
        at = next((end for word, end in words if _stem(word) in anchors), None)
        if at is not None:
            stop = _CLAUSE_END_RE.search(text, at)
            begun = max((m.end() for m in _CLAUSE_START_RE.finditer(text, 0, at)), default=0)
            # after the word, else before it in its clause ("We use Rev for interview
            # transcripts")
            found = [
                *_NAME_RE.finditer(text, at, stop.start() if stop else len(text)),
                *(_NAME_RE.finditer(text, begun, at) if anchors is not does else ()),
            ]
            # a provider is said "by", "with", "is" …: "translated … by Kadri Tamm" (not
            # "Night Ferry grant confirmed, Small Gods due …", a list)
            spans = [
                n.span()
                for n in found
                if _PROVIDED_BY_RE.search(text, 0, n.start())
                and not any(_when_word(t) for t in tokens(n.group(0)))
            ]
            if spans or anchors is does:
                return spans
            break
    # the name the entry opens with, doing what is shared: "Hartwell Lettings manage Flat 2
    # for us" (not "Flat 2 is …": a shared word is no provider)
    opener = _OPENING_NAME_RE.match(text)
    if opener and not {_stem(w) for w in tokens(opener.group("name"))} & {_stem(w) for w in shared}:
        stop = _CLAUSE_END_RE.search(text, opener.end())
        clause = text[opener.end() : stop.start() if stop else len(text)]
        if {_stem(w) for w in _content(clause)} & {_stem(w) for w in shared}:
            return [opener.span("name")]
    return []


# a name of two words or more an entry opens with, then a verb of what it does ("manage",
# "are doing"; not "is", "has")
_OPENING_NAME_RE = re.compile(
    r"\s*(?P<name>[A-Z][\w&'’-]*(?:\s+[A-Z][\w&'’-]*){1,3})\s+"
    r"(?:(?:is|are)\s+[a-z]+ing\b|(?!is\b|are\b|was\b|were\b|has\b)[a-z]+s?\b)"
)


_PROVIDED_BY_RE = re.compile(
    # (what is sent out to one: "Bed linen and towels go to CleanLine Textilservice")
    r"\b(?:by|with|is|are|at|from|via|through|uses?|using|on|"
    r"(?:go|goes|going|went|sent|send|sends)\s+(?:out\s+)?to)\s+(?:the\s+)?$",
    re.I,
)


def _when_word(word: str) -> bool:
    """A month or a weekday, in full or short ("oct", "wed"), or a number."""
    low = word.lower().rstrip(".")
    return (
        _timeword(low)
        or low in temporal.SHORT_MONTHS
        or low in temporal.SHORT_WEEKDAYS
        or low.removesuffix("s") in temporal.WEEKDAYS
    )


_ENV_NAMES = {"prod": "production", "stage": "staging", "dev": "development"}


def _environments(text: str) -> set[str]:
    return {_ENV_NAMES.get(e, e) for e in _ENV_RE.findall(text.lower())}


# a switch's state: "is off", "enabled", "=true"; and a switch thrown: "Turned on", "disabled"
_ON_WORDS = frozenset({"on", "enabled", "true", "active"})
_OFF_WORDS = frozenset({"off", "disabled", "false", "inactive"})
_STATE_RE = re.compile(r"\b(on|off|enabled|disabled|true|false|active|inactive)\b", re.I)
_THROWN_RE = re.compile(
    r"\b(?:turned|switched|flipped|toggled|set)\s+(on|off)\b|\b(enabled|disabled|re-?enabled)\b"
    r"|=\s*(true|false|on|off)\b",
    re.I,
)


_FLAG_RE = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:[._][A-Za-z0-9]+)+\b")
_ENV_RE = re.compile(r"\b(prod|production|staging|stage|dev|development|test|qa|local|sandbox)\b")


@functools.lru_cache(maxsize=1 << 14)
def _flags(text: str) -> frozenset[str]:
    """The names a switch may go by: words joined by a dot or an underscore."""
    return frozenset(m.group(0).lower() for m in _FLAG_RE.finditer(text))


def _env(word: str) -> str:
    return {"production": "prod", "stage": "staging", "development": "dev"}.get(word, word)


def _state(word: str) -> str:
    w = word.lower().removeprefix("re-").removeprefix("re")
    return "on" if w in _ON_WORDS or w == "enabled" else "off"


def _toggled(new_text: str, old_text: str) -> Verdict | None:
    """A switch the older note gives a state of, thrown the other way: "Turned on
    billing.async_invoices in production" for "The billing.async_invoices feature flag is off
    in production"; "FEATURE_X=true" for "FEATURE_X=false". The two share an identifier (a
    flag's name: a word with a dot, an underscore or capitals and digits), the newer note
    throws it (no intention, question or chat turn) and the older says the other state."""
    if "?" in new_text or _chat(new_text) or _chat(old_text):
        return None
    if cw.found(cw.MODAL_RE, new_text) and not cw.found(cw.DECIDED_RE, new_text):
        return None
    flags = _flags(new_text) & _flags(old_text)
    if not flags:
        return None
    thrown = {_state(next(g for g in m.groups() if g)) for m in _THROWN_RE.finditer(new_text)}
    said = {_state(m.group(1)) for m in _STATE_RE.finditer(old_text)}
    if len(thrown) != 1 or len(said) != 1 or thrown == said:
        return None
    places = _ENV_RE.findall(new_text.lower()), _ENV_RE.findall(old_text.lower())
    if all(places) and not {_env(p) for p in places[0]} & {_env(p) for p in places[1]}:
        return None  # "turned on … in staging" says nothing of production
    (now,) = thrown
    was = "on" if now == "off" else "off"
    return Verdict(SUPERSEDE, "a switch thrown", was, now)


# a thing that holds no more, said of it by name: "Cancelled Netflix today", "Walter stopped
# taking simvastatin", "Dr. Shah stopped Walter's simvastatin", "The PureGym membership is
# cancelled"; group "thing" holds what ended (at most four words, up to a preposition or a
# clause's end)
_NOT_THING = (
    r"(?!(?:to|at|on|for|from|by|in|with|after|because|since|and|but|as|today|yesterday|this|"
    r"last|so|early|late|down|up|out|off|is|are|was|were|their|its|his|her|our)\b)"
)
_THING = rf"(?P<thing>{_NOT_THING}\w[\w'’.&-]*(?: {_NOT_THING}\w[\w'’.&-]*){{0,3}})"
_ENDED_RES = (
    re.compile(
        r"\b(?i:(?P<sure>cancell?ed|discontinued|unsubscribed from|"
        r"stopped (?:taking|using|paying for|seeing|going to|attending)|"
        r"no longer (?:takes?|uses?|has|have|pays? for|sees?|goes to|attends?|subscribes? to))"
        r"|terminated|ended|closed|quit|stopped|ditched|scrapped|binned|got rid of|"
        r"dropped(?!(?:\s+[\w'’]+){0,3}?\s+(?:at|off)\b))"  # not "Dropped Zara at ballet"
        r"\s+(?:(?:the|our|my|his|her|their|its|(?P<whose>[A-Z][\w-]*['’]s))\s+)?" + _THING,
    ),
    re.compile(
        r"(?:^|[.;:,]\s+|\b(?:as|because|since|now that)\s+)"
        r"(?:the |our |my |his |her |their |[A-Z][\w-]*['’]s )?"
        + _THING
        + r" (?:is|was|has been|have been|are|were|got) (?:now )?(?:(?P<sure>discontinued|"
        r"stopped)|cancell?ed|terminated|closed|over|ended"
        # "the Sheep Street Barclays is closing"
        r"|closing(?:\s+down)?|shutting(?:\s+down)?|shut\s+down)\b",  # "ramipril has been stopped"
        re.I,
    ),
    # a thing given back or gone: "the Transit goes back to the lease company on Friday", "the
    # old Fiesta has been sold"
    re.compile(
        r"(?:^|[.;:,]\s+)(?:the |our |my |his |her |their |[A-Z][\w-]*['’]s )?(?:old )?"
        + _THING
        + r" (?:(?:goes|is going|went|has gone|have gone|go|are going) back\b|(?:is|was|has been"
        r"|have been|are|were|got) (?:now )?(?:returned|handed back|given back|sold|written off)"
        r"\b)",
        re.I,
    ),
)


# a state that waits for an outcome, work under way, and the outcome: "INV-2026-015 is overdue"
# / "Nordlicht paid INV-2026-015"; "decision pending" / "was approved"; "PLAT-204 waiting on
# design mockups" / "PLAT-204 in code review" / "PLAT-204 merged"
_PENDING_RE = re.compile(
    r"\b(?:overdue|outstanding|unpaid|pending|awaiting|waiting (?:for|on)|not yet (?:paid|"
    r"approved|registered|signed)|blocked (?:on|by)|on hold|stalled)\b",
    re.I,
)
_UNDERWAY_RE = re.compile(
    r"\b(?:in progress|in (?:code )?review|under review|in qa|in testing|in development|"
    r"being (?:reviewed|tested|worked on))\b",
    re.I,
)
_OUTCOME_RE = re.compile(
    r"\b(?:paid|settled|approved|rejected|refused|declined|registered|signed|granted|"
    r"released|resolved|accepted|denied|cleared|came back|passed|failed|shipped|merged|"
    r"deployed|fixed|completed|launched|went live|closed|done)\b",
    re.I,
)
# a record's number: "INV-2026-015", "AA-55102", "BUG-2188", "#4821" (not a value such as
# "eu-west-1")
_CODE_RE = re.compile(r"\b[A-Z]{2,}-\d+(?:-\d+)*\b|(?<![\w&])#(\d{2,})\b")
_BARE_NUMBER_RE = re.compile(r"(?<![\w#$£€.,:/-])(\d{3,})(?![\w.,:/-]|\.\d)")


def _codes(text: str) -> set[str]:
    """The record numbers ``text`` names, lower case ("#4821" as "4821")."""
    return {(m.group(1) or m.group(0)).lower() for m in _CODE_RE.finditer(text)}


@functools.lru_cache(maxsize=1 << 14)
def _first_code(text: str) -> str:
    """The first record number ``text`` names, lower case, or ``""``."""
    m = _CODE_RE.search(text)
    return (m.group(1) or m.group(0)).lower() if m else ""


@functools.lru_cache(maxsize=1 << 14)
def _statuses(text: str) -> frozenset[str]:
    """Where a record stands, as ``text`` says it: pending, under way, an outcome. Cached per
    text: sleep asks it of one new note against every entry."""
    kinds = (("pending", _PENDING_RE), ("under way", _UNDERWAY_RE), ("outcome", _OUTCOME_RE))
    return frozenset(kind for kind, rx in kinds if rx.search(text))


def _resolved(new_text: str, old_text: str) -> Verdict | None:
    """A record's new standing, where the older note says it waits or is being worked on:
    "Nordlicht paid INV-2026-015" for "INV-2026-015 from Nordlicht is overdue", "ACME-12
    shipped to production" for "Ticket ACME-12 is blocked on legal review", "PLAT-204 in code
    review" for "PLAT-204 waiting on design mockups". Both name the same code (an invoice's, a
    claim's, a ticket's number; "#4821" is the "4821" of the other note); the newer note says a
    standing the older does not ("still unpaid" is none), and is no intention or question."""
    if "?" in new_text or _chat(new_text) or _chat(old_text):
        return None
    was, now = _statuses(old_text), _statuses(new_text)
    if not was & {"pending", "under way"} or not now - was:
        return None
    if cw.found(cw.MODAL_RE, new_text):
        return None
    # the record each note names first is the one it speaks of ("PLAT-210 blocked by
    # PLAT-204" is no standing of PLAT-204); a number said bare in the newer note may be the
    # older's "#4821"
    first = _first_code(new_text) or next(
        (m.group(1) for m in _BARE_NUMBER_RE.finditer(new_text)), ""
    )
    if first:
        if first != _first_code(old_text):
            return None
    elif not _whose_things(new_text) & _whose_things(old_text):
        return None
    return Verdict(SUPERSEDE, "an outcome", " ".join(sorted(was)), " ".join(sorted(now - was)))


# a named one's thing: "Dev Patel's DBS", "Maya's passport"
_WHOSE_THING_RE = re.compile(r"\b((?:[A-Z][\w-]+\s+)*[A-Z][\w-]+['’]s\s+[\w-]+)")


def _whose_things(text: str) -> set[str]:
    """The named ones' things ``text`` names, lower case ("dev patel's dbs")."""
    return {" ".join(m.lower().replace("’", "'").split()) for m in _WHOSE_THING_RE.findall(text)}


@functools.lru_cache(maxsize=1 << 14)
def _endings(text: str) -> tuple[re.Match[str], ...]:
    """Where ``text`` tells of something ended (:data:`_ENDED_RES`), in the patterns' order."""
    return tuple(m for rx in _ENDED_RES for m in rx.finditer(text))


# what an ending is said for, when it is for a while: "closed for annual leave", "closed until
# Monday", "shut over Christmas", "closed Wednesday afternoons" ("closed for good" is an ending)
_FOR_A_WHILE_RE = re.compile(
    r"\s+(?:for\s+(?!good\b|ever\b|keeps\b)|until\b|till\b|over\b|during\b|between\b"
    r"|this\s+(?:week|weekend)\b|next\s+(?:week|weekend)\b|early\b|late\b|at\s+\d|on\s+\d"
    # on days that come back: "closed Wednesday afternoons", "We're closed Mondays"
    r"|(?:on\s+|every\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|at\s+weekends\b"
    r"|(?:on\s+)?(?:weekends|bank\s+holidays)\b)",
    re.I,
)


def _ended(new_text: str, old_text: str) -> Verdict | None:
    """A standing fact of a thing the newer note says holds no more: "Cancelled Netflix
    today" for "Netflix subscription is £10.99 a month", "Walter stopped taking simvastatin"
    for "Walter takes simvastatin 20 mg at night". Every content word of what ended is said in
    the older note, one of them a name or two words together (not "closed the window" for any
    note with a window in it); neither note is an intention, a question or a chat turn, the
    older is no ending itself, and the two name no different people."""
    if "?" in new_text or _chat(new_text) or _chat(old_text):
        return None
    if cw.found(cw.MODAL_RE, new_text) and not cw.found(cw.DECIDED_RE, new_text):
        return None  # "might cancel the gym", "plan to stop the statin"
    if not _endings(new_text) or _endings(old_text):
        return None
    # (a name with a digit is a value, no content word: "ServiceM8")
    said = _content(old_text) | {t.lower() for t in tokens(old_text) if _digit(t)}
    for m in _endings(new_text):
        thing = m.group("thing")
        if m.re is not _ENDED_RES[-1] and re.match(r"\s+(?:to|from)\b", new_text[m.end() :]):
            continue  # "Dropped log retention to 14 days": a new value, no ending (but "goes
            # back to the lease company")
        if _FOR_A_WHILE_RE.match(new_text, m.end()):
            continue  # "Rook Plumbing is closed for annual leave 26-30 October": shut a while
        words = [w for w in tokens(thing) if w.lower() not in cw.STOP]
        if not words or not all(lemma(w) in said for w in words):
            continue
        if words[0].lower().removesuffix("s") in temporal.WEEKDAYS:
            continue  # "We're closed Mondays": when, not what, is closed
        named = (
            any(w[:1].isupper() for w in thing.split())
            or len(words) >= 2
            or bool(m.groupdict().get("sure"))  # "stopped taking simvastatin"
            or bool(m.groupdict().get("whose"))  # "stopped Walter's simvastatin"
        )
        if not named:
            continue
        people = possessors(new_text), possessors(old_text)
        if all(people) and not people[0] & people[1]:
            continue  # "Farida's Netflix" is not ours
        return Verdict(SUPERSEDE, "an ending", thing, "ended")
    return None


# nouns that name a change, as a change word's verb would: "Migration to SQLAlchemy 2.0 is merged"
_CHANGE_NOUNS = frozenset("migration upgrade bump move switch rollout cutover update".split())  # noqa: SIM905


def _changes_name(text: str, name: str) -> bool:
    """Whether ``text`` says a change of the thing ``name`` names itself, no other thing
    before it: "Upgraded Redis to 7.2 in all environments", "Migration to SQLAlchemy 2.0 is
    merged", "Redis upgraded to 7.2"; not "Bumped my laptop to Python 3.12" (the laptop
    changed) nor "The docs build uses Python 3.12" (no change)."""
    words = tokens(text)
    at = next((i for i, w in enumerate(words) if w.casefold() == name), None)
    if at is None:
        return False
    lead = [w.lower() for w in words[:at] if w.lower() not in cw.STOP or cw.change_word(w)]
    if lead:
        return all(cw.change_word(w) or w in _CHANGE_NOUNS for w in lead)
    after = [w.lower() for w in words[at + 1 : at + 3] if w.lower() not in cw.STOP]
    return bool(after) and cw.change_word(after[0])


# a new one of what the older note names: "her new piano teacher", "switched dentists"
_NEW_ONE_RE = re.compile(
    r"\bnew ([a-z]+(?: [a-z]+)?)\b|\b(?:switched|changed|swapped) ([a-z]{3,}s)\b(?! to\b)"
)


def _new_one(new_text: str, old_text: str) -> Verdict | None:
    """A new one of the thing the older note names, and a name in place of the older note's:
    "Sofia had her first lesson with Ms. Brandt, her new piano teacher" for "Sofia's piano
    teacher is Mr. Okonkwo"; "Inês switched dentists: she sees Dr. Vasconcelos now" for "Inês's
    dentist is Dr. Pereira". Every word of the thing is said by the older note; the newer one
    states a fact (no question, intention, chat turn or added one: "another", "also")."""
    if "?" in new_text or _chat(new_text) or _chat(old_text):
        return None
    if cw.found(cw.ADDITIVE_RE, new_text) or cw.found(cw.MODAL_RE, new_text):
        return None
    said = _content(old_text)
    owners = _owners(new_text)
    told = _NEW_OF_SUBJECT_RE.match(new_text)
    if told:  # "Ines Duarte is the new head chef at …": the name that opens it is the new value
        value = {t.lower() for t in tokens(told.group(1))}
        owners -= value
        if _proper(new_text) - value - _proper(old_text) - _owners(old_text) - _content(old_text):
            return None  # "… the new head chef at Rua Nova" is not Harbor House's
    if owners - _owners(old_text) - _proper(old_text):
        return None  # "Kwame's new manager" is not Marisol's
    for m in _NEW_ONE_RE.finditer(new_text):
        words = [lemma(w) for w in (m.group(1) or m.group(2)).split() if w not in cw.STOP]
        numbers = _numbers_apart(new_text, old_text)
        if words and words[-1] not in said and all(numbers):
            words = words[:-1]  # "her new mobile number" of "mobile: +351 …"
        if not words or not all(w in said for w in words):
            continue
        fresh = _proper(new_text) - _proper(old_text)
        gone = _proper(old_text) - _proper(new_text)
        if m.group(1) and not told and not _beside(new_text, m, fresh):
            # "… after Hartwell and the new caterer" names no caterer: the name of a new one
            # stands beside it ("Ms. Brandt, her new piano teacher")
            fresh = frozenset()
        if not (fresh and gone):  # a number of one long shape for another (a phone number)
            fresh, gone = numbers
        if _fine_kinds(fresh) & _WHEN_KINDS and not _fine_kinds(gone) & _WHEN_KINDS:
            continue  # "new date is March 3" gives no value of "export in smaller date ranges"
        if fresh and gone and _named_by_first_name(new_text, old_text, gone):
            continue  # "Lunch with Lena and Sara Okafor, the new designer": Lena Fischer is
            # still about, so Sara is a designer beside her, not in her place
        if fresh and gone:
            return Verdict(SUPERSEDE, "a new one", " ".join(sorted(gone)), " ".join(sorted(fresh)))
    return None


def _named_by_first_name(new_text: str, old_text: str, gone: frozenset[str]) -> bool:
    """Whether the newer note names by first name a person the older one names in full and the
    newer one leaves out ("Lena" of "Lena Fischer", ``gone`` holding "fischer")."""
    said = {t for t in tokens(new_text) if t[:1].isupper()}
    for m in re.finditer(r"\b([A-Z][a-z]+) ([A-Z][\w'’-]+)", old_text):
        if m.group(2).lower() in gone and m.group(1) in said:
            return True
    return False


# what may stand between a new one and its name: "Ms. Brandt, her new piano teacher", "her
# new piano teacher, Ms. Brandt", "the new vet (Dr. Lind)", "our new accountant is Mo Reed"
_BEFORE_NEW_RE = re.compile(
    r"([A-Z][\w'’.-]*)[\s,:;()–—-]*(?:(?:her|his|their|our|my|your|its|the|a|an|[A-Z][\w.-]*['’]s)\s+)?$"
)
_AFTER_NEW_RE = re.compile(
    r"^[\s,:;()–—-]*(?:(?:is|are|was|named|called)\s+)?(?:(?:Mr|Mrs|Ms|Mx|Dr|Prof)\.?\s+)?([A-Z][\w'’.-]*)"
)


def _beside(text: str, match: re.Match[str], names: frozenset[str]) -> bool:
    """Whether one of ``names`` (lower case) stands right beside a "new …" phrase of ``text``,
    before it or after it, with nothing between but punctuation, a determiner, "is" or a
    title."""
    end = match.end()
    last = match.group(0).split()[-1]
    if last.lower() in cw.STOP:  # "the new inhaler from Walgreens": "from" is no word of it
        end -= len(last)
    before = _BEFORE_NEW_RE.search(text[: match.start()])
    after = _AFTER_NEW_RE.match(text[end:])
    said = (re.sub(r"['’]s$", "", m.group(1).rstrip(".")).lower() for m in (before, after) if m)
    return any(name in names for name in said)


# "Ines Duarte is the new head chef …", "Lee Park is Kwame's new manager": the name is the value
_NEW_OF_SUBJECT_RE = re.compile(
    r"\s*((?:[A-Z][\w'’.-]*\s+){0,3}[A-Z][\w'’.-]*)\s+(?:is|are)\s+(?:the|our|my|their|his|her|[A-Z][\w.-]*['’]s)\s+new\b"
)
# a number written with its digits grouped ("+351 912 345 678", "07700 900123")
_LONG_NUMBER_RE = re.compile(r"\+?\d[\d ()-]{3,}\d")


def _numbers_apart(new_text: str, old_text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The long numbers (five digits or more) each text says and the other does not, of a shape
    (digits as 9) both sides have: a phone number in place of a phone number."""

    def longs(text: str) -> dict[str, str]:
        found = (m.group(0) for m in _LONG_NUMBER_RE.finditer(text))
        return {v: re.sub(r"\d", "9", v) for v in found if sum(ch.isdigit() for ch in v) >= 5}

    new, old = longs(new_text), longs(old_text)
    shapes = set(new.values()) & set(old.values())
    fresh = frozenset(v for v, shape in new.items() if shape in shapes and v not in old)
    gone = frozenset(v for v, shape in old.items() if shape in shapes and v not in new)
    return fresh, gone


# a label opening a note: "Opening hours: …", "Week summary: …"
LEAD_LABEL_RE = re.compile(r"^[^:.;!?]{1,40}:\s+")
_VALUE_TOKEN_RE = re.compile(r"[$€£]?\d[\w.:/%-]*")


_MONTH_ALT = "|".join(m.capitalize() for m in temporal.MONTHS)
# a month said loosely: "in November", "later in November 2026"
_IN_MONTH_RE = re.compile(
    rf"\b(?:(?:early|late|later|mid)\s+)?in\s+({_MONTH_ALT})(?:\s+\d{{4}})?\b"
)
# a day of a month, and its time: "12 November at 7pm", "November 12th, 2026 at 19:30"
_DAY_OF_MONTH_RE = re.compile(
    rf"\b(?:(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH_ALT})|({_MONTH_ALT})\s+(\d{{1,2}})"
    rf"(?:st|nd|rd|th)?)(?:,?\s+\d{{4}})?(?:\s+at\s+\d{{1,2}}(?:[:.]\d{{2}})?\s*(?:am|pm)?)?"
)


def day_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with the month it gives loosely put right to the day the newer note gives
    in that month ("Priya is doing a reading at Burley Fisher Books, 400 Kingsland Road, in
    November", then "… reading is confirmed for 12 November at 7pm": "…, 400 Kingsland Road,
    on 12 November at 7pm"), or None: one loose month in the older text, one day in the newer,
    of that month."""
    loose = list(_IN_MONTH_RE.finditer(old_text))
    days = list(_DAY_OF_MONTH_RE.finditer(new_text))
    if len(loose) != 1 or len(days) != 1 or _DAY_OF_MONTH_RE.search(old_text):
        return None
    day = days[0]
    if (day.group(2) or day.group(3)) != loose[0].group(1):
        return None
    m = loose[0]
    return old_text[: m.start()] + "on " + day.group(0) + old_text[m.end() :]


# a time of day: "22:00", "9:30am", "7pm", "7.30pm" (not "3.12", a version)
_CLOCK_TIME_RE = re.compile(
    r"(?<![\w.:/-])(?:\d{1,2}:\d{2}\s?(?:am|pm)?|\d{1,2}(?:\.\d{2})?\s?(?:am|pm))(?![\w:/-]|\.\d)",
    re.I,
)


_FULL_NAME_RE = re.compile(r"\b([A-Z][a-z'’-]+)((?:\s+[A-Z][a-z'’-]+)+)")


def name_said_short(new_text: str, old_text: str) -> bool:
    """Whether every value the older text gives that the newer lacks is a later word of a
    name the newer note says by its first word ("Fiona confirmed she'll stand again as
    commodore" for "Fiona Blake is the commodore"), with no word of change: the same person,
    no new value ("Björn Lindqvist replaced Mirela" is one)."""
    _, gone = _values_apart(new_text, old_text)
    said = {t for t in tokens(new_text) if t[:1].isupper()}
    short = {
        w.lower()
        for m in _FULL_NAME_RE.finditer(old_text)
        if m.group(1) in said and m.group(0) not in new_text
        for w in m.group(2).split()
    }
    # "again" is once more here: "stand again"
    told = re.sub(r"\bagain\b", "", new_text, flags=re.I)
    return bool(gone) and gone <= short and not cw.found(cw.CHANGE_RE, told)


def number_dropped(new_text: str, old_text: str) -> bool:
    """Whether the older text gives a number and the newer note none: no new value of it."""
    return any(_digit(v) for v in _strong_words(old_text)) and not any(
        _digit(v) for v in _strong_words(new_text)
    )


# a day of a month: "12 June 2027", "Wed 21 Oct", "October 3rd, 2026"
DATE_SAID_RE = re.compile(
    rf"(?:\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+)?"
    rf"(?:{temporal.DAY_OF_MONTH})(?:,?\s+\d{{4}})?",
    re.I,
)


def date_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its one day put right to the one the newer note gives ("Sofia
    Mendes and James Whitfield's wedding is on 12 June 2027 at Tidewater Pavilion", then "Sofia
    & James wedding pushed back to 19 June 2027 because the Pavilion double-booked": "… on 19
    June 2027 at Tidewater Pavilion"), on the terms of :func:`clock_put_right`."""
    return _one_put_right(new_text, old_text, DATE_SAID_RE)


# a weekday's name, capitalised, one or every: "Tuesday", "Tuesdays"
_WEEKDAY_NAME = rf"(?:{'|'.join(d.title() for d in temporal.WEEKDAYS)})s?"
_WEEKDAY_WORD_RE = re.compile(rf"\b{_WEEKDAY_NAME}\b")
# from when a change holds, said after it: ", starting in October", " from next week"
_FROM_WHEN_RE = re.compile(
    r",?\s+(?:starting|from|as of|beginning|effective|with effect from)\b"
    r"[^.;]*?(?=[.;]|\s[-–—]\s|$)",
    re.I,
)


# a time of day said in words
_TIME_WORD_SAID_RE = re.compile(
    r"\b(?:noon|midday|midnight|mornings?|afternoons?|evenings?|nights?)\b", re.I
)
# an ordinal right before a weekday: "the first Wednesday", "last Friday of the month"
_ORDINAL_BEFORE_RE = re.compile(
    r"\b(first|second|third|fourth|fifth|last|1st|2nd|3rd|4th)\s+$", re.I
)


def weekday_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its one weekday put right to the one the newer note gives, in the
    older text's number ("Committee meets on the first Tuesday of each month, 7.30pm in the
    Chart Room", then "Committee has switched to meeting on the first Wednesday of the month,
    starting in October": "… the first Wednesday of each month, 7.30pm …"), on the terms of
    :func:`clock_put_right`; from when it holds is no value of its own."""
    if any(temporal.ORDINALS_JOINED_RE.search(t) for t in (new_text, old_text)):
        return None  # "the first and third Saturday" moved to "the second and fourth Sunday":
        # two days of a month each, the note takes the entry's place
    said_when = {w.lower().rstrip("s") for w in _TIME_WORD_SAID_RE.findall(old_text)}
    if {w.lower().rstrip("s") for w in _TIME_WORD_SAID_RE.findall(new_text)} - said_when:
        return None  # "Journal club moved to Mondays at noon", "Retro moved to Thursday
        # mornings" (for "… Friday afternoons"): a new time too
    if any(rx.search(new_text) for rx in _TIMES):
        return None  # a time with the weekday: the note says when, whole
    placed = _one_put_right(_FROM_WHEN_RE.sub("", new_text), old_text, _WEEKDAY_WORD_RE)
    said = {t.lower() for t in tokens(new_text)}
    if placed is None or all(
        t.lower() in said for t in tokens(_WEEKDAY_WORD_RE.sub(" ", old_text))
    ):
        return None  # "Jake's college day is now Thursday" says all the entry did: it stands
    old = _WEEKDAY_WORD_RE.search(old_text)
    new = _WEEKDAY_WORD_RE.search(new_text)
    assert old is not None and new is not None
    # the weekday's ordinal goes with it: "the second Thursday" for "the first Wednesday"
    ordinals = [
        _ORDINAL_BEFORE_RE.search(t, 0, m.start()) for t, m in ((old_text, old), (new_text, new))
    ]
    if bool(ordinals[0]) != bool(ordinals[1]):
        return None  # "every Wednesday" for "the second Thursday": more than the weekday
    day = _WEEKDAY_WORD_RE.search(placed, old.start())
    assert day is not None
    plural = old.group(0).endswith("s")
    word = day.group(0).removesuffix("s") + ("s" if plural else "")
    placed = placed[: day.start()] + word + placed[day.end() :]
    if ordinals[0] and ordinals[1]:
        at = ordinals[0]
        placed = placed[: at.start(1)] + ordinals[1].group(1).lower() + placed[at.end(1) :]
    return placed


# a day moved, told with what moved before it: "Kitchen fitting pushed back to 26 October",
# "Novatek pushed the manual deadline back to 15 October", "AGM moved to 21 October"
_DAY_MOVED_RE = re.compile(
    r"^(?P<what>(?:[^.;:!?]|(?<=\d)\.(?=\d))*?)\b(?:(?:pushed|put|moved|brought)(?P<obj>(?:\s+[\w'’-]+){0,4}?)\s+"
    r"(?:back|forward|out)(?P<after>(?:\s+(?!to\b)[\w'’-]+){0,5}?)|(?:moved|moving|shifted|switched)(?P<moved>(?:\s+[\w'’-]+){1,4}?)"
    r"(?=\s+to\s+(?:every\s+)?[A-Z][a-z]+days?\b)"
    # "moved again, now 15 Oct"
    r"|(?:moved|moving|postponed|rescheduled|delayed|shifted|changed|switched)(?:\s+again)?"
    # what moved after the verb, before the new day's clause: "Kennington Motors postponed the
    # van service; the new date is 6 Oct"
    # ("Kwik Fit moved the MOT again: now Tuesday 13 October")
    r"(?P<obj2>(?:\s+[\w'’-]+){1,4}?(?=[;,]\s+(?:the\s+)?new\s+(?:date|day)\b|\s+again\b))?"
    r"(?:\s+again)?"
    # "extended by one week, to September 25": how far is no part of what moved
    r"|(?:extended|postponed|delayed)(?P<by>\s+by\s+(?:a|an|one|two|three|four|\d+)\s+"
    r"(?:days?|weeks?|fortnight|months?))?)"
    # "… to 26 October", "Mayor interview moved: Tuesday 22 September", "put back again, it's
    # now Thursday 22 October", "pushed back a week
    # because of the address form bugs: new date Thu 1 Oct"
    r"(?:,?\s+(?:to|until|till|(?:it['’]s\s+|it\s+is\s+)?now)|\s+[-–—]\s+now|:"
    r"|(?:\s+(?:because|as|since|due\s+to)\b[^.;:!?]*)?[:;,]\s+(?:the\s+)?new\s+(?:date|day)"
    r"(?:\s+is)?:?)"
    r"\s+(?=\S)",
    re.I,
)


# what a day moved to follows: "pushed back to ", "moved to "
_MOVED_TO_BEFORE_RE = re.compile(
    r"\b(?:pushed|put|moved|brought)\s+(?:back|forward|out)(?:\s+\w+)?\s+(?:to|until)\s+$|"
    r"\b(?:moved|postponed|rescheduled|delayed)\s+(?:to|until)\s+$",
    re.I,
)


def _same_day(a: str, b: str) -> bool:
    """Whether two days as written are one, a weekday said or not ("Friday 20 November",
    "20 November")."""

    def plain(day: str) -> str:
        day = re.sub(
            rf"^\s*(?:{'|'.join(temporal.WEEKDAYS)}|mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+",
            "",
            day,
            flags=re.I,
        )
        return re.sub(r"(?<=\d)(?:st|nd|rd|th)\b|\bof\s+|[.,]", "", day).lower().strip()

    return plain(a) == plain(b)


# words that name a day's role, not a thing: "the manual deadline" is the manual's day; and
# the helping verbs of who moved it ("Green Valley have moved …")
_DAY_ROLE = frozenset(
    (  # noqa: SIM905
        "deadline date day due the a an our their its his her my have has had will is are was "
        "were been again further once more release launch rollout gig show concert visit "
        "booking appointment"
    ).split()
)
# the weekday a routine falls on: "delivered Tuesdays", "every Tuesday"
_ROUTINE_DAY_RE = re.compile(
    rf"\b(?:(?:{'|'.join(temporal.WEEKDAYS)})s|every\s+(?:{'|'.join(temporal.WEEKDAYS)}))\b", re.I
)
# a run of weekdays: "Tuesday to Saturday", "Mon-Thu", "Monday through Thursday"
_WEEKDAY_FORMS = [*temporal.WEEKDAYS, *(w[:3] for w in temporal.WEEKDAYS), "tues", "thur", "thurs"]
_WEEKDAY = rf"(?:{'|'.join(_WEEKDAY_FORMS)})"
_WEEKDAY_RANGE_RE = re.compile(
    rf"\b{_WEEKDAY}\s*(?:-|–|\bto\b|\bthrough\b|\buntil\b|\btill\b)\s*{_WEEKDAY}\b", re.I
)
# a time of day in words: "noon", "first thing"
TIME_WORD_RE = re.compile(
    r"\b(?:noon|midday|midnight|lunchtime|first thing|end of (?:the )?day|o'clock)\b", re.I
)
_TIMES = (_CLOCK_TIME_RE, TIME_WORD_RE)  # a time of day, in figures or in words
SAID_LOOSELY = 5  # letters two forms of one word open with alike ("deliveries", "delivered")
# who said what follows: "Anglo-Iberian says", "the school confirmed that"
_SAYS_RE = re.compile(
    r"^.*?\b(?:says|said|tells us|told us|confirmed|confirms|reports|reported)\s+(?:that\s+)?",
    re.I,
)


def said_loosely(word: str, said: set[str]) -> bool:
    """Whether ``word`` or another form of it is among ``said``: the same lemma, one the
    other opens with (four letters at least: "ship" of "shipping"), or an opening of
    :data:`SAID_LOOSELY` letters or more that leaves at most three of either, or all of each
    but the ending of its form (:func:`_root`)."""
    if word in said:
        return True
    root = _root(word)
    # the last part of a word joined by hyphens: "sitting" of "pet-sitting"
    said = said | {w.rsplit("-", 1)[1] for w in said if "-" in w[1:-1]}
    for other in said:
        n = len(os.path.commonprefix([word, other]))
        if n >= 4 and n == min(len(word), len(other)):
            return True
        if n >= SAID_LOOSELY and n >= max(len(word), len(other)) - 3:
            return True
        if n >= SAID_LOOSELY and root == _root(other):
            return True  # "insurance" for "insurer", "translation" for "translator"
    return False


# the endings of one word's forms: the thing, the one who does it, the doing
_ENDING_RE = re.compile(r"(?:ance|ence|ion|ment|ing|er|or|ed|es|s)$")


def _root(word: str) -> str:
    """``word`` without the ending of its form ("insurance", "insurer": "insur")."""
    return _ENDING_RE.sub("", word)


@functools.lru_cache(maxsize=1 << 14)
def _days_in(text: str) -> tuple[tuple[re.Match[str], ...], ...]:
    """The days ``text`` gives, of each form: dates, a run of weekdays ("Tuesday to
    Saturday"), a routine's weekdays. Cached: a sleep asks it of each text once per pair."""
    return tuple(
        tuple(rx.finditer(text)) for rx in (DATE_SAID_RE, _WEEKDAY_RANGE_RE, _ROUTINE_DAY_RE)
    )


def _days_said(old_text: str, new_text: str) -> tuple[list[re.Match[str]], list[re.Match[str]]]:
    """The days each text gives, of the first form either gives any of (:func:`_days_in`)."""
    for olds, news in zip(_days_in(old_text), _days_in(new_text), strict=True):
        if olds or news:
            return list(olds), list(news)
    return [], []


# how far a day moved, no part of what moved: "pushed back a week", "brought forward by two days"
_BY_SPAN_RE = re.compile(
    r"\b(?:by\s+)?(?:a|an|one|two|three|four|\d+)\s+(?:days?|weeks?|fortnight|months?)\b", re.I
)


# a time right after a day: ", 9am", " at 10:30"
_TIME_AFTER_DAY_RE = re.compile(
    r",?\s+(?:at\s+)?(?P<time>\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2}|noon|midday)\b",
    re.I,
)


def moved_day_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its one day put right, when the newer note tells that day moved
    and names nothing the older one does not say ("Kitchen is from Howdens, Wembley branch.
    Fitting booked for 19 October.", then "Kitchen fitting pushed back to 26 October - Howdens'
    fitter is on another job": "… Fitting booked for 26 October."): what moved (the words
    before the verb, and between "pushed" and "back") is all said in the older text, at least
    one of its words in the sentence that gives the day, and each text gives one day. What moved
    may follow the verb too ("Council pushed back the Marlow Road decision to 16 October")."""
    m = _DAY_MOVED_RE.match(new_text)
    if m is None:
        return None
    olds, news = _days_said(old_text, new_text)
    if len(olds) > 1:  # the day the older text says it moved to: "can't take Tern tomorrow
        # (2026-09-23) - service pushed back to 2 October"
        olds = [d for d in olds if _MOVED_TO_BEFORE_RE.search(old_text, 0, d.start())]
    end = _MAIN_CLAUSE_RE.search(new_text, m.end())
    if len(news) > 1 and end is not None:  # the day of a reason after it: "R-2291 pushed back
        # to Mon 14 Sep - the hub shell isn't in until Friday (2026-09-11)"
        news = [d for d in news if d.start() < end.start()]
    if len(olds) != 1 or len(news) != 1 or news[0].start() < m.end():
        return None
    if _same_day(olds[0].group(0), news[0].group(0)):
        return None  # "same date, 20 November" for "Friday 20 November"
    if any(
        _RANGE_END_RE.search(text, 0, d.start())
        for text, d in ((old_text, olds[0]), (new_text, news[0]))
    ):
        return None  # "now 6-8 November": the end of a range is no day of its own
    between = new_text[m.end() : news[0].start()]
    if len(between.split()) > 3 or re.search(r"[,;:]|\s[-–—]\s|\b[A-Z]", between):
        return None  # "Gala moved to St Mary's Hall - same date, 20 November": to a place
    told = new_text[: news[0].start()] + new_text[news[0].end() :]
    said_old = {t.group(0).lower() for rx in _TIMES for t in rx.finditer(old_text)}
    value = news[0].group(0).rstrip(".")
    if olds[0].group(0).lower().startswith("every ") and re.fullmatch(r"[A-Z][a-z]+days", value):
        value = "every " + value[:-1]  # "every Tuesday" moved "to Thursdays": every Thursday
    spans = [(olds[0], value)]
    for rx in _TIMES:
        fresh = [t for t in rx.finditer(told) if t.group(0).lower() not in said_old]
        if not fresh:
            continue
        held = list(rx.finditer(old_text))
        after = _TIME_AFTER_DAY_RE.match(new_text, news[0].end())
        if (
            len(fresh) == 1
            and not held
            and _digit(value)
            and after is not None
            and after.group("time").lower() == fresh[0].group(0).lower()
        ):
            # a date and its time where the entry gave none: "Kwik Fit moved the MOT again:
            # now Tuesday 13 October, 9am" -> "MOT pushed back to Tuesday 13 October, 9am, …"
            spans[0] = (olds[0], value + after.group(0).rstrip())
            continue
        if len(fresh) > 1 or len(held) != 1 or not _TIME_RESTATED_RE.match(told, fresh[0].end()):
            return None  # "… moved to Thursdays at 2pm", "… to Mondays at noon": a new time
            # too, the note takes the entry's place
        spans.append((held[0], fresh[0].group(0)))  # "… back again, now Thu 15 Oct, 10am"
    # who said so is no part of what moved: "Anglo-Iberian says the ship date is pushed back"
    what_said = _SAYS_RE.sub("", m.group("what") or "")
    # a reason before a dash is no part of what moved: "Garage can't fit us in - van MOT …"
    what_said = re.split(r"\s[-–—]\s", what_said)[-1]
    obj = m.group("obj") or m.group("obj2") or ""
    if _content(obj):
        what_said = ""  # who put it back: "Priya has put the review meeting back again"
    moved = " ".join(
        [
            what_said,
            obj,
            m.group("moved") or "",
            _BY_SPAN_RE.sub("", m.group("after") or ""),
        ]
    )
    what = [lemma(t.lower()) for t in tokens(moved) if t.lower() not in _DAY_ROLE and not _digit(t)]
    said = {lemma(t.lower()) for t in tokens(old_text)}
    codes = {t.lower() for t in tokens(moved) if _digit(t) and re.search(r"[a-z.]", t, re.I)}
    if not (what or codes) or not all(said_loosely(w, said) for w in what):
        return None  # "The bathroom fitting …" is not the kitchen's ("R-2291 pushed back …":
        # the job its code names)
    if codes - {t.lower() for t in tokens(old_text)}:
        return None  # "The GEO2041 exam moved to 19 January" is no other exam's day
    at = olds[0]
    sentence = next(
        (
            s
            for s in re.finditer(r"(?:[^.;!?]|\.(?=\d))+", old_text)
            if s.start() <= at.start() < s.end()
        ),
        None,
    )
    in_sentence = {lemma(t.lower()) for t in tokens(sentence.group(0))} if sentence else set()
    # (what names the occasion counts here: "Vermex visit pushed back …" for "… Next visit
    # Thursday 8 October")
    named = [lemma(t.lower()) for t in tokens(moved) if t.lower() not in cw.STOP and not _digit(t)]
    if not any(said_loosely(w, in_sentence) for w in named) and not codes & in_sentence:
        return None  # the day of another thing the entry tells of
    out = old_text
    for span, value in sorted(spans, key=lambda x: x[0].start(), reverse=True):
        end = span.end() - span.group(0).endswith(".")  # "19 October." ends a sentence
        begin = span.start()
        if len(spans) > 1 and re.search(r"\bstill\s+$", out[:begin]):
            begin = out.rindex("still", 0, begin)  # "still 11am" is no longer still
        out = out[:begin] + value + out[end:]
    return out


# what may follow a new time said with a moved day: the note's end, or a clause of its own
_TIME_RESTATED_RE = re.compile(r"\s*(?:[.;]|$|\s[-–—]\s|,\s)")


def moved_clock_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its one time of day put right, when the newer note tells that the
    thing it names moved to another ("Palletways collect from door 9 at 16:30 every weekday",
    then "Palletways collection moved to 17:15 starting today": "… at 17:15 every weekday"):
    every word of what moved said in the older text (in another form too), on the terms of
    :func:`clock_put_right`."""
    m = _DAY_MOVED_RE.match(new_text)
    if m is None or "?" in new_text:
        return None
    what_said = re.split(r"\s[-–—]\s", _SAYS_RE.sub("", m.group("what") or ""))[-1]
    what = [lemma(t.lower()) for t in tokens(what_said) if t.lower() not in _DAY_ROLE]
    said = {lemma(t.lower()) for t in tokens(old_text)}
    if not what or any(_digit(w) for w in what) or not all(said_loosely(w, said) for w in what):
        return None
    return clock_put_right(cw.RESOLVED_RE.sub("", new_text), old_text)


def restated_day_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its one day (and its one time of day, if the note gives one) put
    right, when the newer note says the same thing again with another day and nothing else
    ("Autoclave annual validation is booked for 24 September with Melag's engineer", then
    "Autoclave validation booked for 30 September": "… booked for 30 September with Melag's
    engineer"; "Story meetings with Claire Dunn (editor) are Tuesdays at 10:00", then "Story
    meetings with Claire are Thursdays at 14:00"), or None. Every word of the note but its day
    and time is said in the older text (in another form too), RESTATED_SHARED content words
    at least; it names nothing and gives no figure the older text lacks; each text gives one
    day of one form (a date, or a routine's weekday), and they differ."""
    if "?" in new_text or (cw.intended(new_text) and not cw.found(cw.DECIDED_RE, new_text)):
        return None
    olds, news = _days_said(old_text, new_text)
    if len(olds) != 1 or len(news) != 1:
        return None
    if olds[0].group(0).lower() == news[0].group(0).lower() or any(
        _RANGE_END_RE.search(text, 0, m.start())
        for text, m in ((old_text, olds[0]), (new_text, news[0]))
    ):
        return None  # "on leave 12-16 October": the end of a range is no day of its own
    spans = [(olds[0], news[0].group(0).rstrip("."))]
    told = new_text[: news[0].start()] + " " + new_text[news[0].end() :]
    for rx in _TIMES:
        old_times, new_times = list(rx.finditer(old_text)), list(rx.finditer(told))
        if len(new_times) > 1 or (new_times and len(old_times) != 1):
            return None  # a time the entry gives none (or two) of
        if new_times:
            if new_times[0].group(0).lower() != old_times[0].group(0).lower():
                spans.append((old_times[0], new_times[0].group(0)))
            told = told[: new_times[0].start()] + " " + told[new_times[0].end() :]
    said = {lemma(t.lower()) for t in tokens(old_text)}
    figures = {t.lower() for t in tokens(old_text) if _digit(t)}
    words = [t for t in tokens(told) if t.lower() not in cw.STOP and not _when_word(t)]
    if any(_digit(t) and t.lower() not in figures for t in tokens(told)) or not all(
        said_loosely(lemma(t.lower()), said) for t in words
    ):
        return None  # "Year 5 parents' evening …", "Ella's swimming …": another one's day
    if len(_content(told) & _content(old_text)) < RESTATED_SHARED:
        return None
    out = old_text
    for at, value in sorted(spans, key=lambda x: x[0].start(), reverse=True):
        end = at.end() - at.group(0).endswith(".")  # "19 October." ends a sentence
        out = out[: at.start()] + value + out[end:]
    return out


# a weekday's or a month's name, which is no place ("on Tuesdays", "in October") nor a name
# (update_model._DAY_OR_MONTH_RE)
DAY_NAMES = (
    r"(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?|January|February|March|April|May|June"
    r"|July|August|September|October|November|December)\b"
)
# (a name may open with a small letter before its capital: "mAirList", "eBay", "iCloud")
_SWAP_NAME = r"(?:[a-z]{1,2})?[A-Z][\w&'’-]*(?: (?:&|and|of) [A-Z][\w&'’-]*| [A-Z][\w&'’-]*)*"
# the old one of a name said as gone: "no longer at Hotel Brooklyn", "instead of Halifax"
_NAME_GONE_RE = re.compile(
    rf"\bno longer (?:(?:staying|booked|based|registered|banking|working) )?(?:at|with|in|into|"
    rf"using|uses|use) (?:the )?(?P<a>{_SWAP_NAME})|\binstead of (?:the )?(?P<b>{_SWAP_NAME})"
)
# the new one of a name said after a word of moving: "everyone's moved to Motel One", "going
# with Nationwide", "now with Searchflow"
_NAME_TAKEN_RE = re.compile(
    rf"\b(?:(?i:moved|moving|moves|switched|switching|changed|transferred|gone|going|go|now|over|"
    rf"booked|staying|using) (?:over |now )?(?:to|with|at|into|in|using)|(?:is|are) (?:now )?at) "
    rf"(?:the )?(?P<n>{_SWAP_NAME})"
)


# someone taking over from another: "Kerry Osei has taken over reception from Dawn",
# "Connor Blake is taking over the Saturday walks from Jade"
_HANDED_OVER_RE = re.compile(
    rf"^(?P<n>{_SWAP_NAME}) (?:has |have |is |are |will be |will )?"
    rf"(?:taken|taking|took|takes|take) over (?P<what>[^.;:]{{1,60}}?) from (?P<a>{_SWAP_NAME})\b"
)


# someone taking work over, and who had it said as gone in the same note: "Sinead Flood has
# taken over our account at Calder Estates; Gareth has gone to their Leeds office"
_TOOK_OVER_RE = re.compile(
    rf"^(?P<n>{_SWAP_NAME}) (?:has |have |is |are |will )?(?:taken|taking|took|takes|take) "
    r"(?:over )?(?P<what>[^.;:]{1,60}?)(?=[.;:]|\s[-–—]\s|\s+for now\b|$)"
)
_GONE_PERSON_RE = re.compile(
    rf"(?:[.;]\s+|\band\s+|\s[-–—]\s)(?P<a>{_SWAP_NAME}) (?:has|have|had) (?:gone|left|moved|"
    r"retired|stepped down)\b"
)


@functools.lru_cache(maxsize=1 << 14)
def _names_swapped(text: str) -> tuple[str, str, re.Match[str] | None] | None:
    """(the name gone, the one taken on, the match of someone taking over work) a note tells,
    or None (:func:`named_swap_put_right`; read once per note, cached)."""
    if "?" in text or cw.intended(text):
        return None
    handed = _HANDED_OVER_RE.match(text)
    took, left = _TOOK_OVER_RE.match(text), _GONE_PERSON_RE.search(text)
    if handed is not None:
        gone, taken = {handed.group("a")}, {handed.group("n")}
    elif took is not None and left is not None and left.group("a") not in took.group("n"):
        gone, taken, handed = {left.group("a")}, {took.group("n")}, took
    else:
        gone = {m.group("a") or m.group("b") for m in _NAME_GONE_RE.finditer(text)}
        taken = {m.group("n") for m in _NAME_TAKEN_RE.finditer(text)} - gone
    if len(gone) != 1 or len(taken) != 1:
        return None
    return next(iter(gone)), next(iter(taken)), handed


def named_swap_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with a name the newer note says is gone put right to the one it says
    was taken on ("Manchester: we're booked into Hotel Brooklyn, better rate and van parking",
    then "We're no longer at Hotel Brooklyn - they overbooked, so everyone's moved to Motel One
    Piccadilly": "… booked into Motel One Piccadilly, …"; "… going with Nationwide instead of
    Halifax"), or None: the gone name is said once in the older text, as a value (after the
    text's first word, no word of a longer name), the new one not at all, and the note names
    one new name only after a word of moving. Someone who takes over a round of work from
    another ("Kerry Osei has taken over reception from Dawn") puts right the one named, said
    first or in full ("Jade Morris covers Saturdays"), where the older text says the work."""
    swapped = _names_swapped(new_text)
    if swapped is None:
        return None
    was, now, handed = swapped
    if now in old_text or was in now or now in was:
        return None
    if (
        handed is not None
        and handed.re is _TOOK_OVER_RE
        and role_holder_put_right(new_text, old_text)
    ):
        return None  # a role handed over: the note takes the entry's place (what else the entry
        # tells may be the old holder's)
    # a person named first stands for their name in full ("Jade" for "Jade Morris"), and a
    # place by its first word ("instead of Kingsmead" for "Kingsmead Leisure Centre")
    full = r"(?: [A-Z][\w'’-]+)?" if handed is not None and " " not in was else ""
    if handed is None and " " not in was and " " in now:
        full = r"(?: [A-Z][\w'’-]+){0,2}"
    at = list(re.finditer(rf"(?<![\w'’-]){re.escape(was)}{full}(?![\w'’-])", old_text))
    if len(at) != 1 or (handed is None and not old_text[: at[0].start()].strip(" :")):
        return None  # the entry's subject is no value put right (one who did the work is)
    start, end = at[0].span()
    if re.match(r" [A-Z]", old_text[end:]) or re.search(r"[A-Z][\w'’-]* $", old_text[:start]):
        return None  # a word of a longer name ("Hotel Brooklyn Annexe")
    if handed is None and _told_of_it(old_text, end):
        return None  # what the rest of the entry tells is of the one gone
    if handed is not None:
        # the work handed over is said in the clause that names who did it: "Jade Morris
        # covers Saturdays" for "the Saturday walks" (not "Jade does the Monday accounts")
        clause = re.split(r"[,;]\s+|\s[-–—]\s", old_text[start:])[0]
        said = {lemma(t.lower()) for t in tokens(old_text[:start].rsplit(",", 1)[-1] + clause)}
        what = [
            t for t in tokens(handed.group("what")) if t.lower() not in cw.STOP and not _digit(t)
        ]
        named = [t for t in what if t[:1].isupper() and re.search(rf"\b{re.escape(t)}\b", old_text)]
        if not what or not (said_loosely(lemma(what[0].lower()), said) or named):
            # (or a name the work is of, said in the entry: "our account at Calder Estates"
            # for "Landlord is Calder Estates, and our contact there is Gareth Pryce")
            return None  # the work's first word ("the billing service" is not "the search
            # service", "the Saturday walks" are what "covers Saturdays" does)
    return old_text[:start] + now + old_text[end:]


@functools.lru_cache(maxsize=1 << 14)
def _clock_times(text: str) -> tuple[re.Match[str], ...]:
    """The times of day ``text`` gives in figures (cached: read once per text)."""
    return tuple(_CLOCK_TIME_RE.finditer(text))


def restated_clock_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its one time of day put right, when the newer note says the same
    thing again with another time and no day ("King Tut's load-in on Sat 26 Sep is 15:30",
    then "Load-in at King Tut's is now 13:50": "… on Sat 26 Sep is 13:50"), or None, on the
    terms of :func:`restated_day_put_right`: every word of the note but its time is said in the
    older text, RESTATED_SHARED content words at least, and each text gives one time."""
    olds, news = _clock_times(old_text), _clock_times(new_text)
    if len(olds) != 1 or len(news) != 1 or olds[0].group(0).lower() == news[0].group(0).lower():
        return None
    if "?" in new_text or (cw.intended(new_text) and not cw.found(cw.DECIDED_RE, new_text)):
        return None
    if _days_said(old_text, new_text)[1]:
        return None  # a day too: restated_day_put_right reads it
    if _RANGE_END_RE.search(old_text, 0, olds[0].start()) or "-" in old_text[olds[0].end() :][:2]:
        return None  # "9:00-17:00": one end of a range is no time of its own
    told = new_text[: news[0].start()] + " " + new_text[news[0].end() :]
    said = {lemma(t.lower()) for t in tokens(old_text)}
    # a weekday or a month is a word of what it says ("The Thursday sync …" is not Monday's)
    words = [t for t in tokens(told) if t.lower() not in cw.STOP]
    if any(_digit(t) for t in tokens(told)) or not all(
        said_loosely(lemma(t.lower()), said) for t in words
    ):
        return None  # "Doors at King Tut's are 19:00" is no new load-in
    if len(_content(told) & _content(old_text)) < RESTATED_SHARED:
        return None
    at = olds[0]
    return old_text[: at.start()] + news[0].group(0) + old_text[at.end() :]


def restated_slot_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its one number put right, when the newer note says the same thing
    again with another number beside the same word and nothing else ("Mrs Patel is the exams
    officer, extension 214", then "Mrs Patel's extension is 231": "…, extension 231"), or
    None: every word of the note but its number is said in the older text (in another form
    too; whose it is as a name), RESTATED_SHARED content words at least, and the entry gives
    that one figure only (:func:`_slot_put_right` reads the number, or one amount of money in
    each: "Marlow Dental pays £275 a month for bookkeeping and payroll" for "… pays a monthly
    fee of £240 …"); the note tells no past event."""
    if "?" in new_text or not _digit(new_text):
        return None
    if any(_NAMED_BY_NUMBER_RE.match(t) for t in (new_text, old_text)):
        return None  # "Invoice 1043: paid", "note 10: …": the number names the thing
    if cw.intended(new_text) or cw.found(cw.CHANGE_RE, new_text):
        return None  # "… is now 45 minutes": told as a change, the note takes the entry's place
    if temporal.tense(new_text) < 0:
        return None  # "Bilal deployed … (build 101)": what happened, no value said again
    said = {lemma(lexical.unpossessed(t).lower()) for t in tokens(old_text)}
    words = [
        lemma(lexical.unpossessed(t).lower())
        for t in tokens(new_text)
        if not _digit(t) and t.lower() not in cw.STOP
    ]
    if not words or not all(said_loosely(w, said) for w in words):
        return None  # "Tom's extension is 231" is no one's but Tom's
    if len(set(words) & said) < RESTATED_SHARED:
        return None
    figures_old = [t for t in tokens(old_text) if _digit(t)]
    if len(figures_old) != 1:
        return None  # an entry of several figures may hold two things alike: the note's
        # words all said in it tell no more than which kind of thing it is
    placed = _slot_put_right(new_text, old_text)
    if placed is not None:
        return placed
    # one amount of money each, beside other words ("pays a monthly fee of £240", "pays £275
    # a month"): the entry's put right
    figures_new = [t for t in tokens(new_text) if _digit(t)]
    (a,) = figures_old
    if len(figures_new) != 1 or a[:1] not in "£$€" or figures_new[0][:1] != a[:1]:
        return None
    if _number_kind(a) != _number_kind(figures_new[0]) or a == figures_new[0]:
        return None
    at = re.search(rf"(?<![\w.]){re.escape(a)}(?![\w]|\.\d)", old_text)
    return old_text[: at.start()] + figures_new[0] + old_text[at.end() :] if at else None


# a price gone up or down to an amount: "Kestrel Scenic's price has gone up to £4,650",
# "Brightwater's hourly rate goes up to £26.80", "Verbalis raised Maren's rate to €0.12"; money
# gone up is a price ("Sea Room goes up to £110 a night")
_PRICE_WORDS = r"(?:price|rate|fee|cost|charge|quote|rent|subs|subscription|premium|package)s?"
_PRICE_LEMMAS = frozenset({"price", "rate", "fee", "cost", "charge", "quote"})
_PRICE_MOVED_RE = re.compile(
    rf"\b{_PRICE_WORDS}\b[^.;:!?]{{0,30}}?\b(?:(?:has|have|had)\s+)?(?:gone|went|goes|going|go|is|are|"
    rf"was|were)?\s*(?:up|down)\s+to\s+(?P<money>{MONEY_RE.pattern})|"
    rf"\b(?:raised|increased|put\s+up|lowered|reduced|cut|dropped)\s+(?:[\w'’-]+\s+){{0,3}}?"
    rf"{_PRICE_WORDS}\s+to\s+(?P<money2>{MONEY_RE.pattern})|"
    # a thing priced, gone up: "Sea Room goes up to £110 a night from today"
    rf"\b(?:(?:has|have|is|are)\s+)?(?:gone|went|goes|go|going)\s+(?:up|down)(?:\s+again)?"
    rf"(?:\s+to|:)\s+(?P<money3>{MONEY_RE.pattern})",
    re.I,
)
_PER_WORD_RE = re.compile(
    r"\b(?:per[\s-]+|each\s+|an?\s+(?=(?:hour|day|night|week|month|year|visit|session|class|"
    r"lesson|head|person|word|page)\b))([a-z]+)\b|\b(hourly|daily|weekly|monthly|yearly|annual)\b",
    re.I,
)


def _per(text: str) -> set[str]:
    """What a price of ``text`` is per ("per word", "an hour" / "hourly"), as one word."""
    unit = {"hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month",
            "yearly": "year", "annual": "year"}  # fmt: skip
    return {
        unit.get((m.group(1) or m.group(2)).lower(), (m.group(1) or m.group(2)).lower())
        for m in _PER_WORD_RE.finditer(text)
    } - cw.STOP


def _priced_part(told: str, old_text: str, olds: list[re.Match[str]]) -> list[re.Match[str]]:
    """Of the amounts of ``old_text``, those in the part (between commas) that shares most
    words with what the note names before its new amount ("the full-day package": "full day
    £2,400", not "half day £1,450"), none where no part shares one."""
    words = {w for w in re.split(r"[^\w£$€]+", told.lower()) if w and w not in cw.STOP}
    words -= {"price", "rate", "fee", "cost", "package", "up", "down", "to"}
    parts = list(re.finditer(r"(?:[^,;]|(?<=\d),(?=\d))+", old_text))  # "£2,400" is one
    shared = {
        o.start(): len(words & set(re.split(r"[^\w]+", p.group(0).lower())))
        for o in olds
        for p in parts
        if p.start() <= o.start() < p.end()
    }
    most = max(shared.values(), default=0)
    return [o for o in olds if most and shared.get(o.start()) == most]


# who sets a price, then the thing it is of: "Fresh Start are putting the dinner "
_PRICE_SETTER_RE = re.compile(
    r"^\s*(?P<who>[A-Z][\w&'’-]*(?:\s+[A-Z][\w&'’-]*){0,3})\s+(?:are|is|have|has)\s+"
    r"(?:putting|put|raising|raised|increasing|increased)\s+(?:the|their|our)\s+(?P<of>[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*)?)\s+$"
)


_UP_RE = re.compile(r"\b(?:up|raised|increased|rises|rose|risen)\b", re.I)
_DOWN_RE = re.compile(r"\b(?:down|lowered|reduced|cut|dropped|falls|fell)\b", re.I)


def _amount(money: str) -> float | None:
    """The number of an amount of money ("£1,250.50" -> 1250.5), None for none."""
    m = re.search(r"\d[\d,]*(?:\.\d+)?", money)
    if m is None:
        return None
    value = float(m.group(0).replace(",", ""))
    return value / 100 if re.search(r"\d\s?(?:p|pence|cents?)\b", money) else value


def _moved_that_way(said: str, was: str, now: str) -> bool:
    """Whether a price told as gone up (or down) in ``said`` can be ``now`` after ``was``: a
    rise to less is another price's."""
    a, b = _amount(was), _amount(now)
    if a is None or b is None:
        return True
    if _UP_RE.search(said) and not _DOWN_RE.search(said):
        return b > a
    if _DOWN_RE.search(said) and not _UP_RE.search(said):
        return b < a
    return True


def price_moved_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its one amount of money put right, when the newer note tells its
    price went up or down to another ("Kestrel Scenic are building the set, quoted £4,200 all
    in", then "Kestrel Scenic's price has gone up to £4,650 because of timber costs": "…, quoted
    £4,650 all in"), or None: the note names nothing in capitals the entry does not (whose price
    it is), gives one amount and no intention, and the entry is one sentence of one amount,
    per the same unit when both say one ("per word", "an hour")."""
    source = lexical.SOURCE_LEAD_RE.match(new_text)
    if source is not None:  # "Letter from Copyline: the lease goes up …": Copyline's lease
        new_text = f"{source.group('who')}: {new_text[source.end() :]}"
    m = _PRICE_MOVED_RE.search(new_text)
    if m is None or "?" in new_text or cw.found(cw.MODAL_RE, new_text):
        return None
    if len(lexical.sentences(old_text)) > 1:
        return None  # the sentence of the price is put right as a part (sentence_put_right)
    money = m.group("money") or m.group("money2") or m.group("money3")
    olds = list(MONEY_RE.finditer(old_text))
    one_amount = len(olds) == 1
    if len(olds) > 1 and ";" not in old_text:  # "full day £2,400, half day £1,450": the part
        # the note names (not an entry of facts merged, each its own clause)
        olds = _priced_part(new_text[: m.end()], old_text, olds)
    if len(olds) != 1 or len(MONEY_RE.findall(new_text)) != 1:
        return None
    was = olds[0].group(0).rstrip(".,")
    if was == money.rstrip(".,") or money_unit(was) != money_unit(money):
        return None  # the same amount, or another currency
    if not _moved_that_way(m.group(0), was, money):
        return None  # "Call-out charge is going up to £85" is no price of the £130 call-out
    said = {lexical.unpossessed(t).lower() for t in tokens(old_text)}
    # whose price it is, in what the note tells first: not a reason after it ("Ribeye going up
    # to £31 - Whitcombe's beef price rose again")
    main = _MAIN_CLAUSE_RE.split(new_text, maxsplit=1)[0]
    main = main if m.end() <= len(main) else new_text
    names = [
        lexical.unpossessed(t).lower()
        for t in tokens(main)[1:]
        if t[:1].isupper() and not _timeword(t)
    ]
    first = next(iter(tokens(new_text)), "")
    if first[:1].isupper() and first.lower() not in cw.STOP and not cw.change_word(first.lower()):
        names.append(lexical.unpossessed(first).lower())  # not "Raised …", a verb
    agent = _PRICE_SETTER_RE.match(new_text[: m.start()])
    if agent is not None and _content(agent.group("of")) & _content(old_text):
        # who puts the price up, not whose it is: "Fresh Start are putting the dinner price
        # up to £2.75" for "School dinners are £2.60 a day" (the dinners' price)
        setter = {t.lower() for t in tokens(agent.group("who"))}
        names = [n for n in names if n not in setter]
        one_amount = one_amount and bool(names)
    if not names and one_amount:
        return None  # whose price it is: said in the note, or the part it names
    if any(n not in said for n in names):
        return None  # whose price it is, said in the entry
    per_new, per_old = _per(new_text), _per(old_text)
    if per_new and per_old and not per_new & per_old:
        return None  # a price per page is no new price per word
    at = olds[0]
    return old_text[: at.start()] + money.rstrip(".,") + old_text[at.start() + len(was) :]


# words of a price list's part that say how it is priced, not what: "Croissants are £2.80 each"
_PRICED_BY = frozenset(
    (  # noqa: SIM905
        "is are each a an per the now costs cost price priced at for from today go goes up down "
        "to on new"
    ).split()
)


@functools.lru_cache(maxsize=1 << 14)
def _money_in(text: str) -> tuple[re.Match[str], ...]:
    """The amounts of money ``text`` gives (cached: read once per text)."""
    return tuple(MONEY_RE.finditer(text))


_PRICED_PART_RE = re.compile(r"(?:(?!\s+(?:and|&)\s+)(?:[^,;]|(?<=\d),(?=\d)))+")


@functools.lru_cache(maxsize=1 << 14)
def _priced_parts(
    text: str,
) -> tuple[list[re.Match[str]], tuple[re.Match[str], ...]] | None:
    """The parts of a price list (between commas or ";") and their amounts, one each, or
    None where ``text`` is no such list (cached: read once per text)."""
    olds = _money_in(text)
    if len(olds) < 2:
        return None
    parts = [p for p in re.finditer(r"(?:[^,;]|(?<=\d),(?=\d))+", text) if p.group(0).strip()]
    if len(parts) != len(olds):  # the last joined by "and": "Paperbacks are 99p and hardbacks
        # £2.49"
        parts = [p for p in _PRICED_PART_RE.finditer(text) if p.group(0).strip()]
    if len(parts) != len(olds):
        return None
    if any(sum(p.start() <= o.start() < p.end() for o in olds) != 1 for p in parts):
        return None
    return parts, olds


def priced_part_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with the price of its one part the newer note names put right, when the
    entry is a list of priced parts, one amount each ("Cat spay is £145, cat castrate £95",
    then "Cat spay is now £160 on the new surgical price list": "Cat spay is £160, cat castrate
    £95"; "Croissants are £2.80 each, pain au chocolat £3.00", then "Croissants go up to £3.10
    from today …; pain au chocolat stays the same"), or None: the note's first clause gives
    one amount, in the same currency, and every word of one part only (the amount and how it
    is priced aside); nothing it names is not said in the entry, and it is no price for a group
    apart ("for under-18s")."""
    listed = _priced_parts(old_text)
    new_text = _WAS_SAID_RE.sub("", new_text)  # "£72 from today (was £65)": the old amount
    if listed is None or len(_money_in(new_text)) != 1:
        return None  # a list of priced parts, one amount each; one amount in the note
    parts, olds = listed
    if "?" in new_text or (cw.intended(new_text) and not cw.found(cw.DECIDED_RE, new_text)):
        return None
    first = re.split(r";\s|\s[-–—]\s|\s(?:because|as|since|but)\s", new_text)[0]
    news = list(MONEY_RE.finditer(first))
    if len(news) != 1 or temporal.tense(first) < 0:
        return None  # "Sold 20 child tickets, £100 taken": what happened
    if any(_digit(t) for t in tokens(MONEY_RE.sub(" ", cw.RESOLVED_RE.sub("", first)))):
        return None  # a count or a day besides the price: more than a price said again
    said = {lemma(t.lower()) for t in tokens(first) if not MONEY_RE.fullmatch(t)}

    def words(part: str) -> set[str]:
        return {
            lemma(t.lower())
            for t in tokens(MONEY_RE.sub(" ", part))
            if t.lower() not in cw.STOP and t.lower() not in _PRICED_BY and not _digit(t)
        }

    named = [p for p in parts if (w := words(p.group(0))) and w <= said]
    if len(named) != 1:
        return None
    if re.search(
        r"\bfor (?:the )?(?:under|over)[- ]?\d|\bfor (?:children|kids|members)\b", first, re.I
    ):
        return None
    told = {lemma(t.lower()) for t in tokens(old_text)}
    if any(t[:1].isupper() and lemma(t.lower()) not in told for t in tokens(first)[1:]):
        return None  # a name the entry does not say: another's price
    payer = _PAYER_OPENS_RE.match(first)
    if payer and lemma(payer.group(1).lower()) not in told:
        return None  # "Bupa pays £46 per follow-up session": the insurer's rate
    if any(lemma(w.lower()) not in told for w in possessors(first)):
        return None  # "Bupa's rate for a follow-up is £52": the insurer's, not the clinic's
    at = next(o for o in olds if named[0].start() <= o.start() < named[0].end())
    was, now = at.group(0).rstrip(".,"), news[0].group(0).rstrip(".,")
    if was == now or money_unit(was) != money_unit(now):
        return None
    return old_text[: at.start()] + now + old_text[at.start() + len(was) :]


# the old value in brackets after the new: "goes up to £72 from today (was £65)"
_WAS_SAID_RE = re.compile(r"\s*\((?:was|previously|formerly|before)\b[^)]*\)", re.I)
# one who pays or charges, named first: "Bupa pays £46 per follow-up session"
_PAYER_OPENS_RE = re.compile(
    r"\s*([A-Z][\w&'’-]*)(?:\s+[A-Z][\w&'’-]*)*\s+(?:pays?|charges?|gives?|offers?|covers?|"
    r"reimburses?|funds?|allows?)\b"
)
# an amount said as what a thing is now: "AV line in the budget is now $21,000"
_NOW_AMOUNT_RE = re.compile(
    rf"^\s*(?P<what>[^.;:!?]+?)\s+(?:is|are)\s+now\s+(?P<money>{MONEY_RE.pattern})", re.I
)


def now_amount_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its one amount of money put right, when the newer note says what
    the thing it names is now ("AV budget line set at $18,500 (projectors, mics, keynote
    streaming)", then "AV line in the budget is now $21,000 after adding a second projector":
    "AV budget line set at $21,000 (…)"), or None: every word of what the note names is said
    in the entry (two at least), the entry gives one amount, in the same currency, the note
    one, and names nothing the entry does not."""
    heard = _SAYS_RE.match(new_text)  # who says so is no part of what costs it
    if heard is not None and _NOW_AMOUNT_RE.match(new_text[heard.end() :]):
        new_text = new_text[heard.end() :]
    m = _NOW_AMOUNT_RE.match(new_text)
    if m is None or "?" in new_text or cw.intended(m.group(0)):
        return None
    olds = _money_in(old_text)
    if len(olds) != 1 or len(_money_in(new_text)) != 1:
        return None
    was, now = olds[0].group(0).rstrip(".,"), m.group("money").rstrip(".,")
    if was == now or money_unit(was) != money_unit(now):
        return None
    said = {lemma(t.lower()) for t in tokens(old_text)}
    what = [lemma(t.lower()) for t in tokens(m.group("what")) if t.lower() not in cw.STOP]
    # a word of price is any of them, the entry's one amount being what the thing costs ("the
    # Velvet Hours fee is now £2,900" for "Velvet Hours charge £2,750 for three sets")
    named = [w for w in what if w not in _PRICE_LEMMAS]
    if len(what) < 2 or not named or not all(said_loosely(w, said) for w in named):
        return None
    rest = re.split(r"[,;:]\s|\s[-–—]\s|\s(?:after|because|since|as|so|but)\s", new_text[m.end() :])
    clause = m.group(0) + rest[0]  # a reason after it names no one whose amount it is
    if any(t[:1].isupper() and lemma(t.lower()) not in said for t in tokens(clause)[1:]):
        return None  # a name the entry does not say: another's amount
    if _per(clause) and _per(old_text) and not _per(clause) & _per(old_text):
        return None  # a price per page is no new price per word
    at = olds[0]
    return old_text[: at.start()] + now + old_text[at.start() + len(was) :]


# a tally, alone: "182 registrations so far", "241 registrations as of this morning"
_TALLY_NOW_RE = re.compile(
    r"^\s*(?P<n>\d[\d,]*)\s+(?P<what>[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)\s*"
    r"(?:so far|to date|now|today|in total|this (?:morning|afternoon|evening|week)|"
    r"as of [^.;,]+)?\s*[.!]?\s*$",
    re.I,
)


def tally_put_right(new_text: str, old_text: str) -> str | None:
    """The newer note, when both are a tally alone of one thing and the number differs ("182
    registrations so far", then "241 registrations as of this morning"), or None."""
    new, old = _TALLY_NOW_RE.match(new_text), _TALLY_NOW_RE.match(old_text)
    if new is None or old is None or new.group("n") == old.group("n"):
        return None
    what = [" ".join(lemma(w.lower()) for w in m.group("what").split()) for m in (new, old)]
    return new_text if what[0] == what[1] else None


# a thing named by its number at a text's start: "Invoice 1043: …", "Flat 2 rent is …"
_NAMED_BY_NUMBER_RE = re.compile(
    r"^\W*(?:[A-Za-z][\w'’-]*\s+){1,2}#?\d[\w.-]*(?:\s*:|\s+(?!is\b|are\b)\w)"
)
# what opens a range of days before its last one: "12-", "12th to ", "from 12 until "
_RANGE_END_RE = re.compile(r"\d(?:st|nd|rd|th)?\s*(?:[-–]|to|until|till|and)\s*$", re.I)
RESTATED_SHARED = 2  # content words a day said again shares with the entry, the day aside


# a thing moved to a place written in lower case: "Committee meetings moved to the music room"
_MOVED_PLACE_RE = re.compile(
    r"^\s*(?P<what>[^.;:!?]+?)\s+(?:have\s+|has\s+)?(?:moved|relocated)\s+to\s+"
    r"(?P<place>the\s+[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,3}?)(?=\s[-–—]\s|[.;,(]|\s+(?:from|for|until|because)\b|$)"
)
_PARTS_OF_DAY = frozenset("morning afternoon evening night lunchtime weekend".split())  # noqa: SIM905
# where an entry says a thing is held: "are held in the school library at 7pm"
_HELD_PLACE_RE = re.compile(
    r"\b(?:held|is|are|meets?|happens?|takes?\s+place)\s+(?:in|at)\s+"
    r"(?P<place>the\s+[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,3}?)(?=\s+(?:at|on|every|from)\b|[.;,(]|$)"
)


# a thing moved to a place with a name: "Annual dinner moved to Heybridge Golf Club"
_MOVED_NAMED_RE = re.compile(
    r"^\s*(?P<what>[^.;:!?]+?)\s+(?:have\s+|has\s+|is\s+|was\s+)?(?:moved|relocated|"
    rf"switched)\s+(?:over\s+)?(?:in)?to\s+(?P<art>the\s+)?(?P<place>{_SWAP_NAME})"
)
# a thing moved by us, said verb first: "Switched the camera package to Northlight Cine today"
_SWITCHED_NAMED_RE = re.compile(
    r"^\s*(?i:(?:(?:we|I)(?:\s+have|['’]ve)?\s+)?(?:switched|moved|transferred))\s+"
    rf"(?P<what>(?:(?:the|our)\s+)?[a-z][^.;:!?]*?)\s+(?:over\s+)?to\s+(?P<art>the\s+)?"
    rf"(?P<place>{_SWAP_NAME})"
)
# an entry whose subject is the one who does a thing: "Redline Coaches are the coach firm …"
_NAMED_SUBJECT_RE = re.compile(rf"^\s*(?P<who>{_SWAP_NAME})\s+(?:is|are)\s+(?:the|our)\s+[a-z]")
# an entry that opens with a name, then what it does: "Brightwash Laundry picks up …"
_NAMED_OPENER_RE = re.compile(rf"^\s*(?P<who>{_SWAP_NAME})\s+(?=[a-z])")
# where an entry says a named place is: "Saturday 21 November at the Anchor Hotel"
# ("Playout runs on RadioDJ": what a thing runs on; not "is on Baker Street", a street)
_AT_NAMED_RE = re.compile(
    r"\b(?:at|in|with|from|by|(?:(?<=runs )|(?<=run )|(?<=hosted )|(?<=built )|(?<=based ))on"
    rf"(?!\s+{DAY_NAMES}))\s+(?P<art>the\s+)?(?P<place>{_SWAP_NAME})"
)


def moved_place_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its place put right, when the newer note tells the thing it opens
    with moved to another place said in lower case ("Committee meetings are held in the school
    library at 7pm", then "Committee meetings moved to the music room — …": "… held in the
    music room at 7pm"), or None: every word of what moved is said before the entry's place,
    which it gives once."""
    m = _MOVED_PLACE_RE.match(new_text)
    if m is None and "?" not in new_text:
        return _moved_named_place(new_text, old_text)
    if m is None or "?" in new_text:
        return None
    places = list(_HELD_PLACE_RE.finditer(old_text))
    if len(places) != 1:
        return None
    old_place, new_place = places[0].group("place"), m.group("place")
    if old_place.lower() == new_place.lower() or any(
        _when_word(w) or w.lower() in cw.RELATIVE or w.lower() in _PARTS_OF_DAY
        for w in tokens(new_place)
    ):
        return None  # "moved to the afternoon", "to the following week": a time, no place
    what = {lemma(t.lower()) for t in tokens(m.group("what")) if t.lower() not in cw.STOP}
    before = {lemma(t.lower()) for t in tokens(old_text[: places[0].start()])}
    if not what or not what <= before:
        return None  # "The staff meeting moved to the hall" is nothing of the committee's
    at = places[0].span("place")
    return old_text[: at[0]] + new_place + old_text[at[1] :]


def _done_by_role(told: str, what: set[str]) -> bool:
    """Whether what a named one does (``told``, after its name) is what the role in ``what``
    does, and of the same thing: "supply our hot school dinners" for "our school dinner
    supplier" (the verb another form of the role's word, another word of it said after the
    verb)."""
    words = [lemma(t.lower()) for t in tokens(told)]
    if not words:
        return False
    verb, rest = words[0], set(words[1:])
    roles = {w for w in what if w != verb and said_loosely(verb, {w})}
    return bool(roles) and bool((what - roles) & rest)


# the one left, named before the one taken on: "from SumUp to Zettle"
_FROM_NAMED_RE = re.compile(r"\bfrom\s+(?P<old>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,3})\s+to\b")


def _moved_named_place(new_text: str, old_text: str) -> str | None:
    """:func:`moved_place_put_right` for a place with a name ("Annual dinner: Saturday 21
    November at the Anchor Hotel. Rob paid the £250 deposit.", then "Annual dinner moved to
    Heybridge Golf Club; …": "… at Heybridge Golf Club. Rob paid …"): what moved is a thing
    (a word in lower case; "Tom moved to Berlin" is no new employer of "Tom works at Google"),
    all said before the one named place the entry gives after "at" or "in"."""
    m = _MOVED_NAMED_RE.match(new_text) or _SWITCHED_NAMED_RE.match(new_text)
    if m is None or cw.intended(re.split(r"[.;]\s|\s[-–—]\s", new_text)[0]):
        return None  # (a reason after it may say what could not be: "… could not hold …")
    words = [t for t in tokens(m.group("what")) if t.lower() not in cw.STOP]
    lower = {t for t in tokens(old_text) if t[:1].islower()}
    # (a thing's word opening the note: "Van moved to …" for "The van … is parked at …")
    if not any(t[:1].islower() or t.lower() in lower for t in words):
        return None
    what = {lemma(t.lower()) for t in words}
    places = list(_AT_NAMED_RE.finditer(old_text))
    new_place = m.group("place")
    left = _FROM_NAMED_RE.search(new_text)
    if left is not None and left.group("old") != new_place:
        # the one left named: that name put right, wherever the entry says it ("Switched our
        # card reader from SumUp to Zettle" for "Card payments at events go through SumUp; the
        # reader is kept in the PTA cupboard"), or nothing
        said = list(re.finditer(rf"(?<![\w-]){re.escape(left.group('old'))}(?![\w-])", old_text))
        if len(said) != 1:
            return None
        if re.match(r"\s+(?:on|at|in)\s+[A-Z]", old_text[said[0].end() :]):
            return new_text  # where the one left is goes with it: "Greggs on Station Road"
        return old_text[: said[0].start()] + new_place + old_text[said[0].end() :]
    subject = _NAMED_SUBJECT_RE.match(old_text)
    if not places and subject is not None and new_place.lower() not in old_text.lower():
        # "Redline Coaches are the coach firm we normally use for trips", then "Switched the
        # trip coach firm to Chiltern Travel": the entry's subject is who does it
        said = {lemma(t.lower()) for t in tokens(old_text[subject.end("who") :])}
        if all(said_loosely(w, said) for w in what):
            return new_place + old_text[subject.end("who") :]
        return None
    opener = _NAMED_OPENER_RE.match(old_text)
    if (
        not places
        and opener is not None
        and " " in opener.group("who")  # a name of words ("User prefers …" opens with none)
        and new_place.lower() not in old_text.lower()
        and (
            lemma(opener.group("who").split()[-1].lower()) in what
            or _done_by_role(old_text[opener.end() :], what)
        )
        # every word of what moved said in the entry: "switched skip hire" is nothing of
        # "Carter Plant Hire charge £145 a day for the 1.5t mini digger"
        and all(said_loosely(w, {lemma(t.lower()) for t in tokens(old_text)}) for w in what)
    ):
        # "Brightwash Laundry picks up sheets and towels on Tuesdays …", then "We've switched
        # our laundry to Crisp Linen Co": the one named for the thing is gone, and what the
        # entry tells of it (its days) is theirs: the note takes its place whole
        return new_text
    if len(places) != 1 or new_place.lower() in old_text.lower():
        return None  # one named place, with whom or where: "booked with Redline Van Hire: …
        # pick-up in Sheffield" names two
    if len(re.findall(rf"\b{re.escape(places[0].group('place'))}\b", old_text)) != 1:
        return None  # "Van fuel cards are Shell - fill up at the Shell on Cross Lane": the
        # provider said again as a place
    before = {lemma(t.lower()) for t in tokens(old_text[: places[0].start()])}
    if not what <= before:
        return None
    if any(temporal.day_name(p.split()[0]) or p.split()[0].lower().rstrip(".") in TITLES
           for p in (places[0].group("place"), new_place)):  # fmt: skip
        return None  # "in October", "to Friday 11am" are times; "with Dr. Alvarez" no place
    start = places[0].start("art") if places[0].group("art") else places[0].start("place")
    end = places[0].end()
    # what kind of place and which one of it goes with the name: "the Elm Street lot, bay 12"
    # moved "to the Harbour Road garage, unit 3"
    held = _PLACE_TAIL_RE.match(old_text, end)
    if held is not None:
        told = _PLACE_TAIL_RE.match(new_text, m.end("place"))
        end = held.end()
        new_place += told.group(0) if told is not None else ""
    return old_text[:start] + (m.group("art") or "") + new_place + old_text[end:]


# the kind of place after its name, and which one of it: " lot, bay 12", " garage, unit 3"
_PLACE_TAIL_RE = re.compile(
    r"\s+(?:lot|garage|yard|depot|car park|site|hall|building|unit|store|warehouse|office|"
    r"studio|room)(?:,?\s+(?:bay|unit|room|suite|pitch|stand|floor|level|space)\s+\w+)?\b"
)


# who holds a role, one to a role: "Dana Whitfield is the platform engineering manager",
# "Our accountant is Daniel Reeve", "The site lead is now Priya"
_HOLDER_IS_ROLE_RE = re.compile(
    r"^\s*(?P<who>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2})"
    # where they are: "Derek Asante at the council is our parks liaison"
    r"(?:\s+(?:at|from)\s+(?:the\s+)?[\w'’-]+(?:\s+[\w'’-]+)?)?\s+is\s+(?:now\s+)?(?:the|our)\s+"
    r"(?P<role>[a-z][\w'’ -]*?)\s*(?=[.;,(]|\s[-–—]\s|\s+(?:from|as of|starting|until)\b|$"
    # "… is the station manager and signs off any schedule change": the role ends at its verb
    r"|\s+(?:and|who)\s+(?:also\s+)?[a-z]+s\b)"
)
_ROLE_IS_HOLDER_RE = re.compile(
    r"^\s*(?:the|our)\s+(?P<role>[a-z][\w'’ -]*?)\s+is\s+(?:now\s+)?"
    # who, in capitals ("The billing service is written in Go" names no holder)
    r"(?P<who>(?-i:[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2}))\s*(?=[.;,(]|\s[-–—]\s|\s+at\b|$)",
    re.I,
)


# where a role said ends: "is the reserves coach from this week", "… secretary; Graham …"
_ROLE_END = (
    r"\s*(?=[.;,(]|:\s|\s[-–—]\s|\s+(?:from|as of|starting|until|at|now that|because|since"
    r"|while|so that)\b|$"
    # "Priya Shah is head nurse and does the nurse rota": the role ends at its verb
    r"|\s+(?:and|who)\s+(?:also\s+)?[a-z]+(?:s|es)\b)"
)
# someone taking a role over: "Sunita Rao has taken over as league fixtures secretary"
_TOOK_OVER_ROLE_RE = re.compile(
    r"^\s*(?P<who>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2})\s+(?:(?:has\s+taken|took|takes|"
    # "… has taken over from Harriet Moss as events coordinator"
    r"is\s+taking)\s+over(?:\s+from\s+[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)?"
    # "… has replaced Dean Rowley as Crew A foreman"
    r"|(?:has\s+replaced|replaced|replaces|is\s+replacing)\s+[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)"
    # (a role may open with what it is of: "Crew A foreman")
    rf"\s+as\s+(?:the\s+|our\s+)?(?P<role>(?:[A-Z][\w'’-]*\s+(?:[A-Z0-9]\w*\s+)?)?"
    rf"[a-z][\w'’ -]*?){_ROLE_END}"
)
# a role named with no article, a role's word last: "League fixtures secretary is Graham Pellow"
_BARE_ROLE_IS_HOLDER_RE = re.compile(
    r"^\s*(?P<role>[A-Z]?[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,3})\s+is\s+(?:now\s+)?"
    # (a firm's name with "&": "Caterer is Saffron & Sage: …")
    rf"(?P<who>[A-Z][\w'’-]+(?:\s+(?:&\s+)?[A-Z][\w'’-]+){{0,2}}){_ROLE_END}"
)
# who holds a role with no article, a role's word last: "Gemma Hurst is weekend shift lead"
_BARE_HOLDER_IS_ROLE_RE = re.compile(
    r"^\s*(?P<who>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2})\s+is\s+(?:now\s+)?"
    # (what it is of, in capitals, may open it: "Gareth Holloway is PTA treasurer")
    rf"(?:[A-Z]{{2,5}}\s+)?(?P<role>[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){{0,3}}"
    # of what, by its name: "Dean Rowley is foreman of Crew A"
    r"(?:\s+of\s+(?:the\s+)?[A-Z][\w'’-]*(?:\s+[A-Z0-9][\w'’-]*)?)?)"
    rf"{_ROLE_END}"
)
# a round of work said with who does it after: "The after-school club (Owls) is run by Jade Okoro"
_DONE_BY_RE = re.compile(
    r"^\s*(?:[Tt]he|[Oo]ur)\s+(?P<role>[a-z][\w'’ -]*?)(?:\s*\([^()]*\))?\s+(?:is|are)\s+"
    r"(?:now\s+)?"
    r"(?:run|led|done|covered|handled|coached|taught)\s+by\s+"
    rf"(?P<who>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){{0,2}}){_ROLE_END}"
)
# someone doing a round of work, said as theirs: "Tomasz does Dad's morning visits"
_HOLDER_DOES_RE = re.compile(
    r"^\s*(?P<who>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2})\s+(?:now\s+)?"
    r"(?P<verb>does|covers|runs|handles|leads|coaches|teaches|drives|looks\s+after|"
    r"(?:is\s+taking|has\s+taken|took|takes)\s+over)\s+"
    r"(?P<role>(?:the|our)\s+[\w'’: -]+?|[A-Z][\w'’-]*['’]s\s+[\w'’: -]+?|"
    r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?\s+[\w'’: -]+?|"
    # a group named: "leads Crew B", "has taken over Crew B"
    rf"[A-Z][a-z][\w'’-]*\s+(?:[A-Z0-9]{{1,3}}|[A-Z][a-z][\w'’-]*))(?:(?=\s+(?:for|evenings?|mornings?|afternoons?|nights?|weekends?|weekdays|every)\b)|{_ROLE_END})"
)
# someone new in a role: "Rosa Delgado started today as our hygienist", "Kofi Mensah replaced
# Tomasz Wren as gaffer"
_STARTED_AS_RE = re.compile(
    r"^\s*(?P<who>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2})\s+"
    # where they come from: "Liam Fraser from the Brightstaff agency is covering as …"
    r"(?:(?:from|of)\s+(?:the\s+)?[A-Z][\w'’-]+(?:\s+[a-z][\w'’-]*)?\s+)?(?:has\s+)?"
    r"(?:started|starts|is\s+starting|joined(?:\s+us)?|replaced\s+[A-Z][\w'’-]+"
    r"(?:\s+[A-Z][\w'’-]+)?|is\s+replacing\s+[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?"
    # "Priya Nair is coming in as sous chef", "Paul Grant is covering as cook"
    r"|(?:is\s+|has\s+)?(?:coming|comes|came|come|stepping|steps|stepped)\s+in"
    r"|is\s+(?:joining|covering)|joins|covers)"
    r"(?:\s+(?:today|this\s+week|on\s+\w+))?(?:\s+\(\d{4}-\d{2}-\d{2}\))?\s+as\s+"
    rf"(?:the\s+|our\s+|a\s+)?(?P<role>[a-z][\w'’ -]*?){_ROLE_END}"
)
# a new holder of a role, said of whose the role is: "Fresh Plates have a new area manager,
# Marcus Pryce", "Brookside have a new account manager: Sam Reid"
_NEW_ROLE_NAMED_RE = re.compile(
    r"^\s*(?:[A-Z][\w'’&-]*(?:\s+[A-Z&][\w'’-]*){0,3})\s+(?:has|have)\s+"
    r"(?:got\s+|given\s+(?:us|me)\s+|appointed\s+|sent\s+(?:us|me)\s+)?a\s+new\s+"
    r"(?P<role>[a-z][\w'’ -]*?)(?:,|:|\s+[-–—])\s+"
    r"(?P<who>(?:(?:Dr|Mr|Mrs|Ms|Miss)\.?\s+)?[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2})\b"
)
# someone taking a role on: "Graham Toal has agreed to take on welfare officer"
_TAKES_ON_ROLE_RE = re.compile(
    r"^\s*(?P<who>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2})\s+(?:has\s+agreed\s+to\s+|(?:has|have)\s+"
    r"|will\s+|is\s+going\s+to\s+)?(?:take|takes|took|taken|taking)\s+on\s+"
    r"(?:the\s+(?:role|job|post)\s+of\s+|as\s+)?(?:the\s+|our\s+)?"
    rf"(?P<role>[a-z][\w'’ -]*?){_ROLE_END}"
)
_TAKING_OVER_RE = re.compile(r"\b(?:taking|taken|took|takes)\s+over\b")
# a role said before its holder's name: "Locum Dr Hannah Pryce covers Wednesdays"
_ROLE_BEFORE_HOLDER_RE = re.compile(
    r"^\s*(?:(?:Our|The)\s+)?(?P<role>[A-Z][a-z]+(?:\s+[a-z]+)?)\s+"
    r"(?P<who>(?:(?:Dr|Mr|Mrs|Ms|Miss|Prof)\.?\s+)?[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2})\s+"
    r"(?:covers|does|is|works|runs|leads|handles|takes|teaches|coaches|comes)\b"
)


# the ways of saying a role that more than one may hold: a role with no article ("Tom is team
# lead"), a round of work ("Tomasz does Dad's morning visits")
# a role as a label, its holder after: "Electrician we use: Nina Cole at Sparkwell Electrical"
_ROLE_LABEL_RE = re.compile(
    r"^\s*(?:(?:Our|The)\s+)?(?P<role>[A-Z]?[a-z]+(?:\s+[a-z]+){0,2}?)"
    r"(?:\s+we\s+(?:use|have|go\s+to))?:\s+"
    r"(?P<who>(?:(?:Dr|Mr|Mrs|Ms|Miss|Prof)\.?\s+)?[A-Z][\w'’-]+(?:\s+(?:&\s+)?[A-Z][\w'’-]+){0,2})"
    r"\s*(?=[.;,(]|\s[-–—]\s|\s+at\b|$)"
)
_SHARED_ROLE_RES = (_BARE_ROLE_IS_HOLDER_RE, _BARE_HOLDER_IS_ROLE_RE, _HOLDER_DOES_RE, _DONE_BY_RE)


# words after a role that say when, not which: "… is the cleaner now", "does our accounts now"
_ROLE_AFTERWORDS = frozenset({"now", "currently", "instead", "again"})
# a role's holder switched, said with the role in the plural: "Switched caterers: Bluebell
# Kitchens will do all meals", "We've changed accountants to Shah & Co"
_SWITCHED_ROLE_RE = re.compile(
    r"^\s*(?:(?:[Ww]e|I)(?:\s+have|['’]ve)?\s+)?(?:[Ss]witched|[Cc]hanged)\s+(?:our\s+|the\s+)?"
    r"(?P<role>[a-z][\w'’-]*?)s\s*(?::\s+|\s+to\s+)"
    r"(?P<who>[A-Z][\w'’-]+(?:\s+(?:&\s+)?[A-Z][\w'’-]+){0,2})"
)


@functools.lru_cache(maxsize=1 << 14)
def _role_held(text: str, loose: bool = False) -> tuple[str, str, bool] | None:
    """(who, role, shared) of a text that opens saying who holds a role, the role lemmatised;
    who owns a thing too ("Priya Nair owns payments_ingest", "payments_ingest owner: Tomasz
    Kowal"), or does a round of work ("Tomasz does Dad's morning visits": the role "doing …").
    ``shared``: said a way that more than one may hold it (:data:`_SHARED_ROLE_RES`).
    ``loose``: a role named bare is any word, not only one of :data:`_HELD_ROLES` ("Gaffer is
    Tomasz Wren", read where another note says someone took that role over)."""
    for rx in (_HOLDER_IS_ROLE_RE, _ROLE_IS_HOLDER_RE, _TOOK_OVER_ROLE_RE, _STARTED_AS_RE,
               _TAKES_ON_ROLE_RE, _NEW_ROLE_NAMED_RE,
               _SWITCHED_ROLE_RE, _BARE_ROLE_IS_HOLDER_RE, _BARE_HOLDER_IS_ROLE_RE, _HOLDER_DOES_RE,
               _DONE_BY_RE, _ROLE_BEFORE_HOLDER_RE, _ROLE_LABEL_RE):  # fmt: skip
        m = rx.match(text)
        who = (
            [w for w in m.group("who").split() if w.lower().rstrip(".") not in TITLES] if m else []
        )
        if who and who[0].lower() not in cw.STOP:
            role = _ROLE_TIME_RE.sub("", m.group("role"))  # "Our electrician from now on"
            words = [lemma(t.lower()) for t in tokens(role)]
            while len(words) > 1 and words[-1] in _ROLE_AFTERWORDS:
                words.pop()  # "Ewa Lis is the cleaner now": the role is "cleaner"
            if (
                rx
                in (
                    _BARE_ROLE_IS_HOLDER_RE,
                    _BARE_HOLDER_IS_ROLE_RE,
                    _ROLE_BEFORE_HOLDER_RE,
                    _ROLE_LABEL_RE,
                )
                and (words[: words.index("of")] if "of" in words[1:] else words)[-1]
                not in _HELD_ROLES  # "foreman of Crew A": the role before "of"
                and not loose
            ):
                continue  # "Cake is Victoria sponge", "Tom is very tired": no role
            if rx in (_HOLDER_DOES_RE, _DONE_BY_RE):  # "does", "is taking over", "is run by"
                # who leads, coaches or teaches it is its lead, coach or teacher
                verb = m.groupdict().get("verb") or ""
                agent = _AGENT_OF.get(verb.split()[0].lower(), "") if verb else ""
                words = ["doing", *(w for w in words if w not in ("the", "our"))]
                words += [agent] if agent else []
            return m.group("who"), " ".join(words), rx in _SHARED_ROLE_RES
    for rx in _OWNER_RES:
        m = rx.match(text)
        if m and m.group("who").split()[0].lower() not in cw.STOP:
            return m.group("who"), "owner of " + m.group("what").lower(), False
    return None


# when a role is held, said after it: "from now on", "for now"
_ROLE_TIME_RE = re.compile(
    r"\s+(?:from now on|from today|for now|these days|at the moment|at present|going forward)$"
)


_WHO = r"(?P<who>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2})"
_OWNED = r"(?P<what>[\w.'’/-]*[\w'’/-])"  # one thing's name: "payments_ingest", "the-repo"
_OWNER_END = r"\s*(?=[.;,(]|\s[-–—]\s|$)"
_OWNER_RES = (
    re.compile(rf"^\s*{_WHO}\s+(?:now\s+)?(?:owns|is\s+the\s+owner\s+of)\s+{_OWNED}{_OWNER_END}"),
    re.compile(rf"^\s*{_OWNED}(?:'s|’s)?\s+(?i:owner)(?:\s+is(?:\s+now)?|:)\s+{_WHO}{_OWNER_END}"),
    re.compile(rf"^\s*{_OWNED}\s+is\s+(?:now\s+)?owned\s+by\s+{_WHO}{_OWNER_END}"),
)


_AGENT_OF = {
    "leads": "lead",
    "coaches": "coach",
    "teaches": "teacher",
    "runs": "runner",
    "drives": "driver",
}
# words of a role that say how it is held, not which role: "the new cleaner", "acting practice
# manager", "does our cleaning"
_HOLDING_WORDS = frozenset({"the", "our", "new", "act", "acting", "interim", "doing", "a", "of"})
# a word that tells a role changed hands: "our new cleaner", "acting practice manager from
# today", "started as", "replaced …"
_NEW_HOLDER_RE = re.compile(
    r"\b(?:new|acting|interim|started|starts|starting|joined|replac\w*|instead of|"
    r"from (?:today|this week|now on|(?:this |next )?(?:mon|tues|wednes|thurs|fri|satur|sun)day))"
    r"\b",
    re.I,
)


def _role_key(role: str) -> frozenset[str]:
    """The words of a role, each without the ending of its form ("cleaning", "cleaner":
    "clean"), less those that say how it is held (:data:`_HOLDING_WORDS`)."""
    role = re.split(r"\s+at\s+", role)[0]  # "building manager at Vermeer Properties"
    return frozenset(_root(w) or w for w in role.split() if w not in _HOLDING_WORDS)


def _roles_alike(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two role keys name one role: the same words, or one's all said in the other,
    two words at least, and one word more, a word of a role ("Tuesday 18:30 vinyasa" of
    "Tuesday 18:30 vinyasa flow", "Crew B" of "Crew B lead"; not "crew" of "crew b", a label,
    nor "film" of "council film office contact")."""
    if a == b:
        return bool(a)
    small, big = sorted((a, b), key=len)
    return (
        small < big
        and len(small) >= 2
        and len(big - small) == 1
        and all(len(w) > 2 and w.isalpha() for w in big - small)
    )


def _role_part(
    parts: list[str], role: str | None = None
) -> tuple[int, tuple[str, str, bool] | None]:
    """The first part after the first of an entry's parts (between ";") that gives a role's
    holder, that role where ``role`` is given, and where it stands; (0, None) for none."""
    for k, part in enumerate(parts[1:], 1):
        held = _role_held(part)
        if held and (role is None or _roles_alike(_role_key(role), _role_key(held[1]))):
            return k, held
    return 0, None


def role_holder_put_right(new_text: str, old_text: str) -> str | None:
    """The newer note, when it tells that someone else holds the role the older text opens
    giving its holder of ("Dana Whitfield is the platform engineering manager; Sev1
    escalations go to her", then "Luis Ortega is the platform engineering manager; Sev1
    escalations go to him"; "Marta Kowalski does our cleaning", then "Our new cleaner is
    Dorota Nowak"), or None: the roles' words alike (:func:`_roles_alike`), a role said with
    "the" or "our" has one holder, and the two holders share no word. What the older text says
    more is of its holder, and goes."""
    new, old = _role_held(new_text), _role_held(old_text)
    if new is None and old is None:
        return None  # (two entries each of parts, "…; the planner there is Ann", are two
        # clients' planners, not one role handed over)
    if new is None:  # "Sparkwell have stopped taking rental work. Our electrician from now on
        # is Sam Ortiz at Brightline Electrics": the sentence that gives the role's holder
        parts = [*lexical.sentences(new_text)[1:], *re.split(r";\s+", new_text)[1:]]
        new = next(filter(None, map(_role_held, parts)), None)
    parts, at = re.split(r";\s+", old_text), 0
    if old is None:  # "Sandra Okoye has left the charity; Mark Bellamy is covering as area
        # manager for now": the part that gives the role's holder
        at, old = _role_part(parts)
    if old is None and any(
        rx.match(new_text)
        for rx in (_TOOK_OVER_ROLE_RE, _STARTED_AS_RE, _SWITCHED_ROLE_RE, _TAKES_ON_ROLE_RE)
    ):
        old = _role_held(old_text, loose=True)  # "Gaffer is Tomasz Wren", for "… takes over
        # as gaffer": the role is what the note says was taken over
    if new is None or old is None or "?" in new_text:
        return None
    if not _roles_alike(_role_key(new[1]), _role_key(old[1])):
        # another part of the older text may give the role: "Landlord is Brightwell Lettings;
        # our property manager there is Gareth Price"
        at, old = _role_part(parts, new[1])
        if old is None:
            return None
    if {t.lower() for t in tokens(new[0])} - TITLES & {t.lower() for t in tokens(old[0])}:
        return None  # the same holder, said again
    # a role said before a name may be a label of many ("Supplier Greenleaf Packaging is paid
    # on 30-day terms"): as one of a round of work, only a word of change hands it over
    before = any(
        (m := _ROLE_BEFORE_HOLDER_RE.match(t))
        and lemma(m.group("role").split()[-1].lower()) in _HELD_ROLES
        for t in (new_text, old_text)
    )
    if (
        ((new[2] and old[2]) or before)
        and not cw.found(cw.CHANGE_RE, new_text)
        and not _TAKING_OVER_RE.search(new_text)
        and not _NEW_HOLDER_RE.search(new_text)
    ):
        return None  # two may do one round of work ("Aisha does Dad's morning visits"), or
        # hold a role said with no article ("Tom is team lead"); one "now" does it in place
        # of the other
    whose = re.match(r"\s*((?:[A-Z][\w'’&-]*\s+)+)", new_text)
    if (
        at
        and whose is not None
        and _NEW_ROLE_NAMED_RE.match(new_text)
        and all(w in parts[0] for w in whose.group(1).split())
    ):
        # the part that gives the role's holder, put right, where the note says whose role it
        # is as the entry's first part does: that part stays ("Fresh Plates do our catering;
        # the area manager is Dawn Ellery", then "Fresh Plates have a new area manager, Marcus
        # Pryce")
        stop = old_text.rstrip()[-1:] if old_text.rstrip()[-1:] in ".!" else ""
        parts[at] = new_text.strip().rstrip(".!")
        return "; ".join(parts).rstrip(".!") + stop
    return new_text


# someone moved to another numbered place of one kind: "moved us to pitch 22", "reassigned
# her to desk 4" (a thing moved, "moved the API to port 7000", is the note's own fact)
_MOVED_TO_NUMBER_RE = re.compile(
    r"\b(?:moved|moving|switched|transferred|relocated|reassigned|put)\s+"
    r"(?:us|me|them|him|her|you|(?:our|my|the|their)\s+[a-z]{3,})\s+(?:[^.;:!?]*?\s)?"
    r"to\s+(?P<label>[a-z]{3,})\s+(?P<number>\d{1,4}[A-Z]?)\b(?![.,:]\d)"
)


# where one is now, said with "now": "Castle Square: we're pitch 9 now", "we're now on bay 4"
_NOW_ON_NUMBER_RE = re.compile(
    r"\b(?i:we['’]re|we are|I['’]m|they['’]re|it['’]s|it is)\s+(?:now\s+)?(?:on\s+|in\s+|at\s+)?"
    r"(?P<label>[a-z]{3,})\s+(?P<number>\d{1,4}[A-Z]?)\b(?![.,:]\d)(?=[^.;!?]*\bnow\b)"
    r"|\b(?i:we['’]re|we are|I['’]m|they['’]re|it['’]s|it is)\s+now\s+(?:on\s+|in\s+|at\s+)?"
    r"(?P<label2>[a-z]{3,})\s+(?P<number2>\d{1,4}[A-Z]?)\b(?![.,:]\d)"
)


def numbered_place_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with the number of its one place of a kind put right, when the newer
    note tells of a move to another of that kind ("We're on pitch 14 at Ashby market", then
    "The market office has moved us to pitch 22 at Ashby, by the fountain": "We're on pitch
    22 at Ashby market"), or None: the kind is a word in lower case ("pitch", "gate", "bay";
    not "Flat 2", a name), said with one number in the older text, and the two share a word
    besides it."""
    m = _MOVED_TO_NUMBER_RE.search(new_text) or _NOW_ON_NUMBER_RE.search(new_text)
    if m is None or "?" in new_text:
        return None
    label = m.group("label") or m.group("label2")
    number = m.group("number") or m.group("number2")
    olds = list(re.finditer(rf"\b{re.escape(label)}\s+(\d{{1,4}}[A-Z]?)\b(?![.,:]\d)", old_text))
    if len(olds) != 1 or olds[0].group(1) == number:
        return None
    if not _content(new_text) & _content(old_text) - {lemma(label)}:
        return None  # "moved the van to bay 4" is nothing of "Hall 2 … bay 7"
    at = olds[0].span(1)
    return old_text[: at[0]] + number + old_text[at[1] :]


# a day something is now due: "the council FOI response is now due 16 October"
_NOW_DUE_RE = re.compile(
    r"(?P<what>(?:[\w'’-]+\s+){1,4}?)(?:is|are)\s+now\s+due(?:\s+(?:on|by|back))?\s+"
)
_DUE_RE = re.compile(r"\bdue(?:\s+(?:on|by|back))?\s+")
# a day a thing is due, said as what must be done by it: "deposits have to be in by 18 September"
_DUE_BY_RE = re.compile(
    r"\b(?:be\s+(?:in|back|paid|returned|submitted|sent|handed\s+in)|deadline(?:\s+is)?)"
    r"(?:\s+by)?\s+$"
)


def due_day_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with the day a thing is due put right, when the newer note says it is
    now due another day ("Filed an FOI request with Northvale City Council … Reference
    FOI-2026-1183; response due 2 October", then "The council invoked an extension: the council
    FOI response is now due 16 October": "…; response due 16 October"), or None: the older text
    gives one day after "due", in a part that says the last word of what is due; the newer one
    day after "now due". An event's entry too: when it is due is no part of what was done."""
    m = _NOW_DUE_RE.search(new_text) if "due" in new_text else None  # a cheap check first
    if m is None or "?" in new_text:
        return None
    news = [d for d in DATE_SAID_RE.finditer(new_text) if d.start() == m.end()]
    dues = [
        d
        for d in DATE_SAID_RE.finditer(old_text)
        if _DUE_RE.search(old_text[max(0, d.start() - 12) : d.start()])
        or _DUE_BY_RE.search(old_text, 0, d.start())
    ]
    if len(news) != 1 or len(dues) != 1 or len(list(DATE_SAID_RE.finditer(old_text))) != 1:
        return None
    old, day = dues[0], news[0].group(0).rstrip(".")
    if old.group(0).rstrip(".").lower() == day.lower():
        return None
    head = lemma(tokens(m.group("what"))[-1].lower())
    part = re.split(r"[.;]\s", old_text[: old.start()])[-1]
    if head not in {lemma(t.lower()) for t in tokens(part)}:
        return None  # "the invoice is now due …" is no FOI response's day
    said = {lemma(t.lower()) for t in tokens(old_text)}
    if not all(said_loosely(w, said) for w in _content(m.group("what"))):
        return None  # "the council FOI response" is not the Environment Agency's
    end = old.end() - old.group(0).endswith(".")
    return old_text[: old.start()] + day + old_text[end:]


def clock_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its one time of day put right to the one the newer note gives
    ("Nightly backup runs at 22:00 from the Synology DS920+ to Backblaze B2", then "Backup job
    moved to 01:30 so it doesn't clash with partners working late": "… runs at 01:30 from the
    Synology DS920+ …"), or None: one time in each, apart, the older text saying more than the
    time, and the newer note no other number nor a name the older one lacks. Where the older
    text gives when a thing starts and when it ends, a note of when it starts puts right the
    start ("Calls now start at 10:15" for "Daily call is 10:00, finishing at 18:00"), and one
    of when it ends the end."""
    placed = _one_put_right(new_text, old_text, _CLOCK_TIME_RE)
    olds, news = list(_CLOCK_TIME_RE.finditer(old_text)), list(_CLOCK_TIME_RE.finditer(new_text))
    if placed is not None or len(olds) != 2 or len(news) != 1:
        return placed
    ends = [bool(_ENDS_BEFORE_RE.search(old_text, 0, m.start())) for m in olds]
    if ends != [False, True]:
        return None  # not a start then an end
    before = re.split(r"[,;:]\s|\s[-–—]\s", new_text[: news[0].start()])[-1]
    start, end = _STARTS_WORD_RE.search(before), _ENDS_WORD_RE.search(before)
    if bool(start) == bool(end):
        return None
    at = olds[1] if end else olds[0]
    if at.group(0).lower() == news[0].group(0).lower():
        return None
    told = new_text[: news[0].start()] + new_text[news[0].end() :]
    if _tells_more(told, old_text):
        return None  # more than the time told
    return old_text[: at.start()] + news[0].group(0) + old_text[at.end() :]


# where a time of day is when a thing ends: "finishing at 18:00", "until 6pm", "10:00-18:00"
_ENDS_BEFORE_RE = re.compile(
    r"(?:\b(?:finish(?:es|ing)?|ends?|ending|until|till|to|closes?|closing)\s+(?:at\s+)?|[-–]\s*)$",
    re.I,
)
_STARTS_WORD_RE = re.compile(r"\b(?:start|starts|starting|begin|begins|open|opens|from)\b", re.I)
_ENDS_WORD_RE = re.compile(
    r"\b(?:finish|finishes|finishing|end|ends|until|till|close|closes)\b", re.I
)


# words a change note may open with, capitalised, that name nothing
_OPENERS = frozenset(
    "moved pushed brought changed rescheduled now the our we correction update from".split()  # noqa: SIM905
)


def _tells_more(told: str, old_text: str) -> bool:
    """Whether ``told`` (a note less the value it gives) says a number or a name that
    ``old_text`` does not, in any form (words a change note may open with aside)."""
    said = {t.lower() for t in tokens(old_text)} | {lemma(t.lower()) for t in tokens(old_text)}
    rest = [t for t in tokens(told) if t.lower() not in said and lemma(t.lower()) not in said]
    return any(_digit(t) or t[:1].isupper() and t.lower() not in _OPENERS for t in rest)


def _one_put_right(new_text: str, old_text: str, rx: re.Pattern[str]) -> str | None:
    # what the note tells before a reason or another sentence ("R-2291 pushed back to Mon 14
    # Sep - the hub shell isn't in until Friday (2026-09-11). Rang Mr Hollis."): the day of
    # the reason is no second value
    main = _MAIN_CLAUSE_RE.split(new_text, maxsplit=1)[0]
    if main != new_text and len(rx.findall(main)) == 1:
        new_text = main
    olds = list(rx.finditer(old_text))
    if len(olds) == 1:  # the old value the note names as gone is no value of it: "on Thursdays
        # instead of Tuesdays"
        gone = re.escape(olds[0].group(0).rstrip("."))
        new_text = re.sub(
            rf",?\s+(?:instead of|rather than|in place of|not|from)\s+(?:the\s+)?{gone}\b",
            "",
            new_text,
            flags=re.I,
        )
    news = list(rx.finditer(new_text))
    if (
        len(olds) != 1
        or len(news) != 1
        or olds[0].group(0).lower().rstrip("s.") == news[0].group(0).lower().rstrip("s.")
    ):
        return None  # (one day said again, "Tuesdays" for "Tuesday", is none put right)
    told = new_text[: news[0].start()] + new_text[news[0].end() :]
    if _tells_more(told, old_text):
        return None  # "… moved to 01:30 and now goes to Wasabi": more than the time;
        # "Android 3.0 must be submitted by May 20" is of another thing than iOS 3.0
    if not _pieces(_strong_words(old_text)) - _pieces(_strong_words(olds[0].group(0))):
        return None  # the time is all the entry holds: the note takes its place
    m = olds[0]
    value = news[0].group(0)
    if value.endswith(".") and not m.group(0).endswith("."):
        value = value[:-1]  # "it's now 15 October." ends the note, not the entry's sentence
    stop = "." if m.group(0).endswith(".") and not value.endswith(".") else ""
    return old_text[: m.start()] + value + stop + old_text[m.end() :]


# a phone number: seven digits or more, grouped ("0161 496 0417")
_PHONE_SHAPE_RE = re.compile(
    r"(?<![\w.+/-])\+?(?=(?:[ -]?\d){7,15}(?!\w|\.\d))\d(?:[ -]?\d)+(?!\w|\.\d)"
)
# a phone number of four groups at most (no ISBN: "978-1-915432-07-4")
_PHONE_NUMBER_RE = re.compile(
    r"(?<![\w.+/-])(?<!ISBN )\+?(?=(?:[ -]?\d){7,15}(?!\w|\.\d))\d+(?:[ -]\d+){0,3}"
    r"(?!\w|\.\d|[ -]\d)"
)
# days of a month by their place in it: "the first and third Saturday", "2nd Tuesdays"
_MONTH_DAYS_RE = re.compile(
    rf"\b(?i:{temporal.ORDINAL}(?:(?:,\s*|,?\s+(?:and|or|&)\s+){temporal.ORDINAL})*)\s+"
    rf"{_WEEKDAY_NAME}\b"
)
# a span of the day: "12:00-18:00", "9:30 till 12:30", "10am to 4pm"
_CLOCK_SPAN_RE = re.compile(
    r"(?<![\w.:/-])(?:\d{1,2}(?::\d{2}|[.:]\d{2}\s?(?:am|pm)|\s?(?:am|pm))|\d{1,2})"
    r"\s?(?:-|–|to|till|until)\s?"
    r"(?:\d{1,2}(?::\d{2})?\s?(?:am|pm)?)(?![\w:/-]|\.\d)",
    re.I,
)
# two weekdays or more: "Tuesdays and Fridays", "Monday, Wednesday and Friday"
_WEEKDAYS_JOINED_RE = re.compile(
    rf"\b{_WEEKDAY_NAME}(?:(?:,\s*|,?\s+(?:and|&)\s+){_WEEKDAY_NAME})+\b"
)
# the values one part of an entry holds whole, by shape, that a note gives anew on their own
_PART_SHAPES = (
    _PHONE_NUMBER_RE,
    _MONTH_DAYS_RE,
    _CLOCK_SPAN_RE,
    _WEEKDAYS_JOINED_RE,
    lexical.STREET_RE,
)


def shape_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its one value of a shape put right to the one the newer note gives,
    where the older text holds more than that value ("Box office phone is 01632 960418,
    answered Tue-Sat 12:00-18:00", then "The box office number is now 01632 960775; the old
    line was switched off": the hours stay; "Volunteer workdays are the first and third
    Saturday of each month, 9:30 till 12:30", then "Workdays have moved to the second and
    fourth Sunday of the month": the times stay), on the terms of :func:`clock_put_right`.
    The shapes: a phone number, the days of a month by their place in it, a span of the day
    said with a time on at least one side, two weekdays or more, a street address."""
    for rx in _PART_SHAPES:
        if rx is _CLOCK_SPAN_RE and not all(
            any(":" in m.group(0) or re.search(r"[ap]m", m.group(0), re.I) for m in rx.finditer(t))
            for t in (new_text, old_text)
        ):
            continue  # "8 till 1" alone may be no time of day
        placed = _one_put_right(new_text, old_text, rx)
        if placed is not None:
            span = rx.search(old_text)
            assert span is not None
            if _gone_besides(new_text, old_text, span.span()) or _words_besides(
                new_text, old_text, rx
            ):
                return None  # "is on lates, 15:00-23:00, instead of earlies": more than the
                # times changed
            return placed
    return None


# what a note names as replaced: "instead of earlies", "rather than the park gates"
_GONE_NAMED_RE = re.compile(
    r"\b(?:instead of|rather than|in place of|no longer)\s+(?:the\s+|our\s+|a\s+)?([\w'’-]+)",
    re.I,
)


# words a note may say beside a value of a shape that tell what it is, not another value
_SHAPE_WORDS = frozenset(
    (  # noqa: SIM905
        "number numbers line phone mobile landline direct contact address hours times time days "
        "day new now moved changed switched updated"
    ).split()
)


def _words_besides(new_text: str, old_text: str, rx: re.Pattern[str]) -> bool:
    """Whether the note's main clause says a plain word the older text lacks in any form,
    besides its value of the shape and words of what a value is ("lates" beside
    "15:00-23:00" for "earlies, 07:00-15:00")."""
    main = _MAIN_CLAUSE_RE.split(new_text, maxsplit=1)[0]
    said = {lemma(t.lower()) for t in tokens(old_text)}
    return any(
        t.islower()
        and t.isalpha()
        and t not in cw.STOP
        and t not in _SHAPE_WORDS
        and not cw.change_word(t)
        and not said_loosely(lemma(t), said)
        for t in tokens(rx.sub(" ", main))
    )


def _gone_besides(new_text: str, old_text: str, span: tuple[int, int]) -> bool:
    """Whether ``new_text`` names as replaced a word ``old_text`` says outside ``span``."""
    outside = old_text[: span[0]] + " " + old_text[span[1] :]
    return any(
        re.search(rf"\b{re.escape(m.group(1))}\b", outside, re.I)
        and not re.search(rf"\b{re.escape(m.group(1))}\b", old_text[span[0] : span[1]], re.I)
        for m in _GONE_NAMED_RE.finditer(new_text)
    )


# a place, named: "Room 4", "the Maple Room", "Lochside boathouse" (up to what follows it:
# a reason, a time, from or until when)
_VENUE = (
    r"(?:the\s+)?[A-Z][\w'’-]*(?:\s+(?!(?:instead|rather|until|from|for|because|as|since|while"
    r"|during|on|at|starting|with|so|and|but|this|next|when|till|after|before|by)\b)"
    r"[\w'’-]+){0,4}?"
    r"(?=\s*(?:[,.;:()!?]|\s[-–—]\s|$)|\s+(?:instead|rather|until|from|for|because|as|since"
    r"|while|during|on|at|starting|with|so|and|but|this|next|when|till|after|before|by)\b)"
)
# where a thing is now, told as a move: "Pilates has moved to Room 4", "the physics group is
# now in the Maple Room", "Thursday tempo now meets at Lochside boathouse"
_NOW_AT_RE = re.compile(
    r"^(?P<who>.*?)\b(?:(?:has\s+|have\s+|is\s+|are\s+)?(?:moved|moving|relocated|relocating)"
    r"(?P<what>(?:\s+[\w'’-]+){0,3}?)\s+to"
    r"|(?:is|are|now)\s+(?:now\s+)?(?:meets?|meeting|runs?|running|held|based|trains?|training"
    r"|in|at)(?:\s+(?:in|at))?"
    r"|(?:meets?|runs?|trains?|(?:is|are)\s+held)\s+now\s+(?:in|at))\s+(?P<new>" + _VENUE + ")"
)
# where a thing is, in the older text: "Pilates classes run in Studio 2", "Thursday tempo
# group meets at the Albert Park gates"
_HELD_AT_RE = re.compile(
    r"\b(?:meets?|meeting|runs?|run|held|trains?|train|based|takes?\s+place|happens?)"
    r"\s+(?:in|at)\s+(?P<old>" + _VENUE + ")"
)


def venue_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with the one place a thing meets or runs at put right to the one the
    newer note moves it to, where the older text says more ("Thursday tempo group meets at the
    Albert Park gates, 18:30", then "Thursday tempo now meets at Lochside boathouse instead of
    the park gates, because of the path works": "… meets at Lochside boathouse, 18:30"), or
    None: the note tells what moved in words of the older text, and nothing else new besides
    the place (no number, no name); the older text names one such place."""
    main = _MAIN_CLAUSE_RE.split(new_text, maxsplit=1)[0]
    # "Studio 2 is being relaid, so Pilates has moved…", "…, but Pilates is now in Studio 1"
    main = re.split(r",\s+(?:so|but|and)\s+", main)[-1]
    m = _NOW_AT_RE.search(main)
    olds = list(_HELD_AT_RE.finditer(old_text))
    if m is None or len(olds) != 1 or "?" in new_text:
        return None
    new, at = m.group("new"), olds[0].span("old")
    if new.lower().removeprefix("the ") in old_text.lower():
        return None
    what = _content(m.group("what") or "")
    if not _content(m.group("who")) & _content(old_text) or not what <= _content(old_text):
        return None  # "Moved the kit to the Blue Cupboard" moves no session
    told = main[: m.start("new")] + re.sub(
        r"^.*?\b(?:instead of|rather than)\b.*$|\buntil further notice\b", "", main[m.end("new") :]
    )
    if _tells_more(told, old_text):
        return None  # more than the place told
    if not _pieces(_strong_words(old_text)) - _pieces(_strong_words(olds[0].group(0))):
        return None
    return old_text[: at[0]] + new + old_text[at[1] :]


# where what a note tells first ends: a reason after it, or another sentence
_MAIN_CLAUSE_RE = re.compile(
    r"\s[-–—]\s|;\s|(?<![A-Z])\.\s+(?=[A-Z])|\s(?:because|as|since|due to|owing to|under the)\s"
)
# the shapes of a value a correction puts right: a day, a time of day, a code, an amount
_CORRECTED_SHAPES = (
    _PHONE_SHAPE_RE,
    DATE_SAID_RE,
    _CLOCK_TIME_RE,
    # a code of two parts, letters and digits in the first: a plate ("KX19 PML"), a postcode
    # ("LS6 4QT")
    re.compile(r"(?<![\w-])(?=[A-Z]*\d)(?=\d*[A-Z])[A-Z\d]{2,5} (?=\d*[A-Z])[A-Z\d]{2,4}(?![\w-])"),
    re.compile(r"(?<![\w-])[A-Z]{1,4}-?\d{2,6}(?![\w-])"),
    re.compile(r"[£$€]\d+(?:,\d{3})*(?:\.\d{2})?(?![\d,.]?\d)"),
    # a weekday that recurs: "I had Tom's day off wrong - it's Tuesdays"
    re.compile(r"\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days\b"),
)
# a correction told as what was had wrong, or labelled with what it corrects: "Got the Sally
# Beauty Pro account number wrong earlier: it's SP-40971", "I had Tom's day off wrong - it's
# Tuesdays", "Correction on the Corn Exchange: …"
_WRONG_BEFORE_RE = re.compile(
    r"\s*(?:(?:I|we)\s+)?(?:got|had|have|wrote|noted|put down|gave)\s+(?P<what>[^:;,.–—]{2,60}?)"
    r"\s+wrong\b[^:;,–—]{0,25}?(?::|\s[-–—]\s|,)\s*"
    r"|\s*correction\s+(?:on|to|re|about|for)\s+(?P<what2>[^:]{2,50}):\s*",
    re.I,
)
# an amount of a unit: "8 cubic metres", "40 chairs" (the unit is the word after it)
_AMOUNT_OF_RE = re.compile(r"(?<![\w.,:/£$€-])(\d+(?:\.\d+)?)\s+([a-z]{3,})\b")


def correction_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with the values a correction gives put right ("Flights booked: TAP
    TP1331 Manchester to Lisbon on 24 September, 3 passengers", then "Correction: our flight is
    TP1337, I noted the wrong flight number last week": "… TAP TP1337 Manchester …"), or None.
    The note calls itself one ("Correction:", "Update:", "Clarification:" …); its first
    sentence shares a word with the older text (besides days and values) and names nothing the
    older text does not (the thing corrected, not another one of its kind); each value put
    right is the one of its shape in the older text and in the note's first sentence, and they
    differ. A value said again the same ("Still 24 September") stays.
    """
    m = lexical.LABEL_RE.match(new_text)  # "Correction: our flight is TP1337, …"
    what = ""  # the thing corrected, named before what it is: "Got the … account number wrong"
    if m is None or not m.group(1):
        m = _WRONG_BEFORE_RE.match(new_text)
        if m is None:
            return None
        what = m.group("what") or m.group("what2")
    told = lexical.sentences(cw.RESOLVED_RE.sub("", new_text[m.end() :]))
    # the wrong value it names is no new one: "the new unlimited price is £94, not £95 - …"
    first = re.sub(r",\s*(?:and\s+|but\s+)?not\s+[^\s,;]+", " ", told[0]) if told else ""
    said = {t.lower() for t in tokens(old_text)}
    places: list[tuple[int, int, str]] = []
    for rx in _CORRECTED_SHAPES:
        olds, news = list(rx.finditer(old_text)), list(rx.finditer(first))
        if (
            len(olds) == 1
            and len(news) == 1
            and olds[0].group(0).lower() != news[0].group(0).lower()
        ):
            places.append((*olds[0].span(), news[0].group(0).rstrip(".")))
        first = rx.sub(" ", first)
    # an amount of the one unit each gives once: "is 8 cubic metres" for "delivering 6 cubic
    # metres of compost" (not a unit that is a month: dates are read above)
    for number, unit in [] if cw.intended(first) else _AMOUNT_OF_RE.findall(first):
        key = lemma(unit)
        olds = [m for m in _AMOUNT_OF_RE.finditer(old_text) if lemma(m.group(2)) == key]
        news = [n for n, u in _AMOUNT_OF_RE.findall(first) if lemma(u) == key]
        if (
            len(olds) == 1
            and len(news) == 1
            and olds[0].group(1) != number
            and not any(a <= olds[0].start(1) < b for a, b, _v in places)
        ):
            places.append((*olds[0].span(1), number))
            # the unit is no word of the thing corrected ("the sand order is 2 cubic metres"
            # is none of the compost's)
            first = re.sub(rf"\b{re.escape(number)}\s+(?:[a-z]+\s+)?[a-z]+", " ", first)
    if not places:
        return None
    words = [t for t in tokens(f"{what} {first}") if not _digit(t) and not _when_word(t)]
    if not _content(" ".join(words)) & _content(old_text):
        return None  # "Correction: the dentist is on 21 October" is no meeting's day
    lead = re.split(r"[,(;]|\s[-–—]\s", first, maxsplit=1)[0]  # not an aside: "(last two …)"
    own = _content(" ".join(t for t in tokens(lead) if not _digit(t) and not _when_word(t)))
    if what and own - _content(what) and not (own - _content(what)) & _content(old_text):
        return None  # "Correction on Ashdown: the contract renews on 30 November" puts right
        # no day of "… assessment is booked for 14 October; … on an Ashdown job"
    subject = re.match(r"\s*(?:the|our|my|its|their)?\s*([^,;:()]{1,40}?)\s+(?:is|are)\b", first)
    said_old = {lemma(t.lower()) for t in tokens(old_text)}
    if subject and not any(
        said_loosely(lemma(t.lower()), said_old)
        for t in tokens(subject.group(1))
        if t.lower() not in cw.STOP
    ):
        return None  # "…: the deposit is £1,320 (five weeks' rent)" is no new rent
    said |= {re.sub(r"['’]s$", "", t) for t in said}  # "Tom's" of "Tom Birch"
    if any(
        t[:1].isupper()
        and t.lower() not in said
        and re.sub(r"['’]s$", "", t.lower()) not in said
        and t.lower() not in cw.STOP
        for t in words
    ):
        return None  # "Correction: Tom's number is …" is not Dev's
    out = old_text
    for start, end, value in sorted(places, reverse=True):
        out = out[:start] + value + out[end:]
    return out


def listed_part_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with the value of its one listed part the newer note opens with put
    right ("Opening hours: Monday to Friday 8:30am-6:30pm, Saturday 9am-12pm, closed Sundays",
    then "Saturday opening is now 9am-1pm": "…, Saturday 9am-1pm, closed Sundays"), or None:
    the older text lists three short parts at least (five words at most, between commas), one
    only opens with the word the note opens with, that part and the note each give one value,
    of one form ("9am-12pm", "9am-1pm")."""
    label = LEAD_LABEL_RE.match(old_text)
    start = label.end() if label else 0
    body = old_text[start:]
    # parts between commas, and the last after "and" ("…, furosemide 40mg and lansoprazole 15mg")
    parts = [(m.start(), m.end()) for m in re.finditer(r"(?:(?!\s+and\s)[^,;])+", body)]
    parts = [(a + (len(body[a:b]) - len(body[a:b].lstrip())), b) for a, b in parts]
    parts = [(a + 4, b) if body[a:b].startswith("and ") else (a, b) for a, b in parts]
    if len(parts) < 3 or ";" in body or any(len(body[a:b].split()) > 5 for a, b in parts):
        return None  # a list of short parts ("Saturday 9am-12pm"), not clauses
    first = next(iter(tokens(new_text)), "")
    if not first[:1].isalpha():
        return None
    key = lemma(first.lower())
    opening = [(a, b) for a, b in parts if lemma(next(iter(tokens(body[a:b])), "").lower()) == key]
    if len(opening) != 1:
        return None
    a, b = opening[0]
    olds = list(_VALUE_TOKEN_RE.finditer(body, a, b))
    news = _VALUE_TOKEN_RE.findall(cw.RESOLVED_RE.sub("", new_text))
    news = [v.rstrip(".,;:") for v in news]
    if len(olds) != 1 or len(news) != 1:
        return None
    was, now = olds[0].group(0).rstrip(".,;:"), news[0]
    if was == now or re.sub(r"\d", "", was) != re.sub(r"\d", "", now):
        return None
    said = {lemma(t.lower()) for t in tokens(old_text)}
    told = re.split(r"\s[-–—]\s|;", new_text)[0]  # a reason after a dash is no part of it
    if any(
        not said_loosely(lemma(t.lower()), said)
        for t in tokens(told)
        if t.lower() not in cw.STOP and not cw.change_word(t.lower()) and not _digit(t)
    ):
        return None  # "Kestrel Scenic workshop: Unit 12, Canal Wharf, Reading" is a new address,
        # no new unit of "Unit 4, Mill Lane Industrial Estate, Reading"
    at = start + olds[0].start()
    return old_text[:at] + now + old_text[at + len(was) :]


def number_not_held(new_text: str, old_text: str) -> bool:
    """Whether ``new_text`` gives a person's phone number ("Mira Okafor's mobile is 07700
    900231") and ``old_text`` says no number after that person's name: what it holds is no
    number of theirs to replace ("Mira Okafor … is represented by Julia Benning. Julia's number
    is 07700 900412")."""
    own = _OWN_NUMBER_RE.search(new_text)
    if own is None:
        return False
    return not any(
        _said_after(own.group(1), old_text[: m.start()])
        for m in _LONG_NUMBER_RE.finditer(old_text)
        if sum(ch.isdigit() for ch in m.group(0)) >= 7
    )


_ASIDE_IN_BRACKETS_RE = re.compile(r"\([^()]*\)")


def _said_after(name: str, before: str) -> bool:
    """Whether the last name ``before`` says (capitalised words in a row, not in capitals nor a
    month or a weekday, brackets set aside: "Lena Ortiz's"; a possessive pronoun after it
    still speaks of it) holds a word of ``name``, said in its last 48 characters."""
    before = _ASIDE_IN_BRACKETS_RE.sub("", before)
    own = {w.casefold().rstrip(".") for w in name.split()} - TITLES  # "Dr" names no one
    runs: list[set[str]] = []
    in_run = False
    for t in tokens(before):
        if t.lower() in ("her", "his", "their"):
            continue  # "Maria (our cleaner) comes Wednesdays. Her number is …": still Maria's
        if t[:1].isupper() and not t.isupper() and t.lower() not in cw.STOP and not _timeword(t):
            word = lexical.unpossessed(t).casefold()
            if in_run:
                runs[-1].add(word)
            else:
                runs.append({word})
            in_run = True
        else:
            in_run = False
    if bool(runs) and bool(runs[-1] & own) and name.split()[0] in before[-48:]:
        return True
    # "her mobile is …" after a person and a place: "Vet is Dr Priya Nair at Fellside
    # Veterinary Practice; her mobile is", the person's, whatever name came between
    sentence = re.split(r"[.!?]\s", before)[-1]
    return bool(_HER_NUMBER_RE.search(sentence)) and any(
        lexical.unpossessed(w).casefold() in own for w in tokens(sentence) if w[:1].isupper()
    )


_HER_NUMBER_RE = re.compile(
    r"\b(?:her|his)\s+(?:(?:own|personal|work|new)\s+)?(?:mobile|phone|number|cell)"
    r"(?:\s+number)?\s*(?:is|:)?\s*$",
    re.I,
)


# a person's own new number: "a new cell number", "her new mobile", "new phone number" (not
# "the new sales line", a second number of one firm)
_NEW_NUMBER_RE = re.compile(
    r"\bnew (?:(?:cell|mobile|phone|home|work|personal|direct|office)\s+)?(?:number|phone|"
    r"mobile|cell|line|landline|dial)\b"
    # "New bookings number: 0161 496 0881"
    r"|^\s*new\s+[\w'’ -]{1,30}?\s+(?:number|line|phone)\s*:",
    re.I,
)


# a person's own number said as it is now: "Grace O'Neill's mobile is 07700 900456"
_OWN_NUMBER_RE = re.compile(
    r"\b([A-Z][\w-]+(?: [A-Z][\w'’-]+)?)['’]s (?:(?:cell|mobile|phone|home|work|direct|office)\s+)?"
    r"(?:number|phone|mobile|cell|line|landline)(?: number)? is\b"
)


def number_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its one phone number (seven digits or more) put right, when the
    newer note gives one new number of its shape, says it is new ("Luis got a new cell number,
    555-0129; his old number is disconnected" for "Plumber is Luis Ortega of Ortega Plumbing,
    555-0187, luis@…"), and names someone the older text names; else None."""
    own = _OWN_NUMBER_RE.search(new_text)
    if not _NEW_NUMBER_RE.search(new_text) and own is None:
        return None
    fresh, gone = _numbers_apart(new_text, old_text)
    if len(fresh) != 1 or len(gone) != 1:
        return None
    ((new,), (old,)) = (tuple(fresh), tuple(gone))
    if sum(ch.isdigit() for ch in new) < 7 or old_text.count(old) != 1:
        return None
    # "Grace O'Neill's mobile is 07700 900456": the number said after her name, with no other
    # name between, asides in brackets set apart ("Dr Priya Nair (locum vet, booked to cover
    # Andrew's October leave) - mobile 07700 900412"; not "Priya Nair and Karen Moss - Karen
    # 07700 900193")
    if (
        own is not None
        and not _NEW_NUMBER_RE.search(new_text)
        and not _said_after(own.group(1), old_text[: old_text.index(old)])
    ):
        return None

    def names(text: str) -> set[str]:  # "Lena's" names Lena; "Dr" no one
        return {
            lexical.unpossessed(t)
            for t in tokens(text)
            if t[:1].isupper() and t.lower() not in cw.STOP and t.lower() not in TITLES
        }

    if not names(new_text) & names(old_text) and not _number_of_said(new_text, old_text, old):
        return None
    if another_of_the_name(new_text, old_text):
        return None  # "Sunita Patel rang from a new mobile" is no new number of Anil Patel's
    return old_text.replace(old, new)


# a run of capitalised words; a person's full name is one of two, a first name and a family
# name ("Sunita Patel"; not "Brightwater Dental Lab", a firm)
_CAPITALISED_RUN_RE = re.compile(r"(?<![\w'’-])[A-Z][\w'’&-]*(?:\s+[A-Z][\w'’&-]*)*")
_FULL_NAME_RE = re.compile(r"([A-Z][a-z]+)\s+([A-Z][a-z]+(?:-[A-Z][a-z]+)?)")


def _full_names(text: str) -> set[tuple[str, str]]:
    out = set()
    for run in _CAPITALISED_RUN_RE.finditer(text):
        m = _FULL_NAME_RE.fullmatch(re.sub(r"['’]s$", "", run.group(0)))
        if m is None:
            continue
        first, last = m.groups()
        if (
            first.lower() not in cw.STOP
            and first.lower() not in TITLES
            and not temporal.day_name(first)
            and not temporal.day_name(last)
            and last.lower() not in _PLACE_NAME_ENDS
        ):
            out.add((first, last))
    return out


# the last word of a place's or a firm's name, no family name: "Kings Road", "Station Road"
_PLACE_NAME_ENDS = frozenset(
    """road rd street st lane avenue ave way close drive place square hall park house centre
    center court estate yard farm church school college station bank club lab labs group ltd
    co inc surgery clinic hotel bar cafe café market wharf quay mill gardens garden bridge
    hill green terrace row crescent gate mews dock""".split()  # noqa: SIM905
)


def another_of_the_name(new_text: str, old_text: str) -> bool:
    """Whether the newer note names someone by their full name whom the older text does not,
    and the older text names another of the same family name ("Sunita Patel …" and "Anil
    Patel …"): two people, whatever else the texts share."""
    new, old = _full_names(new_text), _full_names(old_text)
    return any(
        last == last_old and first != first_old and (first, last) not in old
        for first, last in new
        for first_old, last_old in old
    )


def number_of_another(new_text: str, old_text: str) -> bool:
    """Whether the newer note gives a new phone number of a thing the older text, which gives
    one, does not say ("The out-of-hours emergency line has a new number: …" is no new "Main
    practice number is …")."""
    m = _NEW_NUMBER_RE.search(new_text)
    if m is None:
        return False
    fresh, gone = _numbers_apart(new_text, old_text)
    if len(fresh) != 1 or not any(sum(ch.isdigit() for ch in g) >= 7 for g in gone):
        return False
    what = [
        lemma(t.lower())
        for t in tokens(new_text[: m.start()])
        if t.lower() not in cw.STOP and not _digit(t) and t.lower() not in ("has", "have", "got")
    ]
    said = {lemma(t.lower()) for t in tokens(old_text)}
    return bool(what) and not all(said_loosely(w, said) for w in what)


def _number_of_said(new_text: str, old_text: str, old: str) -> bool:
    """Whether what the newer note says has a new number ("The harbour office has a new
    number: …") is all said in the older text's sentence that gives the number ("Harbour office
    line 01621 854310, staffed 8 till 4")."""
    m = _NEW_NUMBER_RE.search(new_text)
    if m is None:
        return False
    # what it is of: before the words of a new number, or labelled by them ("New bookings
    # number: …")
    of = (
        new_text[: m.start()]
        if m.start()
        else re.sub(r"(?i)^\s*new\s+|\s*\w+\s*:$", "", m.group(0))
    )
    what = [
        lemma(t.lower())
        for t in tokens(of)
        if t.lower() not in cw.STOP and not _digit(t) and t.lower() not in ("has", "have", "got")
    ]
    sentence = next((x for x in lexical.sentences(old_text) if old in x), old_text)
    said = {lemma(t.lower()) for t in tokens(sentence)}
    return bool(what) and all(w in said for w in what)


_EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# a person's own email said as it is now: "Dana Whitfield's email is d.whitfield@…", "Dana's
# new work email: …"
_OWN_EMAIL_RE = re.compile(
    r"\b([A-Z][\w-]+(?: [A-Z][\w'’-]+)?)['’]s (?:new )?(?:(work|personal|home|private)\s+)?"
    r"e-?mail(?: address)?(?: is|:)\s"
)
_EMAIL_KIND_RE = re.compile(r"\b(work|personal|home|private)\s+e-?mail", re.I)


def email_put_right(new_text: str, old_text: str) -> str | None:
    """The older text with its one email address put right, when the newer note gives one
    address as a person's own ("Dana Whitfield's email is d.whitfield@norbridge-analytics.com")
    and the older one's address is said after that person's name ("Norbridge contact is Dana
    Whitfield, dana.whitfield@norbridge.com"); else None."""
    own = _OWN_EMAIL_RE.search(new_text)
    if own is None or cw.intended(new_text):
        return None
    new, old = _EMAIL_RE.findall(new_text), _EMAIL_RE.findall(old_text)
    if len(new) != 1 or len(old) != 1 or new[0].casefold() == old[0].casefold():
        return None
    if not _said_after(own.group(1), old_text[: old_text.index(old[0])]):
        return None  # "… Priya's email is …" is no new address of "Tom Reed, tom@…"
    if another_of_the_name(new_text, old_text):
        return None  # "Sunita Patel's email is …" is none of Anil Patel's
    kinds = {k.lower() for k in _EMAIL_KIND_RE.findall(old_text)}
    if own.group(2) and kinds and own.group(2).lower() not in kinds:
        return None  # a personal email is no new work email
    return old_text.replace(old[0], new[0].rstrip("."))


@functools.lru_cache(maxsize=1 << 14)
def _owners(text: str) -> frozenset[str]:
    """Whose a note's thing is, as it names them: a possessive name ("Kwame's"), or the name
    that opens it when written as one (two capitalised words, "Harbor Coffee signed …")."""
    toks = tokens(text)
    out = {t[:-2].lower() for t in toks if t[:1].isupper() and t.endswith(("'s", "’s"))}
    if len(toks) > 1 and toks[0][:1].isupper() and toks[1][:1].isupper():
        out.add(toks[0].lower())
    return frozenset(out)


@functools.lru_cache(maxsize=1 << 14)
def _proper(text: str) -> frozenset[str]:
    """The words ``text`` writes capitalised past a sentence's start (names), lower case."""
    out = set()
    for sentence in lexical.sentences(text):
        for t in tokens(sentence)[1:]:
            if t[:1].isupper() and t.lower() not in cw.STOP:
                out.add(t.lower().rstrip("'’s") if t.endswith(("'s", "’s")) else t.lower())
    return frozenset(out)


def _ordered_content(text: str) -> list[str]:
    """The content words of ``text`` (:func:`_content`) in the order it says them."""
    found = _content(text)
    return [w for w in (lemma(t) for t in tokens(text)) if w in found]


def _tail_words(text: str) -> frozenset[str]:
    """The content words (lemmas) a closing ", not A" corrects, whatever their case ("…, not
    the morning"; :func:`_not_tails`)."""
    return frozenset(w for tail in _not_tails(text) for w in _content(tail))


def _word_corrected(new_text: str, old_text: str) -> Verdict | None:
    """A closing ", not A" whose A is a plain word of the old note, with a word of its own in
    its place: "Priya now prefers customer meetings in the afternoon, not the morning" for
    "Priya prefers customer meetings in the morning" (no number or name to compare, so the
    clause rules read the same preference twice). Both notes must otherwise speak of the same
    (:func:`_anchored`, a content word shared besides A, nothing modified apart)."""
    old_words, new_words = _content(old_text), _content(new_text)
    gone = _tail_words(new_text) & old_words
    head = cw.NOT_TAIL_RE.search(new_text)
    said = _content(new_text[: head.start()]) if head else new_words
    fresh = said - old_words - cw.UNITS
    shared = new_words & old_words - gone - cw.UNITS
    if not gone or not fresh or not shared or not _anchored(new_text, old_text, frozenset()):
        return None
    if _modified_apart(new_text, old_text, shared):
        return None
    return Verdict(
        SUPERSEDE, "the old value named", " ".join(sorted(gone)), " ".join(sorted(fresh))
    )


SAID_ALIKE = 0.5  # masked cosine for a change the clause rules did not read (bench_currency)


def _said_alike(
    new_text: str,
    old_text: str,
    names: frozenset[str],
    similar: Callable[[str, str], float] | None,
) -> Verdict | None:
    """A change the clause rules could not read ("Dropped log retention to 14 days to save on
    storage" for "CloudWatch log retention is set to 30 days"): the new note uses change
    language and states a fact (no intention, nothing added), shares a content word with the
    old one and brings a value of its own, and the two say alike once their values, names and
    change words are masked. Notes only: chat turns never get here."""
    if similar is None or not _alike_asked(new_text, old_text, names):
        return None
    fresh, gone = _values_apart(new_text, old_text)
    # the old value neither replaced nor said gone: "The billing service moved to a new team"
    # says nothing of "… is written in Go"
    if gone and not fresh and not cw.found(cw.NEGATION_RE, new_text):
        return None
    # nor one whose values the new note all says again: "ledger-api is on Python 3.12 now, same
    # as billing-api" gives another its value, and "billing-api runs on Python 3.12" holds
    if restates_values(new_text, old_text, fresh, gone, names):
        return None
    # nor one whose change names another value as the one it replaced: "Sara took over the
    # billing service from Tom" is of its owner, not of "… is written in Go"
    said = old_text.lower()
    if any(v not in said for c in claims(new_text, names) for v in c.old):
        return None
    if (gazetteer.LANGUAGE in _kinds_of(fresh, new_text)) != (
        gazetteer.LANGUAGE in _kinds_of(gone, old_text)
    ):
        return None  # "in Portuguese" is no value "signed 'Cheers, Inês'" replaces
    if _named_apart(new_text, old_text):
        return None  # "Cotham Vets moved Biscuit's AHC appointment" / "Gemeente Utrecht …"
    if similar(_masked_text(new_text), _masked_text(old_text)) < SAID_ALIKE:
        return None
    return Verdict(SUPERSEDE, "said alike", " ".join(sorted(gone)), " ".join(sorted(fresh)))


_VALUE_START_RE = re.compile(r"\b(?:to|into|is|are|was|were|now)\b", re.I)


def _named_apart(new_text: str, old_text: str) -> bool:
    """Whether each note names things by name (two capitalised words at least, not a month or
    a weekday) and the two share none: two things of one kind told alike ("Cotham Vets moved
    Biscuit's AHC appointment to 19 November" / "Gemeente Utrecht registration appointment:
    24 November"), not one thing's new value."""
    said_of = _VALUE_START_RE.split(new_text, maxsplit=1)[0]  # not "… changed to the Budget office"
    new = {w for w in _capitalised(said_of) if not _timeword(w) and w not in cw.STOP}
    old = {w for w in _capitalised(old_text) if not _timeword(w) and w not in cw.STOP}
    return len(new) >= 2 and len(old) >= 2 and not new & old


# a thing named by a noun and a capital letter: "Freezer A", "Building C", "Plan B" (a number
# after a noun is more often its value: "Node 18", "every 24 hours", "May 14")
_LABELLED_RE = re.compile(r"\b([A-Za-z]{3,}) ([A-Z])\b(?![\w.,:/-]\w)")


# where a labelled thing is a place something is put: "in corral C", "into start corral D"
_PLACED_BEFORE_RE = re.compile(
    r"\b(?:in|into|to|at|on)\s+(?:(?:the|a|an|start|her|his|my|our|their)\s+)?$", re.I
)


@functools.lru_cache(maxsize=1 << 14)
def _labelled(text: str) -> dict[str, set[str]]:
    """``{noun: its labels}`` of the things ``text`` names by a noun and a capital letter, not
    said as a place something is in ("in corral C"). Cached: read it, never change it."""
    out: dict[str, set[str]] = {}
    for m in _LABELLED_RE.finditer(text):
        if _PLACED_BEFORE_RE.search(text, 0, m.start()):
            continue
        noun = m.group(1).lower()
        if noun in cw.STOP or noun in cw.BOUNDARY or (m.group(2) == "A" and m.group(1).islower()):
            continue  # "at 3", "is A", "bought A …"
        out.setdefault(lemma(noun), set()).add(m.group(2).lower())
    return out


def codes_apart(new_text: str, old_text: str) -> bool:
    """Whether each note names codes (an invoice's, a ticket's, a claim's number:
    "INV-2026-015") and none of the one is the other's: two things."""
    new, old = _codes(new_text), _codes(old_text)
    return bool(new) and bool(old) and not new & old


def labels_apart(new_text: str, old_text: str) -> bool:
    """Whether the two notes name things of one kind by different labels only ("Freezer B
    was moved …; now in room B220" / "Freezer A is in room B214"): two things, unless the
    newer names the older's label too ("moved from Lab A to Lab C"). A label said as where
    something is ("puts her in start corral C" / "starts in corral D") is a value of one thing,
    not another thing."""
    new, old = _labelled(new_text), _labelled(old_text)
    return any(not new[n] & old[n] for n in new.keys() & old.keys())


def restates_values(
    new_text: str,
    old_text: str,
    fresh: frozenset[str] | set[str],
    gone: frozenset[str] | set[str],
    names: frozenset[str] = frozenset(),
) -> bool:
    """Whether the newer note says every value of the older one (one at least) again and adds
    one, marking none as replaced and negating nothing (``fresh`` and ``gone``:
    :func:`_values_apart`):
    "ledger-api is on Python 3.12 now, same as billing-api" gives another its value, and
    "billing-api runs on Python 3.12" still holds. "(was credit card)" marks what it replaced."""
    if not fresh or gone or not _strong_words(old_text) or cw.found(cw.NEGATION_RE, new_text):
        return False  # "Kofi now uses Neovim" for "Kofi uses vim": the old one had no value
    return not any(x.old for x in claims(new_text, names))


# a name given a new name: "Umbrella Health renamed itself to Umbrella Care", "Initech is now
# called Initrode", "Acme rebranded as Acme Cloud" (group 1: the name before)
_RENAMED_RE = re.compile(
    r"\b([A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*){0,3}) (?:has |have |was |were )?"
    r"(?:renamed (?:itself |themselves )?(?:to|as)|rebranded (?:itself |themselves )?(?:to|as)|"
    r"(?:is|are) now (?:called|named|known as)|changed (?:its|their) name to) "
)
_NAME_SAID_RE = re.compile(r"\b(?:name[sd]?|called|known as)\b", re.I)


def renamed_only(new_text: str, old_text: str) -> bool:
    """Whether ``new_text`` gives a name a new name ("Umbrella Health renamed itself to
    Umbrella Care") and ``old_text`` names it without saying what it is called ("Carlos
    Oliveira handles procurement at Umbrella Health"): the fact holds under the new name."""
    m = _RENAMED_RE.search(new_text)
    return (
        m is not None
        and re.search(rf"\b{re.escape(m.group(1))}\b", old_text) is not None
        and not _NAME_SAID_RE.search(old_text)
    )


@functools.lru_cache(maxsize=1 << 14)
def _told_as_event(text: str) -> bool:
    """Whether every clause of ``text`` tells what happened, in the past ("Sofia forgot her
    lunchbox; Inês drove it over at noon"), none an attribute ("Board demo scheduled for the
    12th" says when it is)."""
    told = claims(text)
    return bool(told) and all(x.past and x.head not in cw.CLASSES for x in told)


def _alike_asked(new_text: str, old_text: str, names: frozenset[str]) -> bool:
    """Whether :func:`_said_alike` asks the embedding about two texts (everything it checks
    before the cosine): sleep embeds the masked texts of such pairs together beforehand."""
    if not _states_a_change(new_text) or _chat(old_text) or renamed_only(new_text, old_text):
        return False
    if _told_as_event(old_text):
        return False  # "Sofia forgot her lunchbox": what happened does not go stale
    if not _change_of_shared(new_text, old_text) or only_light_shared(new_text, old_text, names):
        return False
    if not _anchored(new_text, old_text, names):
        return False
    if not _said_beyond_owner(new_text, old_text, names):
        return False
    if _told_apart(new_text, old_text, names):
        return False
    fresh, _gone = _values_apart(new_text, old_text)
    return bool(fresh) or bool(_content(new_text) - _content(old_text))


# verbs any two notes may share: sharing only these, two notes say nothing of one thing ("We run
# Redis 6.2" / "everything runs on GitHub Actions now"; "wants an explanation" / "want rebase
# merges now")
_LIGHT_VERBS = frozenset(
    lemma(w)
    for w in "run use want need have get make go keep do take put give rather".split()  # noqa: SIM905
)


def name_forms(names: Iterable[str]) -> set[str]:
    """``names`` as content words may read them: case folded, and as stems ("Tomás" is read
    "tomá", so a name ending in "s" is still known)."""
    return {n.casefold() for n in names} | {lemma(n) for n in names}


def only_light_shared(new_text: str, old_text: str, names: frozenset[str] = frozenset()) -> bool:
    """Whether every content word the two notes share is one of :data:`_LIGHT_VERBS`, or one
    of ``names`` (who the notes are about: "Dana wants an explanation" / "Dana … want rebase
    merges"), one light verb at least."""
    known = name_forms(names)
    shared = {w for w in _content(new_text) & _content(old_text) if w.casefold() not in known}
    return bool(shared) and shared <= _LIGHT_VERBS


_CLAUSE_SPLIT_RE = re.compile(r"[;:]\s+|(?<=[.!?])\s+")


def _change_of_shared(new_text: str, old_text: str) -> bool:
    """Whether a clause of the new note that says a change shares a content word with the old
    note: "We bumped the project to Python 3.12 this morning; CI is green on it" changes the
    project's Python, and says nothing new of "CI runs on Jenkins" (the clause that names CI
    says no change)."""

    def words(text: str) -> set[str]:  # content words and the pieces of values ("release/2.8")
        return set(_content(text)) | {lemma(p) for p in _pieces(_strong_words(text))}

    old = words(old_text)
    for clause in _CLAUSE_SPLIT_RE.split(new_text):
        changed = cw.found(cw.CHANGE_RE, clause) or cw.found(cw.OLD_VALUE_RE, clause)
        if changed and words(clause) & old:
            return True
    return False


def _told_apart(new_text: str, old_text: str, names: frozenset[str]) -> bool:
    """Whether the clause rules tell the two notes' claims apart wherever they share an owner:
    another relation (:func:`_kinds_apart`: "Tom now works at Stripe" / "Tom lives in Oslo")
    or another attribute noun ("Alice now lives in Rome" / "Alice's mother lives in Berlin").
    The embedding's likeness of masked sentences must not undo what the rules read: with the
    names masked, such sentences read alike."""
    pairs = [
        (n, o)
        for n in claims(new_text, names)
        for o in claims(old_text, names)
        if n.owner & o.owner
    ]
    return bool(pairs) and all(
        _kinds_apart(n, o) or _relative_apart(n, o) or _departed(n, o) or _nouns_apart(n, o)
        for n, o in pairs
    )


# people a claim may be about through its owner: "Alice's mother lives in Berlin" is the
# mother's home, not Alice's
RELATIVES = frozenset(
    """mother father mom mum dad parent sister brother sibling wife husband partner spouse son
    daughter child kid cousin aunt uncle grandmother grandfather grandma grandpa niece nephew
    friend roommate neighbour neighbor girlfriend boyfriend fiance fiancee""".split()  # noqa: SIM905
)


def _relative_apart(new: Claim, old: Claim) -> bool:
    """Whether one claim says a relation (a home, an employer …) of its owner's relative and
    the other does not: "Alice's mother lives in Berlin" / "Alice now lives in Rome"."""
    classes = set(cw.CLASSES)
    kin_new, kin_old = new.attrs & RELATIVES, old.attrs & RELATIVES
    return kin_new != kin_old and bool((new.attrs | old.attrs) & classes)


def _said_beyond_owner(new_text: str, old_text: str, names: frozenset[str]) -> bool:
    """Whether two notes say something alike of whom they are about: a content word other than
    its name ("moved the API to port 8080" shares "port" with "the API runs on port 5000"), or
    values of one kind. "Tom changed his email address to tom@new.example" shares only Tom with
    "Tom is allergic to peanuts", and "Bob moved to Berlin" a name with "Bob's phone number is
    555-1234": such notes say different things of whom they are about, however alike their
    sentences read once masked."""
    shared = _content(new_text) & _content(old_text)
    if not shared:
        return False
    # only what both write capitalised (a name; a sentence's first word) is taken for whom
    # they speak of: a shared common noun ("Seat preference: aisle" and "Seat preference is
    # window now") is often the attribute itself
    if shared - (_capitalised(new_text) & _capitalised(old_text)):
        return True
    # or both give a value, of one kind: "Staging is reachable at staging.orbitlabs.io" and
    # "Staging URL is now stg.orbitlabs.cloud" share only Staging, but name a host each
    new_values, old_values = _strong_words(new_text), _strong_words(old_text)
    if not _value_kinds(new_values) & _value_kinds(old_values):
        return False
    fine_new, fine_old = _fine_kinds(new_values), _fine_kinds(old_values)
    return not (fine_new and fine_old) or bool(fine_new & fine_old)


def same_class(new_text: str, old_text: str) -> bool:
    """Whether a claim of each text speaks of one attribute class (``change_words.CLASSES``:
    where one lives, who one reports to, whom one works for)."""
    classes = set(cw.CLASSES)
    shared = {a for n in claims(new_text) for o in claims(old_text) for a in n.attrs & o.attrs}
    shared &= classes
    if shared == {"version"}:  # of one thing: "upgraded to Python 3.11" is no new release
        new_v, old_v = _versions(new_text).keys(), _versions(old_text).keys()
        return bool(new_v & old_v) or not (new_v or old_v)
    if shared == {"schedule"}:  # "takes vitamin D daily" / "started eating fish": no when
        return _says_when(new_text) and _says_when(old_text)
    # to like or prefer is no attribute of its own: "likes the matte black faucet" and "both
    # preferred the quartzite's warmer tones" are of two things
    return bool(shared - {"preference"})


# one sentence "<owner> is [now] <preposition> <value>": "Harbor Health is now in Negotiation"
_FRAME_RE = re.compile(
    r"\s*(?P<owner>[^.;:!?]+?)\s+(?:is|are)\s+(?P<now>now\s+)?"
    r"(?P<prep>in|at|on|with|under|for)\s+[^.;!?]+[.!]?\s*"
)


def said_anew(new_text: str, old_text: str) -> bool:
    """Whether the newer note says the older one's sentence again with "now" and another value
    in the same place: "Harbor Health is now in Negotiation" for "Harbor Health is in Proposal
    stage" (the same owner, word for word, and the same preposition), where the two share no
    word but the owner's name."""
    new, old = _FRAME_RE.fullmatch(new_text), _FRAME_RE.fullmatch(old_text)
    return bool(
        new
        and old
        and new.group("now")
        and not old.group("now")
        and new.group("owner").casefold() == old.group("owner").casefold()
        and new.group("prep").lower() == old.group("prep").lower()
    )


_WHEN_KINDS = frozenset({"weekday", "time", "month"})


def _says_when(text: str) -> bool:
    """Whether ``text`` names a day, a weekday, a month or a time of day: what a schedule
    ("starts", "takes", "meets") is a value of."""
    return bool(_fine_kinds(_strong_words(text)) & _WHEN_KINDS) or bool(
        re.search(r"\b\d{4}-\d{2}-\d{2}\b", text)
    )


@functools.lru_cache(maxsize=1 << 12)
def restates(new_text: str, old_text: str) -> bool:
    """Whether a newer note speaks of what an older one says, with a value of its own and none
    of the old one's (the same owner, no chat turn): recall ranks the newer one first when the
    two also read alike, whether or not sleep read an update in them."""
    if _chat(new_text) or _chat(old_text):
        return False
    fresh, gone = _values_apart(new_text, old_text)
    # the values first: reading the owners parses both notes' claims (most pairs have none)
    return bool(fresh) and bool(gone) and _anchored(new_text, old_text, frozenset())


def _values_apart(new_text: str, old_text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(the new text's values the old one lacks, the old one's the new one lacks)."""
    new, old = _strong_words(new_text), _strong_words(old_text)
    return new - old, old - new


@functools.lru_cache(maxsize=1 << 14)
def _states_a_change(text: str) -> bool:
    """A note (no chat turn) in change language that states a fact: no intention, nothing
    added. Cached: sleep asks it of one new note against every entry."""
    if _chat(text) or not (cw.found(cw.CHANGE_RE, text) or cw.found(cw.OLD_VALUE_RE, text)):
        return False
    if cw.found(cw.MODAL_RE, text) and not cw.found(cw.DECIDED_RE, text):
        return False
    return not cw.found(cw.ADDITIVE_RE, text)


# what a person says, not a field's value: a first- or second-person word, a question or an
# exclamation, more than one sentence, or more than 14 words
_SPEECH = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|we've|our|us|you|you're|your|yours)\b|[?!]",
    re.I,
)


# a role a label names, never a speaker: "Treasurer: Graham Oakes", "Alto section leader: …"
_ROLE_WORDS = """treasurer chair chairperson secretary leader lead manager director head contact
rep representative owner coordinator captain accompanist conductor supplier provider vendor
landlord accountant dentist doctor gp vet plumber electrician contractor agent publicist
translator printer designer engineer"""
_ROLE_LABELS = frozenset(_ROLE_WORDS.split())
# the words that name a role, last in a role said with no article
_HELD_ROLES = frozenset(
    [*_ROLE_LABELS, "coach", "officer", "carer", "locum", "assessor", "referee", "tutor"]
    + ["teacher", "cleaner", "supervisor", "administrator", "nurse", "physio", "warden"]
    + ["foreman", "forewoman", "caretaker", "organist", "pianist", "presenter", "commodore"]
    + ["mechanic", "technician", "receptionist", "bookkeeper", "solicitor", "surveyor"]
    + ["instructor", "trainer", "chef", "verger", "sacristan", "producer", "quizmaster"]
    + ["groundsman", "housekeeper", "bursar", "registrar", "steward", "editor"]
)


@functools.lru_cache(maxsize=1 << 14)
def _chat(text: str) -> bool:
    """A chat turn: a speaker's label and what the speaker says ("Caroline: I went to …"),
    unlike a note with a field label ("Groceries: Ocado, Thursday evenings."). On the LoCoMo
    dev conversations 2,752 of 2,760 labelled turns read as speech."""
    label, rest = lexical.split_speaker(text)
    if not label:
        return False
    if _SPEECH.search(rest):
        return True
    if rest[:1].islower():
        return False  # "Orchard Barn: deal with Geoff Tranter instead of Helen …": a field's
        # label, and what to do of it (a turn opens with a capital)
    if re.fullmatch(r"[A-Z][a-z]+ing: ", label):
        return False  # "Crossing: Stena Line Harwich to Hook of Holland …": a field, no one
    if label.rstrip(": ").split()[-1].lower() in _ROLE_LABELS:
        return False  # "Treasurer: Graham Oakes. Receipts go to him.": a role and who holds it
    return len(rest.split()) > 14 or len(lexical.sentences(rest)) > 1


def _anchored(new_text: str, old_text: str, names: frozenset[str]) -> bool:
    """Whether two notes speak of the same thing: an owner of one is said in the other, their
    owners' names do not differ ("Yusuf's work email" is not "Rania's") and neither has a
    qualifier the other lacks ("the catalog service" is not "the scheduler service"). Without
    a claim to read, two shared content words."""
    shared = _content(new_text) & _content(old_text)
    ns, os_ = claims(new_text, names), claims(old_text, names)
    if not ns or not os_:
        return len(shared) >= 2
    for n in ns:
        for o in os_:
            nn, no = _names(n), _names(o)
            if nn and no and not nn & no:
                continue
            if n.qualifiers - _bag(o) and o.qualifiers - _bag(n):
                continue
            if not n.owner & o.owner and (n.whose or o.whose):
                continue  # "Tom's manager's phone" is not Tom's phone
            held = n.owner & _bag(o) | o.owner & _bag(n) | (n.owner | o.owner) & shared
            # the user owns whatever they say of themselves: "user" alone is no shared subject,
            # a content word said in both must tell what of the user both speak of
            person = {"user", n.speaker, o.speaker}
            if held - person or (held and shared - person):
                return True
    return False


@functools.lru_cache(maxsize=1 << 14)
def _content(text: str) -> frozenset[str]:
    """Content words, lemmatised, numbers aside."""
    return frozenset(
        lemma(t)
        for t in tokens(text)
        if t.lower() not in cw.STOP and not any(map(str.isdigit, t))
        and not cw.change_word(t.lower())
    )  # fmt: skip


_JOINED_RE = re.compile(r"[A-Za-z][-_.@/][A-Za-z0-9]")


# the date sleep writes after a time that is past or present ("had a sore throat today
# (2026-11-21)", "started on Monday (2026-11-09)"): when something happened, not a value of
# what it says (a time to come, "moves to next Friday (2026-03-13)", is one; a bare weekday
# keeps its name as a value either way, as before it was resolved)
_WHEN_SAID_RE = re.compile(
    r"\b((?:today|tonight|yesterday|last night|this (?:morning|afternoon|evening)"
    r"|(?<!next )(?<!this )(?:mon|tues|wednes|thurs|fri|satur|sun)day)(?:'s|’s)?)"
    r"\s*\(\d{4}-\d{2}-\d{2}\)",
    re.I,
)


@functools.lru_cache(maxsize=1 << 14)
def _strong_words(text: str) -> frozenset[str]:
    """Numbers, identifiers and capitalised words after a sentence's first (not the date sleep
    writes after "today" or "yesterday")."""
    toks = tokens(_WHEN_SAID_RE.sub(r"\1", text))
    return frozenset(
        t.lower()
        for k, t in enumerate(toks)
        if any(map(str.isdigit, t))
        or _JOINED_RE.search(t)
        or (k and t[:1].isupper() and (t.lower() not in cw.STOP or _opens_a_name(toks, k)))
    )


def _opens_a_name(toks: list[str], k: int) -> bool:
    """Whether the capitalised word at ``k`` opens a run of a name ("Great Hall", "New
    Street"): the next word is capitalised, no function word and no day."""
    nxt = toks[k + 1] if k + 1 < len(toks) else ""
    return (
        toks[k].lower() not in _FUNCTION_WORDS
        and nxt[:1].isupper()
        and nxt.lower() not in cw.STOP
        and not _when_word(nxt)
    )


_FUNCTION_WORDS = (
    cw.DETERMINERS | cw.BOUNDARY | frozenset("a an of and or this that these those".split())  # noqa: SIM905
)


strong_words = _strong_words  # the consolidator reads what a note gives by it too


_VALUE_RE = re.compile(r"[$€£]?\d[\w.:,/%+-]*|(?<=\w )[A-Z][\w.+-]*|\S+[@/]\S+|\S+\.\S+\.\S+")


def _masked_text(text: str) -> str:
    """The text with its values, names and change words replaced or dropped: what is said,
    not which value."""
    return cw.CHANGE_RE.sub("", _VALUE_RE.sub("something", lexical.split_speaker(text)[1]))


@functools.lru_cache(maxsize=1 << 14)
def _topic(cs: tuple[Claim, ...]) -> frozenset[str]:
    """What the claims say, their owners aside: heads, classes, words, values."""
    out: set[str] = set()
    for c in cs:
        out |= c.words | set(c.values) | c.attrs | c.qualifiers | {c.head} - {"", "be"}
    return frozenset(out)


def likeness(a: str, b: str, names: frozenset[str] = frozenset()) -> float:
    """How much two texts say alike, their owners aside: the Jaccard overlap of their heads,
    classes, words and values. Among equally strong supersedes, the old entry that says most of
    what the new one says, and least else, is the one it replaces: not an entry of another
    attribute that shares one word, nor a merged entry that also holds other facts."""
    x, y = _topic(tuple(claims(a, names))), _topic(tuple(claims(b, names)))
    return len(x & y) / len(x | y) if x | y else 0.0


def shared_names(a: str, b: str) -> int:
    """How many capitalised words two texts share: among replacements that say alike, the one
    of the same owner ("Ember was upgraded from Go 1.19" replaces "Ember runs on Go 1.19", not
    "Atlas runs on Go 1.19")."""
    return len(_capitalised(a) & _capitalised(b))


@functools.lru_cache(maxsize=1 << 14)
def _keys(cs: tuple[Claim, ...]) -> frozenset[str]:
    out: set[str] = set()
    for c in cs:
        out |= c.owner | c.qualifiers | c.words | set(c.values)
        out |= {a for a in c.attrs if a not in cw.CLASSES}
        out |= {c.head} - cw.GENERIC_HEADS - set(cw.CLASSES) - {""}
    return frozenset(out)


def values_differ(a: str, b: str, names: frozenset[str] = frozenset()) -> bool:
    """True when two look-alike texts disagree on a value (a number, a name, a date, a
    negation): near-duplicate merging must keep both."""
    va = {v for c in claims(a, names) for v in c.values}
    vb = {v for c in claims(b, names) for v in c.values}
    # a number's digits and separators, not the sentence's full stop after it ("6379.")
    nums_a = {n.rstrip(".:,") for n in re.findall(r"\d[\d.:,]*", a)}
    nums_b = {n.rstrip(".:,") for n in re.findall(r"\d[\d.:,]*", b)}
    return (
        va != vb
        or nums_a != nums_b
        or _capitals(a) != _capitals(b)
        or cw.found(cw.NEGATION_RE, a) != cw.found(cw.NEGATION_RE, b)
    )


def _capitals(text: str) -> set[str]:
    """Capitalised words (function words aside): names, wherever they stand."""
    out = set()
    for sentence in lexical.sentences(lexical.split_speaker(text)[1]):
        toks = tokens(sentence)
        out |= {_POSSESSIVE_END.sub("", t.lower()) for t in toks
                if t[:1].isupper() and t.lower() not in cw.STOP}  # fmt: skip
    return out


_POSSESSIVE_END = re.compile(r"['’]s$")  # "Redis's" names Redis


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


class Candidates:
    """Older texts indexed by what a new text must share with one before :func:`relation` (or
    the learned model's ``update_model.last_word``) can read a supersede in the pair: sleep
    compares every new item with every entry and earlier item, most pairs of which share
    nothing, and a backlog of thousands of notes made that quadratic.

    A pair left out is one both would call ``other`` (or ``same``) without asking ``similar``:
    a supersede needs claims with a key in common (:func:`_keys`, what :func:`compare` reads),
    or two notes that are no chat turns, sharing a content word (:func:`_old_named`, the
    learned model) or the new one stating a change (:func:`_said_alike`); where one of the two
    is a chat turn and both are said by speakers, a speaker in common and something said of
    the same thing (:func:`_topic`) besides. Positions are those
    :meth:`add` returned, in order of adding. ``keyed=False`` indexes content words only (for
    :meth:`sharing`; :meth:`of` then needs it)."""

    def __init__(self, names: frozenset[str] = frozenset(), keyed: bool = True) -> None:
        self.names = names
        self.keyed = keyed
        self._size = 0
        self._by_key: dict[str, list[int]] = {}
        self._by_word: dict[str, list[int]] = {}
        self._notes: list[int] = []  # texts that are no chat turn
        self._said: dict[int, tuple[bool, frozenset[str], frozenset[str]]] = {}

    def _speakers(self, text: str) -> tuple[bool, frozenset[str], frozenset[str]] | None:
        """(a chat turn, its speakers, what it says) for a text whose every claim has a
        speaker, else None: two such texts, one a chat turn, are compared by :func:`relation`
        only when they share a speaker and a topic, and by nothing else."""
        cs = tuple(claims(text, self.names))
        speakers = frozenset(c.speaker for c in cs)
        if not cs or "" in speakers:
            return None
        return _chat(text), speakers, _topic(cs)

    def add(self, text: str) -> int:
        at = self._size
        self._size += 1
        if self.keyed:
            for key in _keys(tuple(claims(text, self.names))):
                self._by_key.setdefault(key, []).append(at)
            said = self._speakers(text)
            if said is not None:
                self._said[at] = said
        if not _chat(text):
            self._notes.append(at)
            for word in _content(text):
                self._by_word.setdefault(word, []).append(at)
        return at

    def sharing(self, text: str) -> set[int]:
        """The notes (no chat turns) sharing a content word with ``text``, none for a chat
        turn: the only pairs the learned model reads (``update_model.asked``)."""
        out: set[int] = set()
        if not _chat(text):
            for word in _content(text):
                out.update(self._by_word.get(word, ()))
        return out

    def of(self, text: str) -> list[int]:
        """The texts ``text`` may supersede, in order of adding."""
        if not self.keyed:
            raise ValueError("Candidates(keyed=False) answers sharing() only")
        out: set[int] = set()
        for key in _keys(tuple(claims(text, self.names))):
            out.update(self._by_key.get(key, ()))
        said = self._speakers(text)
        if said is not None:
            chat, speakers, topic = said
            out = {
                i
                for i in out
                if (old := self._said.get(i)) is None
                or not (chat or old[0])
                or (speakers & old[1] and topic & old[2])
            }
        if _states_a_change(text):  # no chat turn
            out.update(self._notes)
        else:
            out |= self.sharing(text)
        return sorted(out)
