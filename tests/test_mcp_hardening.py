"""The MCP server's answers to absurd input: huge queries, huge lines, OS refusals, NaN.

Each test drives ``python -m agent_sleep mcp`` in a real subprocess with the SDK's own stdio
client (as ``tests/test_mcp.py`` does) and keeps the server's stderr to check that no refusal
ends in a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio

from agent_sleep.core import notes
from tests.test_mcp import data, session


def refusal(result: Any) -> str:
    """The one-line message of a tool error (not the SDK's bare "Error executing tool")."""
    assert result.is_error, result.content
    text: str = result.content[0].text
    message = text.partition(": ")[2]
    assert message.strip(), text  # says why
    assert "\n" not in text and len(text) < 400, text
    return message


def no_crash_logged(errlog: Path) -> None:
    log = errlog.read_text()
    assert "Traceback" not in log and "UnexpectedToolError" not in log, log[-3000:]


def logged_notes(ws: Path) -> list[notes.Note]:
    out: list[notes.Note] = []
    for log in sorted((ws / "memory").glob("*.md")):
        out += notes.notes_in(log.read_text())
    return out


def test_absurd_queries_are_refused_and_long_ones_are_echoed_short(
    ws: Path, tmp_path: Path
) -> None:
    errlog = tmp_path / "server.err"
    long_query = "green tea " * 390  # 3,900 characters: under the cap
    assert len(long_query) <= 4000

    async def main() -> None:
        async with session(ws, errlog=errlog) as s:
            data(await s.call_tool("memory_write", {"note": "User prefers green tea", "type": "O"}))
            with anyio.fail_after(30):  # refused at once, not searched for
                huge = "x" * 328_889
                r = await s.call_tool("memory_context", {"query": huge, "budget_tokens": 100})
                assert "4,000" in refusal(r)
                r = await s.call_tool("memory_search", {"q": "tea " * 100_000})
                assert "4,000" in refusal(r)
            r = await s.call_tool("memory_search", {"query": "x" * 4001})
            assert "at most 4,000" in refusal(r)

            ctx = data(
                await s.call_tool("memory_context", {"q": long_query, "budget_tokens": 100})
            )["context"]
            assert "green tea" in ctx
            assert len(ctx) < 1500, len(ctx)
            assert "[cut: 3,899 characters]" in ctx  # the query, whitespace joined, cut
            found = data(await s.call_tool("memory_search", {"query": long_query, "k": 1}))
            assert len(found["query"]) < 260 and found["query"].endswith("[cut: 3,900 characters]")
            assert found["query"].startswith("green tea green tea")
            short = data(await s.call_tool("memory_search", {"query": "green tea"}))
            assert short["query"] == "green tea"
            ctx = data(await s.call_tool("memory_context", {"query": "green tea"}))["context"]
            assert "## Relevant memories (query: green tea)\n" in ctx

    anyio.run(main)
    no_crash_logged(errlog)


def test_a_line_longer_than_the_get_cap_is_reported_and_can_be_read_on(
    ws: Path, tmp_path: Path
) -> None:
    errlog = tmp_path / "server.err"
    long_line = "".join(str(i % 10) for i in range(150_000)) + "END"
    text = "# Big page\n\n" + long_line + "\nthe last line\n"
    (ws / "bank" / "concepts").mkdir(parents=True)
    (ws / "bank" / "concepts" / "big.md").write_text(text)

    async def main() -> None:
        async with session(ws, errlog=errlog) as s:
            path = "bank/concepts/big.md"
            head = data(await s.call_tool("memory_get", {"path": path}))
            assert head["text"] == "# Big page\n" and head["truncated"]
            assert head["next_line"] == 3 and head["next_char"] is None

            got = data(await s.call_tool("memory_get", {"path": path, "start_line": 3}))
            assert len(got["text"]) == 100_000 and got["text"] == long_line[:100_000]
            assert got["truncated"] is True
            assert (got["end_line"], got["next_line"], got["next_char"]) == (3, 3, 100_001)

            rest = data(
                await s.call_tool(
                    "memory_get", {"path": path, "start_line": 3, "start_char": got["next_char"]}
                )
            )
            assert rest["text"] == long_line[100_000:] + "\nthe last line"
            assert rest["truncated"] is False and rest["next_line"] is None
            assert got["text"] + rest["text"] == long_line + "\nthe last line"

            only = data(
                await s.call_tool(
                    "memory_get",
                    {"path": path, "start_line": 3, "end_line": 3, "start_char": 149_990},
                )
            )
            assert only["text"] == long_line[149_989:] and not only["truncated"]
            assert only["next_line"] == 4 and only["next_char"] is None
            r = await s.call_tool("memory_get", {"path": path, "start_line": 1, "start_char": 99})
            assert "past the end of line 1" in refusal(r)

    anyio.run(main)
    no_crash_logged(errlog)


def test_os_refusals_are_one_line_tool_errors_without_a_traceback(ws: Path, tmp_path: Path) -> None:
    errlog = tmp_path / "server.err"
    (ws / "bank" / "concepts").mkdir(parents=True)
    (ws / "bank" / "concepts" / "loop.md").symlink_to(ws / "bank" / "concepts" / "loop.md")
    (ws / "bank" / "concepts" / "a.md").symlink_to(ws / "bank" / "concepts" / "b.md")
    (ws / "bank" / "concepts" / "b.md").symlink_to(ws / "bank" / "concepts" / "a.md")

    async def main() -> None:
        async with session(ws, errlog=errlog) as s:
            data(await s.call_tool("memory_write", {"note": "a first note"}))
            r = await s.call_tool("memory_get", {"path": "a" * 5000})
            assert "too long" in refusal(r)
            r = await s.call_tool("memory_get", {"path": "bank/" + "b" * 300 + ".md"})
            assert "too long" in refusal(r)
            for loop in ("bank/concepts/loop.md", "bank/concepts/a.md"):
                r = await s.call_tool("memory_get", {"path": loop})
                assert "symlink loop" in refusal(r)
            r = await s.call_tool("memory_get", {"path": "memory"})  # a folder
            refusal(r)
            got = data(await s.call_tool("memory_get", {"path": "MEMORY.md"}))
            assert got["text"].startswith("# MEMORY")

    anyio.run(main)
    no_crash_logged(errlog)
    assert [n.text for n in logged_notes(ws)] == ["a first note"]


def test_a_workspace_that_is_a_file_is_a_one_line_tool_error(tmp_path: Path) -> None:
    errlog = tmp_path / "server.err"
    not_a_folder = tmp_path / "ws-file"
    not_a_folder.write_text("I am a file\n")

    async def main() -> None:
        async with session(not_a_folder, errlog=errlog) as s:
            for name, args in (
                ("memory_context", {}),
                ("memory_context", {"query": "tea"}),
                ("memory_sleep", {}),
                ("memory_sleep", {"dry_run": True}),
                ("memory_write", {"note": "x"}),
                ("memory_search", {"query": "tea"}),
                ("memory_get", {"path": "MEMORY.md"}),
                ("memory_flush", {"context_dump": "User likes tea."}),
            ):
                message = refusal(await s.call_tool(name, args))
                assert "not a folder" in message, (name, message)

    anyio.run(main)
    no_crash_logged(errlog)
    assert not_a_folder.read_text() == "I am a file\n"


def test_confidence_out_of_range_is_refused_and_null_means_not_given(
    ws: Path, tmp_path: Path
) -> None:
    """JSON has no NaN or Infinity: the SDK's client sends them as null, which is also what a
    model sends for an optional argument it leaves empty, so null takes the default."""
    errlog = tmp_path / "server.err"

    async def main() -> None:
        async with session(ws, errlog=errlog) as s:
            for bad in (1.5, -0.1):
                r = await s.call_tool("memory_write", {"note": "x", "type": "O", "confidence": bad})
                assert "confidence" in refusal(r), bad
            assert logged_notes(ws) == []
            w = data(
                await s.call_tool(
                    "memory_write", {"note": "User likes tea", "type": "O", "confidence": 0.9}
                )
            )
            assert w["confidence"] == 0.9
            w = data(
                await s.call_tool(
                    "memory_write",
                    {"note": "User likes jazz", "type": "O", "confidence": float("nan")},
                )
            )
            assert w["confidence"] == 0.7  # sent as null: the default
            args = {"note": "Deploys are on Friday", "type": "W", "confidence": None}
            w = data(await s.call_tool("memory_write", args))
            assert w["confidence"] is None  # not an opinion: no confidence

    anyio.run(main)
    no_crash_logged(errlog)
    assert [n.text for n in logged_notes(ws)] == [
        "User likes tea",
        "User likes jazz",
        "Deploys are on Friday",
    ]
