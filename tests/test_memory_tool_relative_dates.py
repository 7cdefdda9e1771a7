"""What the model writes through Claude's memory tool says "last week" of the day it writes it:
each relative time an entry or a log note gains is followed by the date it means, seen from
the day of the edit (the tool's clock), and a new MEMORY.md or bank entry is dated that day, as
sleep dates its entries. A relative time an edit kept from an entry written on an unknown day
stays as it was. Replies, runs and rollback are as before."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest

from agent_sleep import MemoryTool, Workspace, rollback
from agent_sleep.analysis import temporal
from agent_sleep.core import notes
from agent_sleep.core.errors import BadInput
from agent_sleep.integrations import memory_files as mf

NOW = dt.datetime(2026, 3, 10, 18, 0)  # a Tuesday; the tool's clock, never the system's
RUN = re.compile(r"\(run (\S+); undo")


def _tool(ws: Path) -> MemoryTool:
    return MemoryTool(workspace=ws, clock=lambda: NOW)


def _call(tool: MemoryTool, command: str, **args: Any) -> str:
    return str(tool.call({"command": command, **args}))


def _entries(path: Path) -> list[notes.Note]:
    return notes.notes_in(path.read_text())


def test_an_inserted_entry_is_anchored_and_dated_and_rolls_back(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    before = w.memory_md.read_bytes()
    reply = _call(
        _tool(ws),
        "insert",
        path="/memories/MEMORY.md",
        insert_line=0,
        insert_text="- W: User moved to Lisbon last week\n",
    )
    assert reply.startswith("The file /memories/MEMORY.md has been edited")
    [entry] = _entries(w.memory_md)
    assert entry.text == "User moved to Lisbon last week (week of 2026-03-02)"
    assert entry.meta["date"] == "2026-03-10" and entry.meta["source"] == "memory-tool"
    match = RUN.search(reply)
    assert match
    rollback(ws, match.group(1))
    assert w.memory_md.read_bytes() == before


def test_create_and_str_replace_anchor_what_they_bring(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    tool = _tool(ws)
    _call(
        tool,
        "create",
        path="/memories/bank/entities/dana.md",
        file_text="# Dana\n\n- W: Dana joined the QA team yesterday\n- W: Dana likes tea\n",
    )
    page = ws / "bank" / "entities" / "dana.md"
    joined, tea = _entries(page)
    assert joined.text == "Dana joined the QA team yesterday (2026-03-09)"
    assert joined.meta["date"] == tea.meta["date"] == "2026-03-10"
    reply = _call(
        tool,
        "str_replace",
        path="/memories/bank/entities/dana.md",
        old_str="Dana likes tea",
        new_str="Dana switched to coffee 3 days ago",
    )
    assert "Dana switched to coffee 3 days ago (2026-03-07)" in reply  # the snippet as written
    _joined, coffee = _entries(page)
    assert coffee.id == tea.id and coffee.meta == tea.meta  # an edit keeps id and metadata
    assert coffee.text == "Dana switched to coffee 3 days ago (2026-03-07)"
    assert w.memory_md.exists()


def test_an_edit_leaves_a_relative_time_it_kept_from_an_undated_entry(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    w.write_text(
        w.memory_md,
        w.read_text(w.memory_md)
        + "## Facts\n\n- W: User started at Acme last month <!-- id=a9c3e5g7j1 -->\n",
    )
    _call(_tool(ws), "str_replace", path="/memories/MEMORY.md", old_str="Acme", new_str="Globex")
    [entry] = _entries(w.memory_md)
    # written on a day nothing recorded: "last month" of that day, not of the edit's
    assert entry.text == "User started at Globex last month"
    assert entry.id == "a9c3e5g7j1" and "date" not in entry.meta
    _call(
        _tool(ws),
        "str_replace",
        path="/memories/MEMORY.md",
        old_str="last month",
        new_str="last month, and moved to Porto yesterday",
    )
    [entry] = _entries(w.memory_md)
    assert entry.text == (
        "User started at Globex last month, and moved to Porto yesterday (2026-03-09)"
    )


def test_an_entry_already_anchored_is_written_as_given(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    text = "- W: User moved to Lisbon last week (week of 2026-02-23)\n"
    _call(_tool(ws), "insert", path="/memories/MEMORY.md", insert_line=0, insert_text=text)
    [entry] = _entries(w.memory_md)
    assert entry.text == "User moved to Lisbon last week (week of 2026-02-23)"


@pytest.mark.parametrize("day", [dt.date(2026, 3, 10), dt.date(2026, 3, 1)])
def test_log_notes_are_anchored_to_the_day_they_are_written(ws: Path, day: dt.date) -> None:
    """A note added to an earlier day's log is still written today: its "tomorrow" is today's."""
    w = Workspace.at(ws).ensure()
    path = f"/memories/memory/{day.isoformat()}.md"
    tool = _tool(ws)
    _call(tool, "create", path=path, file_text="- The plumber comes tomorrow\n")
    _call(tool, "insert", path=path, insert_line=0, insert_text="- B: Paid the invoice today\n")
    found = _entries(w.day_log(day))
    assert [n.text for n in found] == [
        "The plumber comes tomorrow (2026-03-11)",
        "Paid the invoice today (2026-03-10)",
    ]
    assert {n.time for n in found} == {"18:00"}


TEXTS = [
    "Went to the dentist yesterday and again the day before yesterday",
    "The review is tomorrow; the demo the day after tomorrow",
    "Deployed this morning's build tonight",
    "Joined 3 days ago, left a couple of weeks ago, back in 2 months",
    "It happened a few days ago, and a few weeks from now it ends",
    "The offsite is next Friday, the retro was last Monday",
    "Camping last weekend and next weekend; busy this week, free next week",
    "Budget closes next month; the audit was last year",
    "I won the tournament on Friday",
    "Met Ana yesterday (2026-03-09) and Bo last week (Mar 2) (2019)",
]


@pytest.mark.parametrize("text", TEXTS)
def test_anchor_adds_what_temporal_resolve_adds(text: str) -> None:
    day = NOW.date()
    assert mf.anchor(text, day) == temporal.resolve(text, day)
    assert mf.anchor(text, day, before="") == temporal.resolve(text, day)
    assert mf.anchor(text, day, before=text) == text  # all kept: none of the edit's day


def test_anchor_resolves_only_the_relative_times_an_edit_brought() -> None:
    day = NOW.date()
    before = "User started at Acme last month"
    after = "User started at Globex last month; moved last week"
    assert mf.anchor(after, day, before) == (
        "User started at Globex last month; moved last week (week of 2026-03-02)"
    )
    # the same words said again are new: one of the two is the edit's
    twice = "last month at Acme, and again last month"
    assert mf.anchor(twice, day, "last month at Acme").count("(2026-02)") == 1


def test_a_clock_that_is_no_function_is_refused(ws: Path) -> None:
    with pytest.raises(BadInput, match="clock"):
        MemoryTool(workspace=ws, clock=NOW)
