"""A task the agent wrote down ("TODO: confirm DJ playlist …") is a next-session action, ahead
of intentions read in other notes (five weeks of a wedding planner's notes: ten TODO lines,
none surfaced, while "Follow up: Jorge wants to give a toast in Spanish" was)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.providers import offline
from agent_sleep.providers.offline_rem import written_task


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
    assert written_task("TODO: confirm DJ playlist.") == "confirm DJ playlist."
    assert written_task("todo call the florist") == "call the florist"
    assert written_task("To do - book the room.") == "book the room."
    assert written_task("Action item: send the invoice") == "send the invoice"
    for not_a_task in (
        "Tasks are tracked in Jira.",
        "Todoist is our to-do app.",
        "Today we shipped the release.",
        "Action movies are her favourite.",
        "TODO: who owns the arch?",  # a question is asked as a question
    ):
        assert written_task(not_a_task) == "", not_a_task


def test_a_task_is_listed_once_as_a_task_not_as_an_open_question(ws: Path) -> None:
    day = dt.datetime(2026, 11, 3, 9, 0)
    for k, (kind, text) in enumerate(
        [("S", "todo: book the tasting"),
         ("W", "Not sure whether the arch is included in the venue fee.")]
    ):  # fmt: skip
        micro_rest(text, kind, workspace=ws, when=day + dt.timedelta(minutes=k))
    sleep_cycle(ws, provider="offline", now=day.replace(hour=22))
    log = (ws / "memory" / "2026-11-03.md").read_text()
    actions = log.split("## Next session")[1]
    assert "To do: book the tasting" in actions
    assert "Find out: todo" not in actions
    assert "Find out: Not sure whether the arch is included" in actions


def test_search_shows_a_task_and_its_action_once(ws: Path) -> None:
    """The next-session action says its note again ("S: To do: book the tasting" for "S: todo:
    book the tasting"): search shows one hit that cites both (an on-call assistant's search
    had shown every TODO twice)."""
    from agent_sleep import recall

    day = dt.datetime(2026, 11, 3, 9, 0)
    micro_rest("todo: book the tasting", "S", workspace=ws, when=day)
    micro_rest("Jorge wants to give a toast in Spanish.", "W", workspace=ws, when=day)
    sleep_cycle(ws, provider="offline", now=day.replace(hour=22))
    hits = recall(ws, "book the tasting", k=6)
    said = [h for h in hits if "book the tasting" in h.text]
    assert len(said) == 1
    assert len(said[0].sources) >= 2  # the action and the note it says again


def test_an_opinions_wish_is_no_task_and_a_plan_for_next_week_is() -> None:
    """ "Lena wants to keep the learning rate at 2e-5; no more sweeps" (an O note) came back
    as "Follow up: …" at every session start, while "Next week: Nina Park onsite Nov 2" (the
    last day's plan) did not (exploratory tests of a researcher's and a manager's notes)."""
    notes = [
        _n("o1", "Lena wants to keep the learning rate at 2e-5; no more sweeps.", "O"),
        _n("o2", "Marco wants to cap panettone at 80 this year.", "O"),
        _n("s1", "Next week: Nina Park onsite on Nov 2, then the debrief.", "S"),
    ]
    out = offline.rem({"notes": notes, "memory": [], "open_questions": [], "bank_pages": []})
    texts = [a["text"] for a in out["next_session_actions"]]
    assert not any("Lena" in t or "panettone" in t for t in texts), texts
    assert any("Nina Park onsite" in t for t in texts), texts


def test_a_fact_about_the_future_is_no_task_unless_it_names_its_day() -> None:
    """ "Daniel will be the only driver" came back as "Follow up: …" at the session start (a
    travel planner's notes): something to come said of someone else is a follow-up when it
    names its day, and what one means to do oneself is one either way."""
    notes = [
        _n("f1", "Daniel will be the only driver on the trip.", "W"),
        _n("f2", "The new router will be installed on Dec 2 by the landlord's electrician.", "W"),
        _n("f3", "We will pick the cake flavours at the tasting.", "W"),
    ]
    out = offline.rem({"notes": notes, "memory": [], "open_questions": [], "bank_pages": []})
    texts = [a["text"] for a in out["next_session_actions"]]
    assert not any("only driver" in t for t in texts), texts
    assert any("router" in t for t in texts) and any("cake flavours" in t for t in texts), texts


def test_what_falls_due_each_month_is_no_follow_up() -> None:
    """ "Rent is £640 a month, due on the 1st" came back as "Follow up: …", and after the rent
    changed, recall's first hit for the rent was that stale line (a student's notes): a sum
    that falls due again and again is a standing fact. A one-off deadline still is a task."""
    notes = [
        _n("r1", "Rent is £640 a month, due on the 1st.", "W"),
        _n("g1", "The grant report is due on the 14th.", "W"),
        # a restaurant's notes: "Follow up: Premises licence …" at every session start
        _n("l1", "Premises licence is held by Sam as DPS; renewal fee due each January.", "W"),
    ]
    out = offline.rem({"notes": notes, "memory": [], "open_questions": [], "bank_pages": []})
    texts = [a["text"] for a in out["next_session_actions"]]
    assert not any("Rent" in t or "licence" in t for t in texts), texts
    assert any("grant report" in t for t in texts), texts


def test_a_standing_rule_said_with_should_is_no_follow_up() -> None:
    """ "Agency payments should go to the Qonto account" is how things stand; it was listed as
    "Follow up: …" at every session start. Someone's "should" still is one."""
    notes = [
        _n("b1", "Agency payments should go to the Qonto account, not the old Sparkasse one."),
        _n("b2", "All invoices should quote the budget code FAC-2291 from now on."),
        _n("b3", "Jamie should confirm the florist's delivery window with the venue."),
    ]
    out = offline.rem({"notes": notes, "memory": [], "open_questions": [], "bank_pages": []})
    texts = [a["text"] for a in out["next_session_actions"]]
    assert texts == [
        "Follow up: Jamie should confirm the florist's delivery window with the venue."
    ]


def test_someone_else_away_is_no_follow_up() -> None:
    notes = [
        _n("b1", "Priya will be on holiday October 19-23.", "W"),
        _n("b2", "Tom will be out of the office on Friday.", "W"),
        _n("b3", "The plumber will be here on Friday at 9am.", "W"),
        _n("b4", "I will be away on Friday, so book the van for Monday.", "W"),
    ]
    out = offline.rem({"notes": notes, "memory": [], "open_questions": [], "bank_pages": []})
    sources = {s for a in out["next_session_actions"] for s in a["sources"]}
    assert "b1" not in sources and "b2" not in sources  # a fact about those days
    assert {"b3", "b4"} <= sources  # a visit to come, and one's own plan, stay
