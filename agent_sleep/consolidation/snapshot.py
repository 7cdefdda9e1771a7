"""What a sleep run reads: the window of daily logs, MEMORY.md and the bank, as one snapshot.

Read under the workspace lock; the rest of the run works on the snapshot without it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from agent_sleep.consolidation import journal, related
from agent_sleep.core import notes as fmt
from agent_sleep.core.errors import BadInput
from agent_sleep.core.log import warn_once
from agent_sleep.core.memory import MemoryDoc, one_line
from agent_sleep.core.notes import sources_of
from agent_sleep.core.workspace import Workspace

LOOKBACK_DAYS = 30
MAX_NOTE_CHARS = 16384  # a longer hand-written note is skipped (rest caps notes at 4 KiB)


@dataclass(frozen=True)
class DayNote:
    id: str
    date: str
    time: str
    type: str
    confidence: float | None
    text: str


@dataclass(frozen=True)
class Snapshot:
    window: list[DayNote]
    memory: list[fmt.Note]
    cited: frozenset[str]
    dream_texts: frozenset[str]
    bank_slugs: frozenset[str]
    marks: dict[str, set[str]]
    bank: tuple[related.BankEntry, ...] = ()
    superseded_notes: frozenset[str] = frozenset()  # cited by History entries
    # the entries bank pages hold as replaced (``superseded_by=``), by id: page, entry
    replaced: dict[str, tuple[str, fmt.Note]] = field(default_factory=dict)
    without_id: int = 0  # notes of the window's logs skipped for want of an id comment


def parse_since(since: str | dt.date | None, today: dt.date) -> dt.date:
    if since is None:
        return today - dt.timedelta(days=LOOKBACK_DAYS)
    if isinstance(since, dt.date):
        return since
    try:
        return dt.date.fromisoformat(str(since))
    except ValueError as e:
        raise BadInput(f"--since {since!r} is not a date (YYYY-MM-DD)") from e


def cited_ids(ws: Workspace, pages: list[Path] | None = None) -> set[str]:
    """Note ids cited (``sources=``) by MEMORY.md entries and bank pages (``pages``, listed
    here when not given)."""
    out: set[str] = set()
    for path in [ws.memory_md, *(ws.bank_pages() if pages is None else pages)]:
        for note in fmt.notes_in(ws.read_text(path)):
            out.update(sources_of(note))
    return out


def in_time_order(day_notes: list[DayNote]) -> list[DayNote]:
    """A day's notes by the time each was taken, not by where it sits in the log (``rest
    --when`` appends a note told later in the day before one told earlier); a note without a
    time stays after the one before it, and notes of one time keep their order."""
    times: list[str] = []
    for n in day_notes:
        times.append(n.time or (times[-1] if times else ""))
    order = sorted(range(len(day_notes)), key=lambda i: times[i])
    return [day_notes[i] for i in order]


def read_snapshot(ws: Workspace, since: dt.date, until: dt.date | None = None) -> Snapshot:
    """The notes of the logs from ``since`` to ``until`` (both included; no end by default:
    a run as of an earlier day, or a log dated after the run's day, leaves the later notes
    pending), with MEMORY.md and the bank as they are."""
    window: list[DayNote] = []
    dreams: set[str] = set()
    without_id = 0
    for path in ws.daily_logs():
        day = path.stem
        if day < since.isoformat() or (until is not None and day > until.isoformat()):
            continue
        no_id = too_long = 0
        day_notes: list[DayNote] = []
        for block in fmt.iter_blocks(ws.read_text(path)):
            n = block.note
            if n is None:
                continue
            if block.section in (fmt.DREAMS, fmt.NEXT_SESSION):
                if n.id:
                    dreams.add(one_line(n.text))
            elif not n.id:
                no_id += 1
            elif len(n.text) > MAX_NOTE_CHARS:
                too_long += 1
            else:  # under ## Retain, or hand-edited under another heading or none
                day_notes.append(DayNote(n.id, day, n.time or "", n.type, n.confidence, n.text))
        window += in_time_order(day_notes)
        without_id += no_id
        if no_id:
            warn_once(
                f"{path}: skipping {no_id} note{'s' if no_id != 1 else ''} with no id comment, "
                "which sleep cannot track (take notes with `agent-sleep rest`); the others "
                "are read"
            )
        if too_long:
            warn_once(
                f"{path}: skipping {too_long} note{'s' if too_long != 1 else ''} over "
                f"{MAX_NOTE_CHARS} characters (split them into smaller notes); the others are read"
            )
    memory = MemoryDoc(ws.read_text(ws.memory_md)).entries()
    listed = ws.bank_pages()  # a page caught in a symlink loop is skipped with a warning
    pages = [(p.relative_to(ws.root).as_posix(), ws.read_text(p)) for p in listed]
    held = [
        (rel, n) for rel, text in pages for n in fmt.notes_in(text) if n.meta.get("superseded_by")
    ]
    replaced: dict[str, tuple[str, fmt.Note]] = {}
    for rel, n in held:
        if n.id:
            replaced.setdefault(n.id, (rel, n))
    return Snapshot(
        bank=tuple(related.current_entries(pages)),
        superseded_notes=frozenset(i for _rel, n in held for i in sources_of(n)),
        replaced=replaced,
        window=window,
        memory=memory,
        cited=frozenset(cited_ids(ws, listed)),
        dream_texts=frozenset(dreams),
        bank_slugs=frozenset(p.stem for p in listed),
        marks=journal.load_watermark(ws),
        without_id=without_id,
    )
