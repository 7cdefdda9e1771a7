"""BM25 over recall units: tokenization with stopwords and light stemming, and a sparse index.

The index is a term -> postings table in numpy arrays (CSR layout: documents and term
frequencies, plus each document's length), so a query costs one scatter-add per query term and
segment, whatever the number of documents. Okapi BM25 (k1=1.2, b=0.75) weights are computed for
a term's postings when a query first asks for it, from collection statistics summed over
segments: a new document goes into a small segment of its own and every score stays what one
index over all documents gives. A segment's arrays and sorted vocabulary are stored by the
index (``index_store``: mapped from disk, not copied), and the vocabulary is searched as it is
read (no table of terms is built on load).
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

K1 = 1.2
B = 0.75
WEIGHTS_KEPT = 4096  # terms whose posting weights a loaded index keeps
DF_KEPT = 65536  # terms whose document frequency a loaded index keeps

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
STOPWORDS = frozenset(
    """a about above after again against all am an and any are aren't as at be because been before
    being below between both but by can can't cannot could couldn't did didn't do does doesn't
    doing don't down during each few for from further had hadn't has hasn't have haven't having
    he he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm
    i've if in into is isn't it it's its itself let's me more most mustn't my myself no nor not
    of off on once only or other ought our ours ourselves out over own same shan't she she'd
    she'll she's should shouldn't so some such than that that's the their theirs them themselves
    then there there's these they they'd they'll they're they've this those through to too under
    until up very was wasn't we we'd we'll we're we've were weren't what what's when when's
    where where's which while who who's whom why why's with won't would wouldn't you you'd
    you'll you're you've your yours yourself yourselves also just will yes yeah oh ok okay hey
    hi""".split()  # noqa: SIM905
)


def words(text: str) -> list[str]:
    """Lower-case words as written (apostrophes kept inside words)."""
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def stem(word: str) -> str:
    """A light English suffix stripper: plurals, -ing, -ed, -ly, possessives.

    Conservative on purpose: it merges inflections ("painted", "painting", "paints") and leaves
    short words and identifiers alone."""
    if word.endswith("'s"):
        word = word[:-2]
    word = word.replace("'", "")
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ingly", "edly", "ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            if not any(ch in "aeiouy" for ch in base):
                break
            if len(base) > 3 and base[-1] == base[-2] and base[-1] not in "lsz":
                base = base[:-1]
            word = base
            break
    if word.endswith("ly") and len(word) > 5:
        word = word[:-2]
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]
    return word


_STEMS: dict[str, str] = {}  # word -> stem: a vocabulary repeats, and stem() is most of indexing
_STEMS_MAX = 1 << 18


def tokenize(text: str) -> list[str]:
    """Index terms of a text: words minus stopwords, stemmed."""
    out = []
    stems = _STEMS
    for w in words(text):
        if w in STOPWORDS:
            continue
        s = stems.get(w)
        if s is None:
            s = stem(w)
            if len(stems) < _STEMS_MAX:
                stems[w] = s
        out.append(s)
    return out


@dataclass(frozen=True)
class Segment:
    """Postings of a run of consecutive documents: term frequencies and document lengths only.

    Nothing stored depends on the rest of the collection, so a segment written once stays
    valid when documents are added after it; ``BM25`` combines segments at query time."""

    vocab: Sequence[str]  # the terms in sorted order: a term's number is its position
    indptr: np.ndarray  # int64, len(vocab)+1
    docs: np.ndarray  # int32 postings: document numbers within the segment
    tfs: np.ndarray  # float32 postings: the term's frequency in the document
    lengths: np.ndarray  # float32, one per document: its number of terms

    @property
    def count(self) -> int:
        return len(self.lengths)

    @classmethod
    def build(cls, documents: Iterable[Sequence[str]]) -> Segment:
        """The postings of ``documents`` (read once, one at a time: only compact arrays are
        kept, so a large corpus can be streamed in)."""
        import numpy as np

        ids: dict[str, int] = {}
        terms_col, docs_col, tfs_col, lengths_col = array("i"), array("i"), array("i"), array("i")
        for i, doc in enumerate(documents):
            for term, tf in Counter(doc).items():
                j = ids.get(term)
                if j is None:
                    j = ids[term] = len(ids)
                terms_col.append(j)
                docs_col.append(i)
                tfs_col.append(tf)
            lengths_col.append(len(doc))
        vocab = sorted(ids)
        position = np.empty(len(ids), dtype=np.int32)
        position[[ids[t] for t in vocab]] = np.arange(len(ids), dtype=np.int32)
        del ids
        indptr = np.zeros(len(vocab) + 1, dtype=np.int64)
        if len(terms_col):
            term_of = position[np.frombuffer(terms_col, dtype=np.int32)]
            del terms_col
            np.cumsum(np.bincount(term_of, minlength=len(vocab)), out=indptr[1:])
            # Postings of a term stay in document order (a stable sort of the appended rows).
            order = np.argsort(term_of, kind="stable")
            del term_of
            docs = np.frombuffer(docs_col, dtype=np.int32)[order]
            tfs = np.frombuffer(tfs_col, dtype=np.int32)[order].astype(np.float32)
            del order, docs_col, tfs_col
        else:
            docs = np.empty(0, dtype=np.int32)
            tfs = np.empty(0, dtype=np.float32)
        lengths = np.asarray(lengths_col, dtype=np.float32)
        return cls(vocab, indptr, docs, tfs, lengths)

    def row(self, term: str) -> int | None:
        """The term's number, or None when no document holds it."""
        j = bisect.bisect_left(self.vocab, term)
        return j if j < len(self.vocab) and self.vocab[j] == term else None

    def span(self, term: str) -> tuple[int, int]:
        """Where the term's postings lie in ``docs`` and ``tfs`` (empty when none)."""
        j = self.row(term)
        return (0, 0) if j is None else (int(self.indptr[j]), int(self.indptr[j + 1]))

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        lo, hi = self.span(term)
        return (self.docs[lo:hi], self.tfs[lo:hi]) if hi > lo else None

    def df(self, term: str) -> int:
        lo, hi = self.span(term)
        return hi - lo

    def arrays(self) -> dict[str, Any]:
        return {"indptr": self.indptr, "docs": self.docs, "tfs": self.tfs, "lengths": self.lengths}

    @classmethod
    def from_arrays(cls, vocab: Sequence[str], arrays: Any) -> Segment:
        """A segment of stored arrays; ``vocab`` must be sorted (``sorted_terms`` checks a
        stored one)."""
        return cls(vocab, arrays["indptr"], arrays["docs"], arrays["tfs"], arrays["lengths"])

    def terms(self) -> list[str]:
        return list(self.vocab)


def sorted_terms(stored: np.ndarray) -> list[str]:
    """A stored vocabulary as a list, checked to be strictly increasing (lookups bisect it);
    ``ValueError`` when it is not, so a damaged index reads as unreadable."""
    if len(stored) > 1 and not bool((stored[1:] > stored[:-1]).all()):
        raise ValueError("the vocabulary is not sorted")
    terms: list[str] = stored.tolist()
    return terms


@dataclass(frozen=True)
class BM25:
    """Okapi BM25 over consecutive segments, with collection statistics (N, average length,
    document frequencies) summed over all of them, so the scores equal those of one index
    built over every document: an index can take new documents as a small extra segment."""

    segments: tuple[Segment, ...]
    count: int  # documents in all segments
    total: int  # terms in all documents
    # the collection may hold documents outside the segments (a search over a backlog keeps only
    # those that can match, retrieval/scan.py): how many of those hold each term; ``count`` and
    # ``total`` then count them too
    outside: Mapping[str, int] = field(default_factory=dict)
    _weights: dict[str, list[np.ndarray]] = field(default_factory=dict, compare=False, repr=False)
    _df: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, segments: Sequence[Segment]) -> BM25:
        count = sum(s.count for s in segments)
        total = sum(int(s.lengths.sum(dtype="float64")) for s in segments)
        return cls(tuple(segments), count, total)

    @classmethod
    def build(cls, documents: Iterable[Sequence[str]]) -> BM25:
        return cls.of([Segment.build(documents)])

    def scores(self, query_terms: Sequence[str]) -> np.ndarray:
        """BM25 score of every document for the query (repeated query terms count once)."""
        import numpy as np

        out = np.zeros(self.count, dtype=np.float32)
        for term in dict.fromkeys(query_terms):
            at = 0
            for segment, w in zip(self.segments, self.weights(term), strict=True):
                if len(w):
                    lo, hi = segment.span(term)
                    out[at : at + segment.count][segment.docs[lo:hi]] += w
                at += segment.count
        return out

    def weights(self, term: str) -> list[np.ndarray]:
        """The Okapi weight of each of the term's postings, per segment, from the collection
        statistics of all segments; kept once computed (for the ``WEIGHTS_KEPT`` terms asked
        last). Elementwise per posting, so a document's weights do not depend on how the
        documents are split into segments."""
        import numpy as np

        kept = self._weights.pop(term, None)
        if kept is None:
            df = np.array([self.df(term)])
            idf = np.log(1.0 + (self.count - df + 0.5) / (df + 0.5)).astype(np.float32)[0]
            avg = self.total / self.count if self.count and self.total else 1.0
            kept = []
            for segment in self.segments:
                lo, hi = segment.span(term)
                tfs = segment.tfs[lo:hi]
                norm = K1 * (1.0 - B + B * segment.lengths[segment.docs[lo:hi]] / avg)
                kept.append((idf * tfs * (K1 + 1.0) / (tfs + norm)).astype(np.float32))
            if len(self._weights) >= WEIGHTS_KEPT:
                del self._weights[next(iter(self._weights))]
        self._weights[term] = kept  # last asked last: the oldest goes first
        return kept

    def df(self, term: str) -> int:
        """How many documents hold ``term``; kept once counted (packing asks it of every word
        of every hit, and a long-lived process asks again for the next request's)."""
        df = self._df.get(term)
        if df is None:
            df = sum(s.df(term) for s in self.segments) + self.outside.get(term, 0)
            if len(self._df) >= DF_KEPT:
                self._df.clear()
            self._df[term] = df
        return df

    def arrays(self) -> dict[str, Any]:
        """The arrays of a one-segment index (``from_arrays`` reads them back)."""
        (segment,) = self.segments
        return segment.arrays()

    @classmethod
    def from_arrays(cls, vocab: Sequence[str], arrays: Any, count: int) -> BM25:
        segment = Segment.from_arrays(vocab, arrays)
        if segment.count != count:
            raise ValueError(f"BM25 arrays hold {segment.count} documents, expected {count}")
        return cls.of([segment])

    def terms(self) -> list[str]:
        (segment,) = self.segments
        return segment.terms()
