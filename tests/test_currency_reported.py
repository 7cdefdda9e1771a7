"""Who a note heard it from is not what the note is about.

"Helen Pryce wrote: the rent goes up to £1,920 from April" was read as a claim about Helen
Pryce (her writing), so the rent of £1,850 stood beside it; "Maria emailed: the ceremony is
now at 3pm" likewise left the 2pm start. The source before a colon or a dash ("X wrote:",
"the pharmacy called —", "Per Dr. Lee,") is now set aside and what follows read as the
note's own claim. "Revised" and "goes up" are words of change.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import claims
from tests.currency_support import replaces


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Rent is £1,850 a month, paid to Helen Pryce on the 1st.",
         "Helen Pryce wrote: the rent goes up to £1,920 from April."),
        ("Ceremony starts at 2pm at St Mary's.", "Maria emailed: the ceremony is now at 3pm."),
        ("Quoted Vantage Media a 15 percent multi-year discount.",
         "Finance approved only 10 percent for Vantage Media; revised quote sent."),
    ],
)  # fmt: skip
def test_what_a_source_said_is_read(old: str, new: str) -> None:
    assert replaces(("W", old), ("W", new))


@pytest.mark.parametrize(
    "note",
    [
        "Helen Pryce wrote: the rent goes up to £1,920 from April.",
        "The pharmacy called — the rent goes up to £1,920 from April.",
        "Per Dr. Lee, the rent goes up to £1,920 from April.",
    ],
)
def test_the_source_is_not_the_owner(note: str) -> None:
    (claim,) = claims.claims(note)
    assert claim.owner == {"rent"}


def test_a_name_that_does_something_stays_the_owner() -> None:
    (claim,) = claims.claims("Helen Pryce wrote the lease for the flat.")
    assert {"helen", "pryce"} <= claim.owner
