"""BM25 tokenization and scoring."""

from __future__ import annotations

from agent_sleep.retrieval.bm25 import BM25, stem, tokenize


def test_tokenize_drops_stopwords_and_merges_inflections() -> None:
    assert tokenize("When did Caroline go painting?") == ["carolin", "go", "paint"]
    assert {stem(w) for w in ("painted", "paints", "painting")} == {"paint"}
    assert stem("running") == "run" and stem("stories") == "story"
    assert tokenize("Redis 6379 v2") == ["redis", "6379", "v2"]


def test_scores_rank_the_matching_document_first() -> None:
    docs = [tokenize(t) for t in ("the cat sat", "dogs bark loudly", "a cat and a dog")]
    index = BM25.build(docs)
    scores = index.scores(tokenize("barking dog"))
    assert scores.argmax() == 1
    assert scores[0] == 0
    assert index.scores(["unknown"]).sum() == 0


def test_arrays_round_trip() -> None:
    index = BM25.build([tokenize("alpha beta"), tokenize("beta gamma gamma")])
    again = BM25.from_arrays(index.terms(), index.arrays(), index.count)
    assert (again.scores(["gamma"]) == index.scores(["gamma"])).all()
