"""The workspace as Claude's memory tool sees it: ``/memories`` paths, the note format, runs.

``/memories`` maps onto the workspace root, with its layout and nothing else:

- ``/memories/MEMORY.md`` and ``/memories/bank/{entities,concepts}/<slug>.md`` are note files.
  The model reads them without the metadata comments and edits that view; ``reconcile`` writes
  the edit back through the note format: entries it left alone stay byte for byte, an entry whose
  text it changed keeps its id and metadata, a new list item becomes a note with a fresh id and
  the day of the edit as its ``date=``, and metadata the model typed is never taken.
- ``/memories/memory/YYYY-MM-DD.md`` are daily logs, append-only: what the model adds becomes
  notes under ``## Retain``; replacing, deleting or renaming a log is refused.
- Another top-level ``/memories/<name>.md`` is kept as the bank concept page of that name.

What the model writes says "last week" of the day it writes it, a day no later reader knows:
each relative time an entry or a log note gains is followed by the date it means, seen from
the day of the edit (:func:`anchor`): "User moved to Lisbon last week" -> "… last week (week of
2026-03-02)".

Paths are refused when they are not under ``/memories``, hold ``..`` (``/`` or ``\\``),
URL-encoding, hidden parts (the ``.agent-sleep`` state folder), control characters, or pass
through a symlink. Every change is one run: before-images in ``.agent-sleep/runs/<run_id>/``
in the layout ``agent-sleep rollback`` reads, an atomic write or append, one journal line.
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import json
import os
import re
import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from agent_sleep.analysis import temporal
from agent_sleep.consolidation import journal
from agent_sleep.core import notes
from agent_sleep.core.errors import BadInput, StorageError, WorkspaceError
from agent_sleep.core.memory import SECTIONS, add_to_page
from agent_sleep.core.redact import redact
from agent_sleep.core.workspace import ENCODING, ERRORS, MEMORY_HEADER, Workspace

ROOT = "/memories"
MAX_FILE_CHARS = 256_000  # a note file or log the tool will write
MAX_INPUT_CHARS = 64_000  # file_text, new_str or insert_text of one call
DIRS = {"", "memory", "bank", "bank/entities", "bank/concepts"}
BANK_KINDS = ("entities", "concepts")
_SLUG = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?")
_META = notes.META_COMMENT_RE
_TYPED = re.compile(r"^(?:[WBS]|O\(c=[0-9.]+\)):\s*")
LOG_NAME = re.compile(r"\d{4}-\d{2}-\d{2}\.md")


@dataclass(frozen=True)
class Target:
    rel: str  # relative to the workspace root, "" for the root
    kind: str  # dir, memory, bank, log
    alias: bool = False  # a top-level name kept as a bank concept page

    @property
    def shown(self) -> str:
        return f"{ROOT}/{self.rel}" if self.rel else ROOT


def slugify(name: str) -> str:
    """A page name as a slug; accented letters lose their accents (Café -> cafe), as sleep
    names its pages (:func:`agent_sleep.core.notes.slugify`), up to 80 characters."""
    return notes.slugify(name, limit=80)


def _ascii_slug(name: str) -> str:
    """The slug as earlier versions gave it, accented letters dropped (Café -> caf)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:80].strip("-")


def resolve(ws: Workspace, raw: object) -> Target:
    """The workspace file a ``/memories`` path names; ``BadInput`` for anything else."""
    if not isinstance(raw, str) or not raw:
        raise BadInput("give a path under /memories, e.g. /memories/MEMORY.md")
    if any(ord(c) < 32 or c == "\x7f" for c in raw) or len(raw) > 1024:
        raise BadInput("the path holds control characters or is too long")
    if unquote(raw) != raw:
        raise BadInput(f"URL-encoded paths are refused: {raw!r}")
    path = raw.replace("\\", "/")
    if path != ROOT and not path.startswith(ROOT + "/"):
        raise BadInput(f"paths must start with {ROOT}/ (got {raw!r})")
    parts = [p for p in path[len(ROOT) :].split("/") if p != ""]
    if any(p in (".", "..") or p.startswith(".") for p in parts):
        raise WorkspaceError(f"path {raw!r} leaves /memories or names a hidden file")
    rel = "/".join(parts)
    target = _classify(rel)
    if target.alias:
        target = _alias_page(ws, target, parts[0][:-3])
    _no_symlinks(ws, target.rel)
    return target


def _alias_page(ws: Workspace, target: Target, name: str) -> Target:
    """A top-level page kept under the slug an earlier release gave its name (caf.md for
    Café.md) is still that page, until one under the new slug exists: never renamed behind
    the user's back, never shadowed by an empty twin."""
    slug = _ascii_slug(name)
    old = Target(f"bank/concepts/{slug}.md", "bank", alias=True)
    if not slug or old.rel == target.rel or os.path.lexists(ws.root / target.rel):
        return target
    return old if os.path.lexists(ws.root / old.rel) else target


def _classify(rel: str) -> Target:
    if rel in DIRS:
        return Target(rel, "dir")
    if rel == "MEMORY.md":
        return Target(rel, "memory")
    parts = rel.split("/")
    if len(parts) == 2 and parts[0] == "memory":
        if not LOG_NAME.fullmatch(parts[1]):
            raise BadInput("daily logs are /memories/memory/YYYY-MM-DD.md")
        try:
            dt.date.fromisoformat(parts[1][:-3])
        except ValueError:
            raise BadInput(f"{parts[1]} is not a real date") from None
        return Target(rel, "log")
    if len(parts) == 3 and parts[0] == "bank" and parts[1] in BANK_KINDS:
        stem = parts[2].removesuffix(".md")
        if not parts[2].endswith(".md") or not _SLUG.fullmatch(stem):
            raise BadInput(
                f"bank pages are named <slug>.md with a-z, 0-9 and '-': "
                f"try /memories/bank/{parts[1]}/{slugify(stem) or 'page'}.md"
            )
        return Target(rel, "bank")
    if len(parts) == 1 and parts[0].endswith(".md") and slugify(parts[0][:-3]):
        return Target(f"bank/concepts/{slugify(parts[0][:-3])}.md", "bank", alias=True)
    raise BadInput(
        "memory files are /memories/MEMORY.md, /memories/memory/YYYY-MM-DD.md (daily logs) and "
        "/memories/bank/entities/<slug>.md or /memories/bank/concepts/<slug>.md"
    )


def _no_symlinks(ws: Workspace, rel: str) -> None:
    here = ws.root
    for part in [p for p in rel.split("/") if p]:
        here = here / part
        if here.is_symlink():
            raise WorkspaceError(f"{ROOT}/{rel} passes through a symlink; refused")
    ws.confine(ws.root / rel if rel else ws.root)


# -- the note view -------------------------------------------------------------------------------


def view_text(raw: str) -> str:
    """A note file as the model reads it: the same lines, without metadata comments, and with
    "\n" line ends (a file saved with CRLF keeps them: ``reconcile`` writes them back)."""
    return _META.sub("", raw).replace("\r\n", "\n")


def intro_lines(view: str) -> int:
    """How many lines at the top of MEMORY.md's view are the intro the workspace writes (title,
    sentence, blank line): 0 when the file does not start with it (edited by hand)."""
    for intro in (MEMORY_HEADER, MEMORY_HEADER.removesuffix("\n")):
        if view.startswith(intro):
            return intro.count("\n")
    return 0


def insert_memory(head: str, text: str, tail: str, intro: int) -> tuple[str, list[str]]:
    """MEMORY.md's view with ``text`` inserted between ``head`` and ``tail``, and the sections
    its entries were filed under instead ([] when it went where it was asked).

    An entry lives under a ``##`` section: one inserted above the first (at line 0, in or
    after the intro) would be outside any, where sleep never files it. So the entries ``text``
    opens with (before a heading of its own) go to the end of their type's section, as sleep
    files them (W: Facts, O: Preferences, B: Experiences, S: Summaries; made when missing);
    the rest of ``text`` goes where it was asked. A MEMORY.md written by hand, with neither
    the workspace's intro nor ``##`` sections, takes the text where it was asked."""
    kept: list[str] = []
    loose: list[tuple[str, str]] = []
    opened = False
    for block in notes.parse(text).blocks:
        opened = opened or (block.heading is not None and block.heading.level <= 2)
        note = None if opened else _as_note(block, "memory")
        if note is None:
            kept.append(block.raw)
        else:
            loose.append((SECTIONS.get(note.type, SECTIONS["W"]), block.raw))
    blocks = notes.parse(head + tail).blocks
    sectioned = intro > 0 or any(b.heading is not None and b.heading.level == 2 for b in blocks)
    if not loose or not sectioned or _section_at_end(head) is not None:
        return head + text + tail, []
    rest = "".join(kept)
    view = head + (rest if rest.strip() else "") + tail  # blank lines alone stay out
    for title, raw in loose:
        view = add_to_page(view, title, [raw if raw.endswith("\n") else raw + "\n"])
    return view, list(dict.fromkeys(title for title, _ in loose))


def _section_at_end(text: str) -> str | None:
    """The ``##`` section the end of ``text`` is in; None above the first (or under a ``#``)."""
    section: str | None = None
    for block in notes.parse(text).blocks:
        if block.heading is not None and block.heading.level <= 2:
            section = block.heading.title if block.heading.level == 2 else None
    return section


def _as_note(block: notes.Block, kind: str) -> notes.Note | None:
    """A list item the model wrote, as a note (its metadata comment, if it typed one, dropped)."""
    if block.note is not None:
        n = block.note
        return notes.Note(type=n.type, text=n.text, time=n.time, confidence=n.confidence)
    line = block.raw.rstrip("\r\n")
    if not line.startswith("- ") or block.heading is not None:
        return None
    text = _META.sub("", line[2:]).strip()
    return (
        notes.Note(type="B" if kind == "log" else "W", text=_TYPED.sub("", text)) if text else None
    )


def _fresh(n: notes.Note, old: notes.Note | None, today: dt.date) -> notes.Note:
    """The note of an entry the model wrote on ``today``: ``old``'s id and metadata when it
    edits ``old``, else a fresh id dated ``today``, as sleep dates its entries."""
    text = notes.normalize_text(redact(n.text))
    if not text:
        raise BadInput("an entry is empty")
    if old is not None:  # the same entry, edited: it keeps its id and metadata
        text = anchor(text, today, old.text)
        return notes.Note(n.type, text, old.id, old.time, n.confidence, dict(old.meta))
    new_id = notes.new_id()
    conf = n.confidence if n.type != "O" or n.confidence is not None else 0.7
    meta = {"id": new_id, "source": "memory-tool", "date": today.isoformat()}
    return notes.Note(n.type, anchor(text, today), new_id, n.time, conf, meta)


# what ``temporal.resolve`` adds after a relative time: " (2026-03-09)", " (week of 2026-03-02)",
# " (2026-03)", " (2026)", " (2026-03-04 to 2026-03-06)"
_ANCHOR = re.compile(
    r" \((?:week of |weekend of )?\d{4}(?:-\d{2}){0,2}(?: to \d{4}(?:-\d{2}){0,2})?\)"
)
_WORD = re.compile(r"[\w'’]+")


def anchor(text: str, day: dt.date, before: str | None = None) -> str:
    """``text``, written on ``day``, with each relative time followed by the date it means
    (:func:`agent_sleep.analysis.temporal.resolve`; one already followed by a date stays)::

        "User moved to Lisbon last week", 2026-03-10 -> "… last week (week of 2026-03-02)"

    ``before``: the text of the entry ``text`` edits. A relative time the edit kept from it
    unresolved ("last week" of an entry written by hand, on a day nothing recorded) stays as
    it was: only those the edit brought are of ``day``."""
    if before is None:
        return temporal.resolve(text, day)
    kept = Counter(key for _at, key in _anchors(before, day))
    out: list[str] = []
    done = 0
    for at, key in _anchors(text, day):
        if kept[key] > 0:
            kept[key] -= 1
            continue
        out += [text[done:at], key[1]]
        done = at
    return "".join(out) + text[done:]


def _anchors(text: str, day: dt.date) -> list[tuple[int, tuple[str, str]]]:
    """Where ``temporal.resolve`` adds a date to ``text``: (the offset in ``text``, (the word
    it follows, what it adds)). A date the text itself holds is no addition: resolve never
    adds one right before another (its idempotence)."""
    out: list[tuple[int, tuple[str, str]]] = []
    added = 0
    for m in _ANCHOR.finditer(temporal.resolve(text, day)):
        at = m.start() - added
        if text.startswith(m.group(), at):
            continue  # written so
        word = _WORD.findall(text, max(0, at - 40), at)[-1:]
        out.append((at, (word[0].lower() if word else "", m.group())))
        added += len(m.group())
    return out


def reconcile(old_raw: str, new_view: str, kind: str, today: dt.date) -> str:
    """``old_raw`` edited on ``today`` to read as ``new_view`` (see the module docstring)."""
    old_blocks = list(notes.parse(old_raw).blocks)
    new_blocks = list(notes.parse(redact(new_view)).blocks)
    matcher = difflib.SequenceMatcher(
        None, [view_text(b.raw) for b in old_blocks], [b.raw for b in new_blocks], autojunk=False
    )
    crlf = "\r\n" in old_raw  # what the model changed gets the file's own line ends
    out: list[str] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            out += [b.raw for b in old_blocks[i1:i2]]
            continue
        for piece in _changed(old_blocks[i1:i2], new_blocks[j1:j2], kind, today):
            out.append(piece.replace("\r\n", "\n").replace("\n", "\r\n") if crlf else piece)
    text = "".join(out)
    if text and not text.endswith("\n"):
        text += "\r\n" if crlf else "\n"
    return text


def _changed(
    old_blocks: list[notes.Block], new_blocks: list[notes.Block], kind: str, today: dt.date
) -> list[str]:
    """A changed run of blocks as written on ``today``: its entries keep the ids of those
    they replace."""
    spare = [b.note for b in old_blocks if b.note is not None and b.note.id]
    out = []
    for block in new_blocks:
        note = _as_note(block, kind)
        if note is None:
            out.append(block.raw)
            continue
        out.append(notes.render_note(_fresh(note, spare.pop(0) if spare else None, today)))
    return out


def log_notes(text: str) -> list[notes.Note]:
    """What the model adds to a daily log, as notes: list items and lines of prose; headings
    and blank lines are left out."""
    out = []
    for block in notes.parse(redact(text)).blocks:
        if block.heading is not None or not block.raw.strip():
            continue
        note = _as_note(block, "log")
        if note is None:
            body = _TYPED.sub("", block.raw.strip())
            note = notes.Note(type="B", text=body)
        out.append(note)
    return out


# -- runs ------------------------------------------------------------------------------------


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode(ENCODING, ERRORS)).hexdigest()


def commit(ws: Workspace, command: str, changes: dict[str, tuple[str, str | None]]) -> str:
    """Apply ``changes`` (rel -> ("write", text) | ("append", suffix) | ("delete", None)) as one
    run (caller holds the workspace lock): before-images and meta.json first, then the writes,
    then the journal line. Returns the run id."""
    run_id = journal.new_run_id()
    run_dir = ws.confine(ws.state_dir / journal.RUNS / run_id)
    files: dict[str, dict[str, Any]] = {}
    for n, (rel, (action, text)) in enumerate(sorted(changes.items())):
        path = ws.confine(ws.root / rel)
        info: dict[str, Any] = {"existed": path.exists()}
        if info["existed"]:
            ws.write_text(run_dir / "before" / str(n), ws.read_text(path))
            info["before"] = f"before/{n}"
        if action == "append":
            info["appended"] = text
        else:
            info["after_sha"] = _sha(text) if text is not None else None
            if text is not None:  # what `rollback --force` merges against: later edits stay
                ws.write_text(run_dir / "after" / str(n), text)
                info["after"] = f"after/{n}"
        files[rel] = info
    meta = {"run_id": run_id, "files": files, "marked": {}, "rolled_back": False}
    ws.write_text(run_dir / "meta.json", json.dumps(meta, ensure_ascii=False, indent=1))
    # deletions last, so a failed write never leaves a renamed page in neither place
    order = sorted(changes.items(), key=lambda kv: (kv[1][0] == "delete", kv[0]))
    done: list[str] = []
    try:
        for rel, (action, text) in order:
            path = ws.root / rel
            if action == "append" and text is not None:
                ws.append_text(path, text)
            elif action == "write" and text is not None:
                ws.write_text(path, text)
            else:
                try:
                    os.unlink(path)
                except OSError as e:
                    raise StorageError(f"cannot delete {path}: {e.strerror}") from e
            done.append(rel)
    except StorageError as e:
        raise _undo(ws, run_dir, files, done, e) from e
    journal.append(
        ws,
        {
            "event": "memory-tool",
            "run_id": run_id,
            "command": command,
            "files_changed": sorted(changes),
            "time": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        },
    )
    return run_id


def _undo(
    ws: Workspace,
    run_dir: Path,
    files: dict[str, dict[str, Any]],
    done: list[str],
    error: Exception,
) -> StorageError:
    """Put back what a run changed before one of its writes failed: all or nothing."""
    try:
        for rel in reversed(done):
            info = files[rel]
            if info.get("before"):
                ws.write_text(ws.root / rel, ws.read_text(run_dir / info["before"]))
            else:
                (ws.root / rel).unlink(missing_ok=True)
    except (StorageError, OSError):
        return StorageError(
            f"{error}; the change was half made: `agent-sleep rollback {run_dir.name} --force` "
            "puts the files back"
        )
    shutil.rmtree(run_dir, ignore_errors=True)
    return StorageError(f"{error}; nothing was changed")


def check_size(text: str, what: str, cap: int = MAX_INPUT_CHARS) -> None:
    if not isinstance(text, str):
        raise BadInput(f"{what} must be text")
    if len(text) > cap:
        raise BadInput(f"{what} is {len(text)} characters, over the {cap} cap; write less at once")
