"""``agent-sleep mcp``: the workspace as an MCP server (official ``mcp`` SDK, version 2).

Tools (the names are a contract): ``memory_write``, ``memory_search``, ``memory_get``,
``memory_context``, ``memory_flush``, ``memory_sleep``, ``memory_status``. Resources:
``memory://MEMORY.md``, ``memory://daily/{date}``, ``memory://bank/{kind}/{slug}``.

Start-up imports the SDK and the workspace module only; each tool imports what it needs when it
is first called, so no embedding model loads until a search wants one. Every tool turns a
refusal of the library (bad input, a path outside the workspace, an oversized note) into a tool
error with the library's one-line message: nothing is written and the server keeps serving.
An operating-system refusal (a path too long, a symlink loop, a workspace that is a file) is a
tool error with a one-line message too, never a traceback, and so is an argument of the wrong
type (``argument_problem``, ``validation_message``: the argument and what it must be, instead of
pydantic's lines and link; a boolean takes true or false only, a number no boolean). Queries
are capped at ``MAX_QUERY_CHARS`` and echoed back at most ``log.ECHO_CHARS`` long.
Tools compute on worker threads; the workspace lock serialises writes across threads and
across the processes of other clients. A call's thread is abandoned, not waited for, when the
call is cancelled; when the client goes away (stdin closes) the server stops at once, and a
call still computing ends with the process (``leave``): nobody is left to read its answer.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import functools
import json
import math
import os
import re
import sys
import threading
import typing
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

from pydantic import Field  # the SDK's own dependency, imported with it

from agent_sleep import __version__
from agent_sleep.core.errors import AgentSleepError, BadInput, WorkspaceError
from agent_sleep.core.log import shorten
from agent_sleep.core.workspace import STATE_DIRNAME, Workspace

if TYPE_CHECKING:
    from mcp.server import MCPServer

MAX_GET_CHARS = 100_000
MAX_SEARCH_K = 50
MAX_BUDGET_TOKENS = 25_000  # a search's or context's budget: about MAX_GET_CHARS of text
MAX_DIFF_CHARS = 20_000
MAX_QUERY_CHARS = 4_000  # a search query: at most a note's length (notes are at most 4 KB)
EXIT_GRACE = 5.0  # seconds a write under way gets to land when the client has gone
ARCHIVE_PAGE = "bank/concepts/memory-archive.md"
HISTORY = "History"
BANK_KINDS = {
    "entities": "entities",
    "entity": "entities",
    "concepts": "concepts",
    "concept": "concepts",
}
_SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,120}")

INSTRUCTIONS = """\
Long-term memory kept as plain Markdown (agent-sleep). At the start of a task call
memory_context once. Call memory_write the moment a durable fact, preference, decision or
experience comes up (one fact per call). Call memory_search before answering anything that
may depend on earlier sessions; memory_get reads a file or lines of it from a search hit's path.
Before the context is compacted, send the conversation to memory_flush; at the end of a
session, memory_sleep consolidates the day's notes."""

F = TypeVar("F", bound=Callable[..., Any])

_OS_REASONS = {
    errno.ENAMETOOLONG: "path too long",
    errno.ELOOP: "symlink loop",
    errno.ENOTDIR: "not a folder",
    errno.EISDIR: "a folder, not a file",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOSPC: "no space left on the device",
    errno.EROFS: "read-only file system",
}


def os_message(e: OSError) -> str:
    """One line for an operating-system error: the reason, then the file (shortened)."""
    reason = _OS_REASONS.get(e.errno or 0) or (e.strerror or type(e).__name__).lower()
    name = e.filename if isinstance(e.filename, str) else None
    return f"{reason}: {shorten(name, 120)}" if name else reason


def _tool_errors(fn: F) -> F:
    """A refusal of the library, or of the operating system, becomes a tool error carrying a
    one-line message (the SDK would otherwise answer a bare "Error executing tool")."""

    @functools.wraps(fn)
    def wrapper(self: MemoryTools, *args: Any, **kwargs: Any) -> Any:
        from mcp.server.mcpserver.exceptions import ToolError

        try:
            self.check_workspace()
            return fn(self, *args, **kwargs)
        except AgentSleepError as e:
            raise ToolError(" ".join(str(e).split())) from None
        except OSError as e:
            raise ToolError(" ".join(os_message(e).split())) from None
        except RuntimeError as e:  # pathlib's resolve() on Python < 3.13 raises this for loops
            if not str(e).startswith("Symlink loop"):
                raise
            raise ToolError("symlink loop: a path of the workspace links back to itself") from None

    return wrapper  # type: ignore[return-value]


def _query(value: Any) -> str:
    """The search words, refused when missing or longer than ``MAX_QUERY_CHARS``."""
    if not isinstance(value, str) or not value.strip():
        raise BadInput("give the search words in `query`")
    if len(value) > MAX_QUERY_CHARS:
        raise BadInput(
            f"query is {len(value):,} characters, at most {MAX_QUERY_CHARS:,}: "
            "search with the key words or a sentence or two"
        )
    return value


def _pick(name: str, *values: Any) -> Any:
    """The one value given among a parameter and its aliases (models guess names)."""
    given = [v for v in values if v is not None]
    if len({repr(v) for v in given}) > 1:
        raise BadInput(f"{name} was given twice with different values; give it once")
    return given[0] if given else None


def _positive(name: str, value: int | None, cap: int | None = None) -> int | None:
    if value is None:
        return None
    if value < 1:
        raise BadInput(f"{name} must be at least 1, not {value}")
    return min(value, cap) if cap else value


def relative_file(ws: Workspace, path: str) -> str:
    """``path`` as a workspace-relative file, refusing anything outside the workspace or in
    its hidden state folder."""
    if not isinstance(path, str) or not path.strip() or "\x00" in path:
        raise BadInput("give the path of a workspace file, e.g. MEMORY.md")
    shown = shorten(path, 120)
    raw = path.strip().replace("\\", "/")
    try:
        target = ws.confine(raw)
        rel = target.resolve().relative_to(ws.root.resolve())
        if any(part.startswith(".") for part in rel.parts) or STATE_DIRNAME in rel.parts:
            raise WorkspaceError(f"path {shown} is not a memory file")
        if not target.is_file():
            raise BadInput(f"no file {shown} in the workspace (paths come from memory_search hits)")
    except OSError as e:
        raise BadInput(f"path {shown}: {_OS_REASONS.get(e.errno or 0) or e.strerror}") from None
    except RuntimeError as e:  # pathlib's resolve() on Python < 3.13 raises this for loops
        if not str(e).startswith("Symlink loop"):
            raise
        raise BadInput(f"path {shown}: symlink loop") from None
    return rel.as_posix()


def read_lines(
    ws: Workspace, path: str, start: int | None, end: int | None, start_char: int | None = None
) -> dict[str, Any]:
    """Lines ``start``..``end`` of a file (1-based, inclusive), at most ``MAX_GET_CHARS``
    characters. A line longer than that is cut and continued from ``next_line`` at
    ``next_char`` (``start_char``: where in ``start`` to begin, 1-based)."""
    rel = relative_file(ws, path)
    lines = ws.read_text(ws.root / rel).splitlines()
    first = start or 1
    col = start_char or 1
    if end is not None and end < first:
        raise BadInput(f"end_line {end} is before start_line {first}")
    if first > max(len(lines), 1):  # an empty file reads as no lines from line 1
        raise BadInput(
            f"start_line {first} is past the end of {rel} ({len(lines)} "
            f"line{'' if len(lines) == 1 else 's'})"
        )
    if col > 1 and (first > len(lines) or col > len(lines[first - 1]) + 1):
        width = len(lines[first - 1]) if first <= len(lines) else 0
        raise BadInput(f"start_char {col} is past the end of line {first} ({width} characters)")
    bound = min(end or len(lines), len(lines))
    shown: list[str] = []
    size = 0
    next_line: int | None = None
    next_char: int | None = None
    for number in range(first, bound + 1):
        skip = col - 1 if number == first else 0
        piece = lines[number - 1][skip:]
        room = MAX_GET_CHARS - size - (1 if shown else 0)
        if len(piece) <= room:
            shown.append(piece)
            size += len(piece) + (1 if len(shown) > 1 else 0)
            continue
        if shown:  # the next line does not fit: it starts the next call
            next_line = number
        else:  # one line longer than the cap: cut it, the next call goes on from there
            shown.append(piece[:room])
            next_line, next_char = number, skip + room + 1
        break
    last = first + len(shown) - 1
    if next_line is None and last < len(lines):
        next_line = last + 1
    return {
        "path": rel,
        "start_line": first,
        "end_line": last,
        "total_lines": len(lines),
        "text": "\n".join(shown),
        "truncated": next_char is not None or last < bound,  # stopped at the size cap
        "next_line": next_line,
        "next_char": next_char,  # set when line next_line was cut: go on with start_char
    }


def _hit(h: Any) -> dict[str, Any]:
    current = getattr(h, "current", None)
    if current is None:  # superseded entries live in a page's History or in the archive page
        if h.path == ARCHIVE_PAGE or h.section == HISTORY:
            current = False
        elif h.path == "MEMORY.md" or h.path.startswith("bank/"):
            current = True
    out = {
        "text": h.text,
        "path": h.path,
        "date": h.date,
        "time": h.time,
        "sources": list(h.sources),
        "ids": list(h.ids),
        "score": round(float(h.score), 4),
        "exact": h.exact,
        "match": h.match,  # words, meaning or weak: the score is relative, this is not
        "cosine": h.cosine,
    }
    if current is not None:
        out["current"] = current
    # what replaced a superseded hit, and when; a newer entry that may replace a current one
    for key in ("superseded_by", "superseded_on", "newer"):
        if getattr(h, key, None):
            out[key] = getattr(h, key)
    return out


DESCRIPTIONS = {
    "memory_write": (
        "Save one durable memory now: a fact (type W), something that happened "
        "(B), an opinion or preference with confidence (O), or a summary (S). Use it the moment "
        "it comes up; one fact per call, at most 4 KB. No model is called. Returns the note id."
    ),
    "memory_search": (
        "Search long-term memory (MEMORY.md, bank pages, daily logs) with keyword "
        "and meaning matching. Use before answering anything that may depend on earlier "
        f"sessions. `query` (alias q); `k` (alias limit) results (at most {MAX_SEARCH_K}), or a "
        f"`budget_tokens` budget (at most {MAX_BUDGET_TOKENS}). "
        "Each hit has text, path, date, sources, score, match ('words': it holds a word or "
        "code of the query, 'meaning': it reads like it, 'weak': neither) and, where it "
        "applies, whether it is current, or `newer`: a newer entry that may replace it (trust "
        "the newer one unless told otherwise). relevant is false when every hit is weak: memory "
        "most likely holds nothing on the question, so do not act on those hits. Read more "
        "around a hit with memory_get."
    ),
    "memory_get": (
        "Read a memory file of the workspace, or a line range of it (1-based, "
        "inclusive): e.g. path 'MEMORY.md', 'memory/2026-11-29.md' or a search hit's path. "
        f"Returns at most {MAX_GET_CHARS} characters and says when it stopped early: "
        "truncated, and next_line (with next_char when a long line was cut) to pass as "
        "start_line (and start_char) to read on."
    ),
    "memory_context": (
        "The memory block for the start of a task: MEMORY.md (trimmed to "
        "max_memory_chars; each entry ends with the day it was last said, so where two "
        "disagree the later one is current), today's and yesterday's notes, the planned "
        "next-session actions, "
        "and with `query` (alias q) the most relevant memories within `budget_tokens` (at "
        f"most {MAX_BUDGET_TOKENS}; max_memory_chars at most {MAX_GET_CHARS})."
    ),
    "memory_flush": (
        "Before the context is compacted or a long task ends, send the "
        "conversation (or its important part) as `context_dump` (alias text): the durable "
        "facts in it are extracted into today's log. The same dump twice writes nothing."
    ),
    "memory_sleep": (
        "Consolidate the notes not yet consolidated (sleep): phase 'nrem' writes "
        "durable entries into MEMORY.md and bank pages, 'rem' finds connections and next "
        "actions, 'both' runs the two. dry_run shows the diff and writes nothing. Use at the "
        "end of a session; `agent-sleep rollback` undoes a run."
    ),
    "memory_status": (
        "How the memory stands: notes waiting for sleep, MEMORY.md size against "
        "its budget, bank pages, daily logs and the recent sleep runs."
    ),
}


# the values a client should send, in the tools' schemas (the tools also read lower case)
NoteType = Annotated[str, Field(json_schema_extra={"enum": ["W", "B", "O", "S"]})]
Phase = Annotated[str, Field(json_schema_extra={"enum": ["nrem", "rem", "both"]})]


class MemoryTools:
    """The seven tools over one workspace (each method is one tool; see ``DESCRIPTIONS``)."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws

    def check_workspace(self) -> None:
        """Refuse a workspace path that is a file (the tools would fail on its first file)."""
        self.ws.refuse_file()

    @_tool_errors
    def memory_write(
        self,
        note: str | None = None,
        type: NoteType = "B",
        confidence: float | None = None,
        source: str | None = None,
        text: str | None = None,
    ) -> dict[str, Any]:
        """``text`` is an alias of ``note``."""
        from agent_sleep.core.rest import micro_rest_detail

        body = _pick("note", note, text)
        if body is None:
            raise BadInput("give the note text in `note`")
        # JSON has no NaN or Infinity (the SDK's client sends them as null, read as "not
        # given", as models often send every optional argument); one that reaches us is refused
        if confidence is not None and not math.isfinite(confidence):
            raise BadInput(
                f"confidence {confidence} is outside [0, 1]: give a number from 0 to 1, or "
                "leave it out for the default"
            )
        r = micro_rest_detail(body, type, workspace=self.ws, confidence=confidence, source=source)
        return {
            "id": r.id,
            "path": r.path.relative_to(self.ws.root).as_posix(),
            "date": r.date,
            "time": r.time,
            "type": r.type,
            "confidence": r.confidence,
            "redacted": r.redacted,
        }

    @_tool_errors
    def memory_search(
        self,
        query: str | None = None,
        k: int | None = None,
        budget_tokens: int | None = None,
        q: str | None = None,
        limit: int | None = None,
    ) -> dict[str, Any]:
        wanted = _query(_pick("query", query, q))
        count = _positive("k", _pick("k", k, limit), MAX_SEARCH_K)
        budget = _positive("budget_tokens", budget_tokens, MAX_BUDGET_TOKENS)
        if not self.ws.root.is_dir():
            return {"query": shorten(wanted), "relevant": False, "hits": []}
        from agent_sleep.retrieval.recall import recall, relevant

        hits = recall(self.ws, wanted, k=count, budget_tokens=budget)
        return {
            "query": shorten(wanted),
            "relevant": relevant(hits),
            "hits": [_hit(h) for h in hits],
        }

    @_tool_errors
    def memory_get(
        self,
        path: str | None = None,
        start_line: int | None = None,
        end_line: int | None = None,
        file: str | None = None,
        start_char: int | None = None,
    ) -> dict[str, Any]:
        """``file`` is an alias of ``path``."""
        where = _pick("path", path, file)
        if where is None:
            raise BadInput("give the file in `path`, e.g. MEMORY.md")
        first = _positive("start_line", start_line)
        last = _positive("end_line", end_line)
        column = _positive("start_char", start_char)
        return read_lines(self.ws, where, first, last, column)

    @_tool_errors
    def memory_context(
        self,
        query: str | None = None,
        budget_tokens: int | None = None,
        max_memory_chars: int = 3000,
        q: str | None = None,
    ) -> dict[str, Any]:
        from agent_sleep.retrieval.context import get_context

        if max_memory_chars < 0:
            raise BadInput("max_memory_chars must not be negative")
        wanted = _pick("query", query, q)
        if wanted is not None and (not isinstance(wanted, str) or wanted.strip()):
            wanted = _query(wanted)  # an empty query is "no query", as in get_context
        text = get_context(
            self.ws,
            max_memory_chars=min(max_memory_chars, MAX_GET_CHARS),
            query=wanted,
            budget_tokens=_positive("budget_tokens", budget_tokens, MAX_BUDGET_TOKENS),
        )
        return {"context": text or "(memory is empty)"}

    @_tool_errors
    def memory_flush(
        self, context_dump: str | None = None, text: str | None = None
    ) -> dict[str, Any]:
        from agent_sleep.consolidation.flush import flush

        dump = _pick("context_dump", context_dump, text)
        if dump is None:
            raise BadInput("give the conversation text in `context_dump`")
        result = flush(dump, workspace=self.ws)
        return asdict(result)

    @_tool_errors
    def memory_sleep(self, phase: Phase = "both", dry_run: bool = False) -> dict[str, Any]:
        from agent_sleep.consolidation.sleep import sleep_cycle
        from agent_sleep.integrations.sleep_lock import exclusive_sleep

        with exclusive_sleep(self.ws):
            result = asdict(sleep_cycle(self.ws, phase=phase, dry_run=dry_run))
        diff = result.pop("diff", "")
        if dry_run:
            result["diff"] = diff[:MAX_DIFF_CHARS]
            result["diff_truncated"] = len(diff) > MAX_DIFF_CHARS
        return result

    @_tool_errors
    def memory_status(self) -> dict[str, Any]:
        from agent_sleep.consolidation.status import status

        return status(self.ws)


class _Calls:
    """How many tool calls compute on worker threads: one still running when the client has
    gone would keep the process alive until it is done."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running = 0

    def add(self, n: int) -> None:
        with self._lock:
            self._running += n

    @property
    def running(self) -> int:
        with self._lock:
            return self._running


CALLS = _Calls()


def in_worker(fn: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """``fn`` as a coroutine computing on a worker thread that a cancelled call abandons
    instead of waiting for it (the SDK's own threads for a plain function are waited for, so a
    client gone mid-call kept the server computing until the call was done). Counted in
    ``CALLS`` from the call until ``fn`` returns (a call cancelled before its thread started
    stays counted: ``leave`` then only ends a process that had nothing left to do)."""

    @functools.wraps(fn)
    async def call(**kwargs: Any) -> Any:
        import anyio.to_thread

        def work() -> Any:
            try:
                return fn(**kwargs)
            finally:
                CALLS.add(-1)

        CALLS.add(1)
        return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)

    return call


_JSON_TYPES = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}


def _wanted(hint: Any) -> tuple[type, ...]:
    """The plain types a parameter's annotation accepts, None left out (null is "not given")."""
    args = typing.get_args(hint) or (hint,)
    return tuple(a for a in args if a in _JSON_TYPES)


def _given(value: Any) -> str:
    """A JSON value, as a message names what was sent."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, str):
        cut = f" … ({len(value):,} characters)" if len(value) > 40 else ""
        return f"the string {json.dumps(value[:40], ensure_ascii=False)}{cut}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    return "a list" if isinstance(value, (list, tuple)) else "an object"


def argument_problem(tool: str, arguments: dict[str, Any]) -> str | None:
    """What is wrong with ``arguments`` of ``tool`` that the SDK would let through: a bool
    parameter accepts true or false only (pydantic would read "yes", "false" or 1 as a bool),
    a number parameter no bool (pydantic reads true as 1), and no argument the tool does not
    take (the SDK drops it: a misspelt "querry" searched for nothing). None when nothing is."""
    hints = typing.get_type_hints(getattr(MemoryTools, tool, None) or (lambda: None))
    known = [n for n in hints if n != "return"]
    unknown = [n for n in arguments if n not in known]
    if unknown:
        takes = ", ".join(known) or "no arguments"
        return f"unknown argument {unknown[0]!r} (this tool takes {takes})"
    for name, value in arguments.items():
        wanted = _wanted(hints.get(name))
        if value is None or not wanted:
            continue
        if (bool in wanted) != isinstance(value, bool):
            return f"{name} must be {_JSON_TYPES[wanted[0]]}, not {_given(value)}"
    return None


def validation_message(tool: str, error: Any) -> str:
    """One line for the SDK's argument validation error (pydantic's, several lines with a
    link): each argument refused, and what it must be."""
    hints = typing.get_type_hints(getattr(MemoryTools, tool, None) or (lambda: None))
    parts: list[str] = []
    for e in error.errors(include_url=False):
        loc = e.get("loc") or ()
        name = str(loc[0]) if loc else "arguments"
        wanted = _wanted(hints.get(name))
        if wanted and len(loc) == 1:
            parts.append(f"{name} must be {_JSON_TYPES[wanted[0]]}, not {_given(e.get('input'))}")
        else:
            parts.append(f"{name}: {' '.join(str(e.get('msg', 'invalid')).split())}")
    return "; ".join(dict.fromkeys(parts)) or "invalid arguments"


def build_server(ws: Workspace) -> MCPServer:
    """The MCP server over ``ws`` (created on first write)."""
    from mcp.server import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
    from pydantic import ValidationError

    class Server(MCPServer):
        """Refuses a wrong type of argument with one line naming it and what it must be."""

        async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
            problem = argument_problem(name, arguments) if name in DESCRIPTIONS else None
            if problem is not None:
                raise ToolError(f"Error executing tool {name}: {problem}")
            try:
                return await super().call_tool(name, arguments, context)
            except ToolError as e:
                cause = e.__cause__
                if isinstance(e, UnexpectedToolError) or not isinstance(cause, ValidationError):
                    raise
                message = f"Error executing tool {name}: {validation_message(name, cause)}"
                raise ToolError(message) from cause

    server: MCPServer = Server(
        "agent-sleep", instructions=INSTRUCTIONS, version=__version__, log_level="WARNING"
    )
    tools = MemoryTools(ws)
    for name, description in DESCRIPTIONS.items():
        server.add_tool(in_worker(getattr(tools, name)), name=name, description=description)
    _resources(server, ws)
    return server


def _resources(server: MCPServer, ws: Workspace) -> None:
    @server.resource(
        "memory://MEMORY.md",
        name="MEMORY.md",
        description="Long-term memory: durable facts, preferences and decisions.",
        mime_type="text/markdown",
    )
    def memory_md() -> str:
        return ws.read_text(ws.memory_md)

    @server.resource(
        "memory://daily/{date}",
        name="daily-log",
        description="The daily log of a date (YYYY-MM-DD).",
        mime_type="text/markdown",
    )
    def daily(date: str) -> str:
        from mcp.server.mcpserver.exceptions import ResourceError

        try:
            day = dt.date.fromisoformat(date)
        except ValueError:
            raise ResourceError(f"{date!r} is not a date (YYYY-MM-DD)") from None
        path = ws.day_log(day)
        if not path.is_file():
            raise ResourceError(f"no daily log for {day.isoformat()}")
        return ws.read_text(ws.confine(path))

    @server.resource(
        "memory://bank/{kind}/{slug}",
        name="bank-page",
        description="A bank page: kind 'entities' or 'concepts', and the page's slug.",
        mime_type="text/markdown",
    )
    def bank(kind: str, slug: str) -> str:
        from mcp.server.mcpserver.exceptions import ResourceError

        folder = BANK_KINDS.get(kind)
        name = slug.removesuffix(".md")
        if folder is None or not _SLUG.fullmatch(name):
            raise ResourceError(
                "use memory://bank/entities/<slug> or memory://bank/concepts/<slug>"
            )
        path = ws.bank_dir / folder / f"{name}.md"
        try:
            ws.confine(path)
        except WorkspaceError as e:
            raise ResourceError(str(e)) from None
        if not path.is_file():
            raise ResourceError(f"no bank page {folder}/{name}")
        return ws.read_text(path)


def serve(ws: Workspace, http_port: int | None = None) -> None:
    """Serve over stdio until stdin closes (the client has gone), or streamable HTTP on
    127.0.0.1:``http_port`` until interrupted. A tool call still computing then ends with the
    process (``leave``)."""
    server = build_server(ws)
    try:
        if http_port is None:
            server.run("stdio")  # cancels the calls in flight at EOF, abandoning their threads
        else:
            server.run("streamable-http", host="127.0.0.1", port=http_port)
    except KeyboardInterrupt:
        if CALLS.running:
            leave(ws, 130)
        raise
    if CALLS.running:
        leave(ws, 0)


def leave(ws: Workspace, code: int) -> NoReturn:
    """End the process although a tool call still computes on a worker thread, which would
    otherwise keep it alive until the call is done, for a client that is gone.

    The workspace lock is taken first, waited for at most ``EXIT_GRACE`` seconds, so a write
    under way (the writes of a sleep run, an appended note) lands whole; a sleep that had not
    reached its writes leaves every file as it was and its notes pending for the next one. Past
    the grace the process ends anyway: a run cut during its writes is what a crash leaves, which
    ``agent-sleep rollback`` undoes (``tests/test_crash_sleep.py``). The locks are released by
    the system as the process ends."""
    locked = threading.Event()

    def hold() -> None:
        try:
            with ws.lock():
                locked.set()
                threading.Event().wait()  # held until the process ends
        except Exception:  # noqa: BLE001 - no lock to take (a folder gone, a file system full)
            locked.set()

    if ws.state_dir.is_dir():  # else nothing was written here: no lock to create either
        threading.Thread(target=hold, name="agent-sleep-exit", daemon=True).start()
        locked.wait(EXIT_GRACE)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)
