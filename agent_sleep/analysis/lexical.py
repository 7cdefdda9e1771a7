"""Cheap lexical tools for the offline consolidator: tokens, TF-IDF cosine, sentences, speakers.

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
# a sentence ends at . ! ? before a capital or a digit, not after a title or a common
# abbreviation ("Dr. Meyer", "St. Mary's", "approx. 40")
_SENT_RE = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")
_ABBREVIATION = re.compile(
    r"(?:\b(?:Dr|Mr|Ms|Mrs|St|Prof|vs|No|approx|Inc|Ltd|Co)|\be\.g|\bi\.e)\.$"
)
# a note's own label of what kind of remark it is, never a speaker ("Correction: the port is
# 5433", "FYI: ..."); group 1 holds those that mark what follows as a change of an earlier word
_DISCOURSE = (
    r"(?:(correction|corrected|update|updated|clarification|erratum|edit|fix)"
    r"|note|nb|fyi|reminder|heads[- ]up|psa|important|tip|warning|caveat|btw|decision|decided)"
)
DISCOURSE_RE = re.compile(rf"^{_DISCOURSE}\s*:\s+", re.I)
# the same label ended by a dash too ("Correction - the flight is TP1337", "Update—…"), where
# the label is all a currency rule reads, never a speaker
LABEL_RE = re.compile(rf"\s*{_DISCOURSE}(?:\s*:|\s*[–—]|\s+-\s)\s*", re.I)
_SPEAKER_RE = re.compile(r"^([A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,2}): ")
# who a note heard it from, before what they said: "Helen Pryce wrote: the rent goes up …",
# "Kwik Fit called — the service moved …", "Per Dr. Lee, …", "According to the vet, …". The
# source is not what the note is about; what follows is read as the note's own claim
REPORTED_RE = re.compile(
    r"^(?:(?:[A-Z][\w.'’&-]*|the|our|my)(?: [A-Z][\w.'’&-]*| (?:vet|pharmacy|office|clinic|"
    r"landlord|agent|bank|school|nurse|doctor|dentist|garage|council|team|client|supplier)){0,3}"
    r" (?:wrote|emailed|e-mailed|called|rang|phoned|texted|messaged|replied|confirmed|"
    r"mentioned|said|says|writes|confirms|let (?:us|me) know|told (?:us|me)|updated (?:us|me))"
    r"(?: (?:back|in|to say|that))?\s*(?::|—|–| - )\s*"
    r"|(?:[Pp]er|[Aa]ccording to) (?:[A-Z][\w.'’&-]*|the \w+)(?: [A-Z][\w.'’&-]*){0,2},\s+)(?=\S)"
)

# a source said before what it tells, as a letter or a call from someone: "Letter from
# Copyline: the lease goes up …" (who it is from is whose the news is)
SOURCE_LEAD_RE = re.compile(
    r"^\s*(?:an?\s+|the\s+)?(?:letter|e-?mail|message|call|phone call|text|note|notice|update"
    r"|news|invoice|statement|word)\s+(?:in\s+)?from\s+(?P<who>[^:;.!?]{1,60}?):\s+(?=\S)",
    re.I,
)

_NEGATION_RE = re.compile(
    r"\b(?:not|never|no longer|n't|don't|doesn't|didn't|won't|isn't|aren't|wasn't|stopped|quit"
    r"|dislikes?|hates?|rejected|avoid(?:s|ed)?)\b|n't\b",
    re.I,
)
_NUMBER_RE = re.compile(r"\b\d[\d,.:]*\b")

# a street address: a house number and a name ending in a street's word ("211 London Road",
# "14 Ladybarn Lane")
STREET_RE = re.compile(
    r"\b(?:(?:Unit|Suite)\s+)?\d{1,4}[A-Za-z]?,?\s+(?:[A-Z][\w'’-]*\s+){1,3}(?:Road|Rd|Street|St|"
    r"Lane|Ln|Avenue|Ave|Close|Drive|Dr|Way|Place|Pl|Square|Sq|Terrace|Crescent|Court|Ct|Gardens|"
    r"Grove|Row|Walk|Mews|Parade|Hill|Boulevard|Blvd|Yard|Wharf|Quay|Park|Dock|Estate|Centre|"
    r"Depot|Works|Mills?|Arches|Buildings)\b"
    # the name first, its street word at its end, then the number: "Holstenstraße 112",
    # "Max-Brauer-Allee 40", "Lindengracht 48"
    r"|\b[A-Z][\w'’-]*?(?i:straße|strasse|allee|weg|platz|gasse|damm|ufer|gracht|straat|laan|"
    r"plein|kade|vej|gade|gatan|vägen|veien)\s+\d{1,4}[a-z]?\b"
)


def tokens(text: str) -> list[str]:
    return [t for t in _TOKEN_RE.findall(text.lower()) if t not in STOPWORDS]


def unpossessed(word: str) -> str:
    """The word without a possessive's ending: "Lena's" is Lena."""
    return word.removesuffix("'s").removesuffix("’s")


def sentences(text: str) -> list[str]:
    out: list[str] = []
    for part in _SENT_RE.split(text.strip()):
        if out and _ABBREVIATION.search(out[-1]):
            out[-1] = f"{out[-1]} {part}"  # "Dr. Meyer": one sentence
        elif part.strip():
            out.append(part)
    return [s.strip() for s in out if s.strip()]


# what was done and to whom, no one's name: "Called Mr. Patel", "Emailed Dr Okafor", "Rang
# Sarah" (a title's name needs no verb before it: "Dr Okafor" is one)
_DONE_TO_RE = re.compile(
    r"(?:Called|Rang|Phoned|Emailed|E-mailed|Texted|Messaged|Met|Visited|Asked|Told|Paid|"
    r"Chased|Invoiced|Booked|Quoted)\s|\S+\s+(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?(?:\s|$)"
)


def split_speaker(text: str) -> tuple[str, str]:
    """``("Caroline: ", "I went …")`` for a chat turn, ``("", text)`` otherwise."""
    m = _SPEAKER_RE.match(text)
    if m is None or DISCOURSE_RE.match(text) or _DONE_TO_RE.match(m.group(1)):
        return ("", text)
    return (m.group(0), text[m.end() :])


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
        self.df = df
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
