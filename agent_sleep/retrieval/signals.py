"""The signals recall combines beside BM25 and cosine: fusion by reciprocal rank, the session
prior, pseudo-relevance feedback terms, names in the query, spread across days.

Each takes the index and a candidate → score map (or arrays) and returns new scores; every
constant comes from ``recall.Fusion``.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from agent_sleep.analysis.temporal import MONTHS
from agent_sleep.retrieval.bm25 import STOPWORDS, tokenize

if TYPE_CHECKING:
    import numpy as np

    from agent_sleep.retrieval.index import Loaded
    from agent_sleep.retrieval.recall import Fusion


def reciprocal(values: np.ndarray, k: float) -> np.ndarray:
    """``1 / (k + rank)`` of each value among ``values`` (rank 1 the best); 0 for a value of
    0 (a unit BM25 did not match)."""
    import numpy as np

    order = np.argsort(-values, kind="stable")
    ranks = np.empty(len(values))
    ranks[order] = np.arange(1, len(values) + 1)
    out: np.ndarray = np.where(values > 0, 1.0 / (k + ranks), 0.0)
    return out


NAME = re.compile(r"(?<=\w )[A-Z][a-z]+")  # a capitalised word inside the text


def names_bonus(
    index: Loaded, query: str, scores: dict[int, float], weight: float
) -> dict[int, float]:
    """Candidates that contain a name of the query (a capitalised word not opening it) gain
    ``weight``: a question about a person is answered by what concerns that person."""
    terms = [t for w in NAME.findall(query) if w.lower() not in STOPWORDS for t in tokenize(w)]
    if not terms:
        return scores
    has = index.bm25.scores(terms)
    return {r: s + (weight if has[r] > 0 else 0.0) for r, s in scores.items()}


def spread(index: Loaded, scores: dict[int, float], spread: float) -> dict[int, float]:
    """Diversification across days: each unit is divided by ``1 + spread × n``, ``n`` the
    better-scored units of its file, so the budget reaches more days."""
    seen: dict[str, int] = {}
    out = {}
    for row in sorted(scores, key=lambda r: (-scores[r], r)):
        path = index.path_of(row)
        n = seen.get(path, 0)
        seen[path] = n + 1
        out[row] = scores[row] / (1 + spread * n)
    return out


def feedback_terms(index: Loaded, rows: np.ndarray, query: list[str], fusion: Fusion) -> list[str]:
    """Pseudo-relevance feedback (RM3-style): the terms that weigh most in the best first-pass
    units (term frequency over unit length, summed, times IDF), the query's own left out."""
    n = len(index.units)
    weight: dict[str, float] = {}
    for row in rows.tolist():
        unit_terms = tokenize(index.units[row].embedded)
        for term in unit_terms:
            weight[term] = weight.get(term, 0.0) + 1.0 / len(unit_terms)
    asked = set(query)
    ranked = sorted(
        (t for t in weight if t not in asked and len(t) > 1),
        key=lambda t: (-weight[t] * math.log(1 + n / (1 + index.bm25.df(t))), t),
    )
    return ranked[: fusion.feedback_terms]


def union(*arrays: np.ndarray) -> np.ndarray:
    """The distinct rows of ``arrays``, sorted: ``np.union1d`` (and ``np.unique``) without
    their first call's import of ``numpy.ma`` (about 20 ms of a cold search)."""
    import numpy as np

    rows = np.sort(np.concatenate([np.asarray(a, dtype=np.int64) for a in arrays]))
    if len(rows) < 2:
        return rows
    keep = np.empty(len(rows), dtype=bool)
    keep[0] = True
    np.not_equal(rows[1:], rows[:-1], out=keep[1:])
    out: np.ndarray = rows[keep]
    return out


TOP_SAMPLED = 8192  # from this many scores, ``top`` partitions only those over a threshold
TOP_STEP = 16  # every this many scores are the threshold's sample


def top(scores: np.ndarray, count: int) -> np.ndarray:
    """The rows of the ``count`` best ``scores`` (in no order), as ``np.argpartition`` picks
    them. Over many scores, only those at or above a threshold read off a strided sample are
    partitioned (100k scores: 0.23 ms instead of 0.81, a throwaway timing); when
    that threshold leaves too few, or the count-th best score is tied past them, every score
    is partitioned, so the rows are always the ones a full partition gives."""
    import numpy as np

    n = len(scores)
    if count >= n:
        return np.arange(n)
    if n >= TOP_SAMPLED and count * TOP_STEP * 4 <= n:
        sample = scores[::TOP_STEP]
        rank = min(len(sample) - 1, 2 * (count // TOP_STEP) + 8)  # about 2 × count above it
        threshold = np.partition(sample, len(sample) - 1 - rank)[len(sample) - 1 - rank]
        over = np.flatnonzero(scores >= threshold)
        if len(over) >= count:
            kept = scores[over]
            best = np.argpartition(-kept, count - 1)[:count]
            last = kept[best].min()
            if np.count_nonzero(kept == last) == np.count_nonzero(kept[best] == last):
                out: np.ndarray = over[best]
                return out
    return np.argpartition(-scores, count - 1)[:count]


def sessions(index: Loaded, scores: dict[int, float], weight: float, top: int) -> dict[int, float]:
    """Each unit also takes ``weight ×`` its file's relevance (the mean of the file's ``top``
    best scores): a day that holds strong matches makes its other matches more likely to be
    what the query is about. MEMORY.md and each bank page count as one file too, so a
    consolidated entry is not outranked by the raw notes of a day merely for that bonus."""
    per_file: dict[str, list[float]] = {}
    path = {row: index.path_of(row) for row in scores}
    for row, score in scores.items():
        per_file.setdefault(path[row], []).append(score)
    relevance = {p: sum(sorted(v)[-top:]) / min(top, len(v)) for p, v in per_file.items()}
    return {row: score + weight * relevance[path[row]] for row, score in scores.items()}


_MONTH = r"(" + "|".join(m[:3] + r"(?:" + m[3:] + r")?" for m in MONTHS) + r")\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_DATE_RES = (
    ("dmy", re.compile(_DAY + r"\s+(?:of\s+)?" + _MONTH + r",?\s+(\d{4})\b", re.I)),
    ("mdy", re.compile(r"\b" + _MONTH + r"\s+" + _DAY + r",?\s+(\d{4})\b", re.I)),
    ("iso", re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")),
    ("my", re.compile(r"\b" + _MONTH + r",?\s+(\d{4})\b", re.I)),
    ("m", re.compile(r"\b(?:in|during|of|since|last|this)\s+" + _MONTH + r"\b(?!\s+\d)", re.I)),
)


def _month(name: str) -> int:
    return next(i + 1 for i, m in enumerate(MONTHS) if name.lower().startswith(m[:3]))


def _dates(query: str) -> list[tuple[str, re.Match[str]]]:
    """The dates a query names, each once (the longest form first: "4 March, 2026" is a day,
    not also the month "March, 2026"), in the order of ``_DATE_RES``."""
    out: list[tuple[str, re.Match[str]]] = []
    taken: list[tuple[int, int]] = []
    for kind, rx in _DATE_RES:
        for m in rx.finditer(query):
            if any(a <= m.start() < b for a, b in taken):
                continue
            out.append((kind, m))
            taken.append(m.span())
    return out


def query_days(query: str) -> tuple[tuple[str, str], ...]:
    """The days a query names, as inclusive ISO ranges: a day (two days either side: a note of
    that day or one that speaks of it), a month with its year (and the week after it, when
    what happened in it is told), a month alone in any year ("in June": ``("*-06", "")``).
    An impossible day ("31 February, 2023") names nothing."""
    import datetime as dt

    out: list[tuple[str, str]] = []
    for kind, m in _dates(query):
        try:
            if kind == "m":
                out.append((f"*-{_month(m.group(1)):02d}", ""))
                continue
            if kind == "my":
                lo = dt.date(int(m.group(2)), _month(m.group(1)), 1)
                hi = (lo + dt.timedelta(days=32)).replace(day=1) + dt.timedelta(days=6)
            else:
                year, month, day = _ymd(kind, m)
                at = dt.date(int(year), int(month), int(day))
                lo, hi = at - dt.timedelta(days=2), at + dt.timedelta(days=2)
        except ValueError:
            continue
        out.append((lo.isoformat(), hi.isoformat()))
    return tuple(out)


def _ymd(kind: str, m: re.Match[str]) -> tuple[str, str, str]:
    """Year, month and day of a day's match, as a daily log's name writes them."""
    if kind == "dmy":
        return m.group(3), f"{_month(m.group(2)):02d}", f"{int(m.group(1)):02d}"
    if kind == "mdy":
        return m.group(3), f"{_month(m.group(1)):02d}", f"{int(m.group(2)):02d}"
    return m.group(1), m.group(2), m.group(3)


def in_days(date: str | None, days: tuple[tuple[str, str], ...]) -> bool:
    """Whether an ISO ``date`` falls in one of :func:`query_days`' ranges (a month alone:
    that month or the first week of the next)."""
    if not date or not days:
        return False
    for lo, hi in days:
        if lo.startswith("*-"):
            month = int(lo[2:])
            m, d = int(date[5:7]), int(date[8:10])
            if m == month or (m == month % 12 + 1 and d <= 7):
                return True
        elif lo <= date[:10] <= hi:
            return True
    return False


def date_terms(query: str) -> list[str]:
    """The days a query names as the terms a daily note's date prefix is indexed under
    ("on 8 May, 2023": "2023", "05", "08"; "in July 2023": "2023", "07"; "in June": "06"), so
    that BM25 finds the notes of that day or month."""
    out: list[str] = []
    for kind, m in _dates(query):
        if kind == "m":
            out.append(f"{_month(m.group(1)):02d}")
        elif kind == "my":
            out += [m.group(2), f"{_month(m.group(1)):02d}"]
        elif kind != "iso":  # written as the prefix is: its terms are the query's own
            out += list(_ymd(kind, m))
    return out
