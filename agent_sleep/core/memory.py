"""MEMORY.md and bank pages as documents: parsed blocks edited in place (hand-written lines
survive), the sections entries are filed under (a bank page's date sections kept in date
order; a section a run leaves with nothing under it removed; every entry kept under its
section when a forced rollback undoes the run that wrote the heading), page headers, and the
size budget.

Pure functions of strings, no I/O: the consolidation plan builds new texts with them, and
status and context read MEMORY.md through them.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace

from agent_sleep.core import notes as fmt
from agent_sleep.core.errors import BadInput
from agent_sleep.core.notes import Note
from agent_sleep.core.redact import redact

MEMORY_BUDGET_ENV = "AGENT_SLEEP_MEMORY_BUDGET"
DEFAULT_MEMORY_BUDGET = 8000
SECTIONS = {"W": "Facts", "B": "Experiences", "O": "Preferences", "S": "Summaries"}
ARCHIVE_SLUG = "memory-archive"
ARCHIVE_SECTION = "## Moved out of MEMORY.md"
_PREFIX_RE = re.compile(r"^\s*(?:[-*]\s+)?(?:[WBS]|O\(c=[\d.]+\))\s*:\s*")
_DAY_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
HISTORY_TITLE = "History"  # a bank page's section of superseded entries, always its last
# the metadata key of an entry a newer one may replace (consolidation/maybe_replaced.py)
NEWER = "newer"


def memory_budget(value: int | None = None) -> int:
    """MEMORY.md's size budget in characters: ``value``, else ``AGENT_SLEEP_MEMORY_BUDGET``, else
    8,000. A budget under one character would move every entry to the archive page: refused."""
    if value is None:
        raw = os.environ.get(MEMORY_BUDGET_ENV, "").strip()
        if not raw:
            return DEFAULT_MEMORY_BUDGET
        if not raw.isdigit():
            raise BadInput(f"{MEMORY_BUDGET_ENV}={raw!r} is not a number of characters")
        value, source = int(raw), MEMORY_BUDGET_ENV
    else:
        source = "the memory budget"
    if int(value) < 1:
        raise BadInput(f"{source} must be at least 1 character (got {value})")
    return int(value)


def marked(entries: Iterable[Note]) -> dict[str, Note]:
    """Each id of ``entries`` sleep marked as one a newer entry may replace (``newer=``) -> that
    newer entry, where ``entries`` hold it (a mark naming another is no mark)."""
    by_id = {n.id: n for n in entries if n.id}
    newer = {i: by_id.get(n.meta.get(NEWER, "")) for i, n in by_id.items()}
    return {i: n for i, n in newer.items() if n is not None}


def slug_of(raw: str) -> str:
    # redacted first: a credential in a model-chosen slug must not become a file name
    return fmt.slugify(redact(raw))


def clean_text(text: str) -> str:
    return fmt.normalize_text(redact(_PREFIX_RE.sub("", text)))


@functools.lru_cache(maxsize=1 << 16)
def one_line(text: str) -> str:
    return " ".join(clean_text(text).split())


class MemoryDoc:
    """MEMORY.md as parsed blocks, edited in place so hand-written lines survive."""

    def __init__(self, text: str) -> None:
        self.blocks: list[fmt.Block] = list(fmt.parse(text).blocks)

    def render(self) -> str:
        return "".join(b.raw for b in self.blocks)

    def entries(self) -> list[Note]:
        return [b.note for b in self.blocks if b.note is not None and b.note.id]

    def index(self, ref: str) -> int | None:
        ref = ref.strip()
        wanted = one_line(ref)
        by_text = None
        for i, b in enumerate(self.blocks):
            if b.note is None or not b.note.id:
                continue
            if b.note.id == ref:
                return i
            if by_text is None and ref and one_line(b.note.text) == wanted:
                by_text = i
        return by_text

    def set(self, i: int, note: Note) -> None:
        self.blocks[i] = replace(self.blocks[i], raw=fmt.render_note(note), note=note)

    def remove(self, i: int) -> None:
        del self.blocks[i]

    def add(self, note: Note, title: str) -> None:
        last = None
        for i, b in enumerate(self.blocks):
            if b.section == title and (b.note is not None or b.heading is not None):
                last = i
        block = fmt.Block(raw=fmt.render_note(note), note=note, section=title)
        if last is not None:
            prev = self.blocks[last]
            if not prev.raw.endswith("\n"):
                self.blocks[last] = replace(prev, raw=prev.raw + "\n")
            if prev.heading is not None:
                self.blocks.insert(last + 1, fmt.Block(raw="\n", section=title))
                last += 1
            self.blocks.insert(last + 1, block)
            return
        text = self.render()
        sep = "" if not text or text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
        self.blocks.append(fmt.Block(raw=f"{sep}## {title}\n\n", section=title))
        self.blocks.append(block)


def page_header(title: str, kind: str, today: dt.date) -> str:
    return f"---\ntitle: {title}\nkind: {kind}\nupdated: {today.isoformat()}\n---\n\n# {title}\n"


def front_matter_end(text: str) -> int:
    """Where a page's front matter ends (the newline before its closing ``---``), or -1 when
    it has none."""
    return text.find("\n---", 4) if text.startswith("---\n") else -1


def touch_updated(text: str, today: dt.date) -> str:
    end = front_matter_end(text)
    if end < 0:
        return text
    head = text[:end]
    new_head, n = re.subn(r"(?m)^updated:.*$", f"updated: {today.isoformat()}", head)
    if not n:
        new_head = head + f"\nupdated: {today.isoformat()}"
    return new_head + text[end:]


def is_section(block: fmt.Block) -> bool:
    return block.heading is not None and block.heading.level <= 2


def section_day(title: str | None) -> str | None:
    """The day a section's title is (``2026-11-07``), or None for a topic ("Role", "History")."""
    if title is None or not _DAY_RE.fullmatch(title):
        return None
    try:
        return dt.date.fromisoformat(title).isoformat()
    except ValueError:  # 2026-13-45
        return None


def sections_of(text: str, ids: Collection[str]) -> dict[str, str]:
    """``{entry id: the title of the ## section it sits under}`` for the entries of ``text``
    named in ``ids`` (an entry above the first ``##`` heading, in the page's intro, has none)."""
    out: dict[str, str] = {}
    section: str | None = None
    for b in fmt.parse(text).blocks:
        if b.heading is not None and b.heading.level <= 2:
            section = b.heading.title if b.heading.level == 2 else None
        elif b.note is not None and b.note.id in ids and section is not None:
            out.setdefault(b.note.id, section)
    return out


def _insert_at(
    blocks: Sequence[fmt.Block], title: str, ahead_of: Collection[str] = ()
) -> int | None:
    """Where a new section ``title`` goes on a page that has sections after it: before the
    first of the sections ``ahead_of`` names, or of a later day (a date section), else before
    ``## History`` (a page opens with what is current; its History stays last). None: at the
    end."""
    day = section_day(title)
    for i, b in enumerate(blocks):
        if b.heading is None or b.heading.level != 2:
            continue
        if b.heading.title in ahead_of:
            return i
        if title != HISTORY_TITLE and b.heading.title == HISTORY_TITLE:
            return i
        later = section_day(b.heading.title)
        if day is not None and later is not None and later > day:
            return i
    return None


def add_to_page(
    text: str, section: str, entries: Sequence[str], *, ahead_of: Collection[str] = ()
) -> str:
    """``text`` with ``entries`` appended at the end of ``section``. A missing section is
    created before the first of the sections ``ahead_of`` names, else before History; a missing
    date section (``## 2026-11-12``) before the first section of a later day, so a page's date
    sections stay in date order."""
    title = section.lstrip("#").strip()
    blocks = list(fmt.parse(text).blocks)
    start = None
    for i, b in enumerate(blocks):
        if b.heading is not None and b.heading.level == 2 and b.heading.title == title:
            start = i
    if start is None:
        at = _insert_at(blocks, title, ahead_of)
        if at is not None:
            before = "".join(b.raw for b in blocks[:at])
            after = "".join(b.raw for b in blocks[at:])
            sep = "" if before.endswith("\n\n") else ("\n" if before.endswith("\n") else "\n\n")
            return f"{before}{sep}## {title}\n\n" + "".join(entries) + "\n" + after
        sep = "" if text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
        return f"{text}{sep}## {title}\n\n" + "".join(entries)
    end = start + 1
    while end < len(blocks) and not is_section(blocks[end]):
        end += 1
    last = end - 1
    while last > start and not blocks[last].raw.strip():
        last -= 1
    before = "".join(b.raw for b in blocks[: last + 1])
    after = "".join(b.raw for b in blocks[last + 1 :])
    if not before.endswith("\n"):
        before += "\n"
    if last == start:
        before += "\n"
    if after and not after.startswith("\n"):
        after = "\n" + after
    return before + "".join(entries) + after


def drop_empty_sections(text: str, titles: Collection[str]) -> str:
    """``text`` without the ``##`` sections named in ``titles`` that hold nothing but blank
    lines (a run moved or removed every entry under them): the heading and its blank lines
    go. A section with any other line under it (a hand-written one, a ``###`` heading) stays,
    and so do the page's title and intro and its History."""
    blocks = list(fmt.parse(text).blocks)
    out: list[fmt.Block] = []
    i = 0
    while i < len(blocks):
        b = blocks[i]
        end = i + 1
        if (
            b.heading is not None
            and b.heading.level == 2
            and b.heading.title in titles
            and b.heading.title != HISTORY_TITLE
        ):
            while end < len(blocks) and not is_section(blocks[end]):
                end += 1
            if all(not x.raw.strip() for x in blocks[i + 1 : end]):
                if end == len(blocks):  # the page's last section: its separator goes too
                    while out and not out[-1].raw.strip():
                        out.pop()
                i = end
                continue
        out.append(b)
        i += 1
    return "".join(b.raw for b in out)


def keep_sections(merged: str, before: str, after: str, now: str) -> str:
    """``merged``, the three-way merge that undid a run on a page (``rollback --force``:
    ``now`` as it is, the run's ``after`` image as the base, ``before`` the run), with every
    entry under the ``##`` section it belongs to. The merge drops a heading the run wrote
    though a later entry still sits under it; such an entry goes back to the end of its
    section, made again where it stood among the sections. An entry belongs where it is
    ``now``, unless the run moved it and nothing since did (then where it was ``before``);
    an entry the rollback brings back belongs where it was ``before``. The blank lines a
    moved entry leaves collapse to one; a page whose entries are all at home is returned as
    it is."""
    was, ran, cur = _homes(before), _homes(after), _homes(now)
    later: dict[str, list[str]] = {}  # a section: the sections after it, where it was
    for page in (now, before, after):
        heads = [b.heading for b in fmt.parse(page).blocks if b.heading is not None]
        titles = [h.title for h in heads if h.level == 2]
        for i, title in enumerate(titles):
            later.setdefault(title, titles[i + 1 :])
    kept: list[fmt.Block] = []
    moved: dict[str, list[str]] = {}
    gap = False  # right after a moved entry: the blank lines around it collapse
    for b in fmt.parse(merged).blocks:
        home = _home(b.note.id, was, ran, cur) if b.note is not None and b.note.id else None
        if home is not None and b.section != home:
            moved.setdefault(home, []).append(b.raw if b.raw.endswith("\n") else b.raw + "\n")
            while len(kept) > 1 and not kept[-1].raw.strip() and not kept[-2].raw.strip():
                kept.pop()
            gap = True
            continue
        blank = not b.raw.strip()
        if gap and blank and kept and not kept[-1].raw.strip():
            continue
        gap = gap and blank
        kept.append(b)
    if not moved:
        return merged
    if gap:  # the moved entries ended the page: so does the line before them
        while kept and not kept[-1].raw.strip():
            kept.pop()
    text = "".join(b.raw for b in kept)
    for title, raws in moved.items():
        text = add_to_page(text, title, raws, ahead_of=later.get(title, ()))
    return text


def _homes(page: str) -> dict[str, str | None]:
    """``{entry id: the title of its ## section}``, None for an entry in the page's intro."""
    out: dict[str, str | None] = {}
    section: str | None = None
    for b in fmt.parse(page).blocks:
        if b.heading is not None and b.heading.level <= 2:
            section = b.heading.title if b.heading.level == 2 else None
        elif b.note is not None and b.note.id:
            out.setdefault(b.note.id, section)
    return out


def _home(
    entry: str,
    was: dict[str, str | None],
    ran: dict[str, str | None],
    cur: dict[str, str | None],
) -> str | None:
    """The section an entry belongs to once its run is undone (see :func:`keep_sections`)."""
    if entry in cur and (entry not in ran or entry not in was or cur[entry] != ran[entry]):
        return cur[entry]
    return was.get(entry, cur.get(entry))
