"""The memory tool's ``insert`` into MEMORY.md never lands inside the intro the workspace writes
at its top: a line inside it (or 0, above it) means right after it, and the reply says so. (An
entry with no heading of its own goes on under its section: tests/test_memory_tool_runs.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_sleep import MemoryTool, Workspace
from agent_sleep.core import notes
from agent_sleep.core.workspace import MEMORY_HEADER

ENTRIES = "## Facts\n\n- W: Redis listens on 6379 <!-- id=a9c3e5g7j1 -->\n"
INTRO = MEMORY_HEADER.count("\n")  # 5: title, blank, two lines of sentence, blank


def _insert(ws: Path, line: int, text: str = "- W: Staging resets every Sunday") -> str:
    return str(
        MemoryTool(workspace=ws).call(
            {
                "command": "insert",
                "path": "/memories/MEMORY.md",
                "insert_line": line,
                "insert_text": text,
            }
        )
    )


@pytest.mark.parametrize("line", range(INTRO))
def test_an_insert_inside_the_intro_lands_after_it(ws: Path, line: int) -> None:
    w = Workspace.at(ws).ensure()
    w.write_text(w.memory_md, MEMORY_HEADER + ENTRIES)
    out = _insert(ws, line, "## Ops\n\n- W: Staging resets every Sunday\n\n")
    assert f"inserted after line {INTRO}" in out
    text = w.memory_md.read_text()
    assert text.startswith(MEMORY_HEADER + "## Ops\n\n- W: Staging resets every Sunday <!-- id=")
    assert text.endswith(ENTRIES)
    assert [n.text for n in notes.notes_in(text)] == [
        "Staging resets every Sunday",
        "Redis listens on 6379",
    ]


def test_an_insert_after_the_intro_goes_where_it_was_asked(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    w.write_text(w.memory_md, MEMORY_HEADER + ENTRIES)
    out = _insert(ws, INTRO + 2)  # under "## Facts" and its blank line
    assert out.startswith("The file /memories/MEMORY.md has been edited.\n(run ")
    lines = w.memory_md.read_text().splitlines()
    assert lines[INTRO + 2].startswith("- W: Staging resets every Sunday")


def test_a_fresh_memory_md_takes_its_first_entry_after_the_intro(ws: Path) -> None:
    w = Workspace.at(ws).ensure()  # MEMORY.md is just the intro
    _insert(ws, 0, "## Facts\n\n- W: Staging resets every Sunday\n")
    text = w.memory_md.read_text()
    assert text.startswith(MEMORY_HEADER + "## Facts\n\n- W: Staging resets every Sunday <!-- ")


def test_a_memory_md_without_the_intro_takes_an_insert_at_its_top(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    w.write_text(w.memory_md, ENTRIES)  # the intro removed by hand: nothing to protect
    assert "inserted after" not in _insert(ws, 0, "# My memory\n")
    assert w.memory_md.read_text() == "# My memory\n" + ENTRIES
