"""CLI options that take an agent, as a demanding user types them."""

from __future__ import annotations

import json
from pathlib import Path

from agent_sleep import micro_rest
from tests.conftest import run_cli


def test_search_by_an_agent_name_no_note_can_carry_is_refused(ws: Path) -> None:
    micro_rest("Deploy of billing finished", "B", workspace=ws, agent="ci-bot")
    r = run_cli("search", "billing", "--agent", "CI Bot", "--bm25-only", "--workspace", str(ws))
    assert r.returncode == 2 and r.stdout == ""
    assert (
        r.stderr.startswith("Error: agent name 'CI Bot' is not valid") and r.stderr.count("\n") == 1
    )
    r = run_cli(
        "search", "billing", "--agent", "ci-bot", "--bm25-only", "--json", "--workspace", str(ws)
    )
    assert r.returncode == 0, r.stderr
    assert [h["text"] for h in json.loads(r.stdout)] == ["B: Deploy of billing finished"]
