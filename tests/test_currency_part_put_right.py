"""A changed value put right in the part of an entry that holds it; the rest stays.

"Walter's bisoprolol is 5 mg each morning now" retired "Walter's current meds: bisoprolol 2.5
mg once daily, furosemide 40 mg …, atorvastatin 40 mg …" whole (2.5 and 5 were read as two
kinds of number), "Split HeLa today, now at passage 15" retired HEK293T's passage with HeLa's,
and a follow-up moved to April 21 retired who the cardiologist is and the diagnosis.
"""

from __future__ import annotations

import pytest

from tests.currency_support import rewritten


@pytest.mark.parametrize(
    ("old", "new", "now"),
    [
        ("Walter's current meds: bisoprolol 2.5 mg once daily, furosemide 40 mg in the morning, "
         "atorvastatin 40 mg at night.",
         "Walter's bisoprolol is 5 mg each morning now.",
         "Walter's current meds: bisoprolol 5 mg once daily, furosemide 40 mg in the morning, "
         "atorvastatin 40 mg at night."),
        ("HeLa cells currently at passage 12; HEK293T at passage 27.",
         "Split HeLa today, now at passage 15.",
         "HeLa cells currently at passage 15; HEK293T at passage 27."),
        ("Cardiologist is Dr. Marcus Feld at St. Luke's Hospital. Walter has heart failure; "
         "follow-up with Dr. Feld booked for April 14 at 10:30.",
         "St. Luke's cardiology letter: Dad's follow-up clinic has been moved to April 21, "
         "10:30, same place.",
         "Cardiologist is Dr. Marcus Feld at St. Luke's Hospital. Walter has heart failure; "
         "follow-up with Dr. Feld booked for April 21 at 10:30."),
    ],
)  # fmt: skip
def test_the_part_is_put_right(old: str, new: str, now: str) -> None:
    assert rewritten(("W", old), ("W", new)) == now


def test_another_persons_number_is_not_put_in() -> None:
    # the entry names Sam; a note of Noor's card is no new number of Sam's
    old = "Sam's debit card ends 2256."
    new = "Noor's new debit card ends 8032."
    assert rewritten(("W", old), ("W", new)) != "Sam's debit card ends 8032."
