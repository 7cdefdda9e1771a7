"""Temporal anchors: resolve relative times against a log's date, and find temporal expressions.

Daily logs are dated, so "yesterday" written in the log of 2023-05-08 means 2023-05-07. Before any
model (offline or remote) sees a note, :func:`resolve` keeps the writer's words and appends the
date they mean: ``"yesterday"`` -> ``"yesterday (2023-05-07)"``. Resolution is deterministic and
idempotent (an expression already followed by a parenthesised date is left alone). Bare weekday
names ("on Friday") are ambiguous between past and future and are kept as written.

:func:`extract` lists the temporal expressions of a text (dates, times, durations, ages,
relative expressions) for the preservation metric of the consolidation benchmark.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass

_NUM_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
# Month names count only capitalised, so the verb "may" is not a date.
_MONTH_RE = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_NUM_RE = r"(?:\d{1,3}|" + "|".join(_NUM_WORDS) + r")"
_UNITS = "day|week|month|year"
_UNIT_RE = rf"(?:{_UNITS})s?"
# An expression already resolved is followed by " (2023-05-07)" or " (week of …)" etc.
_RESOLVED_AFTER = re.compile(r"^ \((?:\d{4}|week of|weekend of)")


def _shift_months(day: dt.date, months: int) -> dt.date:
    y, m = divmod(day.month - 1 + months, 12)
    year, month = day.year + y, m + 1
    for d in (day.day, 30, 29, 28):
        try:
            return dt.date(year, month, d)
        except ValueError:
            continue
    raise ValueError("unreachable")


def _monday(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


def _num(word: str) -> int:
    w = word.lower()
    return int(w) if w.isdigit() else _NUM_WORDS[w]


def _ago(m: re.Match[str], day: dt.date, sign: int) -> str:
    n = _num(m.group("n")) * sign
    unit = m.group("unit").lower().rstrip("s")
    if unit == "day":
        return (day + dt.timedelta(days=n)).isoformat()
    if unit == "week":
        return (day + dt.timedelta(weeks=n)).isoformat()
    if unit == "month":
        return _shift_months(day, n).strftime("%Y-%m")
    return str(day.year + n)


def _weekday(m: re.Match[str], day: dt.date) -> str:
    which = m.group("which").lower()
    target = _WEEKDAYS.index(m.group("wd").lower())
    if which == "last":
        back = (day.weekday() - target) % 7 or 7
        return (day - dt.timedelta(days=back)).isoformat()
    if which == "next":
        ahead = (target - day.weekday()) % 7 or 7
        return (day + dt.timedelta(days=ahead)).isoformat()
    return (_monday(day) + dt.timedelta(days=target)).isoformat()  # "this"


def _weekend(m: re.Match[str], day: dt.date) -> str:
    which = m.group("which").lower()
    saturday = _monday(day) + dt.timedelta(days=5)
    if which == "last":
        saturday -= dt.timedelta(weeks=1)
    elif which == "next":
        saturday += dt.timedelta(weeks=1)
    return f"weekend of {saturday.isoformat()}"


def _week(m: re.Match[str], day: dt.date) -> str:
    delta = {"last": -1, "this": 0, "next": 1}[m.group("which").lower()]
    return f"week of {(_monday(day) + dt.timedelta(weeks=delta)).isoformat()}"


def _month(m: re.Match[str], day: dt.date) -> str:
    delta = {"last": -1, "this": 0, "next": 1}[m.group("which").lower()]
    return _shift_months(day.replace(day=1), delta).strftime("%Y-%m")


def _year(m: re.Match[str], day: dt.date) -> str:
    delta = {"last": -1, "this": 0, "next": 1}[m.group("which").lower()]
    return str(day.year + delta)


def _fixed(days: int) -> object:
    return lambda m, day: (day + dt.timedelta(days=days)).isoformat()


_RULES: list[tuple[re.Pattern[str], object]] = [
    (re.compile(r"\bthe day before yesterday\b", re.I), _fixed(-2)),
    (re.compile(r"\bthe day after tomorrow\b", re.I), _fixed(2)),
    (re.compile(r"\byesterday\b", re.I), _fixed(-1)),
    (re.compile(r"\blast night\b", re.I), _fixed(-1)),
    (re.compile(r"\btomorrow\b", re.I), _fixed(1)),
    (re.compile(r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b", re.I), _fixed(0)),
    (
        re.compile(rf"\b(?P<n>{_NUM_RE}) (?P<unit>{_UNIT_RE}) ago\b", re.I),
        lambda m, day: _ago(m, day, -1),
    ),
    (
        re.compile(rf"\bin (?P<n>{_NUM_RE}) (?P<unit>{_UNIT_RE})\b", re.I),
        lambda m, day: _ago(m, day, 1),
    ),
    (
        re.compile(rf"\b(?P<which>last|next|this) (?P<wd>{'|'.join(_WEEKDAYS)})\b", re.I),
        _weekday,
    ),
    (re.compile(r"\b(?P<which>last|next|this) weekend\b", re.I), _weekend),
    (re.compile(r"\b(?P<which>last|next|this) week\b", re.I), _week),
    (re.compile(r"\b(?P<which>last|next|this) month\b", re.I), _month),
    (re.compile(r"\b(?P<which>last|next|this) year\b", re.I), _year),
]


def resolve(text: str, day: dt.date) -> str:
    """``text`` with each relative time followed by the date it means, seen from ``day``."""
    spans: list[tuple[int, int, str]] = []
    for pattern, fn in _RULES:
        for m in pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e, _ in spans):
                continue
            # after a possessive: "this afternoon's (2026-11-08) upgrade", not "afternoon
            # (2026-11-08)'s"
            end = m.end() + (2 if text[m.end() : m.end() + 2] in ("'s", "’s") else 0)
            if _RESOLVED_AFTER.match(text[end:]):
                continue
            value = fn(m, day)  # type: ignore[operator]
            spans.append((m.start(), end, f" ({value})"))
    for _start, end, add in sorted(spans, reverse=True):
        text = text[:end] + add + text[end:]
    return text


@dataclass(frozen=True)
class Expression:
    kind: str  # date, time, duration, age, relative
    text: str


_EXTRACT: list[tuple[str, re.Pattern[str]]] = [
    ("date", re.compile(r"\b\d{4}-\d{2}-\d{2}\b")),
    ("date", re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{_MONTH_RE}(?:,? \d{{4}})?")),
    ("date", re.compile(rf"\b{_MONTH_RE} \d{{1,2}}(?:st|nd|rd|th)?\b(?:,? \d{{4}})?")),
    ("date", re.compile(rf"\b(?:{'|'.join(m.title() for m in _MONTHS)})(?:,? \d{{4}})?\b")),
    ("date", re.compile(r"\b(?:in|since|of|by|from|until) (?:19|20)\d{2}\b(?!-\d)", re.I)),
    ("time", re.compile(r"\b\d{1,2}(?::\d{2})? ?(?:am|pm|a\.m\.|p\.m\.)(?!\w)", re.I)),
    ("time", re.compile(r"\b(?:[01]?\d|2[0-3]):[0-5]\d\b")),
    ("age", re.compile(rf"\b{_NUM_RE}[- ]years?[- ]old\b", re.I)),
    ("age", re.compile(r"\b(?:aged?|turned|turning) \d{1,3}\b", re.I)),
    (
        "duration",
        re.compile(
            rf"\b(?:{_NUM_RE}|several|a few|a couple of) (?:minute|hour|{_UNITS})s?\b"
            r"(?! ago| old)",
            re.I,
        ),
    ),
    ("relative", re.compile(r"\b(?:yesterday|tomorrow|today|tonight|last night)\b", re.I)),
    (
        "relative",
        re.compile(
            rf"\b(?:last|next|this) (?:week(?:end)?|month|year|{'|'.join(_WEEKDAYS)})\b", re.I
        ),
    ),
    ("relative", re.compile(rf"\b{_NUM_RE} {_UNIT_RE} ago\b", re.I)),
    ("relative", re.compile(rf"\b(?:on |every )?(?:{'|'.join(_WEEKDAYS)})s?\b", re.I)),
]


def extract(text: str) -> list[Expression]:
    """The temporal expressions in ``text``, longest first where they overlap, in text order."""
    return list(_extracted(text))


@functools.lru_cache(maxsize=1 << 14)
def _extracted(text: str) -> tuple[Expression, ...]:
    """:func:`extract`, cached: sleep asks it of each sentence of a note several times."""
    found: list[tuple[int, int, str]] = []
    for kind, pattern in _EXTRACT:
        for m in pattern.finditer(text):
            found.append((m.start(), m.end(), kind))
    found.sort(key=lambda t: (t[0], -(t[1] - t[0])))
    out: list[Expression] = []
    last_end = -1
    for start, end, kind in found:
        if start < last_end:
            continue
        out.append(Expression(kind, text[start:end]))
        last_end = end
    return tuple(out)


def has_temporal(text: str) -> bool:
    return bool(extract(text))
