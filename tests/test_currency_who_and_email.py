"""Who no longer does something is the value replaced; a person's own email said as it is now
puts right the address said after their name.

Both were left standing in replayed workspaces: "Priya is no longer doing our environment art
(she took a full-time job); Tomas Berg takes over at $42/hour" beside "Environment artist
freelancer is Priya Nair, $38/hour" (a game studio), and "Dana Whitfield's email is
d.whitfield@norbridge-analytics.com" beside "Norbridge contact is Dana Whitfield,
dana.whitfield@norbridge.com" (a conference).
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import currency
from tests.currency_support import replaces, rewritten


def test_who_no_longer_does_it_is_replaced() -> None:
    assert replaces(
        ("W", "Environment artist freelancer is Priya Nair, $38/hour."),
        ("W", "Priya is no longer doing our environment art (she took a full-time job); Tomas "
              "Berg takes over at $42/hour."),
    )  # fmt: skip


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # nothing but the name shared: another thing of hers
        ("Environment artist freelancer is Priya Nair, $38/hour.",
         "Priya is no longer vegetarian, so the team lunch can be anywhere."),
        # someone the entry does not name
        ("Environment artist freelancer is Priya Nair, $38/hour.",
         "Kofi is no longer doing our UI art; Tomas Berg takes over at $42/hour."),
    ],
)  # fmt: skip
def test_who_no_longer_does_something_else_replaces_nothing(old: str, new: str) -> None:
    assert not replaces(("W", old), ("W", new))


def test_a_persons_own_email_puts_the_address_right() -> None:
    old = "Norbridge contact is Dana Whitfield, dana.whitfield@norbridge.com."
    new = "Dana Whitfield's email is d.whitfield@norbridge-analytics.com."
    assert rewritten(("W", old), ("W", new)) == (
        "Norbridge contact is Dana Whitfield, d.whitfield@norbridge-analytics.com."
    )


@pytest.mark.parametrize(
    "old",
    [
        "Billing contact is Tom Reed, tom@norbridge.com.",  # another person's address
        "Dana Whitfield's work email is dana.whitfield@norbridge.com.",  # another kind
        # two addresses: which one is hers is not read
        "Norbridge contacts: Dana Whitfield, dana@norbridge.com; Tom Reed, tom@norbridge.com.",
    ],
)
def test_an_email_of_someone_else_puts_nothing_right(old: str) -> None:
    new = "Dana Whitfield's personal email is dana.w@fastmail.com."
    assert currency.email_put_right(new, old) is None
    assert not replaces(("W", old), ("W", new))


def test_an_email_to_come_puts_nothing_right() -> None:
    old = "Norbridge contact is Dana Whitfield, dana.whitfield@norbridge.com."
    new = "Dana Whitfield's email is d.whitfield@norbridge-analytics.com - if IT sets it up."
    assert currency.email_put_right(new, old) is None
