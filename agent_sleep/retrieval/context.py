"""``get_context``: the memory block an agent puts into its system prompt at session start.

Sections, each under a clear heading and left out when empty:

1. Long-term memory: MEMORY.md within ``max_memory_chars``, whole entries only: when it does
   not fit, what still holds comes first: what a session must not miss and what is due soon
   ("Boiler service on Friday (2026-10-16)"), then standing facts however old ("Cleaner Maria:
   07700 900123"), then events ("Paid Maria £45 cash"), passing impressions, and last what a
   date says is over ("Dana wants the QBR slides by Oct 13", on Oct 17); each section's newest
   first, taken in turn; what was left out is said in one line.
2. Today's log, and yesterday's when ``load_yesterday``: a section sleep repeated (a second
   ``## Retain`` or ``## Dreams``) merged into one, its notes in time order.
3. Next session: the actions of the most recent ``## Next session`` section in the daily logs,
   less those whose dates have passed, with the lists of the days before; an old list says its
   age, and one a week older than a later sleep is left out (``_next_session``).
4. Relevant memories (only with ``query``): hybrid recall within ``budget_tokens``, less the
   notes the sections above already show (left out before the budget is spent).

Notes are shown without their metadata comments, and the text of a daily log with its relative
times resolved against the log's day (:func:`anchored`): "yesterday" in yesterday's log is the
day before it, not the day before the session. Only what is shown changes, never a file.
Without a query this path reads a few files and imports nothing heavy (no numpy, no model): it
runs on every session start.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from agent_sleep.analysis import temporal
from agent_sleep.analysis.vital import impression, vital
from agent_sleep.core import args, notes, storage
from agent_sleep.core.log import shorten
from agent_sleep.core.memory import marked, one_line
from agent_sleep.core.workspace import JOURNAL, MEMORY_HEADER, Workspace

if TYPE_CHECKING:
    from agent_sleep.retrieval.recall import Hit

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
    ``today`` (default the clock) picks today's and yesterday's logs, and which dates in
    MEMORY.md are still to come or already past when it is trimmed (:func:`memory_section`)."""
    args.count(max_memory_chars=max_memory_chars)
    args.flag(load_yesterday=load_yesterday)
    args.text_or_none(query=query)
    args.positive_or_none(budget_tokens=budget_tokens)
    args.day_or_none(today=today)
    ws = Workspace.at(workspace)
    live = today is None  # the context as of another day says nothing of the last sleep
    today = today or dt.date.today()
    parts = []
    shown: list[tuple[str, list[notes.Note]]] = []  # (path, notes) the sections show
    memory, entries = _memory_view(ws.read_text(ws.memory_md), max_memory_chars, today)
    if memory:
        held = _held_back(ws) if live else ""
        parts.append("## Long-term memory (MEMORY.md)\n\n" + memory + held)
        shown.append((ws.memory_md.relative_to(ws.root).as_posix(), entries))
    days = [(today, "Today's log")]
    if load_yesterday:
        days.append((today - dt.timedelta(days=1), "Yesterday's log"))
    for day, title in days:
        path = ws.day_log(day)
        name = path.relative_to(ws.root).as_posix()
        text, cut = log_tail(path)
        body, entries = _log_view(text, MAX_LOG_CHARS, name, cut)
        if body:
            parts.append(f"## {title} ({day.isoformat()})\n\n{body}")
            shown.append((name, entries))
    actions = _next_session(ws, today)
    if actions:
        planned, body, of_logs = actions
        parts.append(f"{planned_heading(planned, today)}\n\n{body}")
        shown += of_logs
    if query and query.strip():
        parts.append(relevant_section(ws, query, budget_tokens, _keys(shown), today))
    if not parts:
        return ""
    return "# Memory\n\n" + "\n\n".join(p.rstrip("\n") for p in parts) + "\n"


def _held_back(ws: Workspace) -> str:
    """A line saying that MEMORY.md may still hold values the last sleep could not replace:
    its removal cap (a quarter of the entries a run) held changes back, and their notes wait
    for the next run. Empty otherwise, or when a rollback came after it."""
    last = storage.last_event(ws.state_dir / JOURNAL, ("sleep", "rollback"))
    waiting = last.get("deferred") if last and last.get("event") == "sleep" else 0
    if not isinstance(waiting, int) or isinstance(waiting, bool) or waiting <= 0:
        return ""
    notes_ = "1 note" if waiting == 1 else f"{waiting} notes"
    return (
        f"\n\n(The last sleep held back the changes of {notes_} under its removal cap, a "
        "quarter of MEMORY.md a run: an entry above may be out of date until the next "
        "`agent-sleep sleep`, or `agent-sleep sleep --prune-memory`.)"
    )


def memory_section(text: str, max_chars: int, *, today: dt.date | None = None) -> str:
    """MEMORY.md without metadata, within ``max_chars``. When it does not all fit, what still
    holds on ``today`` (default the clock) comes first, in tiers (:func:`_tiers`):

    1. what a session must not miss (an allergy, a diet, a name: however old, it is not cut
       for last week's events), then what names a day from today to ``SOON_DAYS`` ahead
       ("Boiler service on Friday (2026-10-16)", "Nationwide fixed rate ends 31 October");
    2. standing facts, however old and whatever past dates they name: "Cleaner Maria: 07700
       900123", "Signed with Aviva today (2026-10-01) for the car insurance";
    3. events: what was done ("Maria cleaned; paid her £45 cash", "Collected Leo's inhaler
       prescription"), and a line written by hand whose every date is past;
    4. passing impressions ("the new cleaner seemed nervous"), then what a date says is over,
       however vital: an appointment or deadline that lay ahead when written and is now behind
       ``today`` ("Booked Sam's asthma review for 6 October", on 10 October).

    Within a tier every section keeps its newest entries by their dates (:func:`_newest_first`),
    taken in turn from each section (so a short "Preferences" section is not lost behind a long
    "Facts" one, nor a fact learned last week behind older ones); whole entries only, shown in
    the file's order and layout; what was left out is said in one line."""
    args.day_or_none(today=today)
    return _memory_view(text, max_chars, today or dt.date.today())[0]


NEWER_CHARS = 100  # of the newer entry's text shown beside one it may replace


def _clip(text: str, n: int) -> str:
    """``text`` if it is at most ``n`` characters, else its head cut at a word's end and "…"."""
    if len(text) <= n:
        return text
    head = text[: n - 1]
    return (head.rsplit(" ", 1)[0] if " " in head else head).rstrip(" ,;:") + "…"


def _newer(entry: notes.Note, marks: dict[str, notes.Note], today: dt.date) -> str:
    """What a session is told of an entry sleep marked as one a newer entry may replace
    (``marks``: core.memory.marked): the days both were said and the newer one's words, or ""
    when it is not marked."""
    newer = marks.get(entry.id)
    if newer is None:
        return ""
    since = _said_day(entry, today)
    return (
        f" ({'said ' + since + '; ' if since else ''}may be out of date, said on"
        f" {_said_day(newer, today) or '?'}: “{_clip(one_line(newer.text), NEWER_CHARS)}”)"
    )


def _said(entry: notes.Note, marks: dict[str, notes.Note], today: dt.date) -> str:
    """What a session is told after an entry's words: the day it was last said (``date=``, the
    newest log day of its notes: " (said 14 Sep)", :func:`said_on`), so that two entries sleep
    left side by side tell which came last, and whether it is contested or may be out of date
    (:func:`_newer`); "" for an entry with no valid date and nothing to add (a line written by
    hand or by Claude's memory tool)."""
    day = _said_day(entry, today)
    said = f"said {day}" if day else ""
    if entry.meta.get("contested"):  # currency: disputed
        return f" ({said + '; ' if said else ''}contested: a newer, weaker note disputes it)"
    return _newer(entry, marks, today) or (f" ({said})" if said else "")


def _said_day(entry: notes.Note, today: dt.date) -> str:
    """:func:`said_on` of the entry's ``date=``, "" without a valid one."""
    day = _day(_day_of(entry))
    return said_on(day, today) if day else ""


_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
YEAR_AFTER_DAYS = 300  # an entry said longer ago than this (or ahead of today) says its year


def said_on(day: dt.date, today: dt.date) -> str:
    """``day`` as an entry's suffix gives it: "14 Sep" within the ``YEAR_AFTER_DAYS`` before
    ``today``, else with its year, "14 Sep 2025". Every entry carries one, so it is short, and
    not in the ISO form sleep writes beside a relative day ("on Friday (2026-10-23)"), so that
    neither is read for the other."""
    short = f"{day.day} {_MONTHS[day.month - 1]}"
    return short if 0 <= (today - day).days <= YEAR_AFTER_DAYS else f"{short} {day.year}"


def _memory_view(text: str, max_chars: int, today: dt.date) -> tuple[str, list[notes.Note]]:
    """``memory_section`` as of ``today``, and the entries it shows."""
    text = lf(text)
    if text.startswith(MEMORY_HEADER):
        text = text[len(MEMORY_HEADER) :]
    items: list[tuple[str, str, int, int]] = []  # (kind, shown, section, entry) in file order
    sections: list[tuple[list[str], list[tuple[str, bool]]]] = []  # (headings, (entry, note?))
    entry_notes: dict[tuple[int, int], notes.Note] = {}  # (section, entry): its note
    days: list[list[str]] = []  # each section's entries' dates, "" for none
    headings: list[str] = []
    blocks = notes.parse(text).blocks
    marks = marked(b.note for b in blocks if b.note is not None)
    for block in blocks:
        shown = notes.strip_meta(block.raw)
        if block.note is not None and shown.strip():
            shown = shown.rstrip("\n") + _said(block.note, marks, today) + "\n"
        if block.heading is not None:
            if block.heading.level > 1:  # one level down, under our own "##"
                headings.append("#" + shown)
                items.append(("heading", "#" + shown, -1, -1))
            continue
        if not shown.strip():
            items.append(("blank", "", -1, -1))
            continue
        if headings or not sections:
            sections.append((headings, []))
            days.append([])
            headings = []
        entries = sections[-1][1]
        items.append(("entry", shown, len(sections) - 1, len(entries)))
        if block.note is not None:
            entry_notes[len(sections) - 1, len(entries)] = block.note
        entries.append((shown, block.note is not None))
        days[-1].append(_day_of(block.note))
    size = sum(_heading_cost(h) + sum(len(e) for e, _n in es) for h, es in sections)
    if size <= max_chars:
        chosen = [set(range(len(es))) for _h, es in sections]
    else:
        tiers = _tiers(sections, entry_notes, days, today)
        chosen = _in_tiers(sections, [_newest_first(d) for d in days], max_chars, tiers)
    kept: list[str] = []
    shown_notes: list[notes.Note] = []
    held: list[str] = []  # headings, shown only above an entry shown under them
    after_entry = False
    for kind, shown, section, entry in items:
        if kind == "heading":
            held = [shown] if after_entry else [*held, shown]
            after_entry = False
        elif kind == "blank":
            if kept and kept[-1].strip():
                kept.append("\n")
        else:
            after_entry = True
            if entry in chosen[section]:
                kept += [*held, shown]
                held = []
                if (section, entry) in entry_notes:
                    shown_notes.append(entry_notes[section, entry])
    body = _BLANKS.sub("\n\n", "".join(kept)).strip("\n")
    left = [e for (_h, es), keep in zip(sections, chosen, strict=True)
            for k, e in enumerate(es) if k not in keep]  # fmt: skip
    if left:
        entries_left = sum(1 for _e, is_note in left if is_note)
        chars = sum(len(e) for e, _n in left)
        noun = "entry" if entries_left == 1 else "entries"
        body += (
            f"\n\n[MEMORY.md trimmed to max_memory_chars={max_chars}: {entries_left} older "
            f"{noun} ({chars} characters) not shown; `agent-sleep search QUERY` finds them]"
        )
    return body, shown_notes


def _heading_cost(headings: list[str]) -> int:
    """What a section costs besides its entries: its headings, the blank line after them and
    the one before the next section."""
    return sum(map(len, headings)) + (1 if headings else 0) + 1


def _day_of(note: notes.Note | None) -> str:
    """The day an entry was written, from its ``date=`` ("2026-12-01"); "" without a valid one
    (a line written by hand or by Claude's memory tool, a hand-mangled date)."""
    value = note.meta.get("date", "") if note is not None else ""
    day = _day(value[:10])
    return day.isoformat() if day else ""


def _newest_first(days: list[str]) -> list[int]:
    """The entries of a section (their dates, "" for none), newest first: by date, since sleep
    puts a replacement where the entry it replaces stood, often near the top of its section, so
    the file's order is no age; on one day, the last in the file first. An entry without a
    date (written by hand, or by Claude's memory tool) counts as written on the day of the
    dated entry above it and after it, or, with none above, as older than every dated one:
    where no date says otherwise the file's order does, so a section without dates keeps its
    last entries::

        ["2026-12-01", "2026-11-05", "", "2026-11-05"] -> [0, 3, 2, 1]
        ["", "2026-11-05", ""]                        -> [2, 1, 0]
    """
    dated: list[str] = []
    above = ""
    for day in days:
        above = day or above
        dated.append(above)
    return sorted(range(len(days)), key=lambda k: (dated[k], k), reverse=True)


SOON_DAYS = 30  # an entry naming a day from today to this many days ahead is shown first
MUST, SOON, STANDING, EVENT, IMPRESSION, OVER = range(6)  # the tiers, shown in this order

# a date that starts what then holds is no appointment, and does not pass: "accompanist from 1
# October", "since March 2019", "we use GitHub Actions from today (2026-09-24)", "Winter hours
# start Monday (2026-10-05): it'll close at 4pm"; nor is the
# date of what was replaced: "the staff meeting will be 1pm Friday instead of 8am Monday
# (2026-09-28)"
_STARTS = re.compile(
    r"(?:\b(?:from|since|start|starting|starts|started|as of|effective|beginning|begins|began|"
    r"commencing)\s+(?:(?:the|today|tonight|tomorrow|(?:this|next) (?:week|month|morning|"
    r"afternoon|evening)|"
    r"(?:(?:this|next|the coming)\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day),?\s+)?"
    r"|\b(?:instead of|rather than)\s+(?:[\w:.]+\s+){0,2})\(?$",
    re.I,
)
# the date sleep writes beside a relative time ("Thursday (2026-09-17)", "next week (week of
# 2026-09-21)"), taken out to see what recurs: "train on Thursday (2026-09-17) evenings"
_RESOLVED = re.compile(r" \((?:week of |weekend of )?\d{4}-\d{2}(?:-\d{2})?\)")
# what comes back each year: its date is never over, only soon again ("Emma's birthday is 14
# March", "boiler serviced every August"); what comes back each week or month is
# :data:`agent_sleep.analysis.temporal.ROUTINE_RE`
_YEARLY = re.compile(
    r"\b(?:birthdays?|born|date of birth|anniversary|annual|annually|yearly|every year|"
    rf"each year|(?:every|each) {temporal.MONTH_RE})",
    re.I,
)
_CLAUSE_END = re.compile(r"[.!?;]\s|\n|\s[-–—]\s")
_ASIDE = re.compile(r"\s[-–—]\s|;\s|\s(?:because|as|since)\s")


def _tiers(
    sections: list[tuple[list[str], list[tuple[str, bool]]]],
    entry_notes: dict[tuple[int, int], notes.Note],
    days: list[list[str]],
    today: dt.date,
) -> dict[tuple[int, int], int]:
    """The tier of every entry (section, entry) when MEMORY.md does not fit, from ``MUST``
    (shown first) to ``OVER`` (shown last): see :func:`memory_section`.

    A fact (W, S, or an O that is no passing impression) stays a standing fact whatever past
    dates it names: "Signed with Aviva today (2026-10-01) for the car insurance" and "our GP
    is Dr Okafor - Dr Patel retired in July" still hold. What was done (B) is an event, even
    when it names a medicine ("Collected Leo's inhaler prescription from Lloyds"): what a
    session must not miss is the fact, not the errand. An entry without a date counts as
    written on the day of the dated entry above it (as :func:`_newest_first` reads it)."""
    out: dict[tuple[int, int], int] = {}
    for i, (_heads, entries) in enumerate(sections):
        above = ""
        for k, (shown, _is_note) in enumerate(entries):
            above = days[i][k] or above
            note = entry_notes.get((i, k))
            text, kind = (note.text, note.type) if note is not None else (shown, "")
            timing = when(text, _day(above), today)
            if timing == "over":
                out[i, k] = OVER
            elif kind != "B" and vital(text):
                out[i, k] = MUST
            elif timing == "soon":
                out[i, k] = SOON
            elif impression(kind, text):
                out[i, k] = IMPRESSION
            elif kind == "B" or (timing == "past" and not kind):
                out[i, k] = EVENT
            else:
                out[i, k] = STANDING
    return out


def when(text: str, written: dt.date | None, today: dt.date) -> str:
    """What the dates an entry names (:func:`_dated`: one regular expression, nothing heavier)
    say of it on ``today``:

    - "soon": one lies from today to ``SOON_DAYS`` ahead ("MOT on Friday (2026-10-16)");
    - "over": those that lay ahead on the day it was ``written`` are all behind today: "Booked
      Sam's asthma review for 6 October", seen on 10 October. The day it was written counts
      as ahead ("care plan review today (2026-09-29) at 3:30") unless its sentence tells
      what was done ("Signed with Keel & Co today (2026-09-30)");
    - "past": none lay ahead when it was written, or, with no day it was written, every one is
      behind today (an event, for a line written by hand: :func:`_tiers`);
    - "" otherwise: no date, or one further ahead.

    A date that starts what then holds, or names what was replaced, says nothing ("Tom is the
    accompanist from 1 October", "1pm Friday instead of 8am Monday (2026-09-28)":
    :data:`_STARTS`); the date of what recurs ("every Tuesday", "birthday 14 March") is only
    ever soon, in the year nearest today."""
    plain = _RESOLVED.sub("", text)
    recurs = bool(temporal.ROUTINE_RE.search(plain) or _YEARLY.search(plain))
    anchor = today if recurs or written is None else written
    found = [(d, at) for d, at in _dated(text, anchor) if not _STARTS.search(text, 0, at)]
    if any(today <= d <= today + dt.timedelta(days=SOON_DAYS) for d, _at in found):
        return "soon"
    if recurs or not found:
        return ""
    if written is None:
        return "past" if max(d for d, _at in found) < today else ""
    aside = _ASIDE.search(text)
    if aside and temporal.tense(text[: aside.start()]) < 0:
        # the dates of a reason after what was done say nothing of it: "Switched from Ace
        # Skips to BinGo Skips - Ace couldn't swap until next week (week of 2026-09-28)"
        found = [(d, at) for d, at in found if at < aside.start()]
    ahead = [d for d, at in found if d > written or (d == written and not _done(text, at))]
    if ahead:
        return "over" if max(ahead) < today else ""
    return "past"


def _done(text: str, at: int) -> bool:
    """Whether the clause of ``text`` around position ``at`` tells what was done ("Signed
    with Haddon Meats today (2026-09-25) — they'll do all our butchery": signed)."""
    begin = max((m.end() for m in _CLAUSE_END.finditer(text, 0, at)), default=0)
    end = _CLAUSE_END.search(text, at)
    return temporal.tense(text[begin : end.start() if end else len(text)]) < 0


def _in_tiers(
    sections: list[tuple[list[str], list[tuple[str, bool]]]],
    orders: list[list[int]],
    max_chars: int,
    tiers: dict[tuple[int, int], int],
) -> list[set[int]]:
    """Which entries of each section to show: those of tier ``MUST`` (what a session must not
    miss, an allergy or a name: :func:`agent_sleep.analysis.vital.vital`) in the file's order,
    then, tier by tier (:func:`_tiers`), one from each section in turn, newest first
    (``orders``: each section's entries in that order, :func:`_newest_first`), each while it
    fits; an entry too long to fit is passed over."""
    chosen: list[set[int]] = [set() for _ in sections]
    size = 0
    for i, k in sorted(key for key, tier in tiers.items() if tier == MUST):
        heads, entries = sections[i]
        cost = len(entries[k][0]) + (0 if chosen[i] else _heading_cost(heads))
        if size + cost <= max_chars:
            chosen[i].add(k)
            size += cost
    for tier in range(SOON, OVER + 1):
        turns = [[k for k in order if tiers[i, k] == tier] for i, order in enumerate(orders)]
        size = _in_turn(sections, turns, max_chars, chosen, size)
    return chosen


def _in_turn(
    sections: list[tuple[list[str], list[tuple[str, bool]]]],
    orders: list[list[int]],
    max_chars: int,
    chosen: list[set[int]],
    size: int,
) -> int:
    """Adds to ``chosen`` one entry of each section in turn, in ``orders``, each while it fits
    beside ``size`` characters already shown; the characters shown after."""
    queues = [iter(order) for order in orders]
    moved = True
    while moved:
        moved = False
        for i, (heads, entries) in enumerate(sections):
            for k in queues[i]:
                if k in chosen[i]:
                    continue  # shown already, as one a session must not miss
                cost = len(entries[k][0]) + (0 if chosen[i] else _heading_cost(heads))
                if size + cost <= max_chars:
                    chosen[i].add(k)
                    size += cost
                    moved = True
                    break
    return size


def log_tail(path: os.PathLike[str], max_bytes: int = TAIL_BYTES) -> tuple[str, bool]:
    """The end of a log, at most ``max_bytes`` starting at a note, and whether it was cut: a
    huge log is never read whole on this path (it runs at every session start)."""
    try:
        with open(path, "rb") as f:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - max_bytes))
            data = f.read()
            if size > max_bytes:
                # start at a note, or at a section heading above it, so that the notes shown
                # keep the section they were written under (a "## Dreams" above the cut would
                # otherwise show its notes as the day's own)
                start = data.find(b"\n- ") + 1
                padded = b"\n" + data
                head = padded.rfind(b"\n## ", 0, start + 1)
                if head >= 0:
                    data = padded[head + 1 :]
                else:
                    data = _section_above(f, size - max_bytes) + data[start:]
    except (FileNotFoundError, IsADirectoryError):
        return "", False
    return lf(data.decode("utf-8", "surrogateescape")), size > max_bytes


def _section_above(f: BinaryIO, end: int, chunk: int = 1 << 16, limit: int = 1 << 24) -> bytes:
    """The last ``## `` heading line that starts before byte ``end`` of an open log, with its
    newline; b"" if there is none within ``limit`` bytes. Read backwards a chunk at a time."""
    f.seek(end)
    pos, carry = end, f.read(3)  # a heading line the cut fell in starts before ``end``
    while pos > 0 and end - pos < limit:
        step = min(chunk, pos)
        pos -= step
        f.seek(pos)
        window = f.read(step) + carry  # carry: a heading's start split across two chunks
        at = window.rfind(b"\n## ")  # -1 also stands for a heading at the file's start
        if at < 0 and not (pos == 0 and window.startswith(b"## ")):
            carry = window[:3]
            continue
        f.seek(pos + at + 1)
        line = f.readline(512)
        return line if line.endswith(b"\n") else line + b"\n"
    return b""


def lf(text: str) -> str:
    """``text`` with its line ends as ``\n`` (a file saved with CRLF shows no ``\r``; only
    what is shown changes, never the file)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def log_section(
    text: str, max_chars: int | None = None, name: str = "this log", cut: bool = False
) -> str:
    """A daily log's notes (and any other lines) without its title, metadata comments or
    ``## Next session`` actions (shown in their own section); with ``max_chars``, the newest
    that fit, and one line saying that older ones were left out.

    A log that sleep wrote to more than once repeats its sections (``## Retain``, ``## Dreams``,
    ``## Retain``, ``## Dreams``): the view merges them, one heading per section kind. The
    notes of the day (``## Retain``, and anything above the first section) come first without
    a heading, then every other section under ``### <title>`` in the order it first appears;
    within each, the notes in time order (a line without a time stays after the one before
    it).

    When ``name`` gives the log's day (``memory/2026-03-09.md``: a log is named by its day),
    its lines show their relative times resolved against that day (:func:`anchored`), and
    ``max_chars`` counts them as shown."""
    return _log_view(text, max_chars, name, cut)[0]


def _log_view(
    text: str, max_chars: int | None = None, name: str = "this log", cut: bool = False
) -> tuple[str, list[notes.Note]]:
    """``log_section``, and the notes it shows."""
    day = _day(Path(name).stem)
    parts: list[tuple[str | None, str, str, notes.Note | None]] = []  # (section, time, shown, note)
    group: str | None = None  # the section a block shows under (None: the notes of the day)
    last: dict[str | None, str] = {}  # the time of each section's latest line
    for block in notes.parse(lf(text)).blocks:
        if block.section == notes.NEXT_SESSION:
            continue
        heading = block.heading
        if heading is not None and heading.level <= 2:
            group = None if heading.level == 1 or heading.title == notes.RETAIN else heading.title
            continue
        if heading is not None:  # a sub-heading, one level down like its section's
            shown = f"{'#' * min(heading.level + 1, 6)} {heading.title}\n"
        elif block.raw.strip():
            shown = anchored(notes.strip_meta(block.raw), day)
        else:
            continue
        note = block.note
        time = note.time if note is not None and note.time else last.get(group, "")
        last[group] = time
        parts.append((group, time, shown, note))
    keep = range(len(parts))
    trimmed = cut
    if max_chars is not None and sum(len(p[2]) for p in parts) > max_chars:
        trimmed, size, first = True, 0, len(parts)
        headed: set[str | None] = {None}  # sections whose heading is paid for
        for i in reversed(range(len(parts))):  # the newest (last written) that fit
            section, _t, shown, _n = parts[i]
            cost = len(shown) + (0 if section in headed else len(_heading(section)))
            if size + cost > max_chars:
                break
            headed.add(section)
            size += cost
            first = i
        keep = range(first, len(parts))
    sections: dict[str | None, list[tuple[str, str, notes.Note | None]]] = {None: []}
    for i in keep:
        section, time, shown, note = parts[i]
        sections.setdefault(section, []).append((time, shown, note))
    out: list[str] = []
    shown_notes: list[notes.Note] = []
    for section, lines in sections.items():
        if not lines:
            continue
        if section is not None:
            out.append(_heading(section))
        for _time, shown, note in sorted(lines, key=lambda line: line[0]):
            out.append(shown)
            if note is not None:
                shown_notes.append(note)
    if trimmed:
        out.insert(0, f"[older notes of {name} not shown; `agent-sleep search QUERY` finds them]\n")
    return "".join(out).strip("\n"), shown_notes


def _heading(section: str | None) -> str:
    return f"### {section}\n" if section is not None else ""


def anchored(text: str, day: dt.date | None) -> str:
    """Text of the log of ``day`` as a session reads it: each relative time followed by the
    date it means seen from ``day`` (:func:`agent_sleep.analysis.temporal.resolve`), since a
    session reads "yesterday" as the day before its own::

        "Went to the dentist yesterday", 2026-03-09 -> "… yesterday (2026-03-08)"

    A time already resolved stays as it is; without a day, ``text`` is returned unchanged."""
    return temporal.resolve(text, day) if day is not None else text


def next_session(ws: Workspace, today: dt.date | None = None) -> tuple[str, str] | None:
    """(date, actions) of the newest ``## Next session`` list with an action still to show,
    with the actions of the lists planned in the days before (see :func:`_next_session`)."""
    found = _next_session(ws, today)
    return None if found is None else (found[0], found[1])


NEXT_SESSION_DAYS = 3  # lists planned this many days before today stay shown with the newest
NEXT_SESSION_LISTS = 4  # at most this many lists are merged
NEXT_SESSION_STALE = 7  # days: a list older than this before a later sleep's output is not shown


def planned_heading(planned: str, today: dt.date | None = None) -> str:
    """The ``## Next session`` heading: the day the list was planned, and its age when that
    was before yesterday ("planned on 2026-11-28, 6 days ago"): a reader sees an old plan as old."""
    today = today or dt.date.today()
    try:
        age = (today - dt.date.fromisoformat(planned)).days
    except ValueError:
        age = 0
    return f"## Next session (planned on {planned}" + (f", {age} days ago)" if age >= 2 else ")")


def _next_session(
    ws: Workspace, today: dt.date | None = None
) -> tuple[str, str, list[tuple[str, list[notes.Note]]]] | None:
    """The newest ``## Next session`` list up to ``today`` that has an action still to show
    (the day it was planned, the actions, and the notes shown of each log), followed by the
    actions of the lists planned in the ``NEXT_SESSION_DAYS`` before today that it does not
    repeat: each sleep plans from its own notes, so the morning session's actions would be
    gone after the evening's sleep.

    What is shown is kept current:

    - an action is past, and not shown, when the dates it names that lay ahead on the day it
      was planned ("installed on Dec 2", "next week (week of 2026-11-30)", "due 2026-11-20",
      a "tomorrow" read from that day: :func:`anchored`, as it is shown) all lie before today;
      a date already behind it then (a birthday, "since 2019") says nothing of whether it is
      done;
    - a list planned more than ``NEXT_SESSION_STALE`` days before the newest log a later sleep
      wrote to (its ``## Dreams`` or ``## Next session``) is not shown: sleeps have read a
      week of notes since and planned from those. Without such a sleep an old list stays, and
      the heading says its age (:func:`planned_heading`)."""
    today = today or dt.date.today()
    held: list[set[str]] = []  # the marked entries' ids, read once when a check is shown
    lists: list[tuple[Path, list[tuple[str, notes.Note]]]] = []  # (log, [(shown, note)])
    recent = (today - dt.timedelta(days=NEXT_SESSION_DAYS)).isoformat()
    slept = ""  # the newest log up to today that a sleep wrote dreams or actions to
    for path in reversed(ws.daily_logs()[-NEXT_SESSION_LOOKBACK:]):
        if path.stem > today.isoformat():
            continue  # the context as of a day: nothing planned after it
        if lists and (path.stem < recent or len(lists) >= NEXT_SESSION_LISTS):
            break
        text, _ = log_tail(path)  # sleep appends the actions at the end of the log
        if not slept and (notes.NEXT_SESSION_HEADING in text or notes.DREAMS_HEADING in text):
            slept = path.stem
        if notes.NEXT_SESSION_HEADING not in text:
            continue
        if not lists and slept and _days_between(path.stem, slept) > NEXT_SESSION_STALE:
            break  # older lists are older still
        planned = _day(path.stem)
        found: list[tuple[str, notes.Note]] = []
        for b in notes.parse(text).blocks:
            if b.section != notes.NEXT_SESSION or b.note is None:
                continue
            line = anchored(notes.strip_meta(b.raw), planned)  # as shown, past or not by it
            if planned and _past(line, planned, today):
                continue
            if b.note.text.startswith(CHECK) and not _still_marked(ws, b.note, held):
                continue  # settled since: the entry it asks of is no longer marked
            found.append((line, b.note))
        if found:
            lists.append((path, found))
    if not lists:
        return None
    seen: set[str] = set()
    parts: list[str] = []
    shown: list[tuple[str, list[notes.Note]]] = []
    for k, (path, found) in enumerate(lists):
        fresh = [(line, n) for line, n in found if one_line(n.text) not in seen]
        seen.update(one_line(n.text) for _, n in found)
        if not fresh:
            continue
        body = "".join(line for line, _n in fresh).strip("\n")
        parts.append(body if k == 0 else f"### Planned {path.stem}\n{body}")
        shown.append((path.relative_to(ws.root).as_posix(), [n for _, n in fresh]))
    return lists[0][0].stem, "\n".join(parts), shown


CHECK = "Check: "  # a next-session action asking to settle an entry sleep marked


def _still_marked(ws: Workspace, action: notes.Note, held: list[set[str]]) -> bool:
    """Whether the entry a "Check:" action asks of (the first id it cites) is still marked in
    MEMORY.md as one a current entry may replace (consolidation/maybe_replaced.py)."""
    if not held:
        found = notes.notes_in(ws.read_text(ws.memory_md)) if ws.memory_md.exists() else []
        held.append(set(marked(found)))
    cited = notes.sources_of(action)
    return bool(cited) and cited[0] in held[0]


def _day(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def _days_between(earlier: str, later: str) -> int:
    a, b = _day(earlier), _day(later)
    return (b - a).days if a and b else 0


_MONTH_NAMES = tuple(m[:3] for m in temporal.MONTHS)


def _month(group: str) -> str:
    """A month's name, capitalised (so the verb "may" is no date), as the named group."""
    return rf"(?P<{group}>{temporal.MONTH_RE})"


_YEAR = r"(?:,? (?P<{}>(?:19|20)\d{{2}}))?"
_DATES = re.compile(
    r"(?P<span>(?:week|weekend) of )?\b(?P<iso>\d{4}-\d{2}-\d{2})\b"  # as sleep resolves
    r"|\((?P<isomonth>\d{4}-\d{2})\)"  # "next month (2026-12)"
    rf"|\b{_month('m')} (?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b{_YEAR.format('y')}"  # Dec 2
    rf"|\b(?P<d2>\d{{1,2}})(?:st|nd|rd|th)? (?:of )?{_month('m2')}{_YEAR.format('y2')}"
    r"|\b(?P<m3>January|February|March|April|June|July|August|September|October|November"
    r"|December)\b" + _YEAR.format("y3")  # a whole month: "in early December"
)


def _past(text: str, planned: dt.date, today: dt.date) -> bool:
    """Whether an action planned on ``planned`` is past by ``today``: it names dates that lay
    ahead then (a day, a week or weekend of a day, a month; a month and day without a year is
    taken in the year nearest to ``planned``), and the last of them is before today."""
    ahead = [d for d in _dates(text, planned) if d >= planned]
    return bool(ahead) and max(ahead) < today


def _dates(text: str, planned: dt.date) -> list[dt.date]:
    """The last day of each date ``text`` names."""
    return [day for day, _start in _dated(text, planned)]


def _dated(text: str, planned: dt.date) -> list[tuple[dt.date, int]]:
    """The last day of each date ``text`` names, with where it starts in ``text``."""
    out: list[tuple[dt.date, int]] = []
    for m in _DATES.finditer(text):
        try:
            if m["iso"]:
                day = dt.date.fromisoformat(m["iso"])
                span = (m["span"] or "").strip()
                day += dt.timedelta(days=6 if span == "week of" else 1 if span else 0)
            elif m["isomonth"]:
                y, mo = map(int, m["isomonth"].split("-"))
                day = _month_end(y, mo)
            elif m["m3"]:
                day = _in_year(m["y3"], planned, _month_number(m["m3"]), None)
            elif m["m"]:
                day = _in_year(m["y"], planned, _month_number(m["m"]), int(m["d"]))
            else:
                day = _in_year(m["y2"], planned, _month_number(m["m2"]), int(m["d2"]))
        except ValueError:
            continue  # no such day (Feb 30)
        out.append((day, m.start()))
    return out


def _month_number(name: str) -> int:
    return _MONTH_NAMES.index(name[:3].lower()) + 1


def _month_end(year: int, month: int) -> dt.date:
    return dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)


def _in_year(year: str | None, planned: dt.date, month: int, day: int | None) -> dt.date:
    """The day (a whole month's last without ``day``) in ``year``, or without one, in the year
    that puts it nearest ``planned``."""

    def make(y: int) -> dt.date:
        return _month_end(y, month) if day is None else dt.date(y, month, day)

    if year:
        return make(int(year))
    return min(
        (make(y) for y in (planned.year - 1, planned.year, planned.year + 1)),
        key=lambda d: abs((d - planned).days),
    )


Shown = tuple[str, str]  # (path, text) of a note a section shows, as a recall hit has them


def _keys(shown: list[tuple[str, list[notes.Note]]]) -> set[Shown]:
    """What the notes shown in each file look like as recall hits."""
    from agent_sleep.retrieval.units import display

    return {(path, display(n)) for path, found in shown for n in found}


def relevant_section(
    ws: Workspace,
    query: str,
    budget_tokens: int | None,
    shown: set[Shown],
    today: dt.date | None = None,
) -> str:
    """The hits of ``query`` that no section above shows, within ``budget_tokens``."""
    from agent_sleep.retrieval.recall import recall, relevant

    hits = _unshown_hits(ws, query, budget_tokens, shown, today)
    title = f"## Relevant memories (query: {shorten(' '.join(query.split()))})"
    if hits and not relevant(hits):  # scores only rank: say so when none is close
        title += "\n\n(nothing in memory is close to the query: these are only the nearest)"
    if not hits:
        nearest = _as_of(recall(ws, query, k=10, today=today), today)
        if budget_tokens and any((h.path, h.text) not in shown for h in nearest):
            return f"{title}\n\n(the nearest memories do not fit in budget_tokens={budget_tokens})"
        if nearest:
            return (
                f"{title}\n\n(the nearest memories are already shown above; "
                "nothing found beyond the logs above)"
            )
        return f"{title}\n\n(nothing found beyond the logs above)"
    return title + "\n\n" + "\n".join(_line(h) for h in hits)


def _line(h: Hit) -> str:
    """A hit as the section shows it: its day and time, a superseded one labelled with what
    replaced it (currency: never shown as if it were still true), and its file unless a log;
    the text of a log :func:`anchored` to its day."""
    when = " ".join(x for x in (h.date, h.time) if x)
    where = f"[{when}] " if when else ""
    log = h.path.startswith("memory/")
    text = anchored(h.text, _day(h.date or "") if log else None).replace("\n", "\n  ")
    origin = "" if log else f" ({h.path})"
    if not h.current:
        where += f"[superseded {h.superseded_on or ''}: now {h.superseded_by or '?'}] "
    return f"- {where}{text}{origin}"


def _as_of(hits: list[Hit], today: dt.date | None) -> list[Hit]:
    """The hits not dated after ``today``: the context as of a day leaves out what came later."""
    if today is None:
        return hits
    day = today.isoformat()
    return [h for h in hits if not h.date or h.date <= day]


UNSHOWN_ROUNDS = 4  # recalls at most, each asking for room for the hits shown above


def _unshown_hits(
    ws: Workspace, query: str, budget_tokens: int | None, shown: set[Shown], today: dt.date | None
) -> list[Hit]:
    """What recall finds for ``query`` that no section shows, best first, within
    ``budget_tokens`` (else as many hits as recall gives by default). Hits already shown are
    left out before the budget is spent: recall is asked for as much more as they took (their
    tokens, or their number), again while more of them come up, and what is left is packed
    greedily by rank."""
    from agent_sleep.retrieval.recall import DEFAULT_K, count_tokens, recall

    extra = 0  # tokens (with a budget) or hits (without) asked for beyond what is wanted
    found: list[Hit] = []
    for _ in range(UNSHOWN_ROUNDS):
        if budget_tokens is not None:
            found = recall(ws, query, budget_tokens=budget_tokens + extra, today=today)
        else:
            found = recall(ws, query, k=DEFAULT_K + extra, today=today)
        found = _as_of(found, today)
        seen = [h for h in found if (h.path, h.text) in shown]
        need = sum(h.tokens for h in seen) if budget_tokens is not None else len(seen)
        if need <= extra:
            break
        extra = max(need, 2 * extra)
    out: list[Hit] = []
    used = 0
    for h in found:
        if (h.path, h.text) in shown:
            continue
        if budget_tokens is None and len(out) >= DEFAULT_K:
            break
        cost = count_tokens(_line(h))  # as shown: its day, label and file count too
        if budget_tokens is not None and used + cost > budget_tokens:
            continue
        out.append(h)
        used += cost
    return out
