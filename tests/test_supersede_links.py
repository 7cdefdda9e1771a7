"""A link to an entry follows it when sleep gives it a new id.

An update or merge that keeps an entry's text (a note that says it again) writes it under a
new id. The History entry it had replaced still named the old id (``superseded_by=``), and the
new one lost its ``supersedes=``: every search then warned "entry … names a missing
replacement …: ignored (fix its metadata)" about metadata sleep itself wrote, and showed the
replaced value unlabelled (an exploratory test: a plan note repeated over a few sleeps).
"""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path

import pytest

from agent_sleep import micro_rest, recall, rollback, sleep_cycle
from agent_sleep.core import notes as fmt
from agent_sleep.retrieval.recall import Hit

OLD, NEW, OTHER = "standoldaa", "standnewaa", "standother"
STANDUP = "Team standup is at {} every weekday."

HEADER = """---
title: Memory Archive
kind: concept
updated: 2026-11-03
---

# Memory Archive

## History

"""


def _workspace(root: Path, memory: str, history: str) -> Path:
    for folder in ("memory", "bank/concepts", "bank/entities"):
        (root / folder).mkdir(parents=True)
    (root / "MEMORY.md").write_text(f"# MEMORY\n\n## Facts\n\n{memory}")
    (root / "bank/concepts/memory-archive.md").write_text(HEADER + history)
    for day, time, note in [("02", "9:30", "n930aaaaaa"), ("03", "10:15", "n1015aaaaa"),
                            ("04", "11:00", "n1100aaaaa")]:  # fmt: skip
        line = f"- 10:00 W: {STANDUP.format(time)} <!-- id={note} -->\n"
        (root / f"memory/2026-11-{day}.md").write_text(f"# 2026-11-{day}\n\n## Retain\n\n{line}")
    return root


def _replaced(root: Path) -> Path:
    """9:30 replaced by 10:15, the one in MEMORY.md, the other in the archive's History."""
    return _workspace(
        root,
        f"- W: {STANDUP.format('10:15')} <!-- id={NEW} sources=n1015aaaaa date=2026-11-03 "
        f"supersedes={OLD} -->\n",
        f"- W: {STANDUP.format('9:30')} <!-- id={OLD} sources=n930aaaaaa date=2026-11-02 "
        f"superseded_by={NEW} until=2026-11-03 -->\n",
    )


def _again(root: Path, time: str, **kw: object) -> str | None:
    """The note of the entry in MEMORY.md said again on November 5, then a sleep."""
    micro_rest(STANDUP.format(time), "W", workspace=root, when=dt.datetime(2026, 11, 5, 10))
    return sleep_cycle(root, "both", "offline", now=dt.datetime(2026, 11, 5, 22), **kw).run_id


def _entries(root: Path) -> dict[str, fmt.Note]:
    out: dict[str, fmt.Note] = {}
    for page in [root / "MEMORY.md", *sorted((root / "bank").rglob("*.md"))]:
        out.update((n.id, n) for n in fmt.notes_in(page.read_text()) if n.id)
    return out


def _broken_links(root: Path) -> list[str]:
    """Each ``superseded_by``/``contests`` naming no entry (nor the old id of a moved one)."""
    entries = _entries(root)
    known = set(entries) | {n.meta["was"] for n in entries.values() if n.meta.get("was")}
    return [
        f"{n.id} {key}={n.meta[key]}"
        for n in entries.values()
        for key in ("superseded_by", "contests")
        if n.meta.get(key) and n.meta[key] not in known
    ]


def _current(root: Path) -> fmt.Note:
    (entry,) = fmt.notes_in((root / "MEMORY.md").read_text())
    return entry


def _search_is_clean(
    root: Path, caplog: pytest.LogCaptureFixture, query: str = "standup"
) -> list[Hit]:
    with caplog.at_level(logging.WARNING):
        hits = recall(root, query, k=6)
    assert "missing replacement" not in caplog.text
    return list(hits)


def test_a_note_said_again_keeps_the_history_pointing_at_the_entry(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = _replaced(tmp_path / "ws")
    _again(root, "10:15")
    now = _current(root)
    assert now.id != NEW and now.text == STANDUP.format("10:15")  # the update: a new id
    assert now.meta.get("supersedes") == OLD  # what it replaced goes with it
    assert _entries(root)[OLD].meta["superseded_by"] == now.id
    assert _broken_links(root) == []
    hits = _search_is_clean(root, caplog)
    old = [h for h in hits if h.text.endswith(STANDUP.format("9:30"))]
    assert old and all(not h.current and h.superseded_by == STANDUP.format("10:15") for h in old)


def test_rollback_puts_the_history_back_byte_for_byte(tmp_path: Path) -> None:
    root = _replaced(tmp_path / "ws")
    page = root / "bank/concepts/memory-archive.md"
    before = {p: p.read_bytes() for p in (root / "MEMORY.md", page)}
    run_id = _again(root, "10:15")
    assert f"superseded_by={NEW}" not in page.read_text()  # the run relinked it
    rollback(root, run_id)
    assert {p: p.read_bytes() for p in before} == before


def test_a_fork_settled_and_merged_in_one_run_names_what_stands(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # two changes of 9:30 merged by a sync: 11:00 (the later) stands, 10:15 goes to History
    # naming it; the same run merges a note into 11:00, which takes a new id
    root = _workspace(
        tmp_path / "ws",
        f"- W: {STANDUP.format('10:15')} <!-- id={NEW} sources=n1015aaaaa date=2026-11-03 "
        f"supersedes={OLD} -->\n"
        f"- W: {STANDUP.format('11:00')} <!-- id={OTHER} sources=n1100aaaaa date=2026-11-04 "
        f"supersedes={OLD} -->\n",
        f"- W: {STANDUP.format('9:30')} <!-- id={OLD} sources=n930aaaaaa date=2026-11-02 "
        f"superseded_by={NEW} until=2026-11-03 -->\n",
    )
    _again(root, "11:00")
    now = _current(root)
    assert now.text == STANDUP.format("11:00") and now.id != OTHER
    assert _entries(root)[NEW].meta["superseded_by"] == now.id
    assert _broken_links(root) == []
    _search_is_clean(root, caplog)


def test_a_merged_entry_moved_out_by_the_budget_is_still_found(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = _replaced(tmp_path / "ws")
    _again(root, "10:15", memory_budget_chars=60, prune_memory=True)
    archive = fmt.notes_in((root / "bank/concepts/memory-archive.md").read_text())
    moved = [n for n in archive if n.meta.get("was") and n.text == STANDUP.format("10:15")]
    assert moved and moved[0].meta["was"] != NEW  # the run merged it, then moved it out
    assert _entries(root)[OLD].meta["superseded_by"] == moved[0].meta["was"]
    assert _broken_links(root) == []
    _search_is_clean(root, caplog)


def test_a_plan_note_repeated_over_weeks_leaves_no_broken_link(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / "ws"
    plan = "The plan is to read billing/totals.py, write a failing test, then fix the rounding."
    fixed = "Fixed BUG-231 by using Decimal quantize with ROUND_HALF_UP in billing/totals.py."
    for day, kind, text in [(4, "W", plan), (6, "B", fixed), (11, "W", plan), (18, "W", plan)]:
        micro_rest(text, kind, workspace=root, when=dt.datetime(2026, 11, day, 14))
        sleep_cycle(root, "both", "offline", now=dt.datetime(2026, 11, day, 18))
    assert _broken_links(root) == []
    _search_is_clean(root, caplog, "billing totals plan")
