"""The sketch stored with a large index: written with its parts on one basis, used from a
process's first search, and a search answers as it does without it."""

from __future__ import annotations

import datetime as dt
import itertools
from pathlib import Path

import numpy as np
import pytest

from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval import index, index_matrix, index_store
from agent_sleep.retrieval.recall import Fusion, recall
from tests.test_recall_sketch import DOING, PEOPLE, WHEN  # the same made-up notes

QUERIES = ["who fixed the test that kept failing", "pets", "music lessons", "gardening"]
NARROW = Fusion(candidates=1, min_candidates=6)  # a shortlist of 24 of the units


def _fill(ws: Path) -> None:
    when = dt.datetime(2026, 3, 1, 9, 0)
    texts = [f"{p} {d} {w}." for p, d, w in itertools.product(PEOPLE, DOING, WHEN)]
    for i, text in enumerate(texts):
        micro_rest(text, "B", workspace=ws, when=when + dt.timedelta(days=i // 40), source=None)


def _fresh_process() -> None:
    index._loaded.clear()
    index_store._parsed.clear()


def _texts(ws: Path) -> list[list[str]]:
    return [[h.text for h in recall(ws, q, k=6, fusion=NARROW)] for q in QUERIES]


@pytest.fixture
def small_sketch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_matrix, "SKETCH_FROM", 50)
    monkeypatch.setattr(index_matrix, "SKETCH_DIM", 24)


def test_a_large_index_stores_its_sketch_and_uses_it_from_the_first_search(
    ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fill(ws)
    plain = _texts(ws)  # below SKETCH_FROM: every vector read
    w = Workspace.at(ws)
    assert not list(index.index_dir(w).glob("sketch-*"))
    monkeypatch.setattr(index_matrix, "SKETCH_FROM", 50)
    monkeypatch.setattr(index_matrix, "SKETCH_DIM", 24)
    index.update(w, full=True)
    loaded = index._read(w)
    assert loaded is not None and loaded.vectors is not None
    stored = index_store.read_sketch(loaded.folder, loaded.parts)
    assert stored is not None and len(stored[1]) == len(loaded.parts) == 2
    # the basis is the one a process would build in memory from the same vectors
    built = index_matrix.Vectors(loaded.vectors.parts)._build_sketch()
    np.testing.assert_allclose(np.abs(stored[0]), np.abs(built[0]), atol=1e-5)
    _fresh_process()
    first = [h.text for h in recall(ws, QUERIES[0], k=6, fusion=NARROW)]
    assert index._loaded[w.root].vectors._sketch is not None  # no full product first
    assert [first, *_texts(ws)[1:]] == plain


def test_a_new_note_projects_the_tail_on_the_main_parts_basis(ws: Path, small_sketch: None) -> None:
    _fill(ws)
    w = Workspace.at(ws)
    index.update(w)
    micro_rest("Dana adopted a second dog", "B", workspace=ws, when=dt.datetime(2026, 3, 9, 9))
    report = index.update(w)
    assert report.embedded == 1
    loaded = index._read(w)
    assert loaded is not None
    stored = index_store.read_sketch(loaded.folder, loaded.parts)
    assert stored is not None and sum(len(r) for r in stored[1]) == len(loaded.units)
    assert "Dana adopted a second dog" in [h.text for h in recall(ws, "Dana's dogs", k=3)][0]


def test_a_damaged_sketch_is_built_in_memory_instead(ws: Path, small_sketch: None) -> None:
    _fill(ws)
    w = Workspace.at(ws)
    index.update(w)
    answers = _texts(ws)
    for path in index.index_dir(w).glob("sketch-*.bin"):
        path.write_bytes(path.read_bytes()[:100])
    _fresh_process()
    loaded = index._read(w)
    assert loaded is not None and index_store.read_sketch(loaded.folder, loaded.parts) is None
    assert _texts(ws) == answers
