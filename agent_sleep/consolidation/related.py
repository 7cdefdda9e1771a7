"""What NREM is shown next to the new notes: the existing entries most related to them.

MEMORY.md is shown whole (it is budgeted). Bank pages can hold thousands of entries, so only
the current ones (not under History or Contested, not superseded) most similar to the batch
are shown: per note, the ``PER_NOTE`` best bank entries by TF-IDF cosine over the same
word tokens recall uses, above ``MIN_SIMILARITY``, plus every entry that shares a name with a
note. Each carries its id (a supersede may name it) and its page.

Also here: the weakly-learned items of earlier runs that are still open (their notes not yet
reinforced or superseded), which the next NREM lists in its slow-track input, and the bank
pages deleted since they were written (their notes become pending again so the page is
rebuilt).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent_sleep.analysis import distill, lexical
from agent_sleep.core import notes as fmt

PER_NOTE = 4
MIN_SIMILARITY = 0.2
MAX_RELATED = 200
OPEN_WEAK = 20
NOT_CURRENT = frozenset({"History", "Contested"})


@dataclass(frozen=True)
class BankEntry:
    page: str  # workspace-relative path
    note: fmt.Note


def current_entries(pages: Iterable[tuple[str, str]]) -> list[BankEntry]:
    """The current entries of bank pages given as (relative path, text)."""
    out = []
    for rel, text in pages:
        for block in fmt.iter_blocks(text):
            n = block.note
            if n is None or not n.id or block.section in NOT_CURRENT:
                continue
            if n.meta.get("superseded_by"):
                continue
            out.append(BankEntry(rel, n))
    return out


def related(notes: Sequence[str], entries: Sequence[BankEntry]) -> list[BankEntry]:
    """The bank entries most related to ``notes`` (see the module docstring)."""
    if not notes or not entries:
        return []
    texts = [*notes, *(e.note.text for e in entries)]
    known = distill.known_names(notes)
    names = {n.lower() for t in notes for n in distill.names(t, known)}
    sim = lexical.TfIdf(texts).similarity()
    k = len(notes)
    chosen: dict[int, float] = {}
    for i in range(k):
        row = sim[i, k:]
        for j in row.argsort()[::-1][:PER_NOTE]:
            if row[j] >= MIN_SIMILARITY:
                chosen[int(j)] = max(chosen.get(int(j), 0.0), float(row[j]))
    for j, e in enumerate(entries):
        if names and {n.lower() for n in distill.names(e.note.text, known)} & names:
            chosen.setdefault(j, 0.0)
    best = sorted(chosen, key=lambda j: (-chosen[j], j))[:MAX_RELATED]
    return [entries[j] for j in sorted(best)]


def payload(entries: Sequence[BankEntry]) -> list[dict[str, Any]]:
    return [
        {
            "id": e.note.id,
            "type": e.note.type,
            "confidence": e.note.confidence,
            "text": e.note.text,
            "date": e.note.meta.get("date", ""),
            "page": e.page,
        }
        for e in entries
    ]


def open_weak(journal_lines: Sequence[dict[str, Any]], settled: set[str]) -> list[dict[str, Any]]:
    """Weakly-learned items of earlier runs whose notes are not ``settled`` (cited by a current
    MEMORY.md entry or superseded): newest first, at most ``OPEN_WEAK``."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for line in reversed(journal_lines):
        if line.get("event") != "sleep":
            continue
        for item in line.get("weakly_learned", []) or []:
            if not isinstance(item, dict):
                continue
            text = str(item.get("text", ""))
            sources = [str(s) for s in item.get("sources", []) if isinstance(s, str)]
            if not text or text in seen or not sources or set(sources) & settled:
                continue
            seen.add(text)
            out.append({"text": text, "sources": sources, "since": str(line.get("time", ""))})
            if len(out) >= OPEN_WEAK:
                return out
    return out


def deleted_pages(marks_pages: dict[str, list[str]], root: Path) -> set[str]:
    """Note ids cited by bank pages that a run wrote and that no longer exist."""
    gone: set[str] = set()
    for rel, ids in marks_pages.items():
        if not (root / rel).exists():
            gone.update(ids)
    return gone
