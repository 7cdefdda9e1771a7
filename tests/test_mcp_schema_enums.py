"""The tools' schemas name the values a client should send: a note's type (W, B, O, S) and a
sleep's phase (nrem, rem, both) were plain strings, so a client had to guess them from the
descriptions. The tools still read lower case, as the CLI does."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from agent_sleep.core.workspace import Workspace
from agent_sleep.integrations.mcp_server import build_server


def _schemas(tmp_path: Path) -> dict[str, dict[str, Any]]:
    server = build_server(Workspace.at(tmp_path))
    return {t.name: t.input_schema for t in asyncio.run(server.list_tools())}


def test_type_and_phase_are_enums(tmp_path: Path) -> None:
    schemas = _schemas(tmp_path)
    kind = schemas["memory_write"]["properties"]["type"]
    assert kind["enum"] == ["W", "B", "O", "S"] and kind["default"] == "B"
    phase = schemas["memory_sleep"]["properties"]["phase"]
    assert phase["enum"] == ["nrem", "rem", "both"] and phase["default"] == "both"


def test_lower_case_type_is_still_read(tmp_path: Path) -> None:
    server = build_server(Workspace.at(tmp_path))
    asyncio.run(server.call_tool("memory_write", {"note": "User prefers green tea", "type": "o"}))
    log = next((tmp_path / "memory").glob("*.md")).read_text()
    assert "O(c=" in log and "User prefers green tea" in log


def test_an_unknown_argument_is_refused_in_one_line(tmp_path: Path) -> None:
    """The SDK dropped arguments a tool does not take: a misspelt "querry" searched for
    nothing, and "bogus" passed unnoticed."""
    import pytest
    from mcp.server.mcpserver.exceptions import ToolError

    server = build_server(Workspace.at(tmp_path))
    with pytest.raises(ToolError, match=r"unknown argument 'querry' \(this tool takes query, k"):
        asyncio.run(server.call_tool("memory_search", {"querry": "tea"}))
    with pytest.raises(ToolError, match="takes no arguments"):
        asyncio.run(server.call_tool("memory_status", {"x": 1}))
    assert not (tmp_path / "memory").exists()  # nothing written by a refused call
    asyncio.run(server.call_tool("memory_write", {"text": "User likes tea"}))  # an alias is known
    assert (tmp_path / "memory").is_dir()
