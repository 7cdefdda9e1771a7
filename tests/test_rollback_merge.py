"""A forced rollback of a run whose files changed since (here: a sync merged another machine's
run into them) undoes only that run's entries; the other machine's stay."""

from __future__ import annotations

import json
from pathlib import Path

from agent_sleep.core import notes as fmt
from tests.test_sync_support import bare_remote, cli, first_clone, join


def _entry_texts(ws: Path) -> list[str]:
    return [n.text for n in fmt.notes_in((ws / "MEMORY.md").read_text(encoding="utf-8"))]


def _rest(ws: Path, text: str) -> None:
    r = cli("rest", "--type", "W", "--note", text, "--when", "2026-12-01T09:00", "-w", str(ws))
    assert r.returncode == 0, r.stderr


def _sleep(ws: Path) -> str:
    r = cli("sleep", "--json", "--when", "2026-12-01T18:00", "-w", str(ws))
    assert r.returncode == 0, r.stderr
    run_id: str = json.loads(r.stdout)["run_id"]
    return run_id


def test_a_forced_rollback_after_a_sync_keeps_the_other_machines_entries(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path)
    a = first_clone(tmp_path, remote, "a")
    b = join(tmp_path, remote, "b")
    _rest(a, "Alpha service deploys from the release branch every Tuesday.")
    _rest(b, "Beta deploys need a change ticket approved by the on-call lead.")
    run_a = _sleep(a)
    _sleep(b)
    for ws in (a, b, a):
        assert cli("sync", "-w", str(ws)).returncode == 0
    merged = _entry_texts(a)
    assert any("Alpha" in t for t in merged) and any("Beta" in t for t in merged)

    refused = cli("rollback", run_a, "-w", str(a))
    assert refused.returncode != 0
    assert "sync merge" in refused.stderr and "--force" in refused.stderr

    r = cli("rollback", run_a, "--force", "--json", "-w", str(a))
    assert r.returncode == 0, r.stderr
    left = _entry_texts(a)
    assert not any("Alpha" in t for t in left)  # the run's own entry is undone
    assert any("Beta" in t for t in left)  # the entry the sync merged in is kept
    status = json.loads(cli("status", "--json", "--date", "2026-12-01", "-w", str(a)).stdout)
    assert status["pending_notes"] >= 1  # the run's note is pending again


def _run(ws: Path, text: str, day: str) -> str:
    r = cli("rest", "--type", "W", "--note", text, "--when", f"{day}T09:00", "-w", str(ws))
    assert r.returncode == 0, r.stderr
    r = cli("sleep", "--json", "--prune-memory", "--when", f"{day}T18:00", "-w", str(ws))
    assert r.returncode == 0, r.stderr
    run_id: str = json.loads(r.stdout)["run_id"]
    return run_id


def _three_facts(tmp_path: Path) -> Path:
    """A workspace whose MEMORY.md holds three facts and which has no bank page yet."""
    ws = tmp_path / "ws"
    assert cli("init", "-w", str(ws)).returncode == 0
    for text in ("Bob lives in Berlin", "The CI runs on Jenkins", "Our office is in Lisbon"):
        _rest(ws, text)
    _sleep(ws)
    return ws


def test_a_forced_rollback_of_the_run_that_made_a_page_keeps_the_page_later_runs_wrote(
    tmp_path: Path,
) -> None:
    ws = _three_facts(tmp_path)
    middle = _run(ws, "Bob moved to Munich", "2026-12-02")  # makes the archive page
    _run(ws, "The CI now runs on GitHub Actions", "2026-12-03")  # files Jenkins there too
    archive = ws / "bank" / "concepts" / "memory-archive.md"
    r = cli("rollback", middle, "--force", "-w", str(ws))
    assert r.returncode == 0, r.stderr
    page = fmt.parse(archive.read_text(encoding="utf-8"))
    # the later run's History entry stays, in its section, on a page that keeps its front
    # matter and title; the undone run's entry is gone
    assert [(b.section, b.note.text) for b in page.blocks if b.note is not None] == [
        ("History", "The CI runs on Jenkins")
    ]
    text = archive.read_text(encoding="utf-8")
    assert text.startswith("---\n") and "\n# Memory Archive\n" in text
    assert "Bob moved to Munich" not in " ".join(_entry_texts(ws))
    assert "Bob lives in Berlin" in _entry_texts(ws)


def test_a_forced_rollback_removes_a_page_the_run_made_when_nothing_else_is_on_it(
    tmp_path: Path,
) -> None:
    ws = _three_facts(tmp_path)
    middle = _run(ws, "Bob moved to Munich", "2026-12-02")
    _run(ws, "Deploys happen on Fridays", "2026-12-03")  # changes MEMORY.md, not the page
    r = cli("rollback", middle, "--force", "-w", str(ws))
    assert r.returncode == 0, r.stderr
    assert not (ws / "bank" / "concepts" / "memory-archive.md").exists()
