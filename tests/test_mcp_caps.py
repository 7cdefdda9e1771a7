"""An MCP client's budget is capped as its ``k`` is: ``budget_tokens`` of a billion would have
packed every unit of a large workspace into one answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent_sleep import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.integrations import mcp_server
from agent_sleep.integrations.mcp_server import MAX_BUDGET_TOKENS, MAX_GET_CHARS, MemoryTools


@pytest.fixture
def tools(tmp_path: Path) -> MemoryTools:
    micro_rest("User prefers green tea", "O", workspace=tmp_path)
    return MemoryTools(Workspace.at(tmp_path))


def test_search_budget_is_capped(tools: MemoryTools, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def fake(ws: Any, query: str, k: Any = None, budget_tokens: Any = None, **_: Any) -> list:
        seen.update(k=k, budget=budget_tokens)
        return []

    monkeypatch.setattr("agent_sleep.retrieval.recall.recall", fake)
    tools.memory_search(query="tea", budget_tokens=10**9)
    assert seen == {"k": None, "budget": MAX_BUDGET_TOKENS}
    tools.memory_search(query="tea", budget_tokens=800)
    assert seen["budget"] == 800


def test_context_budget_and_memory_chars_are_capped(
    tools: MemoryTools, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, Any] = {}

    def fake(ws: Any, **kwargs: Any) -> str:
        seen.update(kwargs)
        return "ctx"

    monkeypatch.setattr("agent_sleep.retrieval.context.get_context", fake)
    tools.memory_context(query="tea", budget_tokens=10**9, max_memory_chars=10**12)
    assert seen["budget_tokens"] == MAX_BUDGET_TOKENS
    assert seen["max_memory_chars"] == MAX_GET_CHARS


def test_the_caps_are_in_the_tool_descriptions() -> None:
    assert f"at most {MAX_BUDGET_TOKENS}" in mcp_server.DESCRIPTIONS["memory_search"]
    assert f"at most {MAX_BUDGET_TOKENS}" in mcp_server.DESCRIPTIONS["memory_context"]
