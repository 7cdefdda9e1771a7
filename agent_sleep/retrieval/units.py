"""The workspace split into recall units: what one search result can be.

- ``memory``: one MEMORY.md entry (``sources=`` names the daily notes it cites; ``date=`` if set);
  a list item written by hand without a type prefix ("- Prefers tea") is a W entry,
- ``bank``: one ``## Section`` of a bank page (entries carry ``sources=`` too), long sections
  split into chunks of whole entries; an entry of a ``## History`` section, or one marked
  ``superseded_by=`` anywhere, is a unit of its own, found and labelled with its own
  successor (a whole History was one hit of every replaced value of the page),
- ``log``: one note of a daily log, dated by the log's file name,
- ``window``: ``WINDOW_NOTES`` consecutive notes of one daily log (a new one every
  ``WINDOW_STRIDE`` notes), searched beside the notes by deep requests: a stretch of talk
  matches a question that no single short note does ("Yes, last week!" after its question).
  It is never shown itself: packing it shows its notes (``span``: the rows back to its first
  note), each paid for once.

Each unit carries its display text, path, date, the ids of the notes it stands for, their
outside provenance refs (``source=``) and the ids it cites, plus two texts made for search:

- ``context`` (BM25): adds what a bare note leaves implicit (its date, the page and section
  title, and the note before it in the same log, so a reply like "Yes, last week!" is found
  with its question),
- ``meaning`` (the embedding): the note's own words (with its MEMORY.md heading), no date and no
  neighbour. A sentence embedding of a short note is diluted by a date and 40 words of another
  note; measured on LoCoMo it ranks better alone (references/recall.md). It also keeps the
  rule "one new note, one new embedding": a note's vector never depends on another note.

Pure functions of file contents; no I/O here.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass

from agent_sleep.core import notes
from agent_sleep.core.memory import ARCHIVE_SECTION

MEMORY = "memory"
BANK = "bank"
LOG = "log"
WINDOW = "window"
# how notes become units; a change makes the next update read every file again (vectors are
# reused by content hash). 2: a log note records the ids its sources= cites (a REM note's);
# 3: a hand-written MEMORY.md list item without a type prefix is an entry; 4: a bank page's
# superseded entries (its History) are units of their own
SPLIT = 4
WINDOW_NOTES = 0  # notes per window unit (0: no windows)
WINDOW_STRIDE = 3  # a window starts every this many notes
CHUNK_WORDS = 300  # bank sections longer than this are split at entry boundaries
HISTORY = "History"  # a bank page's section of superseded entries: one unit per entry
MOVED_OUT = ARCHIVE_SECTION.lstrip("# ")  # the archive page's entries: one unit per entry
CONTEXT_WORDS = 40  # how much of the previous note is indexed with a log note
_COMMENT = re.compile(r" ?<!--.*?-->", re.S)
_BULLET = re.compile(r"\ufeff?[ \t]*(?:[-*+]|\d+[.)])[ \t]+")
_FRONTMATTER = re.compile(r"\A---\r?\n(.*?)\r?\n---\r?\n", re.S)


@dataclass(frozen=True)
class Unit:
    kind: str
    path: str  # relative to the workspace root, with forward slashes
    text: str
    date: str | None
    ids: tuple[str, ...] = ()
    refs: tuple[str, ...] = ()  # outside provenance (source=)
    cites: tuple[str, ...] = ()  # note ids a consolidated entry cites (sources=)
    section: str | None = None
    time: str | None = None
    context: str = ""
    meaning: str = ""
    span: int = 0  # a window: how many rows before it its notes start

    @property
    def indexed(self) -> str:
        """The text BM25 indexes."""
        return self.context or self.text

    @property
    def embedded(self) -> str:
        """The text the embedding model reads."""
        return self.meaning or self.text


def display(note: notes.Note) -> str:
    """A note's text as an agent should read it: type prefix, no metadata comment."""
    return f"{note.prefix}: {note.text}"


def _split(value: str | None) -> tuple[str, ...]:
    if not value:
        return ()
    return tuple(v for v in (p.strip() for p in value.split(",")) if v)


def _valid_date(value: str | None) -> str | None:
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value[:10]).isoformat()
    except ValueError:
        return None


def _untyped(block: notes.Block) -> notes.Note | None:
    """A list item written by hand without a type prefix ("- Prefers tea"), read as a W entry
    (as the memory tool takes one): a MEMORY.md written by hand is searchable as it is."""
    m = _BULLET.match(block.raw)
    if m is None or block.heading is not None:
        return None
    text = _COMMENT.sub("", block.raw[m.end() :]).strip()
    return notes.Note(type="W", text=text) if any(c.isalnum() for c in text) else None


def memory_units(text: str, path: str = "MEMORY.md") -> list[Unit]:
    out = []
    for block in notes.parse(text).blocks:
        n = block.note or _untyped(block)
        if n is None or not n.text.strip():
            continue
        date = _valid_date(n.meta.get("date"))
        heading = block.section if block.section and block.section != "MEMORY" else None
        context = " ".join(x for x in (heading, date, n.text) if x)
        out.append(
            Unit(
                kind=MEMORY,
                path=path,
                text=display(n),
                date=date,
                ids=(n.id,) if n.id else (),
                refs=_split(n.meta.get("source")),
                cites=_split(n.meta.get("sources")),
                section=block.section,
                context=context,
                meaning=" ".join(x for x in (heading, n.text) if x),
            )
        )
    return out


def _frontmatter(text: str) -> tuple[dict[str, str], str]:
    m = _FRONTMATTER.match(text)
    if not m:
        return {}, text
    meta = {}
    for line in m.group(1).splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() and not key.startswith((" ", "\t")):
            meta[key.strip()] = value.strip().strip("\"'")
    return meta, text[m.end() :]


def bank_units(text: str, path: str) -> list[Unit]:
    meta, body = _frontmatter(text)
    title = meta.get("title") or path.rsplit("/", 1)[-1].removesuffix(".md")
    updated = _valid_date(meta.get("updated"))
    sections: dict[str | None, list[notes.Block]] = {}
    for block in notes.parse(body).blocks:
        if block.heading is not None or not block.raw.strip():
            continue
        sections.setdefault(block.section, []).append(block)
    out = []
    for section, blocks in sections.items():
        for chunk in _groups(section, blocks):
            lines: list[str] = []
            ids: list[str] = []
            refs: list[str] = []
            cites: list[str] = []
            dates: list[str] = []
            for b in chunk:
                if b.note is not None:
                    lines.append("- " + display(b.note))
                    ids += [b.note.id] if b.note.id else []
                    refs += _split(b.note.meta.get("source"))
                    cites += _split(b.note.meta.get("sources"))
                    dates += [d for d in [_valid_date(b.note.meta.get("date"))] if d]
                else:
                    lines.append(_COMMENT.sub("", b.raw.rstrip("\r\n")))
            heading = f"{title} — {section}" if section and section != title else title
            shown = "\n".join(line for line in lines if line.strip())
            if not shown:
                continue
            out.append(
                Unit(
                    kind=BANK,
                    path=path,
                    text=f"{heading}\n{shown}",
                    date=max(dates) if dates else updated,
                    ids=tuple(dict.fromkeys(ids)),
                    refs=tuple(dict.fromkeys(refs)),
                    cites=tuple(dict.fromkeys(cites)),
                    section=section,
                )
            )
    return out


def _alone(section: str | None, block: notes.Block) -> bool:
    """Whether a bank entry is a unit of its own: one with an id in the History section, one
    marked superseded wherever it sits (each is labelled with its own successor), or one the
    budget moved out of MEMORY.md (the archive's entries are as unrelated as MEMORY.md's: a
    chunk of them was one hit of fifteen facts, most of a budget for one that answers)."""
    n = block.note
    if n is None or not n.id:
        return False
    return section in (HISTORY, MOVED_OUT) or bool(n.meta.get("superseded_by"))


def _groups(section: str | None, blocks: list[notes.Block]) -> Iterator[list[notes.Block]]:
    """A section's blocks as units, in file order: each ``_alone`` entry by itself, the runs
    between them in chunks of whole entries (``_chunks``)."""
    run: list[notes.Block] = []
    for b in blocks:
        if _alone(section, b):
            yield from _chunks(run)
            run = []
            yield [b]
        else:
            run.append(b)
    yield from _chunks(run)


def _chunks(blocks: list[notes.Block]) -> Iterator[list[notes.Block]]:
    chunk: list[notes.Block] = []
    size = 0
    for b in blocks:
        n = len(b.raw.split())
        if chunk and size + n > CHUNK_WORDS:
            yield chunk
            chunk, size = [], 0
        chunk.append(b)
        size += n
    if chunk:
        yield chunk


def log_units(text: str, path: str, day: str) -> list[Unit]:
    return list(_log_units(text, path, day))


def _log_units(text: str, path: str, day: str) -> Iterator[Unit]:
    """A log's units one at a time, from its blocks one at a time (a large log's parsed
    document and units never need to be in memory all at once)."""
    previous: str | None = None
    run: list[Unit] = []  # the notes since the last heading, as far back as a window reaches
    rows = 0  # units yielded since the first note of ``run`` (windows between count too)
    for block in notes.iter_blocks(text):
        if block.heading is not None:
            previous = None
            run, rows = [], 0
            continue
        n = block.note
        if n is None or not n.text.strip():
            continue
        unit = log_unit(n, previous, path, day, block.section)
        yield unit
        previous = n.text
        if not WINDOW_NOTES:
            continue
        run.append(unit)
        rows += 1
        if len(run) >= WINDOW_NOTES and (len(run) - WINDOW_NOTES) % WINDOW_STRIDE == 0:
            members = run[-WINDOW_NOTES:]
            span = rows - _rows_before(len(run) - WINDOW_NOTES)
            yield _window(members, path, day, span)
            rows += 1


def log_unit(n: notes.Note, previous: str | None, path: str, day: str, section: str | None) -> Unit:
    """The unit of note ``n`` of a daily log, ``previous`` being the text of the note before it
    under the same heading (None for the first)."""
    return Unit(
        kind=LOG,
        path=path,
        text=display(n),
        date=day,
        ids=(n.id,) if n.id else (),
        refs=_split(n.meta.get("source")),
        cites=_split(n.meta.get("sources")),  # what a note sleep wrote is about
        section=section,
        time=n.time,
        context=log_context(n.text, previous, day),
        meaning=n.text,
    )


def log_context(text: str, previous: str | None, day: str) -> str:
    """What BM25 indexes of a log note: its date, its text and the last words of the note
    before it."""
    before = " ".join(previous.split()[-CONTEXT_WORDS:]) if previous else ""
    return f"{day}: {text}" + (f" (after: {before})" if before else "")


def _rows_before(notes_before: int) -> int:
    """Rows a log's run holds before its ``notes_before``-th note: the notes, and the windows
    that closed among them."""
    windows = 0
    if WINDOW_NOTES and notes_before >= WINDOW_NOTES:
        windows = (notes_before - WINDOW_NOTES) // WINDOW_STRIDE + 1
    return notes_before + windows


def _window(members: list[Unit], path: str, day: str, span: int) -> Unit:
    said = " ".join(m.meaning for m in members)
    return Unit(
        kind=WINDOW,
        path=path,
        text="\n".join(m.text for m in members),
        date=day,
        refs=tuple(dict.fromkeys(r for m in members for r in m.refs)),
        section=members[-1].section,
        time=members[0].time,
        context=f"{day}: {said}",
        meaning=f"{day}: {said}",
        span=span,
    )


def units_of(path: str, text: str) -> list[Unit]:
    """The units of one workspace file, given its path relative to the root."""
    return list(iter_units(path, text))


def iter_units(path: str, text: str) -> Iterator[Unit]:
    """``units_of``, one unit at a time for a daily log."""
    if path == "MEMORY.md":
        return iter(memory_units(text, path))
    if path.startswith("bank/"):
        return iter(bank_units(text, path))
    day = _valid_date(path.rsplit("/", 1)[-1].removesuffix(".md"))
    if path.startswith("memory/") and day:
        return _log_units(text, path, day)
    return iter(())
