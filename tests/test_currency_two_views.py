"""One person's views of two things: the newer is no update of the older.

Found replaying a restaurant owner's five weeks of notes: "Sam thinks OpenTable isn't worth the
commission any more" retired "Sam thinks the new menu cards look cramped": the two share their
owner and verb, and "any more" reads as a change. What each view is of decides.
"""

from __future__ import annotations

import pytest

from tests.currency_support import replaces


@pytest.mark.parametrize(
    ("old", "new", "updated"),
    [
        # two things
        ("Nadia thinks the new till layout is confusing for the weekend staff.",
         "Nadia thinks the card machine isn't worth the monthly fee any more.", False),
        ("Luis feels the Friday stand-up runs too long.",
         "Luis feels the staging server is too slow these days.", False),
        # one thing, a newer view
        ("Nadia thinks the new till layout is confusing.",
         "Nadia thinks the new till layout is fine now.", True),
    ],
)  # fmt: skip
def test_a_view_replaces_only_a_view_of_the_same_thing(old: str, new: str, updated: bool) -> None:
    assert replaces(("O", old), ("O", new)) is updated
