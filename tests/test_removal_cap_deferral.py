"""A supersede the removal cap holds back is not lost: its notes stay pending, and the next
sleeps apply it, one cap at a time, until every update stands in MEMORY.md."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.core import notes

DAY1 = dt.datetime(2026, 11, 2, 10)
DAY2 = dt.datetime(2026, 11, 9, 10)
OLD = [
    "Standup is at 9:30 in the Huddle room.",
    "The API rate limit is 100 requests per minute.",
    "Staging lives at staging.example.com.",
    "Releases go out every Tuesday.",
]
NEW = [
    "Standup moved to 10:15.",
    "The API rate limit was raised to 600 requests per minute.",
    "Staging moved to preview.example.com.",
]


def _current(ws: Path) -> list[str]:
    text = (ws / "MEMORY.md").read_text(encoding="utf-8")
    return [n.text for n in notes.notes_in(text) if not n.meta.get("superseded_by")]


def test_the_next_sleeps_apply_what_the_cap_held_back(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    for text in OLD:
        micro_rest(text, "W", workspace=ws, when=DAY1)
    sleep_cycle(ws, "nrem", "offline", now=DAY1.replace(hour=22))
    for text in NEW:
        micro_rest(text, "W", workspace=ws, when=DAY2)
    first = sleep_cycle(ws, "nrem", "offline", now=DAY2.replace(hour=22))
    assert first.dropped.get("removal_cap", 0) >= 1  # 4 entries: one may go per run
    held_back = [t for t in NEW if t not in _current(ws)]
    assert held_back
    for minute in range(1, 4):
        sleep_cycle(ws, "nrem", "offline", now=DAY2.replace(hour=22, minute=minute))
    current = _current(ws)
    # the new time is put right in the standup's entry, its room kept
    now = ["Standup is at 10:15 in the Huddle room.", *NEW[1:]]
    assert all(t in current for t in now), current
    assert not any(t in current for t in OLD[:3]), current
    assert "Releases go out every Tuesday." in current  # nothing replaced it


def test_a_chain_of_changes_held_back_lands_whole_and_in_order(tmp_path: Path) -> None:
    """pytest 7.4 -> 8.1 (held back by the cap) -> 8.2 in the next week: 8.2 replaced a note
    the cap had deferred, was dropped as naming nothing known, and was marked consolidated,
    so MEMORY.md ended on 8.1 and nothing pending was left to fix it."""
    ws = tmp_path / "ws"
    facts = [
        "Alice lives in Berlin.",
        "The billing service is owned by Maria.",
        "We pin pytest to version 7.4.",
        "We use Jenkins for CI.",
        "Redis default port is 6379.",
    ]
    for i, text in enumerate(facts):
        micro_rest(text, "W", workspace=ws, when=DAY1.replace(minute=i))
    sleep_cycle(ws, "both", "offline", now=DAY1.replace(hour=22))
    week2 = ["Alice moved to Munich.", "The billing service is now owned by Dev."]
    for i, text in enumerate([*week2, "We bumped pytest to 8.1."]):
        micro_rest(text, "W", workspace=ws, when=DAY2.replace(minute=i))
    sleep_cycle(ws, "both", "offline", now=DAY2.replace(hour=22))
    day3 = DAY2 + dt.timedelta(days=7)
    for i, text in enumerate(
        ["We bumped pytest to 8.2.", "The billing service is now owned by Priya."]
    ):
        micro_rest(text, "W", workspace=ws, when=day3.replace(minute=i))
    for minute in range(6):
        sleep_cycle(ws, "both", "offline", now=day3.replace(hour=22, minute=minute))
    current = _current(ws)
    assert "We bumped pytest to 8.2." in current, current
    assert not {"We bumped pytest to 8.1.", "We pin pytest to version 7.4."} & set(current)
    assert "The billing service is now owned by Priya." in current
    assert sleep_cycle(ws, "both", "offline", now=day3.replace(hour=23)).pending_left == 0


def test_the_budget_never_moves_out_a_replacement_the_cap_let_in(ws: Path) -> None:
    """MEMORY.md over its budget, the cap spent by a supersede: before, the budget moved the
    replacement itself (this run's own entry) to the archive page, so the subject had no current
    value in MEMORY.md, the old one in History and the new one archived."""
    day1, day2, day3 = (dt.datetime(2026, 11, d, 9) for d in (2, 3, 4))
    micro_rest("Postgres upgraded to 16.2 over the weekend; no downtime.", "W",
               workspace=ws, when=day1)  # fmt: skip
    sleep_cycle(ws, provider="offline", now=day1.replace(hour=22))
    day2_notes = [
        "Kafka cluster events-prod has 3 brokers.",
        "Loki retention is 14 days.",
        "Service mesh: Linkerd.",
        "Session cache Redis lives on cache-prod-a.",
    ]
    for text in day2_notes:
        micro_rest(text, "W", workspace=ws, when=day2)
    sleep_cycle(ws, provider="offline", now=day2.replace(hour=22), memory_budget_chars=400)
    assert len(_current(ws)) == 2  # the budget moved the rest out
    micro_rest("Postgres minor bump to 16.4 done in the maintenance window.", "W",
               workspace=ws, when=day3)  # fmt: skip
    r = sleep_cycle(ws, provider="offline", now=day3.replace(hour=22), memory_budget_chars=400)
    assert r.decisions.get("memory_supersede") == 1, r
    current = _current(ws)
    assert "Postgres minor bump to 16.4 done in the maintenance window." in current, current
    assert not [t for t in current if "16.2" in t]


def test_an_update_of_an_entry_moved_out_at_the_budget_replaces_it(ws: Path) -> None:
    """An entry the budget moved to the archive page is still current knowledge: a later change
    of it replaced nothing, and the old and new renewal dates both stood current (an
    exploratory test of an account manager's notes). The note opens with the name only the
    entries write mid-sentence ("Globex's renewal date moved …")."""
    budget = 520

    def day(d: int, texts: list[str]) -> None:
        for text in texts:
            micro_rest(text, "W", workspace=ws, when=dt.datetime(2026, 11, d, 9))
        sleep_cycle(ws, provider="offline", now=dt.datetime(2026, 11, d, 18),
                    memory_budget_chars=budget)  # fmt: skip

    day(2, ["Mindy Park is the IT admin at Globex.", "Acme Corp is on the Growth plan.",
            "Initech prefers calls on Tuesdays."])  # fmt: skip
    day(4, ["Globex renews on 2027-01-15."])
    archive = ws / "bank" / "concepts" / "memory-archive.md"
    assert "Globex renews on 2027-01-15." in archive.read_text()  # moved out at the budget
    day(19, ["Globex's renewal date moved to 2027-02-28 after their budget freeze."])
    old = [n for n in notes.notes_in(archive.read_text()) if "2027-01-15" in n.text]
    assert old and all(n.meta.get("superseded_by") for n in old), old
    assert "2027-02-28" in (ws / "MEMORY.md").read_text()
