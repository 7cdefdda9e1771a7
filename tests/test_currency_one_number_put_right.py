"""A newer number for one part of an entry that holds several facts puts that number right.

Exploratory tests, untuned: "billing-api listens on port 8080 and runs on Postgres 13", then
weeks later "… it's on Postgres 15 now", retired the entry whole, so the port left MEMORY.md;
a café's new order size took its contact and delivery time with it, and a new hydration took a
formula's salt and levain. The entry is now rewritten with the one number changed, when the
note gives exactly one new number beside a word the entry has a number beside.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import currency
from agent_sleep.core import notes

CASES = [
    (
        "billing-api listens on port 8080 and runs on Postgres 13.",
        "Priya finished the billing-api database upgrade over the weekend; it's on Postgres 15 "
        "now.",
        "billing-api listens on port 8080 and runs on Postgres 15.",
    ),
    (
        "Café Lumen (contact Mei Tanaka) has a standing order: 40 croissants and 12 sourdough "
        "loaves every day, delivered by 7:30.",
        "Café Lumen standing order: 55 croissants and 12 sourdough loaves a day.",
        "Café Lumen (contact Mei Tanaka) has a standing order: 55 croissants and 12 sourdough "
        "loaves every day, delivered by 7:30.",
    ),
    # the same said of two people: only the part of the one the note names (household admin
    # notes: Sam's card had left MEMORY.md with Noor's old one)
    (
        "Noor's debit card ends 4417, Sam's debit card ends 2256.",
        "Noor's new Nationwide debit card arrived; it ends 8032.",
        "Noor's debit card ends 8032, Sam's debit card ends 2256.",
    ),
    (
        "Country sourdough formula: 75% hydration, 2% salt, 20% levain.",
        "Country sourdough is now at 78% hydration after the trial.",
        "Country sourdough formula: 78% hydration, 2% salt, 20% levain.",
    ),
]


@pytest.mark.parametrize(("old", "new", "want"), CASES)
def test_the_one_number_is_put_right(old: str, new: str, want: str) -> None:
    assert currency.in_place(new, old) == want


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # two numbers anew: no one value to put right
        ("Order: 40 croissants and 12 loaves, delivered by 7:30.",
         "Order: 55 croissants and 14 loaves."),
        # the number beside no word the entry has a number beside
        ("billing-api listens on port 8080 and runs on Postgres 13.",
         "billing-api now answers in 40 ms."),
        # one fact only: the entry is replaced, not edited
        ("The rent is £1,850 a month.", "The rent is £1,920 a month."),
        # another number anew the word does not show ("11pm"), or another name ("Revolut")
        ("Closing time is 10pm every night, last orders at 9:30.",
         "Closing time pushed to 11pm nightly; kitchen takes last orders at 10:30."),
        ("Account for client payments: Wise, IBAN ending 7731.",
         "Client payments should land in my Revolut Business account, IBAN ending 0458."),
        # a different kind of number beside the word
        ("Postgres 13 and Redis 7 run on the box.", "Postgres $15 and Redis 7 run on the box."),
    ],
)  # fmt: skip
def test_nothing_to_put_right(old: str, new: str) -> None:
    assert currency.in_place(new, old) is None


def test_sleep_keeps_the_port_and_takes_the_new_version(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    old, new, want = CASES[0]
    first = dt.datetime(2026, 9, 30, 9, 0)
    micro_rest(old, "W", workspace=ws, when=first)
    sleep_cycle(ws, provider="offline", now=first.replace(hour=22))
    later = dt.datetime(2026, 10, 23, 9, 0)
    micro_rest(new, "W", workspace=ws, when=later)
    sleep_cycle(ws, provider="offline", now=later.replace(hour=22))
    current = [b.note.text for b in notes.parse((ws / "MEMORY.md").read_text()).blocks if b.note]
    assert any(want in text for text in current), current
    assert not any("Postgres 13" in text for text in current)


def test_a_new_phone_number_is_put_right_in_the_persons_entry(tmp_path: Path) -> None:
    """ "Luis got a new cell number, 555-0129; his old number is disconnected" left "Plumber is
    Luis Ortega of Ortega Plumbing, 555-0187, luis@…" current, and search ranked the dead
    number first (a renovation's notes): the entry now takes the new number, its email kept."""
    old = "Plumber is Luis Ortega of Ortega Plumbing, 555-0187, luis@ortegaplumbing.com."
    new = "Luis got a new cell number, 555-0129; his old number is disconnected."
    want = "Plumber is Luis Ortega of Ortega Plumbing, 555-0129, luis@ortegaplumbing.com."
    assert currency.number_put_right(new, old) == want
    # someone else's number, or a number said again, puts nothing right
    tom = "General contractor is Tom Hadley, phone 555-0142, tom@hadleyhomes.com."
    assert currency.number_put_right("Karen's new number is 555-0199.", tom) is None
    assert currency.number_put_right("Priya asked for Tom's number: 555-0142.", tom) is None
    # a second number of one firm is no new number of its first
    support = "Acme's support line is 555-0100, staffed 9 to 5."
    assert currency.number_put_right("Acme's new sales line: 555-0199.", support) is None
    ws = tmp_path / "ws"
    for when, text in [(dt.datetime(2026, 3, 3, 9), old), (dt.datetime(2026, 3, 19, 9), new)]:
        micro_rest(text, "W", workspace=ws, when=when)
        sleep_cycle(ws, provider="offline", now=when.replace(hour=22))
    current = [b.note.text for b in notes.parse((ws / "MEMORY.md").read_text()).blocks if b.note]
    assert any(want in text for text in current), current
    assert not any("555-0187" in text for text in current)


def test_an_entry_put_right_by_an_event_stays_a_fact(tmp_path: Path) -> None:
    """The card's new number came in an event note ("… arrived; it ends 8032"): the entry put
    right keeps Sam's card and stays a fact (W), not the event's kind."""
    ws = tmp_path / "ws"
    days = [
        (
            dt.datetime(2026, 3, 2, 9),
            "W",
            "Noor's debit card ends 4417, Sam's debit card ends 2256.",
        ),
        (
            dt.datetime(2026, 3, 20, 9),
            "B",
            "Noor's new Nationwide debit card arrived; it ends 8032.",
        ),
    ]
    for when, kind, text in days:
        micro_rest(text, kind, workspace=ws, when=when)
        sleep_cycle(ws, provider="offline", now=when.replace(hour=22))
    current = [b.note for b in notes.parse((ws / "MEMORY.md").read_text()).blocks if b.note]
    assert [(n.type, n.text) for n in current] == [
        ("W", "Noor's debit card ends 8032, Sam's debit card ends 2256.")
    ]


def test_a_persons_own_number_said_as_it_is_now() -> None:
    """A bookkeeper's notes: "Grace O'Neill's mobile is 07700 900456" left her old number in
    "Copper Kettle Cafe (owner Grace O'Neill, mobile 07700 900123) is on QuickBooks Online":
    only a number said to be new was put right. Her own number, said next to her name, is."""
    from agent_sleep.analysis import currency

    old = "Copper Kettle Cafe (owner Grace O'Neill, mobile 07700 900123) is on QuickBooks Online."
    assert currency.number_put_right("Grace O'Neill's mobile is 07700 900456.", old) == (
        "Copper Kettle Cafe (owner Grace O'Neill, mobile 07700 900456) is on QuickBooks Online."
    )
    # another person's number is not hers
    assert currency.number_put_right("Leah Kim's mobile is 07700 900456.", old) is None
