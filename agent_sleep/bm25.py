"""BM25 over recall units: tokenization with stopwords and light stemming, and a sparse index.

The index is a term -> postings table in three numpy arrays (CSR layout, weights precomputed
with Okapi BM25, k1=1.2, b=0.75), so a query costs one scatter-add per query term whatever
the number of documents, and it saves to and loads from one ``.npz`` file plus a vocabulary.
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

K1 = 1.2
B = 0.75

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


def tokenize(text: str) -> list[str]:
    """Index terms of a text: words minus stopwords, stemmed."""
    return [stem(w) for w in words(text) if w not in STOPWORDS]


@dataclass(frozen=True)
class BM25:
    vocab: dict[str, int]
    indptr: np.ndarray  # int64, len(vocab)+1
    docs: np.ndarray  # int32 postings: document numbers
    weights: np.ndarray  # float32 postings: BM25 weight of the term in the document
    count: int

    @classmethod
    def build(cls, documents: Iterable[Sequence[str]]) -> BM25:
        """The index of ``documents`` (read once, one at a time: only compact postings arrays
        are kept, so a large corpus can be streamed in)."""
        import numpy as np

        ids: dict[str, int] = {}
        terms_col, docs_col, tfs_col, lengths_col = array("i"), array("i"), array("i"), array("i")
        n = 0
        for i, doc in enumerate(documents):
            for term, tf in Counter(doc).items():
                j = ids.get(term)
                if j is None:
                    j = ids[term] = len(ids)
                terms_col.append(j)
                docs_col.append(i)
                tfs_col.append(tf)
            lengths_col.append(len(doc))
            n = i + 1
        lengths = np.asarray(lengths_col, dtype=np.float32)
        avg = float(lengths.mean()) if n and lengths.sum() else 1.0
        sorted_terms = sorted(ids)
        vocab = {term: j for j, term in enumerate(sorted_terms)}
        position = np.empty(len(ids), dtype=np.int32)
        position[[ids[t] for t in sorted_terms]] = np.arange(len(ids), dtype=np.int32)
        del ids
        term_of = position[np.frombuffer(terms_col, dtype=np.int32)] if len(terms_col) else None
        del terms_col
        counts = np.bincount(term_of, minlength=len(vocab)) if term_of is not None else None
        indptr = np.zeros(len(vocab) + 1, dtype=np.int64)
        if counts is not None:
            np.cumsum(counts, out=indptr[1:])
        if term_of is not None:
            # Postings of a term stay in document order (a stable sort of the appended rows).
            order = np.argsort(term_of, kind="stable")
            del term_of
            docs = np.frombuffer(docs_col, dtype=np.int32)[order]
            tfs = np.frombuffer(tfs_col, dtype=np.int32)[order].astype(np.float32)
            del order, docs_col, tfs_col
        else:
            docs = np.empty(0, dtype=np.int32)
            tfs = np.empty(0, dtype=np.float32)
        per_term = np.array(
            [np.log(1.0 + (n - df + 0.5) / (df + 0.5)) for df in indptr[1:] - indptr[:-1]],
            dtype=np.float32,
        )
        idf = np.repeat(per_term, indptr[1:] - indptr[:-1])
        norm = K1 * (1.0 - B + B * lengths[docs] / avg) if len(docs) else tfs
        weights = (idf * tfs * (K1 + 1.0) / (tfs + norm)).astype(np.float32)
        return cls(vocab, indptr, docs, weights, n)

    def scores(self, query_terms: Sequence[str]) -> np.ndarray:
        """BM25 score of every document for the query (repeated query terms count once)."""
        import numpy as np

        out = np.zeros(self.count, dtype=np.float32)
        for term in dict.fromkeys(query_terms):
            j = self.vocab.get(term)
            if j is None:
                continue
            lo, hi = int(self.indptr[j]), int(self.indptr[j + 1])
            out[self.docs[lo:hi]] += self.weights[lo:hi]
        return out

    def df(self, term: str) -> int:
        j = self.vocab.get(term)
        return 0 if j is None else int(self.indptr[j + 1] - self.indptr[j])

    def arrays(self) -> dict[str, Any]:
        return {"indptr": self.indptr, "docs": self.docs, "weights": self.weights}

    @classmethod
    def from_arrays(cls, vocab: Sequence[str], arrays: Any, count: int) -> BM25:
        return cls(
            {t: j for j, t in enumerate(vocab)},
            arrays["indptr"],
            arrays["docs"],
            arrays["weights"],
            count,
        )

    def terms(self) -> list[str]:
        return sorted(self.vocab, key=self.vocab.__getitem__)
