"""The detached end-of-session worker the SessionEnd hook starts.

    python -m agent_sleep.integrations.sleep_worker WORKSPACE SESSION_ID [TRANSCRIPT]

Holds the workspace's sleep lock (``sleep_lock``) for its whole run, so a second SessionEnd that
arrives meanwhile finds the lock taken: it flushes its own transcript's tail and leaves without
sleeping (journaled as skipped; the next sleep takes those notes): two sleeps never overlap.
It flushes the transcript's tail (what came after the last PreCompact), then runs a
sleep, which journals itself as every sleep does; a failure is journaled with its reason.
"""

from __future__ import annotations

import sys
from pathlib import Path

from agent_sleep.core.workspace import Workspace
from agent_sleep.integrations.claude_code import flush_transcript, now_iso


def run(ws: Workspace, session_id: str, transcript: str | None) -> dict[str, object]:
    from agent_sleep.consolidation import journal
    from agent_sleep.consolidation.sleep import sleep_cycle
    from agent_sleep.integrations.sleep_lock import SleepRunning, exclusive_sleep

    ws.ensure()
    entry: dict[str, object] = {
        "event": "hook",
        "hook": "session-end-sleep",
        "session_id": session_id,
    }
    try:
        with exclusive_sleep(ws):
            if transcript and Path(transcript).is_file():
                entry["flush"] = flush_transcript(ws, session_id, Path(transcript))
            result = sleep_cycle(ws, phase="both")
            entry.update(sleep="done", run_id=result.run_id, notes_in=result.notes_in)
    except SleepRunning:
        entry["sleep"] = "skipped: a sleep is already running"
        try:  # this session's tail still goes into the log: the next sleep takes it
            if transcript and Path(transcript).is_file():
                entry["flush"] = flush_transcript(ws, session_id, Path(transcript))
        except Exception as e:
            entry["error"] = " ".join(str(e).split()) or type(e).__name__
    except Exception as e:  # detached: nobody else would hear of it
        entry["error"] = " ".join(str(e).split()) or type(e).__name__
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
