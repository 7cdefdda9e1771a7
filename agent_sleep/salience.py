"""Salience scoring (stage 1 of consolidation), run in code before any model sees the notes.

Each note gets ``0.4 * downstream + 0.3 * recency + 0.3 * density`` (the weights of "The
Sleeping Agent"), where

- downstream: the highest TF-IDF cosine between the note and any later note of the window
  (what keeps coming up matters);
- recency: the note's rank in time order over the window, divided by the window's size;
- density: named entities, numbers and temporal expressions per token, length-normalised.

Downstream similarity and density enter as percentile ranks within the window (the share of
other notes scoring lower), like recency. TF-IDF cosines run lower than the paper's MiniLM
cosines and chat turns carry few names, so raw values would leave every note in the bottom
tiers; ranks keep the tiers meaningful whatever the similarity measure: a note must stand out
from its own window.

Tiers: ``keep`` (>= 0.6, kept verbatim), ``condense`` (0.3-0.6), ``prune`` (< 0.3). Protected
categories never fall to ``prune``: notes holding a temporal expression (dates are what generic
summaries lose first), world facts and opinions the agent wrote on purpose (W and O notes).
The score depends only on the window's notes, not on which of them are pending, so scoring the
same logs twice gives the same tiers.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from agent_sleep import lexical, temporal

W_DOWNSTREAM, W_RECENCY, W_DENSITY = 0.4, 0.3, 0.3
KEEP, CONDENSE = 0.6, 0.3
DENSITY_SCALE = 2.5
MIN_TOKENS = 12
MAX_WINDOW = 4000


@dataclass(frozen=True)
class Scored:
    id: str
    salience: float
    tier: str  # keep | condense | prune
    downstream: float  # raw values; the score uses their percentile ranks
    recency: float
    density: float


def density(text: str) -> float:
    items = len(lexical.entities(text)) + lexical.numbers(text) + len(temporal.extract(text))
    n = len(lexical.tokens(lexical.split_speaker(text)[1]))
    return min(1.0, DENSITY_SCALE * items / max(n, MIN_TOKENS))


def tier_of(salience: float, note_type: str, text: str) -> str:
    tier = "keep" if salience >= KEEP else "condense" if salience >= CONDENSE else "prune"
    if tier == "prune" and (note_type in ("W", "O") or temporal.has_temporal(text)):
        return "condense"
    return tier


def score(window: Sequence[tuple[str, str, str]]) -> dict[str, Scored]:
    """Score ``(id, type, text)`` triples given in time order; returns id -> score."""
    window = list(window)[-MAX_WINDOW:]
    n = len(window)
    if n == 0:
        return {}
    sim = lexical.TfIdf([text for _, _, text in window]).similarity()
    downs = [float(sim[i, i + 1 :].max()) if i + 1 < n else 0.0 for i in range(n)]
    dens = [density(text) for _, _, text in window]
    down_rank, den_rank = percentiles(downs), percentiles(dens)
    out: dict[str, Scored] = {}
    for i, (note_id, note_type, text) in enumerate(window):
        rec = (i + 1) / n
        s = round(W_DOWNSTREAM * down_rank[i] + W_RECENCY * rec + W_DENSITY * den_rank[i], 4)
        out[note_id] = Scored(note_id, s, tier_of(s, note_type, text), downs[i], rec, dens[i])
    return out


def percentiles(values: Sequence[float]) -> list[float]:
    """Share of the other values strictly below each value: 0 for the lowest (and for a note
    tied at the bottom, e.g. with no similarity at all), 1 for the highest."""
    ordered = sorted(values)
    n = len(values)
    if n < 2:
        return [0.0] * n
    return [bisect.bisect_left(ordered, v) / (n - 1) for v in values]
