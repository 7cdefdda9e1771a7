"""A role of something, said "on", "at" or without "the", names who holds it.

A product manager's notes (an exploratory test): "Marco Bianchi is the designer on Atlas", then
"Sara Okafor is the designer on Atlas"; "Tomás Ortega is release manager for 4.2", then "Ji-woo
Park is release manager for 4.2". Only "the … of/for" was read as a role held ("Omar is the tech
lead of payments" is who the tech lead of payments is), so the two names were two owners and
both stayed current. "As of today" is no role's "of".
"""

from __future__ import annotations

import pytest

from tests.currency_support import replaces


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Marco Bianchi is the designer on Atlas.", "Sara Okafor is the designer on Atlas."),
        ("Tomás Ortega is release manager for 4.2.",
         "Ji-woo Park is release manager for 4.2; Tomás is focused on the import pipeline."),
        ("Ayşe's title is Staff Engineer.", "Ayşe is Principal Engineer as of today."),
    ],
)  # fmt: skip
def test_a_new_holder_of_the_role(old: str, new: str) -> None:
    assert replaces(("W", old), ("W", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Marco Bianchi is the designer on Atlas.", "Sara Okafor is the designer on Beacon."),
        ("Omar is tech lead for the checkout squad.",
         "Omar is acting on-call manager this quarter."),
    ],
)  # fmt: skip
def test_another_role_or_another_thing(old: str, new: str) -> None:
    assert not replaces(("W", old), ("W", new))
