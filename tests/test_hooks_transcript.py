"""Reading Claude Code transcripts: what a flush gets to see, and where the next read starts."""

from __future__ import annotations

import json
from pathlib import Path

from agent_sleep.integrations.transcript import TOOL_CHARS, read_since, render
from tests.fixtures import claude_transcript as ct


def test_conversation_text_is_kept_and_bookkeeping_is_not() -> None:
    call = ct.assistant("Let me check.", ("toolu_1", "Read", {"file_path": "/x/" + "a" * 900}))
    assert render(call) == [
        "Assistant: Let me check.",
        f"Tool: Read {json.dumps({'file_path': '/x/' + 'a' * 900})[:TOOL_CHARS]} …",
    ]
    assert render(ct.tool_result("toolu_1", "line\n" * 5)) == [
        "Tool: result line line line line line"
    ]
    assert render(ct.user("I prefer tabs.")) == ["User: I prefer tabs."]
    summary = {
        **ct.user("This session is being continued from a previous conversation..."),
        "isCompactSummary": True,
    }
    for skipped in (
        ct.meta("Caveat: local commands"),
        ct.user("<command-name>/clear</command-name>"),
        ct.summary("Billing work"),
        summary,
        {"type": "system", "content": "Conversation compacted"},
        {"type": "user", "message": "not an object"},
        ["not", "a", "record"],
    ):
        assert render(skipped) == []
    thinking_only = ct.assistant(None)
    assert render(thinking_only) == []


def test_reads_resume_at_the_offset_and_wait_for_an_unfinished_line(tmp_path: Path) -> None:
    path = ct.write(tmp_path / "t.jsonl", [ct.user("first")], malformed=["{oops"], partial='{"ty')
    first = read_since(path)
    assert first.parts == ["User: first"] and first.malformed == 1
    assert first.end == path.stat().st_size - len('{"ty')
    with open(path, "a") as f:
        f.write('pe": "user", "message": {"role": "user", "content": "second"}}\n')
    second = read_since(path, first.end)
    assert second.parts == ["User: second"] and second.end == path.stat().st_size
    assert read_since(path, second.end).parts == []
    assert read_since(path, 10**9).parts == ["User: first", "User: second"]  # file got shorter
