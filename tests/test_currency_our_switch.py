"""A switch of ours named by what it leaves, a change put on the standing fact before the event
that named the old value, and a person's own date kept theirs.

Found replaying a law firm's IT admin's and a carer's five weeks of notes: "Switched from
Zenfibre to Brightwave today: the 500 Mbps line is live …" left "Our broadband is Zenfibre"
standing (it shares no other word with it); "Switched Mum's prescriptions from Boots to Lloyds
Pharmacy" retired "Picked up Mum's repeat prescription from Boots" and left "Mum's
prescriptions go to Boots" standing; "Raj Patel from litigation is leaving too; his last day is
2 October" retired Jenny Cole's last day.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import distill
from agent_sleep.providers import offline_currency
from tests.currency_support import replaced, replaces

BROADBAND = "Our broadband is Zenfibre, an 80/20 FTTC line; the contract ends 30 September."


@pytest.mark.parametrize(
    "new",
    [
        "Switched from Zenfibre to Brightwave today.",
        "Switched from Zenfibre to Brightwave today: the 500 Mbps line is live and the FortiGate "
        "is on the new static IP.",
    ],
)
def test_a_switch_of_ours_replaces_what_it_leaves(new: str) -> None:
    assert replaces(("W", BROADBAND), ("W", new))


def test_a_switch_of_ours_is_no_move_of_someone_named() -> None:
    assert not replaces(("W", "Dave Kirkby lives in Leeds."), ("W", "Moved from Leeds to York."))


def test_the_standing_fact_is_put_right_before_the_event() -> None:
    memory = [
        {"id": "fact", "type": "W", "text": "Mum's prescriptions go to Boots on the High Street.",
         "date": "2026-09-07"},
        {"id": "event", "type": "B", "text": "Picked up Mum's repeat prescription from Boots.",
         "date": "2026-09-10"},
    ]  # fmt: skip
    new = ("B", "Switched Mum's prescriptions from Boots to Lloyds Pharmacy on Mill Road.")
    assert replaced(new, memory, day="2026-09-30") == ["fact"]


def test_a_persons_own_date_stays_theirs() -> None:
    jenny = "Jenny Cole from conveyancing is leaving; her last day is 25 September."
    assert not replaces(
        ("W", jenny), ("W", "Raj Patel from litigation is leaving too; his last day is 2 October.")
    )
    assert replaces(("W", jenny), ("W", "Jenny Cole's last day is now 2 October."))


def test_no_longer_using_it_replaces_the_fact_before_a_view_of_it() -> None:
    memory = [
        {"id": "fact", "type": "W", "date": "2026-09-08",
         "text": "Practice management system is Casewise v8, running on our own server."},
        {"id": "view", "type": "O", "date": "2026-09-20",
         "text": "Casewise is clunky and the partners hate its time recording."},
    ]  # fmt: skip
    new = ("W", "We're no longer using Casewise; Lawbase is live for all fee earners.")
    assert replaced(new, memory, day="2026-10-05") == ["fact"]


def test_a_time_of_day_that_opens_notes_is_no_name() -> None:
    notes = [
        "Evening carer visit is at 6pm.",
        "Evening carer Dave is great with Mum, she lights up when he comes.",
        "Morning carer visit is at 9:15am.",
    ]
    known = distill.known_names(notes)
    assert "Evening" not in known and "Dave" in known
    memory = [{"id": "evening", "type": "W", "text": notes[0], "date": "2026-09-08"}]
    assert replaced(("W", notes[2]), memory, known, day="2026-09-22") == []


def test_memorys_entry_is_put_right_before_a_bank_copy() -> None:
    fact = {"id": "memory", "type": "W", "text": "Dana's timezone is CET (Berlin).",
            "date": "2026-11-02"}  # fmt: skip
    copy = {"id": "bank", "type": "W", "text": "Dana's timezone is CET (Berlin).",
            "date": "2026-11-03"}  # fmt: skip
    new = "Dana relocated to Lisbon, so their timezone is WET now."
    out = offline_currency.supersedes(
        [("W", new, ["n1"], 0.8, "2026-11-30")], [fact], [copy], frozenset(),
        offline_currency.similarity(),
    )  # fmt: skip
    assert [u["replaces"] for u in out.values()] == ["memory"]
