"""``agent-sleep install claude-code``: merge our hooks and MCP server into Claude Code's settings.

- ``--project DIR``: hooks into ``DIR/.claude/settings.json``, the server into ``DIR/.mcp.json``;
- ``--user``: hooks into ``~/.claude/settings.json``, the server into ``~/.claude.json``
  (Claude Code's user-scope MCP servers).

The merge touches only what is ours: hook entries whose command runs ``agent-sleep hook`` (or
the plugin's runner), or ends the way install writes it whatever ``--command`` was (``hook
EVENT --scope project|shared [--workspace DIR]``, EVENT the one of its Claude Code event), are
replaced; every other hook, matcher and setting is kept as it was, in its order. Running it
again changes nothing (and writes nothing). A file that changes is backed up first
(``<name>.bak-<UTC time>``) and replaced atomically; a symlinked file is written through to its
target (the link stays). A file that is not valid JSON (``NaN``/``Infinity`` included, and a
number too large for a double, which would be rewritten as ``Infinity``), or whose ``hooks``
are not shaped as Claude Code reads them, is refused with one line before anything is written,
to either file. ``--remove`` deletes an MCP file that held nothing but our server when install
created it (no backup shows a file of the user's from before); a file of the user's is kept.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import glob
import json
import math
import os
import shlex
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_sleep.core.errors import BadInput, StorageError
from agent_sleep.core.workspace import resolve_path

SERVER_NAME = "agent-sleep"
HOOKS = {  # Claude Code event -> (our hook, timeout in seconds)
    "SessionStart": ("session-start", 10),
    "PreCompact": ("pre-compact", 120),
    "SessionEnd": ("session-end", 10),
}
MARKERS = ("agent-sleep hook ", "agent_sleep hook ", 'hooks/run.py" hook ', "hooks/run.py hook ")


@dataclass(frozen=True)
class Installed:
    settings: str
    mcp: str
    scope: str
    changed: list[str] = field(default_factory=list)
    backups: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)  # files --remove deleted (also in changed)


def base_command() -> str:
    """How Claude Code should start us: ``agent-sleep`` when the one on PATH belongs to this
    Python (so the settings stay portable), else this Python with ``-m agent_sleep``."""
    found = shutil.which("agent-sleep")
    here = Path(sys.executable).parent
    if found and Path(found).resolve().parent in (here, here.resolve()):
        return "agent-sleep"
    return f"{shlex.quote(sys.executable)} -m agent_sleep"


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        # Node reads it as Infinity too, and Python could only write it back as the invalid
        # literal ``Infinity``: refused rather than changed
        raise ValueError(f"the number {text} is too large for a double")
    return number


def _load(path: Path) -> dict[str, Any]:
    if path.is_symlink() and not path.exists():
        raise BadInput(
            f"{path} is a symlink to {os.readlink(path)}, which does not exist (or loops); "
            "fix the link first, nothing was written"
        )
    if not path.exists():
        return {}
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"cannot read {path} ({e}); nothing was written") from None
    if not text.strip():
        return {}
    try:
        data = json.loads(text, parse_constant=_constant, parse_float=_finite)
    except json.JSONDecodeError as e:
        raise BadInput(
            f"{path} is not valid JSON ({e.msg}, line {e.lineno}); "
            "fix it first, nothing was written"
        ) from None
    except (ValueError, RecursionError) as e:  # NaN, Infinity, 1e999, a huge integer, deep nesting
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise BadInput(
            f"{path} is not valid JSON ({reason}); fix it first, nothing was written"
        ) from None
    if not isinstance(data, dict):
        raise BadInput(f"{path} does not hold a JSON object; nothing was written")
    return data


def ours(hook: Any, event: str | None = None) -> bool:
    """Whether a hook entry is one install wrote: its command runs ``agent-sleep hook`` (or the
    plugin's runner), or, in ``event``, ends exactly as install writes it after any
    ``--command``: ``hook NAME --scope project|shared [--workspace DIR]``, NAME that event's."""
    command = hook.get("command", "") if isinstance(hook, dict) else ""
    if not isinstance(command, str):
        return False
    if any(m in command + " " for m in MARKERS):
        return True
    if event not in HOOKS or hook.get("type", "command") != "command":
        return False
    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    name = HOOKS[event][0]
    for tail in (4, 6):  # hook NAME --scope S [--workspace DIR]
        if len(argv) > tail and argv[-tail : -tail + 3] == ["hook", name, "--scope"]:
            rest = argv[-tail + 3 :]
            if rest[0] in ("project", "shared") and (tail == 4 or rest[1] == "--workspace"):
                return True
    return False


def merge_hooks(
    settings: dict[str, Any], command: str | None, options: list[str], path: Path
) -> dict[str, Any]:
    """``settings`` with our three hooks in place (``command`` None: taken out) and everything
    else untouched."""
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise BadInput(f"{path}: 'hooks' is not an object; nothing was written")
    merged = dict(hooks)
    emptied = False
    for event, (name, timeout) in HOOKS.items():
        groups = hooks.get(event, [])
        if not isinstance(groups, list) or not all(isinstance(g, dict) for g in groups):
            raise BadInput(f"{path}: hooks.{event} is not a list of objects; nothing was written")
        kept: list[Any] = []
        at = None  # where ours was: a new entry goes there, so running again moves nothing
        for group in groups:
            inner = group.get("hooks", [])
            if not isinstance(inner, list):
                raise BadInput(
                    f"{path}: a hooks.{event} entry has no hook list; nothing was written"
                )
            rest = [h for h in inner if not ours(h, event)]
            if len(rest) != len(inner) and at is None:
                at = len(kept) + (1 if rest else 0)
            if rest or not inner:
                kept.append({**group, "hooks": rest} if len(rest) != len(inner) else group)
        if command is not None:
            line = f"{command} hook {name} {shlex.join(options)}"
            entry = {"hooks": [{"type": "command", "command": line, "timeout": timeout}]}
            kept.insert(len(kept) if at is None else at, entry)
        if kept or event in hooks:
            merged[event] = kept
        if command is None and not kept and at is not None:  # an event we emptied goes
            merged.pop(event, None)
            emptied = True
    if command is None and not merged and (emptied or "hooks" not in settings):
        return {k: v for k, v in settings.items() if k != "hooks"}
    return {**settings, "hooks": merged}


def merge_mcp(
    config: dict[str, Any], command: str | None, options: list[str], path: Path
) -> dict[str, Any]:
    """``config`` with our MCP server in place (``command`` None: taken out)."""
    servers = config.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise BadInput(f"{path}: 'mcpServers' is not an object; nothing was written")
    if command is None:
        if SERVER_NAME not in servers:
            return dict(config)
        rest = {k: v for k, v in servers.items() if k != SERVER_NAME}
        if rest:
            return {**config, "mcpServers": rest}
        return {k: v for k, v in config.items() if k != "mcpServers"}  # emptied by us: it goes
    argv = shlex.split(command)
    entry = {"command": argv[0], "args": [*argv[1:], "mcp", *options]}
    if isinstance(servers.get(SERVER_NAME), dict):
        entry = {**servers[SERVER_NAME], **entry}  # keep env and the like a user added
    return {**config, "mcpServers": {**servers, SERVER_NAME: entry}}


def _only_ours(config: dict[str, Any]) -> bool:
    servers = config.get("mcpServers")
    return (
        config.keys() == {"mcpServers"}
        and isinstance(servers, dict)
        and set(servers) == {SERVER_NAME}
    )


def _created_by_install(path: Path, config: dict[str, Any]) -> bool:
    """Whether ``path`` (holding ``config``) holds nothing but our server, and install created
    it: not a link, and its oldest backup, if any, held nothing but our server either (a file
    the user had before, ``{}`` or an empty server list too, is theirs and stays)."""
    if path.is_symlink() or not _only_ours(config):
        return False
    backups = sorted(path.parent.glob(glob.escape(path.name) + ".bak-*"))  # oldest first
    if not backups:
        return True
    try:
        return _only_ours(_load(backups[0]))
    except BadInput:
        return False


def _dump(path: Path, data: dict[str, Any]) -> str:
    """The JSON text for ``data``: standard JSON only (never ``NaN`` or ``Infinity``)."""
    try:
        return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    except ValueError as e:
        raise BadInput(
            f"{path}: cannot be written as valid JSON ({e}); nothing was written"
        ) from None


def _write(path: Path, text: str, stamp: str) -> str | None:
    """Atomically replace ``path`` (a symlink: its target, beside which the temporary file is
    made, so the link stays); back the old file up first, beside ``path``. Returns the backup's
    path."""
    backup = None
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    tmp: str | None = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists():
            backup = path.with_name(f"{path.name}.bak-{stamp}")
            shutil.copy2(target, backup)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o777)
        os.replace(tmp, target)
        tmp = None
    except OSError as e:
        raise StorageError(f"cannot write {path}: {e.strerror}; the old file is unchanged") from e
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return str(backup) if backup else None


def _delete(path: Path, stamp: str) -> str:
    """Back ``path`` up beside it, then delete it. Returns the backup's path."""
    backup = path.with_name(f"{path.name}.bak-{stamp}")
    try:
        shutil.copy2(path, backup)
        path.unlink()
    except OSError as e:
        raise StorageError(f"cannot delete {path}: {e.strerror}; it is unchanged") from e
    return str(backup)


def install_claude_code(
    project: str | os.PathLike[str] | None = None,
    *,
    user: bool = False,
    scope: str = "project",
    command: str | None = None,
    workspace: str | os.PathLike[str] | None = None,
    home: str | os.PathLike[str] | None = None,
    remove: bool = False,
) -> Installed:
    """Merge the hooks and the MCP server into a project's (default: the current folder) or
    the user's Claude Code settings. ``workspace`` is written into the commands; without it
    they use ``$AGENT_SLEEP_WORKSPACE`` or the default when they run. ``remove`` takes our
    hooks and server out again, the same way (backups, nothing else touched); an MCP file
    install created and that held only our server is deleted then."""
    if scope not in ("project", "shared"):
        raise BadInput(f"unknown scope {scope!r}: use project or shared")
    if user and project is not None:
        raise BadInput("give --project DIR or --user, not both")
    if user:
        root = Path(home or os.path.expanduser("~"))
        settings_path, mcp_path = root / ".claude" / "settings.json", root / ".claude.json"
    else:
        root = Path(project or os.getcwd())
        if not root.is_dir():
            raise BadInput(f"project folder {root} does not exist")
        settings_path, mcp_path = root / ".claude" / "settings.json", root / ".mcp.json"
    cmd = None if remove else command or base_command()
    old_settings, old_mcp = _load(settings_path), _load(mcp_path)
    options = ["--scope", scope]
    if workspace is not None:
        where = resolve_path(workspace)
        if where.exists() and not where.is_dir():
            raise BadInput(f"workspace {where} is a file, not a folder; nothing was written")
        options += ["--workspace", str(where)]
    new_settings = merge_hooks(old_settings, cmd, options, settings_path)
    new_mcp = merge_mcp(old_mcp, cmd, options, mcp_path)
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    gone = remove and _created_by_install(mcp_path, old_mcp)
    writes = [  # every file's text is made before any is written (None: the file goes)
        (path, None if path == mcp_path and gone else _dump(path, new))
        for path, old, new in (
            (settings_path, old_settings, new_settings),
            (mcp_path, old_mcp, new_mcp),
        )
        if not ((old == new and path.exists()) or (remove and not path.exists()))
    ]
    changed, backups, removed = [], [], []
    for path, text in writes:
        backup = _write(path, text, stamp) if text is not None else _delete(path, stamp)
        changed.append(str(path))
        if text is None:
            removed.append(str(path))
        if backup:
            backups.append(backup)
    return Installed(str(settings_path), str(mcp_path), scope, changed, backups, removed)
