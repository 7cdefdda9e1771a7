"""The session start shows the day each MEMORY.md entry was last said (" (said 1 Sep)"):
an update sleep could not read as one leaves two entries side by side, and without their days
nothing told a session which came last (MEMORY.md keeps them in ``date=``, which the view used to
strip with the rest of the metadata)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import get_context
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval.context import memory_section, said_on


def _sleep_day(ws: Path, day: str, texts: list[str]) -> None:
    for k, text in enumerate(texts):
        micro_rest(text, "W", workspace=ws, when=dt.datetime.fromisoformat(f"{day}T09:{k:02d}"))
    sleep_cycle(ws, "both", "offline", now=dt.datetime.fromisoformat(f"{day}T21:00"))


def test_two_entries_left_side_by_side_tell_which_came_last(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    Workspace.at(ws).ensure()
    old = "Deploys go out from the Jenkins box in the server room."
    new = "GitLab pipelines ship every deploy for the team."
    _sleep_day(ws, "2026-08-03", [old, "The print server is called Quill."])
    _sleep_day(ws, "2026-09-14", [new])
    memory = (ws / "MEMORY.md").read_text()
    assert old in memory and new in memory  # sleep kept both: no change word, no shared value
    text = get_context(workspace=ws, today=dt.date(2026, 9, 20))
    assert f"- W: {old} (said 3 Aug)\n" in text
    assert f"- W: {new} (said 14 Sep)\n" in text
    assert "<!--" not in text


def test_an_entry_without_a_valid_date_shows_none() -> None:
    memory = (
        "## Facts\n\n"
        "- W: Prefers tea to coffee.\n"  # written by hand
        "- W: The cat is called Miso. <!-- id=aaaaaaaaaa date=2026-13-45 -->\n"  # a bad date
        "- W: The car is a blue Corsa. <!-- id=bbbbbbbbbb date=2026-09-02 -->\n"
    )
    shown = memory_section(memory, 3000, today=dt.date(2026, 9, 3))
    assert "- W: Prefers tea to coffee.\n" in shown
    assert "- W: The cat is called Miso.\n" in shown
    assert shown.endswith("- W: The car is a blue Corsa. (said 2 Sep)")


def test_a_contested_entry_says_its_day_and_the_dispute() -> None:
    memory = (
        "## Facts\n\n- W: The gate code is 4471. "
        "<!-- id=aaaaaaaaaa date=2026-09-02 contested=cccccccccc -->\n"
    )
    shown = memory_section(memory, 3000, today=dt.date(2026, 9, 3))
    assert shown.endswith(
        "- W: The gate code is 4471. (said 2 Sep; contested: a newer, weaker note disputes it)"
    )


def test_the_days_count_against_the_budget() -> None:
    entries = [
        f"- W: Fact number {k} about the allotment shed. <!-- id=a{k:09d} date=2026-09-{k:02d} -->"
        for k in range(1, 21)
    ]
    memory = "## Facts\n\n" + "\n".join(entries) + "\n"
    shown = memory_section(memory, 400, today=dt.date(2026, 9, 30))
    body, _, notice = shown.rpartition("\n\n[MEMORY.md trimmed")
    assert notice and len(body) <= 400
    assert body.count(" Sep)") == body.count("- W: ") > 0


@pytest.mark.parametrize(
    ("day", "today", "shown"),
    [
        ("2026-09-14", "2026-09-14", "14 Sep"),
        ("2026-01-05", "2026-10-30", "5 Jan"),  # 298 days before
        ("2025-12-20", "2026-01-10", "20 Dec"),  # last year, three weeks ago
        ("2025-10-30", "2026-09-14", "30 Oct 2025"),  # 319 days: the year is said
        ("2026-09-20", "2026-09-14", "20 Sep 2026"),  # ahead of today (a clock set wrong)
    ],
)
def test_the_day_is_short_and_says_its_year_when_in_doubt(day: str, today: str, shown: str) -> None:
    assert said_on(dt.date.fromisoformat(day), dt.date.fromisoformat(today)) == shown


def test_an_old_entry_says_its_year() -> None:
    memory = "## Facts\n\n- W: The boiler is a Vaillant. <!-- id=aaaaaaaaaa date=2024-11-02 -->\n"
    assert memory_section(memory, 3000, today=dt.date(2026, 9, 3)).endswith(
        "- W: The boiler is a Vaillant. (said 2 Nov 2024)"
    )
