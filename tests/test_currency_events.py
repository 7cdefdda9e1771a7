"""Changes told as what happened (a consultant's five weeks of notes, an exploratory test).

"Bumped route-planner to Django 5.1" left "Brightwater's repo is
github.com/brightwater/route-planner — Django 4.2 …" current (the repo's name was read only
inside its URL), "Upgraded patient-portal to Next.js 15" left Next.js 14 ("Next.js 14" was no
version), "Dropped VS Code; using Zed" left VS Code as the editor, and "Nordlicht paid
INV-2026-015" left the invoice overdue.
"""

from __future__ import annotations

import pytest

from tests.currency_support import replaces


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Brightwater's repo is github.com/brightwater/route-planner — Django 4.2 on Python 3.11.",
         "Bumped route-planner to Django 5.1; full suite passes after fixing 3 deprecations."),
        ("Nordlicht repo is nordlicht/patient-portal: Next.js 14 frontend on Node 20.",
         "Upgraded patient-portal to Next.js 15 — app router migration done, all e2e tests green."),
        ("Kofi's main editor is VS Code with the Vim extension.",
         "Dropped VS Code; using Zed full time now, with vim mode."),
        ("INV-2026-015 from Nordlicht is overdue (it was due Feb 17).",
         "Nordlicht paid INV-2026-015."),
        ("Attendance Allowance claim AA-55102 submitted; decision pending.",
         "DWP letter: Attendance Allowance claim AA-55102 was approved at the higher rate."),
    ],
)  # fmt: skip
def test_what_happened_replaces_what_held(old: str, new: str) -> None:
    assert replaces(("W", old), ("B", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another invoice's outcome
        ("INV-2026-015 from Nordlicht is overdue.", "Nordlicht paid INV-2026-014."),
        # still waiting
        ("INV-2026-015 from Nordlicht is overdue.", "Chased INV-2026-015 again; still unpaid."),
        # dropped off somewhere is no ending
        ("Zara's ballet class is at the Leeds studio on Saturdays.",
         "Dropped off Zara at the Leeds studio for ballet."),
    ],
)  # fmt: skip
def test_what_happened_to_something_else_replaces_nothing(old: str, new: str) -> None:
    assert not replaces(("W", old), ("B", new))


def test_the_rest_of_a_repos_entry_stays() -> None:
    from tests.currency_support import rewritten

    old = ("W", "Brightwater's repo is github.com/brightwater/route-planner — Django 4.2 on "
                "Python 3.11.")  # fmt: skip
    new = (
        "B",
        "Bumped route-planner to Django 5.1; full suite passes after fixing 3 deprecations.",
    )
    assert rewritten(old, new) == (
        "Brightwater's repo is github.com/brightwater/route-planner — Django 5.1 on Python 3.11."
    )
    # a short entry of that one version is replaced whole
    short = ("W", "The API runs on Python 3.11.")
    assert rewritten(short, ("W", "The API runs on Python 3.12 now.")) == (
        "The API runs on Python 3.12 now."
    )


def test_a_hedged_note_is_no_new_fact() -> None:
    """ "Lena says the Brightwater extension to June is likely; she'll confirm next week"
    retired "Brightwater contract still runs to Apr 30" (the learned guess): what is likely is
    not yet what holds. Once it is said as settled, it is read."""
    old = ("W", "Brightwater contract still runs to Apr 30; Lena hinted at an extension.")
    hedged = (
        "B",
        "Lena says the Brightwater extension to June is likely; she'll confirm next week.",
    )
    assert not replaces(old, hedged)
    settled = ("B", "Lena confirmed the Brightwater contract now runs to June 30.")
    assert replaces(old, settled)
