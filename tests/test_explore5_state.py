"""status, sleep and rollback over a damaged state folder (.agent-sleep/): its files are derived,
so a damaged line or file is passed over, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from tests.conftest import run_cli


def slept(ws: Path) -> str:
    micro_rest("The billing service retries webhooks 5 times", "W", workspace=ws)
    run_id = sleep_cycle(ws, phase="both", provider="offline").run_id
    assert run_id
    return run_id


def test_journal_lines_that_are_not_objects_are_passed_over(ws: Path) -> None:
    run_id = slept(ws)
    journal = ws / ".agent-sleep" / "journal.jsonl"
    with journal.open("a") as f:
        f.write('[1, 2]\n42\n"text"\n{"event": "sleep", "run_id": 5, "phase": 3}\n')
        f.write('{"event": "sleep", "files_changed": 7}\n')
    r = run_cli("status", "--workspace", str(ws))
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert run_id in r.stdout
    r = run_cli("status", "--json", "--workspace", str(ws))
    assert r.returncode == 0 and json.loads(r.stdout)["recent_runs"], r.stderr
    r = run_cli("rollback", "--workspace", str(ws))
    assert r.returncode == 0, r.stderr
    assert run_id in r.stdout


@pytest.mark.parametrize("damaged", ["[1]", '"x"', '{"nrem": 5}', '{"nrem": [1, {"a": 2}]}'])
def test_a_damaged_watermark_is_read_as_empty(ws: Path, damaged: str) -> None:
    slept(ws)
    (ws / ".agent-sleep" / "consolidated.json").write_text(damaged + "\n")
    micro_rest("User prefers small PRs", "O", workspace=ws)
    for args in (("status",), ("sleep", "--phase", "nrem")):
        r = run_cli(*args, "--workspace", str(ws))
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "small PRs" in (ws / "MEMORY.md").read_text()
