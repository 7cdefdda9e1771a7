"""Which workspace an agent integration uses: one shared, or one per project keyed by its folder.

``shared`` is the workspace of the CLI (``--workspace``, else ``$AGENT_SLEEP_WORKSPACE``, else
``~/.agent_workspace``). ``project`` keeps a workspace per project folder inside it:
``<workspace>/projects/<folder-name>-<8 hex of the folder's real path>``, so two checkouts
named alike never share memory and a renamed parent folder starts a fresh one.

The project folder is ``$CLAUDE_PROJECT_DIR`` when set (Claude Code sets it for the hooks and
the MCP server it starts, whatever folder the session has moved to), else the git top-level
around the working folder, else the working folder. The hooks and the MCP server both resolve it
here, so they always share one memory.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from agent_sleep.core.errors import BadInput
from agent_sleep.core.workspace import Workspace, resolve_path

SCOPES = ("shared", "project")
SCOPE_ENV = "AGENT_SLEEP_SCOPE"
PROJECTS = "projects"
PROJECT_DIR_ENV = "CLAUDE_PROJECT_DIR"


def project_key(cwd: str | os.PathLike[str]) -> str:
    real = os.path.realpath(os.fspath(cwd))
    name = re.sub(r"[^a-z0-9]+", "-", Path(real).name.lower()).strip("-")[:40] or "root"
    return f"{name}-{hashlib.sha256(real.encode('utf-8', 'surrogateescape')).hexdigest()[:8]}"


def project_folder(cwd: str | os.PathLike[str] | None = None) -> str:
    """The project ``cwd`` (default: the working folder) belongs to; see the module docstring."""
    pinned = os.environ.get(PROJECT_DIR_ENV, "").strip()
    if pinned:
        return pinned
    start = Path(os.path.realpath(os.fspath(cwd) if cwd else os.getcwd()))
    for folder in (start, *start.parents):
        if (folder / ".git").exists():  # a folder, or a file in a worktree or submodule
            return str(folder)
    return str(start)


def workspace_for(
    scope: str | None,
    cwd: str | os.PathLike[str] | None = None,
    workspace: str | os.PathLike[str] | None = None,
) -> Workspace:
    """The workspace for ``scope`` (default ``$AGENT_SLEEP_SCOPE``, else ``shared``); for
    ``project``, that of :func:`project_folder` of ``cwd``."""
    chosen = (scope or os.environ.get(SCOPE_ENV) or "shared").strip().lower()
    if chosen not in SCOPES:
        raise BadInput(f"unknown scope {chosen!r}: use shared or project")
    base = resolve_path(workspace)
    if chosen == "shared":
        return Workspace(base)
    # the projects' workspaces live inside it: a file there is a misconfiguration to report
    # (a hook says so on stderr), not a project with no memory yet
    Workspace(base).refuse_file()
    return Workspace(base / PROJECTS / project_key(project_folder(cwd)))
