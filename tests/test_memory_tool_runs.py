"""A memory-tool edit is a run: its reply names the run id, ``agent-sleep status`` lists it
(as a memory-tool edit, apart from sleep runs), and ``rollback`` takes that id. An entry
inserted above MEMORY.md's sections is filed under its own section, where sleep keeps it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from agent_sleep import MemoryTool, Workspace
from agent_sleep.consolidation.status import render, status
from agent_sleep.core import notes
from agent_sleep.core.rest import micro_rest_detail
from agent_sleep.core.workspace import MEMORY_HEADER
from tests.conftest import run_cli

RUN = re.compile(r"\n\(run (\S+); undo: agent-sleep rollback (\S+)\)$")
FACTS = "## Facts\n\n- W: Redis listens on 6379 <!-- id=a9c3e5g7j1 -->\n"


def _call(tool: MemoryTool, command: str, **args: Any) -> str:
    return str(tool.call({"command": command, **args}))


def _run_of(reply: str) -> str:
    m = RUN.search(reply)
    assert m and m.group(1) == m.group(2), reply
    return m.group(1)


def test_every_edit_reply_names_its_run_and_status_lists_it(ws: Path) -> None:
    Workspace.at(ws).ensure()
    log = f"/memories/memory/{micro_rest_detail('Morning note', workspace=ws).date}.md"
    tool = MemoryTool(workspace=ws)
    replies = [
        _call(tool, "create", path="/memories/bank/entities/dana.md", file_text="- W: Dana QA\n"),
        _call(
            tool, "insert", path="/memories/MEMORY.md", insert_line=0, insert_text="- User: tea\n"
        ),
        _call(tool, "str_replace", path="/memories/MEMORY.md", old_str="tea", new_str="coffee"),
        _call(tool, "insert", path=log, insert_line=0, insert_text="- later"),
        _call(
            tool,
            "rename",
            old_path="/memories/bank/entities/dana.md",
            new_path="/memories/bank/entities/dana-qa.md",
        ),
        _call(tool, "delete", path="/memories/bank/entities/dana-qa.md"),
    ]
    runs = [_run_of(r) for r in replies]
    assert replies[0].startswith("File created successfully at: /memories/bank/entities/dana.md")
    assert replies[2].startswith("The memory file has been edited. Here is the snippet")

    r = run_cli("status", "--json", "-w", str(ws))
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["recent_runs"] == []  # no sleep run: the edits are listed apart
    edits = data["memory_tool_runs"]
    assert [e["run_id"] for e in edits] == runs[-5:]
    assert [e["command"] for e in edits] == ["insert", "str_replace", "insert", "rename", "delete"]
    assert edits[-1]["files_changed"] == ["bank/entities/dana-qa.md"]
    assert not any(e["rolled_back"] for e in edits)

    text = run_cli("status", "-w", str(ws)).stdout
    assert "No sleep runs yet." in text
    assert "Memory-tool edits (Claude's memory tool; `agent-sleep rollback ID` undoes one):" in text
    assert all(run_id in text for run_id in runs[-5:])

    undone = run_cli("rollback", runs[-1], "-w", str(ws))
    assert undone.returncode == 0, undone.stderr
    assert (ws / "bank" / "entities" / "dana-qa.md").is_file()
    assert status(ws)["memory_tool_runs"][-1]["rolled_back"]
    assert f"{runs[-1]}  delete       bank/entities/dana-qa.md (rolled back)" in render(status(ws))


def test_an_edit_that_changes_nothing_names_no_run(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    w.write_text(w.memory_md, MEMORY_HEADER + FACTS)
    tool = MemoryTool(workspace=ws)
    said = _call(tool, "str_replace", path="/memories/MEMORY.md", old_str="6379", new_str="6379")
    assert said.startswith("Nothing changed") and "rollback" not in said
    assert status(ws)["memory_tool_runs"] == []


@pytest.mark.parametrize("line", [0, 2, MEMORY_HEADER.count("\n")])
def test_an_entry_inserted_above_the_sections_is_filed_under_its_own(ws: Path, line: int) -> None:
    w = Workspace.at(ws).ensure()
    w.write_text(w.memory_md, MEMORY_HEADER + FACTS)
    tool = MemoryTool(workspace=ws)
    said = _call(
        tool,
        "insert",
        path="/memories/MEMORY.md",
        insert_line=line,
        insert_text="- User likes tea\n- O(c=0.8): User prefers short answers\n",
    )
    assert "filed at the end of ## Facts, ## Preferences" in said
    text = w.memory_md.read_text()
    assert text.startswith(MEMORY_HEADER + FACTS.rstrip("\n"))
    placed = [(b.section, b.note.text) for b in notes.parse(text).blocks if b.note is not None]
    assert placed == [
        ("Facts", "Redis listens on 6379"),
        ("Facts", "User likes tea"),
        ("Preferences", "User prefers short answers"),
    ]
    assert "\n\n\n" not in text


def test_a_fresh_memory_md_takes_an_entry_at_line_0_under_a_new_section(ws: Path) -> None:
    w = Workspace.at(ws).ensure()  # MEMORY.md is just the intro
    _call(
        MemoryTool(workspace=ws),
        "insert",
        path="/memories/MEMORY.md",
        insert_line=0,
        insert_text="- W: User likes tea\n",
    )
    text = w.memory_md.read_text()
    assert text.startswith(MEMORY_HEADER + "## Facts\n\n- W: User likes tea <!-- id=")
    # the next sleep adds to that section; it makes no second one
    assert text.count("## Facts") == 1


def test_text_that_opens_with_its_own_heading_goes_where_it_was_asked(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    w.write_text(w.memory_md, MEMORY_HEADER + FACTS)
    said = _call(
        MemoryTool(workspace=ws),
        "insert",
        path="/memories/MEMORY.md",
        insert_line=0,
        insert_text="## Team\n\n- W: Dana runs QA\n\n",
    )
    assert "filed" not in said
    assert w.memory_md.read_text().startswith(MEMORY_HEADER + "## Team\n\n- W: Dana runs QA <!--")
