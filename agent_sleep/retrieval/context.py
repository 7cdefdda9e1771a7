"""``get_context``: the memory block an agent puts into its system prompt at session start.

Sections, each under a clear heading and left out when empty:

1. Long-term memory: MEMORY.md, trimmed to ``max_memory_chars`` at entry boundaries (never
   mid-line); what was left out is said in one line.
2. Today's log, and yesterday's when ``load_yesterday``.
3. Next session: the actions of the most recent ``## Next session`` section in the daily logs.
4. Relevant memories (only with ``query``): hybrid recall within ``budget_tokens``.

Notes are shown without their metadata comments. Without a query this path reads a few files
and imports nothing heavy (no numpy, no model): it runs on every session start.
"""

from __future__ import annotations

import datetime as dt
import os
import re

from agent_sleep.core import args, notes
from agent_sleep.core.log import shorten
from agent_sleep.core.workspace import MEMORY_HEADER, Workspace

MAX_LOG_CHARS = 20_000  # of each day's log shown; the newest notes are kept
TAIL_BYTES = 8 * MAX_LOG_CHARS
NEXT_SESSION_LOOKBACK = 30  # daily logs searched, newest first, for the latest actions
_BLANKS = re.compile(r"\n{3,}")


def get_context(
    workspace: str | os.PathLike[str] | Workspace | None = None,
    max_memory_chars: int = 3000,
    load_yesterday: bool = True,
    query: str | None = None,
    budget_tokens: int | None = None,
    *,
    today: dt.date | None = None,
) -> str:
    """The memory block for a system prompt (empty when the workspace holds nothing).

    ``workspace`` defaults to ``$AGENT_SLEEP_WORKSPACE``, else ``~/.agent_workspace``;
    ``today`` (default the clock) picks today's and yesterday's logs."""
    args.count(max_memory_chars=max_memory_chars)
    args.flag(load_yesterday=load_yesterday)
    args.text_or_none(query=query)
    args.count_or_none(budget_tokens=budget_tokens)
    args.day_or_none(today=today)
    ws = Workspace.at(workspace)
    today = today or dt.date.today()
    parts = []
    memory = memory_section(ws.read_text(ws.memory_md), max_memory_chars)
    if memory:
        parts.append("## Long-term memory (MEMORY.md)\n\n" + memory)
    shown_logs = []
    days = [(today, "Today's log")]
    if load_yesterday:
        days.append((today - dt.timedelta(days=1), "Yesterday's log"))
    for day, title in days:
        path = ws.day_log(day)
        text, cut = log_tail(path)
        body = log_section(text, MAX_LOG_CHARS, path.relative_to(ws.root).as_posix(), cut)
        if body:
            parts.append(f"## {title} ({day.isoformat()})\n\n{body}")
            shown_logs.append(path.relative_to(ws.root).as_posix())
    actions = next_session(ws)
    if actions:
        planned, body = actions
        parts.append(f"## Next session (planned {planned})\n\n{body}")
    if query and query.strip():
        parts.append(relevant_section(ws, query, budget_tokens, set(shown_logs), today))
    if not parts:
        return ""
    return "# Memory\n\n" + "\n\n".join(p.rstrip("\n") for p in parts) + "\n"


def memory_section(text: str, max_chars: int) -> str:
    """MEMORY.md without metadata, cut before the first entry that does not fit ``max_chars``."""
    if text.startswith(MEMORY_HEADER):
        text = text[len(MEMORY_HEADER) :]
    blocks = notes.parse(text).blocks
    kept: list[str] = []
    headings: list[str] = []  # held back until an entry under them fits
    size = 0
    for i, block in enumerate(blocks):
        shown = notes.strip_meta(block.raw)
        if block.note is not None and block.note.meta.get("contested"):  # currency: disputed
            shown = shown.rstrip("\n") + " (contested: a newer, weaker note disputes it)\n"
        if block.heading is not None:
            if block.heading.level > 1:  # one level down, under our own "##"
                headings.append("#" + shown)
            continue
        if not shown.strip():
            if kept and kept[-1].strip():
                kept.append("\n")
            continue
        extra = "".join(headings) + shown
        if size + len(extra) > max_chars:
            rest = [b for b in blocks[i:] if b.heading is None and b.raw.strip()]
            entries = sum(1 for b in rest if b.note is not None)
            chars = sum(len(notes.strip_meta(b.raw)) for b in rest)
            noun = "entry" if entries == 1 else "entries"
            kept.append(
                f"\n[MEMORY.md trimmed to max_memory_chars={max_chars}: {entries} more {noun} "
                f"({chars} characters) not shown; `agent-sleep search QUERY` finds them]\n"
            )
            break
        kept += [*headings, shown]
        size += len(extra)
        headings = []
    return _BLANKS.sub("\n\n", "".join(kept)).strip("\n")


def log_tail(path: os.PathLike[str], max_bytes: int = TAIL_BYTES) -> tuple[str, bool]:
    """The end of a log, at most ``max_bytes`` starting at a note, and whether it was cut: a
    huge log is never read whole on this path (it runs at every session start)."""
    try:
        with open(path, "rb") as f:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - max_bytes))
            data = f.read()
    except (FileNotFoundError, IsADirectoryError):
        return "", False
    if size > max_bytes:
        data = data[data.find(b"\n- ") + 1 :]  # start at a note
    return data.decode("utf-8", "surrogateescape"), size > max_bytes


def log_section(
    text: str, max_chars: int | None = None, name: str = "this log", cut: bool = False
) -> str:
    """A daily log's notes (and any other lines) without its title, metadata comments or
    ``## Next session`` actions (shown in their own section); with ``max_chars``, the newest
    that fit, and one line saying that older ones were left out."""
    out: list[str] = []
    for block in notes.parse(text).blocks:
        if block.section == notes.NEXT_SESSION:
            continue
        if block.heading is not None:
            if block.heading.level == 1 or block.heading.title == notes.RETAIN:
                continue
            out.append(f"### {block.heading.title}\n")
            continue
        if not block.raw.strip():
            continue
        out.append(notes.strip_meta(block.raw))
    if cut or (max_chars is not None and sum(len(part) for part in out) > max_chars):
        kept: list[str] = []
        size = 0
        for part in reversed(out):
            if max_chars is not None and size + len(part) > max_chars:
                break
            kept.append(part)
            size += len(part)
        out = [
            f"[older notes of {name} not shown; `agent-sleep search QUERY` finds them]\n",
            *reversed(kept),
        ]
    return "".join(out).strip("\n")


def next_session(ws: Workspace) -> tuple[str, str] | None:
    """(date, actions) of the newest daily log with a ``## Next session`` section."""
    for path in reversed(ws.daily_logs()[-NEXT_SESSION_LOOKBACK:]):
        text, _ = log_tail(path)  # sleep appends the actions at the end of the log
        if notes.NEXT_SESSION_HEADING not in text:
            continue
        found = [
            notes.strip_meta(b.raw)
            for b in notes.parse(text).blocks
            if b.section == notes.NEXT_SESSION and b.note is not None
        ]
        if found:
            return path.stem, "".join(found).strip("\n")
    return None


def relevant_section(
    ws: Workspace,
    query: str,
    budget_tokens: int | None,
    skip_paths: set[str],
    today: dt.date | None = None,
) -> str:
    from agent_sleep.retrieval.recall import recall

    found = recall(ws, query, budget_tokens=budget_tokens, today=today)
    hits = [h for h in found if h.path not in skip_paths]
    title = f"## Relevant memories (query: {shorten(' '.join(query.split()))})"
    if not hits:
        return f"{title}\n\n(nothing found beyond the logs above)"
    lines = []
    for h in hits:
        when = " ".join(x for x in (h.date, h.time) if x)
        where = f"[{when}] " if when else ""
        text = h.text.replace("\n", "\n  ")
        origin = "" if h.path.startswith("memory/") else f" ({h.path})"
        if not h.current:  # currency: never shown as if it were still true
            where += f"[superseded {h.superseded_on or ''}: now {h.superseded_by or '?'}] "
        lines.append(f"- {where}{text}{origin}")
    return title + "\n\n" + "\n".join(lines)
