"""The public Python API refuses an argument of the wrong type with one ``BadInput`` line that
names the parameter and what was given (not an AttributeError or TypeError from deep inside),
before anything is written; the right types still work."""

from __future__ import annotations

import datetime as dt
import importlib.util
from pathlib import Path

import pytest

import agent_sleep
from agent_sleep import (
    BadInput,
    Workspace,
    flush,
    get_context,
    micro_rest,
    recall,
    redact,
    rollback,
    should_flush,
    sleep_cycle,
)

NOW = dt.datetime(2026, 3, 10, 16, 30)
TODAY = NOW.date()
DUMP = "User: We decided to move the billing service to Postgres; Alice owns the release calendar."

API = {
    f.__name__: f
    for f in (flush, get_context, micro_rest, recall, redact, rollback, should_flush, sleep_cycle)
} | {"DUMP": DUMP, "NOW": NOW, "TODAY": TODAY}

# each call (run with ``ws``, a workspace path not yet created) and the words its refusal says
BAD: list[tuple[str, ...]] = [
    # sleep_cycle
    ("sleep_cycle(ws, now='2026-01-01')", "now", "str", "fromisoformat"),
    ("sleep_cycle(ws, now=TODAY)", "now", "date", "datetime.datetime"),
    ("sleep_cycle(3)", "workspace", "int"),
    ("sleep_cycle(ws, dry_run='no')", "dry_run", "str"),
    ("sleep_cycle(ws, prune_memory=1)", "prune_memory", "int"),
    ("sleep_cycle(ws, memory_budget_chars='8000')", "memory_budget", "str"),
    ("sleep_cycle(ws, memory_budget_chars=True)", "memory_budget", "bool"),
    ("sleep_cycle(ws, progress='print')", "progress", "str"),
    ("sleep_cycle(ws, provider=5)", "provider", "int"),
    ("sleep_cycle(ws, model=5)", "model", "int"),
    # flush
    ("flush(DUMP, workspace=ws, now='2026')", "now", "str"),
    ("flush(DUMP, workspace=ws, now=TODAY)", "now", "date"),
    ("flush(b'User: hello there', workspace=ws)", "text", "bytes"),
    ("flush(None, workspace=ws)", "text", "None"),
    ("flush(DUMP, workspace=5)", "workspace", "int"),
    ("flush(DUMP, workspace=ws, provider=3)", "provider", "int"),
    ("flush(DUMP, workspace=ws, model=3)", "model", "int"),
    # get_context
    ("get_context(ws, query=5)", "query", "int"),
    ("get_context(ws, today='2026-01-01')", "today", "str"),
    ("get_context(ws, today=NOW)", "today", "datetime", ".date()"),
    ("get_context(ws, budget_tokens=-1)", "budget_tokens", "-1"),
    ("get_context(ws, budget_tokens=True)", "budget_tokens", "bool"),
    ("get_context(ws, max_memory_chars='3000')", "max_memory_chars", "str"),
    ("get_context(ws, max_memory_chars=-5)", "max_memory_chars", "-5"),
    ("get_context(ws, load_yesterday='no')", "load_yesterday", "str"),
    ("get_context(workspace=b'/tmp/ws')", "workspace", "bytes"),
    ("get_context(workspace=5)", "workspace", "int"),
    # recall
    ("recall(ws, None)", "query", "None"),
    ("recall(ws, 42)", "query", "int"),
    ("recall(ws, 'deploy', k=True)", "k", "bool"),
    ("recall(ws, 'deploy', k=-1)", "k", "-1"),
    ("recall(ws, 'deploy', k='3')", "k", "str"),
    ("recall(ws, 'deploy', budget_tokens=1.5)", "budget_tokens", "float"),
    ("recall(ws, 'deploy', today='2026-01-01')", "today", "str"),
    ("recall(ws, 'deploy', fusion='rrf')", "fusion", "str"),
    ("recall(ws, 'deploy', agent=5)", "agent", "int"),
    ("recall(5, 'deploy')", "workspace", "int"),
    # micro_rest
    ("micro_rest('a note', workspace=5)", "workspace", "int"),
    ("micro_rest('a note', 'O', workspace=ws, confidence=True)", "confidence", "bool"),
    ("micro_rest('a note', 'O', workspace=ws, confidence='0.9')", "confidence", "str"),
    ("micro_rest(b'a note', workspace=ws)", "note", "bytes"),
    ("micro_rest('a note', 5, workspace=ws)", "type", "int"),
    ("micro_rest('a note', workspace=ws, source=5)", "source", "int"),
    ("micro_rest('a note', workspace=ws, agent=5)", "agent", "int"),
    # should_flush
    ("should_flush('100', 200)", "tokens", "str"),
    ("should_flush(True, 200)", "tokens", "bool"),
    ("should_flush(100, 200.5)", "context_window", "float"),
    ("should_flush(100, 200, reserve='5')", "reserve", "str"),
    # rollback
    ("rollback(ws, 5)", "run_id", "int"),
    ("rollback(ws, force='yes')", "force", "str"),
    ("rollback(ws, merge='theirs')", "merge", "str"),
    ("rollback(5)", "workspace", "int"),
    # redact
    ("redact(None)", "text", "None"),
    ("redact(b'sk-ant-secret')", "text", "bytes"),
]


@pytest.mark.parametrize("case", BAD, ids=[case[0] for case in BAD])
def test_a_wrong_argument_is_one_bad_input_line_naming_it(ws: Path, case: tuple[str, ...]) -> None:
    call, *words = case
    with pytest.raises(BadInput) as caught:
        eval(call, {**API, "ws": ws})
    message = str(caught.value)
    assert "\n" not in message
    for word in words:
        assert word in message
    assert not ws.exists()  # refused before anything is created


def test_the_memory_tool_refuses_a_workspace_of_the_wrong_type() -> None:
    if importlib.util.find_spec("anthropic") is None:
        pytest.skip("anthropic is not installed")
    with pytest.raises(BadInput, match="workspace must be .*, not int"):
        agent_sleep.MemoryTool(workspace=5)


def test_the_right_types_still_work(ws: Path) -> None:
    folder = Workspace.at(ws)
    assert folder.root == ws.absolute()
    assert Workspace.at(folder) is folder
    micro_rest("Redis default port is 6379", "W", workspace=ws, when=NOW, source="msg-1")
    micro_rest("User prefers short replies", "O", workspace=ws, confidence=1, when=NOW)
    micro_rest("User likes tea", "O", workspace=str(ws), confidence=0.9, when=NOW, agent="bot")
    assert flush(DUMP, workspace=ws, provider="offline", now=NOW).written
    assert recall(ws, "Redis port", k=3, budget_tokens=800, today=TODAY)
    assert recall(folder, "", k=0) == []
    assert "Redis" in get_context(ws, 3000, True, "Redis port", 800, today=TODAY)
    assert get_context(str(ws), query="", budget_tokens=1, today=TODAY)
    assert should_flush(150_000, 200_000, reserve=40_000, soft_threshold=5_000) is False
    assert redact("plain prose") == "plain prose"
    r = sleep_cycle(ws, "both", "offline", dry_run=False, memory_budget_chars=8000, now=NOW)
    assert r.run_id
    assert rollback(ws, r.run_id, force=False)["files_restored"]
