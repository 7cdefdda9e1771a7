"""Claude's memory tool on hostile workspaces: a failed write, files saved with CRLF."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from anthropic.lib.tools import ToolError

from agent_sleep import MemoryTool, Workspace, get_context
from agent_sleep.core import notes


def test_a_rename_whose_write_fails_keeps_the_page_and_leaves_no_run(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    tool = MemoryTool(workspace=ws)
    tool.call(
        {
            "command": "create",
            "path": "/memories/bank/concepts/dana.md",
            "file_text": "- W: Dana runs QA\n",
        }
    )
    page = ws / "bank" / "concepts" / "dana.md"
    before = page.read_bytes()
    w.entities_dir.rmdir()
    w.entities_dir.write_text("a file where the folder should be\n")  # the write will fail
    runs_before = sorted((ws / ".agent-sleep" / "runs").iterdir())
    with pytest.raises(ToolError) as e:
        tool.call(
            {
                "command": "rename",
                "old_path": "/memories/bank/concepts/dana.md",
                "new_path": "/memories/bank/entities/dana.md",
            }
        )
    assert "nothing was changed" in str(e.value) and "\n" not in str(e.value)
    assert page.read_bytes() == before  # the page is still where it was
    assert sorted((ws / ".agent-sleep" / "runs").iterdir()) == runs_before
    journal = (ws / ".agent-sleep" / "journal.jsonl").read_text().splitlines()
    assert [json.loads(line)["command"] for line in journal] == ["create"]


CRLF_MEMORY = (
    b"# MEMORY\r\n\r\n## Facts\r\n\r\n"
    b"- W: Kafka brokers listen on 9092 <!-- id=a9c3e5g7j1 sources=d3f8h1k9xp date=2026-11-29 -->"
    b"\r\n- W: Redis listens on 6379 <!-- id=b2d4f6h8k0 sources=z6btec3c9n -->\r\n"
)


def test_a_crlf_memory_md_reads_without_metadata_and_edits_keep_its_line_ends(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    w.memory_md.write_bytes(CRLF_MEMORY)  # saved on Windows, or checked out with autocrlf
    tool = MemoryTool(workspace=ws)
    view = tool.call({"command": "view", "path": "/memories/MEMORY.md"})
    assert "<!--" not in view and "\r" not in view
    tool.call(
        {
            "command": "str_replace",
            "path": "/memories/MEMORY.md",
            "old_str": "## Facts\n\n- W: Kafka",
            "new_str": "## Facts\n\n- W: The billing service retries webhooks 5 times\n- W: Kafka",
        }
    )
    raw = w.memory_md.read_bytes()
    assert raw.count(b"\r\n") == raw.count(b"\n")  # every line still ends in CRLF
    for line in CRLF_MEMORY.splitlines(keepends=True):
        assert line in raw  # untouched lines byte for byte
    found = notes.notes_in(raw.decode())
    assert [n.id for n in found][1:] == ["a9c3e5g7j1", "b2d4f6h8k0"]
    assert found[0].text == "The billing service retries webhooks 5 times" and found[0].id
    assert "<!--" not in get_context(workspace=ws)  # the session-start block hides it too
