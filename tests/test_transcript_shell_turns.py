"""Claude Code records a "!" shell command, its output and a background task's notice as user
turns. They are no one's words: the flush reads them as tool output and keeps none of it, and
no markup reaches the log or MEMORY.md."""

from __future__ import annotations

import json
from pathlib import Path

from agent_sleep.core import notes
from agent_sleep.integrations.transcript import render
from tests.conftest import run_cli

SHELL_TURNS = [
    "<bash-input>cat CONTRIBUTING.md</bash-input>",
    "<bash-stdout>We always squash commits before merging.\nI prefer reviewers who comment "
    "inline.\nThe maintainers decided to drop Python 3.8 support.</bash-stdout>"
    "<bash-stderr></bash-stderr>",
    "<task-notification>Background task finished. We decided to retry the build."
    "</task-notification>",
]


def _user(text: str) -> dict:
    return {"type": "user", "sessionId": "s1", "message": {"role": "user", "content": text}}


def test_shell_turns_render_as_tool_output() -> None:
    for text in SHELL_TURNS:
        (line,) = render(_user(text))
        assert line.startswith("Tool: shell") and "<" not in line and "\n" not in line
    (said,) = render(_user("I prefer reviewers who comment inline."))
    assert said == "User: I prefer reviewers who comment inline."


def test_pre_compact_keeps_nothing_of_a_shell_turn(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    assert run_cli("init", "-w", str(ws)).returncode == 0
    transcript = tmp_path / "t.jsonl"
    said = "I'm allergic to peanuts, so no Thai takeaway for team lunches."
    records = [_user(t) for t in SHELL_TURNS] + [_user(said)]
    transcript.write_text("".join(json.dumps(r) + "\n" for r in records))
    hook = {
        "session_id": "s1",
        "transcript_path": str(transcript),
        "cwd": str(tmp_path),
        "hook_event_name": "PreCompact",
        "trigger": "auto",
    }
    r = run_cli("hook", "pre-compact", "-w", str(ws), input=json.dumps(hook))
    assert r.returncode == 0, r.stderr
    assert run_cli("sleep", "-w", str(ws)).returncode == 0
    texts = []
    for path in [ws / "MEMORY.md", *(ws / "memory").glob("*.md"), *(ws / "bank").rglob("*.md")]:
        texts += [n.text for n in notes.notes_in(path.read_text())]
    joined = "\n".join(texts)
    for leaked in ("squash", "reviewers", "Python 3.8", "retry the build", "<bash", "<task"):
        assert leaked not in joined, (leaked, texts)
    assert any("peanuts" in t for t in texts), texts  # the user's own words are still flushed
