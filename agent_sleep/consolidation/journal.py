"""The run journal, before-images, the consolidation watermark and rollback.

Everything here lives under ``.agent-sleep/`` and is derived: deleting it loses the history of
runs but never a note (MEMORY.md and bank entries cite their source notes, which is what keeps a
re-run from adding them twice).

- ``journal.jsonl``: one JSON line per run (and per rollback), credentials redacted;
- ``runs/<run_id>/``: ``meta.json`` and the before-image of every file the run touched;
- ``consolidated.json``: ids of the notes NREM and REM have already processed.

A run killed while keeping its images leaves a temp file in its folder: the next run, or
rollback, removes it (:func:`remove_stale_temps`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agent_sleep.consolidation.plan import Plan
from agent_sleep.core import args
from agent_sleep.core import notes as fmt
from agent_sleep.core.errors import AgentSleepError, BadInput, StorageError
from agent_sleep.core.memory import front_matter_end, keep_sections
from agent_sleep.core.redact import redact
from agent_sleep.core.workspace import ENCODING, ERRORS, JOURNAL, Workspace

RUNS = "runs"
WATERMARK = "consolidated.json"
PHASES = ("nrem", "rem")


def new_run_id() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ-") + secrets.token_hex(2)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _redacted(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: _redacted(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redacted(v) for v in value]
    return value


def load_watermark(ws: Workspace) -> dict[str, set[str]]:
    raw = ws.read_text(ws.state_dir / WATERMARK)
    try:
        data = json.loads(raw) if raw else {}
    except json.JSONDecodeError:
        data = {}
    data = data if isinstance(data, dict) else {}  # damaged as a whole, or in a phase's list
    return {
        p: {i for i in ids if isinstance(i, str)} if isinstance(ids := data.get(p), list) else set()
        for p in PHASES
    }


def save_watermark(ws: Workspace, marks: dict[str, set[str]]) -> None:
    data = {p: sorted(marks.get(p, set())) for p in PHASES}
    ws.write_text(ws.state_dir / WATERMARK, json.dumps(data, indent=0) + "\n")


def append(ws: Workspace, entry: dict[str, Any]) -> None:
    line = json.dumps(_redacted(entry), ensure_ascii=False, sort_keys=True, default=str)
    ws.append_text(ws.state_dir / JOURNAL, line + "\n")


def entries(ws: Workspace) -> list[dict[str, Any]]:
    out = []
    for line in ws.read_text(ws.state_dir / JOURNAL).splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(entry, dict):  # a damaged line that parses as a list or a number: skipped
            out.append(entry)
    return out


def _rel(ws: Workspace, path: Path) -> str:
    return path.relative_to(ws.root).as_posix()


def commit(ws: Workspace, run_id: str, plan: Plan, marked: dict[str, list[str]]) -> list[str]:
    """Write ``plan`` (caller holds the lock): before-images first, then atomic writes.

    Returns the workspace-relative paths written."""
    remove_stale_temps(ws)
    targets = [p for p in plan.changed()]
    for p in targets:
        ws.confine(p)  # every target checked before anything is written
    run_dir = ws.confine(ws.state_dir / RUNS / run_id)
    files: dict[str, dict[str, Any]] = {}
    for n, path in enumerate(targets):
        rel = _rel(ws, path)
        info: dict[str, Any] = {"existed": path.exists()}
        if info["existed"]:
            ws.write_text(run_dir / "before" / str(n), ws.read_text(path))
            info["before"] = f"before/{n}"
        if path in plan.appends:
            info["appended"] = plan.appends[path]
        else:
            info["after_sha"] = _sha(plan.texts[path].encode(ENCODING, ERRORS))
            # what the run wrote: a forced rollback of a file changed since undoes only the run
            ws.write_text(run_dir / "after" / str(n), plan.texts[path])
            info["after"] = f"after/{n}"
        files[rel] = info
    meta = {"run_id": run_id, "files": files, "marked": marked, "rolled_back": False}
    ws.write_text(run_dir / "meta.json", json.dumps(meta, ensure_ascii=False, indent=1))
    written: list[Path] = []
    try:
        for path in targets:
            if path in plan.appends:
                ws.append_text(path, plan.appends[path])
            else:
                ws.write_text(path, plan.texts[path])
            written.append(path)
    except StorageError as e:
        raise _undo(ws, run_id, plan, written, e) from e
    return [_rel(ws, p) for p in targets]


def remove_stale_temps(ws: Workspace) -> list[Path]:
    """Remove the temp files of writes a killed process cut short (``Workspace.
    remove_stale_temps``): in the workspace's own folders, and in the run folders
    (``runs/<run_id>/``, its ``before/`` and ``after/``: a run killed while keeping its
    images). The caller holds the lock; a sleep run about to write and rollback call it."""
    removed = ws.remove_stale_temps()
    runs = ws.state_dir / RUNS
    try:
        folders = [p for p in runs.iterdir() if p.is_dir()] if runs.is_dir() else []
    except OSError:
        return removed
    return removed + ws.remove_stale_temps(
        folder / sub for folder in folders for sub in ("", "before", "after")
    )


def _undo(
    ws: Workspace, run_id: str, plan: Plan, written: list[Path], error: StorageError
) -> StorageError:
    """Put back what a run wrote before a write failed, so a run lands whole or not at all."""
    try:
        for path in reversed(written):
            original = plan.originals.get(path)
            if original is None:
                path.unlink(missing_ok=True)
            else:
                ws.write_text(path, original)
    except (StorageError, OSError):
        return StorageError(
            f"{error}; {len(written)} files of run {run_id} were already written and could not "
            f"be put back: run `agent-sleep rollback {run_id} --force` once the problem is fixed"
        )
    shutil.rmtree(ws.state_dir / RUNS / run_id, ignore_errors=True)
    return StorageError(f"{error}; the run was undone, every file is as it was")


def _meta(ws: Workspace, run_id: str) -> dict[str, Any]:
    path = ws.state_dir / RUNS / run_id / "meta.json"
    if "/" in run_id or run_id.startswith(".") or not path.is_file():
        raise BadInput(f"no run {run_id!r} to roll back (see `agent-sleep status`)")
    try:
        data = json.loads(ws.read_text(path))
    except ValueError as e:
        raise BadInput(f"run {run_id}: its record {path} is damaged ({e}); nothing restored") from e
    if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
        raise BadInput(f"run {run_id}: its record {path} lists no files; nothing restored")
    return data


def latest_run(ws: Workspace) -> str | None:
    """The newest run not rolled back: from the journal, or a run that was interrupted (killed
    while writing) and so never got its journal line."""
    journaled = [
        str(e.get("run_id"))
        for e in entries(ws)
        if e.get("event") == "sleep" and e.get("files_changed")
    ]
    runs = ws.state_dir / RUNS
    logged = set(journaled)
    interrupted = [p.name for p in runs.iterdir() if p.name not in logged] if runs.is_dir() else []
    started: dict[str, int] = {}  # a run writes its meta.json first; ids only have seconds
    for run_id in {*journaled, *interrupted}:
        try:
            started[run_id] = (runs / run_id / "meta.json").stat().st_mtime_ns
        except OSError:
            continue
    # the journal's order says which run came last, whatever the files' times (a copy made
    # with `cp -r` gives them all the time of the copy); a run with no journal line goes after
    # the journaled runs its record is not older than
    sequence = list(dict.fromkeys(reversed(journaled)))[::-1]  # each at its last line
    place = {run_id: float(k) for k, run_id in enumerate(sequence)}

    def order(run_id: str) -> float:
        if run_id in place:
            return place[run_id]
        return sum(started.get(j, 0) <= started[run_id] for j in sequence) - 0.5

    for run_id in sorted(started, key=order, reverse=True):
        try:
            if not _meta(ws, run_id).get("rolled_back"):
                return run_id
        except BadInput:
            continue
    return None


def unfinished_runs(ws: Workspace) -> list[dict[str, Any]]:
    """The runs that began writing and never finished (killed mid-write, or a failed write
    that could not be put back): a folder under ``runs/`` with its ``meta.json``, no journal
    line and not rolled back, oldest first. Each as a row of ``status``'s recent runs, with
    what is known (``time``: when its record was written; ``files_changed``: the files it
    meant to write) and ``unfinished``: True. ``agent-sleep rollback`` undoes the newest.
    Call under the lock (``read_lock``): a run writing meanwhile would show as one."""
    runs = ws.state_dir / RUNS
    if not runs.is_dir():
        return []
    logged = {str(e.get("run_id")) for e in entries(ws) if e.get("run_id")}
    out: list[tuple[int, dict[str, Any]]] = []
    for folder in runs.iterdir():
        if folder.name in logged:
            continue
        try:
            started = (folder / "meta.json").stat().st_mtime_ns
            meta = _meta(ws, folder.name)
        except (OSError, BadInput):  # no record (killed before it): nothing to roll back
            continue
        if meta.get("rolled_back"):
            continue
        when = dt.datetime.fromtimestamp(started / 1e9, dt.timezone.utc)
        out.append(
            (
                started,
                {
                    "run_id": folder.name,
                    "time": when.isoformat(timespec="seconds"),
                    "phase": None,
                    "provider": None,
                    "model": None,
                    "notes_in": None,
                    "files_changed": len(meta["files"]),
                    "seconds": None,
                    "rolled_back": False,
                    "unfinished": True,
                },
            )
        )
    return [row for _, row in sorted(out, key=lambda item: item[0])]


Merge = Callable[[str, str, str, str], str]  # (path, base, ours, theirs) -> merged text


def rollback(
    workspace: str | Workspace | None = None,
    run_id: str | None = None,
    *,
    force: bool = False,
    merge: Merge | None = None,
) -> dict[str, Any]:
    """Restore the files a run changed, byte for byte, and make its notes pending again.

    Refuses when a file changed since the run (a later run, a hand edit, a sync merge) unless
    ``force``. Forced, such a file is restored as it was before the run; given ``merge`` (the
    entry-wise three-way merge of ``agent_sleep.sync.merge.merge_text``, which the CLI passes),
    only the run's own changes are undone and the later ones kept. Notes appended to a daily
    log after the run are kept: only the run's own block is removed."""
    args.text_or_none(run_id=run_id)
    args.flag(force=force)
    args.callable_or_none(merge=merge)
    ws = Workspace.at(workspace)
    if not ws.state_dir.is_dir():  # nothing was ever run here: create nothing either
        raise BadInput(f"no sleep run to roll back in {ws.root}")
    with ws.lock():
        remove_stale_temps(ws)
        rid = run_id or latest_run(ws)
        if rid is None:
            raise BadInput("no sleep run to roll back")
        meta = _meta(ws, rid)
        if meta.get("rolled_back"):
            raise BadInput(f"run {rid} was already rolled back")
        run_dir = ws.state_dir / RUNS / rid
        actions: list[tuple[Path, str | None]] = []
        for rel, info in meta["files"].items():
            action = _restore_action(ws, rel, info, run_dir, rid, force, merge)
            if action is not None:
                actions.append(action)
        restored = []
        for path, text in actions:
            if text is None:
                path.unlink(missing_ok=True)
            else:
                ws.write_text(path, text)
            restored.append(_rel(ws, path))
        marks = load_watermark(ws)
        for phase, ids in meta.get("marked", {}).items():
            marks.setdefault(phase, set()).difference_update(ids)
        save_watermark(ws, marks)
        meta["rolled_back"] = True
        ws.write_text(run_dir / "meta.json", json.dumps(meta, ensure_ascii=False, indent=1))
        result = {
            "event": "rollback",
            "run_id": rid,
            "files_restored": sorted(restored),
            "time": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        }
        append(ws, result)
    return result


def _restore_action(
    ws: Workspace,
    rel: str,
    info: dict[str, Any],
    run_dir: Path,
    rid: str,
    force: bool,
    merge: Merge | None,
) -> tuple[Path, str | None] | None:
    """What rolling back one file of a run writes there (None: leave it as it is)."""
    path = ws.confine(rel)
    before = _image(run_dir, info.get("before"))
    current = ws.read_text(path) if path.exists() else None
    # a run killed mid-write left some files untouched: nothing to restore there
    if "appended" in info:
        block = info["appended"]
        untouched = current == before or (
            current is not None and before is not None and current.startswith(before)
        )
        if (current is None or block not in current) and untouched:
            return None
        if current is None or block not in current:
            if not force:
                raise AgentSleepError(f"{rel} no longer holds the run's block; use --force")
            return None
        at = current.find(block)
        return path, current[:at] + current[at + len(block) :] or before
    if current == before:
        return None
    now_sha = _sha(current.encode(ENCODING, ERRORS)) if current is not None else None
    if now_sha == info.get("after_sha"):
        return path, before
    if not force:
        raise AgentSleepError(
            f"{rel} changed after run {rid} (a later run, an edit or a sync merge): roll back "
            "later runs first, or use --force to undo only this run's changes there"
        )
    after = _image(run_dir, info.get("after"))
    if merge is None or after is None or current is None:  # a run of an earlier release
        return path, before
    if before is not None:  # the merge may drop a heading a later entry sits under
        return path, keep_sections(merge(rel, after, current, before), before, after, current)
    # a page the run created: undo its entries, keep what later runs or hands added there with
    # the page around it (front matter, title, headings); with nothing of theirs left, the
    # page goes, as it was before the run
    skeleton = "".join(b.raw for b in fmt.parse(after).blocks if b.note is None)
    merged = merge(rel, after, current, skeleton)
    return path, merged if _holds_content(merged) else None


def _holds_content(page: str) -> bool:
    """Whether a page holds anything but its front matter, headings and blank lines."""
    end = front_matter_end(page)
    body = page[end + 4 :] if end >= 0 else "" if page.startswith("---\n") else page
    return any(line.strip() and not line.lstrip().startswith("#") for line in body.splitlines())


def _image(run_dir: Path, rel: Any) -> str | None:
    """A file's text as a run kept it (``before/N``, ``after/N``); None when it kept none."""
    if not isinstance(rel, str) or not rel:
        return None
    return (run_dir / rel).read_bytes().decode(ENCODING, ERRORS)
