"""``get_context`` takes a token budget of 1 or more, as ``agent-sleep context --budget-tokens``
and the MCP ``memory_context`` tool do: a budget of 0 is refused, not answered "nothing found"."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import BadInput, get_context, micro_rest
from tests.conftest import run_cli

NOW = dt.datetime(2026, 3, 10, 16, 30)


@pytest.mark.parametrize("budget", [0, -1])
def test_get_context_refuses_a_budget_under_one_token(ws: Path, budget: int) -> None:
    micro_rest("Redis listens on 6379", "W", workspace=ws, when=NOW - dt.timedelta(days=5))
    with pytest.raises(BadInput, match=rf"^budget_tokens must be at least 1, not {budget}$"):
        get_context(ws, query="Redis port", budget_tokens=budget, today=NOW.date())


def test_get_context_takes_a_budget_of_one_token_and_more(ws: Path) -> None:
    micro_rest("Redis listens on 6379", "W", workspace=ws, when=NOW - dt.timedelta(days=5))
    tight = get_context(ws, query="Redis port", budget_tokens=1, today=NOW.date())
    assert "do not fit in budget_tokens=1" in tight
    roomy = get_context(ws, query="Redis port", budget_tokens=800, today=NOW.date())
    assert "Redis listens on 6379" in roomy


def test_the_cli_refuses_the_same_budgets(ws: Path) -> None:
    r = run_cli("context", "--query", "Redis", "--budget-tokens", "0", "-w", str(ws))
    assert r.returncode == 2 and "--budget-tokens" in r.stderr


@pytest.mark.parametrize("budget", [0, -1])
def test_recall_refuses_the_same_budgets(ws: Path, budget: int) -> None:
    from agent_sleep import recall

    micro_rest("Redis listens on 6379", "W", workspace=ws, when=NOW - dt.timedelta(days=5))
    with pytest.raises(BadInput, match=rf"^budget_tokens must be at least 1, not {budget}$"):
        recall(ws, "Redis port", budget_tokens=budget)
    assert recall(ws, "Redis port", k=0) == []  # no hits asked for: none given
