"""Whole sleep runs with the offline provider: idempotence, REM landing places, CLI forms."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core.rest import micro_rest
from tests.conftest import ROOT, run_cli
from tests.fake_messages_api import QueueProvider
from tests.test_hostile_support import AT, NOW, ON, TODAY

DAY = [
    ("User prefers concise replies under 200 words", "O", 0.9),
    ("Redis default port is 6379", "W", None),
    ("Deployed v2 to staging yesterday after fixing the auth bug", "B", None),
    ("User prefers concise replies under 200 words, always", "O", 0.9),
    ("Thanks!", "B", None),
    ("Need to check whether the Postgres backup ran last night?", "B", None),
    ("Alice owns the billing service since March 2024", "W", None),
    ("Alice said the billing service migration is due next Friday", "B", None),
    ("Alice prefers Slack over email", "O", 0.7),
]


def _fill(
    ws: Path, items: list[tuple[str, str, float | None]] = DAY, day: dt.date | None = None
) -> list[str]:
    start = dt.datetime.combine(day or TODAY, dt.time(9, 0))
    return [
        micro_rest(t, k, workspace=ws, confidence=c, when=start + dt.timedelta(minutes=i))
        for i, (t, k, c) in enumerate(items)
    ]


def _snapshot(ws: Path) -> dict[str, bytes]:
    return {
        p.relative_to(ws).as_posix(): p.read_bytes()
        for p in sorted(ws.rglob("*.md"))
        if ".agent-sleep" not in p.parts
    }


def test_a_day_consolidates_and_a_second_run_changes_nothing(ws: Path) -> None:
    ids = _fill(ws)
    r = sleep_cycle(ws, provider="offline", now=NOW)
    assert r.notes_in == len(DAY) and r.run_id
    memory = (ws / "MEMORY.md").read_text()
    assert "Redis default port is 6379" in memory
    entries = [n for n in notes.notes_in(memory) if n.id]
    cited = {s for n in entries for s in n.meta["sources"].split(",")}
    assert cited <= set(ids)
    merged = [n for n in entries if "concise replies" in n.text]
    assert len(merged) == 1 and len(merged[0].meta["sources"].split(",")) == 2
    assert "Thanks!" not in memory
    yesterday = (TODAY - dt.timedelta(days=1)).isoformat()
    everything = memory + "".join(p.read_text() for p in (ws / "bank").rglob("*.md"))
    assert f"yesterday ({yesterday})" in everything
    before = _snapshot(ws)
    again = sleep_cycle(ws, provider="offline", now=NOW)
    assert again.notes_in == 0 and again.files_changed == []
    assert _snapshot(ws) == before


def test_deleting_the_state_folder_adds_nothing(ws: Path) -> None:
    _fill(ws)
    sleep_cycle(ws, provider="offline", now=NOW)
    before = _snapshot(ws)
    shutil.rmtree(ws / ".agent-sleep")
    sleep_cycle(ws, provider="offline", now=NOW)
    after = _snapshot(ws)
    assert after["MEMORY.md"] == before["MEMORY.md"]
    assert {k: v for k, v in after.items() if k.startswith("bank/")} == {
        k: v for k, v in before.items() if k.startswith("bank/")
    }


def test_daily_logs_are_never_rewritten(ws: Path) -> None:
    _fill(ws, day=TODAY - dt.timedelta(days=2))
    old_log = ws / "memory" / f"{(TODAY - dt.timedelta(days=2)).isoformat()}.md"
    before = old_log.read_bytes()
    sleep_cycle(ws, provider="offline", now=NOW)
    assert old_log.read_bytes() == before


def test_rem_lands_where_the_next_session_sees_it(ws: Path) -> None:
    old = micro_rest(
        "User likes dark mode",
        "O",
        workspace=ws,
        confidence=0.7,
        when=dt.datetime.combine(TODAY, dt.time(8, 0)),
    )
    sleep_cycle(ws, "nrem", "offline", now=NOW)
    entry = next(n for n in notes.notes_in((ws / "MEMORY.md").read_text()) if n.id)
    assert entry.confidence == 0.7 and old in entry.meta["sources"]
    new = micro_rest("User likes dark mode in the terminal too", "B", workspace=ws, when=NOW)
    rem = {
        "aha_moments": [
            {"text": "Dark mode is a consistent preference", "sources": [new, entry.id]}
        ],
        "creative_connections": [
            {"link": "terminal ↔ editor", "why": "same preference", "sources": [new, entry.id]}
        ],
        "confidence_updates": [
            {"item": entry.id, "old_c": 0.7, "new_c": 0.8, "reason": "reinforced", "sources": [new]}
        ],
        "new_bank_suggestions": [
            {
                "slug": "User Interface!",
                "kind": "concept",
                "seed_content": "Dark mode everywhere.",
                "sources": [new],
            }
        ],
        "next_session_actions": [{"text": "Offer the dark theme by default", "sources": [new]}],
    }
    q = QueueProvider().enqueue(rem)
    r = sleep_cycle(ws, "rem", q, now=NOW)
    assert r.decisions["confidence_updates"] == 1
    memory = (ws / "MEMORY.md").read_text()
    assert "O(c=0.8): User likes dark mode" in memory
    log = ws / "memory" / f"{TODAY.isoformat()}.md"
    doc = notes.parse(log.read_text())
    assert [n.text for n in doc.notes("Dreams")] == [
        "terminal ↔ editor — same preference",
        "Dark mode is a consistent preference",
    ]
    actions = doc.notes("Next session")
    assert [n.text for n in actions] == ["Offer the dark theme by default"] and actions[
        0
    ].type == "S"
    assert actions[0].meta["sources"] == new
    assert "Dark mode everywhere." in (ws / "bank/concepts/user-interface.md").read_text()
    assert q.history[0]["payload"]["task"] == "rem"
    # the same REM output again: nothing new (evidence recorded, texts deduplicated)
    before = _snapshot(ws)
    sleep_cycle(ws, "rem", QueueProvider().enqueue(rem), now=NOW)
    assert _snapshot(ws) == before


def test_offline_rem_shifts_confidence_from_new_notes(ws: Path) -> None:
    micro_rest(
        "User prefers TypeScript for new services", "O", workspace=ws, confidence=0.7, when=NOW
    )
    sleep_cycle(ws, "nrem", "offline", now=NOW)
    micro_rest("User prefers TypeScript for the new billing services", "B", workspace=ws, when=NOW)
    sleep_cycle(ws, "both", "offline", now=NOW)
    entry = next(
        n for n in notes.notes_in((ws / "MEMORY.md").read_text()) if "TypeScript" in n.text
    )
    assert entry.confidence is not None and entry.confidence > 0.7


def test_prompt_payload_has_resolved_dates_and_tiers(ws: Path) -> None:
    ids = _fill(ws, DAY[:3])
    q = QueueProvider().enqueue(
        {
            "memory_md_updates": [],
            "bank_updates": [],
            "pruned_count": 3,
            "weakly_learned": [],
            "open_questions": [],
        }
    )
    sleep_cycle(ws, "nrem", q, now=NOW)
    sent = q.history[0]
    assert "You MUST preserve verbatim" in sent["system"] and "No invention" in sent["system"]
    got = {n["id"]: n for n in sent["payload"]["notes"]}
    assert set(got) == set(ids)
    assert all(n["tier"] in ("keep", "condense", "prune") for n in got.values())
    assert "yesterday (" in got[ids[2]]["text"]


def test_since_takes_the_backlog(ws: Path) -> None:
    old_day = TODAY - dt.timedelta(days=90)
    _fill(ws, DAY[:2], day=old_day)
    assert sleep_cycle(ws, provider="offline", now=NOW).notes_in == 0
    assert sleep_cycle(ws, provider="offline", since=old_day.isoformat(), now=NOW).notes_in == 2


def _json(p: subprocess.CompletedProcess[str]) -> Any:
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_cli_sleep_status_rollback(ws: Path) -> None:
    _fill(ws, DAY[:4])
    r = _json(run_cli("sleep", *AT, "--provider", "offline", "-w", str(ws), "--json"))
    assert r["notes_in"] == 4 and "MEMORY.md" in r["files_changed"]
    s = _json(run_cli("status", *ON, "-w", str(ws), "--json"))
    assert s["pending_notes"] == 0 and s["recent_runs"][-1]["run_id"] == r["run_id"]
    assert s["memory_budget"] == 8000 and s["memory_entries"] >= 1
    p = run_cli("rollback", r["run_id"], "-w", str(ws))
    assert p.returncode == 0 and "Rolled back" in p.stdout
    assert _json(run_cli("status", *ON, "-w", str(ws), "--json"))["pending_notes"] == 4
    bad = run_cli("sleep", *AT, "--since", "yesterday", "-w", str(ws))
    assert bad.returncode == 2 and bad.stderr.startswith("Error: --since")


def test_literal_skill_script(ws: Path) -> None:
    # the literal skill command runs as of the clock: notes of the real today (a midnight in
    # between leaves them inside the look-back window)
    _fill(ws, DAY[:2], day=dt.date.today())
    p = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "sleep_cycle.py"),
            "--workspace",
            str(ws),
            "--phase",
            "both",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    assert "Redis default port is 6379" in (ws / "MEMORY.md").read_text()
    assert "NREM: 2 notes with offline" in p.stderr
