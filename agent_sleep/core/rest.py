"""micro-rest: append one note to the day's log. No model, no network, no heavy imports."""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import dataclass
from pathlib import Path

from agent_sleep.core import args, notes
from agent_sleep.core.errors import BadInput
from agent_sleep.core.redact import redact
from agent_sleep.core.workspace import Workspace

MAX_NOTE_BYTES = 4096
MAX_SOURCE_CHARS = 512
AGENT_ENV = "AGENT_SLEEP_AGENT"  # the writing agent's name, when --agent / agent= is not given
_AGENT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_TAIL_BYTES = 1 << 20


@dataclass(frozen=True)
class Appended:
    id: str
    path: Path
    date: str
    time: str
    type: str
    confidence: float | None
    redacted: bool


def build_note(
    note: str,
    type: str = "B",
    *,
    confidence: float | None = None,
    when: dt.datetime | None = None,
    source: str | None = None,
    id: str | None = None,
    agent: str | None = None,
) -> tuple[notes.Note, dt.date]:
    """Validate and normalize one note; raise ``BadInput`` with a one-line reason."""
    kind = (type or "").strip().upper()
    if kind not in notes.NOTE_TYPES:
        raise BadInput(f"unknown note type {type!r}: use one of W, B, O, S")
    if confidence is not None:
        if kind != "O":
            raise BadInput(f"--confidence applies to O notes only, not {kind}")
        if isinstance(confidence, bool) or not 0.0 <= float(confidence) <= 1.0:
            raise BadInput(f"confidence {confidence} is outside [0, 1]")
        confidence = round(float(confidence), 2)
    elif kind == "O":
        confidence = notes.DEFAULT_CONFIDENCE
    if not isinstance(note, str):
        raise BadInput("the note must be text")
    size = len(note.encode("utf-8", "surrogatepass"))
    if size > MAX_NOTE_BYTES:
        raise BadInput(
            f"note is {size} bytes, over the {MAX_NOTE_BYTES}-byte cap; "
            "send long context through `agent-sleep flush` instead"
        )
    text = notes.normalize_text(redact(note))
    if not text:
        raise BadInput("the note is empty")
    meta: dict[str, str] = {}
    if source is not None:
        src = " ".join(redact(str(source)).split())
        if len(src) > MAX_SOURCE_CHARS:
            raise BadInput(f"source is over {MAX_SOURCE_CHARS} characters")
        if src:
            meta["source"] = src
    name = writing_agent(agent)
    if name:
        meta["agent"] = name
    moment = _local(when)
    note_id = id or notes.new_id()
    return (
        notes.Note(
            type=kind,
            text=text,
            id=note_id,
            time=moment.strftime("%H:%M"),
            confidence=confidence,
            meta={"id": note_id, **meta},
        ),
        moment.date(),
    )


def writing_agent(agent: str | None = None) -> str:
    """The agent a note is written by: ``agent``, else ``$AGENT_SLEEP_AGENT``, else none."""
    name = (agent if agent is not None else os.environ.get(AGENT_ENV, "")).strip()
    if name and not _AGENT_RE.match(name):
        raise BadInput(
            f"agent name {name[:80]!r} is not valid: use up to 64 letters, digits, '.', '_' or '-'"
        )
    return name


def _local(when: dt.datetime | dt.date | None) -> dt.datetime:
    if when is None:
        return dt.datetime.now()
    if isinstance(when, dt.datetime):
        out = when.astimezone() if when.tzinfo is not None else when
    elif isinstance(when, dt.date):
        out = dt.datetime.combine(when, dt.time(0, 0))
    else:
        raise BadInput(f"when must be a datetime, not {type(when).__name__}")
    # a note is filed on the day it was learned; a day of slack for another machine's clock
    if out.date() > dt.date.today() + dt.timedelta(days=1):
        raise BadInput(
            f"when {out.date().isoformat()} is in the future: a note goes in the log of the day "
            "it was learned (a date it speaks of belongs in its text)"
        )
    return out


def append_notes(ws: Workspace, day: dt.date, items: list[notes.Note]) -> Path:
    """Append notes under ``## Retain`` in the day's log, under the workspace lock."""
    path = ws.day_log(day)
    rendered = [notes.render_note(n) for n in items]
    with ws.lock():
        existing = _tail(path)
        if not path.exists():
            existing = notes.day_header(day)
            ws.append_text(path, existing + notes.append_block(existing, rendered))
        else:
            ws.append_text(path, notes.append_block(existing, rendered))
    return path


def _tail(path: Path) -> str:
    """The file, or its last MiB starting at a line boundary when it is bigger."""
    try:
        size = os.path.getsize(path)
    except FileNotFoundError:
        return ""
    with open(path, "rb") as f:
        if size > _TAIL_BYTES:
            f.seek(size - _TAIL_BYTES)
            data = f.read()
            data = data[data.find(b"\n") + 1 :]
        else:
            data = f.read()
    return data.decode("utf-8", "surrogateescape")


def micro_rest(
    note: str,
    type: str = "B",
    *,
    workspace: str | os.PathLike[str] | Workspace | None = None,
    confidence: float | None = None,
    when: dt.datetime | str | None = None,
    source: str | None = None,
    agent: str | None = None,
) -> str:
    """Append one W/B/O/S note to the day's log and return its id.

    ``when`` files the note in that day's log (for importing history): a datetime, or an ISO
    string as ``rest --when`` takes it; credentials in the note and in ``source`` are redacted
    before anything is written. ``agent`` (default ``$AGENT_SLEEP_AGENT``) names the writing
    agent in the note's ``agent=`` metadata.
    """
    args.text(note=note, type=type)
    args.text_or_none(source=source, agent=agent)
    args.confidence(confidence)
    if isinstance(when, str):
        when = args.iso_moment(when, "when")
    return micro_rest_detail(
        note,
        type,
        workspace=workspace,
        confidence=confidence,
        when=when,
        source=source,
        agent=agent,
    ).id


def micro_rest_detail(
    note: str,
    type: str = "B",
    *,
    workspace: str | os.PathLike[str] | Workspace | None = None,
    confidence: float | None = None,
    when: dt.datetime | None = None,
    source: str | None = None,
    agent: str | None = None,
) -> Appended:
    built, day = build_note(
        note, type, confidence=confidence, when=when, source=source, agent=agent
    )
    ws = Workspace.at(workspace).ensure()
    path = append_notes(ws, day, [built])
    return Appended(
        id=built.id,
        path=path,
        date=day.isoformat(),
        time=built.time or "",
        type=built.type,
        confidence=built.confidence,
        redacted="[REDACTED:" in built.text and "[REDACTED:" not in note,
    )
