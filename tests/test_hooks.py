"""Claude Code hooks as real subprocesses fed the documented hook JSON on stdin."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import filelock
import pytest

from agent_sleep.core import notes
from tests.conftest import ROOT
from tests.fixtures import claude_transcript as ct

FIXTURE = ROOT / "tests" / "fixtures" / "transcript_sample.jsonl"


def kept(fact: str) -> str:
    """What the flush keeps of "Remember that X": X, without the asking."""
    said = fact.removeprefix("Remember that ")
    return said[:1].upper() + said[1:]


def hook(
    event: str, payload: dict[str, Any] | str, ws: Path, *extra: str
) -> subprocess.CompletedProcess[str]:
    stdin = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run(
        [sys.executable, "-m", "agent_sleep", "hook", event, "--workspace", str(ws), *extra],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "AGENT_SLEEP_PROVIDER": "offline"},
        timeout=300,
    )


def payload(event: str, transcript: Path | str | None, cwd: Path, **more: Any) -> dict[str, Any]:
    return {
        "session_id": ct.SESSION,
        "transcript_path": str(transcript) if transcript else "",
        "cwd": str(cwd),
        "hook_event_name": event,
        **more,
    }


def journal(ws: Path) -> list[dict[str, Any]]:
    path = ws / ".agent-sleep" / "journal.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def log_notes(ws: Path) -> list[notes.Note]:
    out: list[notes.Note] = []
    for log in sorted((ws / "memory").glob("*.md")):
        out += notes.notes_in(log.read_text())
    return out


def rest(ws: Path, text: str, kind: str = "W") -> None:
    from agent_sleep import micro_rest

    micro_rest(text, kind, workspace=ws)


# -- SessionStart ------------------------------------------------------------------------------


def test_session_start_injects_memory_as_additional_context(ws: Path, tmp_path: Path) -> None:
    rest(ws, "The staging database resets every Sunday at 02:00 UTC")
    r = hook("session-start", payload("SessionStart", None, tmp_path, source="startup"), ws)
    assert r.returncode == 0 and r.stderr == ""
    out = json.loads(r.stdout)
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "resets every Sunday at 02:00 UTC" in out["hookSpecificOutput"]["additionalContext"]


def big_memory(ws: Path, entries: int = 300) -> None:
    """A MEMORY.md of ``entries`` long facts (about 80,000 characters for 300)."""
    from agent_sleep import Workspace

    w = Workspace.at(ws).ensure()
    text = "".join(
        notes.render_note(
            notes.Note("W", f"Durable fact number {i}: " + "detail " * 30, f"m{i:09d}")
        )
        for i in range(entries)
    )
    w.write_text(w.memory_md, w.read_text(w.memory_md) + "## Facts\n\n" + text)


def test_session_start_stays_under_ten_thousand_characters_and_says_so(
    ws: Path, tmp_path: Path
) -> None:
    big_memory(ws)
    for i in range(200):
        rest(ws, f"Session note {i}: " + "context " * 20)
    assert len((ws / "MEMORY.md").read_text()) > 60_000
    r = hook("session-start", payload("SessionStart", None, tmp_path, source="resume"), ws)
    assert r.returncode == 0
    assert len(r.stdout) < 10_000
    context = json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]
    hints = [line for line in context.splitlines() if "memory_search" in line]
    assert len(hints) == 1 and "more than fits" in hints[0]
    assert "Durable fact number 299" in context  # MEMORY.md's newest entries are kept
    assert "Session note 199" in context  # and today's newest notes


def test_session_start_uses_its_room_for_a_whole_budgeted_memory_md(
    ws: Path, tmp_path: Path
) -> None:
    from agent_sleep import Workspace

    w = Workspace.at(ws).ensure()
    entries = "".join(
        notes.render_note(notes.Note("W", f"Standing fact {i}: " + "word " * 12, f"s{i:09d}"))
        for i in range(80)
    )
    w.write_text(w.memory_md, w.read_text(w.memory_md) + "## Facts\n\n" + entries)
    r = hook("session-start", payload("SessionStart", None, tmp_path, source="startup"), ws)
    context = json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]
    assert 6000 < len(context) < 9300
    assert "Standing fact 79" in context and "trimmed" not in context


def test_session_start_answer_fits_even_when_json_escaping_doubles_the_text(
    ws: Path, tmp_path: Path
) -> None:
    for i in range(300):
        rest(ws, f'Config {i}: "C:\\path\\to\\{i}" said "yes" "no" "maybe" \\ \\ \\')
    r = hook("session-start", payload("SessionStart", None, tmp_path, source="startup"), ws)
    assert r.returncode == 0 and len(r.stdout) < 10_000
    context = json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Config 299" in context and "memory_search" in context


def test_session_start_on_an_empty_workspace_answers_empty_context(
    ws: Path, tmp_path: Path
) -> None:
    r = hook("session-start", payload("SessionStart", None, tmp_path, source="startup"), ws)
    assert r.returncode == 0
    assert json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] == ""


# -- PreCompact --------------------------------------------------------------------------------


def test_pre_compact_flushes_the_transcript_once_per_compaction(ws: Path, tmp_path: Path) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(FIXTURE.read_bytes())
    first = hook("pre-compact", payload("PreCompact", transcript, tmp_path, trigger="auto"), ws)
    assert first.returncode == 0
    assert first.stderr.strip().count("\n") == 0 and "malformed" in first.stderr
    texts = [n.text for n in log_notes(ws)]
    assert any("retries webhooks 5 times over 24 hours" in t for t in texts)
    assert any("small pull requests" in t for t in texts)
    assert all(n.source and n.source.startswith("flush:") for n in log_notes(ws))
    log_before = {p.name: p.read_bytes() for p in (ws / "memory").glob("*.md")}

    again = hook("pre-compact", payload("PreCompact", transcript, tmp_path, trigger="manual"), ws)
    assert again.returncode == 0
    assert {p.name: p.read_bytes() for p in (ws / "memory").glob("*.md")} == log_before
    entries = [e for e in journal(ws) if e.get("hook") == "pre-compact"]
    assert entries[-1]["notes_written"] == 0 and entries[-1]["records"] == 0

    ct.append(
        transcript,
        [ct.user("Remember: the deploy freeze starts on December 20th."), ct.assistant("Noted.")],
    )
    third = hook("pre-compact", payload("PreCompact", transcript, tmp_path, trigger="auto"), ws)
    assert third.returncode == 0
    texts = [n.text for n in log_notes(ws)]
    assert sum("deploy freeze starts on December 20th" in t for t in texts) == 1
    assert sum("retries webhooks 5 times" in t for t in texts) == 1
    state = json.loads((ws / ".agent-sleep" / "claude-code" / "sessions.json").read_text())
    assert state[ct.SESSION]["offset"] == transcript.stat().st_size
    assert state[ct.SESSION]["flushes"] == 3 - 1  # the empty second run moved nothing


def test_pre_compact_on_a_50_mb_transcript_with_malformed_and_partial_lines(
    ws: Path, tmp_path: Path
) -> None:
    facts = [
        f"Remember that the deploy window of service {i} is Tuesday at {i % 12 + 1} pm"
        for i in range(30)
    ]
    noise = "src/module.py: def handler(event): return process(event)\n" * 1100
    transcript = ct.write(
        tmp_path / "big.jsonl",
        ct.conversation(facts, noise) * 14,
        malformed=["{broken", "\x00\x01 binary", '{"type": "user", "message": 5}'],
        partial='{"type":"user","message":{"role":"user","content":"half wri',
    )
    size = transcript.stat().st_size
    assert size > 50_000_000
    r = hook("pre-compact", payload("PreCompact", transcript, tmp_path, trigger="auto"), ws)
    assert r.returncode == 0, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "malformed" in r.stderr
    texts = [n.text for n in log_notes(ws)]
    for fact in facts:
        assert sum(kept(fact) in t for t in texts) == 1, fact
    assert not any("def handler" in t for t in texts)  # tool output is not memory
    state = json.loads((ws / ".agent-sleep" / "claude-code" / "sessions.json").read_text())
    partial_len = len('{"type":"user","message":{"role":"user","content":"half wri')
    assert state[ct.SESSION]["offset"] == size - partial_len  # the unfinished line waits


@pytest.mark.parametrize(
    "stdin,reason",
    [
        ("{not json", "not JSON"),
        ("", "no hook JSON"),
        ('["a", "list"]', "not a JSON object"),
        ('{"session_id": 5, "transcript_path": "x"}', "not a string"),
    ],
)
def test_malformed_hook_json_is_one_stderr_line_exit_0_and_journaled(
    ws: Path, stdin: str, reason: str
) -> None:
    for event in ("session-start", "pre-compact", "session-end"):
        r = hook(event, stdin, ws)
        assert r.returncode == 0
        assert len(r.stderr.strip().splitlines()) == 1 and reason in r.stderr
        if event == "session-start":
            assert json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] == ""
        else:
            assert r.stdout == ""
        assert reason in journal(ws)[-1]["error"] and journal(ws)[-1]["hook"] == event


def test_a_missing_transcript_is_reported_not_fatal(ws: Path, tmp_path: Path) -> None:
    r = hook("pre-compact", payload("PreCompact", tmp_path / "gone.jsonl", tmp_path), ws)
    assert r.returncode == 0 and "does not exist" in r.stderr
    assert "does not exist" in journal(ws)[-1]["error"]
    assert log_notes(ws) == []


# -- SessionEnd --------------------------------------------------------------------------------


def _wait_for(ws: Path, hook_name: str, timeout: float = 120.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [e for e in journal(ws) if e.get("hook") == hook_name]
        if found:
            return found[-1]
        time.sleep(0.2)
    raise AssertionError(f"no {hook_name} entry in the journal")


def test_session_end_sleeps_in_a_detached_worker(ws: Path, tmp_path: Path) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(FIXTURE.read_bytes())
    rest(ws, "User prefers dark roast coffee in the morning", "O")
    r = hook("session-end", payload("SessionEnd", transcript, tmp_path, reason="logout"), ws)
    assert r.returncode == 0 and r.stdout == ""
    started = [e for e in journal(ws) if e.get("hook") == "session-end"][-1]
    assert started["sleep"] == "started" and started["worker_pid"] > 0
    done = _wait_for(ws, "session-end-sleep")
    assert done["sleep"] == "done", done
    assert done["flush"]["notes_written"] >= 1  # the transcript's tail went in first
    assert any(e.get("event") == "sleep" for e in journal(ws))  # the sleep journaled itself
    assert "dark roast coffee" in (ws / "MEMORY.md").read_text()


def test_a_running_sleep_keeps_a_second_one_from_starting(ws: Path, tmp_path: Path) -> None:
    rest(ws, "A note waiting for sleep")
    lock_path = ws / ".agent-sleep" / "sleep-run.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with filelock.FileLock(str(lock_path), timeout=0):
        r = hook("session-end", payload("SessionEnd", None, tmp_path, reason="other"), ws)
        assert r.returncode == 0
        entry = [e for e in journal(ws) if e.get("hook") == "session-end"][-1]
        assert entry["sleep"].startswith("skipped")
        from agent_sleep.core.workspace import Workspace
        from agent_sleep.integrations.sleep_worker import run

        assert str(run(Workspace.at(ws), "s2", None)["sleep"]).startswith("skipped")
    assert not any(e.get("event") == "sleep" for e in journal(ws))


def test_project_scope_keys_the_workspace_by_cwd(tmp_path: Path) -> None:
    base = tmp_path / "base"
    a, b = tmp_path / "app-a", tmp_path / "app-b"
    a.mkdir()
    b.mkdir()
    transcript = tmp_path / "t.jsonl"
    ct.write(
        transcript, [ct.user("Remember that Dana owns the app-a launch review, ticket APP-8443.")]
    )
    r = hook("pre-compact", payload("PreCompact", transcript, a), base, "--scope", "project")
    assert r.returncode == 0, r.stderr
    projects = sorted(p.name for p in (base / "projects").iterdir())
    assert len(projects) == 1 and projects[0].startswith("app-a-")
    r = hook("session-start", payload("SessionStart", None, b), base, "--scope", "project")
    assert "8443" not in r.stdout
    r = hook("session-start", payload("SessionStart", None, a), base, "--scope", "project")
    assert "8443" in json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]


def test_pre_compact_within_its_time_budget_leaves_the_rest_for_the_next_flush(
    ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent_sleep.core.workspace import Workspace
    from agent_sleep.integrations import claude_code

    facts = [f"Remember that release {i} ships on day {i} of the sprint" for i in range(6)]
    transcript = ct.write(tmp_path / "t.jsonl", ct.conversation(facts))
    w = Workspace.at(ws)
    none = claude_code.flush_transcript(w, "s", transcript, seconds=0.0)
    assert none["notes_written"] == 0 and none["left_for_later"] == transcript.stat().st_size
    monkeypatch.setattr(claude_code, "FLUSH_PART_CHARS", 150)  # one piece per turn or two
    done = claude_code.flush_transcript(w, "s", transcript, seconds=None)
    assert done["left_for_later"] == 0 and done["to_offset"] == transcript.stat().st_size
    texts = [n.text for n in log_notes(ws)]
    for fact in facts:
        assert sum(kept(fact) in t for t in texts) == 1
    assert claude_code.flush_transcript(w, "s", transcript)["notes_written"] == 0
