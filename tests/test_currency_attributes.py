"""Currency: an update must be about the same owner and the same attribute.

Two wrong supersedes this file guards against:

- a chain of possessors ("A's B's phone") names B's attribute, not A's: it never replaces
  what is said of A (nor the other way round);
- two changes the user made to different things ("switched to decaf", "switched to a
  mechanical keyboard") share the user as owner and a change verb, which says nothing of
  what changed: the one never replaces the other.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.analysis import currency, update_model
from agent_sleep.analysis.claims import claims
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core.rest import micro_rest

# (older, newer): the newer one is about a relative or a colleague of the older one's owner
CHAINED = [
    ("Lena's office phone is 020 7946 0011.", "Lena's assistant's office phone is 020 7946 0099."),
    ("Lena's assistant's office phone is 020 7946 0099.", "Lena's office phone is 020 7946 0011."),
    ("The user's dentist is Dr. Okoro.", "The user's daughter's dentist is Dr. Basu."),
    ("My car insurance renews on April 4.", "My brother's car insurance renews on August 20."),
    ("Omar's home address is 4 Elm Row.", "Omar's landlord's home address is now 9 Quay Street."),
]  # fmt: skip

# (older, newer): the user changed two different things
UNRELATED_CHANGES = [
    ("I switched to decaf in the afternoons.", "I switched to a mechanical keyboard at home."),
    ("I switched to a mechanical keyboard at home.", "I switched to decaf in the afternoons."),
    ("We relocated from Ottawa to Halifax.",
     "We switched from Postgres to SQLite for the prototype."),
    ("We switched from Postgres to SQLite for the prototype.",
     "We relocated from Ottawa to Halifax."),
    ("The user moved to Halifax.", "The user switched to Helix for writing code."),
    ("I replaced my bike helmet with a Giro Syntax.", "User switched to Brave for browsing."),
    ("I upgraded my router to a Netgear Orbi.", "I switched to Fastmail for personal mail."),
    ("I moved my savings to Starling.", "I switched to Obsidian for note taking."),
    ("The user changed banks to Starling.",
     "The user switched from Trello to Linear for planning."),
]  # fmt: skip

# (older, newer): still updates of one owner's one attribute
STILL_UPDATES = [
    ("Lena's assistant's extension is 4410.", "Lena's assistant's extension is now 4472."),
    ("Lena's assistant's extension is 4410.", "Lena's assistant's extension is 4472."),
    ("The user lives in Ottawa.", "The user moved to Halifax."),
    ("My editor is Sublime Text.", "I switched my editor to Helix."),
    ("I drink oat milk in my coffee.", "I switched to almond milk in my coffee."),
    ("I use a Kindle Paperwhite for reading.",
     "I replaced my Kindle Paperwhite with a Kobo Libra."),
]  # fmt: skip


def test_the_last_possessor_owns_the_attribute() -> None:
    [c] = claims("Lena's assistant's office phone is 020 7946 0099.")
    assert c.owner == {"assistant"} and c.whose == {"lena"} and "phone" in c.attrs
    [mine] = claims("My brother's car insurance renews on August 20.")
    assert mine.owner == {"brother"} and mine.whose == {"user"}
    [one] = claims("Lena's office phone is 020 7946 0011.")  # one possessor: unchanged
    assert one.owner == {"lena"} and not one.whose


@pytest.mark.parametrize(("old", "new"), CHAINED)
def test_a_possessive_chain_is_another_owner(old: str, new: str, similar: Any) -> None:
    assert currency.relation(new, old).kind != currency.SUPERSEDE
    assert currency.relation(new, old, similar=similar).kind != currency.SUPERSEDE
    assert update_model.relation(new, old, similar=similar).kind != currency.SUPERSEDE


@pytest.mark.parametrize(("old", "new"), UNRELATED_CHANGES)
def test_a_change_of_another_thing_of_the_user_is_no_update(
    old: str, new: str, similar: Any
) -> None:
    assert currency.relation(new, old).kind != currency.SUPERSEDE
    assert currency.relation(new, old, similar=similar).kind != currency.SUPERSEDE
    assert update_model.relation(new, old, similar=similar).kind != currency.SUPERSEDE


@pytest.mark.parametrize(("old", "new"), STILL_UPDATES)
def test_updates_of_the_same_attribute_still_supersede(old: str, new: str) -> None:
    assert currency.relation(new, old).kind == currency.SUPERSEDE


def _sleep_two_days(ws: Path, first: str, second: str) -> list[str]:
    for day, text in ((3, first), (9, second)):
        when = dt.datetime(2026, 10, day, 10, 0)
        micro_rest(text, "W", workspace=ws, when=when)
        sleep_cycle(ws, "both", "offline", now=when.replace(hour=22))
    return [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text()) if n.id]


@pytest.mark.parametrize(
    ("old", "new"),
    [CHAINED[0], CHAINED[2], UNRELATED_CHANGES[0], UNRELATED_CHANGES[2], UNRELATED_CHANGES[5]],
)
def test_sleep_keeps_both_current(tmp_path: Path, old: str, new: str) -> None:
    texts = _sleep_two_days(tmp_path / "ws", old, new)
    assert old in texts and new in texts
    assert "supersedes=" not in (tmp_path / "ws" / "MEMORY.md").read_text()


def test_sleep_still_supersedes_a_chained_owners_update(tmp_path: Path) -> None:
    old, new = STILL_UPDATES[0]
    texts = _sleep_two_days(tmp_path / "ws", old, new)
    assert new in texts and old not in texts
