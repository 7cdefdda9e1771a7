"""Whether what a model wrote is said by the notes it cites: its numbers and names.

A model may word an entry as it likes ("I prefer tea" -> "Maya prefers tea"), but a value it
writes must come from somewhere: a number, a version, a time, an identifier from the notes the
item cites (or the entry it rewrites), and a name from those or from what the model was shown.
A small local model that "updated" an entry about CI into "The payments API is written in Go
1.22", citing a note about the CI runner, wrote values no note holds; :func:`unsupported` names
them, and sleep refuses the item (``unsupported_value``), so the note stays pending.

Values are compared piece by piece, case aside, each run of digits as a number ("v0.8" and
"0.8", "03" and "3", "2,100" and "$2100", "5GB" and "5 GB"; a number written as a word, "eight",
counts as its digits), so a value reworded or re-punctuated is still found. Month and weekday
names, the first word of a sentence, common words and a redaction placeholder are not values.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from agent_sleep.analysis import lexical, temporal

_PLACEHOLDER_RE = re.compile(r"\[REDACTED:[^\]]*\]")  # what redaction left: no value
_VALUE_RE = re.compile(r"[^\W_][\w.:/+#'’,-]*", re.UNICODE)
_PIECE_RE = re.compile(r"\d+|[^\W\d_]+", re.UNICODE)
_THOUSANDS_RE = re.compile(r"(?<=\d),(?=\d{3}\b)")
_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "hundred": 100, "thousand": 1000, "first": 1, "second": 2, "third": 3, "fourth": 4,
    "fifth": 5, "half": 2, "dozen": 12, "once": 1, "twice": 2, "noon": 12, "midnight": 0,
}  # fmt: skip
_MONTHS = temporal.MONTHS
_CALENDAR = frozenset(
    [*_MONTHS, *(m[:3] for m in _MONTHS), "sept", *temporal.WEEKDAYS,
     *(d[:3] for d in temporal.WEEKDAYS), "tues", "thur", "thurs",
     "today", "tomorrow", "yesterday", "am", "pm", "utc"]
)  # fmt: skip
_MONTH_NUMBER = {name: i for i, m in enumerate(_MONTHS, 1) for name in (m, m[:3])}
_MONTH_NUMBER["sept"] = 9


def _pieces(text: str) -> list[str]:
    out = []
    for piece in _PIECE_RE.findall(_THOUSANDS_RE.sub("", text)):
        low = piece.casefold()
        out.append(str(int(low)) if low.isdigit() else low)
    return out


def support_of(texts: Iterable[str]) -> frozenset[str]:
    """The pieces ``texts`` say, numbers and months written as words among them as digits."""
    out: set[str] = set()
    for text in texts:
        for piece in _pieces(text):
            out.add(piece)
            if piece in _NUMBER_WORDS:
                out.add(str(_NUMBER_WORDS[piece]))
            if piece in _MONTH_NUMBER:  # "Dec 11" says the 12 of 2026-12-11
                out.add(str(_MONTH_NUMBER[piece]))
    return frozenset(out)


def values(text: str) -> list[tuple[str, bool]]:
    """``text``'s values, each with whether it is a name (else it holds a digit): numbers,
    versions, times, identifiers, and words capitalised past a sentence's start."""
    out: list[tuple[str, bool]] = []
    for sentence in lexical.sentences(_PLACEHOLDER_RE.sub(" ", text)):
        for k, m in enumerate(_VALUE_RE.finditer(sentence)):
            word = m.group(0).rstrip(".,:'’-")
            if not word:
                continue
            if any(ch.isdigit() for ch in word):
                out.append((word, False))
                continue
            start = k == 0 or sentence[: m.start()].rstrip().endswith((":", '"', "(", "“"))
            if start or not word[:1].isupper() or word.casefold() in lexical.STOPWORDS:
                continue
            if all(p in _CALENDAR for p in _pieces(word)) or word in ("I", "I'm", "I’m"):
                continue
            out.append((word, True))
    return out


def unsupported(text: str, said: frozenset[str], names: frozenset[str] = frozenset()) -> list[str]:
    """The values of ``text`` that ``said`` (:func:`support_of` of the cited notes and the
    entry rewritten) does not hold; a name may also come from ``names`` (what else the model
    was shown)."""
    missing = []
    for word, is_name in values(text):
        pieces = [p for p in _pieces(word) if p not in _CALENDAR]
        pool = said | names if is_name else said
        if pieces and not all(p in pool for p in pieces):
            missing.append(word)
    return missing
