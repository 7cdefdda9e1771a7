"""Recall ablations on LoCoMo: ranking ideas measured against recall's first pass.

Each variant changes one thing in how units are scored, then packs into the same budgets and
scores evidence recall exactly as ``bench_recall.py`` does (same workspaces, same questions).
The first row re-derives the first pass (fusion and sessions, the whole ranking of a shallow
request) from its parts. The three "deep" rows run the shipped ``recall.rank``: "deep" is what
a budget of 1000 or 4000 tokens gets (feedback and the late-interaction rerank; it must print
the same figures as ``bench_recall.py``'s hybrid row), "deep -feedback" and "deep -rerank" leave
one step out. Every other row is one idea added to the first pass:

- neighbours: a log note also takes 0.2 × the better fused score of the notes just before and
  after it in the same log,
- sentences: the cosine becomes 0.5 × the note's + 0.5 × the best of its own sentences' (notes of
  two sentences or more, each sentence embedded on its own),
- own-words: BM25 counts a note's own words twice and its context (date, previous note) once,
- rm3: pseudo-relevance feedback: the 10 best-fused units' 10 most weighted terms are added to
  the BM25 query at weight 0.3 (a re-derivation of the shipped feedback step, on its own),
- prev-vector: the cosine becomes 0.7 × the note's + 0.3 × that of the note read with the note
  before it,
- length prior: fused scores multiplied by (tokens of the unit) ** 0.1,
- word-expansion: each content word of the question (embedded alone) adds the 5 words of the
  conversation's vocabulary closest to it (cosine >= 0.5, each word embedded alone) to the BM25
  query at weight 0.3 × that cosine — a bridge from a category ("activities") to instances,
- mmr: maximal marginal relevance (λ 0.7, OpenClaw's default) re-orders the 400 best units:
  each next one maximises 0.7 × its min-max fused score − 0.3 × its highest cosine to those
  already taken.

Sentence and context vectors are embedded at run time (about a minute on 2 cores).

    python bench/bench_recall_ablations.py [--data PATH] [--work DIR] [--budgets 1000,4000]
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent_sleep.core.workspace import Workspace  # noqa: E402
from agent_sleep.retrieval.bm25 import BM25, STOPWORDS, stem, tokenize, words  # noqa: E402
from agent_sleep.retrieval.embed import Embedder  # noqa: E402
from agent_sleep.retrieval.index import Loaded, embedder, open_index, update  # noqa: E402
from agent_sleep.retrieval.recall import (  # noqa: E402
    Fusion,
    _minmax,
    _sessions,
    _top,
    count_tokens,
    pack,
    rank,
)
from bench import locomo  # noqa: E402
from bench.bench_recall import evidence_recall, workspace_for  # noqa: E402

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\s*\[shares a photo:\s*|\]\s*$")


TODAY = dt.date(2026, 1, 1)  # recency decay is off: any date ranks alike


@dataclass
class Conversation:
    index: Loaded
    questions: list[locomo.Question]
    query_vectors: np.ndarray
    extra: dict[str, object] = field(default_factory=dict)


Signals = tuple[np.ndarray, np.ndarray]  # BM25 scores, cosines (every unit)
Variant = Callable[[Conversation, int, Signals], Signals | np.ndarray]


def fuse(conv: Conversation, text: np.ndarray, cos: np.ndarray, wanted: int, f: Fusion) -> tuple:
    """The shipped candidate pool and min-max fusion, as full arrays over the candidates."""
    n = len(conv.index.units)
    pool = min(n, max(f.min_candidates, f.candidates * wanted))
    cand = _top(text, pool)
    cand = np.union1d(cand[text[cand] > 0], _top(cos, pool))
    fused = f.text_weight * _minmax(text[cand]) + f.vector_weight * _minmax(cos[cand])
    return cand, fused


def ranked(conv: Conversation, cand: np.ndarray, fused: np.ndarray, f: Fusion) -> list:
    scores = _sessions(
        conv.index,
        dict(zip(cand.tolist(), fused.tolist(), strict=True)),
        f.session_weight,
        f.session_top,
    )
    return sorted(((round(float(s), 6), r) for r, s in scores.items()), key=lambda t: (-t[0], t[1]))


def embed_parts(conv: Conversation, ws: Workspace) -> None:
    """Sentence vectors (row of each) and previous-note context vectors, for two variants."""
    model = embedder(ws)
    assert model is not None, "the ablations need the embedding model"
    units = conv.index.units
    rows, sentences, contexts = [], [], []
    for r in range(len(units)):
        u = units[r]
        parts = [p.strip() for p in _SENTENCE.split(u.embedded) if p and len(p.split()) >= 3]
        if len(parts) >= 2:
            rows += [r] * len(parts)
            sentences += parts
        before = units[r - 1].embedded if r and units[r - 1].path == u.path else ""
        contexts.append(f"{before} {u.embedded}".strip())
    conv.extra["sentence_rows"] = np.array(rows, dtype=np.int64)
    conv.extra["sentences"] = np.asarray(model.embed_documents(sentences), dtype=np.float32)
    conv.extra["contexts"] = np.asarray(model.embed_documents(contexts), dtype=np.float32)
    conv.extra["own_words"] = BM25.build(
        tokenize(units[r].embedded) + tokenize(units[r].indexed) for r in range(len(units))
    )
    conv.extra["terms"] = [tokenize(units[r].embedded) for r in range(len(units))]
    surface: dict[str, str] = {}
    for r in range(len(units)):
        for w in _content_words(units[r].embedded):
            surface.setdefault(stem(w), w)
    stems = sorted(surface)
    conv.extra["vocab"] = stems
    conv.extra["vocab_vectors"] = np.asarray(
        model.embed_documents([surface[t] for t in stems]), dtype=np.float32
    )
    conv.extra["model"] = model
    conv.extra["cost"] = np.array([count_tokens(units[r].text) for r in range(len(units))])


def _content_words(text: str) -> list[str]:
    return [w for w in words(text) if w not in STOPWORDS and len(w) >= 3 and w.isalpha()]


def word_expansion(conv: Conversation, qi: int, sig: Signals) -> Signals:
    question = conv.questions[qi].question
    asked = _content_words(question)
    if not asked:
        return sig
    vectors = conv.extra["model"].embed_documents(asked)  # type: ignore[attr-defined]
    similarity = np.asarray(vectors) @ conv.extra["vocab_vectors"].T  # type: ignore[attr-defined]
    vocab: list[str] = conv.extra["vocab"]  # type: ignore[assignment]
    have = set(tokenize(question))
    extra: dict[str, float] = {}
    for row in similarity:
        for j in np.argsort(-row)[:6]:
            if vocab[j] not in have and row[j] >= 0.5:
                extra[vocab[j]] = max(extra.get(vocab[j], 0.0), float(row[j]))
    text = sig[0].copy()
    for term, cosine in extra.items():
        text += 0.3 * cosine * conv.index.bm25.scores([term])
    return text, sig[1]


def sentences(conv: Conversation, qi: int, sig: Signals) -> Signals:
    text, cos = sig
    best = cos.copy()
    sv = conv.extra["sentences"] @ conv.query_vectors[qi]
    np.maximum.at(best, conv.extra["sentence_rows"], sv)  # type: ignore[arg-type]
    return text, 0.5 * cos + 0.5 * best


def own_words(conv: Conversation, qi: int, sig: Signals) -> Signals:
    bm25: BM25 = conv.extra["own_words"]  # type: ignore[assignment]
    return bm25.scores(tokenize(conv.questions[qi].question)), sig[1]


def prev_vector(conv: Conversation, qi: int, sig: Signals) -> Signals:
    ctx = conv.extra["contexts"] @ conv.query_vectors[qi]
    return sig[0], 0.7 * sig[1] + 0.3 * ctx


def rm3(conv: Conversation, qi: int, sig: Signals, f: Fusion, wanted: int) -> Signals:
    text, cos = sig
    cand, fused = fuse(conv, text, cos, wanted, f)
    terms: list[list[str]] = conv.extra["terms"]  # type: ignore[assignment]
    query = set(tokenize(conv.questions[qi].question))
    weight: dict[str, float] = {}
    for r in cand[np.argsort(-fused)[:10]]:
        for t, x in Counter(terms[r]).items():
            weight[t] = weight.get(t, 0.0) + x / max(1, len(terms[r]))
    n = len(terms)
    bm25 = conv.index.bm25
    order = sorted(weight, key=lambda t: -weight[t] * math.log(1 + n / (1 + bm25.df(t))))
    expansion = [t for t in order if t not in query][:10]
    return (text + 0.3 * bm25.scores(expansion) if expansion else text), cos


def neighbours(conv: Conversation, fused_all: np.ndarray) -> np.ndarray:
    paths = conv.extra.setdefault(
        "paths", np.array([conv.index.units[r].path for r in range(len(conv.index.units))])
    )
    same = paths[1:] == paths[:-1]  # type: ignore[index]
    before = np.r_[0.0, np.where(same, fused_all[:-1], 0.0)]
    after = np.r_[np.where(same, fused_all[1:], 0.0), 0.0]
    return fused_all + 0.2 * np.maximum(before, after)


DEEP = {
    "deep": Fusion(),
    "deep -feedback": Fusion(feedback_weight=0.0),
    "deep -rerank": Fusion(rerank_weight=0.0),
}
VARIANTS = (
    *("first pass", *DEEP, "neighbours", "sentences", "own-words"),
    *("rm3", "prev-vector", "length prior", "mmr", "word-expansion"),
)


def mmr(conv: Conversation, order: list, lam: float = 0.7, depth: int = 400) -> list:
    """``order`` (score, row) re-ordered by maximal marginal relevance over its first ``depth``."""
    head, tail = order[:depth], order[depth:]
    if not head:
        return order
    rows = np.array([r for _, r in head])
    relevance = _minmax(np.array([s for s, _ in head]))
    vectors = conv.index.vectors[rows]  # type: ignore[index]
    similarity = vectors @ vectors.T
    closest = np.zeros(len(rows))
    free = np.ones(len(rows), dtype=bool)
    out = []
    for k in range(len(rows)):
        value = np.where(free, lam * relevance - (1 - lam) * closest, -np.inf)
        j = int(np.argmax(value))
        free[j] = False
        out.append((float(len(rows) - k), int(rows[j])))
        closest = np.maximum(closest, similarity[j]) if k else similarity[j].copy()
    return out + tail


def run_variant(name: str, conv: Conversation, qi: int, budget: int, f: Fusion) -> list:
    q = conv.questions[qi].question
    if name in DEEP:
        model = cast(Embedder, conv.extra["model"])
        return rank(conv.index, q, conv.query_vectors[qi], DEEP[name], None, budget, TODAY, model)
    wanted = max(1, budget // 30)
    sig: Signals = (
        conv.index.bm25.scores(tokenize(q)),
        conv.index.vectors @ conv.query_vectors[qi],
    )
    sig = {
        "sentences": sentences,
        "own-words": own_words,
        "prev-vector": prev_vector,
        "word-expansion": word_expansion,
        "rm3": lambda c, i, s: rm3(c, i, s, f, wanted),
    }.get(name, lambda c, i, s: s)(conv, qi, sig)
    cand, fused = fuse(conv, sig[0], sig[1], wanted, f)
    if name == "neighbours":
        full = np.zeros(len(conv.index.units))
        full[cand] = fused
        fused = neighbours(conv, full)[cand]
    elif name == "length prior":
        fused = fused * conv.extra["cost"][cand] ** 0.1  # type: ignore[index]
    order = ranked(conv, cand, fused, f)
    return mmr(conv, order) if name == "mmr" else order


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=str(locomo.DEFAULT_PATH))
    parser.add_argument("--work", default="/tmp/agent-sleep-bench/locomo")
    parser.add_argument("--budgets", default="1000,4000")
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    f = Fusion()
    started = time.monotonic()
    scores: dict[tuple[str, int, int], list[float]] = defaultdict(list)
    for sample in locomo.load(args.data):
        ws = Workspace.at(workspace_for(sample, Path(args.work)))
        update(ws)  # every unit embedded now (a search would leave a backlog to a background job)
        index = open_index(ws)
        model = embedder(ws)
        assert model is not None and index.vectors is not None, "the ablations need vectors"
        qs = locomo.questions(sample)
        conv = Conversation(index, qs, np.stack([model.embed_query(q.question) for q in qs]))
        embed_parts(conv, ws)
        conv.extra["model"] = model
        print(f"{sample['sample_id']}: {len(qs)} questions", file=sys.stderr, flush=True)
        for qi, q in enumerate(qs):
            for budget in budgets:
                for name in VARIANTS:
                    hits = pack(
                        index,
                        run_variant(name, conv, qi, budget, f),
                        None,
                        budget,
                        f.duplicate,
                        q.question,
                    )
                    scores[(name, budget, q.category)].append(evidence_recall(hits, q.evidence))
    cats = sorted(locomo.CATEGORIES)
    print(
        f"{'variant':<15} {'budget':>6} "
        + " ".join(f"{locomo.CATEGORIES[c]:>12}" for c in cats)
        + f" {'overall':>8}"
    )
    for budget in budgets:
        for name in VARIANTS:
            total: list[float] = []
            cells = []
            for c in cats:
                vals = scores[(name, budget, c)]
                total += vals
                cells.append(f"{100 * sum(vals) / max(len(vals), 1):11.1f}%")
            print(
                f"{name:<15} {budget:>6} "
                + " ".join(cells)
                + f" {100 * sum(total) / max(len(total), 1):7.1f}%"
            )
    print(f"({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
