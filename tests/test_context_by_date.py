"""A trimmed MEMORY.md keeps each section's newest entries by their dates, not by their place.

Sleep puts a replacement where the entry it replaces stood, often near the top of its section.
The session-start block took "newest" to mean "last in the file", so over the budget the current
"ledger-api is on Python 3.12" (written 2026-12-01, first in its section) was cut as an older
entry while month-old entries below it were shown (an exploratory test). Now the entries are
chosen by their ``date=``; an entry without one counts as written with the dated entry above it.
"""

from __future__ import annotations

import re
from pathlib import Path

from agent_sleep import get_context
from agent_sleep.retrieval.context import memory_section

CURRENT = "ledger-api is on Python 3.12 now, same as billing-api"


def _fact(k: int, day: str) -> str:
    meta = f" date={day}" if day else ""
    return (
        f"- W: Stable fact number {k} about the payments platform: component c{k} is owned by "
        f"team t{k} <!-- id=fact{k:06d} sources=note{k:05d}{meta} -->"
    )


def _memory(lines: list[str]) -> str:
    return "# MEMORY\n\n## Facts\n\n" + "\n".join(lines) + "\n"


def _shown(section: str) -> list[int]:
    """The fact numbers a memory section shows, in its order."""
    return [int(k) for k in re.findall(r"Stable fact number (\d+) ", section)]


def _sleep_written() -> str:
    """The layout the exploratory test saw: the replacement first, twenty facts of November
    below it, twenty of October below those."""
    replacement = (
        f"- W: {CURRENT} <!-- id=current001 sources=note00001 date=2026-12-01 "
        "supersedes=stale00001 -->"
    )
    november = [_fact(k, "2026-11-05") for k in range(10, 30)]
    october = [_fact(k, "2026-10-01") for k in range(30, 50)]
    return _memory([replacement, *november, *october])


def test_a_replacement_at_the_top_of_its_section_survives_the_trim() -> None:
    section = memory_section(_sleep_written(), 1500)
    assert CURRENT in section  # before: cut as one of the "older entries"
    shown = _shown(section)
    assert shown and all(10 <= k < 30 for k in shown)  # October's go first
    # of one day, the last in the file are the newest; shown in the file's order
    assert shown == list(range(30 - len(shown), 30))
    assert section.index(CURRENT) < section.index(f"number {shown[0]} ")
    assert f"{40 - len(shown)} older entries" in section and "max_memory_chars=1500" in section


def test_the_session_start_block_shows_the_current_value(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "MEMORY.md").write_text(_sleep_written())
    block = get_context(ws, max_memory_chars=3000)
    assert CURRENT in block and "Stable fact number 29 " in block
    assert "Stable fact number 30 " not in block and "trimmed" in block


def test_an_entry_without_a_date_counts_as_written_with_the_one_above_it() -> None:
    """One appended by hand under November's is as new as they are (and after them); one
    above every dated entry is older than all of them."""
    text = _memory(
        [
            _fact(1, ""),  # by hand, at the top: the oldest
            *(_fact(k, "2026-10-01") for k in range(10, 20)),
            *(_fact(k, "2026-11-05") for k in range(20, 30)),
            _fact(2, ""),  # by hand, at the end: with November's, after them
            *(_fact(k, "2026-09-01") for k in range(30, 40)),
        ]
    )
    shown = _shown(memory_section(text, 1000))
    assert 2 in shown and 29 in shown and 1 not in shown
    assert not [k for k in shown if k >= 30 or 10 <= k < 20]  # September, October: older
    assert shown.index(29) < shown.index(2)  # in the file's order


def test_a_section_without_dates_keeps_its_last_entries() -> None:
    shown = _shown(memory_section(_memory([_fact(k, "") for k in range(10, 50)]), 1000))
    assert shown == list(range(50 - len(shown), 50)) and len(shown) >= 5
