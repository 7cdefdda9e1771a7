"""A sleep run that fails leaves one journal line, and ``status`` shows it.

Before, a run that stopped on a provider error (a server down, a reply that stayed invalid, a
timeout) left no trace in the journal: ``status`` listed the last run that worked, and a
user whose nightly sleep had failed for a week saw nothing wrong. Now the run's journal line
says ``sleep-failed`` with the reason (redacted), the stage it stopped in, the notes it read
and the tokens it spent; nothing else is written and its notes stay pending.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.consolidation.status import render, status
from tests.fake_messages_api import FakeMessagesAPI
from tests.fake_openai_api import FakeOpenAIAPI, Reply, honest_reply
from tests.test_hostile_support import AT, NOW, TODAY, api_env, cli, tree


def _journal(ws: Path) -> list[dict[str, Any]]:
    path = ws / ".agent-sleep" / "journal.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _noted(ws: Path) -> None:
    micro_rest("The staging database runs Postgres 16.", "W", workspace=ws, when=NOW)
    micro_rest("Priya owns the billing migration.", "W", workspace=ws, when=NOW)


@pytest.fixture
def api(openai_stand_in: FakeOpenAIAPI) -> FakeOpenAIAPI:
    return openai_stand_in


def test_a_provider_error_is_journaled_and_nothing_else_changes(
    ws: Path, api: FakeOpenAIAPI
) -> None:
    _noted(ws)
    before = tree(ws, skip_state=True)
    pending = status(ws, today=TODAY)["pending_notes"]
    api.responder = lambda rec: Reply(status=503, error="upstream key sk-ant-api03-" + "x" * 40)
    with pytest.raises(Exception, match="503|overloaded|upstream|unavailable"):
        sleep_cycle(ws, provider="openai", now=NOW)
    assert tree(ws, skip_state=True) == before  # nothing written
    line = _journal(ws)[-1]
    assert line["event"] == "sleep-failed", line
    assert line["provider"] == "openai" and line["phase"] == "both"
    assert line["stage"] == "nrem" and line["notes_in"] == 2
    assert line["tokens"]["batches"] == 0
    assert line["error"] and "x" * 40 not in json.dumps(line)  # the reason, redacted
    s = status(ws, today=TODAY)
    assert s["pending_notes"] == pending == 2  # its notes wait for the next run
    failed = [r for r in s["recent_runs"] if r.get("failed")]
    assert len(failed) == 1 and failed[0]["run_id"] is None and failed[0]["notes_in"] == 2
    assert "failed" in render(s) and failed[0]["failed"] in render(s)

    # the next run that works is journaled as a run, after the failure
    api.responder = honest_reply
    r = sleep_cycle(ws, provider="openai", now=NOW)
    assert r.run_id and _journal(ws)[-1]["event"] == "sleep"
    recent = status(ws, today=TODAY)["recent_runs"]
    assert [bool(x.get("failed")) for x in recent] == [True, False]


def test_a_reply_that_stays_invalid_is_journaled_with_what_it_cost(
    ws: Path, api: FakeOpenAIAPI
) -> None:
    _noted(ws)
    api.responder = lambda rec: Reply(content="I think these notes are about databases.")
    with pytest.raises(Exception, match="JSON|json|invalid"):
        sleep_cycle(ws, provider="openai", now=NOW)
    line = _journal(ws)[-1]
    assert line["event"] == "sleep-failed" and line["stage"] == "nrem"
    assert line["tokens"]["calls"] >= 1 and line["tokens"]["input"] > 0  # what was spent


def test_a_dry_run_that_fails_writes_nothing(ws: Path, api: FakeOpenAIAPI) -> None:
    _noted(ws)
    before = tree(ws)
    api.responder = lambda rec: Reply(status=503)
    with pytest.raises(Exception, match="503|overloaded|unavailable"):
        sleep_cycle(ws, provider="openai", now=NOW, dry_run=True)
    assert tree(ws) == before


def test_the_cli_exits_non_zero_and_status_names_the_failure(ws: Path) -> None:
    assert cli("rest", "-w", str(ws), "--note", "Standup moved to 09:30.", *AT).returncode == 0
    with FakeMessagesAPI() as api:  # no reply scripted: every request answers 500
        r = cli("sleep", "-w", str(ws), *AT, env=api_env(api))
    assert r.returncode != 0 and r.stderr.strip(), r
    assert _journal(ws)[-1]["event"] == "sleep-failed"
    s = cli("status", "-w", str(ws), "--json")
    failed = [x for x in json.loads(s.stdout)["recent_runs"] if x.get("failed")]
    assert failed and failed[0]["provider"] == "anthropic"
    assert "failed" in cli("status", "-w", str(ws)).stdout
