"""A person's number said again is put right where the entry says it after their name.

A vet practice's notes: "Priya Nair's mobile is 07700 900587" left "Dr Priya Nair (locum vet,
booked to cover Andrew's October leave) - mobile 07700 900412" standing beside it, the number
being over 48 characters from her name; and "Sarah Lyle is our MWI rep from today, mobile …"
could not have its number put right once sleep had written the date after "today". Asides in
brackets and the dates sleep writes are set apart now; the name said last before the number must
be the person's, so another's number is never put right, nor replaced by the learned guess.
"""

from __future__ import annotations

import pytest

from tests.currency_support import rewritten


@pytest.mark.parametrize(
    ("old", "new", "now"),
    [
        ("Dr Priya Nair (locum vet, booked to cover Andrew's October leave) - mobile 07700 "
         "900412.",
         "Priya Nair's mobile is 07700 900587.",
         "Dr Priya Nair (locum vet, booked to cover Andrew's October leave) - mobile 07700 "
         "900587."),
        # the name said in full before, short now (a game studio's composer)
        ("Lena Ortiz's phone: +44 7700 900312.",
         "Lena's number is +44 7700 900845.",
         "Lena Ortiz's phone: +44 7700 900845."),
        ("Sarah Lyle is our MWI rep from today (2026-10-01), mobile 07700 900111.",
         "Sarah Lyle's mobile is 07700 900222.",
         "Sarah Lyle is our MWI rep from today (2026-10-01), mobile 07700 900222."),
    ],
)  # fmt: skip
def test_the_number_after_the_name_is_put_right(old: str, new: str, now: str) -> None:
    assert rewritten(("W", old), ("W", new)) == now


@pytest.mark.parametrize(
    "old",
    [
        "Karen Moss (office manager, reports to Priya Nair and covers the front desk) - 07700 "
        "900193.",
        "Priya Nair (locum) and Karen Moss (office manager, front desk and rota) - Karen 07700 "
        "900193.",
    ],
)
def test_anothers_number_stays(old: str) -> None:
    assert rewritten(("W", old), ("W", "Priya Nair's mobile is 07700 900587.")) is None
