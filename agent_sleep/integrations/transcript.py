"""Claude Code session transcripts: JSONL, one record per line, appended while the session runs.

A record has ``type`` (``user``, ``assistant``, ``system``, ``summary``, ...) and, for the
conversation, ``message`` with ``role`` and ``content``: a string, or a list of blocks
(``text``, ``thinking``, ``tool_use`` with ``name`` and ``input``, ``tool_result`` with
``content``). ``read_since`` renders what came after a byte offset as a plain conversation that
the flush can read: what people and the assistant said in full, with its own line breaks (a
bulleted list stays one item a line), the speaker's label (``User:`` / ``Assistant:``) on the
first line of each text block only; tool calls and results cut short, on lines of their own that
start ``Tool:`` (mostly file contents and command output, which a flush does not keep); thinking
and bookkeeping records left out. No message text is capped here: the caller splits a turn too
big for one flush into pieces. Malformed lines are skipped and counted; a last line without its
newline is still being written and is left for the next read.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TOOL_CHARS = 300  # of a tool call's input or a tool result kept in the dump
CHUNK = 1 << 20
_NOISE = ("<command-", "<local-command-", "<system-reminder>", "Caveat: ")
# a user turn that is no one's words: a "!" shell command and its output, a background task's
# notice. Shown as tool output (one short line the flush does not keep), with its tags gone
_SHELL = ("<bash-input>", "<bash-stdout>", "<bash-stderr>", "<task-notification>")
_TAG_RE = re.compile(r"</?[a-z][a-z-]*>")


@dataclass(frozen=True)
class Slice:
    parts: list[str]  # rendered turns, in order
    # for each turn, the offset a later read may resume from once this turn and all before it
    # are flushed: just past its record for the record's last turn, the record's start for the
    # others (so a flush that stops between two turns of one record loses neither)
    ends: list[int]
    start: int
    end: int  # offset just past the last complete line read
    records: int
    malformed: int

    @property
    def text(self) -> str:
        return "\n\n".join(self.parts)


def _short(text: str, cap: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= cap else text[:cap] + " …"


def _lines_kept(text: str) -> str:
    """``text`` with its line structure (a list keeps one item a line, as ``agent-sleep flush``
    reads it); only trailing blanks go, and a run of empty lines becomes one."""
    out: list[str] = []
    for line in text.splitlines():
        line = line.rstrip()
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip("\n")


def _block_text(block: Any) -> str:
    if isinstance(block, str):
        return block
    if isinstance(block, dict):
        if block.get("type") == "text":
            return str(block.get("text", ""))
        if "content" in block:
            return _content_text(block["content"])
    return ""


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(t for t in (_block_text(b) for b in content) if t)
    return ""


def render(record: Any) -> list[str]:
    """The turns of one transcript record, as lines a person (or the flush) reads."""
    if not isinstance(record, dict) or record.get("isMeta") or record.get("isCompactSummary"):
        return []  # a compaction's summary restates what the earlier flush already took
    kind = record.get("type")
    message = record.get("message")
    if kind not in ("user", "assistant") or not isinstance(message, dict):
        return []
    speaker = "User" if kind == "user" else "Assistant"
    content = message.get("content")
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    if not isinstance(content, list):
        return []
    out = []
    for block in content:
        if not isinstance(block, dict):
            continue
        btype = block.get("type")
        if btype == "text":
            text = str(block.get("text", "")).strip()
            if text.startswith(_SHELL):
                shown = _short(_TAG_RE.sub(" ", text), TOOL_CHARS)
                out.append(f"Tool: shell {shown}" if shown else "Tool: shell")
            elif text and not text.startswith(_NOISE):
                out.append(f"{speaker}: {_lines_kept(text)}")
        elif btype == "tool_use":
            args = json.dumps(block.get("input", {}), ensure_ascii=False, default=str)
            out.append(f"Tool: {block.get('name', '?')} {_short(args, TOOL_CHARS)}")
        elif btype == "tool_result":
            result = _content_text(block.get("content", ""))
            if result.strip():
                out.append(f"Tool: result {_short(result, TOOL_CHARS)}")
    return out


def _lines(path: Path, start: int) -> Iterator[tuple[bytes, int]]:
    """Complete lines from ``start`` and the offset just past each."""
    with open(path, "rb") as f:
        f.seek(start)
        pos = start
        rest = b""
        while True:
            chunk = f.read(CHUNK)
            if not chunk:
                return
            rest += chunk
            lines = rest.split(b"\n")
            rest = lines.pop()  # the unfinished last line, if any
            for line in lines:
                pos += len(line) + 1
                yield line, pos


def read_since(path: str | os.PathLike[str], offset: int = 0) -> Slice:
    """The conversation in ``path`` after byte ``offset`` (0 when the file is now shorter, as
    after a rewrite)."""
    p = Path(path)
    size = p.stat().st_size
    start = offset if 0 <= offset <= size else 0
    parts: list[str] = []
    ends: list[int] = []
    records = malformed = 0
    end = start
    for raw, after in _lines(p, start):
        begin, end = end, after
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            malformed += 1
            continue
        records += 1
        turns = render(record)
        if turns:
            parts += turns
            ends += [begin] * (len(turns) - 1) + [end]
    return Slice(parts, ends, start=start, end=end, records=records, malformed=malformed)
