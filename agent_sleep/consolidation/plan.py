"""What a consolidation run plans to write, what the model was shown, and the caps on what it
may send back.

:class:`Plan` is the result of :class:`~agent_sleep.consolidation.apply.Builder`: new texts for
MEMORY.md and bank pages, suffixes for daily logs, the decisions and drops, and the superseded
entries. :class:`Inputs` is what the model was shown: the ids it may cite. The caps bound what
is read from a model's answer before any processing (it is untrusted data).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_sleep.core.notes import Note, sources_of

# at most this share of the entries MEMORY.md held when the run began may leave it or have
# their text rewritten per run (remove, supersede, update/merge, budget eviction): one cap
REMOVAL_CAP = 0.25
MAX_TEXT_CHARS = 1200  # one MEMORY.md entry or log note
MAX_CONTENT_CHARS = 6000  # one bank entry
MAX_ITEMS = 2000  # items read from each list of an answer
ITEMS_PER_NOTE = 4  # items taken from a list that files notes, per note the run consolidates
MAX_DREAMS = 20  # lines a run writes under ## Dreams (connections and aha moments together)
MAX_NEXT_ACTIONS = 10  # lines a run writes under ## Next session
RAW_LIMIT = 4 * MAX_CONTENT_CHARS  # a longer model string is cut here before any processing
# drops that write nothing because what the item says is there already: its notes count as
# consolidated (every other drop refuses the item, and a note no applied item cites waits)
ALREADY_THERE = frozenset({"duplicate", "unchanged", "already_consolidated"})
# an entry REM seeded from notes NREM has not consolidated: its ``sources`` ground it but do not
# consolidate them (only NREM does), so they stay pending (``by=rem`` in its metadata)
SEEDED_BY = ("by", "rem")


def finite(value: Any) -> float | None:
    """``value`` as a finite float, or None (not a number, NaN, an infinity): Python's JSON
    reader accepts NaN and Infinity, and ``min``/``max`` clamp NaN to either bound."""
    if isinstance(value, bool):
        return None
    try:
        out = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return out if math.isfinite(out) else None


def bounded(value: Any) -> Any:
    """``value`` with every string cut to ``RAW_LIMIT + 1`` characters: still over every cap
    (so dropped as oversized), but redaction and normalization no longer scale with what the
    model sent (a 10 MB field took minutes)."""
    if isinstance(value, str):
        return value[: RAW_LIMIT + 1]
    if isinstance(value, dict):
        return {k: bounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [bounded(v) for v in value[:MAX_ITEMS]]
    return value


def consolidating_sources(note: Note) -> list[str]:
    """The note ids ``note`` consolidates: its ``sources``, unless REM seeded it from notes NREM
    had not consolidated (``by=rem``)."""
    key, value = SEEDED_BY
    return [] if note.meta.get(key) == value else sources_of(note)


def merge_ids(*groups: Iterable[str]) -> list[str]:
    """The ids of ``groups`` in order of first appearance, without blanks or repeats."""
    return list(dict.fromkeys(i for g in groups for i in g if i))


@dataclass
class Plan:
    texts: dict[Path, str] = field(default_factory=dict)  # full new text
    appends: dict[Path, str] = field(default_factory=dict)  # suffix to append (daily logs)
    originals: dict[Path, str | None] = field(default_factory=dict)
    decisions: Counter[str] = field(default_factory=Counter)
    dropped: Counter[str] = field(default_factory=Counter)
    superseded: list[dict[str, Any]] = field(default_factory=list)
    deferred: set[str] = field(default_factory=set)  # notes left pending (over the cap)
    # notes left pending because every item citing them was refused (unknown id, ungrounded,
    # oversized, bad slug …): nothing the run writes consolidates them, the next run reads them
    unapplied: set[str] = field(default_factory=set)

    def changed(self) -> list[Path]:
        out = [p for p, t in self.texts.items() if self.originals.get(p) != t]
        return sorted(out + [p for p, s in self.appends.items() if s])


@dataclass(frozen=True)
class Inputs:
    """What the model was shown: the ids it may cite and the dates of the notes."""

    note_dates: dict[str, str]  # daily-note id -> log date
    note_types: dict[str, str]
    memory_ids: frozenset[str]
    cited: frozenset[str]  # note ids already cited by MEMORY.md or a bank page
    dream_texts: frozenset[str]  # normalized texts already under Dreams / Next session
    bank_entries: dict[str, str] = field(default_factory=dict)  # bank entry id shown -> page
    note_confidences: dict[str, float] = field(default_factory=dict)  # the O notes' own
    # notes of a REM-only run (``--phase rem``) that NREM has not consolidated yet: a bank page
    # REM seeds from them does not consolidate them (``SEEDED_BY``)
    awaiting_nrem: frozenset[str] = frozenset()
    # each note's text as the model read it (redacted, its relative dates resolved), and the
    # pieces of every text it was shown: an item's numbers must come from the notes it cites
    # (or the entry it rewrites), its names from those or what it was shown
    # (``analysis.grounding``); without them (a caller that keeps no texts) nothing is checked
    note_texts: dict[str, str] = field(default_factory=dict)
    shown: frozenset[str] = frozenset()
    # REM's dreams and actions checked the same way: a model's (the offline consolidator builds
    # them from the notes and entries themselves, excerpts cut mid-value among them)
    check_rem: bool = True
