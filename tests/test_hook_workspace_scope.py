"""With ``--scope project`` the hooks and the MCP server find the same project workspace:
``$CLAUDE_PROJECT_DIR`` first, whatever folder the session has moved to, else the git top-level
around the working folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp.client import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from agent_sleep.core.rest import micro_rest
from agent_sleep.integrations.scope import project_folder, workspace_for
from tests.conftest import ROOT

NOTE = "Never push to main directly; always open a pull request."


@pytest.fixture(autouse=True)
def _no_project_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)  # these tests may run in Claude Code


def env(**more: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}
    return {**base, "PYTHONPATH": str(ROOT), "AGENT_SLEEP_PROVIDER": "offline", **more}


def session_start(base: Path, cwd: Path, **more: str) -> str:
    stdin = {"session_id": "s", "transcript_path": "", "cwd": str(cwd)}
    r = subprocess.run(
        [sys.executable, "-m", "agent_sleep", "hook", "session-start", "--scope", "project"]
        + ["--workspace", str(base)],
        input=json.dumps({**stdin, "hook_event_name": "SessionStart", "source": "startup"}),
        capture_output=True,
        text=True,
        env=env(**more),
        timeout=120,
    )
    assert r.returncode == 0 and r.stderr == "", r.stderr
    context: str = json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]
    return context


def mcp_write(base: Path, project: Path, cwd: Path) -> None:
    """The agent writes a note through the MCP server Claude Code started in ``project``."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "agent_sleep", "mcp", "--scope", "project", "--workspace", str(base)],
        env=env(CLAUDE_PROJECT_DIR=str(project)),
        cwd=str(cwd),
    )

    async def main() -> None:
        with open(os.devnull, "w") as err:
            async with (
                stdio_client(params, errlog=err) as (read, write),
                ClientSession(read, write) as s,
            ):
                await s.initialize()
                r = await s.call_tool("memory_write", {"note": NOTE, "type": "W"})
                assert not r.is_error, r.content

    anyio.run(main)


def test_session_start_in_a_subfolder_sees_what_the_agent_wrote_through_mcp(
    tmp_path: Path,
) -> None:
    base, project = tmp_path / "base", tmp_path / "code" / "atlas"
    (project / "backend").mkdir(parents=True)
    mcp_write(base, project, project)
    pinned = {"CLAUDE_PROJECT_DIR": str(project)}
    assert NOTE in session_start(base, project, **pinned)
    assert NOTE in session_start(base, project / "backend", **pinned)  # the session moved
    assert len(list((base / "projects").iterdir())) == 1


def test_without_claude_project_dir_a_subfolder_belongs_to_its_git_repository(
    tmp_path: Path,
) -> None:
    base, repo = tmp_path / "base", tmp_path / "atlas"
    deep = repo / "backend" / "api"
    deep.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    assert project_folder(deep) == str(repo.resolve())
    micro_rest(NOTE, "W", workspace=workspace_for("project", repo, base).root)
    assert NOTE in session_start(base, deep)
    plain = tmp_path / "scratch" / "sub"  # no repository around it: the folder itself
    plain.mkdir(parents=True)
    assert project_folder(plain) == str(plain.resolve())
    assert NOTE not in session_start(base, plain)


def test_claude_project_dir_wins_over_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, elsewhere = tmp_path / "atlas", tmp_path / "elsewhere"
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    assert project_folder(elsewhere) == str(project)
    same = workspace_for("project", elsewhere, tmp_path / "base").root
    assert same == workspace_for("project", project / "backend", tmp_path / "base").root
