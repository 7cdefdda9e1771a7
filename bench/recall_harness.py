"""In-process evaluation of recall on LoCoMo, shared by bench_recall and its ablations.

A conversation's index, query vectors, query token pieces and every unit's token states are
computed once (token states persist in the workspace's ``.agent-sleep/tokens/``), so one
evaluation of a ``Fusion`` over all questions costs only the ranking and the packing; a sweep
of constants then runs in-process.

``rank`` and ``pack`` are the library's own (what ``recall`` runs after loading the index and
embedding the query), so a row computed here equals what ``recall`` returns.
"""

from __future__ import annotations

import datetime as dt
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval.index import Loaded, embedder, open_index, update
from agent_sleep.retrieval.recall import Fusion, Hit, pack, rank
from agent_sleep.retrieval.rerank import unit_tokens
from agent_sleep.retrieval.token_states import STATES
from bench import locomo

TODAY = dt.date(2026, 1, 1)  # recency decay is off by default: any date ranks alike
TOP = (5, 10)  # R@k over returned units
Features = dict[str, tuple[np.ndarray, np.ndarray]]  # conversation -> (features, labels)


class CachedModel:
    """The embedder with its per-query results remembered (a sweep asks the same queries)."""

    def __init__(self, model: Any) -> None:
        self._model = model
        self.name = model.name
        self.dim = model.dim
        self.fingerprint = model.fingerprint
        self._queries: dict[str, np.ndarray] = {}
        self._pieces: dict[str, Any] = {}

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        out: np.ndarray = self._model.embed_documents(texts)
        return out

    def embed_query(self, text: str) -> np.ndarray:
        if text not in self._queries:
            self._queries[text] = self._model.embed_query(text)
        return self._queries[text]

    def embed_tokens(self, texts: Sequence[str]) -> list[np.ndarray]:
        out: list[np.ndarray] = self._model.embed_tokens(texts)
        return out

    def query_tokens(self, text: str) -> Any:
        if text not in self._pieces:
            self._pieces[text] = self._model.query_tokens(text)
        return self._pieces[text]


@dataclass
class Conversation:
    sample_id: str
    ws: Workspace
    index: Loaded
    questions: list[locomo.Question]
    model: CachedModel | None
    vectors: list[np.ndarray | None] = field(default_factory=list)


def workspace_for(sample: dict, work: Path) -> Path:
    import json
    import shutil

    folder = work / sample["sample_id"]
    done = folder / ".agent-sleep" / "bench-imported.json"
    if not done.exists():
        if folder.exists():
            shutil.rmtree(folder)
        ids = locomo.import_conversation(sample, folder)
        done.write_text(json.dumps(ids))
    return folder


def prepare(samples: Iterable[dict], work: Path, *, states: bool = True) -> list[Conversation]:
    """Each conversation imported (once), indexed, its queries embedded and (``states``) the
    token states of every unit computed or read from the workspace."""
    STATES.memory_bytes = max(STATES.memory_bytes, 1 << 30)  # every unit of 5 conversations
    out = []
    for sample in samples:
        ws = Workspace.at(workspace_for(sample, work))
        update(ws)  # every unit embedded now (a search would leave a backlog to a background job)
        index = open_index(ws)
        raw = embedder(ws)
        model = CachedModel(raw) if raw is not None else None
        qs = locomo.questions(sample)
        conv = Conversation(sample["sample_id"], ws, index, qs, model)
        conv.vectors = [model.embed_query(q.question) if model else None for q in qs]
        if model is not None and states:
            rows = list(range(len(index.units)))
            for lo in range(0, len(rows), 512):
                unit_tokens(index, rows[lo : lo + 512], model)
        out.append(conv)
    return out


def hits_for(conv: Conversation, qi: int, budget: int, fusion: Fusion) -> list[Hit]:
    q = conv.questions[qi].question
    use_vectors = fusion.vector_weight > 0 and conv.model is not None
    vector = conv.vectors[qi] if use_vectors else None
    model = conv.model if use_vectors else None
    ranked = rank(conv.index, q, vector, fusion, None, budget, TODAY, model=model)
    return pack(conv.index, ranked, None, budget, fusion.duplicate, q)


def evidence_recall(hits: list[Hit], evidence: tuple[str, ...]) -> float:
    if not evidence:
        return 1.0
    found = {s for h in hits for s in h.sources}
    return sum(e in found for e in evidence) / len(evidence)


@dataclass
class Scores:
    """Per conversation, per (metric, category): one value per question."""

    values: dict[str, dict[tuple[str, int], list[float]]] = field(default_factory=dict)

    def add(self, conv: str, metric: str, category: int, value: float) -> None:
        self.values.setdefault(conv, {}).setdefault((metric, category), []).append(value)

    def mean(self, convs: Iterable[str], metric: str, categories: Iterable[int] = ()) -> float:
        cats = set(categories) or set(locomo.CATEGORIES)
        vals = [
            v
            for c in convs
            for (m, cat), vs in self.values.get(c, {}).items()
            if m == metric and cat in cats
            for v in vs
        ]
        return 100 * sum(vals) / max(len(vals), 1)


def evaluate(
    convs: list[Conversation], fusion: Fusion, budgets: Sequence[int], *, top: bool = False
) -> Scores:
    """Evidence recall of every question at each budget (metric ``"B<budget>"``); with
    ``top``, also R@5 / R@10 over the returned units of the largest budget and the share of
    questions with any gold turn in the first 5 (``"R@5"``, ``"R@10"``, ``"any@5"``)."""
    out = Scores()
    for conv in convs:
        for qi, q in enumerate(conv.questions):
            for budget in budgets:
                hits = hits_for(conv, qi, budget, fusion)
                out.add(conv.sample_id, f"B{budget}", q.category, evidence_recall(hits, q.evidence))
                if top and budget == max(budgets):
                    for k in TOP:
                        out.add(
                            conv.sample_id, f"R@{k}", q.category,
                            evidence_recall(hits[:k], q.evidence),
                        )  # fmt: skip
                    found = {s for h in hits[:5] for s in h.sources}
                    anyhit = 1.0 if not q.evidence else float(any(e in found for e in q.evidence))
                    out.add(conv.sample_id, "any@5", q.category, anyhit)
    return out


def objective(scores: Scores, convs: Iterable[str], budgets: Sequence[int]) -> float:
    """What a fold maximises on its training conversations: mean recall over the budgets."""
    names = list(convs)
    return statistics.fmean(scores.mean(names, f"B{b}") for b in budgets)


@dataclass(frozen=True)
class Fold:
    held_out: str
    chosen: str  # the grid entry chosen on the other conversations
    scores: dict[str, float]  # metric -> held-out value


def loco(
    grid: dict[str, Scores], names: list[str], budgets: Sequence[int], metrics: Sequence[str]
) -> list[Fold]:
    """Leave one conversation out: for each conversation, the grid entry that maximises the
    objective on the others, measured on it."""
    folds = []
    for held in names:
        train = [n for n in names if n != held]
        best = max(grid, key=lambda g: (objective(grid[g], train, budgets), g))
        folds.append(Fold(held, best, {m: grid[best].mean([held], m) for m in metrics}))
    return folds


def collect(convs: list[Conversation], fusion: Fusion, budgets: Sequence[int]) -> Features:
    """Per conversation, the learned rerank's features (``retrieval/learned.py``) of every
    candidate it re-scores, for every question at each budget, and their labels (the unit
    cites a gold turn of the question). The features are read as ``rank`` computes them."""
    import agent_sleep.retrieval.rerank as rr

    if fusion.learned is None:
        raise ValueError(
            "collect needs a fusion with learned weights (any: features do not use them)"
        )
    orig = rr.learned_features
    seen: list[tuple[list[int], np.ndarray]] = []

    def spy(index: Loaded, rows: list[int], *rest: Any) -> np.ndarray:
        x: np.ndarray = orig(index, rows, *rest)
        seen.append((rows, x))
        return x

    out = {}
    rr.learned_features = spy  # type: ignore[assignment]
    try:
        for conv in convs:
            xs, ys = [], []
            for qi, q in enumerate(conv.questions):
                gold = set(q.evidence)
                for budget in budgets:
                    seen.clear()
                    v = conv.vectors[qi]
                    rank(conv.index, q.question, v, fusion, None, budget, TODAY, model=conv.model)
                    for rows, x in seen:
                        xs.append(x)
                        ys.append(np.array([bool(gold & set(conv.index.sources[r])) for r in rows]))
            out[conv.sample_id] = (np.concatenate(xs), np.concatenate(ys).astype(np.float64))
    finally:
        rr.learned_features = orig  # type: ignore[assignment]
    return out


def fit(x: np.ndarray, y: np.ndarray, l2: float = 10.0) -> tuple[float, ...]:
    """Logistic regression by Newton's method on standardised features with an L2 penalty
    (bias unpenalised), returned on the raw scale: (bias, weight per feature)."""
    mu, sd = x.mean(0), x.std(0)
    sd[sd < 1e-9] = 1.0
    a = np.column_stack([np.ones(len(x)), (x - mu) / sd])
    w = np.zeros(a.shape[1])
    penalty = l2 * np.diag(np.r_[0.0, np.ones(a.shape[1] - 1)])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(a @ w, -50, 50)))
        grad = a.T @ (p - y) + penalty @ w
        hess = (a * (p * (1 - p))[:, None]).T @ a + penalty
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    raw = w[1:] / sd
    return (float(w[0] - (raw * mu).sum()), *(float(v) for v in raw))


def fold_weights(
    features: dict[str, tuple[np.ndarray, np.ndarray]],
) -> dict[str, tuple[float, ...]]:
    """For each conversation, the weights fitted on the others."""
    out = {}
    for held in features:
        others = [features[n] for n in features if n != held]
        out[held] = fit(
            np.concatenate([x for x, _ in others]), np.concatenate([y for _, y in others])
        )
    return out


def crossfit(
    convs: list[Conversation],
    fusion: Fusion,
    budgets: Sequence[int],
    weights: dict[str, tuple[float, ...]],
    *,
    top: bool = False,
) -> Scores:
    """``evaluate`` with each conversation ranked by weights fitted without it."""
    from dataclasses import replace

    out = Scores()
    for conv in convs:
        part = evaluate([conv], replace(fusion, learned=weights[conv.sample_id]), budgets, top=top)
        out.values[conv.sample_id] = part.values[conv.sample_id]
    return out
