"""Claude's memory tool: an edit that changes nothing says so and writes nothing; a top-level
page name with accents keeps its letters (Café.md is cafe.md), and a page an earlier version
kept under the accent-dropping slug (caf.md) is still the page that name means."""

from __future__ import annotations

from pathlib import Path

import pytest
from anthropic.lib.tools import ToolError

from agent_sleep import MemoryTool, Workspace

JOURNAL = Path(".agent-sleep") / "journal.jsonl"


def _journal(ws: Path) -> list[str]:
    path = ws / JOURNAL
    return path.read_text().splitlines() if path.exists() else []


@pytest.mark.parametrize(
    ("memory", "old_str", "new_str"),
    [
        # the file ends without a newline: writing the "same" text back would add one
        ("# MEMORY\n\n- W: Redis listens on 6379 <!-- id=b2d4f6h8k0 -->", "6379", "6379"),
        ("# MEMORY\n\n- W: Redis listens on 6379 <!-- id=b2d4f6h8k0 -->\n", "Redis", "Redis"),
        # metadata the model types is never taken, so this edit reads the same once written
        (
            "# MEMORY\n\n- W: Redis listens on 6379 <!-- id=b2d4f6h8k0 -->\n",
            "6379",
            "6379 <!-- id=zzzzzzzzzz -->",
        ),
    ],
    ids=["same-no-final-newline", "same", "typed-metadata-only"],
)
def test_a_str_replace_that_changes_nothing_says_so_and_writes_nothing(
    ws: Path, memory: str, old_str: str, new_str: str
) -> None:
    w = Workspace.at(ws).ensure()
    w.memory_md.write_bytes(memory.encode())
    tool = MemoryTool(workspace=ws)
    said = tool.call(
        {
            "command": "str_replace",
            "path": "/memories/MEMORY.md",
            "old_str": old_str,
            "new_str": new_str,
        }
    )
    assert isinstance(said, str) and said.startswith("Nothing changed")
    assert "edited" not in said and "/memories/MEMORY.md was not written" in said
    assert w.memory_md.read_bytes() == memory.encode()
    assert _journal(ws) == []
    assert not (ws / ".agent-sleep" / "runs").exists() or not any(
        (ws / ".agent-sleep" / "runs").iterdir()
    )


def test_a_str_replace_that_changes_something_is_still_an_edit(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    w.memory_md.write_text("# MEMORY\n\n- W: Redis listens on 6379 <!-- id=b2d4f6h8k0 -->\n")
    said = MemoryTool(workspace=ws).call(
        {
            "command": "str_replace",
            "path": "/memories/MEMORY.md",
            "old_str": "6379",
            "new_str": "6380",
        }
    )
    assert said.startswith("The memory file has been edited")
    assert "6380 <!-- id=b2d4f6h8k0 -->" in w.memory_md.read_text()
    assert len(_journal(ws)) == 1


@pytest.mark.parametrize(
    ("name", "slug"),
    [("Café", "cafe"), ("Crème Brûlée", "creme-brulee"), ("Zoë's notes", "zoe-s-notes")],
)
def test_a_top_level_page_keeps_its_accented_letters_in_its_slug(
    ws: Path, name: str, slug: str
) -> None:
    Workspace.at(ws).ensure()
    said = MemoryTool(workspace=ws).call(
        {"command": "create", "path": f"/memories/{name}.md", "file_text": "- W: espresso\n"}
    )
    assert f"/memories/bank/concepts/{slug}.md" in said
    assert [p.name for p in (ws / "bank" / "concepts").iterdir()] == [f"{slug}.md"]


def test_a_page_kept_under_the_old_slug_is_still_the_page_of_its_name(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    old = w.concepts_dir / "caf.md"  # as /memories/Café.md was stored before accents were folded
    old.write_text("# Café\n\n- W: The espresso is strong <!-- id=a9c3e5g7j1 -->\n")
    tool = MemoryTool(workspace=ws)
    shown = tool.call({"command": "view", "path": "/memories/Café.md"})
    assert "/memories/bank/concepts/caf.md" in shown and "The espresso is strong" in shown
    with pytest.raises(ToolError, match="already exists"):  # not a second, empty twin
        tool.call({"command": "create", "path": "/memories/Café.md", "file_text": "- W: x\n"})
    tool.call(
        {
            "command": "str_replace",
            "path": "/memories/Café.md",
            "old_str": "strong",
            "new_str": "very strong",
        }
    )
    assert "very strong <!-- id=a9c3e5g7j1 -->" in old.read_text()  # edited in place
    assert sorted(p.name for p in w.concepts_dir.iterdir()) == ["caf.md"]  # never renamed


def test_a_page_under_the_new_slug_wins_over_one_under_the_old(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    (w.concepts_dir / "caf.md").write_text("# Caf\n\n- W: An old page <!-- id=a9c3e5g7j1 -->\n")
    (w.concepts_dir / "cafe.md").write_text("# Cafe\n\n- W: The new page <!-- id=b2d4f6h8k0 -->\n")
    shown = MemoryTool(workspace=ws).call({"command": "view", "path": "/memories/Café.md"})
    assert "/memories/bank/concepts/cafe.md" in shown and "The new page" in shown
