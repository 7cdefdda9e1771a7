"""``signals.top``: the rows of the best scores, as a full partition picks them, found by
partitioning only the scores over a sampled threshold when there are many."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agent_sleep.retrieval import signals
from agent_sleep.retrieval.signals import top


def _values(scores: np.ndarray, rows: np.ndarray) -> list[float]:
    return sorted(scores[rows].tolist())


def _scores(kind: str, rng: np.random.Generator, n: int) -> np.ndarray:
    if kind == "normal":
        out = rng.standard_normal(n)
    elif kind == "few levels":
        out = rng.integers(0, 6, n).astype(float)
    elif kind == "mostly unseen":  # a sketch's cosines: UNSEEN past its shortlist
        out = np.where(rng.random(n) < 0.004, rng.random(n), -2.0)
    elif kind == "sorted":
        out = np.sort(rng.random(n))
    else:
        out = np.zeros(n)
    return out.astype(np.float32)


@pytest.mark.parametrize("kind", ["normal", "few levels", "mostly unseen", "sorted", "constant"])
def test_top_picks_the_best_scores(kind: str) -> None:
    rng = np.random.default_rng(len(kind))
    for _ in range(40):
        n = int(rng.integers(signals.TOP_SAMPLED, 120_000))
        count = int(rng.integers(1, 1_500))
        scores = _scores(kind, rng, n)
        rows = top(scores, count)
        assert len(rows) == count == len(set(rows.tolist()))
        assert _values(scores, rows) == _values(scores, np.argpartition(-scores, count - 1)[:count])


def test_a_tie_at_the_cut_is_left_to_a_full_partition(monkeypatch: Any) -> None:
    scores = np.zeros(50_000, dtype=np.float32)
    scores[::1000] = 1.0  # 50 rows tied for first place, every one in the sample
    calls: list[int] = []
    real = np.argpartition

    def counted(a: np.ndarray, kth: int) -> np.ndarray:
        calls.append(len(a))
        return real(a, kth)

    monkeypatch.setattr(np, "argpartition", counted)
    rows = top(scores, 20)  # 20 of the 50 tied: which ones is the full partition's choice
    assert calls == [50, 50_000]
    assert rows.tolist() == real(-scores, 19)[:20].tolist()
    calls.clear()
    assert sorted(top(scores, 50).tolist()) == list(range(0, 50_000, 1000))
    assert calls == [50]  # no tie at the cut: only the 50 over the threshold were partitioned


def test_small_arrays_and_counts_past_the_end() -> None:
    scores = np.array([0.3, 0.9, 0.1], dtype=np.float32)
    assert sorted(top(scores, 5).tolist()) == [0, 1, 2]
    assert top(scores, 1).tolist() == [1]
