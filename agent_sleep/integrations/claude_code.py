"""Claude Code hooks: SessionStart loads memory, PreCompact flushes, SessionEnd sleeps.

Each hook reads Claude Code's hook JSON on stdin (``session_id``, ``transcript_path``, ``cwd``,
``hook_event_name`` and ``source`` / ``trigger`` / ``reason``). A hook must never break the
user's session: whatever goes wrong (malformed JSON, a missing transcript, a failed flush) is one
line on stderr, a ``hook`` entry with the reason in the journal, and exit code 0.

- SessionStart answers ``{"hookSpecificOutput": {"hookEventName": "SessionStart",
  "additionalContext": …}}``, always under ``OUTPUT_CHARS`` (Claude Code cuts a hook's output
  above 10,000 characters down to a short preview); when memory holds more, one line says so and
  points to the search tool.
- PreCompact flushes the durable facts of the transcript since the last flush of that session:
  ``.agent-sleep/claude-code/sessions.json`` keeps, per session id, the transcript's byte offset
  already flushed. A second PreCompact in the same cycle finds nothing new and writes nothing.
- SessionEnd starts a detached worker (``sleep_worker``) and returns at once; the worker flushes
  the transcript's tail, then sleeps, holding the sleep lock (``sleep_lock``) so two sleeps
  never overlap.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_sleep.core.errors import AgentSleepError
from agent_sleep.core.workspace import Workspace

if TYPE_CHECKING:
    from agent_sleep.integrations.transcript import Slice

EVENTS = {"session-start": "SessionStart", "pre-compact": "PreCompact", "session-end": "SessionEnd"}
OUTPUT_CHARS = 9_500  # the whole JSON answer stays under Claude Code's 10,000-character cut
MAX_STDIN = 1 << 20
FLUSH_PART_CHARS = 1_000_000  # of rendered conversation per flush call
PRE_COMPACT_SECONDS = 90.0  # no new flush piece starts after this (the installed timeout: 120 s)
STATE = "claude-code"
SESSIONS = "sessions.json"
SLEEP_LOG = "sleep.log"
SLEEP_LOG_BYTES = 1 << 20
SEARCH_HINT = "memory_search"
MEMORY_TRIES = (8000, 6000, 3000)  # MEMORY.md shown: its sleep budget, then less, to fit
MEMORY_CHARS = 3000  # of MEMORY.md when the whole block does not fit even so
NEXT_CHARS = 1500  # of the next-session actions then
LOG_TAIL_BYTES = 64 * 1024


class HookInputError(AgentSleepError):
    """The hook's stdin is not the JSON Claude Code sends."""


@dataclass(frozen=True)
class HookResult:
    stdout: str = ""
    warning: str | None = None  # one line for stderr
    journal: dict[str, Any] | None = None


def parse_input(raw: str) -> dict[str, Any]:
    if len(raw) > MAX_STDIN:
        raise HookInputError(f"hook input is over {MAX_STDIN} bytes")
    if not raw.strip():
        raise HookInputError("no hook JSON on stdin")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        raise HookInputError(f"hook input is not JSON ({e.msg} at line {e.lineno})") from None
    if not isinstance(data, dict):
        raise HookInputError("hook input is not a JSON object")
    for key in ("session_id", "transcript_path", "cwd", "hook_event_name"):
        if key in data and data[key] is not None and not isinstance(data[key], str):
            raise HookInputError(f"hook input field {key} is not a string")
    return data


def state_dir(ws: Workspace) -> Path:
    return ws.state_dir / STATE


def now_iso() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


# -- SessionStart ----------------------------------------------------------------------------


def session_start_context(
    ws: Workspace, limit: int = OUTPUT_CHARS - 200, *, today: dt.date | None = None
) -> str:
    """The memory block for a new session, at most ``limit`` characters (``today``: the date
    whose log counts as today's, default the clock). What ``get_context`` gives when it fits,
    with as much of MEMORY.md as there is room for; else MEMORY.md's head, the next-session
    actions and today's newest notes, in budgets, and one line saying that memory holds more
    and where to find it."""
    from agent_sleep.retrieval.context import get_context

    if not ws.exists():
        return ""
    full = ""
    for memory_chars in MEMORY_TRIES:  # as much of MEMORY.md as the block has room for
        text = get_context(ws, max_memory_chars=memory_chars, today=today)
        if len(text) <= limit:
            return text
        full = full or text
    note = (
        f"[Memory holds more than fits here ({len(full)} characters of context): "
        f"use the {SEARCH_HINT} tool (or `agent-sleep search QUERY`) to find the rest.]\n"
    )
    text = _budgeted(ws, limit - len(note), today or dt.date.today())
    return text + note


def _budgeted(ws: Workspace, room: int, today: dt.date) -> str:
    """MEMORY.md's head, the next-session actions and today's newest notes within ``room``,
    measured on the finished text. What does not fit comes off the oldest end first: older notes
    (down to a floor: a third of the room, or the newest note when it is longer), then MEMORY.md
    at entry boundaries and the actions (down to a sixth of the room each), then those two
    sections whole, and only then more of the log: the newest note is never what is cut."""
    from agent_sleep.retrieval.context import log_tail, next_session

    memory_md = ws.read_text(ws.memory_md)
    actions = next_session(ws, today)
    path = ws.day_log(today)
    log, cut = log_tail(path, LOG_TAIL_BYTES)
    floor = min(room, max(room // 3, _newest_note_chars(log) + 200))
    budget = {"log": room, "memory": min(MEMORY_CHARS, room // 2), "next": NEXT_CHARS}
    levers = [  # what gives way, in order, and down to what (below 0: the section goes)
        ("log", floor),
        ("memory", room // 6),
        ("next", room // 6),
        ("memory", -1),
        ("next", -1),
        ("log", 0),
    ]
    text = ""
    for _ in range(32):
        text = _assemble(ws, memory_md, actions, (log, cut, path, today), budget)
        over = len(text) - room
        if over <= 0:
            return text
        key, least = next(((k, m) for k, m in levers if budget[k] > m), ("", 0))
        if not key:
            break
        budget[key] = max(least, budget[key] - over)
    return _cut(text, room)  # a room too small even for the headings


def _assemble(
    ws: Workspace,
    memory_md: str,
    actions: tuple[str, str] | None,
    day: tuple[str, bool, Path, dt.date],
    budget: dict[str, int],
) -> str:
    """The budgeted block; a budget below 0 leaves its section out."""
    from agent_sleep.retrieval.context import log_section, memory_section, planned_heading

    log, cut, path, today = day
    parts: list[str] = []
    memory = (
        memory_section(memory_md, budget["memory"], today=today) if budget["memory"] >= 0 else ""
    )
    if memory:
        parts.append("## Long-term memory (MEMORY.md)\n\n" + memory)
    body = log_section(log, budget["log"], path.relative_to(ws.root).as_posix(), cut)
    if body:
        parts.append(f"## Today's log ({today.isoformat()})\n\n{body}")
    if actions and budget["next"] >= 0:
        shown = _cut(actions[1] + "\n", budget["next"]).rstrip("\n")
        if shown:
            parts.append(f"{planned_heading(actions[0], today)}\n\n{shown}")
    return "# Memory\n\n" + "\n\n".join(p.rstrip("\n") for p in parts) + "\n"


def _newest_note_chars(log: str) -> int:
    from agent_sleep.core import notes

    found = [
        b for b in notes.parse(log).blocks if b.note is not None and b.section != notes.NEXT_SESSION
    ]
    return len(notes.strip_meta(found[-1].raw)) if found else 0


def _cut(text: str, chars: int) -> str:
    """``text`` within ``chars``, cut at a line boundary (never mid-line)."""
    if len(text) <= chars:
        return text
    head = text[:chars]
    return head[: head.rfind("\n") + 1]


def session_start(ws: Workspace) -> HookResult:
    """The answer, under ``OUTPUT_CHARS`` as JSON: quotes, backslashes and newlines take two
    characters there, so a context full of them is built again in a smaller budget."""
    blocked = _file_in_the_way(ws.root)
    if blocked is not None:  # a misconfigured hook, not an empty memory
        what = f"workspace {ws.root} is a file, not a folder"
        if blocked != ws.root:
            what = f"workspace {ws.root} cannot exist: {blocked} is a file, not a folder"
        return HookResult(
            stdout=_empty_answer("session-start"), warning=f"agent-sleep session-start hook: {what}"
        )
    limit = OUTPUT_CHARS - 200
    for _ in range(6):
        context = session_start_context(ws, limit)
        answer = json.dumps(
            {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": context}},
            ensure_ascii=False,
        )
        if len(answer) < OUTPUT_CHARS:
            return HookResult(stdout=answer)
        limit = int(limit * OUTPUT_CHARS / len(answer) * 0.9)
    return HookResult(
        stdout=_empty_answer("session-start"),
        warning="agent-sleep session-start hook: memory too large to show",
    )


def _file_in_the_way(root: Path) -> Path | None:
    """The file that stands where the workspace or a folder above it should be, if any: the
    workspace cannot exist, which a hook reports (a missing folder is only an empty memory)."""
    for path in (root, *root.parents):
        if path.exists():
            return None if path.is_dir() else path
    return None


# -- PreCompact ------------------------------------------------------------------------------


def _sessions(ws: Workspace) -> dict[str, Any]:
    raw = ws.read_text(state_dir(ws) / SESSIONS)
    try:
        data = json.loads(raw) if raw else {}
    except json.JSONDecodeError:
        data = {}
    return data if isinstance(data, dict) else {}


def _transcript(payload: dict[str, Any]) -> Path:
    raw = payload.get("transcript_path")
    if not raw:
        raise HookInputError("hook input has no transcript_path")
    path = Path(os.path.expanduser(raw))
    if path.is_dir():
        raise HookInputError(f"transcript {raw} is a folder, not a file")
    if not path.exists():
        raise HookInputError(f"transcript {raw} does not exist")
    if not path.is_file():
        raise HookInputError(f"transcript {raw} is not a regular file")
    return path


def _pieces(part: Slice) -> list[tuple[str, int]]:
    """The slice's turns in flush-sized pieces, each with the transcript offset it reaches. A
    turn bigger than a piece is split (at a line break where it can be), never cut short; a
    piece that ends inside a turn reaches only the offset before that turn, so a flush that
    stops there reads the whole turn again next time (its flushed part is skipped by hash)."""
    out: list[tuple[str, int]] = []
    chunk: list[str] = []
    size = 0
    reached = before = part.start
    for turn, end in zip(part.parts, part.ends, strict=True):
        bits = _split(turn, FLUSH_PART_CHARS)
        for i, bit in enumerate(bits):
            if chunk and size + len(bit) > FLUSH_PART_CHARS:
                out.append(("\n\n".join(chunk), reached))
                chunk, size = [], 0
            chunk.append(bit)
            size += len(bit) + 2
            reached = end if i == len(bits) - 1 else before
        before = end
    if chunk:
        out.append(("\n\n".join(chunk), reached))
    return out


def _split(text: str, chars: int) -> list[str]:
    """``text`` in consecutive parts of at most ``chars``, split at the last line break, else
    the last space, that fits; only the one separator character at a split is dropped."""
    out: list[str] = []
    while len(text) > chars:
        at = text.rfind("\n", 0, chars + 1)
        if at <= 0:
            at = text.rfind(" ", 0, chars + 1)
        if at <= 0:
            out.append(text[:chars])
            text = text[chars:]
        else:
            out.append(text[:at])
            text = text[at + 1 :]
    out.append(text)
    return out


def _save_offset(ws: Workspace, session_id: str, path: Path, offset: int, first: bool) -> None:
    with ws.lock():
        sessions = _sessions(ws)
        entry = sessions.get(session_id, {})
        if entry.get("transcript") == str(path) and int(entry.get("offset", 0)) >= offset:
            return
        flushes = int(entry.get("flushes", 0)) + (1 if first else 0)
        sessions[session_id] = {
            "transcript": str(path),
            "offset": offset,
            "flushed_at": now_iso(),
            "flushes": flushes,
        }
        state_dir(ws).mkdir(parents=True, exist_ok=True)
        ws.write_text(state_dir(ws) / SESSIONS, json.dumps(sessions, indent=1, sort_keys=True))


def flush_transcript(
    ws: Workspace, session_id: str, path: Path, seconds: float | None = None
) -> dict[str, Any]:
    """Flush what the transcript holds past the session's last flushed offset, piece by piece,
    saving the offset after each piece; with ``seconds``, stop starting pieces after that long
    (the rest waits for the next flush)."""
    from agent_sleep.integrations.transcript import read_since

    started = time.monotonic()
    ws.ensure()
    with ws.lock():
        known = _sessions(ws).get(session_id, {})
    offset = int(known.get("offset", 0)) if known.get("transcript") == str(path) else 0
    part = read_since(path, offset)
    written: list[str] = []
    reached, saved = part.start, False
    for text, end in _pieces(part):
        if seconds is not None and time.monotonic() - started > seconds:
            break
        from agent_sleep.consolidation.flush import flush  # only when there is something new

        written += flush(text, workspace=ws).written
        _save_offset(ws, session_id, path, end, not saved)
        reached, saved = end, True
    else:
        if part.end > reached or not saved:
            _save_offset(ws, session_id, path, part.end, not saved and part.end > part.start)
        reached = part.end
    return {
        "from_offset": part.start,
        "to_offset": reached,
        "left_for_later": part.end - reached,
        "records": part.records,
        "malformed_lines": part.malformed,
        "notes_written": len(written),
    }


def pre_compact(ws: Workspace, payload: dict[str, Any]) -> HookResult:
    session = str(payload.get("session_id") or "unknown")
    summary = flush_transcript(ws, session, _transcript(payload), PRE_COMPACT_SECONDS)
    entry = {"hook": "pre-compact", "session_id": session, "trigger": payload.get("trigger")}
    warning = None
    if summary["malformed_lines"]:
        warning = (
            f"agent-sleep pre-compact hook: skipped {summary['malformed_lines']} malformed "
            "transcript lines"
        )
    return HookResult(warning=warning, journal={**entry, **summary})


# -- SessionEnd ------------------------------------------------------------------------------


def session_end(ws: Workspace, payload: dict[str, Any]) -> HookResult:
    ws.ensure()
    state_dir(ws).mkdir(parents=True, exist_ok=True)
    session = str(payload.get("session_id") or "unknown")
    entry: dict[str, Any] = {
        "hook": "session-end",
        "session_id": session,
        "reason": payload.get("reason"),
    }
    from agent_sleep.integrations.sleep_lock import sleep_running

    transcript = payload.get("transcript_path") or ""
    running = sleep_running(ws)
    if running and not transcript:  # with one, the worker still flushes its tail
        return HookResult(journal={**entry, "sleep": "skipped: a sleep is already running"})
    args = [sys.executable, "-m", "agent_sleep.integrations.sleep_worker", str(ws.root)]
    args += [session, str(transcript)]
    env = {**os.environ}
    package_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    log_path = state_dir(ws) / SLEEP_LOG
    if log_path.exists() and log_path.stat().st_size > SLEEP_LOG_BYTES:
        os.replace(log_path, log_path.with_suffix(".log.1"))  # keep one old log, not all
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            cwd=str(ws.root),
            env=env,
            close_fds=True,
            **_detached(),
        )
    what = "flush only: a sleep is already running" if running else "started"
    return HookResult(journal={**entry, "sleep": what, "worker_pid": proc.pid})


def _detached() -> dict[str, Any]:
    if os.name == "nt":
        flags = getattr(subprocess, "DETACHED_PROCESS", 0) | getattr(
            subprocess, "CREATE_NEW_PROCESS_GROUP", 0
        )
        return {"creationflags": flags}
    return {"start_new_session": True}


# -- the entry point -------------------------------------------------------------------------


def _cwd(payload: dict[str, Any]) -> str:
    """Where the session is; the project scope resolves its project from here (scope.py)."""
    return str(payload.get("cwd") or os.getcwd())


def _empty_answer(event: str) -> str:
    if event != "session-start":
        return ""
    return json.dumps(
        {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": ""}}
    )


def _dispatch(event: str, ws: Workspace, payload: dict[str, Any]) -> HookResult:
    if event == "session-start":
        return session_start(ws)
    if event == "pre-compact":
        return pre_compact(ws, payload)
    if event == "session-end":
        return session_end(ws, payload)
    raise HookInputError(f"unknown hook {event!r}: use one of {', '.join(EVENTS)}")


def run_hook(event: str, raw: str, ws_for: Callable[[str], Workspace]) -> HookResult:
    """Run one hook on its stdin text; ``ws_for(cwd)`` picks the workspace. Never raises: a
    failure comes back as one warning line, and its reason goes to the journal."""
    payload: dict[str, Any] = {}
    ws: Workspace | None = None
    try:
        payload = parse_input(raw)
        ws = ws_for(_cwd(payload))
        result = _dispatch(event, ws, payload)
    except Exception as e:  # a hook must never break the user's session
        reason = " ".join(str(e).split()) or type(e).__name__
        result = HookResult(
            stdout=_empty_answer(event),
            warning=f"agent-sleep {event} hook: {reason}",
            journal={"hook": event, "session_id": payload.get("session_id"), "error": reason},
        )
    if result.journal is not None:
        failed = _journal(ws, ws_for, result.journal)
        if failed and result.warning is None:  # the one line a failure gets is this one
            result = replace(result, warning=f"agent-sleep {event} hook: {failed}")
    return result


def _journal(
    ws: Workspace | None, ws_for: Callable[[str], Workspace], entry: dict[str, Any]
) -> str | None:
    """Best effort: a hook never fails on its own journal line. Why it was not written, or
    None."""
    from agent_sleep.consolidation import journal

    try:
        target = (ws or ws_for(_cwd({}))).ensure()
        journal.append(target, {"event": "hook", "time": now_iso(), **entry})
    except Exception as e:  # noqa: BLE001 - see the docstring
        reason = " ".join(str(e).split()) or type(e).__name__
        return f"its journal line was not written ({reason})"
    return None
