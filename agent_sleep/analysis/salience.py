"""Salience scoring (stage 1 of consolidation), run in code before any model sees the notes.

Each note gets ``0.4 * downstream + 0.3 * recency + 0.3 * density`` (the weights of "The
Sleeping Agent"), where

- downstream: the highest TF-IDF cosine between the note and any later note of the window
  (what keeps coming up matters);
- recency: the note's rank in time order over the window, divided by the window's size;
- density: the information in the note's best sentence
  (:func:`agent_sleep.analysis.distill.information`: content words, names, numbers, temporal
  expressions, first-person statements; questions and reactions count against it).

Downstream similarity and density enter as percentile ranks within the window (the share of
other notes scoring lower), like recency. TF-IDF cosines run lower than the paper's MiniLM
cosines and chat turns carry few names, so raw values would leave every note in the bottom
tiers; ranks keep the tiers meaningful whatever the similarity measure: a note must stand out
from its own window.

Tiers: ``keep`` (>= 0.6: every informative sentence kept verbatim), ``condense`` (0.3-0.6: the
most informative sentences only), ``prune`` (< 0.3, or small talk: no informative sentence at
all, whatever the rank). A low-ranked note still holding a clear fact
(:data:`agent_sleep.analysis.distill.STRONG`) is condensed, not pruned. Protected categories
never fall to ``prune``: notes holding a date, time or age (dates are what generic summaries
lose first), world facts and opinions the agent wrote on purpose (W and O notes). A B or S
note the agent wrote itself (no ``Speaker:`` label) is pruned only as small talk, never for
its rank: ranking within a window always puts some note last, and an agent's own experience
note was written because it mattered.
The score depends only on the window's notes, not on which of them are pending, so scoring the
same logs twice gives the same tiers.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from agent_sleep.analysis import distill, lexical, temporal
from agent_sleep.analysis.vital import vital as vital  # sleep reads salience.vital

W_DOWNSTREAM, W_RECENCY, W_DENSITY = 0.4, 0.3, 0.3
KEEP, CONDENSE = 0.6, 0.3
CONCRETE = frozenset({"date", "time", "age"})
MAX_WINDOW = 4000


@dataclass(frozen=True)
class Scored:
    id: str
    salience: float
    tier: str  # keep | condense | prune
    downstream: float  # raw values; the score uses their percentile ranks
    recency: float
    density: float


def density(text: str, known: frozenset[str] | None = None) -> float:
    return max(0.0, distill.information(text, known))


def tier_of(salience: float, note_type: str, text: str, info: float | None = None) -> str:
    if note_type in ("W", "O") or any(e.kind in CONCRETE for e in temporal.extract(text)):
        return "keep" if salience >= KEEP else "condense"
    info = distill.information(text) if info is None else info
    if info < distill.INFORMATIVE:
        return "prune"
    # A note the agent wrote itself (no speaker label, unlike a chat turn) was worth writing:
    # its rank within a window never prunes it, only having nothing informative in it does.
    own = not lexical.split_speaker(text)[0]
    if salience < CONDENSE and info < distill.STRONG and not own:
        return "prune"
    return "keep" if salience >= KEEP else "condense"


def score(window: Sequence[tuple[str, str, str]]) -> dict[str, Scored]:
    """Score ``(id, type, text)`` triples given in time order; returns id -> score."""
    window = list(window)[-MAX_WINDOW:]
    n = len(window)
    if n == 0:
        return {}
    texts = [text for _, _, text in window]
    sim = lexical.TfIdf(texts).similarity()
    downs = [float(sim[i, i + 1 :].max()) if i + 1 < n else 0.0 for i in range(n)]
    known = distill.known_names(texts)
    dens = [density(text, known) for text in texts]
    down_rank, den_rank = percentiles(downs), percentiles(dens)
    out: dict[str, Scored] = {}
    for i, (note_id, note_type, text) in enumerate(window):
        rec = (i + 1) / n
        s = round(W_DOWNSTREAM * down_rank[i] + W_RECENCY * rec + W_DENSITY * den_rank[i], 4)
        tier = tier_of(s, note_type, text, dens[i])
        out[note_id] = Scored(note_id, s, tier, downs[i], rec, dens[i])
    return out


def percentiles(values: Sequence[float]) -> list[float]:
    """Share of the other values strictly below each value: 0 for the lowest (and for a note
    tied at the bottom, e.g. with no similarity at all), 1 for the highest."""
    ordered = sorted(values)
    n = len(values)
    if n < 2:
        return [0.0] * n
    return [bisect.bisect_left(ordered, v) / (n - 1) for v in values]


# what an assistant must have at every session start, however short the note: health and
# diet (an allergy, a condition, a medication), a name, pronouns
