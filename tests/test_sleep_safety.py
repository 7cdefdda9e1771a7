"""Safe apply: grounding, confinement, removal cap, budget, rollback, concurrency, dry run."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.consolidation.journal import rollback
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.consolidation.status import status
from agent_sleep.core import notes
from agent_sleep.core.errors import AgentSleepError, BadInput
from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from tests.conftest import run_cli
from tests.fake_messages_api import QueueProvider
from tests.test_hostile_support import AT, NOW, TODAY, nrem_answer


def _note(ws: Path, text: str, kind: str = "B", **kw: Any) -> str:
    when = dt.datetime.combine(TODAY, dt.time(9, 0))
    return micro_rest(text, kind, workspace=ws, when=when, **kw)


_nrem = nrem_answer


def _add(text: str, sources: list[str], kind: str = "W", conf: float = 0.9) -> dict[str, Any]:
    return {
        "action": "add",
        "type": kind,
        "confidence": conf,
        "text": text,
        "replaces": "",
        "sources": sources,
    }


def _entries(ws: Path) -> list[notes.Note]:
    return [n for n in notes.notes_in((ws / "MEMORY.md").read_text()) if n.id]


def _seed_memory(ws: Path, n: int) -> list[str]:
    ids = [
        _note(ws, f"Fact number {i} about the {word} project")
        for i, word in enumerate(
            ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"][:n]
        )
    ]
    q = QueueProvider().enqueue(
        _nrem([_add(f"Fact number {i} holds", [nid]) for i, nid in enumerate(ids)])
    )
    sleep_cycle(ws, "nrem", q, now=NOW)
    return [e.id for e in _entries(ws)]


def test_symlink_escape_is_refused(ws: Path, tmp_path: Path) -> None:
    nid = _note(ws, "Caroline went to a support group")
    outside = tmp_path / "outside"
    outside.mkdir()
    entities = ws / "bank" / "entities"
    entities.rmdir()
    entities.symlink_to(outside, target_is_directory=True)
    bank = [
        {
            "slug": "caroline",
            "kind": "entity",
            "section": "Notes",
            "content": "support group",
            "sources": [nid],
        }
    ]
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem(bank=bank)), now=NOW)
    assert r.dropped["unsafe_path"] == 1
    assert list(outside.iterdir()) == []


def test_memory_md_symlink_out_writes_nothing(ws: Path, tmp_path: Path) -> None:
    nid = _note(ws, "Caroline went to a support group")
    target = tmp_path / "elsewhere.md"
    target.write_text("# not yours\n")
    (ws / "MEMORY.md").unlink()
    (ws / "MEMORY.md").symlink_to(target)
    with pytest.raises(BadInput, match="outside the workspace"):
        sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem([_add("A fact", [nid])])), now=NOW)
    assert target.read_text() == "# not yours\n"


def test_removal_cap_and_prune_flag(ws: Path) -> None:
    ids = _seed_memory(ws, 8)
    assert len(ids) == 8
    extra = _note(ws, "The alpha to theta facts are mostly redundant")
    removes = [
        {
            "action": "remove",
            "type": "W",
            "confidence": 0,
            "text": "",
            "replaces": i,
            "sources": [extra],
        }
        for i in ids[:5]
    ]
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem(removes)), now=NOW)
    assert r.decisions["memory_remove"] == 2 and r.dropped["removal_cap"] == 3
    assert len(_entries(ws)) == 6
    archive = (ws / "bank/concepts/memory-archive.md").read_text()
    assert "Fact number 0 holds" in archive and "Fact number 1 holds" in archive
    line = json.loads((ws / ".agent-sleep/journal.jsonl").read_text().splitlines()[-1])
    assert {s["old_id"] for s in line["superseded"]} == set(ids[:2])
    assert all(s["sources"] == [extra] for s in line["superseded"])

    extra2 = _note(ws, "Even more redundancy found in the remaining facts")
    removes = [
        {
            "action": "remove",
            "type": "W",
            "confidence": 0,
            "text": "",
            "replaces": e.id,
            "sources": [extra2],
        }
        for e in _entries(ws)[:5]
    ]
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem(removes)), prune_memory=True, now=NOW)
    assert r.decisions["memory_remove"] == 5 and len(_entries(ws)) == 1


def test_budget_moves_lowest_value_entries_to_the_bank(ws: Path) -> None:
    ids = [_note(ws, f"Project {w} uses Postgres version {i}") for i, w in enumerate("abcdefghij")]
    updates = [
        _add(f"Project {w} uses Postgres version {i}", [nid])
        for i, (w, nid) in enumerate(zip("abcdefghij", ids, strict=True))
    ]
    r = sleep_cycle(
        ws, "nrem", QueueProvider().enqueue(_nrem(updates)), memory_budget_chars=700, now=NOW
    )
    text = (ws / "MEMORY.md").read_text()
    assert len(text) <= 700
    assert r.decisions["memory_evicted"] >= 1
    assert r.decisions["memory_add"] == 10
    archive = (ws / "bank/concepts/memory-archive.md").read_text()
    kept = {n.text for n in _entries(ws)}
    moved = {n.text for n in notes.notes_in(archive)}
    assert kept | moved == {
        f"Project {w} uses Postgres version {i}" for i, w in enumerate("abcdefghij")
    }
    assert not kept & moved


def test_oversized_and_ungrounded_are_dropped_and_counted(ws: Path) -> None:
    nid = _note(ws, "Short fact")
    updates = [_add("x" * 5000, [nid]), _add("Made up", ["notanid000"]), _add("No sources", [])]
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem(updates)), now=NOW)
    assert r.dropped == {"oversized": 1, "ungrounded": 2}
    assert _entries(ws) == []


def test_model_text_is_redacted(ws: Path) -> None:
    nid = _note(ws, "Rotated the deploy key")
    secret = "sk-ant-api03-" + "A" * 40
    sleep_cycle(
        ws,
        "nrem",
        QueueProvider().enqueue(_nrem([_add(f"The new key is {secret}", [nid])])),
        now=NOW,
    )
    text = (ws / "MEMORY.md").read_text()
    assert secret not in text and "[REDACTED:anthropic-key]" in text
    assert secret not in (ws / ".agent-sleep/journal.jsonl").read_text()


def test_rollback_restores_bytes_and_keeps_later_notes(ws: Path) -> None:
    Workspace.at(ws).ensure()
    odd = b"# MEMORY\r\n\r\nhand-written \xff\xfe line\r\n- W: kept <!-- id=aaaaaaaaaa -->\r\n"
    (ws / "MEMORY.md").write_bytes(odd)
    nid = _note(ws, "Caroline moved to Boston")
    rem = {
        "aha_moments": [{"text": "Boston keeps coming up", "sources": [nid]}],
        "creative_connections": [],
        "confidence_updates": [],
        "new_bank_suggestions": [
            {"slug": "boston", "kind": "entity", "seed_content": "A city.", "sources": [nid]}
        ],
        "next_session_actions": [{"text": "Ask about the move", "sources": [nid]}],
    }
    q = QueueProvider().enqueue(_nrem([_add("Caroline moved to Boston", [nid])])).enqueue(rem)
    log = ws / "memory" / f"{TODAY.isoformat()}.md"
    log_before = log.read_bytes()
    r = sleep_cycle(ws, "both", q, now=NOW)
    assert (ws / "bank/entities/boston.md").exists()
    assert "## Dreams" in log.read_text() and "## Next session" in log.read_text()
    later = _note(ws, "A note written after the run")
    rolled = rollback(ws)
    assert rolled["run_id"] == r.run_id
    assert (ws / "MEMORY.md").read_bytes() == odd
    assert not (ws / "bank/entities/boston.md").exists()
    text = log.read_text()
    assert "## Dreams" not in text and later in text
    assert text.startswith(log_before.decode())
    # the run's note is pending again, plus the later one
    assert status(ws, today=TODAY)["pending_notes"] == 2
    with pytest.raises(BadInput, match="no sleep run"):
        rollback(ws)


def test_rollback_refuses_when_changed_after(ws: Path) -> None:
    nid = _note(ws, "Caroline moved to Boston")
    sleep_cycle(
        ws,
        "nrem",
        QueueProvider().enqueue(_nrem([_add("Caroline moved to Boston", [nid])])),
        now=NOW,
    )
    with open(ws / "MEMORY.md", "a") as f:
        f.write("- W: hand edit <!-- id=bbbbbbbbbb -->\n")
    with pytest.raises(AgentSleepError, match="changed after run"):
        rollback(ws)
    rollback(ws, force=True)
    assert "Caroline" not in (ws / "MEMORY.md").read_text()


def test_dry_run_prints_diff_and_writes_nothing(ws: Path) -> None:
    nid = _note(ws, "Caroline moved to Boston")
    before = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}
    r = sleep_cycle(
        ws,
        "nrem",
        QueueProvider().enqueue(_nrem([_add("Caroline moved to Boston", [nid])])),
        dry_run=True,
        now=NOW,
    )
    assert "+- W: Caroline moved to Boston" in r.diff and r.run_id is None
    after = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}
    assert before == after


def test_notes_appended_during_the_model_call_are_kept(ws: Path) -> None:
    first = _note(ws, "Caroline moved to Boston")

    def another_process_writes() -> None:
        # A real process: it needs the workspace lock, so this also proves the lock is free.
        r = run_cli("rest", *AT, "--note", "Melanie joined mid-run", "-w", str(ws))
        assert r.returncode == 0, r.stderr

    q = QueueProvider(during_call=another_process_writes)
    q.enqueue(_nrem([_add("Caroline moved to Boston", [first])]))
    r = sleep_cycle(ws, "nrem", q, now=NOW)
    assert r.notes_in == 1
    log = (ws / "memory" / f"{TODAY.isoformat()}.md").read_text()
    assert "Melanie joined mid-run" in log
    assert status(ws, today=TODAY)["pending_notes"] == 1
    second = sleep_cycle(ws, "nrem", "offline", now=NOW)
    assert second.notes_in == 1


def test_stale_reference_when_entry_vanished(ws: Path) -> None:
    ids = _seed_memory(ws, 1)
    nid = _note(ws, "New info")
    upd = {
        "action": "update",
        "type": "W",
        "confidence": 0.9,
        "text": "Fact updated",
        "replaces": ids[0],
        "sources": [nid],
    }

    def hand_edit() -> None:
        Workspace.at(ws).write_text(ws / "MEMORY.md", "# MEMORY\n")

    r = sleep_cycle(ws, "nrem", QueueProvider(during_call=hand_edit).enqueue(_nrem([upd])), now=NOW)
    assert r.dropped == {"stale_reference": 1}
    assert (ws / "MEMORY.md").read_text() == "# MEMORY\n"


def test_two_concurrent_sleeps_do_not_duplicate(ws: Path) -> None:
    _note(ws, "Redis default port is 6379", "W")
    _note(ws, "Caroline moved to Boston in May 2023")

    def another_sleep() -> None:
        r = run_cli("sleep", *AT, "--phase", "nrem", "--provider", "offline", "-w", str(ws))
        assert r.returncode == 0, r.stderr

    q = QueueProvider(during_call=another_sleep)
    q.enqueue(json.loads(json.dumps(_offline_answer(ws))))
    r = sleep_cycle(ws, "nrem", q, now=NOW)
    assert r.dropped.get("already_consolidated", 0) >= 1
    texts = [n.text for n in _entries(ws)]
    assert len(texts) == len(set(texts))
    bank = [n.text for p in (ws / "bank").rglob("*.md") for n in notes.notes_in(p.read_text())]
    assert len(bank) == len(set(bank))


def _offline_answer(ws: Path) -> dict[str, Any]:
    """What the offline consolidator would answer for the pending notes right now."""
    probe = QueueProvider()
    probe.enqueue(_nrem())
    sleep_cycle(ws, "nrem", probe, dry_run=True, now=NOW)
    from agent_sleep.providers import offline

    return offline.nrem(probe.history[0]["payload"])
