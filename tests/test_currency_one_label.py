"""A note that is one thing's name and a short value gives that thing a new value.

An SRE's notes (an exploratory test): "Incident bridge is Zoom room 884-221-0937", then,
weeks later, "Incident bridge: meet.google.com/kvx-qwrt-pza". A room number and a web address
are values of different kinds, so no rule read the second as the first's new value, and both
stayed current. Where both notes are the same name and a short value and nothing else, the
newer value now replaces the older, whatever their kinds. A clause after the name, another
name, or "is" followed by what the thing is rather than a value, replaces nothing.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import currency
from tests.currency_support import replaces


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Incident bridge is Zoom room 884-221-0937.",
            "Incident bridge: meet.google.com/kvx-qwrt-pza",
        ),
        ("Wifi password: tulip-42", "Wifi password: kestrel-77"),
        ("Office address: 12 Main St", "The office address is 40 Quay Road."),
    ],
)
def test_the_same_name_with_a_new_value(old: str, new: str) -> None:
    assert replaces(("W", old), ("W", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Standup: 9:30 daily on Zoom.", "Standup: Hana is out Friday."),  # a clause
        ("Dana's phone: 555-0142", "Dana's email: dana@example.com"),  # another name
        ("Everly Bakeries is on the Starter plan.",
         "Everly Bakeries is based in Auckland with 12 stores."),  # what it is, no value
        ("Incident bridge is Zoom room 884-221-0937.",
         "Incident bridge: Zoom room 884-221-0937"),  # the same value
    ],
)  # fmt: skip
def test_no_new_value_of_the_same_name(old: str, new: str) -> None:
    assert not replaces(("W", old), ("W", new))


def test_a_role_and_who_holds_it_then_more_is_no_chat_turn() -> None:
    """A choir's "Treasurer: Graham Oakes. Subs queries and receipts go to him." read as a chat
    turn (a label, then two sentences), so it was compared with nothing and Priya stayed
    treasurer. A role a label names is no speaker; the first sentence gives the role anew."""
    assert replaces(
        ("W", "Treasurer is Priya Nandakumar."),
        ("W", "Treasurer: Graham Oakes. Subs queries and receipts go to him."),
    )
    assert currency._chat("Caroline: Hey Mel! Good to see you. How have you been?")
