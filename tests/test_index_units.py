"""Splitting the workspace into recall units (pure functions of file contents)."""

from __future__ import annotations

from agent_sleep.retrieval.units import BANK, LOG, MEMORY, units_of

LOG_TEXT = """# 2026-03-02

## Retain

- 09:30 B: Caroline: Are you going to the support group? <!-- id=aaaaaaaaaa source=D1:1 -->
- 09:31 B: Melanie: Yes, last week!
  It was great. <!-- id=bbbbbbbbbb source=D1:2 -->

## Next session

- S: Ask about the group <!-- id=cccccccccc -->
"""

MEMORY_TEXT = """# MEMORY

## People

- W: Melanie joined a group in March 2026 <!-- id=mmmmmmmmmm sources=bbbbbbbbbb date=2026-03-02 -->
- O(c=0.8): Caroline likes hiking <!-- id=nnnnnnnnnn sources=aaaaaaaaaa,bbbbbbbbbb -->
"""

BANK_TEXT = """---
title: Melanie
kind: entity
updated: 2026-03-05
---

## Activities

- B: Runs a pottery class <!-- id=pppppppppp sources=bbbbbbbbbb -->
- B: Goes camping <!-- id=qqqqqqqqqq sources=aaaaaaaaaa -->

## Family

- W: Has two kids <!-- id=rrrrrrrrrr sources=bbbbbbbbbb -->
"""


def test_daily_log_notes_carry_date_time_ids_refs_and_context() -> None:
    units = units_of("memory/2026-03-02.md", LOG_TEXT)
    assert [u.kind for u in units] == [LOG, LOG, LOG]
    first, second, action = units
    assert first.text == "B: Caroline: Are you going to the support group?"
    assert (first.date, first.time, first.ids, first.refs) == (
        "2026-03-02",
        "09:30",
        ("aaaaaaaaaa",),
        ("D1:1",),
    )
    assert second.text == "B: Melanie: Yes, last week!\nIt was great."
    assert "support group" in second.context and "2026-03-02" in second.context
    assert action.section == "Next session" and "support group" not in action.context


def test_a_log_note_is_embedded_alone_while_bm25_sees_its_context() -> None:
    second = units_of("memory/2026-03-02.md", LOG_TEXT)[1]
    assert second.embedded == "Melanie: Yes, last week!\nIt was great."
    assert "support group" in second.indexed and "support group" not in second.embedded
    assert "2026-03-02" not in second.embedded


def test_memory_entries_cite_sources_and_keep_their_date() -> None:
    units = units_of("MEMORY.md", MEMORY_TEXT)
    assert [u.kind for u in units] == [MEMORY, MEMORY]
    assert units[0].cites == ("bbbbbbbbbb",) and units[0].date == "2026-03-02"
    assert units[1].cites == ("aaaaaaaaaa", "bbbbbbbbbb") and units[1].date is None
    assert units[1].text == "O(c=0.8): Caroline likes hiking"


def test_bank_pages_split_by_section_with_title_and_citations() -> None:
    units = units_of("bank/entities/melanie.md", BANK_TEXT)
    assert [u.kind for u in units] == [BANK, BANK]
    activities, family = units
    assert activities.text.startswith("Melanie — Activities\n- B: Runs a pottery class")
    assert "<!--" not in activities.text
    assert activities.cites == ("bbbbbbbbbb", "aaaaaaaaaa")
    assert activities.ids == ("pppppppppp", "qqqqqqqqqq")
    assert family.date == "2026-03-05"


def test_long_bank_sections_are_chunked_at_entry_boundaries() -> None:
    entries = "".join(
        f"- W: fact {i} " + "word " * 40 + f"<!-- id=x{i:09d} -->\n" for i in range(20)
    )
    units = units_of("bank/concepts/big.md", f"---\ntitle: Big\n---\n\n## All\n\n{entries}")
    assert len(units) > 1
    assert sum(len(u.ids) for u in units) == 20
    assert all(len(u.text.split()) < 400 for u in units)


def test_each_entry_moved_out_of_memory_md_is_a_unit_of_its_own() -> None:
    """The archive's entries are unrelated facts: as one chunk, fifteen of them were one search
    hit for "What is Inês's work phone number?" (six weeks of a personal assistant's notes)."""
    entries = "".join(
        f"- W: unrelated fact number {i}. <!-- id=a{i:09d} sources=n{i:09d} date=2026-09-0{i} -->\n"
        for i in range(1, 8)
    )
    text = f"---\ntitle: Memory archive\n---\n\n## Moved out of MEMORY.md\n\n{entries}"
    units = units_of("bank/concepts/memory-archive.md", text)
    assert [len(u.ids) for u in units] == [1] * 7
    assert units[2].text == "Memory archive — Moved out of MEMORY.md\n- W: unrelated fact number 3."


def test_other_files_give_no_units() -> None:
    assert units_of("memory/notes.md", LOG_TEXT) == []


def _log(count: int) -> str:
    lines = [f"- 10:{i:02d} B: note {i} <!-- id=id{i:08d} source=s{i} -->\n" for i in range(count)]
    return "# 2026-03-02\n\n## Retain\n\n" + "".join(lines)


def test_windows_span_consecutive_notes_and_point_back_to_them(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from agent_sleep.retrieval import units

    monkeypatch.setattr(units, "WINDOW_NOTES", 3)
    monkeypatch.setattr(units, "WINDOW_STRIDE", 2)
    got = units_of("memory/2026-03-02.md", _log(8))
    notes = [u for u in got if u.kind == LOG]
    assert [u.text for u in notes] == [f"B: note {i}" for i in range(8)]  # every note still
    windows = [(i, u) for i, u in enumerate(got) if u.kind == units.WINDOW]
    assert len(windows) == 3  # notes 0-2, 2-4, 4-6; no partial window at the end
    for (row, w), first in zip(windows, (0, 2, 4), strict=True):
        members = [got[r] for r in range(row - w.span, row) if got[r].kind == LOG]
        assert [m.text for m in members] == [f"B: note {i}" for i in range(first, first + 3)]
        assert w.refs == tuple(f"s{i}" for i in range(first, first + 3)) and not w.ids
        assert w.embedded.startswith("2026-03-02: ") and "note" in w.embedded


def test_appending_notes_never_changes_earlier_windows(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from agent_sleep.retrieval import units

    monkeypatch.setattr(units, "WINDOW_NOTES", 4)
    monkeypatch.setattr(units, "WINDOW_STRIDE", 2)
    before = units_of("memory/2026-03-02.md", _log(9))
    after = units_of("memory/2026-03-02.md", _log(12))
    assert after[: len(before)] == before


def test_no_windows_unless_configured() -> None:
    from agent_sleep.retrieval import units

    assert units.WINDOW_NOTES == 0  # shipped off: measured below single notes on LoCoMo
    assert all(u.kind == LOG for u in units_of("memory/2026-03-02.md", _log(12)))
