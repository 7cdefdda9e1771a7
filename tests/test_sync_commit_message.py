"""Commit messages name what the journal says changed the files, whichever kind of line it is:
a sleep the SessionEnd hook started, a memory-tool edit, hook lines that change nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import ROOT
from tests.test_sync_support import cli, git, identity


def git_workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    assert cli("init", "--git", "-w", str(ws)).returncode == 0
    identity(ws, "t")
    return ws


def journal(ws: Path) -> list[dict[str, object]]:
    path = ws / ".agent-sleep" / "journal.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_a_sleep_the_session_end_hook_started_is_committed_by_its_run(tmp_path: Path) -> None:
    ws = git_workspace(tmp_path)
    cli("rest", "-w", str(ws), "-t", "W", "-n", "The API dev server listens on port 8000.")
    stdin = {"session_id": "s1", "transcript_path": "", "cwd": str(tmp_path)}
    r = subprocess.run(
        [sys.executable, "-m", "agent_sleep", "hook", "session-end", "-w", str(ws)],
        input=json.dumps({**stdin, "hook_event_name": "SessionEnd", "reason": "logout"}),
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "AGENT_SLEEP_PROVIDER": "offline"},
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    deadline = time.monotonic() + 60
    while not any(e.get("hook") == "session-end-sleep" for e in journal(ws)):
        assert time.monotonic() < deadline, "the SessionEnd worker did not finish"
        time.sleep(0.2)
    run_id = next(e["run_id"] for e in journal(ws) if e.get("event") == "sleep")
    assert cli("sync", "-w", str(ws)).returncode == 0
    message = git(ws, "log", "-1", "--format=%B")
    assert "None" not in message, message
    assert message.startswith(f"sleep run {run_id} (both, 1 notes in; memory_add 1)"), message
    assert message.count(f"sleep run {run_id}") == 2  # subject and body, once each


def test_a_memory_tool_edit_is_named_as_one(tmp_path: Path) -> None:
    from agent_sleep import MemoryTool

    ws = git_workspace(tmp_path)
    MemoryTool(workspace=ws).call(
        {"command": "create", "path": "/memories/deploys.md", "file_text": "Deploys on Fridays\n"}
    )
    run_id = next(e["run_id"] for e in journal(ws) if e.get("event") == "memory-tool")
    assert cli("sync", "-w", str(ws)).returncode == 0
    subject = git(ws, "log", "-1", "--format=%s").strip()
    assert subject.startswith(f"memory-tool edit {run_id} (bank/concepts/"), subject
    assert "None" not in subject
