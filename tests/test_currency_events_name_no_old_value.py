"""What happened, told with "instead of", "left for" or "from A to", names no value replaced.

A bookkeeper's notes (an exploratory test):
- "Leah Kim texted a photo of a receipt instead of using Dext" read "Dext" as the value
  replaced and put "Kim" in its place: MEMORY.md said "All clients are asked to send receipts
  through Kim", a sentence no note said;
- "three unmatched card payments left for Rosa to explain" read as Rosa leaving, and retired
  what the bakery runs on and pays;
- "Exported the trial balance from Xero to import into QuickBooks" read as a move from Xero,
  and retired "Bright Sparks has switched from Xero to QuickBooks Online".
An act after "instead of" ("using …"), "left" for what remains, and "from A to" followed by
what was done are no old value now. And where the model reads a note as replacing an entry of
several sentences, only the sentence it replaces is swapped when one alone is ("Nadia pushed the
review to 21 May" keeps "… uses Wave; fee £120/month"); a booking for a day is a standing fact.
"""

from __future__ import annotations

import pytest

from tests.currency_support import replaces, rewritten


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("All clients are asked to send receipts through Dext; Hannah doesn't accept shoeboxes "
         "any more.", ("B", "Leah Kim texted a photo of a receipt instead of using Dext; "
                           "reminded her.")),
        ("Harbor Lane Bakery (owner Rosa Delgado) is on QuickBooks Online; Hannah charges them "
         "£350 a month.", ("B", "Reconciled Harbor Lane Bakery's March bank feed; three "
                                "unmatched card payments left for Rosa to explain.")),
        ("Bright Sparks Electrical has switched from Xero to QuickBooks Online.",
         ("B", "Exported Bright Sparks' historical trial balance from Xero to import into "
               "QuickBooks.")),
    ],
)  # fmt: skip
def test_what_happened_replaces_nothing(old: str, new: tuple[str, str]) -> None:
    assert rewritten(("W", old), new) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Support tickets go through Zendesk.",
            "Support tickets now go through Intercom instead of Zendesk.",
        ),
        ("Tom works at Acme.", "Tom left Acme and joined Globex."),
        ("The site is hosted on Heroku.", "Moved the site from Heroku to Render."),
    ],
)
def test_an_old_value_named_is_still_read(old: str, new: str) -> None:
    assert replaces(("W", old), ("W", new))


def test_the_one_sentence_the_model_reads_as_replaced() -> None:
    old = (
        "Silverline Yoga (Nadia Rossi) uses Wave; fee £120/month. Quarterly review with Nadia "
        "booked for 14 May."
    )
    new = "Nadia Rossi pushed the Silverline Yoga quarterly review to 21 May."
    # the review's new day put right in the entry (the software and fee stay either way)
    assert rewritten(("W", old), ("W", new)) == (
        "Silverline Yoga (Nadia Rossi) uses Wave; fee £120/month. Quarterly review with Nadia "
        "booked for 21 May."
    )


def test_a_booking_for_a_day_is_replaced_by_the_day_it_moved_to() -> None:
    """A runner's notes: "Dr. Patel booked a follow-up for Wednesday, October 14" read as what
    happened, so "Her GP follow-up with Dr. Patel is on Friday, October 16 at 9:40" left both."""
    old = "Dr. Patel booked a follow-up for Wednesday, October 14."
    new = "Her GP follow-up with Dr. Patel is on Friday, October 16 at 9:40."
    assert replaces(("W", old), ("W", new))
