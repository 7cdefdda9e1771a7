"""A forced rollback of an earlier run keeps MEMORY.md's structure: the run's own entries go,
every heading a later entry still sits under stays (the merge alone dropped ``## Facts`` and
left a later run's fact outside any section, so the next sleep made a second ``## Facts``)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from agent_sleep import MemoryTool, micro_rest, sleep_cycle
from agent_sleep.consolidation.journal import rollback
from agent_sleep.core import notes as fmt
from agent_sleep.core.memory import keep_sections
from agent_sleep.core.workspace import MEMORY_HEADER, Workspace
from agent_sleep.sync.merge import merge_text
from tests.conftest import run_cli

DAY = dt.date(2026, 12, 1)


def _run(ws: Path, text: str, hour: int, kind: str = "W") -> str:
    micro_rest(text, kind, workspace=ws, when=dt.datetime.combine(DAY, dt.time(hour, 0)))
    r = sleep_cycle(ws, provider="offline", now=dt.datetime.combine(DAY, dt.time(hour, 30)))
    assert r.run_id
    return r.run_id


def _layout(ws: Path) -> list[tuple[str | None, str]]:
    """MEMORY.md's ## headings and entries in file order, each entry with its section."""
    out: list[tuple[str | None, str]] = []
    for b in fmt.parse((ws / "MEMORY.md").read_text(encoding="utf-8")).blocks:
        if b.heading is not None and b.heading.level == 2:
            out.append(("##", b.heading.title))
        elif b.note is not None:
            out.append((b.section, b.note.text))
    return out


def test_a_forced_rollback_keeps_the_heading_a_later_entry_sits_under(ws: Path) -> None:
    Workspace.at(ws).ensure()
    first = _run(ws, "Fact A: the cache TTL is 300 seconds", 9)
    _run(ws, "Fact B: the queue is RabbitMQ 3.13", 10)
    r = run_cli("rollback", first, "--force", "-w", str(ws))
    assert r.returncode == 0, r.stderr
    text = (ws / "MEMORY.md").read_text(encoding="utf-8")
    assert _layout(ws) == [("##", "Facts"), ("Facts", "Fact B: the queue is RabbitMQ 3.13")]
    assert text.startswith(MEMORY_HEADER + "## Facts\n\n- W: Fact B")  # one blank line each
    assert "\n\n\n" not in text

    # the undone run's note is pending again: the next sleep files it under the same heading
    sleep_cycle(ws, provider="offline", now=dt.datetime.combine(DAY, dt.time(18, 0)))
    layout = _layout(ws)
    assert layout.count(("##", "Facts")) == 1
    assert ("Facts", "Fact A: the cache TTL is 300 seconds") in layout
    assert ("Facts", "Fact B: the queue is RabbitMQ 3.13") in layout


def test_a_heading_made_again_keeps_its_place_among_the_sections(ws: Path) -> None:
    Workspace.at(ws).ensure()
    _run(ws, "User prefers short answers", 8, "O")  # ## Preferences, before the runs below
    first = _run(ws, "Fact A: the cache TTL is 300 seconds", 9)  # ## Facts, after it
    _run(ws, "Fact B: the queue is RabbitMQ 3.13", 10)
    with (ws / "MEMORY.md").open("a", encoding="utf-8") as f:
        f.write("\n## Decisions\n\nWritten by hand: ship on Fridays.\n")
    rollback(str(ws), first, force=True, merge=merge_text)
    titles = [what for kind, what in _layout(ws) if kind == "##"]
    assert titles == ["Preferences", "Facts", "Decisions"]
    assert ("Facts", "Fact B: the queue is RabbitMQ 3.13") in _layout(ws)
    assert "\n\n\n" not in (ws / "MEMORY.md").read_text(encoding="utf-8")


def test_a_forced_rollback_of_a_memory_tool_edit_keeps_a_later_entry_in_its_section(
    ws: Path,
) -> None:
    Workspace.at(ws).ensure()
    said = MemoryTool(workspace=ws).call(
        {
            "command": "str_replace",
            "path": "/memories/MEMORY.md",
            "old_str": "Safe to edit by hand.\n",
            "new_str": "Safe to edit by hand.\n\n## Facts\n\n- W: User likes tea\n",
        }
    )
    run_id = str(said).rsplit("agent-sleep rollback ", 1)[1].rstrip(")")
    _run(ws, "Fact B: the queue is RabbitMQ 3.13", 10)
    rollback(str(ws), run_id, force=True, merge=merge_text)
    assert _layout(ws) == [("##", "Facts"), ("Facts", "Fact B: the queue is RabbitMQ 3.13")]


def test_entries_at_home_leave_the_merge_as_it_is() -> None:
    page = "# M\n\n## Facts\n\n- W: a <!-- id=aaaaaaaaaa -->\n\n\n## Notes\n\nhand line\n"
    assert keep_sections(page, page, page, page) == page


def test_an_entry_the_run_moved_goes_back_where_it_was_before() -> None:
    before = (
        "## Facts\n\n- W: a <!-- id=aaaaaaaaaa -->\n\n## Old\n\n- W: b <!-- id=bbbbbbbbbb -->\n"
    )
    after = "## Facts\n\n- W: a <!-- id=aaaaaaaaaa -->\n- W: b <!-- id=bbbbbbbbbb -->\n"
    now = after + "\n## Later\n\n- W: c <!-- id=cccccccccc -->\n"
    merged = merge_text("MEMORY.md", after, now, before)
    out = keep_sections(merged, before, after, now)
    sections = {b.note.id: b.section for b in fmt.parse(out).blocks if b.note is not None}
    assert sections == {"aaaaaaaaaa": "Facts", "bbbbbbbbbb": "Old", "cccccccccc": "Later"}
