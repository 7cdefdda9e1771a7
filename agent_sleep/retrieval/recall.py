"""Hybrid recall: BM25 and MiniLM cosine over the workspace's units, fused, packed into a budget.

How a query is scored (every constant lives in ``Fusion``; see references/recall.md):

1. Candidates: the ``candidates × wanted`` best units by BM25 and as many by cosine (a
   shallow search of a large index finds the latter through a sketch: index_matrix.py).
2. Each signal is min-max normalised over the candidates, then
   ``fused = vector_weight · cos_n + text_weight · bm25_n``.
3. Sessions: a unit also takes ``session_weight ×`` its file's relevance (the mean of the
   file's ``session_top`` best fused scores): matches cluster in the days a topic came up;
   MEMORY.md and each bank page are a file too, so consolidated entries compete on equal terms.
   Deep requests, those that want at least ``deep_from`` hits (``k``, or ``budget_tokens / 30``:
   a system prompt's worth of memories rather than a lookup), reach into ranks where the first
   pass is weak, and take two more steps:
   a. Feedback (before 2.): the ``feedback_terms`` terms that weigh most in the
      ``feedback_docs`` best first-pass units (frequency over length, times IDF) are searched
      too, at ``feedback_weight`` (RM3-style pseudo-relevance feedback).
   b. Rerank (after 3.): the best ``rerank_depth ×`` wanted candidates, and at least
      ``rerank_floor``, are re-scored. Late interaction: each content word piece of the query
      takes its best cosine against the unit's token states from the same MiniLM (IDF-weighted
      mean); a unit that names an instance of what is asked ("my turtles" for "pets") matches
      token by token where one pooled vector blurs it. A learned model (``learned``, see
      retrieval/learned.py) weighs that match with the first pass's signals and the unit's own;
      under a budget, less ``cost_weight × ln(tokens)``. (``learned=None``: the match mixed at
      ``rerank_weight`` with the first-pass score.) Token states are
      computed for those candidates on demand and kept by content hash, in memory (128 MB)
      and in ``.agent-sleep/tokens/`` (256 MB), so a later process finds them.
4. Recency (optional): dated units are multiplied by ``0.5 ** (age_days / half_life_days)``;
   MEMORY.md entries never decay.
5. Cutoff: units under ``min_score`` are dropped, except exact keyword hits (every content word
   of the query, or an identifier-like query term such as ``ERR_42`` or ``v2.1``, appears in the
   unit's text as written), which are never cut.
6. Near-duplicates (token Jaccard ≥ ``duplicate``) are folded into the better-ranked hit, whose
   sources absorb theirs.
7. Packing: hits are taken greedily by rank while they fit ``budget_tokens`` (tokens ≈ words ×
   1.3), up to ``k``.
8. Closeness (no effect on 1.-7.): scores are relative, so the best hit scores high however
   far it is from the query. Each hit also says how it matches: ``words`` (it holds a content
   word of the query, or the query's code), ``meaning`` (its raw cosine to the query is at
   least ``CLOSE_COSINE``) or ``weak``; ``relevant(hits)`` is False when every hit is weak.

Without the embedding model the vector weight is 0 and BM25 alone ranks (one warning).
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import os
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from agent_sleep.core import args
from agent_sleep.core import notes as fmt
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval.bm25 import STOPWORDS, tokenize, words
from agent_sleep.retrieval.index_matrix import SKETCH_FROM, UNSEEN
from agent_sleep.retrieval.learned import WEIGHTS as LEARNED
from agent_sleep.retrieval.learned import Signals
from agent_sleep.retrieval.rerank import minmax, rerank
from agent_sleep.retrieval.signals import date_terms, query_days
from agent_sleep.retrieval.signals import feedback_terms as _feedback_terms
from agent_sleep.retrieval.signals import names_bonus as _names
from agent_sleep.retrieval.signals import reciprocal as _reciprocal
from agent_sleep.retrieval.signals import sessions as _sessions
from agent_sleep.retrieval.signals import spread as _spread
from agent_sleep.retrieval.signals import top as _top
from agent_sleep.retrieval.signals import union as _union
from agent_sleep.retrieval.units import MEMORY

if TYPE_CHECKING:
    import numpy as np

    from agent_sleep.retrieval.embed import Embedder
    from agent_sleep.retrieval.index import Loaded

DEFAULT_K = 6
TOKENS_PER_WORD = 1.3
# a hit sharing no word with the query is close in meaning from this raw MiniLM cosine
# (query to hit, before fusion); chosen from measured distributions: references/recall.md
CLOSE_COSINE = 0.20

Match = Literal["words", "meaning", "weak"]
_IDENTIFIER = re.compile(r"[A-Za-z]*\d[\w.\-]*|\w+[_.\-]\w[\w.\-]*|[a-z]+[A-Z]\w*")


@dataclass(frozen=True)
class Fusion:
    vector_weight: float = 0.6
    text_weight: float = 0.4
    candidates: int = 8
    min_candidates: int = 50
    session_weight: float = 0.5
    session_top: int = 1
    half_life_days: float | None = None
    min_score: float = 0.0
    duplicate: float = 0.9
    # deep recall: a request for at least ``deep_from`` hits (k, or budget_tokens / 30)
    deep_from: int = 20
    feedback_weight: float = 0.3  # 0 turns pseudo-relevance feedback off
    feedback_docs: int = 10
    feedback_terms: int = 10
    rerank_weight: float = 0.4  # 0 turns the rerank off; the mix's weight when learned is None
    rerank_depth: int = 4  # re-scored candidates: rerank_depth × hits wanted
    rerank_floor: int = 400  # ... and at least this many (a small deep request's block)
    # the learned rerank (retrieval/learned.py); None: the min-max mix at rerank_weight
    learned: tuple[float, ...] | None = LEARNED
    cost_weight: float = 1.0  # under a budget: learned score − cost_weight × ln(tokens) (LOCO)
    fuse: str = "minmax"  # or "rrf": reciprocal-rank fusion (rrf_k) instead of min-max weights
    rrf_k: float = 60.0
    day_spread: float = 0.0  # the n-th hit of one file is divided by 1 + day_spread × n
    name_weight: float = 0.3  # added to units naming a capitalised query word (LOCO-chosen)


@dataclass(frozen=True)
class Hit:
    text: str
    path: str
    score: float
    sources: tuple[str, ...]
    date: str | None = None
    kind: str = ""
    ids: tuple[str, ...] = ()
    time: str | None = None
    section: str | None = None
    exact: bool = False
    # currency (retrieval/currency.py): False for a superseded entry or a note only it cited
    current: bool = True
    superseded_by: str | None = None  # the text of what replaced it
    superseded_on: str | None = None  # the date it stopped being current
    # a current entry sleep marked as one a newer entry may replace (``newer=``,
    # consolidation/maybe_replaced.py): the newer entry's date and text
    newer: str | None = None
    # closeness to the query (step 8): the raw cosine (None without the model or the unit's
    # vector) and how the hit matches it
    cosine: float | None = None
    match: Match = "weak"

    @property
    def tokens(self) -> int:
        return count_tokens(self.text)


def relevant(hits: list[Hit]) -> bool:
    """Whether any hit matches the query by its words or its meaning: False when memory
    most likely holds nothing on it (the hits are only the least far of unrelated notes)."""
    return any(h.match != "weak" for h in hits)


def count_tokens(text: str) -> int:
    return math.ceil(len(text.split()) * TOKENS_PER_WORD)


def recall(
    workspace: str | os.PathLike[str] | Workspace | None,
    query: str,
    k: int | None = None,
    budget_tokens: int | None = None,
    *,
    fusion: Fusion | None = None,
    today: dt.date | None = None,
    agent: str | None = None,
) -> list[Hit]:
    """The units that best answer ``query``, best first: at most ``k`` and within
    ``budget_tokens`` when given (``k`` defaults to 6 when there is no budget); with ``agent``,
    only that agent's notes and the entries citing them."""
    args.text(query=query)
    args.count_or_none(k=k)
    args.positive_or_none(budget_tokens=budget_tokens)
    args.day_or_none(today=today)
    args.text_or_none(agent=agent)
    args.instance_or_none(fusion=(fusion, Fusion))
    if agent:
        from agent_sleep.retrieval.agents import recall_by

        return recall_by(agent, workspace, query, k, budget_tokens, fusion=fusion, today=today)
    from agent_sleep.retrieval.index import open_index

    fusion = fusion or Fusion()
    ws = Workspace.at(workspace)
    if not query.strip() or not (ws.exists() or ws.memory_md.exists() or ws.bank_dir.is_dir()):
        return []
    if k is None and budget_tokens is None:
        k = DEFAULT_K
    index = open_index(ws, vectors=fusion.vector_weight > 0, query=query)
    if not index.units:
        return []
    vector = None
    model = None
    if index.vectors is not None and fusion.vector_weight > 0:
        from agent_sleep.retrieval.index import embedder

        model = embedder(ws)
        if model is not None:
            vector = _query_vector(model, query)
    ranked = rank(
        index, query, vector, fusion, k, budget_tokens, today or dt.date.today(), model=model
    )
    # currency: superseded units below what replaced them, and labelled (retrieval/currency.py)
    from agent_sleep.retrieval import currency

    superseded = currency.superseded_map(ws)
    ranked = currency.reorder(index, ranked, superseded)
    ranked = currency.newer_first(index, ranked, superseded)
    ranked = currency.sources_first(index, ranked)
    ranked = currency.facts_first(index, ranked, query)
    hits = pack(index, ranked, k, budget_tokens, fusion.duplicate, query, vector)
    return currency.label(hits, superseded, currency.marked_map(ws))


_query_vectors: dict[tuple[str, str], np.ndarray] = {}
QUERY_CACHE = 256


def _query_vector(model: Embedder, query: str) -> np.ndarray:
    """Agents repeat queries within a session; a repeated one skips the model."""
    key = (model.name, query)
    if key not in _query_vectors:
        if len(_query_vectors) >= QUERY_CACHE:
            _query_vectors.pop(next(iter(_query_vectors)))
        _query_vectors[key] = model.embed_query(query)
    return _query_vectors[key]


def rank(
    index: Loaded,
    query: str,
    vector: np.ndarray | None,
    fusion: Fusion,
    k: int | None,
    budget_tokens: int | None,
    today: dt.date,
    model: Embedder | None = None,
) -> list[tuple[float, int]]:
    """Candidates as (score, row), best first, after fusion, sessions, feedback and rerank
    (deep requests), decay and cutoff."""
    import numpy as np

    wanted = k or max(1, (budget_tokens or 0) // 30)
    deep = wanted >= fusion.deep_from
    terms = tokenize(query) + date_terms(query)
    text = index.bm25.scores(terms)
    windows = None if deep else index.windows  # windows serve deep requests only
    if windows is not None:
        text = np.where(windows, 0.0, text)
    pool = _pool(index, fusion, wanted)
    text_top = _text_top(text, pool)
    cos = None
    if vector is not None and index.vectors is not None:
        shortlist = 0 if deep else 4 * pool  # deep requests read every vector
        cos = index.vectors.cosines(vector, shortlist, text_top)
        if windows is not None:
            cos = np.where(windows, -1.0, cos)
    cand, fused = _fuse(text, cos, fusion, pool, text_top)
    if deep and fusion.feedback_weight > 0 and len(cand):
        best = cand[np.argsort(-fused)[: fusion.feedback_docs]]
        extra = _feedback_terms(index, best, terms, fusion)
        if extra:
            text = text + fusion.feedback_weight * index.bm25.scores(extra)
            cand, fused = _fuse(text, cos, fusion, pool, _text_top(text, pool))
    if len(cand) == 0:
        return []
    first = dict(zip(cand.tolist(), fused.tolist(), strict=True))
    scores = first
    if fusion.name_weight > 0:
        scores = _names(index, query, scores, fusion.name_weight)
    named = frozenset(r for r, s in scores.items() if s > first[r])
    if fusion.session_weight > 0:
        scores = _sessions(index, scores, fusion.session_weight, fusion.session_top)
    if deep and fusion.rerank_weight > 0 and model is not None and cos is not None:
        depth = max(fusion.rerank_depth * wanted, fusion.rerank_floor)
        signals = Signals(
            text, cos, cand, first, named, frozenset(_keywords(query)[0]), query_days(query)
        )
        cost = fusion.cost_weight if budget_tokens is not None else 0.0
        scores = rerank(
            index, query, model, scores, fusion.rerank_weight, depth,
            learned=fusion.learned, signals=signals, cost_weight=cost,
        )  # fmt: skip
    if fusion.day_spread > 0:
        scores = _spread(index, scores, fusion.day_spread)
    content, identifiers = _keywords(query)
    out = []
    for row, score in scores.items():
        # a unit is decoded only when a step reads it (a record of a large index is parsed
        # on first access, and most candidates are never shown)
        if fusion.half_life_days:
            unit = index.units[row]
            if unit.kind != MEMORY and unit.date:
                age = (today - dt.date.fromisoformat(unit.date)).days
                score *= 0.5 ** (max(age, 0) / fusion.half_life_days)
        if score < fusion.min_score and not _exact(index.units[row].text, content, identifiers):
            continue
        out.append((round(float(score), 6), row))
    out.sort(key=lambda t: (-t[0], t[1]))
    codes = _codes(query)
    return _codes_first(index, out, codes, text) if codes else out


# a token of the query that reads as a code (a ticket, port, version, setting, hostname):
# joined by an underscore, a camelCase word that starts in lower case, or a digit with a letter
# or three digits or more; a year, an ordinal or a quantity ("5K", "10am", "3D") is no code
_TOKEN = re.compile(r"\w[\w.\-]*\w|\w")
_CAMEL = re.compile(r"[a-z]+[A-Z]\w*")
_NUMBER = re.compile(r"\d+")
_YEAR = re.compile(r"(?:19|20)\d\d")
_QUANTITY = re.compile(r"\d+(?:[.,]\d+)?[A-Za-z]{1,3}")


def _codes(query: str) -> set[str]:
    """The query's codes, lower-cased: what an agent searches for as written."""
    out = set()
    for token in _TOKEN.findall(query):
        if "_" in token.strip("_") or _CAMEL.fullmatch(token):
            out.add(token.lower())
        elif any(c.isdigit() for c in token):
            if _NUMBER.fullmatch(token):
                if len(token) >= 3 and not _YEAR.fullmatch(token):
                    out.add(token)
            elif not _QUANTITY.fullmatch(token) and any(c.isalpha() for c in token):
                out.add(token.lower())
    return out


def _codes_first(
    index: Loaded, ranked: list[tuple[float, int]], codes: set[str], text: np.ndarray
) -> list[tuple[float, int]]:
    """The units that hold more of the query's codes, whole, come first, each group in rank
    order: fusion would otherwise let units that read alike ("opt14", "opt54") or the next
    note (BM25 reads a note with the one before it) outrank the only unit that holds "opt15".
    Only units BM25 matched are read (a unit holding a code matches its terms)."""
    held: dict[int, int] = {}
    for _, row in ranked:
        if text[row] > 0:
            lowered = index.units[row].text.lower()
            n = sum(1 for c in codes if c in lowered and _whole(c).search(lowered))
            if n:
                held[row] = n
    if not held:
        return ranked
    return sorted(ranked, key=lambda t: -held.get(t[1], 0))


def _fuse(
    text: np.ndarray, cos: np.ndarray | None, fusion: Fusion, pool: int, text_top: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The candidate rows (``text_top``, BM25's best, and the ``pool`` best by cosine) and
    their fused scores."""
    import numpy as np

    cand = text_top
    if cos is not None:
        # past a sketch's shortlist every cosine reads UNSEEN: the best are among the others
        seen = np.flatnonzero(cos > UNSEEN) if len(cos) >= SKETCH_FROM else None
        if seen is not None and pool < len(seen) < len(cos):
            cand = _union(cand, seen[_top(cos[seen], pool)])
        else:
            cand = _union(cand, _top(cos, pool))
    if len(cand) == 0:
        return cand, np.zeros(0)
    if fusion.fuse == "rrf":
        fused = fusion.text_weight * _reciprocal(text[cand], fusion.rrf_k)
        if cos is not None:
            fused = fused + fusion.vector_weight * _reciprocal(cos[cand], fusion.rrf_k)
        return cand, _minmax(fused)
    fused = fusion.text_weight * _minmax(text[cand])
    if cos is not None:
        fused = fused + fusion.vector_weight * _minmax(cos[cand])
    return cand, fused


def _pool(index: Loaded, fusion: Fusion, wanted: int) -> int:
    """How many of the best units each signal contributes to the candidates."""
    return min(len(index.units), max(fusion.min_candidates, fusion.candidates * wanted))


def _text_top(text: np.ndarray, pool: int) -> np.ndarray:
    """The ``pool`` best units by BM25 among those it matched."""
    import numpy as np

    # usually a small share of the units: partition only those (BM25 scores are never
    # negative, so a float32 score is 0 exactly when its bits are: nonzero on them is faster)
    matched = (text.view(np.int32) if text.dtype == np.float32 else text).nonzero()[0]
    return matched[_top(text[matched], pool)] if len(matched) > pool else matched


_minmax = minmax  # the benchmarks' name for it


def _keywords(query: str) -> tuple[set[str], set[str]]:
    content = {w for w in words(query) if w not in STOPWORDS and len(w) > 1}
    identifiers = {m.lower() for m in _IDENTIFIER.findall(query)}
    return content, identifiers


def _exact(text: str, content: set[str], identifiers: set[str]) -> bool:
    if not content and not identifiers:
        return False
    if identifiers:  # the query names an identifier: the text holds one of them, whole
        lowered = text.lower()
        return any(_whole(i).search(lowered) for i in identifiers if i in lowered)
    return bool(content) and content <= set(words(text))


@functools.lru_cache(maxsize=1024)
def _whole(identifier: str) -> re.Pattern[str]:
    """``identifier`` as a whole token: "8044" is not in "80443", "pay-10" not in "pay-101",
    "v1.2" not in "v1.2.3" (a full stop that ends a sentence may follow); an underscore parts
    tokens ("opt15" is in "kafka_opt15")."""
    return re.compile(rf"(?<![^\W_.\-]){re.escape(identifier)}(?![^\W_]|[.\-][^\W_])")


def pack(
    index: Loaded,
    ranked: list[tuple[float, int]],
    k: int | None,
    budget_tokens: int | None,
    duplicate: float = 0.9,
    query: str = "",
    vector: np.ndarray | None = None,
) -> list[Hit]:
    """Greedy by rank: each hit that still fits the budget is taken, up to ``k`` hits; a
    near-duplicate of a taken hit (token Jaccard >= ``duplicate``) adds its sources to it.
    Each hit says how close it is to the query (``vector``: its embedding, None without)."""
    content, identifiers = _keywords(query)
    out: list[Hit] = []
    rows_out: list[int] = []
    shapes = _Shapes(duplicate, index)
    taken: set[int] = set()  # rows shown (a window shows its notes; each is paid for once)
    used = 0
    for score, row in ranked:
        if k is not None and len(out) >= k:
            break
        if budget_tokens is not None and budget_tokens - used < 2:
            break
        rows = [r for r in index.shown(row) if r not in taken]
        cost = sum(count_tokens(index.units[r].text) for r in rows)
        if not rows or (budget_tokens is not None and used + cost > budget_tokens):
            continue
        for r in rows:
            if k is not None and len(out) >= k:
                break
            taken.add(r)
            unit = index.units[r]
            shape = _shape(_said(unit.text, unit.kind))
            twin = shapes.twin(shape)
            if twin is not None:
                merged = tuple(dict.fromkeys(out[twin].sources + index.sources[r]))
                out[twin] = replace(out[twin], sources=merged)
                continue
            out.append(
                Hit(
                    text=unit.text,
                    path=unit.path,
                    score=score,
                    sources=index.sources[r],
                    date=unit.date,
                    kind=unit.kind,
                    ids=unit.ids,
                    time=unit.time,
                    section=unit.section,
                    exact=_exact(unit.text, content, identifiers),
                )
            )
            rows_out.append(r)
            shapes.add(shape)
            used += count_tokens(unit.text)
    return _closeness(index, out, rows_out, query, vector)


def _closeness(
    index: Loaded, hits: list[Hit], rows: list[int], query: str, vector: np.ndarray | None
) -> list[Hit]:
    """``hits`` (of ``rows``) with their raw cosine to the query and how they match it (step
    8): read after ranking, so it changes no score and no order."""
    if not hits:
        return hits
    cosines: list[float | None] = [None] * len(hits)
    if vector is not None and index.vectors is not None:
        import numpy as np

        vecs = np.asarray(index.vectors[np.asarray(rows, dtype=np.int64)], dtype=np.float32)
        norms = np.linalg.norm(vecs, axis=1)
        dots = vecs @ np.asarray(vector, dtype=np.float32)
        # a unit whose vector is left for a later update is a row of zeros: no cosine
        cosines = [
            round(float(d / n), 4) if n > 0 else None for d, n in zip(dots, norms, strict=True)
        ]
    terms = {t for t in tokenize(query) if len(t) > 1}
    codes = _codes(query)
    return [
        replace(h, cosine=cos, match=_match(h.text, cos, terms, codes))
        for h, cos in zip(hits, cosines, strict=True)
    ]


def _match(text: str, cosine: float | None, terms: set[str], codes: set[str]) -> Match:
    """How a hit matches the query. A query that names a code (``ERR_42``, ``PAY-402``) asks
    for that code: only a hit holding it, whole, matches, however alike the others read (a
    code in no note is what memory lacks). Otherwise a shared content word (stemmed, as BM25
    reads it), else a raw cosine of at least ``CLOSE_COSINE``."""
    if codes:
        lowered = text.lower()
        held = any(c in lowered and _whole(c).search(lowered) for c in codes)
        return "words" if held else "weak"
    if terms and not terms.isdisjoint(tokenize(text)):
        return "words"
    if cosine is not None and cosine >= CLOSE_COSINE:
        return "meaning"
    return "weak"


def nothing_close(query: str, hits: list[Hit]) -> str | None:
    """Why no hit is close to ``query``, in one line for a person or an agent; None when one
    is (or there are no hits: that says it already)."""
    if not hits or relevant(hits):
        return None
    named = _codes(query)
    codes = [t for t in _TOKEN.findall(query) if t.lower() in named]
    if codes:
        return f"nothing close to the query: no hit holds {', '.join(dict.fromkeys(codes))}"
    if all(h.cosine is None for h in hits):
        return "nothing close to the query: the hits share no word with it"
    return "nothing close to the query: the hits share no word with it and read unlike it"


def _said(text: str, kind: str) -> str:
    """What a unit says, for the near-duplicate check: a bank unit of one entry without its
    "Page — Section" line (an archived entry is the note it came from, said again), a
    next-session action without its label."""
    if kind == "bank":
        _head, _, body = text.partition("\n")
        if body and "\n" not in body:
            text = body
    # a next-session action says its note again under a label ("S: To do: book the tasting"
    # for "S: todo: book the tasting", "Follow up: …"): neither the type nor the label is a
    # word of what it says
    return _ACTION_LABEL_RE.sub(
        "", fmt.PREFIX_RE.sub("", text.removeprefix("- "), count=1), count=1
    )


_ACTION_LABEL_RE = re.compile(
    r"^(?:to[- ]?do|follow up|find out|next step|action item|task)\s*[:\-–—]\s*|^todo\s+",
    re.I,
)


@functools.lru_cache(maxsize=16384)
def _shape(text: str) -> frozenset[str]:
    """The token set a near-duplicate check compares (a unit's text, cached: packing a deep
    request tokenizes hundreds of units, most of them seen by the previous request)."""
    return frozenset(tokenize(text))


class _Shapes:
    """Token sets of the hits taken so far, indexed for near-duplicate lookup by prefix
    filtering: two sets with Jaccard >= t share one of the first ``|A| - ceil(t·|A|) + 1``
    rarest terms of each, so only those are indexed and probed."""

    def __init__(self, threshold: float, index: Loaded) -> None:
        self.threshold = threshold
        self.bm25 = index.bm25
        self.sets: list[frozenset[str]] = []
        self.postings: dict[str, list[int]] = {}
        self._df: dict[str, int] = {}
        self._last: tuple[frozenset[str], list[str]] | None = None

    def _prefix(self, shape: frozenset[str]) -> list[str]:
        if self._last is not None and self._last[0] is shape:
            return self._last[1]
        for t in shape:
            if t not in self._df:
                self._df[t] = self.bm25.df(t)
        size = len(shape) - math.ceil(self.threshold * len(shape)) + 1
        prefix = sorted(shape, key=lambda t: (self._df[t], t))[:size]
        self._last = (shape, prefix)
        return prefix

    def twin(self, shape: frozenset[str]) -> int | None:
        if self.threshold >= 1.0 or not shape:
            return None
        seen = set()
        for term in self._prefix(shape):
            for i in self.postings.get(term, ()):
                if i in seen:
                    continue
                seen.add(i)
                other = self.sets[i]
                common = len(shape & other)
                if common / (len(shape) + len(other) - common) >= self.threshold:
                    return i
        return None

    def add(self, shape: frozenset[str]) -> None:
        if self.threshold >= 1.0 or not shape:
            self.sets.append(shape)
            return
        for term in self._prefix(shape):
            self.postings.setdefault(term, []).append(len(self.sets))
        self.sets.append(shape)
