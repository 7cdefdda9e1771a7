"""Which workspace an agent integration uses: one shared, or one per project keyed by its folder.

``shared`` is the workspace of the CLI (``--workspace``, else ``$AGENT_SLEEP_WORKSPACE``, else
``~/.agent_workspace``). ``project`` keeps a workspace per project folder inside it:
``<workspace>/projects/<folder-name>-<8 hex of the folder's real path>``, so two checkouts
named alike never share memory and a renamed parent folder starts a fresh one.
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


def project_key(cwd: str | os.PathLike[str]) -> str:
    real = os.path.realpath(os.fspath(cwd))
    name = re.sub(r"[^a-z0-9]+", "-", Path(real).name.lower()).strip("-")[:40] or "root"
    return f"{name}-{hashlib.sha256(real.encode('utf-8', 'surrogateescape')).hexdigest()[:8]}"


def workspace_for(
    scope: str | None,
    cwd: str | os.PathLike[str] | None = None,
    workspace: str | os.PathLike[str] | None = None,
) -> Workspace:
    """The workspace for ``scope`` (default ``$AGENT_SLEEP_SCOPE``, else ``shared``)."""
    chosen = (scope or os.environ.get(SCOPE_ENV) or "shared").strip().lower()
    if chosen not in SCOPES:
        raise BadInput(f"unknown scope {chosen!r}: use shared or project")
    base = resolve_path(workspace)
    if chosen == "shared":
        return Workspace(base)
    folder = cwd if cwd else os.getcwd()
    return Workspace(base / PROJECTS / project_key(folder))
