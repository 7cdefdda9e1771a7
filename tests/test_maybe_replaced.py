"""Entries a newer one may replace (consolidation/maybe_replaced.py): sleep marks what it could
not settle (``newer=``), the session start shows it, the next session is asked to settle it,
and nothing is retired."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from agent_sleep import get_context, recall
from agent_sleep.analysis import currency, update_model
from agent_sleep.consolidation import maybe_replaced
from agent_sleep.consolidation.journal import rollback
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.providers import offline_currency
from tests.conftest import run_cli
from tests.currency_support import replaces

FILLER = [
    "The office wifi network is called Harbour.",
    "Backups run nightly at 2am to the NAS.",
    "The staging database is pg-stage-2.",
    "Standup notes go in the #daily channel.",
    "The mobile app is written in Kotlin.",
]


def _day(ws: Path, day: str, texts: list[str]) -> None:
    """The notes of one day, then the night's offline sleep."""
    for k, text in enumerate(texts):
        micro_rest(text, "W", workspace=ws, when=dt.datetime.fromisoformat(f"{day}T10:{k:02d}"))
    sleep_cycle(ws, "both", "offline", now=dt.datetime.fromisoformat(f"{day}T22:00"))


def _entries(ws: Path) -> dict[str, notes.Note]:
    return {n.text: n for n in notes.notes_in((ws / "MEMORY.md").read_text()) if n.id}


@pytest.fixture
def marked(tmp_path: Path) -> Path:
    """A workspace where a later note reads like a replacement sleep is unsure of."""
    ws = tmp_path / "ws"
    Workspace.at(ws).ensure()
    _day(ws, "2026-09-01", ["The kids' swimming lessons are at Riverside pool.", *FILLER])
    _day(ws, "2026-10-02", ["The kids have swimming lessons at the Leisure Centre pool."])
    return ws


def test_the_older_entry_is_marked_not_retired(marked: Path) -> None:
    entries = _entries(marked)
    old = entries["The kids' swimming lessons are at Riverside pool."]
    new = entries["The kids have swimming lessons at the Leisure Centre pool."]
    assert old.meta.get("newer") == new.id  # both stay current in MEMORY.md
    assert not new.meta.get("newer")
    assert all(not n.meta.get("newer") for t, n in entries.items() if t in FILLER)


def test_the_session_start_shows_the_mark(marked: Path) -> None:
    text = get_context(workspace=marked, today=dt.date(2026, 10, 3))
    assert (
        "- W: The kids' swimming lessons are at Riverside pool. (said 1 Sep; may be out of "
        "date, said on 2 Oct: “The kids have swimming lessons at the Leisure Centre pool.”)"
    ) in text
    assert "<!--" not in text


def test_the_next_session_is_asked_to_settle_it(marked: Path) -> None:
    log = (marked / "memory" / "2026-10-02.md").read_text()
    assert "## Next session" in log
    check = next(line for line in log.splitlines() if "Check:" in line)
    assert (
        "Check: “The kids' swimming lessons are at Riverside pool” (2026-09-01) may be out of "
        "date, by a newer note: “The kids have swimming lessons at the Leisure Centre pool”. If "
        "it is, note the change; if it still holds, say it again"
    ) in check
    for day in (3, 9):  # shown at the next sessions, not read as past
        shown = get_context(workspace=marked, today=dt.date(2026, 10, day))
        assert "S: Check: “The kids' swimming lessons are at Riverside pool” (2026-09-01)" in shown


def test_search_names_the_newer_entry(marked: Path) -> None:
    hits = recall(marked, "where are the kids' swimming lessons", k=3)
    older = next(h for h in hits if "Riverside" in h.text)
    assert older.current
    assert older.newer == "2026-10-02: The kids have swimming lessons at the Leisure Centre pool."
    assert all(h.newer is None for h in hits if h is not older and "Check:" not in h.text)
    out = run_cli(
        "search", "where are the kids' swimming lessons", "-k", "3", "--workspace", str(marked)
    )
    assert out.returncode == 0, out.stderr
    assert (
        "  W: The kids' swimming lessons are at Riverside pool.\n  [may be out of date, said on "
        "2026-10-02: The kids have swimming lessons at the Leisure Centre pool.]"
    ) in out.stdout


def test_status_lists_the_marks(marked: Path) -> None:
    out = run_cli("status", "--workspace", str(marked), "--json")
    assert out.returncode == 0, out.stderr
    (mark,) = json.loads(out.stdout)["memory_maybe_out_of_date"]
    assert mark["text"] == "The kids' swimming lessons are at Riverside pool."
    assert mark["newer_text"] == "The kids have swimming lessons at the Leisure Centre pool."
    text = run_cli("status", "--workspace", str(marked)).stdout
    assert "May be out of date: 1 entry a newer entry reads like a replacement of" in text
    assert (
        "  The kids' swimming lessons are at Riverside pool.  ->  The kids have swimming "
        "lessons at the Leisure Centre pool."
    ) in text


def test_saying_the_old_fact_again_drops_the_mark(marked: Path) -> None:
    _day(marked, "2026-10-05", ["The kids' swimming lessons are at Riverside pool, still."])
    entries = _entries(marked)
    assert not any(n.meta.get("newer") for n in entries.values())
    assert "may be out of date" not in get_context(workspace=marked, today=dt.date(2026, 10, 6))
    assert all(h.newer is None for h in recall(marked, "where are the kids' swimming lessons", k=3))
    status = json.loads(run_cli("status", "--workspace", str(marked), "--json").stdout)
    assert status["memory_maybe_out_of_date"] == []


def test_telling_the_change_settles_it(marked: Path) -> None:
    """What the Check action asks for: a note that tells the change replaces the entry."""
    _day(
        marked,
        "2026-10-03",
        ["The swimming lessons moved from Riverside pool to the Leisure Centre pool."],
    )
    entries = _entries(marked)
    assert "The kids' swimming lessons are at Riverside pool." not in entries
    assert entries[
        "The swimming lessons moved from Riverside pool to the Leisure Centre pool."
    ].meta.get("supersedes")
    shown = get_context(workspace=marked, today=dt.date(2026, 10, 4))
    assert "may be out of date" not in shown and "Check:" not in shown


def test_rollback_takes_the_mark_back(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    Workspace.at(ws).ensure()
    _day(ws, "2026-09-01", ["The kids' swimming lessons are at Riverside pool.", *FILLER])
    before = (ws / "MEMORY.md").read_bytes()
    _day(ws, "2026-10-02", ["The kids have swimming lessons at the Leisure Centre pool."])
    assert b"newer=" in (ws / "MEMORY.md").read_bytes()
    rollback(ws)
    assert (ws / "MEMORY.md").read_bytes() == before


def test_look_alikes_are_not_marked(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    Workspace.at(ws).ensure()
    _day(ws, "2026-09-01", ["Free plan API limit: 60 requests per minute.", *FILLER])
    _day(ws, "2026-10-02", ["Enterprise plan API limit: 2000 requests per minute."])
    assert not any(n.meta.get("newer") for n in _entries(ws).values())


def test_likelihood_reads_a_possible_update() -> None:
    similar = offline_currency.similarity()
    assert similar is not None
    old, new = (
        "The kids' swimming lessons are at Riverside pool.",
        "The kids have swimming lessons at the Leisure Centre pool.",
    )
    assert not replaces(("W", old), ("W", new))  # sleep does not replace it
    p = maybe_replaced.likelihood(new, old, similar)
    assert p is not None and p >= maybe_replaced.MARK_THRESHOLD


def test_two_notes_sharing_only_a_name_are_compared_for_a_mark() -> None:
    """The refusal of notes that share only their owner holds for replacing, not for marks."""
    similar = offline_currency.similarity()
    old, new = "Imogen looks after the office plants.", "Felix took over watering from Imogen."
    other = currency.Verdict(currency.OTHER, currency.relation(new, old, frozenset(), similar).why)
    assert update_model.refused(new, old, other, similar)
    assert not update_model.refused(new, old, other, similar, owner_only=False)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Free plan API limit: 60 requests per minute.",
         "Enterprise plan API limit: 2000 requests per minute."),  # a qualifier of its own
        ("The office wifi network is called Harbour.", "Backups run nightly at 2am to the NAS."),
        ("The kids' swimming lessons are at Riverside pool.",
         "The kids' swimming lessons are at Riverside pool."),  # said again
        ("Team retro is every other Friday at 4pm.",
         "Retro this sprint was on Wednesday (2026-09-30) at 10am."),  # one episode
    ],
)  # fmt: skip
def test_likelihood_leaves_two_things_apart(old: str, new: str) -> None:
    similar = offline_currency.similarity()
    assert similar is not None
    assert maybe_replaced.likelihood(new, old, similar) is None


def _hand_written(ws: Path, lines: list[str]) -> None:
    Workspace.at(ws).ensure()
    (ws / "MEMORY.md").write_text("# MEMORY\n\n## Facts\n\n" + "".join(f"{x}\n" for x in lines))


def test_a_mark_naming_no_current_entry_is_not_shown(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    _hand_written(
        ws,
        [
            "- W: Lunch is at noon. <!-- id=aaaaaaaaaa date=2026-09-01 newer=zzzzzzzzzz -->",
            "- W: Dinner is at seven. <!-- id=bbbbbbbbbb date=2026-09-02 newer=aaaaaaaaaa -->",
        ],
    )
    text = get_context(workspace=ws, today=dt.date(2026, 9, 3))
    assert "- W: Lunch is at noon. (said 1 Sep)\n" in text  # names no entry MEMORY.md holds
    assert "- W: Dinner is at seven. (said 2 Sep; may be out of date, said on 1 Sep:" in text


def test_a_long_newer_entry_is_shown_cut_at_a_word(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    long = "The allotment water troughs are refilled from the new standpipe " + "by the gate " * 20
    _hand_written(
        ws,
        [
            "- W: Water comes from the old tap. "
            "<!-- id=aaaaaaaaaa date=2026-09-01 newer=bbbbbbbbbb -->",
            f"- W: {long.strip()}. <!-- id=bbbbbbbbbb date=2026-09-02 -->",
        ],
    )
    text = get_context(workspace=ws, today=dt.date(2026, 9, 3))
    line = next(x for x in text.splitlines() if x.startswith("- W: Water comes"))
    assert line.startswith(
        "- W: Water comes from the old tap. (said 1 Sep; may be out of date, said on 2 Sep: "
        "“The allotment water troughs are refilled from the new standpipe by the gate"
    )
    shown = line.split("“", 1)[1].removesuffix("…”)")
    assert line.endswith("…”)") and len(shown) < 100
    assert long.startswith(shown + " ")  # cut at a word's end


def test_marks_per_run_keeps_the_likeliest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the cap, the likeliest marks are kept; each older entry names its likeliest newer
    one; an entry never names one as old as itself."""
    odds = {
        "The printer is in room 4.": 0.9,
        "The spare keys hang in the kitchen.": 0.8,
        "Lunch orders go to Carla.": 0.5,
        "Staff parking permits cost £40 a year.": 0.7,
    }
    newer_a = "The car park closes at 8pm."

    def likelihood(new: str, old: str, _similar: object) -> float | None:
        return odds.get(old, 0.0) * (1.0 if new == newer_a else 0.5) if new != old else None

    monkeypatch.setattr(maybe_replaced, "likelihood", likelihood)
    monkeypatch.setattr(maybe_replaced, "MARKS_PER_RUN", 1)
    ws = tmp_path / "ws"
    Workspace.at(ws).ensure()
    _day(ws, "2026-09-01", [*odds, *FILLER])
    _day(ws, "2026-10-02", [newer_a, "Visitors sign in at reception."])
    entries = _entries(ws)
    held = sorted((t for t in odds if t in entries), key=lambda t: -odds[t])
    assert len(held) >= 2  # MEMORY.md holds some of them (the consolidator files the rest)
    a = entries[newer_a].id
    marks = {t: n.meta.get("newer") for t, n in entries.items() if n.meta.get("newer")}
    assert marks == {held[0]: a}
