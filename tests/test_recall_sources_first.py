"""The fact first, sleep's record of it after.

After "The 2025 federal tax return is due April 15" was replaced by "… the 2025 return is now
due October 15", recall's first hit for "when is the 2025 tax return due" was sleep's own line
"Changed on …: … April 15. → … October 15" (a photographer's five weeks of notes): it ranks
as high as the entry, and quotes the old value first. A line sleep wrote about other notes now
comes just below the best unit that says what it quotes.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from agent_sleep import micro_rest, recall, sleep_cycle
from agent_sleep.retrieval import currency
from agent_sleep.retrieval.units import Unit


def test_the_entry_comes_before_the_change_record(tmp_path: Path) -> None:
    # the whole path, sleep to search; in a workspace this small the entry also ranked first
    # before the move, so the test below, of the move itself, is the one that fails without it
    ws = tmp_path / "ws"
    days = [
        (dt.datetime(2026, 4, 8, 9), "The 2025 federal tax return is due April 15."),
        (dt.datetime(2026, 4, 10, 9), "Deborah filed an extension, so the 2025 return is now due "
                                      "October 15."),
    ]  # fmt: skip
    for when, text in days:
        micro_rest(text, "W", workspace=ws, when=when)
        sleep_cycle(ws, provider="offline", now=when.replace(hour=22))
    logs = "".join(p.read_text() for p in (ws / "memory").glob("*.md"))
    assert "Changed on 2026-04-10" in logs  # the record the test is about was written
    hits = recall(ws, "when is the 2025 tax return due", budget_tokens=800)
    first = hits[0]
    assert "October 15" in first.text and "Changed on" not in first.text, first.text
    records = [k for k, h in enumerate(hits) if "Changed on" in h.text]
    assert records and records[0] > 0  # still found, below the fact


class _Index:
    def __init__(self, units: list[Unit]) -> None:
        self.units = units


def test_a_record_ranked_first_moves_below_what_it_quotes() -> None:
    units = [
        Unit("daily", "memory/2026-04-10.md",
             "S: Changed on 2026-04-10: The 2025 return is due April 15. → … now due October 15.",
             "2026-04-10", ids=("c1",), cites=("n2",)),
        Unit("daily", "memory/2026-04-08.md", "W: Deborah Klein is the accountant.",
             "2026-04-08", ids=("n1",)),
        Unit("memory", "MEMORY.md", "W: Deborah filed an extension; the return is now due "
             "October 15.", "2026-04-10", ids=("m2",), cites=("n2",)),
        Unit("daily", "memory/2026-04-10.md", "S: Follow up: book the dentist.", "2026-04-10",
             ids=("f1",), cites=("n9",)),  # what it quotes is not among the hits: it stays
    ]  # fmt: skip
    ranked = [(1.0, 0), (0.9, 1), (0.8, 2), (0.7, 3)]
    out = currency.sources_first(_Index(units), ranked)  # type: ignore[arg-type]
    assert [row for _s, row in out] == [1, 2, 0, 3]
    assert [s for s, _row in out] == [1.0, 0.9, 0.8, 0.7]


def test_a_connection_of_two_notes_stays_where_it_ranks() -> None:
    """Sleep's "A ↔ B — both about …" line quotes two notes; where sleep kept the older entry
    ("Yuki drives a Golf" beside "Yuki sold the Golf and bought a Tesla"), it may be the one hit
    that tells of both. Moved below its newer note, recall's first hit lost 8 of the currency
    benchmark's new values, so it stays where it ranks."""
    units = [
        Unit("daily", "memory/2026-09-29.md",
             "S: Yuki sold the Golf and bought a Tesla. ↔ Yuki drives a Golf. — both about Yuki "
             "and Golf: 2026-09-01 and 2026-09-29", "2026-09-29", ids=("l1",),
             cites=("n3", "n1")),
        Unit("daily", "memory/2026-09-29.md", "B: Yuki sold the Golf and bought a Tesla.",
             "2026-09-29", ids=("n3",)),
        Unit("memory", "MEMORY.md", "W: Yuki drives a Golf.", "2026-09-01", ids=("m1",),
             cites=("n1",)),
    ]  # fmt: skip
    ranked = [(1.0, 0), (0.9, 1), (0.85, 2)]
    assert currency.sources_first(_Index(units), ranked) == ranked  # type: ignore[arg-type]
