"""The learned second stage of deep recall: a logistic model over eleven signals of each of the
best candidates, then, when a token budget limits the answer, a cost in tokens.

The hand-set mix it replaces (``rerank``: first-pass and late-interaction scores, min-max
normalised, mixed at ``rerank_weight``) weighs two signals; this one weighs every signal recall
already has for a candidate, plus three of the unit itself: its length, whether it is a
question (a question in a log carries less than its answer), and how its neighbours in the same
log scored (a turn is often answered by the next). Its output estimates the log-odds that the
unit is evidence for the query.

Under a budget, each candidate is ranked by that estimate minus ``cost_weight × ln(tokens)``:
packing is a knapsack, and a long unit that is as likely as two short ones costs the room of
both. ``cost_weight`` 1 would rank by expected evidence per token; leave-one-conversation-out on
the LoCoMo dev split chose 1.5 among 1, 1.5 and 2 in every fold (see references/recall.md).

``WEIGHTS`` are fitted by ``bench/fit_rerank.py`` (logistic regression, L2, on the candidates of
every dev question at budgets of 1,000 and 4,000 tokens, labelled by the gold evidence); that
script prints them, and each fold's held-out recall with weights fitted on the other four
conversations. They are on the raw feature scale: ``score = bias + Σ weight × feature``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agent_sleep.retrieval.bm25 import words

if TYPE_CHECKING:
    import numpy as np

    from agent_sleep.retrieval.index import Loaded

FEATURES = (
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

# bench/fit_rerank.py on the five LoCoMo dev conversations (bias first, then FEATURES' order)
WEIGHTS: tuple[float, ...] = (
    -15.5238, 0.4758, 4.7024, 1.9296, 2.1633, 0.9476, 2.9435,
    0.8159, -0.8538, -1.6337, 0.6156, 0.8000,
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
    day: dict[str, float] = {}
    for r, s in sig.fused.items():
        p = index.path_of(r)
        day[p] = max(day.get(p, -1.0), s)
    n = len(index.units)
    out = np.zeros((len(rows), len(FEATURES)))
    out[:, 0] = minmax(np.asarray(first, dtype=np.float64))
    out[:, 1] = minmax(np.asarray(match, dtype=np.float64))
    for i, r in enumerate(rows):
        text = index.units[r].text
        path = index.path_of(r)
        near = [
            sig.fused.get(x, 0.0) for x in (r - 1, r + 1) if 0 <= x < n and index.path_of(x) == path
        ]
        have = sig.content & set(words(text)) if sig.content else frozenset()
        out[i, 2:] = (
            float(sig.text[r]) / best_text,
            (float(sig.cos[r]) - lo) / spread,
            float(r in sig.named),
            day.get(path, 0.0),
            math.log(1 + count_tokens(text)),
            float(text.rstrip().endswith("?")),
            float(sig.cos[r]),
            max(near, default=0.0),
            len(have) / max(len(sig.content), 1),
        )
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
