"""The detached end-of-session worker the SessionEnd hook starts.

    python -m agent_sleep.integrations.sleep_worker WORKSPACE SESSION_ID [TRANSCRIPT]

Holds ``.agent-sleep/claude-code/sleep.lock`` for its whole run, so a second SessionEnd that
arrives meanwhile finds the lock taken and leaves (journaled as skipped): two sleeps never
overlap. It flushes the transcript's tail (what came after the last PreCompact), then runs a
sleep, which journals itself as every sleep does; a failure is journaled with its reason.
"""

from __future__ import annotations

import sys
from pathlib import Path

from agent_sleep.core.workspace import Workspace
from agent_sleep.integrations.claude_code import (
    SLEEP_LOCK,
    flush_transcript,
    now_iso,
    state_dir,
)


def run(ws: Workspace, session_id: str, transcript: str | None) -> dict[str, object]:
    import filelock

    from agent_sleep.consolidation import journal
    from agent_sleep.consolidation.sleep import sleep_cycle

    ws.ensure()
    state_dir(ws).mkdir(parents=True, exist_ok=True)
    entry: dict[str, object] = {
        "event": "hook",
        "hook": "session-end-sleep",
        "session_id": session_id,
    }
    lock = filelock.FileLock(str(state_dir(ws) / SLEEP_LOCK), timeout=0)
    try:
        lock.acquire()
    except filelock.Timeout:
        entry["sleep"] = "skipped: a sleep is already running"
        journal.append(ws, {**entry, "time": now_iso()})
        return entry
    try:
        if transcript and Path(transcript).is_file():
            entry["flush"] = flush_transcript(ws, session_id, Path(transcript))
        result = sleep_cycle(ws, phase="both")
        entry.update(sleep="done", run_id=result.run_id, notes_in=result.notes_in)
    except Exception as e:  # detached: nobody else would hear of it
        entry["error"] = " ".join(str(e).split()) or type(e).__name__
    finally:
        lock.release()
    journal.append(ws, {**entry, "time": now_iso()})
    return entry


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        sys.stderr.write("usage: sleep_worker WORKSPACE SESSION_ID [TRANSCRIPT]\n")
        return 2
    run(Workspace.at(argv[0]), argv[1], argv[2] if len(argv) > 2 else None)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
