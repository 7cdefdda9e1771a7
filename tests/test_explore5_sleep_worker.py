"""The end-of-session sleep when two sessions end at once (real processes, real files)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import filelock

from agent_sleep import micro_rest
from tests.conftest import ROOT
from tests.fixtures import claude_transcript as ct


def journal(ws: Path) -> list[dict[str, Any]]:
    path = ws / ".agent-sleep" / "journal.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def wait_for(ws: Path, session: str, hook_name: str = "session-end-sleep") -> dict[str, Any]:
    deadline = time.monotonic() + 180.0  # a wait for a detached process, not a timed check
    while time.monotonic() < deadline:
        found = [
            e for e in journal(ws) if e.get("hook") == hook_name and e.get("session_id") == session
        ]
        if found:
            return found[-1]
        time.sleep(0.2)
    raise AssertionError(f"no {hook_name} entry for {session} in the journal")


def session_end(
    ws: Path, session: str, transcript: Path | None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The SessionEnd hook in a new process; ``transcript`` None: a session without one."""
    payload = {
        "session_id": session,
        "transcript_path": str(transcript) if transcript is not None else "",
        "cwd": str(cwd or (transcript.parent if transcript is not None else ws)),
        "hook_event_name": "SessionEnd",
        "reason": "logout",
    }
    return subprocess.run(
        [sys.executable, "-m", "agent_sleep", "hook", "session-end", "--workspace", str(ws)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "AGENT_SLEEP_PROVIDER": "offline"},
        timeout=300,
    )


def logs(ws: Path) -> str:
    return "".join(p.read_text() for p in sorted((ws / "memory").glob("*.md")))


def test_a_session_ending_while_another_sleeps_still_flushes_its_transcript(
    ws: Path, tmp_path: Path
) -> None:
    micro_rest("A note waiting for sleep", "B", workspace=ws)
    transcript = tmp_path / "second.jsonl"
    ct.write(
        transcript,
        [ct.user("Remember that the Zurich office opens on 14 March 2027, ticket ZRH-5521.")],
    )
    lock_path = ws / ".agent-sleep" / "sleep-run.lock"
    with filelock.FileLock(str(lock_path), timeout=0):  # the first session's sleep, running
        r = session_end(ws, "second-session", transcript)
        assert r.returncode == 0 and r.stderr == ""
        done = wait_for(ws, "second-session")
    started = wait_for(ws, "second-session", "session-end")
    assert started["sleep"].startswith("flush only") and started["worker_pid"] > 0
    assert str(done["sleep"]).startswith("skipped"), done
    assert done["flush"]["notes_written"] >= 1, done
    assert "ZRH-5521" in logs(ws)  # its tail waits in the log for the next sleep
    assert not any(e.get("event") == "sleep" for e in journal(ws))  # and no second sleep ran


def test_without_a_transcript_a_running_sleep_still_means_no_worker(
    ws: Path, tmp_path: Path
) -> None:
    micro_rest("A note waiting for sleep", "B", workspace=ws)
    lock_path = ws / ".agent-sleep" / "sleep-run.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with filelock.FileLock(str(lock_path), timeout=0):
        r = session_end(ws, "s3", None, cwd=tmp_path)
    assert r.returncode == 0
    entry = [e for e in journal(ws) if e.get("hook") == "session-end"][-1]
    assert entry["sleep"].startswith("skipped") and "worker_pid" not in entry
