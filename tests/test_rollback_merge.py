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
