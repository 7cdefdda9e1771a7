"""Cheap lexical tools for the offline consolidator: tokens, TF-IDF cosine, entities, sentences.

Deliberately light (numpy only): sleep must stay fast and must not load an embedding model.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its
    itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    also really yeah yes oh wow hey hi hello thanks thank ok okay great cool awesome lol haha
    sure totally definitely gonna got get like just much well that's it's i'm you're i've we're
    don't didn't can't won't isn't wasn't let let's one im ive dont thats""".split()  # noqa: SIM905
)
_TOKEN_RE = re.compile(r"[a-z0-9][a-z0-9'+#.-]*[a-z0-9+#]|[a-z0-9]")
_SENT_RE = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")
_SPEAKER_RE = re.compile(r"^([A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,2}): ")
_CAPS_RE = re.compile(r"\b[A-Z][A-Za-z0-9&'’-]*(?:\s+(?:of\s+|the\s+)?[A-Z][A-Za-z0-9&'’-]*)*")
_NEGATION_RE = re.compile(
    r"\b(?:not|never|no longer|n't|don't|doesn't|didn't|won't|isn't|aren't|wasn't|stopped|quit"
    r"|dislikes?|hates?|rejected|avoid(?:s|ed)?)\b|n't\b",
    re.I,
)
_VERBISH_RE = re.compile(r"(?:ed|ing|ly|s)$")
_NUMBER_RE = re.compile(r"\b\d[\d,.:]*\b")
_CAPITAL_STOP = frozenset(
    """I I'm I've I'll I'd The A An It It's This That These Those We We're You You're He She They
    My Our Your His Her Their But And Or So If When What Why How Where Who Which Yes No Oh Wow
    Hey Hi Hello Thanks Thank Sure Well Yeah Ok Okay Haha Lol Great Cool Awesome Nice Good Also
    Just Really That's There There's Here Let Let's Do Did Does Is Are Was Were Have Has Had Can
    Could Would Should Will Not Maybe Sounds Glad Congrats Congratulations Absolutely Totally
    Definitely Agreed Exactly Me Mine Today Tomorrow Yesterday Tonight Monday Tuesday Wednesday
    Thursday Friday Saturday Sunday January February March April May June July August September
    October November December""".split()  # noqa: SIM905
)


def tokens(text: str) -> list[str]:
    return [t for t in _TOKEN_RE.findall(text.lower()) if t not in STOPWORDS]


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENT_RE.split(text.strip()) if s.strip()]


def split_speaker(text: str) -> tuple[str, str]:
    """``("Caroline: ", "I went …")`` for a chat turn, ``("", text)`` otherwise."""
    m = _SPEAKER_RE.match(text)
    return (m.group(0), text[m.end() :]) if m else ("", text)


def entities(text: str, known: frozenset[str] | None = None) -> list[str]:
    """Capitalised names in ``text`` (people, places, products), speaker label excluded.

    A single capitalised word opening a sentence may just be its first word ("Deployed v2"), so
    it counts only when ``known`` (names seen mid-sentence elsewhere) holds it, or, without
    ``known``, when it does not look like a verb or adverb."""
    _, body = split_speaker(text)
    out: list[str] = []
    for m in _CAPS_RE.finditer(body):
        words = [w for w in m.group(0).split() if w not in _CAPITAL_STOP]
        while words and words[0].lower() in ("of", "the"):
            words.pop(0)
        name = " ".join(words).strip("'’-")
        if len(name) <= 1 or name in out:
            continue
        if len(words) == 1 and _sentence_start(body, m.start()):
            if known is not None and name not in known:
                continue
            if known is None and _VERBISH_RE.search(name):
                continue
        out.append(name)
    return out


def mid_sentence_names(texts: list[str]) -> frozenset[str]:
    """Names capitalised somewhere other than at a sentence start, plus sentence-opening words
    that open two texts or more and do not look like verbs ("Alice owns …", "Alice said …")."""
    out: set[str] = set()
    openers: Counter[str] = Counter()
    for text in texts:
        _, body = split_speaker(text)
        for m in _CAPS_RE.finditer(body):
            words = [w for w in m.group(0).split() if w not in _CAPITAL_STOP]
            if _sentence_start(body, m.start()) and len(words) == 1:
                openers[words[0]] += 1
            else:
                out.update(words)
    out.update(w for w, c in openers.items() if c >= 2 and not _VERBISH_RE.search(w))
    return frozenset(out)


def _sentence_start(body: str, at: int) -> bool:
    before = body[:at].rstrip(" \"'([")
    return not before or before[-1] in ".!?:;\n"


def numbers(text: str) -> int:
    return len(_NUMBER_RE.findall(text))


def negated(text: str) -> bool:
    return bool(_NEGATION_RE.search(text))


class TfIdf:
    """TF-IDF vectors over a fixed corpus, with cosine similarity between its documents."""

    def __init__(self, docs: Sequence[str]) -> None:
        import numpy as np

        self.toks = [tokens(d) for d in docs]
        n = len(docs)
        df: Counter[str] = Counter()
        for ts in self.toks:
            df.update(set(ts))
        self.idf = {t: math.log((1 + n) / (1 + c)) + 1.0 for t, c in df.items()}
        shared = sorted(t for t, c in df.items() if c >= 2)
        index = {t: i for i, t in enumerate(shared)}
        matrix = np.zeros((n, max(len(shared), 1)), dtype=np.float32)
        norms = np.zeros(n, dtype=np.float32)
        for row, ts in enumerate(self.toks):
            weights = self.weights(ts)
            norms[row] = math.sqrt(sum(w * w for w in weights.values())) or 1.0
            for t, w in weights.items():
                col = index.get(t)
                if col is not None:
                    matrix[row, col] = w
        # Only terms shared by two documents can contribute to a cosine between two of them,
        # so the matrix keeps those while the norms count every term.
        self.matrix: Any = matrix / norms[:, None]
        self.index = index

    def weights(self, toks: Sequence[str]) -> dict[str, float]:
        tf = Counter(toks)
        return {t: (1 + math.log(c)) * self.idf.get(t, 1.0) for t, c in tf.items()}

    def similarity(self) -> Any:
        """The n×n cosine matrix (diagonal set to 0)."""
        import numpy as np

        sim = self.matrix @ self.matrix.T
        np.fill_diagonal(sim, 0.0)
        return sim

    def top_terms(self, row: int, k: int = 3) -> list[str]:
        weights = self.weights(self.toks[row])
        return [t for t, _ in sorted(weights.items(), key=lambda kv: (-kv[1], kv[0]))[:k]]


def cosine(a: str, b: str) -> float:
    """Cosine of two texts' raw term counts (no corpus needed)."""
    ca, cb = Counter(tokens(a)), Counter(tokens(b))
    dot = sum(ca[t] * cb[t] for t in ca)
    if not dot:
        return 0.0
    return dot / math.sqrt(sum(v * v for v in ca.values()) * sum(v * v for v in cb.values()))
