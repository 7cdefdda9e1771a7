"""A role of something, said "on", "at" or without "the", names who holds it; "is every
Wednesday at 3pm" says when a thing happens, as "happens" does.

A product manager's notes (an exploratory test): "Marco Bianchi is the designer on Atlas", then
"Sara Okafor is the designer on Atlas"; "Tomás Ortega is release manager for 4.2", then "Ji-woo
Park is release manager for 4.2". Only "the … of/for" was read as a role held ("Omar is the tech
lead of payments" is who the tech lead of payments is), so the two names were two owners and
both stayed current. "As of today" is no role's "of". And "Design review is every Wednesday
at 3pm", then "Design review happens every other Friday at 11am", were read as two relations
("is" and "happens") of the review, so both times stayed.
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
        ("Design review is every Wednesday at 3pm.",
         "Design review happens every other Friday at 11am."),
        ("Rosalind's 1:1 with her manager is Mondays at 11.",
         "Rosalind's 1:1 is Wednesdays at 14:00."),
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
        ("Design review is every Wednesday at 3pm.",
         "Sprint planning happens every Monday at 10am."),
        # a role at a place is a role of it, not a new value of all it says
        ("Pinecrest Dental uses Xero.",
         "Dana Ortiz is the office manager at Pinecrest Dental; she sent over the March "
         "statements."),
    ],
)  # fmt: skip
def test_another_role_or_another_thing(old: str, new: str) -> None:
    assert not replaces(("W", old), ("W", new))
