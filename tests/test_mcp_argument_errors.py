"""The MCP server's answers to arguments of the wrong type, and to reading past a file's end.

A real server process, driven by the SDK's own stdio client (as ``tests/test_mcp.py`` does). An
argument of the wrong type is refused in one line naming it and what it must be (not pydantic's
several lines with a link); a boolean takes true or false only (pydantic alone reads "yes",
"false" or 1 as one, so ``dry_run="false"`` would have run a real sleep); a number takes no
boolean; ``memory_get`` from a line past the end is refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.test_mcp import data, session, tree
from tests.test_mcp_hardening import no_crash_logged, refusal

WRONG_TYPES: list[tuple[str, dict[str, Any], str]] = [
    ("memory_write", {"note": 123}, "note must be a string, not the number 123"),
    ("memory_write", {"note": ["a", "b"]}, "note must be a string, not a list"),
    ("memory_write", {"note": {"a": 1}}, "note must be a string, not an object"),
    ("memory_write", {"text": True}, "text must be a string, not true"),
    (
        "memory_write",
        {"note": "x", "type": "O", "confidence": "high"},
        'confidence must be a number, not the string "high"',
    ),
    ("memory_write", {"note": "x", "confidence": True}, "confidence must be a number, not true"),
    ("memory_search", {"query": "tea", "k": "abc"}, 'k must be an integer, not the string "abc"'),
    ("memory_search", {"query": "tea", "k": 2.5}, "k must be an integer, not the number 2.5"),
    ("memory_search", {"query": "tea", "limit": False}, "limit must be an integer, not false"),
    (
        "memory_search",
        {"query": "tea", "budget_tokens": "x" * 100},
        'budget_tokens must be an integer, not the string "' + "x" * 40 + '" … (100 characters)',
    ),
    ("memory_get", {"path": "MEMORY.md", "start_line": True}, "start_line must be an integer"),
    ("memory_get", {"path": 7}, "path must be a string, not the number 7"),
    (
        "memory_context",
        {"max_memory_chars": "big"},
        'max_memory_chars must be an integer, not the string "big"',
    ),
    ("memory_flush", {"context_dump": 5}, "context_dump must be a string, not the number 5"),
    ("memory_sleep", {"phase": 5}, "phase must be a string, not the number 5"),
    ("memory_sleep", {"dry_run": "yes"}, 'dry_run must be true or false, not the string "yes"'),
    ("memory_sleep", {"dry_run": "true"}, 'dry_run must be true or false, not the string "true"'),
    ("memory_sleep", {"dry_run": "false"}, "dry_run must be true or false"),
    ("memory_sleep", {"dry_run": 1}, "dry_run must be true or false, not the number 1"),
    ("memory_sleep", {"dry_run": 0}, "dry_run must be true or false, not the number 0"),
]


def test_a_wrong_type_is_refused_in_one_line_naming_the_argument(ws: Path, tmp_path: Path) -> None:
    errlog = tmp_path / "server.err"

    async def main() -> None:
        async with session(ws, errlog=errlog) as s:
            data(await s.call_tool("memory_write", {"note": "User prefers green tea", "type": "O"}))
            before = tree(ws)
            for name, args, expected in WRONG_TYPES:
                r = await s.call_tool(name, args)
                message = refusal(r)
                assert expected in message, (name, args, r.content[0].text)
                text = r.content[0].text
                assert text.startswith(f"Error executing tool {name}: "), text
                for raw in ("validation error", "pydantic", "http", "[type=", "Arguments"):
                    assert raw not in text, (name, args, text)
            assert tree(ws) == before  # nothing written, no sleep run
            assert not (ws / ".agent-sleep" / "runs").exists()
            # two wrong arguments: both named, still one line
            r = await s.call_tool("memory_search", {"query": 3, "k": "many"})
            message = refusal(r)
            assert "query must be a string" in message and "k must be an integer" in message
            # the server keeps serving, and right types still work
            assert data(await s.call_tool("memory_search", {"query": "tea", "k": 1}))["hits"]
            dry = data(await s.call_tool("memory_sleep", {"dry_run": True}))
            assert dry["dry_run"] is True and dry["run_id"] is None
            assert tree(ws) == before
            # the published schema still says what each argument is
            tools = {t.name: t.input_schema for t in (await s.list_tools()).tools}
            assert tools["memory_sleep"]["properties"]["dry_run"]["type"] == "boolean"
            assert {"type": "integer"} in tools["memory_search"]["properties"]["k"]["anyOf"]

    anyio.run(main)
    no_crash_logged(errlog)


@pytest.mark.parametrize(
    ("start", "end", "wanted"),
    [
        (1_000_000_000, None, "start_line 1000000000 is past the end of notes.md (3 lines)"),
        (4, None, "start_line 4 is past the end of notes.md (3 lines)"),
        (4, 10, "start_line 4 is past the end of notes.md (3 lines)"),
    ],
)
def test_reading_from_past_the_end_of_a_file_is_refused(
    ws: Path, start: int, end: int | None, wanted: str
) -> None:
    (ws / "memory").mkdir(parents=True)
    (ws / "notes.md").write_text("one\ntwo\nthree\n")
    (ws / "empty.md").write_text("")

    async def main() -> None:
        async with session(ws) as s:
            args: dict[str, Any] = {"path": "notes.md", "start_line": start}
            if end is not None:
                args["end_line"] = end
            assert refusal(await s.call_tool("memory_get", args)) == wanted
            # the last line, and an empty file from its start, still read
            last = data(await s.call_tool("memory_get", {"path": "notes.md", "start_line": 3}))
            assert (last["start_line"], last["end_line"], last["text"]) == (3, 3, "three")
            far = {"path": "notes.md", "start_line": 2, "end_line": 10**9}
            got = data(await s.call_tool("memory_get", far))
            assert (got["end_line"], got["text"], got["next_line"]) == (3, "two\nthree", None)
            empty = data(await s.call_tool("memory_get", {"path": "empty.md", "start_line": 1}))
            assert (empty["total_lines"], empty["text"]) == (0, "")
            r = await s.call_tool("memory_get", {"path": "empty.md", "start_line": 2})
            assert refusal(r) == "start_line 2 is past the end of empty.md (0 lines)"

    anyio.run(main)
