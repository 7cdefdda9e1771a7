"""One thing said again with another value: "Saturday hours are 8:30am to 12:30pm" for
"Saturday clinic hours are 9am to 1pm (first Saturday of the month)".

The claim reading (:mod:`claims`) compares heads, attributes and every word each claim holds, so
an older entry that says more than its value ("Out-of-hours cover is Vets Now Harrogate - calls
to the main number divert there after 6:30pm") or a verb that is no copula ("Monstera
deliciosa 17cm pot sells for £24.99 on the site") read as another attribute beside a short
restatement of the same subject with a new value. This reads the two texts as a subject and
what follows it:

- the newer note (any sentence of it) is ``SUBJECT is|are [now] VALUE`` or ``SUBJECT: VALUE``,
  its subject two content words or more, ending in a plain noun (not a name: "Everly Bakeries
  is based in Auckland" says what it is, no value of it);
- the older entry opens with a subject that holds every content word of the newer one (or
  with who has it: "Ayasha has swim practice on Wednesdays at 5pm" for "Ayasha's swim practice
  is Fridays at 4pm"), and at most two more that are plain words (no name, number, weekday or
  month: "Saturday clinic hours" for "Saturday hours", "School care plan review meeting" for
  "Care plan review meeting"; not "1st floor copier" for "copier", nor "Saturday clinic hours"
  for "Clinic hours"), then a verb or a colon;
- each side's value (up to a dash, a semicolon, a bracket or the end of its sentence) gives
  values of a kind the other gives too (an amount, a time, a date, a weekday, a number, a
  name), and for one such kind the two share none; an amount for the same period ("$300 per
  year" is no new "$29 per month"), and no day or time the older value lacks ("£4 after 6pm"
  is no new "£5").

A hedge, an addition ("also", "as well") or a value said with a qualifier of its own the older
entry lacks reads nothing; the caller keeps chat turns out (a speaker's label is no field's).
"""

from __future__ import annotations

import functools
import re

from agent_sleep.analysis import change_words as cw
from agent_sleep.analysis import lexical, temporal
from agent_sleep.analysis.claims import lemma, tokens

# the newer note's sentence: a subject, "is", "are" or a colon, the value
_NEW_RE = re.compile(
    r"^\s*(?:(?:correction|update|updated)\s*:\s*)?(?:the |our |my )?"
    r"(?P<subject>[A-Za-z][\w'’&-]*(?: [\w'’&-]+){0,5}?)"
    r"(?:\s+(?:is|are)(?:\s+now)?\s+|\s*:\s+)(?P<value>.+)$",
    re.I,
)
# where a value ends: a spaced dash, a semicolon, a bracket, a sentence's end
_VALUE_END_RE = re.compile(r"\s+[-–—]\s+|;|\s\(|\.(?:\s|$)")
# besides a hedge: a condition, a time to come, an addition, an exception
_NOT_PLAIN_RE = re.compile(
    r"\b(?:if|unless|will|won't|going to|also|too|as well|another|extra|additional|until|till|"
    r"except|only on)\b|\?",
    re.I,
)
# the verb after the older entry's subject: a copula, a colon, or a verb in the present
_OLD_VERB_RE = re.compile(r"\s*(?::\s+|(?:is|are)\s+|(?P<verb>[a-z]+s)\s+)")
# "Ayasha has swim practice on Wednesdays": the subject's thing is had, its value follows
_HAS_RE = re.compile(r"^\S+(?: \S+)? (?:has|have) ", re.I)
_BARE_RE = re.compile(r"\s+(?P<verb>)(?=(?:on|at|in|every|from)\s)")
MONEY_RE = re.compile(
    r"[$€£]\s?\d[\d,.]*|\d[\d,.]*\s?(?:euros?|pounds?|dollars?|eur|gbp|usd|pence|cents?)\b"
    r"|\b\d{1,3}p\b"  # pence: "10p a page"
)


def money_unit(amount: str) -> str:
    """What an amount is counted in: its symbol ("£"; pence are pounds' too: "99p" for
    "£1.25"), or the word after it ("euros")."""
    amount = amount.strip().rstrip(".,")
    if amount[:1] in "$€£":
        return amount[:1]
    unit = re.sub(r"^[\d,.\s]+", "", amount).lower()
    return {"p": "£", "pence": "£", "pounds": "£", "pound": "£", "gbp": "£"}.get(unit, unit)


_TIME_RE = re.compile(r"\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b")
_MONTH = "|".join([*temporal.MONTHS, *temporal.SHORT_MONTHS])
_DAY_RE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|"  # 2025-05-01
    rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTH})\b|\b(?:{_MONTH})\.?\s+\d{{1,2}}\b",
    re.I,
)
_WEEKDAY = "|".join([*temporal.WEEKDAYS, *temporal.SHORT_WEEKDAYS])
_WEEKDAY_RE = re.compile(rf"\b(?:{_WEEKDAY})s?\b", re.I)
# the period an amount is for: "$29 per month", "£25 a month", "$29/month", "48 a month"
_PER_RE = re.compile(
    r"(?:\bper|\ba|\ban|\beach|/)\s*(hour|hr|day|night|week|month|mo|year|yr|annum|visit|"
    r"session|person|head|user|seat)s?\b|\b(hourly|daily|nightly|weekly|monthly|yearly|annually)\b",
    re.I,
)
_PERIOD = {"hr": "hour", "hourly": "hour", "daily": "day", "nightly": "night", "weekly": "week",
           "mo": "month", "monthly": "month", "yr": "year", "yearly": "year", "annum": "year",
           "annually": "year"}  # fmt: skip
_NUMBER_RE = re.compile(r"\b\d[\d,.]*\w*")
_NAME_RE = re.compile(r"(?<=\w )[A-Z][\w'’&.-]*(?: [A-Z][\w'’&.-]*)*")
_WHEN = frozenset({"time", "date", "weekday"})
_MAX_EXTRA = 2  # plain words the older subject may hold beyond the newer one's


def _unsettled(text: str) -> bool:
    return bool(cw.HEDGE_RE.search(text) or _NOT_PLAIN_RE.search(text))


def _content(words: str) -> list[str]:
    return [lemma(t) for t in tokens(words) if t.lower() not in cw.STOP]


def _plain(word: str, first: bool) -> bool:
    """A word that may qualify a subject without making it another thing: not a name (a
    capital past the first word), a number, a weekday or a month."""
    low = word.lower()
    return not (
        any(ch.isdigit() for ch in word)
        or (word[:1].isupper() and not first)
        or _WEEKDAY_RE.fullmatch(word)
        or low in temporal.MONTHS
        or low in temporal.SHORT_MONTHS
    )


def _value(text: str) -> str:
    m = _VALUE_END_RE.search(text)
    return text[: m.start()] if m else text


@functools.lru_cache(maxsize=1 << 14)
def _kinds(value: str) -> dict[str, set[str]]:
    """The values a phrase gives, by kind, lower case; each span read once (an amount is no
    number too, a date's day no number). Cached: a newer note's value is read against every
    entry; callers only read what it returns."""
    out: dict[str, set[str]] = {}
    rest = value
    for kind, rx in (
        ("money", MONEY_RE),
        ("time", _TIME_RE),
        ("date", _DAY_RE),
        ("weekday", _WEEKDAY_RE),
        ("number", _NUMBER_RE),
    ):
        found = {re.sub(r"\s+", " ", m.group(0).lower().rstrip("s")) for m in rx.finditer(rest)}
        if found:
            out[kind] = found
        rest = rx.sub(" ", rest)
    periods = (m.group(m.lastindex).lower() for m in _PER_RE.finditer(value))
    per = {_PERIOD.get(w, w) for w in periods}
    if per:
        out["per"] = per
    names = {
        m.group(0).lower()
        for m in _NAME_RE.finditer("x " + rest)  # a name may open the value
        if m.group(0).lower() not in cw.STOP
    }
    if names:
        out["name"] = names
    return out


@functools.lru_cache(maxsize=1 << 14)
def _news(text: str) -> tuple[tuple[tuple[str, ...], str], ...]:
    """Each sentence of a newer note read as (its subject's content words, its value)."""
    out = []
    for sentence in lexical.sentences(text):
        m = _NEW_RE.match(sentence)
        if m is None or _unsettled(sentence):
            continue
        subject = tuple(_content(m.group("subject")))
        # what the subject names is a thing's attribute (its last word a plain noun: "Saturday
        # hours"), not a name ("Everly Bakeries is based in Auckland" says what it is); one
        # word names too little ("Groceries: …" was tried and retired a look-alike)
        last = tokens(m.group("subject"))[-1:]
        if len(subject) >= 2 and last and last[0][:1].islower():
            out.append((subject, _value(m.group("value"))))
    return tuple(out)


def restated(new_text: str, old_text: str) -> tuple[str, str] | None:
    """(the older value, the newer one) where the newer note says the subject the older entry
    opens with again with another value, as the module says; else None."""
    news = _news(new_text)  # cached per note: sleep asks it of one note against every entry
    first = lexical.sentences(old_text)[:1] if news else []
    if not first:
        return None
    old = re.sub(r"^\s*(?:the |our |my )", "", first[0], flags=re.I)
    spans = [m.span() for m in re.finditer(r"\S+", old)]
    words = [old[a:b] for a, b in spans]
    for subject, value in news:
        need = set(subject)
        # the shortest opening of the older entry that holds the newer subject's words
        for end in range(1, min(len(words), len(subject) + _MAX_EXTRA) + 1):
            head = old[: spans[end - 1][1]].rstrip(":,")
            said = _content(head)
            if not need <= set(said):
                continue
            extra = [
                w
                for w in tokens(head)
                if lemma(w) not in need and w.lower() not in cw.STOP | cw.DETERMINERS
            ]
            if len(extra) > _MAX_EXTRA or not all(
                _plain(w, k == 0 and w == words[0]) for k, w in enumerate(extra)
            ):
                break
            tail = _OLD_VERB_RE.match(old, len(head))
            if tail is None and _HAS_RE.search(head):  # "Ayasha has swim practice on …"
                tail = _BARE_RE.match(old, len(head))
            if tail is None:
                continue  # "Analytical balance calibration is due …": its subject goes on
            if tail.group("verb") and tail.group("verb") in cw.STOP:
                break
            if _unsettled(old[: tail.end()]):
                break
            # a word past the newer subject's last is another thing of it ("Autumn concert
            # programme: …" for "The autumn concert is now at …"), unless the newer value
            # opens with it ("Analytical balance: calibration due …")
            past = tokens(head)[_last_at(head, subject[-1]) + 1 :]
            opening = {lemma(t) for t in tokens(value)[: len(past) + 1]}
            if any(lemma(w) not in need | opening for w in past if w.lower() not in cw.STOP):
                break
            was = _value(old[tail.end() :])
            if _apart(_kinds(value), _kinds(was)):
                return was.strip(), value.strip()
            break
    return None


def _last_at(text: str, word: str) -> int:
    """The index among ``text``'s tokens of the last one whose lemma is ``word``."""
    toks = tokens(text)
    return max((k for k, t in enumerate(toks) if lemma(t) == word), default=len(toks) - 1)


def _apart(new: dict[str, set[str]], old: dict[str, set[str]]) -> bool:
    """Whether the two values give a kind in common, with no value of one such kind shared,
    no day or time in the newer one where the older gives none (a qualifier of its own: "£4
    after 6pm" is no new price of "£5"), and every kind the older one gives said again, names
    aside (a name said with them, "with Miss Carter", may go)."""
    shared = new.keys() & old.keys() - {"per"}
    if not shared or (new.keys() - old.keys()) & _WHEN:
        return False
    if old.keys() - new.keys() - {"name", "per"}:
        return False  # "is now at the Corn Exchange" says no new day of "is on Saturday 7
        # November at St Mary's": replaced whole, the entry would lose its day
    if new.get("per") and old.get("per") and not new["per"] & old["per"]:
        return False  # "$300 per year" is no new price of "$29 per month"
    return any(not new[k] & old[k] for k in shared)
