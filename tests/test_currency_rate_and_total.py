"""An amount per hour or per month and a total are two kinds of amount.

"Harbor Coffee invoice #0419 is 1,850 euros, due at the end of the month" replaced "Harbor Coffee
rebrand is billed at 80 euros per hour, invoiced monthly" (the learned last word read a new
amount of money): an invoice's total is no new hourly rate. A new rate is still read.
"""

from __future__ import annotations

import pytest

from tests.currency_support import replaces


def _replaces(old: str, new: str) -> bool:
    return replaces(("W", old), ("W", new))


def test_a_total_is_no_new_rate() -> None:
    old = "Harbor Coffee rebrand is billed at 80 euros per hour, invoiced monthly."
    assert not _replaces(old, "Harbor Coffee invoice #0419 is 1,850 euros, due at the end of May.")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Acme Logistics pays $1,200 per month on the Growth plan.",
         "Acme Logistics signed for the Scale tier, invoiced at $2,900 monthly."),
        ("Harbor Coffee rebrand is billed at 65 euros per hour, invoiced monthly.",
         "Harbor Coffee signed off on the new rate: 80 euros per hour from March onward."),
    ],
)  # fmt: skip
def test_a_new_rate_is_still_read(old: str, new: str) -> None:
    assert _replaces(old, new)
