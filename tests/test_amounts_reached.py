"""An amount told as a change in the past tense ("grew to 46 people", "went up to £34 a month")
is a state the next change replaces (analysis/currency._reached): a chain of three values leaves
only the last in MEMORY.md, where the middle one used to stand beside it, read as an episode."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from tests.currency_support import replaces

REACHED = [
    ("Choir membership grew to 31 singers.", "Choir membership grew to 36 singers."),
    ("The allotment waiting list climbed to 14 names.",
     "The allotment waiting list climbed to 19 names."),
    ("The vet raised Bramble's dose to 2 tablets.", "The vet raised Bramble's dose to 3 tablets."),
    ("The swim club fee went up to £42 a term.", "The swim club fee went up to £45 a term."),
    ("Storage costs went down to $60 a month.", "Storage costs went down to $48 a month."),
]  # fmt: skip

OCCASIONS = [  # an amount of an occasion is an episode: the next occasion's is no change of it
    ("Orders jumped to 55 on the bank holiday.", "Orders jumped to 70 on the spring sale day."),
    ("Queue time went up to 40 minutes during the fire drill.",
     "Queue time went up to 25 minutes during the system upgrade."),
    ("Raffle takings grew to £210 at the summer fete.",
     "Raffle takings grew to £380 at the carol concert."),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new"), REACHED)
def test_an_amount_reached_is_replaced_by_the_next(old: str, new: str) -> None:
    assert replaces(("W", old), ("W", new))


@pytest.mark.parametrize(("old", "new"), OCCASIONS)
def test_an_amount_of_an_occasion_is_kept(old: str, new: str) -> None:
    assert not replaces(("W", old), ("W", new))


def test_a_chain_of_three_amounts_leaves_only_the_last(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    Workspace.at(ws).ensure()
    chain = [
        ("2026-09-01", "The choir's hall hire is £55 an evening."),
        ("2026-09-20", "The choir's hall hire went up to £60 an evening."),
        ("2026-10-12", "The choir's hall hire went up to £66 an evening."),
    ]
    other = "Rehearsals use the upright piano in the side room."
    for k, (day, text) in enumerate(chain):
        micro_rest(text, "W", workspace=ws, when=dt.datetime.fromisoformat(f"{day}T10:00"))
        if not k:
            micro_rest(other, "W", workspace=ws, when=dt.datetime.fromisoformat(f"{day}T10:05"))
        sleep_cycle(ws, "both", "offline", now=dt.datetime.fromisoformat(f"{day}T22:00"))
    current = [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text()) if n.id]
    assert [t for t in current if "hall hire" in t] == [chain[-1][1]]
    assert other in current
    history = "".join(p.read_text() for p in (ws / "bank").rglob("*.md"))
    assert "£60 an evening" in history  # the middle amount is filed, not lost


@pytest.mark.parametrize(
    ("old", "new", "replaced"),
    [
        ("The warehouse has 12 pallets of stock.",
         "The warehouse is down to 7 pallets of stock now.", True),
        ("Our choir has 28 members.", "Our choir is now 33 members strong.", True),
        ("The office has 4 meeting rooms.", "The office is 4 minutes from the station.", False),
        ("The minibus has 16 seats.", "The minibus is now 9 years old.", False),
        ("The course has 10 modules.", "The course is 10 weeks long.", False),
    ],
)  # fmt: skip
def test_a_count_of_one_thing_whatever_verb_holds_it(old: str, new: str, replaced: bool) -> None:
    """A count said with "has" and then with "is" ("has 12 pallets", "is down to 7 pallets") is
    of one thing; "has 4 meeting rooms" and "is 4 minutes from the station" are not."""
    assert replaces(("W", old), ("W", new)) is replaced
