"""Late-interaction rerank of deep recall's best candidates over MiniLM token states.

Each content word piece of the query takes its best cosine against a unit's token states (the
same model's last layer), and the unit's match is the IDF-weighted mean of those maxima. It
catches a unit that names an instance of what the query asks about ("swimming with the kids"
for "activities with her family"), which one pooled vector blurs. Token states come from the
``token_states`` cache, computed for the candidates that lack them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from agent_sleep.retrieval.bm25 import STOPWORDS, tokenize
from agent_sleep.retrieval.learned import Signals, rescore
from agent_sleep.retrieval.learned import features as learned_features
from agent_sleep.retrieval.token_states import STATES, folder_of, model_key, row_norms

if TYPE_CHECKING:
    import numpy as np

    from agent_sleep.retrieval.embed import Embedder
    from agent_sleep.retrieval.index import Loaded


def unit_tokens(index: Loaded, rows: list[int], model: Embedder) -> list[np.ndarray]:
    """The token states (int8 rows, each of its own scale: ``token_states``) of the units at
    ``rows``; a window's are its notes' states one after the other (no run of the model over
    the longer text)."""
    import numpy as np

    windows = index.windows
    if windows is None:
        return _states(index, rows, model)
    members = {r: index.shown(r) for r in rows if windows[r]}
    need = list(dict.fromkeys(x for r in rows for x in members.get(r, [r])))
    found = dict(zip(need, _states(index, need, model), strict=True))
    return [
        np.concatenate([found[x] for x in members[r]]) if r in members else found[r] for r in rows
    ]


def _states(index: Loaded, rows: list[int], model: Embedder) -> list[np.ndarray]:
    return STATES.get(
        folder_of(index.folder, model),
        model_key(model),
        [index.hashes[r] for r in rows],
        lambda at: [index.units[rows[i]].embedded for i in at],
        model.embed_tokens,
    )


def rerank(
    index: Loaded,
    query: str,
    model: Embedder,
    scores: dict[int, float],
    weight: float,
    depth: int,
    *,
    learned: tuple[float, ...] | None = None,
    signals: Signals | None = None,
    cost_weight: float = 0.0,
) -> dict[int, float]:
    """The best ``depth`` candidates re-scored on 0.5–1, the rest keeping their order below
    0.5. With ``learned`` weights (and the first pass's ``signals``), by the learned model of
    ``retrieval/learned.py`` (less the token cost at ``cost_weight``); without, by
    ``(1 - weight)`` of their first-pass score and ``weight`` of their late-interaction match,
    both min-max normalised."""
    import numpy as np

    q, w = _query_pieces(index, query, model)
    if q is None:
        return scores
    order = sorted(scores, key=lambda r: (-scores[r], r))
    top, rest = order[:depth], order[depth:]
    match = _match(q, w, unit_tokens(index, top, model))
    first = np.array([scores[r] for r in top])
    if learned is not None and signals is not None:
        x = learned_features(index, top, first, match, signals)
        out = rescore(index, top, x, learned, cost_weight)
    else:
        mixed = (1 - weight) * minmax(first) + weight * minmax(match)
        out = {r: 0.5 + 0.5 * float(m) for r, m in zip(top, mixed, strict=True)}
    if rest:
        high = max(scores[r] for r in rest)
        for r in rest:
            out[r] = 0.5 * 0.999 * scores[r] / high if high > 0 else 0.0
    return out


def _query_pieces(
    index: Loaded, query: str, model: Embedder
) -> tuple[np.ndarray | None, np.ndarray]:
    """The query's content word pieces (token vectors) and their IDF weights (summing to 1);
    every word piece when none is a content word; None when the query has no word."""
    import numpy as np

    q_vectors, owners, pieces = model.query_tokens(query)
    n = len(index.units)
    keep, weights = [], []
    for i, (owner, piece) in enumerate(zip(owners, pieces, strict=True)):
        bare = piece.removeprefix("##")
        if owner is None or piece in STOPWORDS or not any(ch.isalnum() for ch in bare):
            continue
        terms = tokenize(owner)
        df = index.bm25.df(terms[0]) if terms else 0
        keep.append(i)
        weights.append(math.log(1 + n / (1 + df)))
    if not keep:
        keep = [i for i, owner in enumerate(owners) if owner is not None]
        weights = [1.0] * len(keep)
    if not keep:
        return None, np.zeros(0, dtype=np.float32)
    w = np.asarray(weights, dtype=np.float32)
    return q_vectors[keep], w / w.sum()


def _match(q: np.ndarray, w: np.ndarray, tokens: list[np.ndarray]) -> np.ndarray:
    """Each unit's late-interaction match: per query piece its best cosine among the unit's
    token states, IDF-weighted (``w``). All units' states go through one matrix product."""
    import numpy as np

    if not tokens:
        return np.zeros(0)
    sizes = np.array([len(t) for t in tokens])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    every = np.concatenate(tokens).astype(np.float32)  # int8 rows, each of its own scale
    cosines = (every @ q.T) / row_norms(every)[:, None]
    best = np.maximum.reduceat(cosines, starts, axis=0)  # units × query pieces
    out: np.ndarray = (best @ w).astype(np.float64)
    return out


def minmax(values: np.ndarray) -> np.ndarray:
    lo, hi = float(values.min()), float(values.max())
    if hi - lo < 1e-9:
        return values * 0 + (1.0 if hi > 0 else 0.0)
    return (values - lo) / (hi - lo)
