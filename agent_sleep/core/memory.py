"""MEMORY.md and bank pages as documents: parsed blocks edited in place (hand-written lines
survive), the sections entries are filed under, page headers, and the size budget.

Pure functions of strings, no I/O: the consolidation plan builds new texts with them, and
status and context read MEMORY.md through them.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import re
from collections.abc import Sequence
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


def add_to_page(text: str, section: str, entries: Sequence[str]) -> str:
    """``text`` with ``entries`` appended at the end of ``section`` (created when missing)."""
    title = section.lstrip("#").strip()
    blocks = list(fmt.parse(text).blocks)
    start = None
    for i, b in enumerate(blocks):
        if b.heading is not None and b.heading.level == 2 and b.heading.title == title:
            start = i
    if start is None:
        history = [
            i
            for i, b in enumerate(blocks)
            if title != "History"
            and b.heading is not None
            and b.heading.level == 2
            and b.heading.title == "History"
        ]
        if history:  # a page opens with what is current; its History stays last
            before = "".join(b.raw for b in blocks[: history[0]])
            after = "".join(b.raw for b in blocks[history[0] :])
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
