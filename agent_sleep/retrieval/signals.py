"""The signals recall combines beside BM25 and cosine: fusion by reciprocal rank, the session
prior, pseudo-relevance feedback terms, names in the query, spread across days.

Each takes the index and a candidate → score map (or arrays) and returns new scores; every
constant comes from ``recall.Fusion``.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

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


def top(scores: np.ndarray, count: int) -> np.ndarray:
    import numpy as np

    if count >= len(scores):
        return np.arange(len(scores))
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
