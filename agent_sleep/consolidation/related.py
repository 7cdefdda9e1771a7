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
RETIRE_AFTER = 5  # runs a weakly-learned item is replayed without reinforcement
NOT_CURRENT = frozenset({"History", "Contested"})
ARCHIVE = "memory-archive"


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
    # names as the whole bank writes them: "Globex's renewal date moved" opens with a name that
    # only the entries write mid-sentence ("the IT admin at Globex")
    known = distill.known_names(texts)
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
    """The weakly-learned items still open: those the latest run listed (its own and the ones
    it carried), minus those whose notes are now ``settled`` (cited by a MEMORY.md entry, or
    superseded) and those carried for ``RETIRE_AFTER`` runs already."""
    for line in reversed(journal_lines):
        if line.get("event") != "sleep" or "weakly_learned" not in line:
            continue
        out = []
        for item in line.get("weakly_learned") or []:
            if not isinstance(item, dict):
                continue
            sources = [str(s) for s in item.get("sources", []) if isinstance(s, str)]
            runs = int(item.get("runs", 0) or 0) if str(item.get("runs", 0)).isdigit() else 0
            if not item.get("text") or not sources or set(sources) & settled:
                continue
            if runs < RETIRE_AFTER:
                out.append({"text": str(item["text"]), "sources": sources, "runs": runs + 1})
        return out[:OPEN_WEAK]
    return []


def filed_pages(plan_texts: dict[Path, str], root: Path) -> dict[str, list[str]]:
    """Bank page (relative path) -> the note ids its entries cite, for the pages a run wrote."""
    out: dict[str, list[str]] = {}
    for path, text in plan_texts.items():
        rel = path.relative_to(root).as_posix()
        if not rel.startswith("bank/") or path.stem == ARCHIVE:
            continue  # the archive holds history, never rebuilt as current
        ids = {
            s
            for e in current_entries([(rel, text)])
            for s in e.note.meta.get("sources", "").split(",")
            if s
        }
        out[rel] = sorted(ids)
    return out


def deleted_pages(journal_lines: Sequence[dict[str, Any]], root: Path) -> set[str]:
    """Note ids filed on bank pages (by runs not rolled back) that no longer exist: their
    notes become pending again, so the next sleep rebuilds the page."""
    gone: set[str] = set()
    for line in journal_lines:
        if line.get("event") != "sleep" or not isinstance(line.get("filed"), dict):
            continue
        for rel, ids in line["filed"].items():
            if isinstance(rel, str) and isinstance(ids, list) and not (root / rel).exists():
                gone.update(str(i) for i in ids)
    return gone
