"""Claude Code hooks on the inputs a tester broke them with: a message over 20,000 characters, a
large memory at session start, a bulleted message, a folder given as the transcript."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.core import notes
from tests.conftest import ROOT, run_cli
from tests.fixtures import claude_transcript as ct
from tests.test_hooks import big_memory, journal, payload

OFFLINE = {"AGENT_SLEEP_PROVIDER": "offline"}


def kept(fact: str) -> str:
    """What the flush keeps of "Remember that X": X, without the asking."""
    said = fact.removeprefix("Remember that ")
    return said[:1].upper() + said[1:]


def hook(event: str, data: dict[str, Any], ws: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agent_sleep", "hook", event, "--workspace", str(ws)],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **OFFLINE},
        timeout=300,
    )


def note_texts(ws: Path) -> list[str]:
    out: list[str] = []
    for log in sorted((ws / "memory").glob("*.md")):
        out += [n.text for n in notes.notes_in(log.read_text())]
    return out


# -- 1. a message over 20,000 characters reaches the flush whole ----------------------------------


def test_pre_compact_flushes_the_end_of_a_26000_character_message(ws: Path, tmp_path: Path) -> None:
    filler = "We went over the lunch menu and the weather without deciding anything. " * 400
    fact = "Please remember that the key rotation happens every 30 days and Maria owns it."
    message = filler[: 26_000 - len(fact) - 1] + " " + fact
    assert len(message) == 26_000
    transcript = ct.write(tmp_path / "longmsg.jsonl", [ct.user(message), ct.assistant("Noted.")])
    r = hook("pre-compact", payload("PreCompact", transcript, tmp_path), ws)
    assert r.returncode == 0 and r.stderr == ""
    assert any("Maria owns it" in t for t in note_texts(ws)), note_texts(ws)
    entry = [e for e in journal(ws) if e.get("hook") == "pre-compact"][-1]
    assert entry["to_offset"] == transcript.stat().st_size and entry["left_for_later"] == 0


def test_a_turn_bigger_than_a_flush_piece_is_split_never_cut(
    ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent_sleep.core.workspace import Workspace
    from agent_sleep.integrations import claude_code
    from agent_sleep.integrations.transcript import read_since

    facts = [f"Remember that release {i} ships on day {i} of the sprint." for i in range(8)]
    first = ct.user("Good morning.")
    transcript = ct.write(
        tmp_path / "t.jsonl", [first, ct.user("\n".join(facts)), ct.assistant("Noted.")]
    )
    monkeypatch.setattr(claude_code, "FLUSH_PART_CHARS", 130)  # two facts a piece
    part = read_since(transcript)
    pieces = claude_code._pieces(part)
    joined = "\n".join(text for text, _ in pieces)
    assert all(fact in joined for fact in facts)
    assert len(pieces) > 3
    after_first = len(json.dumps(first)) + 1
    # a piece ending inside the long turn reaches only the offset before that turn
    assert [end for text, end in pieces if "release 0 " in text] == [after_first]
    done = claude_code.flush_transcript(Workspace.at(ws), "s", transcript)
    assert done["to_offset"] == transcript.stat().st_size
    texts = note_texts(ws)
    for fact in facts:
        assert sum(kept(fact).rstrip(".") in t for t in texts) == 1, fact


def test_turns_of_one_record_but_the_last_resume_at_the_record(tmp_path: Path) -> None:
    from agent_sleep.integrations.transcript import read_since

    call = ct.assistant("Checking the repository.", ("toolu_1", "Bash", {"command": "ls"}))
    transcript = ct.write(tmp_path / "t.jsonl", [ct.user("Hello."), call])
    part = read_since(transcript)
    start_of_call = len(json.dumps(ct.user("Hello."))) + 1
    assert len(part.parts) == 3
    assert part.ends == [start_of_call, start_of_call, transcript.stat().st_size]


# -- 2. SessionStart keeps today's newest notes --------------------------------------------------


def test_session_start_on_a_large_memory_keeps_the_newest_note(ws: Path, tmp_path: Path) -> None:
    from agent_sleep import micro_rest

    big_memory(ws)
    for i in range(150):
        micro_rest(f"Note {i} of today: context context context", "W", workspace=ws)
    r = hook("session-start", payload("SessionStart", None, tmp_path), ws)
    assert r.returncode == 0 and len(r.stdout) < 10_000
    context = json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Note 149 of today" in context  # the newest note
    assert "Note 148 of today" in context and "Durable fact number 299" in context
    assert "more than fits" in context


# -- 3. a bulleted message keeps its lines ------------------------------------------------------


BULLETS = (
    "Remember these team rules:\n"
    "- Deploys always happen on Tuesday mornings\n"
    "- Code review must have two approvals\n"
    "- I prefer tabs over spaces in every file\n"
    "- The on-call owner is responsible for the pager rota"
)


def test_a_bulleted_message_gives_the_notes_agent_sleep_flush_gives(
    ws: Path, tmp_path: Path
) -> None:
    from agent_sleep.integrations.transcript import render

    transcript = ct.write(tmp_path / "b.jsonl", [ct.user(BULLETS), ct.assistant("Noted.")])
    r = hook("pre-compact", payload("PreCompact", transcript, tmp_path), ws)
    assert r.returncode == 0 and r.stderr == ""
    (tmp_path / "bullets.txt").write_text(BULLETS)
    other = tmp_path / "other"
    cli = run_cli(
        "flush", "-w", str(other), "--context-file", str(tmp_path / "bullets.txt"), env=OFFLINE
    )
    assert cli.returncode == 0, cli.stderr
    assert len(note_texts(ws)) >= 4
    assert sorted(note_texts(ws)) == sorted(note_texts(other))
    assert not any("Deploys" in t and "Code review" in t for t in note_texts(ws))
    assert render(ct.user(BULLETS)) == ["User: " + BULLETS]  # one label, the lines kept


# -- 4. a folder is not "missing" ---------------------------------------------------------------


@pytest.mark.parametrize("folder", ["tmp", "/etc"])
def test_a_folder_given_as_the_transcript_is_called_a_folder(
    ws: Path, tmp_path: Path, folder: str
) -> None:
    where = str(tmp_path) if folder == "tmp" else folder
    r = hook("pre-compact", payload("PreCompact", where, tmp_path), ws)
    assert r.returncode == 0 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "is a folder, not a file" in r.stderr
    assert "does not exist" not in r.stderr
    assert "is a folder, not a file" in journal(ws)[-1]["error"]
    assert note_texts(ws) == []


def test_session_start_on_a_workspace_that_is_a_file_says_so(tmp_path: Path) -> None:
    afile = tmp_path / "notes.txt"
    afile.write_text("not a workspace\n")
    r = hook("session-start", payload("SessionStart", None, tmp_path), afile)
    assert r.returncode == 0  # a hook never blocks the session
    assert json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] == ""
    assert "is a file, not a folder" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert afile.read_text() == "not a workspace\n"


# -- 5. every failure is one stderr line, whatever the scope --------------------------------------


def scoped(event: str, data: dict[str, Any], base: Path, project: Path) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "agent_sleep", "hook", event, "--scope", "project"]
        + ["--workspace", str(base)],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "CLAUDE_PROJECT_DIR": str(project), **OFFLINE},
        timeout=300,
    )


@pytest.mark.parametrize(
    ("event", "name"),
    [
        ("session-start", "SessionStart"),
        ("pre-compact", "PreCompact"),
        ("session-end", "SessionEnd"),
    ],
)
def test_a_project_scoped_hook_on_a_workspace_that_is_a_file_says_so(
    tmp_path: Path, event: str, name: str
) -> None:
    afile = tmp_path / "notes.txt"
    afile.write_text("not a workspace\n")
    r = scoped(event, payload(name, None, tmp_path), afile, tmp_path)
    assert r.returncode == 0  # a hook never blocks the session
    assert r.stderr == f"agent-sleep {event} hook: workspace {afile} is a file, not a folder\n"
    if event == "session-start":
        assert json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] == ""
    assert afile.read_text() == "not a workspace\n"


def test_session_start_names_a_file_standing_where_a_folder_above_the_workspace_goes(
    tmp_path: Path,
) -> None:
    base = tmp_path / "base"
    base.mkdir()
    (base / "projects").write_text("a file\n")
    r = scoped("session-start", payload("SessionStart", None, tmp_path), base, tmp_path)
    assert r.returncode == 0
    assert r.stderr.count("\n") == 1
    assert f"{base / 'projects'} is a file, not a folder" in r.stderr


def test_a_hook_whose_journal_line_cannot_be_written_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent_sleep.consolidation import journal as journal_module
    from agent_sleep.core.errors import StorageError
    from agent_sleep.core.workspace import Workspace
    from agent_sleep.integrations import claude_code

    def refused(*_: object) -> None:
        raise StorageError("disk full")

    monkeypatch.setattr(journal_module, "append", refused)
    monkeypatch.setattr(
        claude_code, "_dispatch", lambda *_: claude_code.HookResult(journal={"hook": "pre-compact"})
    )
    ws = Workspace(tmp_path / "ws")
    raw = json.dumps(payload("PreCompact", None, tmp_path))
    result = claude_code.run_hook("pre-compact", raw, lambda _cwd: ws)
    assert result.warning == (
        "agent-sleep pre-compact hook: its journal line was not written (disk full)"
    )


def test_the_mcp_server_on_a_project_workspace_inside_a_file_is_refused(tmp_path: Path) -> None:
    afile = tmp_path / "notes.txt"
    afile.write_text("not a workspace\n")
    r = run_cli("mcp", "--scope", "project", "-w", str(afile), input="")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == f"Error: workspace {afile} is a file, not a folder\n"
