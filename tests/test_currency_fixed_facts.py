"""What holds for life is put right only by a note that names it, and a request made is no
new value of anything.

Found replaying a diabetic child's parent's five weeks of notes (the learned guess each time):
"Asked school for Maya to miss the morning of 21 Oct" retired "Maya's date of birth: 14 March
2017".
"""

from __future__ import annotations

import pytest

from tests.currency_support import replaces

DOB = "Maya's date of birth: 14 March 2017 (needed for the school trip form)."


@pytest.mark.parametrize(
    ("kind", "new"),
    [
        ("B", "Asked school for Maya to miss the morning of 21 Oct."),
        ("W", "Maya's school trip to the science museum is on 21 Oct."),
        ("W", "Maya's clinic appointment is on 21 Oct at 10:30."),
    ],
)
def test_a_date_of_birth_stays(kind: str, new: str) -> None:
    assert not replaces(("W", DOB), (kind, new))


def test_a_date_of_birth_put_right_replaces() -> None:
    assert replaces(("W", DOB), ("W", "Correction: Maya was born on 15 March 2017, not 14 March."))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Mum's carers visit at 8am and 6pm.",
         "Asked the care agency whether Mum's evening visit could be 7pm."),
        ("Dad's GP surgery is Elm Lane Medical Centre, 0161 496 0123.",
         "Requested Dad's repeat prescription from Elm Lane Medical Centre for 21 Oct."),
    ],
)  # fmt: skip
def test_a_request_made_keeps_the_fact(old: str, new: str) -> None:
    assert not replaces(("W", old), ("B", new))
