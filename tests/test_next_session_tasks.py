"""A task the agent wrote down ("TODO: confirm DJ playlist …") is a next-session action, ahead
of intentions read in other notes (five weeks of a wedding planner's notes: ten TODO lines,
none surfaced, while "Follow up: Jorge wants to give a toast in Spanish" was)."""

from __future__ import annotations

from typing import Any

from agent_sleep.providers import offline
from agent_sleep.providers.offline_rem import _task


def _n(i: str, text: str, kind: str = "W") -> dict[str, Any]:
    return {"id": i, "type": kind, "text": text, "date": "2026-11-03", "time": "12:10"}


def test_a_written_task_is_an_action_first() -> None:
    notes = [
        _n("a1", "Jorge wants to give a toast in Spanish at the reception.", "O"),
        _n("a2", "Ana plans to finalise the seating chart next week.", "W"),
        _n("a3", "Venue deposit of $5,000 is due on December 1.", "W"),
        _n("a4", "Jamie should confirm the florist's delivery window.", "W"),
        _n("a5", "We will pick the cake flavours at the tasting.", "W"),
        _n("a6", "TODO: confirm DJ playlist with Ana and Ben by mid-December.", "S"),
        _n("a7", "Next step: send Lumen Studio the shot list.", "S"),
    ]
    out = offline.rem({"notes": notes, "memory": [], "open_questions": [], "bank_pages": []})
    texts = [a["text"] for a in out["next_session_actions"]]
    assert texts[:2] == [
        "To do: confirm DJ playlist with Ana and Ben by mid-December.",
        "To do: send Lumen Studio the shot list.",
    ]
    assert out["next_session_actions"][0]["sources"] == ["a6"]
    assert not any("TODO" in t for t in texts)  # said once, as the task


def test_what_reads_as_a_task_label() -> None:
    assert _task("TODO: confirm DJ playlist.") == "confirm DJ playlist."
    assert _task("todo call the florist") == "call the florist"
    assert _task("To do - book the room.") == "book the room."
    assert _task("Action item: send the invoice") == "send the invoice"
    for not_a_task in (
        "Tasks are tracked in Jira.",
        "Todoist is our to-do app.",
        "Today we shipped the release.",
        "Action movies are her favourite.",
        "TODO: who owns the arch?",  # a question is asked as a question
    ):
        assert _task(not_a_task) == "", not_a_task
