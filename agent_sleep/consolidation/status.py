"""status: what is waiting for sleep, how full MEMORY.md is, and what recent runs did."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any

from agent_sleep.consolidation import journal
from agent_sleep.consolidation.plan import SEEDED_BY, consolidating_sources
from agent_sleep.consolidation.snapshot import Snapshot, parse_since, read_snapshot
from agent_sleep.core import notes as fmt
from agent_sleep.core.memory import MemoryDoc, marked, memory_budget
from agent_sleep.core.notes import sources_of
from agent_sleep.core.workspace import Workspace

RECENT = 5


# -- what is pending -----------------------------------------------------------------------------
#
# A note is pending when NREM has not consolidated it: not in the watermark (or filed on a bank
# page deleted since) and cited by no MEMORY.md or bank entry, a page REM seeded from notes
# NREM had not taken aside (``by=rem``). A note whose changes a run's removal cap held back
# stays pending even when an applied change of it cites it, until a run takes the rest
# (``deferred_notes`` of the journal's sleep lines, runs rolled back aside).


def consolidating_ids(ws: Workspace, pages: list[Path] | None = None) -> set[str]:
    """Note ids the entries of MEMORY.md and the bank pages (``pages``, listed here when not
    given) consolidate: their ``sources``, but for pages REM seeded (``by=rem``)."""
    out: set[str] = set()
    for path in [ws.memory_md, *(ws.bank_pages() if pages is None else pages)]:
        for note in fmt.notes_in(ws.read_text(path)):
            out.update(consolidating_sources(note))
    return out


def nrem_cited(ws: Workspace, snap: Snapshot, again: Collection[str] = ()) -> frozenset[str]:
    """``snap.cited`` without the notes only REM-seeded entries cite. Read under the lock the
    snapshot was read under; the files are read again only when a note not in the watermark
    is cited by a current REM-seeded entry (rare: most runs read nothing more)."""
    key, value = SEEDED_BY
    seeded = {s for e in snap.bank if e.note.meta.get(key) == value for s in sources_of(e.note)}
    if not seeded:
        return snap.cited
    marks = snap.marks["nrem"]
    doubt = {
        n.id
        for n in snap.window
        if n.id in seeded and n.id in snap.cited and (n.id not in marks or n.id in again)
    }
    if not doubt:
        return snap.cited
    return snap.cited - (doubt - consolidating_ids(ws))


def held_back(lines: Iterable[dict[str, Any]]) -> set[str]:
    """Notes whose changes a run's removal cap held back (its ``deferred_notes``), runs
    rolled back aside: pending until a run takes them (the watermark then has them)."""
    lines = list(lines)
    rolled = {e.get("run_id") for e in lines if e.get("event") == "rollback"}
    out: set[str] = set()
    for e in lines:
        held = e.get("deferred_notes")
        if e.get("event") == "sleep" and e.get("run_id") not in rolled and isinstance(held, list):
            out.update(i for i in held if isinstance(i, str))
    return out


def waiting(
    note_id: str,
    marks: Collection[str],
    cited: Collection[str],
    held: Collection[str],
    again: Collection[str] = (),
) -> bool:
    """``note_id`` is pending (see above): ``cited`` as :func:`nrem_cited` gives it."""
    if note_id in marks and note_id not in again:
        return False
    return note_id not in cited or (note_id in held and note_id not in marks)


def status(
    workspace: str | os.PathLike[str] | Workspace | None = None,
    *,
    memory_budget_chars: int | None = None,
    today: dt.date | None = None,
) -> dict[str, Any]:
    ws = Workspace.at(workspace).refuse_file()  # a file is a misconfiguration, not "no workspace"
    if not ws.exists():
        return {"workspace": str(ws.root), "exists": False}
    today = today or dt.date.today()
    window_start = parse_since(None, today)
    with ws.read_lock():
        snap = read_snapshot(ws, dt.date.min, until=today)
        memory_text = ws.read_text(ws.memory_md)
        lines = journal.entries(ws)
        runs = [e for e in lines if e.get("event") in ("sleep", "rollback")]
        unfinished = journal.unfinished_runs(ws)  # killed mid-write: `rollback` undoes them
        cited = nrem_cited(ws, snap)
    held = held_back(runs)
    pending = [n for n in snap.window if waiting(n.id, snap.marks["nrem"], cited, held)]
    in_window = [n for n in pending if n.date >= window_start.isoformat()]
    rolled = {e.get("run_id") for e in runs if e.get("event") == "rollback"}
    recent = [
        _run_row(e, rolled)
        for e in lines
        if e.get("event") == "sleep-failed"
        or (e.get("event") == "sleep" and isinstance(e.get("files_changed", []), list))
    ]
    # all in UTC, ISO 8601 to the second: ordered as text (a stable sort: journal order within
    # a second)
    recent = sorted(recent + unfinished, key=lambda r: str(r["time"] or ""))[-RECENT:]
    edits = [_edit_row(e, rolled) for e in lines if e.get("event") == "memory-tool"][-RECENT:]
    return {
        "workspace": str(ws.root),
        "exists": True,
        "pending_notes": len(in_window),
        "backlog_notes": len(pending) - len(in_window),
        "notes_without_id": snap.without_id,  # hand-written: sleep skips them (and warns)
        "window_start": window_start.isoformat(),
        "memory_chars": len(memory_text),
        "memory_budget": memory_budget(memory_budget_chars),
        "memory_entries": len(MemoryDoc(memory_text).entries()),
        "memory_entries_without_id": _without_id(memory_text),
        "memory_maybe_out_of_date": _marked(memory_text),
        "bank_pages": len(ws.bank_pages()),
        "daily_logs": len(ws.daily_logs()),
        "recent_runs": recent,
        "memory_tool_runs": edits,
    }


def _marked(memory_text: str) -> list[dict[str, str]]:
    """MEMORY.md's entries sleep marked as ones a newer current entry may replace (``newer=``,
    consolidation/maybe_replaced.py): each one's id and text, and the newer one's."""
    entries = MemoryDoc(memory_text).entries()
    newer = marked(entries)
    return [
        {"id": n.id, "text": n.text, "newer_id": newer[n.id].id, "newer_text": newer[n.id].text}
        for n in entries
        if n.id in newer
    ]


def _without_id(memory_text: str) -> int:
    """MEMORY.md's list items with no id comment (written by hand): recall reads them, sleep
    leaves them as they are (it neither updates, supersedes nor moves them)."""
    from agent_sleep.retrieval.units import memory_units

    return sum(1 for u in memory_units(memory_text) if not u.ids)


def _edit_row(e: dict[str, Any], rolled: set[Any]) -> dict[str, Any]:
    """A memory-tool edit's journal line as ``status`` lists it: a run of its own, which
    ``agent-sleep rollback RUN_ID`` undoes like a sleep run."""
    files = e.get("files_changed")
    return {
        "run_id": e.get("run_id"),
        "time": e.get("time"),
        "command": e.get("command"),
        "files_changed": [str(f) for f in files] if isinstance(files, list) else [],
        "rolled_back": e.get("run_id") in rolled,
    }


def _run_row(e: dict[str, Any], rolled: set[Any]) -> dict[str, Any]:
    """A sleep run's journal line as ``status`` lists it; a failed run (``sleep-failed``)
    wrote nothing, so it has no run id to roll back and says why it stopped."""
    failed = e.get("event") == "sleep-failed"
    row = {
        "run_id": None if failed else e.get("run_id"),
        "time": e.get("time"),
        "phase": e.get("phase"),
        "provider": e.get("provider"),
        "model": e.get("model"),
        "notes_in": e.get("notes_in"),
        "files_changed": len(e.get("files_changed") or []),
        "seconds": e.get("seconds"),
        "rolled_back": not failed and e.get("run_id") in rolled,
    }
    if failed:
        row["failed"] = str(e.get("error") or "unknown error")
    return row


def render(s: dict[str, Any]) -> str:
    if not s.get("exists"):
        return f"No workspace at {s['workspace']} (run `agent-sleep init`)."
    lines = [
        f"Workspace {s['workspace']}",
        f"Pending notes: {s['pending_notes']} not yet slept (sleep reads the logs from "
        f"{s['window_start']} on)"
        + (f", plus {s['backlog_notes']} older: sleep --since DATE" if s["backlog_notes"] else ""),
    ]
    if s.get("notes_without_id"):
        lines.append(
            f"Skipped by sleep: {_n(s['notes_without_id'], 'note')} with no id comment, which "
            "sleep cannot track (take notes with `agent-sleep rest`)"
        )
    entries = _n(s["memory_entries"], "entry")
    by_hand = s.get("memory_entries_without_id", 0)
    if by_hand:
        them = "it" if by_hand == 1 else "them"
        entries += (
            f", plus {by_hand} without an id (written by hand: recall reads {them}, sleep "
            f"leaves {them} as written)"
        )
    lines += [
        f"MEMORY.md: {s['memory_chars']}/{s['memory_budget']} chars, {entries}",
        f"Bank pages: {s['bank_pages']}; daily logs: {s['daily_logs']}",
    ]
    marked = s.get("memory_maybe_out_of_date") or []
    if marked:
        lines.append(
            f"May be out of date: {_n(len(marked), 'entry')} a newer entry reads like a "
            "replacement of (a note telling the change, or the fact said again, settles it)"
        )
        lines += [f"  {m['text']}  ->  {m['newer_text']}" for m in marked]
    if s["recent_runs"]:
        lines.append("Recent sleep runs (oldest first; ids are when each ran):")
        for r in s["recent_runs"]:
            mark = " (rolled back)" if r["rolled_back"] else ""
            if r.get("unfinished"):
                mark = " (unfinished: killed mid-write; `agent-sleep rollback` undoes it)"
            if r.get("failed"):
                lines.append(
                    f"  {'failed':<20}  {r['phase'] or '?':<4}  {r['provider']}  {r['seconds']}s"
                    f"  {r['failed']}"
                )
                continue
            lines.append(
                f"  {r['run_id']}  {r['phase'] or '?':<4}  {r['provider']}  notes {r['notes_in']}  "
                f"files {r['files_changed']}  {r['seconds']}s{mark}"
            )
    else:
        lines.append("No sleep runs yet.")
    if s.get("memory_tool_runs"):
        lines.append(
            "Memory-tool edits (Claude's memory tool; `agent-sleep rollback ID` undoes one):"
        )
        for r in s["memory_tool_runs"]:
            mark = " (rolled back)" if r["rolled_back"] else ""
            lines.append(
                f"  {r['run_id']}  {r['command'] or '?':<11}  {', '.join(r['files_changed'])}{mark}"
            )
    return "\n".join(lines)


def _n(count: int, noun: str) -> str:
    if count == 1:
        return f"1 {noun}"
    return f"{count} {noun[:-1] + 'ies' if noun.endswith('y') else noun + 's'}"
