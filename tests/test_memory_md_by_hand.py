"""A MEMORY.md written by hand (plain list items, no type prefix, no ids) is searchable: each
item is a recall unit, read as a W entry, whatever its heading level, bullet or line ends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_sleep.retrieval.units import MEMORY, memory_units
from tests.conftest import run_cli

TEA = "Prefers tea over coffee"
DEPLOYS = "Deploys happen on Fridays"

BY_HAND = {
    "h1-plain": f"# Long-term memory\n\n- {TEA}\n- {DEPLOYS}\n",
    "h2-plain": f"## Long-term memory\n\n- {TEA}\n- {DEPLOYS}\n",
    "h1-plain-crlf": f"# Long-term memory\r\n\r\n- {TEA}\r\n- {DEPLOYS}\r\n",
    "star-and-number": f"# Long-term memory\n\n* {TEA}\n1. {DEPLOYS}\n",
    "plain-with-id": f"# Long-term memory\n\n- {TEA} <!-- id=a9c3e5g7j1 -->\n- {DEPLOYS}\n",
    "typed-with-id": (
        f"# Long-term memory\n\n- W: {TEA} <!-- id=a9c3e5g7j1 -->\n"
        f"- W: {DEPLOYS} <!-- id=b2d4f6h8k0 -->\n"
    ),
    "typed-without-id": f"# Long-term memory\n\n- W: {TEA}\n- W: {DEPLOYS}\n",
    "nested": f"# Long-term memory\n\n- Habits\n  - {TEA}\n- {DEPLOYS}\n",
}


@pytest.mark.parametrize("text", BY_HAND.values(), ids=BY_HAND.keys())
def test_every_list_item_of_a_hand_written_memory_md_is_a_unit(text: str) -> None:
    found = memory_units(text)
    shown = [u.text for u in found]
    assert f"W: {TEA}" in shown and f"W: {DEPLOYS}" in shown
    assert all(u.kind == MEMORY and u.section == "Long-term memory" for u in found)
    assert all("<!--" not in u.text and "\r" not in u.text for u in found)
    tea = next(u for u in found if TEA in u.text)
    assert TEA in tea.indexed and TEA in tea.embedded


def test_prose_rules_and_empty_items_are_not_units() -> None:
    text = "# Long-term memory\n\nWhat I keep.\n\n* * *\n- \n- - -\n---\n- Tea, not coffee\n"
    assert [u.text for u in memory_units(text)] == ["W: Tea, not coffee"]


def test_a_hand_written_memory_md_is_found_by_search(ws: Path) -> None:
    assert run_cli("init", "-w", str(ws)).returncode == 0
    (ws / "MEMORY.md").write_text(f"# Long-term memory\n\n- {TEA}\n- {DEPLOYS}\n")
    r = run_cli("search", "tea or coffee", "--json", "-w", str(ws))
    assert r.returncode == 0, r.stderr
    hits = json.loads(r.stdout)
    assert hits and hits[0]["path"] == "MEMORY.md" and TEA in hits[0]["text"]
