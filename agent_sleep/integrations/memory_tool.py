"""``agent_sleep.MemoryTool``: a backend for Claude's memory tool (``memory_20250818``).

Hand it to the SDK's tool runner and Claude's ``/memories`` become the workspace::

    from agent_sleep import MemoryTool
    runner = client.beta.messages.tool_runner(
        model=..., max_tokens=1024, messages=[...], tools=[MemoryTool(workspace="~/memory")]
    )

The mapping, the note format and the runs are in ``memory_files``. Every refusal is a tool
error carrying one line that says what to do instead; nothing is written then. Every change is
a run, and its result ends with the run id and how to undo it (``agent-sleep status`` lists
them too), so the model can tell the user.

This module subclasses the SDK's class, so it imports ``anthropic`` when it is imported; the
package exports ``MemoryTool`` lazily, so nothing else pays for that.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from anthropic.lib.tools import ToolError
from anthropic.tools import BetaAbstractMemoryTool

from agent_sleep.core import args, notes
from agent_sleep.core.errors import AgentSleepError, BadInput
from agent_sleep.core.rest import build_note
from agent_sleep.core.workspace import Workspace
from agent_sleep.integrations import memory_files as mf

VIEW_LINES = 400  # lines of one page of a file
VIEW_CHARS = 40_000  # characters of one page
VIEW_ENTRIES = 200  # entries of one page of a folder
WIDTH = 6


def _refusals(method: Any) -> Any:
    def wrapper(self: MemoryTool, command: Any) -> str:
        try:
            return str(method(self, command))
        except AgentSleepError as e:
            raise ToolError(" ".join(str(e).split())) from None

    wrapper.__name__ = method.__name__
    wrapper.__doc__ = method.__doc__
    return wrapper


def _field(command: Any, name: str, kind: type = str) -> Any:
    value = getattr(command, name, None)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise BadInput(f"`{name}` is missing or not {kind.__name__}")
    return value


def _undo(run_id: str) -> str:
    """The line an edit's reply ends with: its run id, which ``agent-sleep status`` lists and
    ``agent-sleep rollback`` takes (the model can tell the user how to undo what it did)."""
    return f"\n(run {run_id}; undo: agent-sleep rollback {run_id})"


def _numbered(lines: list[str], first: int) -> str:
    return "\n".join(f"{str(first + i).rjust(WIDTH)}\t{line}" for i, line in enumerate(lines))


def _page(
    lines: list[str], view_range: Any, what: str, size_cap: int = VIEW_LINES
) -> tuple[list[str], int, str]:
    """One page of ``lines``: (shown, first line number, a note on what follows)."""
    total = len(lines)
    if view_range is not None:
        if (
            not isinstance(view_range, (list, tuple))
            or len(view_range) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in view_range)
        ):
            raise BadInput("view_range is [first, last] (1-based, last -1 for the end)")
        first, last = view_range[0], view_range[1]
        last = total if last == -1 else last
        if first < 1 or last < first - 1 or first > max(total, 1):
            raise BadInput(f"view_range {list(view_range)} is outside 1..{total}")
    else:
        first, last = 1, min(total, size_cap)
    shown: list[str] = []
    size = 0
    for line in lines[first - 1 : last]:
        if shown and size + len(line) > VIEW_CHARS:
            break
        shown.append(line[:VIEW_CHARS])
        size += len(line) + 1
    end = first + len(shown) - 1
    more = ""
    if end < total:
        more = (
            f"\n({what} {first}-{end} of {total} shown; view with view_range "
            f"[{end + 1}, {min(total, end + size_cap)}] for the next page)"
        )
    return shown, first, more


class MemoryTool(BetaAbstractMemoryTool):
    """Claude's memory tool over an agent-sleep workspace (see the module docstring).

    ``clock`` gives the local time of an edit (default the system's): the day the relative
    times the model writes ("last week") are resolved against and its new entries are dated,
    and the time its log notes carry."""

    def __init__(
        self,
        workspace: str | os.PathLike[str] | Workspace | None = None,
        *,
        cache_control: Any = None,
        clock: Callable[[], dt.datetime] | None = None,
    ) -> None:
        args.callable_or_none(clock=clock)
        super().__init__(cache_control=cache_control)
        self.ws = Workspace.at(workspace)
        self.clock = clock or dt.datetime.now

    # -- reading -------------------------------------------------------------------------

    @_refusals
    def view(self, command: Any) -> str:
        target = mf.resolve(self.ws, _field(command, "path"))
        view_range = getattr(command, "view_range", None)
        path = self.ws.root / target.rel
        if target.kind == "dir":
            return self._listing(target, view_range)
        if not path.is_file():
            raise BadInput(f"{target.shown} does not exist (view {mf.ROOT} to see the files)")
        text = mf.view_text(self.ws.read_text(path))
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        shown, first, more = _page(lines, view_range, "lines")
        head = f"Here's the content of {target.shown} with line numbers:\n"
        return head + _numbered(shown, first) + more

    def _listing(self, target: mf.Target, view_range: Any) -> str:
        entries = []
        for p in self._layout(target.rel):
            rel = p.relative_to(self.ws.root).as_posix()
            try:
                mf.resolve(self.ws, f"{mf.ROOT}/{rel}")
            except AgentSleepError:
                continue  # hidden, a symlink, or outside the layout
            if p.is_file():
                entries.append(f"{p.stat().st_size}\t{mf.ROOT}/{rel}")
        shown, first, more = _page(entries, view_range, "entries", VIEW_ENTRIES)
        head = f"Files in {target.shown} (size in bytes, path):\n"
        return head + ("\n".join(shown) if shown else "(no files yet)") + more

    def _layout(self, rel: str) -> list[Path]:
        """The memory files under a folder of the layout (never the rest of the tree)."""
        folders = {
            "": ["memory", "bank/entities", "bank/concepts"],
            "memory": ["memory"],
            "bank": ["bank/entities", "bank/concepts"],
        }.get(rel, [rel])
        found = [self.ws.memory_md] if rel == "" and self.ws.memory_md.is_file() else []
        for folder in folders:
            here = self.ws.root / folder
            found += sorted(here.glob("*.md")) if here.is_dir() and not here.is_symlink() else []
        return found

    # -- writing -------------------------------------------------------------------------

    def _note_file(self, command: Any, writable: str) -> tuple[mf.Target, Path]:
        target = mf.resolve(self.ws, _field(command, "path"))
        if target.kind == "dir":
            raise BadInput(f"{target.shown} is a folder")
        if target.kind == "log" and writable == "notes":
            raise BadInput(
                f"{target.shown} is a daily log, append-only: add notes with insert "
                "(they go at the end); earlier notes are never rewritten"
            )
        return target, self.ws.root / target.rel

    def _write(self, command: str, target: mf.Target, old: str, new_view: str) -> str | None:
        """The run id of the edit; None when it changed nothing (it reads the same: nothing
        is written)."""
        if new_view == mf.view_text(old):
            return None
        text = mf.reconcile(old, new_view, target.kind, self._today())
        if len(text) > mf.MAX_FILE_CHARS:
            raise BadInput(f"{target.shown} would be over {mf.MAX_FILE_CHARS} characters")
        if text == old:
            return None
        return mf.commit(self.ws, command, {target.rel: ("write", text)})

    @_refusals
    def create(self, command: Any) -> str:
        target, path = self._note_file(command, "any")
        body = _field(command, "file_text")
        mf.check_size(body, "file_text")
        self.ws.ensure()
        with self.ws.lock():
            if path.exists():
                how = (
                    "insert (daily logs are append-only)" if target.kind == "log" else "str_replace"
                )
                raise BadInput(f"{target.shown} already exists; change it with {how}")
            if target.kind == "log":
                day = dt.date.fromisoformat(path.stem)
                rendered = [notes.render_note(n) for n in self._log_notes(body, day)]
                header = notes.day_header(day)
                text = header + notes.append_block(header, rendered)
            else:
                text = mf.reconcile("", body, target.kind, self._today())
                if len(text) > mf.MAX_FILE_CHARS:
                    raise BadInput(f"{target.shown} would be over {mf.MAX_FILE_CHARS} characters")
            run = mf.commit(self.ws, "create", {target.rel: ("write", text)})
        where = " (top-level pages are kept as bank concept pages)" if target.alias else ""
        return f"File created successfully at: {target.shown}{where}" + _undo(run)

    def _today(self) -> dt.date:
        return self.clock().date()

    def _log_notes(self, body: str, day: dt.date) -> list[Any]:
        """The notes ``body`` adds to the log of ``day``, at the clock's time, their relative
        times those of the day they are written (the log may be an earlier day's)."""
        found = mf.log_notes(body)
        if not found:
            raise BadInput("nothing to note: write one note per line")
        out = []
        now = self.clock()
        for n in found:
            when = dt.datetime.combine(day, now.time())
            conf = n.confidence if n.type == "O" else None
            note, _ = build_note(n.text, n.type, confidence=conf, when=when, source="memory-tool")
            # resolved once checked: the dates added never push a note over its size cap
            out.append(dataclasses.replace(note, text=mf.anchor(note.text, now.date())))
        return out

    @_refusals
    def str_replace(self, command: Any) -> str:
        target, path = self._note_file(command, "notes")
        old_str, new_str = _field(command, "old_str"), _field(command, "new_str")
        mf.check_size(new_str, "new_str")
        if not old_str:
            raise BadInput("old_str is empty; give the exact text to replace")
        with self.ws.lock():
            if not path.is_file():
                raise BadInput(f"{target.shown} does not exist")
            raw = self.ws.read_text(path)
            view = mf.view_text(raw)
            count = view.count(old_str)
            if count != 1:
                where = "did not appear verbatim" if count == 0 else f"appears {count} times"
                raise BadInput(f"no replacement was made: old_str {where} in {target.shown}")
            at = view.index(old_str)
            run = self._write("str_replace", target, raw, view.replace(old_str, new_str, 1))
            if run is None:
                why = (
                    "new_str is the same as old_str"
                    if new_str == old_str
                    else "the file reads the same after it (typed metadata is not taken)"
                )
                return f"Nothing changed: {why}; {target.shown} was not written"
        line = view[:at].count("\n")
        lines = mf.view_text(self.ws.read_text(path)).split("\n")
        lo, hi = max(0, line - 2), min(len(lines), line + 3 + new_str.count("\n"))
        snippet = _numbered(lines[lo:hi], lo + 1)
        return (
            f"The memory file has been edited. Here is the snippet with line numbers:\n{snippet}"
            + _undo(run)
        )

    @_refusals
    def insert(self, command: Any) -> str:
        target, path = self._note_file(command, "append")
        at, text = _field(command, "insert_line", int), _field(command, "insert_text")
        mf.check_size(text, "insert_text")
        with self.ws.lock():
            if not path.is_file():
                raise BadInput(f"{target.shown} does not exist; create it first")
            raw = self.ws.read_text(path)
            if target.kind == "log":
                return self._append(target, raw, text)
            view = mf.view_text(raw)
            lines = view.splitlines(keepends=True)
            if not 0 <= at <= len(lines):
                raise BadInput(f"insert_line {at} is outside 0..{len(lines)}")
            intro = mf.intro_lines(view) if target.kind == "memory" else 0
            moved = ""
            filed: list[str]
            if at < intro:  # inside the fixed intro, or above it: the text goes right after it
                moved = f" (lines 1-{intro} are its intro: inserted after line {intro})"
                at = intro
            if lines and not lines[-1].endswith("\n"):
                lines[-1] += "\n"
            block = text if text.endswith("\n") else text + "\n"
            head, tail = "".join(lines[:at]), "".join(lines[at:])
            new_view, filed = head + block + tail, []
            if target.kind == "memory":  # an entry above its sections goes under its own
                new_view, filed = mf.insert_memory(head, block, tail, intro)
            run = self._write("insert", target, raw, new_view)
        if filed:
            moved = (
                " (entries go under a ## section, never above the first: filed at the end of "
                + ", ".join(f"## {title}" for title in filed)
                + ")"
            )
        said = f"The file {target.shown} has been edited{moved}."
        return said + _undo(run) if run else said

    def _append(self, target: mf.Target, raw: str, text: str) -> str:
        """An insert into a daily log: notes at its end, whatever the line (append-only)."""
        day = dt.date.fromisoformat(Path(target.rel).stem)
        rendered = [notes.render_note(n) for n in self._log_notes(text, day)]
        suffix = notes.append_block(raw, rendered)
        run = mf.commit(self.ws, "insert", {target.rel: ("append", suffix)})
        said = f"Appended {len(rendered)} notes at the end of {target.shown} (append-only)"
        return said + _undo(run)

    @_refusals
    def delete(self, command: Any) -> str:
        target = mf.resolve(self.ws, _field(command, "path"))
        if target.kind != "bank":
            what = {"dir": "a folder", "memory": "MEMORY.md", "log": "a daily log"}[target.kind]
            raise BadInput(
                f"{target.shown} is {what} and cannot be deleted"
                + ("; remove entries with str_replace" if target.kind == "memory" else "")
            )
        path = self.ws.root / target.rel
        with self.ws.lock():
            if not path.is_file():
                raise BadInput(f"{target.shown} does not exist")
            run = mf.commit(self.ws, "delete", {target.rel: ("delete", None)})
        return f"Successfully deleted {target.shown}" + _undo(run)

    @_refusals
    def rename(self, command: Any) -> str:
        old = mf.resolve(self.ws, _field(command, "old_path"))
        new = mf.resolve(self.ws, _field(command, "new_path"))
        if old.kind != "bank" or new.kind != "bank":
            raise BadInput("only bank pages can be renamed (daily logs and MEMORY.md stay put)")
        with self.ws.lock():
            src, dst = self.ws.root / old.rel, self.ws.root / new.rel
            if not src.is_file():
                raise BadInput(f"{old.shown} does not exist")
            if dst.exists():
                raise BadInput(f"{new.shown} already exists")
            text = self.ws.read_text(src)
            changes: dict[str, tuple[str, str | None]] = {
                old.rel: ("delete", None),
                new.rel: ("write", text),
            }
            run = mf.commit(self.ws, "rename", changes)
        return f"Successfully renamed {old.shown} to {new.shown}" + _undo(run)

    def clear_all_memory(self) -> str:
        raise ToolError("clearing all memory is refused; delete bank pages one at a time")
