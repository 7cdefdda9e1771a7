"""The sketch that lets a shallow search of a large index skip most of its vectors."""

from __future__ import annotations

import datetime as dt
import itertools
from pathlib import Path

import numpy as np
import pytest

from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval import index_matrix
from agent_sleep.retrieval.index import embedder
from agent_sleep.retrieval.index_matrix import UNSEEN, Vectors
from agent_sleep.retrieval.recall import Fusion, recall

PEOPLE = ["Alice", "Bilal", "Chen", "Dana", "Emeka", "Farah"]
DOING = [
    "moved the search index to a new cluster",
    "fixed the flaky login test",
    "baked sourdough bread with rye flour",
    "booked flights to Lisbon for the conference",
    "rotated the database passwords",
    "adopted a rescue dog called Pepper",
    "started learning the cello",
    "replaced the office printer toner",
    "wrote the quarterly budget report",
    "planted tomatoes in the garden",
]
WHEN = ["on Monday", "last night", "this morning", "before the release", "after lunch"]
QUERIES = [
    "who fixed the test that kept failing",
    "pets",
    "travel plans for the conference",
    "music lessons",
    "what happened to the passwords",
    "gardening",
    "bread baking",
    "printer",
]


def _texts() -> list[str]:
    return [f"{p} {d} {w}." for p, d, w in itertools.product(PEOPLE, DOING, WHEN)]


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> tuple[np.ndarray, list[np.ndarray]]:
    model = embedder(Workspace.at(tmp_path_factory.mktemp("model")))
    assert model is not None
    docs = model.embed_documents(_texts())
    return np.asfortranarray(docs, dtype=np.float32), [model.embed_query(q) for q in QUERIES]


def _parts(docs: np.ndarray, cut: int) -> Vectors:
    return Vectors([np.asfortranarray(docs[:cut]), np.asfortranarray(docs[cut:])])


def test_the_first_product_of_a_process_reads_every_vector(
    embedded: tuple[np.ndarray, list[np.ndarray]], monkeypatch: pytest.MonkeyPatch
) -> None:
    docs, queries = embedded
    monkeypatch.setattr(index_matrix, "SKETCH_FROM", 0)
    vectors = _parts(docs, 100)
    first = vectors.cosines(queries[0], 20, np.array([], dtype=np.int64))
    assert np.allclose(first, docs @ queries[0], atol=1e-6)  # no sketch built for one search
    assert vectors._sketch is None


def test_the_sketch_keeps_the_best_rows_exact_and_the_named_ones(
    embedded: tuple[np.ndarray, list[np.ndarray]], monkeypatch: pytest.MonkeyPatch
) -> None:
    docs, queries = embedded
    monkeypatch.setattr(index_matrix, "SKETCH_FROM", 0)
    monkeypatch.setattr(index_matrix, "SKETCH_DIM", 24)  # a small index: fewer directions
    vectors = _parts(docs, 123)
    vectors.cosines(queries[0], 20, np.array([], dtype=np.int64))
    named = np.array([0, 5, 122, 123, 299])
    for q in queries:
        got = vectors.cosines(q, 4 * 5, named)
        exact = docs @ q
        assert vectors._sketch is not None
        seen = got != UNSEEN
        assert np.allclose(got[seen], exact[seen], atol=1e-5)  # exact wherever it is computed
        assert seen[named].all()
        assert seen.sum() <= 20 + len(named)
        best = set(np.argsort(-exact)[:5].tolist())
        assert best <= set(np.flatnonzero(seen).tolist())  # the exact best five are all there


def test_rows_gathered_across_parts(embedded: tuple[np.ndarray, list[np.ndarray]]) -> None:
    docs, queries = embedded
    vectors = _parts(docs, 77)
    rows = np.array([0, 1, 76, 77, 78, len(docs) - 1])
    assert np.allclose(vectors[rows] @ queries[1], docs[rows] @ queries[1], atol=1e-6)
    unsorted = rows[::-1].copy()
    assert np.allclose(vectors[unsorted] @ queries[1], docs[unsorted] @ queries[1], atol=1e-6)


def test_a_search_answers_alike_with_and_without_the_sketch(
    ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    when = dt.datetime(2026, 3, 1, 9, 0)
    for i, text in enumerate(_texts()):
        micro_rest(text, "B", workspace=ws, when=when + dt.timedelta(days=i // 60), source=None)
    narrow = Fusion(candidates=1, min_candidates=6)  # a shortlist of 24 of the 300 units
    plain = [recall(ws, q, k=6, fusion=narrow) for q in QUERIES]
    monkeypatch.setattr(index_matrix, "SKETCH_FROM", 0)
    monkeypatch.setattr(index_matrix, "SKETCH_DIM", 24)
    from agent_sleep.retrieval import index as index_mod

    index_mod._loaded.clear()  # a fresh index object: its first product is a full one
    sketched = [recall(ws, q, k=6, fusion=narrow) for q in QUERIES + QUERIES]
    assert index_mod._loaded[Workspace.at(ws).root].vectors._sketch is not None
    for a, b in zip(plain + plain, sketched, strict=True):
        assert [h.text for h in a] == [h.text for h in b]
        # a gathered row's product sums in another order than the full one: the last digit
        assert [h.score for h in a] == pytest.approx([h.score for h in b], abs=1e-5)


def test_with_windows_too_bm25s_candidates_get_their_exact_cosine(
    ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows (three notes in one unit) outscore their notes by BM25 but serve deep requests
    only; a shallow search's BM25 candidates are chosen without them, and those are the rows
    whose cosine the sketch must compute exactly, or they would rank as if unrelated."""
    from agent_sleep.retrieval import index as index_mod
    from agent_sleep.retrieval import units

    monkeypatch.setattr(units, "WINDOW_NOTES", 3)
    when = dt.datetime(2026, 3, 1, 9, 0)
    for i, text in enumerate(_texts()):
        micro_rest(text, "B", workspace=ws, when=when + dt.timedelta(days=i // 60), source=None)
    narrow = Fusion(candidates=1, min_candidates=6)
    plain = [recall(ws, q, k=6, fusion=narrow) for q in QUERIES]
    assert index_mod._loaded[Workspace.at(ws).root].windows is not None
    monkeypatch.setattr(index_matrix, "SKETCH_FROM", 0)
    monkeypatch.setattr(index_matrix, "SKETCH_DIM", 24)
    index_mod._loaded.clear()
    sketched = [recall(ws, q, k=6, fusion=narrow) for q in QUERIES + QUERIES]
    for a, b in zip(plain + plain, sketched, strict=True):
        assert all(h.kind != units.WINDOW for h in b)
        assert [h.text for h in a] == [h.text for h in b]
        assert [h.score for h in a] == pytest.approx([h.score for h in b], abs=1e-5)
