"""``agent-sleep install claude-code``: merge our hooks and MCP server into Claude Code's settings.

- ``--project DIR``: hooks into ``DIR/.claude/settings.json``, the server into ``DIR/.mcp.json``;
- ``--user``: hooks into ``~/.claude/settings.json``, the server into ``~/.claude.json``
  (Claude Code's user-scope MCP servers).

The merge touches only what is ours: hook entries whose command runs ``agent-sleep hook`` (or
the plugin's runner) are replaced, every other hook, matcher and setting is kept as it was, in
its order. Running it again changes nothing (and writes nothing). A file that changes is backed
up first (``<name>.bak-<UTC time>``) and replaced atomically. A file that is not valid JSON, or
whose ``hooks`` are not shaped as Claude Code reads them, is refused with one line before
anything is written, to either file.
"""

from __future__ import annotations

import datetime as dt
import json
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


def base_command() -> str:
    """How Claude Code should start us: ``agent-sleep`` when the one on PATH belongs to this
    Python (so the settings stay portable), else this Python with ``-m agent_sleep``."""
    found = shutil.which("agent-sleep")
    here = Path(sys.executable).parent
    if found and Path(found).resolve().parent in (here, here.resolve()):
        return "agent-sleep"
    return f"{shlex.quote(sys.executable)} -m agent_sleep"


def _load(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"cannot read {path} ({e}); nothing was written") from None
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise BadInput(
            f"{path} is not valid JSON ({e.msg}, line {e.lineno}); "
            "fix it first, nothing was written"
        ) from None
    if not isinstance(data, dict):
        raise BadInput(f"{path} does not hold a JSON object; nothing was written")
    return data


def ours(hook: Any) -> bool:
    command = hook.get("command", "") if isinstance(hook, dict) else ""
    return isinstance(command, str) and any(m in command + " " for m in MARKERS)


def merge_hooks(
    settings: dict[str, Any], command: str | None, options: list[str], path: Path
) -> dict[str, Any]:
    """``settings`` with our three hooks in place (``command`` None: taken out) and everything
    else untouched."""
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise BadInput(f"{path}: 'hooks' is not an object; nothing was written")
    merged = dict(hooks)
    for event, (name, timeout) in HOOKS.items():
        groups = hooks.get(event, [])
        if not isinstance(groups, list) or not all(isinstance(g, dict) for g in groups):
            raise BadInput(f"{path}: hooks.{event} is not a list of objects; nothing was written")
        kept = []
        for group in groups:
            inner = group.get("hooks", [])
            if not isinstance(inner, list):
                raise BadInput(
                    f"{path}: a hooks.{event} entry has no hook list; nothing was written"
                )
            rest = [h for h in inner if not ours(h)]
            if rest or not inner:
                kept.append({**group, "hooks": rest} if len(rest) != len(inner) else group)
        if command is not None:
            line = f"{command} hook {name} {shlex.join(options)}"
            kept.append({"hooks": [{"type": "command", "command": line, "timeout": timeout}]})
        if kept or event in hooks:
            merged[event] = kept
        if command is None and not kept:
            merged.pop(event, None)
    if command is None and not merged and "hooks" not in settings:
        return dict(settings)
    return {**settings, "hooks": merged}


def merge_mcp(
    config: dict[str, Any], command: str | None, options: list[str], path: Path
) -> dict[str, Any]:
    """``config`` with our MCP server in place (``command`` None: taken out)."""
    servers = config.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise BadInput(f"{path}: 'mcpServers' is not an object; nothing was written")
    if command is None:
        rest = {k: v for k, v in servers.items() if k != SERVER_NAME}
        return {**config, "mcpServers": rest} if rest or "mcpServers" in config else dict(config)
    argv = shlex.split(command)
    entry = {"command": argv[0], "args": [*argv[1:], "mcp", *options]}
    if isinstance(servers.get(SERVER_NAME), dict):
        entry = {**servers[SERVER_NAME], **entry}  # keep env and the like a user added
    return {**config, "mcpServers": {**servers, SERVER_NAME: entry}}


def _write(path: Path, data: dict[str, Any], stamp: str) -> str | None:
    """Atomically replace ``path``; back the old file up first. Returns the backup's path."""
    backup = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            backup = path.with_name(f"{path.name}.bak-{stamp}")
            shutil.copy2(path, backup)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    except OSError as e:
        raise StorageError(f"cannot write {path}: {e.strerror}; the old file is unchanged") from e
    return str(backup) if backup else None


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
    hooks and server out again, the same way (backups, nothing else touched)."""
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
        options += ["--workspace", str(resolve_path(workspace))]
    new_settings = merge_hooks(old_settings, cmd, options, settings_path)
    new_mcp = merge_mcp(old_mcp, cmd, options, mcp_path)
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    changed, backups = [], []
    for path, old, new in (
        (settings_path, old_settings, new_settings),
        (mcp_path, old_mcp, new_mcp),
    ):
        if (old == new and path.exists()) or (remove and not path.exists()):
            continue
        backup = _write(path, new, stamp)
        changed.append(str(path))
        if backup:
            backups.append(backup)
    return Installed(str(settings_path), str(mcp_path), scope, changed, backups)
