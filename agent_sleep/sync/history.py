"""The history of one entry (by id) or one page (by path), from the workspace's git log."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from agent_sleep.core import notes as fmt
from agent_sleep.core.errors import BadInput
from agent_sleep.core.workspace import Workspace
from agent_sleep.sync.repo import Repo, open_repo

_ID_RE = re.compile(r"^[0-9a-z]{4,40}$")
_SEP = "\x1e"
_FIELD = "\x1f"


@dataclass
class Change:
    commit: str
    date: str
    subject: str
    path: str = ""
    removed: list[str] = field(default_factory=list)  # the entry's lines before
    added: list[str] = field(default_factory=list)  # and after
    sources: list[str] = field(default_factory=list)  # note ids the new version cites
    source_notes: dict[str, str] = field(default_factory=dict)  # id -> text, when found
    lines: str = ""  # a file's history: "+added -removed" lines
    superseded_by: list[str] = field(default_factory=list)  # entries that replace it now


def history(
    workspace: str | os.PathLike[str] | Workspace | None, target: str, *, limit: int = 50
) -> list[Change]:
    """Newest first: the commits that touched ``target`` (a note/entry id or a file path)."""
    repo = open_repo(workspace)
    if repo.head() is None:
        return []
    target = target.strip()
    if not target:
        raise BadInput("give an entry's id (the id=… of a note, e.g. k3v9x2m7qa) or a file's path")
    path = _as_path(repo, target)
    if path is not None:
        return _file_history(repo, path, limit)
    if not _ID_RE.match(target):
        raise BadInput(
            f"{target!r} is neither a file of the workspace nor an entry id "
            "(ids are the id=… of a note, e.g. k3v9x2m7qa)"
        )
    return _entry_history(repo, target, limit)


def _as_path(repo: Repo, target: str) -> str | None:
    candidate = repo.ws.root / target
    if os.path.isabs(target):
        candidate = os.path.abspath(target)  # type: ignore[assignment]
    rel = os.path.relpath(candidate, repo.ws.root)
    if rel.startswith(".."):
        raise BadInput(f"{target} is outside the workspace {repo.ws.root}")
    if os.path.exists(candidate) or "/" in target or target.endswith(".md"):
        return rel.replace(os.sep, "/")
    return None


def _log(repo: Repo, args: list[str]) -> list[tuple[str, str, str, str]]:
    fmt_arg = f"--format={_SEP}%H{_FIELD}%aI{_FIELD}%s"
    out = repo.git("log", fmt_arg, "--no-color", *args).stdout
    commits = []
    for chunk in out.split(_SEP)[1:]:
        head, _, body = chunk.partition("\n")
        sha, date, subject = (head.split(_FIELD) + ["", ""])[:3]
        commits.append((sha, date, subject, body))
    return commits


def _file_history(repo: Repo, path: str, limit: int) -> list[Change]:
    out = []
    for sha, date, subject, body in _log(repo, [f"-n{limit}", "--numstat", "--", path]):
        change = Change(sha, date, subject, path)
        added = removed = 0
        counted = False
        for line in body.splitlines():
            parts = line.split("\t")
            if len(parts) == 3 and parts[0].isdigit() and parts[1].isdigit():
                added, removed, counted = added + int(parts[0]), removed + int(parts[1]), True
        if counted:  # a folder's history: the lines of all its files that commit changed
            change.lines = f"+{added} -{removed}"
        out.append(change)
    return out


def _entry_history(repo: Repo, entry_id: str, limit: int) -> list[Change]:
    needle = f"id={entry_id}"
    args = [f"-n{limit}", f"-G{needle}", "-p", "--unified=0", "--no-merges", "--", "."]
    out = []
    notes = _note_texts(repo.ws)
    for sha, date, subject, body in _log(repo, args):
        change = Change(sha, date, subject)
        current, gone_from = "", ""  # the file a line belongs to; where the entry left
        for line in body.splitlines():
            if line.startswith("+++ b/"):
                current = line[6:]
            elif line[:1] in "+-" and line[:3] not in ("+++", "---") and _cites(line, needle):
                (change.added if line[0] == "+" else change.removed).append(line[1:])
                if line[0] == "+":  # the file the entry is in after the commit
                    change.path = change.path or current
                else:
                    gone_from = gone_from or current
        change.path = change.path or gone_from
        for line in change.added:
            for n in fmt.notes_in(line + "\n"):
                change.sources += [s for s in n.meta.get("sources", "").split(",") if s]
        change.source_notes = {s: notes[s] for s in change.sources if s in notes}
        if change.added or change.removed:
            out.append(change)
    if out:
        out[0].superseded_by = successors(repo.ws, entry_id)
    return out


def successors(ws: Workspace, entry_id: str) -> list[str]:
    """Ids of the entries in MEMORY.md and the bank that replace ``entry_id`` now."""
    out: list[str] = []
    for page in [ws.memory_md, *sorted(ws.bank_dir.rglob("*.md"))]:
        for n in fmt.notes_in(ws.read_text(page)):
            if n.id == entry_id and n.meta.get("superseded_by"):
                out.append(n.meta["superseded_by"])
            elif entry_id in (n.meta.get("supersedes"), n.meta.get("was")):
                out.append(n.id)
    return list(dict.fromkeys(out))


def _cites(line: str, needle: str) -> bool:
    return f"{needle} " in line or f"{needle} -->" in line


def _note_texts(ws: Workspace) -> dict[str, str]:
    out: dict[str, str] = {}
    for log in ws.daily_logs():
        for n in fmt.notes_in(ws.read_text(log)):
            if n.id:
                out[n.id] = f"{log.stem} {n.time or ''} {n.prefix}: {n.text}".replace("  ", " ")
    return out
