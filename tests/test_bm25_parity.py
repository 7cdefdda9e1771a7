"""Our BM25 scores are Okapi BM25 (k1=1.2, b=0.75, idf ln(1 + (N-df+0.5)/(df+0.5))), checked
against the formula written out here, on the terms a real workspace's index stores."""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval import index
from agent_sleep.retrieval.bm25 import BM25, K1, B, tokenize

NOTES = [
    (1, "Maya adopted a rescue greyhound called Pepper"),
    (1, "Pepper the greyhound hates thunderstorms and hides under the desk"),
    (1, "Jonas is training for the Lisbon half marathon in October"),
    (1, "Yes, it is."),
    (2, "Maya started pottery classes on Thursdays at the community studio"),
    (2, "Jonas ran 18 km on Sunday; marathon training is going well, training every morning"),
    (2, "The community studio fires the kiln twice a month"),
    (3, "Maya's pottery teacher suggested glazing the bowls blue"),
]
QUERIES = [
    "Maya greyhound",
    "when is the marathon in Lisbon",
    "training training training",  # a repeated query term counts once
    "pottery studio kiln glazing",
    "unknown zebra words",
    "2026",  # in every unit's indexed text (its date)
]


def reference(docs: list[list[str]], query: list[str]) -> list[float]:
    n = len(docs)
    avgdl = sum(len(d) for d in docs) / n
    df: Counter[str] = Counter()
    for d in docs:
        df.update(set(d))
    out = []
    for d in docs:
        tf = Counter(d)
        score = 0.0
        for term in set(query):
            if tf[term]:
                idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
                norm = K1 * (1 - B + B * len(d) / avgdl)
                score += idf * tf[term] * (K1 + 1) / (tf[term] + norm)
        out.append(score)
    return out


@pytest.fixture
def corpus(ws: Path) -> tuple[Workspace, list[list[str]]]:
    for day, text in NOTES:
        micro_rest(text, "B", workspace=ws, when=dt.datetime(2026, 4, day, 10, 0))
    workspace = Workspace.at(ws)
    loaded = index.open_index(workspace, vectors=False)
    docs = [t.split() for t in loaded.tokens]
    assert len(docs) == len(NOTES) and all(docs)
    return workspace, docs


@pytest.mark.parametrize("query", QUERIES)
def test_index_scores_equal_the_okapi_formula(
    corpus: tuple[Workspace, list[list[str]]], query: str
) -> None:
    workspace, docs = corpus
    expected = reference(docs, tokenize(query))
    persisted = index.open_index(workspace, vectors=False).bm25.scores(tokenize(query))
    np.testing.assert_allclose(persisted, expected, rtol=1e-5, atol=1e-6)
    fresh = BM25.build(docs).scores(tokenize(query))
    np.testing.assert_allclose(fresh, expected, rtol=1e-5, atol=1e-6)


def test_empty_documents_and_a_term_in_every_document() -> None:
    docs = [tokenize(t) for t in ("cats purr cats", "Yes, it is.", "cats sleep", "dogs bark")]
    assert docs[1] == []
    index_ = BM25.build(docs)
    for query in (["cat"], ["cat", "sleep"], ["dog", "bark", "purr"]):
        np.testing.assert_allclose(
            index_.scores(query), reference(docs, query), rtol=1e-5, atol=1e-6
        )
    everywhere = BM25.build([["x", "a"], ["x"], ["x", "b", "b"]]).scores(["x"])
    assert (everywhere > 0).all()  # this idf never goes negative or to zero


def test_bm25s_lucene_ranks_as_ours(corpus: tuple[Workspace, list[list[str]]]) -> None:
    """Lucene's BM25 (bm25s ``method="lucene"``) is ours divided by k1 + 1, as
    references/recall.md states for the backend comparison."""
    bm25s = pytest.importorskip("bm25s")
    _, docs = corpus
    vocab: dict[str, int] = {}
    ids = [[vocab.setdefault(t, len(vocab)) for t in d] for d in docs]
    other = bm25s.BM25(k1=K1, b=B, method="lucene")
    other.index((ids, vocab), show_progress=False)
    ours = BM25.build(docs)
    for query in QUERIES:
        terms = list(dict.fromkeys(tokenize(query)))
        theirs = other.get_scores_from_ids(other.get_tokens_ids(terms))
        np.testing.assert_allclose(ours.scores(terms), theirs * (K1 + 1), rtol=1e-5, atol=1e-6)
