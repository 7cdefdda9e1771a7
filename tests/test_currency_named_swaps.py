"""A name swapped for another, read where it was missed, and never written into what was told
of the old one.

Found replaying a coding agent's, a restaurant owner's, a family's and an account executive's
five weeks of notes:

- "Swapped Auth0 for Clerk" and "We're no longer with Ledgerline" left the entries they name
  standing: the older entry's first word ("Login", "Accountant") was read as a name, so the
  entry seemed to be someone's.
- "Tom is doing the Saturday lunch shift instead of Jess" left "Jess works the Saturday lunch
  shift": a name that opens a note was never its value.
- "Maya signed with Postmark today for transactional email" was read only without "Maya".
- "Harbor Health is now in Negotiation" shares only its name with "Harbor Health is in
  Proposal stage", which was read as two things of one customer.
- "Her number is …" after "Maria (our cleaner) comes Wednesdays" was nobody's number.
- Put right in place, a swap wrote "Bitwarden Families" (the user had said "LastPass
  Families"), "Bookings come in through ResDiary; the commission is eating into margins" (the
  commission was OpenTable's), and Hannah Cole's note followed by "she files the VAT returns"
  (Priya did).
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import currency
from tests.currency_support import replaced, replaces, rewritten


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Error tracking is handled by Sentry, self-hosted.", "Swapped Sentry for Honeybadger."),
        ("Payroll is run by Moorside Payroll Services every month.",
         "We're no longer with Moorside - Kate at Fieldhouse runs our payroll now."),
        ("Leah covers the Sunday breakfast shift.",
         "Omar is doing the Sunday breakfast shift instead of Leah from now on."),
    ],
)  # fmt: skip
def test_a_name_swapped_replaces_the_entry(old: str, new: str) -> None:
    assert replaces(("W", old), ("W", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # someone named in full is no thing of ours
        ("Dave Kirkby lives in Leeds.", "Moved from Leeds to York."),
        # a one-off cover is no new shift
        ("Leah covers the Sunday breakfast shift.", "Omar is off this Sunday, Leah covers."),
        # another shift
        ("Leah covers the Sunday breakfast shift.",
         "Omar is doing the Saturday breakfast shift instead of Leah from now on."),
    ],
)  # fmt: skip
def test_no_swap_of_that_name_replaces_nothing(old: str, new: str) -> None:
    assert not replaces(("W", old), ("W", new))


def test_someone_who_signs_may_open_the_note() -> None:
    old = ("W", "Text messages to patients go out through Twilio.")
    new = ("B", "Ines signed with MessageBird today for text messages to patients.")
    assert rewritten(old, new) == "Text messages to patients go out through MessageBird."


def test_her_number_is_the_named_ones() -> None:
    old = ("W", "Rosa (the dog walker) comes Tuesdays 1-2pm. Her number is 07700 900 318.")
    new = ("W", "Rosa's mobile is 07700 900 774.")
    assert rewritten(old, new) == (
        "Rosa (the dog walker) comes Tuesdays 1-2pm. Her number is 07700 900 774."
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # one word of a longer name: "Dashlane Business" is nobody's product
        ("Team passwords live in Keeper Business; Priya is the admin.",
         "We use Dashlane instead of Keeper now - Ken moved the team vault last night."),
        # what follows speaks of the old one
        ("Payments go through Stripe; the fees are eating into margins.",
         "Payments: switched from Stripe to GoCardless today."),
        ("Bookkeeper is Anna Reyes at Tallybooks; she files the VAT returns.",
         "We're no longer with Tallybooks - Joe Park at Sumwise does our books now."),
    ],
)  # fmt: skip
def test_a_name_is_not_put_right_into_what_was_told_of_the_old_one(old: str, new: str) -> None:
    text = rewritten(("W", old), ("W", new))
    assert text is not None
    assert text.startswith(new.split(" - ")[0].rstrip("."))  # the note, not a splice


def test_what_stays_true_is_kept_beside_the_swap() -> None:
    """A part with its own subject ("Priya is the admin") is kept; the swapped part is the
    note's."""
    old = ("W", "Team passwords live in Keeper Business; Priya is the admin.")
    new = ("W", "We use Dashlane instead of Keeper now - Ken moved the team vault last night.")
    assert rewritten(old, new) == (
        "We use Dashlane instead of Keeper now - Ken moved the team vault last night; "
        "Priya is the admin."
    )


def test_a_date_put_right_keeps_what_follows() -> None:
    old = "Ana and Leo Marsh's wedding is June 13 at Gray's Lodge. They're on the Gold package."
    text = currency.sentence_put_right("The Marsh wedding is pushed back to September 19.", old)
    assert text == "The Marsh wedding is pushed back to September 19. They're on the Gold package."


def test_the_event_of_a_swap_is_not_the_entry_replaced() -> None:
    memory = [
        {"id": "fact", "type": "W", "date": "2026-09-07",
         "text": "Error tracking is handled by Sentry, self-hosted."},
    ]  # fmt: skip
    assert replaced(("B", "Swapped Sentry for Honeybadger."), memory, day="2026-09-30") == ["fact"]


def test_a_stage_said_anew_replaces_the_old_one_among_known_names() -> None:
    """Where the workspace's notes write the stages capitalised, they are names the two notes
    share nothing but; the sentence said again with "now" still replaces."""
    known = frozenset({"Harbour", "Dental", "Trial", "Procurement"})
    memory = [{"id": "stage", "type": "W", "text": "Harbour Dental is in Trial stage.",
               "date": "2026-09-22"}]  # fmt: skip
    new = ("W", "Harbour Dental is now in Procurement.")
    assert replaced(new, memory, known, day="2026-10-09") == ["stage"]


def test_said_anew_needs_now_the_same_owner_and_preposition() -> None:
    old = "Harbour Dental is in Trial stage."
    assert currency.said_anew("Harbour Dental is now in Procurement.", old)
    assert not currency.said_anew("Harbour Dental is in Procurement.", old)  # no "now"
    assert not currency.said_anew("Harbour Clinic is now in Procurement.", old)  # another owner
    assert not currency.said_anew("Harbour Dental is now at Bupa.", old)  # another relation


def test_a_version_put_right_where_the_note_names_its_runtime_twice() -> None:
    """ "Switched the API from Node 18.19 to Node 20.11" named "Node 18.19" as replaced, two
    words, so the entry was replaced whole and its frontend's version lost."""
    old = ("W", "The worker runs on Python 3.10; the dashboard is Django 4.2.")
    new = ("W", "Switched the worker from Python 3.10 to Python 3.12; Dockerfile updated.")
    assert rewritten(old, new) == "The worker runs on Python 3.12; the dashboard is Django 4.2."


def test_one_word_of_a_longer_name_is_read_on_either_side() -> None:
    text = "Veg comes from Green Valley Produce; the logins live in Keeper."
    for word, longer in (("Green", True), ("Produce", True), ("Veg", False)):
        at = text.index(word)
        assert currency._in_longer_name(text, at, at + len(word)) is longer, word
