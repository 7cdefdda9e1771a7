"""Where a ticket, a claim or an invoice stands, told again: the newer standing replaces the
older one.

A coding agent notes "WEB-311 blocked on the auth refactor" and, a week later, "WEB-311
merged"; the first stood beside the second, because only a wait followed by a settled
outcome ("overdue" / "paid") was read, and only for codes written "ABC-123". Work under way
("in code review"), a block, and the outcomes of software work (merged, shipped, deployed)
are standings too, and "#4821" is the ticket a later note calls "4821".
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import currency
from tests.currency_support import replaces


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a block, then the outcome
        ("WEB-311 is blocked on the auth refactor.", "WEB-311 merged after Lina's review."),
        # waiting, then work under way
        ("OPS-52 waiting for the new VPN certificates.", "OPS-52 in progress, Dmitri has it."),
        # under way, then done
        ("Ticket DATA-9 is in code review.", "DATA-9 deployed to production this morning."),
        # "#1207" in one note, "1207" in the other
        ("Support case #1207 for Harbour Dental is on hold until they reply.",
         "Harbour Dental replied; 1207 marked closed."),
        # closed, said first
        ("API-77 is in review with Priya.", "API-77 closed: fix verified on prod."),
        # a settled outcome of a wait, as before
        ("Claim HX-4410 submitted; decision pending.", "Claim HX-4410 was approved in full."),
    ],
)  # fmt: skip
def test_a_new_standing_replaces_the_old(old: str, new: str) -> None:
    assert replaces(("W", old), ("B", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another ticket's outcome
        ("WEB-311 is blocked on the auth refactor.", "WEB-312 merged after Lina's review."),
        # the ticket named second is no subject: WEB-320's standing, not WEB-311's
        ("WEB-311 is blocked on the auth refactor.",
         "WEB-320 blocked by WEB-311; merged the schema part anyway."),
        # the same standing said again
        ("OPS-52 waiting for the new VPN certificates.",
         "Chased OPS-52 again, still waiting on IT."),
        # what only may happen
        ("Ticket DATA-9 is in code review.", "DATA-9 should be deployed by Friday."),
        # a question
        ("Ticket DATA-9 is in code review.", "Has DATA-9 been merged yet?"),
        # a bare number that names no ticket of the older note
        ("Support case #1207 for Harbour Dental is on hold until they reply.",
         "Harbour Dental paid invoice 3318 today."),
    ],
)  # fmt: skip
def test_no_new_standing_of_that_record_replaces_nothing(old: str, new: str) -> None:
    assert not replaces(("W", old), ("B", new))


def test_the_verdict_names_both_standings() -> None:
    verdict = currency.relation("DATA-9 deployed to production.", "DATA-9 is in code review.")
    assert (verdict.kind, verdict.old_value, verdict.new_value) == (
        currency.SUPERSEDE,
        "under way",
        "outcome",
    )
