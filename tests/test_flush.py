"""Pre-compaction flush: write gate, once per dump, never MEMORY.md, the CLI and script forms."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agent_sleep.analysis import gate
from agent_sleep.consolidation.flush import flush, should_flush
from agent_sleep.core import notes
from agent_sleep.core.errors import BadInput
from tests.conftest import ROOT, run_cli
from tests.fake_messages_api import QueueProvider

DUMP = """User: Hi! Can you look at the deploy script?
Assistant: Sure. The dev server is listening on port 8421 and wrote /tmp/build-5521/out.log.
User: I prefer small pull requests, always under 300 lines.
Assistant: Noted. Run id 7f3a9c2e41 finished.
```python
def deploy():
    return True
```
User: We decided to move the billing service to Postgres because MySQL replication kept failing.
User: Remember that Alice owns the release calendar.
Assistant: ok
"""


NOW = dt.datetime(2026, 3, 10, 16, 30)  # library flushes are dated by now=; the CLI's by the clock


def _log(ws: Path) -> str:
    """The one daily log a test's flushes wrote, whatever its date."""
    (log,) = (ws / "memory").glob("*.md")
    return log.read_text()


@pytest.mark.parametrize(
    ("tokens", "window", "expected"),
    [
        (175_999, 200_000, False),
        (176_000, 200_000, False),
        (176_001, 200_000, True),
        # a small window: the default reserve and soft threshold are at most a quarter and a
        # sixteenth of it (25 and 6 of 100; 2,048 and 512 of 8,192), never the whole window
        (69, 100, False),
        (70, 100, True),
        (5_632, 8_192, False),
        (5_633, 8_192, True),
    ],
)
def test_should_flush_threshold(tokens: int, window: int, expected: bool) -> None:
    assert should_flush(tokens, window) is expected


def test_a_reserve_that_leaves_nothing_of_the_window_is_refused() -> None:
    with pytest.raises(BadInput, match="leave nothing of a 8192-token context window"):
        should_flush(100, 8_192, reserve=20_000)
    r = run_cli("should-flush", "--tokens", "10", "--context-window", "8192", "--json")
    assert r.returncode == 0 and json.loads(r.stdout) == {
        "flush": False, "tokens": 10, "threshold": 5_632
    }  # fmt: skip
    r = run_cli(
        "should-flush", "--tokens", "10", "--context-window", "8192", "--reserve", "9000", "-q"
    )
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "leave nothing" in r.stderr


def test_should_flush_configurable() -> None:
    assert should_flush(150_000, 200_000, reserve=40_000, soft_threshold=15_000) is True
    assert should_flush(150_000, 200_000, reserve=40_000, soft_threshold=5_000) is False


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("The dev server is listening on port 8421 now", "ephemeral:port"),
        ("Output went to /tmp/build-5521/out.log today", "ephemeral:temp-path"),
        ("Run id 7f3a9c2e41 finished without errors", "ephemeral:run-id"),
        ("def deploy(): return True and more", "derivable:code"),
        ("ok", "too-short"),
        ("User prefers small pull requests under 300 lines", None),
        ("Redis default port is 6379 by default on installs", None),
    ],
)
def test_write_gate(text: str, reason: str | None) -> None:
    assert gate.reject_reason(text) == reason


def test_offline_flush_extracts_durable_notes_once(ws: Path) -> None:
    r = flush(DUMP, workspace=ws, now=NOW, provider="offline")
    log = _log(ws)
    written = notes.notes_in(log)
    texts = [n.text for n in written]
    assert any("small pull requests" in t for t in texts)
    assert any("Postgres because MySQL replication" in t for t in texts)
    assert any("Alice owns the release calendar" in t for t in texts)
    assert not any(
        "8421" in t or "/tmp/" in t or "7f3a9c2e41" in t or "def deploy" in t for t in texts
    )
    assert all(n.source == f"flush:{r.dump_hash}" for n in written)
    pref = next(n for n in written if "small pull requests" in n.text)
    assert pref.type == "O"
    assert "## Retain" in log and "[REDACTED" not in log
    memory_before = (ws / "MEMORY.md").read_bytes()
    again = flush(DUMP, workspace=ws, now=NOW, provider="offline")
    assert again.already_flushed and again.written == [] and _log(ws) == log
    shutil.rmtree(ws / ".agent-sleep")  # the stamp in the log still says it was flushed
    assert flush(DUMP, workspace=ws, now=NOW, provider="offline").already_flushed
    assert (ws / "MEMORY.md").read_bytes() == memory_before


def test_a_new_dump_with_known_notes_adds_only_new_ones(ws: Path) -> None:
    flush(DUMP, workspace=ws, now=NOW, provider="offline")
    before = len(notes.notes_in(_log(ws)))
    r = flush(
        DUMP + "\nUser: We decided the launch date is 7 June 2026.\n",
        workspace=ws,
        now=NOW,
        provider="offline",
    )
    assert len(r.written) == 1 and r.duplicates >= 3
    assert len(notes.notes_in(_log(ws))) == before + 1


def test_flush_resolves_relative_dates_and_redacts(ws: Path) -> None:
    key = "sk-ant-api03-" + "B" * 40
    q = QueueProvider().enqueue(
        {
            "notes": [
                {
                    "type": "B",
                    "confidence": 0.8,
                    "text": f"We rotated the key {key} yesterday, as agreed",
                }
            ]
        }
    )
    flush(
        f"We rotated the key {key} yesterday, as agreed with the team.",
        workspace=ws,
        now=NOW,
        provider=q,
    )
    sent = q.history[0]["payload"]["text"]
    yesterday = (NOW.date() - dt.timedelta(days=1)).isoformat()
    assert key not in sent and f"yesterday ({yesterday})" in sent
    log = _log(ws)
    assert key not in log and "[REDACTED:anthropic-key]" in log


def test_an_opinion_with_a_confidence_outside_0_to_1_is_refused_not_clamped(ws: Path) -> None:
    # before, 5.0 became O(c=1.0) and -1 O(c=0.0): a model's number read as certainty
    dump = (
        "User: I think the cache layer is the bottleneck.\n"
        "User: I believe Postgres 16 is fast enough for us.\n"
        "User: I suspect the queue is oversized.\n"
        "User: I think the old dashboard is unused.\n"
    )
    said = [ln.split(": ", 1)[1] for ln in dump.splitlines()]
    q = QueueProvider().enqueue(
        {
            "notes": [
                {"type": "O", "confidence": c, "text": t}
                for c, t in zip([5.0, -1, 0.7, 0], said, strict=True)
            ]
        }  # fmt: skip
    )
    r = flush(dump, workspace=ws, now=NOW, provider=q)
    assert r.rejected.get("bad_confidence") == 2, r.rejected
    kept = notes.notes_in(_log(ws))
    assert [(n.text, n.confidence) for n in kept] == [(said[2], 0.7), (said[3], 0.0)]


def test_empty_dump_is_refused(ws: Path) -> None:
    with pytest.raises(BadInput, match="empty"):
        flush("   \n", workspace=ws, now=NOW, provider="offline")


def test_cli_forms(ws: Path, tmp_path: Path) -> None:
    f = tmp_path / "session.txt"
    f.write_text(DUMP)
    p = run_cli("flush", "--context-file", str(f), "--provider", "offline", "-w", str(ws), "--json")
    assert p.returncode == 0, p.stderr
    assert len(json.loads(p.stdout)["written"]) >= 3
    p = run_cli(
        "flush", "--context-dump", "-", "--provider", "offline", "-w", str(ws), "--json", input=DUMP
    )
    assert json.loads(p.stdout)["already_flushed"] is True
    p = run_cli("flush", "-w", str(ws))
    assert p.returncode == 2 and "--context-file" in p.stderr and "128 KiB" in p.stderr
    p = run_cli("should-flush", "--tokens", "190000", "--context-window", "200000")
    assert p.stdout.strip() == "yes"
    p = run_cli("should-flush", "-q", "--tokens", "1000", "--context-window", "200000")
    assert p.returncode == 1 and p.stdout == ""


def test_literal_micro_rest_flush_form(ws: Path) -> None:
    p = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "micro_rest.py"),
            "--flush",
            "--context-dump",
            DUMP,
            "--workspace",
            str(ws),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    assert "Alice owns the release calendar" in _log(ws)
    assert "Alice" not in (ws / "MEMORY.md").read_text()


def test_large_dump_on_stdin(ws: Path) -> None:
    big = DUMP + "\n".join(
        f"Assistant: filler line number {i} with nothing durable" for i in range(4000)
    )
    assert len(big.encode()) > 128 * 1024
    p = run_cli(
        "flush", "--context-dump", "-", "--provider", "offline", "-w", str(ws), "--json", input=big
    )
    assert p.returncode == 0, p.stderr
    assert "Alice owns the release calendar" in _log(ws)


def test_first_person_sentences_are_kept_without_the_speaker_label(ws: Path) -> None:
    """A "User:" kept in a note reached MEMORY.md as raw chat, and sleep filed the note on
    bank/entities/user.md as if "User" were someone's name."""
    dump = (
        "User: Well, I prefer that you ask before changing any cron schedule in production.\n"
        "Assistant: The billing export now always streams invoices in pages of 500.\n"
    )
    flush(dump, workspace=ws, now=NOW)
    texts = [n.text for n in notes.notes_in(next((ws / "memory").glob("*.md")).read_text())]
    assert "I prefer that you ask before changing any cron schedule in production." in texts
    assert not any(t.startswith(("User", "Assistant", "Well")) for t in texts)
