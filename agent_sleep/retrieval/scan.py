"""The first search over a large backlog, answered from the files while the index is built.

A search that finds ``SCAN_FROM`` bytes or more of notes that are not indexed (a log imported
in bulk, a workspace copied from elsewhere) would otherwise wait while every note is parsed,
BM25-indexed and written: about 14 s at 100k notes, before any embedding. Instead it starts
the background job (``backlog``: it builds the index, then embeds it) and answers from the files
themselves, BM25 alone (nothing is embedded yet):

- Each daily log is split into its blocks without parsing them (``notes.iter_spans``). A note
  is parsed only if its own lines, or those of the note before it (whose last words its BM25
  text carries), contain a query term, or the log's date does: a query of a few words reads a
  share of the notes. MEMORY.md and bank pages are small and read whole.
- Scores are BM25 over the whole collection: the unit count is exact, and so is each query
  term's document frequency (every unit that holds a term is read); the total length, and the
  length of a unit whose words hold no query term (a note read for the words it carries from
  the note before, or those carried words), are estimated from their characters at the ratio
  of terms to characters of the text read.
- The ``KEEP`` best of them make an index in memory (never written, never cached), which
  ``recall`` ranks and packs as usual. Terms that are not in the query (pseudo-relevance
  feedback of deep requests) see document frequencies among those kept only.

The next searches do the same until the background job has written the BM25 index (they then
use it, with the vectors it has so far), so a session can work at once however large the
backlog. Without a way to run the job (no ``fcntl``) the search builds the index itself.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from agent_sleep.core import notes
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval.bm25 import BM25, K1, B, Segment, tokenize
from agent_sleep.retrieval.index_store import Loaded, Record, no_cycle_collection
from agent_sleep.retrieval.units import (
    CONTEXT_WORDS,
    Unit,
    _valid_date,
    iter_units,
    log_unit,
)

if TYPE_CHECKING:
    import numpy as np

SCAN_FROM = 2_000_000  # bytes of files not indexed from which a search reads them directly
KEEP = 2000  # units the answer's index holds: its best by BM25
WORD_CHARS = 7  # a word's characters with its space, to cap a previous note's share of a text
_APOSTROPHES = str.maketrans("", "", "'\u2019")


def probes(terms: Sequence[str]) -> re.Pattern[str] | None:
    """A pattern that every text holding one of ``terms`` (BM25 terms) matches, once lowered and
    without apostrophes: a stem is a prefix of the words it comes from, except that "ies"
    became "y" (so a trailing "y" is left out)."""
    parts = {t[:-1] if len(t) > 1 and t.endswith("y") else t for t in terms}
    if not parts:
        return None
    return re.compile("|".join(re.escape(p) for p in sorted(parts)))


def _hit_lines(probe: re.Pattern[str], text: str) -> set[int]:
    """The numbers of the lines of ``text`` (as ``splitlines`` splits it) that may hold a
    term: lowering and dropping apostrophes never adds or removes a line break."""
    low = text.lower().translate(_APOSTROPHES)
    starts = list(itertools.accumulate(map(len, low.splitlines(keepends=True))))
    return {bisect.bisect_right(starts, m.start()) for m in probe.finditer(low)}


_Entry = tuple[list[str], "re.Match[str]"]  # a note's lines and the match of its head


@dataclass
class _Found:
    """What the scan gathers: the units that may match (a log note as what makes its unit,
    built only if kept), their BM25 terms, and the size of the rest of the collection."""

    # a log note: its lines and head, the note before it (its text, or its lines and head
    # when it was not parsed), path, day, section
    units: list[Unit | tuple[_Entry, str | _Entry | None, str, str, str | None]] = field(
        default_factory=list
    )
    terms: list[list[str]] = field(default_factory=list)
    # characters of note text in a unit's BM25 text whose terms were not taken (words that
    # hold no query term count only by their number, estimated from their characters)
    guessed: list[int] = field(default_factory=list)
    count: int = 0  # units in the collection, read or not
    unread_terms: int = 0  # terms known to be in the units not read (their dates')
    unread_chars: int = 0  # characters of note text in the units not read
    text_terms: int = 0  # terms and characters of the texts read, for the ratio of the two
    text_chars: int = 0

    def add(self, unit: Unit) -> None:
        self.units.append(unit)
        text = unit.indexed
        self.terms.append(tokenize(text))
        self.guessed.append(0)
        self.read(len(self.terms[-1]), len(text))
        self.count += 1

    def add_note(self, entry: _Entry, terms: list[str], guessed: int,
                 previous: str | _Entry | None, path: str, day: str,
                 section: str | None) -> None:  # fmt: skip
        """A log note that may match: what makes its unit, the terms of its BM25 text
        (``units.log_context``) that were read, and the characters of note text that were
        not."""
        self.units.append((entry, previous, path, day, section))
        self.terms.append(terms)
        self.guessed.append(guessed)
        self.count += 1

    def read(self, terms: int, chars: int) -> None:
        self.text_terms += terms
        self.text_chars += chars

    def ratio(self) -> float:
        """BM25 terms per character of the texts read."""
        return self.text_terms / self.text_chars if self.text_chars else 0.15

    def unit(self, row: int) -> Unit:
        got = self.units[row]
        if isinstance(got, Unit):
            return got
        (lines, head), previous, path, day, section = got
        if isinstance(previous, tuple):
            previous = notes.text_of(*previous)
        return log_unit(notes.note_of(lines, head), previous, path, day, section)

    def exact_terms(self, row: int, unit: Unit) -> list[str]:
        """All the BM25 terms of ``unit``, the one at ``row``."""
        return tokenize(unit.indexed) if self.guessed[row] else self.terms[row]


def _body(raw: str, head: re.Match[str]) -> int:
    """About how many characters a note's text has: its lines less the head and metadata."""
    meta = raw.rfind(" <!-- id=")
    return (meta if meta >= 0 else len(raw)) - head.end()


def _last_words(text: str, terms: list[str] | None) -> list[str]:
    """The terms of the last ``CONTEXT_WORDS`` words of ``text`` (``terms``: all of its terms,
    when known; they are those when the text is that short)."""
    words = text.split()
    if len(words) <= CONTEXT_WORDS and terms is not None:
        return terms
    return tokenize(" ".join(words[-CONTEXT_WORDS:]))


def _scan_log(found: _Found, rel: str, text: str, day: str, probe: re.Pattern[str]) -> None:
    lines = text.splitlines(keepends=True)
    hits = _hit_lines(probe, text)
    every = probe.search(day) is not None  # the date is in every unit's BM25 text
    # the note before: (its lines' span, head, whether it may hold a term, its text's length),
    # and its text once parsed
    previous: tuple[int, int, re.Match[str], bool, int] | None = None
    previous_text: str | None = None
    previous_terms: list[str] | None = None  # its terms, if it was read
    # a log note's BM25 text is "DAY: TEXT (after: LAST WORDS OF THE NOTE BEFORE)"; the
    # separators are not words and "after" is a stopword, so its terms are the day's, the
    # text's, and those of the words before (the note before's own, when it is that short)
    day_terms = tokenize(day)
    cap = CONTEXT_WORDS * WORD_CHARS
    for i, j, heading, head, section in notes.iter_spans(lines):
        if heading is not None:
            previous, previous_text, previous_terms = None, None, None
            continue
        if head is None:
            continue
        part = lines[i:j]
        if notes.blank_note(part, head):
            continue  # not a unit, and not the note before the next one
        hit = i in hits or (j > i + 1 and not hits.isdisjoint(range(i + 1, j)))
        carried = previous is not None and previous[3]  # the note before may hold a term
        if every or hit:
            said = notes.text_of(part, head)
            said_terms = tokenize(said)
            found.read(len(said_terms), len(said))
            terms = day_terms + said_terms
            guessed = 0
            before: str | _Entry | None = None
            if previous is not None and previous_text is not None:  # read: its terms count
                terms += _last_words(previous_text, previous_terms)
                before = previous_text
            elif previous is not None:  # not read: it holds no query term, so only its length
                guessed = min(previous[4], cap)  # counts, estimated from its characters
                before = (lines[previous[0] : previous[1]], previous[2])
            found.add_note((part, head), terms, guessed, before, rel, day, section)
            previous_text, previous_terms = said, said_terms
            length = len(said)
        elif carried and previous_text is not None:
            # its own words hold no query term (so they count by their length alone), those
            # it carries from the note before may
            length = _body(part[0] if j == i + 1 else "".join(part), head)
            terms = day_terms + _last_words(previous_text, previous_terms)
            found.add_note((part, head), terms, length, previous_text, rel, day, section)
            previous_text, previous_terms = None, None
        else:
            length = _body(part[0] if j == i + 1 else "".join(part), head)
            found.unread_terms += len(day_terms)
            found.unread_chars += length + (min(previous[4], cap) if previous is not None else 0)
            found.count += 1
            previous_text, previous_terms = None, None
        previous = (i, j, head, hit, length)


def _bm25(
    found: _Found, terms: list[str], total: int, ratio: float
) -> tuple[np.ndarray, dict[str, int]]:
    """The BM25 score of every unit read (as ``bm25.BM25`` computes it over the whole
    collection), and each query term's document frequency."""
    import numpy as np

    lengths = np.fromiter((len(t) for t in found.terms), np.float64, len(found.terms))
    lengths += ratio * np.asarray(found.guessed, np.float64)
    avg = total / found.count if found.count and total else 1.0
    norm = K1 * (1.0 - B + B * lengths / avg)
    scores = np.zeros(len(found.terms))
    df = {}
    for term in terms:
        tf = np.fromiter((t.count(term) for t in found.terms), np.float64, len(found.terms))
        df[term] = int(np.count_nonzero(tf))
        idf = math.log(1.0 + (found.count - df[term] + 0.5) / (df[term] + 0.5))
        scores += idf * tf * (K1 + 1.0) / (tf + norm)
    return scores, df


def answer_index(ws: Workspace, query: str, current: dict[str, list[int]]) -> Loaded:
    """An index in memory of the ``KEEP`` units of the files of ``current`` that score best by
    BM25 for ``query``, with the collection statistics of all of them (see the module doc)."""
    with no_cycle_collection():
        return _answer_index(ws, query, current)


def _answer_index(ws: Workspace, query: str, current: dict[str, list[int]]) -> Loaded:
    import numpy as np

    from agent_sleep.retrieval.index import _add_sources, _hash, index_dir

    terms = list(dict.fromkeys(tokenize(query)))
    probe = probes(terms)
    found = _Found()
    for rel in current:
        try:
            text = ws.read_text(ws.root / rel)
        except OSError:
            continue
        day = _valid_date(rel.rsplit("/", 1)[-1].removesuffix(".md"))
        if rel.startswith("memory/") and day:
            if probe is not None:
                _scan_log(found, rel, text, day, probe)
            continue
        for unit in iter_units(rel, text):
            found.add(unit)
    # the texts read give the ratio of BM25 terms to characters for the others
    ratio = found.ratio()
    guessed = found.unread_chars + sum(found.guessed)
    total = sum(len(t) for t in found.terms) + found.unread_terms + round(ratio * guessed)
    scores, df = _bm25(found, terms, total, ratio)
    best = np.flatnonzero(scores > 0)
    best = best[np.argsort(-scores[best], kind="stable")[:KEEP]]
    # MEMORY.md and bank pages are always kept (they are few)
    always = (i for i, u in enumerate(found.units) if isinstance(u, Unit))
    rows = sorted(set(best.tolist()).union(always))
    kept = [found.unit(r) for r in rows]
    kept_terms = [found.exact_terms(r, u) for r, u in zip(rows, kept, strict=True)]
    outside = {t: df[t] - sum(1 for k in kept_terms if t in k) for t in terms}
    records = [Record.of_unit(u) for u in kept]
    _add_sources(records, {})
    files = {rel: [st[0], st[1], 0] for rel, st in current.items()}
    for u in kept:
        files[u.path][2] += 1
    segment = Segment.build(kept_terms)
    return Loaded(
        generation="scan",
        files=files,
        records=records,
        hashes=[_hash(u) for u in kept],
        bm25=BM25((segment,), found.count, total, outside),
        vectors=None,
        model=None,
        folder=index_dir(ws),
        pending=found.count,
    )
