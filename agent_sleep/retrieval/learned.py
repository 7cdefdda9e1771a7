"""The learned second stage of deep recall: a logistic model over 40 features of each of the
best candidates, then, when a token budget limits the answer, a cost in tokens.

The hand-set mix it replaces (``rerank``: first-pass and late-interaction scores, min-max
normalised, mixed at ``rerank_weight``) weighs two signals; this one weighs every signal recall
already has for a candidate, plus three of the unit itself: its length, whether it is a
question (a question in a log carries less than its answer), and how its neighbours in the same
log scored (a turn is often answered by the next). Those are ``BASE``. ``FEATURES`` adds, from
the same signals: the candidate's rank (log) by BM25, cosine, first-pass score and match; its
neighbours' cosine, BM25, match, names and coverage (not only their fused score); how it
relates to the best first-pass units (a shared content word, the cosine of their vectors: meant
for multi-hop questions, whose evidence may resemble other evidence more than the question);
how many candidates its file holds; whether its speaker prefix is named by the query; whether
its day falls in a day or month the query names ("on 3 June, 2023", "in July"); whether the
note just before or just after it in its log is a question (a turn that answers a question, or
that draws one, tends to carry what is later asked about); and each
``BASE`` feature times ln(re-scored units), so a small and a large request can weigh the
signals apart. Its output estimates the log-odds that the unit is evidence for the query.

Under a budget, each candidate is ranked by that estimate minus ``cost_weight × ln(tokens)``:
packing is a knapsack, and a long unit that is as likely as two short ones costs the room of
both. ``cost_weight`` 1 ranks by expected evidence per token; leave-one-conversation-out on the
LoCoMo dev split chose it among 1, 1.5 and 2 in every fold with these features (with the eleven
of ``BASE`` alone it chose 1.5; see references/recall.md).

``WEIGHTS`` are fitted by ``bench/fit_rerank.py`` (logistic regression, L2, on the candidates of
every dev question at budgets of 1,000 and 4,000 tokens, labelled by the gold evidence); that
script prints them, and each fold's held-out recall with weights fitted on the other four
conversations. They are on the raw feature scale: ``score = bias + Σ weight × feature``.
Leave-one-conversation-out, the 40 features reach 89.6% / 96.7% of the evidence within 1,000 /
4,000 tokens with a block of at least 400 re-scored units (``Fusion.rerank_floor``); the 38
without the two question neighbours 89.2% / 96.4%; those 38 reached 88.8% /
96.4% with 4 × the hits wanted alone (132 within 1,000 tokens); 88.5% / 96.3% before the
query's days were searched as date terms (``signals.date_terms``) and read as a feature,
``BASE`` alone 87.2% / 95.9% (the same fit, the same folds).
The features cost about twice the time of ``BASE`` (a throwaway timing on one conversation:
13 ms against 5 ms for 132 re-scored units, 31 against 16 ms for 419).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agent_sleep.retrieval.bm25 import STOPWORDS, words
from agent_sleep.retrieval.signals import in_days

if TYPE_CHECKING:
    import numpy as np

    from agent_sleep.retrieval.index import Loaded

BASE = (
    "first",  # the first-pass score (fusion, names, sessions), min-max over the re-scored
    "match",  # the late-interaction match, min-max over the re-scored
    "bm25",  # BM25 (with feedback terms) over the best BM25 score among candidates
    "cosine",  # cosine, min-max over the candidates
    "named",  # 1 when the unit names a capitalised word of the query
    "day",  # the best fused score in the unit's file
    "length",  # ln(1 + tokens)
    "question",  # 1 when the unit ends with a question mark
    "cosine_raw",  # the cosine itself
    "neighbour",  # the best fused score of the notes just before and after it in its file
    "coverage",  # the share of the query's content words the unit contains
)
FEATURES = (
    *BASE,
    "rank_bm25",  # ln(1 + its rank by BM25 among the candidates), 0 for the best
    "rank_cos",  # ln(1 + its rank by cosine among the candidates)
    "rank_first",  # ln(1 + its rank by first-pass score among the re-scored)
    "rank_match",  # ln(1 + its rank by late-interaction match among the re-scored)
    "near_cos",  # the best cosine of its neighbours (as in "neighbour")
    "near_bm25",  # the best BM25 of its neighbours, over the best among candidates
    "near_match",  # the best "match" of its neighbours that are re-scored (0 if none is)
    "shares_top",  # 1 when it shares a content word with the best first-pass unit (or is it)
    "day_count",  # ln(1 + candidates in its file)
    "speaker",  # 1 when a "Name: " prefix of the unit is all content words of the query
    "cos_top1",  # cosine of its vector to the best first-pass unit's (the second for that one)
    "cos_top3",  # its best cosine to the three best first-pass units other than itself
    "match_raw",  # the late-interaction match itself
    "near_named",  # 1 when a neighbour names a capitalised word of the query
    "near_coverage",  # the best "coverage" of its neighbours
    "dated",  # 1 when the unit's day falls in a day or month the query names
    "after_question",  # 1 when the note just before it in its log ends with a question mark
    "before_question",  # 1 when the note just after it in its log ends with a question mark
    *(f"{b}*depth" for b in BASE),  # each of BASE times ln(number of re-scored units)
)

# bench/fit_rerank.py on the five LoCoMo dev conversations (bias first, then FEATURES' order)
WEIGHTS: tuple[float, ...] = (
    -9.9448, 0.5505, 2.0237, 0.9102, 0.4323, -0.1795, 1.2336, 0.3005,
    -0.2232, -1.5649, 0.0991, -0.9519, -0.1945, 0.0183, -0.3208, -0.1022,
    0.6410, 0.6777, 0.5372, 0.3357, -0.2818, 1.4354, 0.4130, -1.3606,
    3.4701, -0.0938, 0.2577, 0.9279, 0.4352, 0.1120, 0.0371, 0.2108,
    -0.1825, 0.0875, -0.0038, 0.1004, 0.0584, -0.0664, -0.1823, -0.0660,
    -0.0226,
)  # fmt: skip


@dataclass(frozen=True)
class Signals:
    """What the first pass computed for every unit or candidate, as ``rank`` holds it."""

    text: np.ndarray  # BM25 of every unit (feedback terms included)
    cos: np.ndarray  # cosine of every unit
    cand: np.ndarray  # the candidate rows
    fused: dict[int, float]  # candidate -> fused score (before names and sessions)
    named: frozenset[int]  # candidates the names signal raised
    content: frozenset[str]  # the query's content words
    days: tuple[tuple[str, str], ...] = ()  # the days the query names (signals.query_days)


_COLUMN = {name: i for i, name in enumerate(FEATURES)}


def _speaker(text: str, content: frozenset[str]) -> float:
    """1 when one of the (up to two) leading ``Name: `` prefixes of ``text`` is made only of
    the query's content words ("B: Caroline: ..." for a query naming Caroline)."""
    return float(any(all(w in content for w in ws) for ws in _prefixes(text)))


@functools.lru_cache(maxsize=4096)
def _prefixes(text: str) -> tuple[tuple[str, ...], ...]:
    """The words of each of the (up to two) leading ``Name: `` prefixes ``_speaker`` reads
    (cached: a deep request re-scores hundreds of units, most of them seen by the last one)."""
    out = []
    for seg in text.split(": ")[:2]:
        ws = words(seg)
        if len(seg) > 40 or not ws:
            break
        if len(seg) > 1:
            out.append(tuple(ws))
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def _bag(text: str) -> frozenset[str]:
    """A unit's words as a set (cached, as ``_prefixes``)."""
    return frozenset(words(text))


def _asks(text: str) -> bool:
    """Whether a unit ends with a question mark (a question in a log carries less than its
    answer, and a turn right before or after one is often what it asks or answers about)."""
    return text.rstrip().endswith("?")


def _positions(values: np.ndarray) -> np.ndarray:
    """Each value's rank, best (highest) 0, ties in order."""
    import numpy as np

    out = np.empty(len(values))
    out[np.argsort(-values, kind="stable")] = np.arange(len(values))
    return out


def features(
    index: Loaded, rows: list[int], first: np.ndarray, match: np.ndarray, sig: Signals
) -> np.ndarray:
    """One row of ``FEATURES`` per unit of ``rows`` (with their first-pass scores and
    late-interaction matches, in the same order)."""
    import numpy as np

    from agent_sleep.retrieval.recall import count_tokens
    from agent_sleep.retrieval.rerank import minmax

    cand = sig.cand
    best_text = max(float(sig.text[cand].max()), 1e-9) if len(cand) else 1.0
    lo = float(sig.cos[cand].min()) if len(cand) else 0.0
    spread = max(float(sig.cos[cand].max()) - lo, 1e-9) if len(cand) else 1.0
    paths: dict[int, str] = {}

    def path_of(r: int) -> str:
        if r not in paths:
            paths[r] = index.path_of(r)
        return paths[r]

    bags: dict[int, frozenset[str]] = {}

    def bag(r: int) -> frozenset[str]:
        if r not in bags:
            bags[r] = _bag(index.units[r].text)
        return bags[r]

    day: dict[str, float] = {}
    count: dict[str, int] = {}
    for r, s in sig.fused.items():
        p = path_of(r)
        day[p] = max(day.get(p, -1.0), s)
    for r in cand.tolist():
        p = path_of(r)
        count[p] = count.get(p, 0) + 1
    first = np.asarray(first, dtype=np.float64)
    match = np.asarray(match, dtype=np.float64)
    out = np.zeros((len(rows), len(FEATURES)))
    if not rows:
        return out
    matched = minmax(match)
    out[:, 0] = minmax(first)
    out[:, 1] = matched
    rank_first, rank_match = _positions(first), _positions(match)
    lead = [rows[i] for i in np.argsort(-first, kind="stable")[:3]]
    lead_words = {w for w in bag(lead[0]) if w not in STOPWORDS and len(w) > 2}
    if index.vectors is not None:
        sim = (
            np.asarray(index.vectors[np.asarray(rows)], dtype=np.float64)
            @ np.asarray(index.vectors[np.asarray(lead)], dtype=np.float64).T
        )
    else:
        sim = np.zeros((len(rows), len(lead)))
    n = len(index.units)
    nb = len(BASE)
    here = np.asarray(rows)
    sides = [
        np.array([r + d if 0 <= r + d < n and path_of(r + d) == path_of(r) else -1 for r in rows])
        for d in (-1, 1)
    ]

    def near_best(values: np.ndarray) -> np.ndarray:
        """Per row, the best of ``values`` (over every unit) at its neighbours, 0 if none."""
        got = [
            np.where(x >= 0, np.asarray(values[np.maximum(x, 0)], dtype=np.float64), -np.inf)
            for x in sides
        ]
        best = np.maximum(*got)
        return np.where(np.isfinite(best), best, 0.0)

    re_scored = np.full(n, -np.inf)
    re_scored[here] = matched
    by_text = np.full(n, float(len(cand)))
    by_text[cand] = _positions(sig.text[cand])
    by_cos = np.full(n, float(len(cand)))
    by_cos[cand] = _positions(sig.cos[cand])
    is_lead = here[:, None] == np.asarray(lead)[None, :]
    top3 = np.where(is_lead, -np.inf, sim).max(1, initial=-np.inf)
    first_other = np.where(is_lead[:, 0], 1, 0)
    top1 = np.where(
        first_other < sim.shape[1],
        sim[np.arange(len(rows)), np.minimum(first_other, len(lead) - 1)],
        0.0,
    )
    at_col = _COLUMN
    for i, r in enumerate(rows):
        text = index.units[r].text
        path = path_of(r)
        near = [int(x[i]) for x in sides if x[i] >= 0]
        have = sig.content & bag(r) if sig.content else frozenset()
        cover = [len(sig.content & bag(x)) / len(sig.content) for x in near if sig.content]
        out[i, 2:nb] = (
            float(sig.text[r]) / best_text,
            (float(sig.cos[r]) - lo) / spread,
            float(r in sig.named),
            day.get(path, 0.0),
            math.log(1 + count_tokens(text)),
            float(_asks(text)),
            float(sig.cos[r]),
            max((sig.fused.get(x, 0.0) for x in near), default=0.0),
            len(have) / max(len(sig.content), 1),
        )
        out[i, at_col["shares_top"]] = 1.0 if r == lead[0] else float(bool(lead_words & bag(r)))
        out[i, at_col["day_count"]] = math.log(1 + count.get(path, 0))
        out[i, at_col["speaker"]] = _speaker(text, sig.content)
        out[i, at_col["near_named"]] = float(any(x in sig.named for x in near))
        out[i, at_col["near_coverage"]] = max(cover, default=0.0)
        out[i, at_col["dated"]] = float(in_days(index.units[r].date, sig.days))
    # a re-scored neighbour's "question" is known; the others are read once each
    asks = dict(zip(rows, out[:, at_col["question"]].astype(bool).tolist(), strict=True))
    for x in {*sides[0].tolist(), *sides[1].tolist()} - {-1} - asks.keys():
        asks[x] = _asks(index.units[x].text)
    out[:, at_col["after_question"]] = [asks.get(x, False) for x in sides[0].tolist()]
    out[:, at_col["before_question"]] = [asks.get(x, False) for x in sides[1].tolist()]
    out[:, at_col["rank_bm25"]] = np.log1p(by_text[here])
    out[:, at_col["rank_cos"]] = np.log1p(by_cos[here])
    out[:, at_col["rank_first"]] = np.log1p(rank_first)
    out[:, at_col["rank_match"]] = np.log1p(rank_match)
    out[:, at_col["near_cos"]] = near_best(sig.cos)
    out[:, at_col["near_bm25"]] = near_best(sig.text) / best_text
    out[:, at_col["near_match"]] = near_best(re_scored)
    out[:, at_col["cos_top1"]] = top1
    out[:, at_col["cos_top3"]] = np.where(np.isfinite(top3), top3, 0.0)
    out[:, at_col["match_raw"]] = match
    out[:, -nb:] = out[:, :nb] * math.log(len(rows))
    return out


def score(x: np.ndarray, weights: tuple[float, ...]) -> np.ndarray:
    """The estimated log-odds of each row of features being evidence."""
    import numpy as np

    w = np.asarray(weights, dtype=np.float64)
    out: np.ndarray = w[0] + x @ w[1:]
    return out


def rescore(
    index: Loaded,
    rows: list[int],
    x: np.ndarray,
    weights: tuple[float, ...],
    cost_weight: float,
) -> dict[int, float]:
    """``rows`` scored on 0.5–1 by the learned model, less ``cost_weight × ln(tokens)`` when
    a budget limits the answer (``cost_weight`` > 0); the order is what packing follows."""
    import numpy as np

    from agent_sleep.retrieval.recall import count_tokens
    from agent_sleep.retrieval.rerank import minmax

    s = score(x, weights)
    if cost_weight > 0:
        cost = np.array([max(count_tokens(index.units[r].text), 1) for r in rows], dtype=float)
        s = s - cost_weight * np.log(cost)
    # min-max, not a sigmoid: log-odds far below 0 would all round to one score
    return {r: 0.5 + 0.5 * float(v) for r, v in zip(rows, minmax(s), strict=True)}
