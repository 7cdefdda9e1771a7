"""Updates the replayed scenarios left beside the entries they replace, read now; and the
look-alikes each reading must leave alone.

- One thing said again with another value, where the older entry says more than its value or
  uses another verb ("Out-of-hours cover is Vets Now Harrogate - calls … divert there after
  6:30pm", then "Out-of-hours cover is Medivet Leeds 24hr"): `analysis/restated.py`.
- A correction whose old value comes before a reason after a dash, holds a thousands comma, or
  corrects a rule's figure ("Correction: … if ketones are above 1.0 mmol/L, not 1.5").
- A rate is a number ("£65/month" for "£25 a month").
- Something settled on for good in place of a name the older entry gives ("… instead of
  Melcourt from now on"), though the two share no other word.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis.restated import restated
from tests.currency_support import replaces

UPDATES = [
    ("Out-of-hours cover is Vets Now Harrogate - calls to the main number divert there after "
     "6:30pm.", "Out-of-hours cover is Medivet Leeds 24hr."),
    ("Monstera deliciosa 17cm pot sells for £24.99 on the site.",
     "Monstera deliciosa 17cm pot is £27.50 on the site."),
    ("Saturday clinic hours are 9am to 1pm (first Saturday of the month).",
     "Saturday hours are 8:30am to 12:30pm."),
    ("School care plan review meeting is Tue 22 Sept at 3:30pm with Miss Carter and the school "
     "nurse.", "Care plan review meeting is Tue 29 Sept at 3:30pm."),
    ("Residence permit appointment: AIMA Lisbon, 9 May at 10:30, bring passport copies.",
     "AIMA emailed. Residence permit appointment is on 23 May at 14:00, same office."),
    ("Electricity provider: Octopus Energy, account ending 4471.",
     "Electricity provider: Ovo Energy, account ending 9902."),
]  # fmt: skip

LOOK_ALIKES = [
    # another thing of one kind: a qualifier of its own
    ("Clinic hours are 8am to 6pm.", "Saturday clinic hours are 9am to 1pm."),
    ("Saturday clinic hours are 9am to 1pm.", "Clinic hours are 8am to 6pm."),
    ("The 1st floor copier is at 192.168.10.44.", "The 2nd floor copier is at 192.168.10.60."),
    ("Office address for the Lisbon coworking: Avenida da República 50, 4th floor.",
     "Office address for the Porto branch visits: Rua de Santa Catarina 212."),
    # a name is no attribute: what it is, not a value of it
    ("Everly Bakeries is on the Starter plan.",
     "Everly Bakeries is based in Auckland with 12 stores."),
    # another period, another price
    ("Starter plan costs $29 per month billed monthly.",
     "Starter plan is $300 per year when paid annually."),
    # a day or time the older entry does not give qualifies the newer value
    ("Pool entry is £5 for adults.", "Pool entry is £4 after 6pm."),
    # hedged, or added
    ("Saturday clinic hours are 9am to 1pm.", "Saturday hours might be 8am to noon."),
    ("Support rota lead is Priya Shah.", "Support rota lead is also Tom Reed."),
    # a word past the newer subject's last names another thing of it
    ("Autumn concert programme: Fauré Requiem plus a short set of folk arrangements.",
     "The autumn concert is now at the Corn Exchange, Market Place; St Mary's has roof "
     "repairs."),
    # replaced whole, the entry would lose its day
    ("Autumn concert is on Saturday 7 November 2026 at St Mary's Church, Eastgate.",
     "The autumn concert is now at the Corn Exchange, Market Place; St Mary's has roof "
     "repairs."),
    # the same value said again
    ("Care plan review meeting is Tue 29 Sept at 3:30pm.",
     "Care plan review meeting is Tue 29 Sept at 3:30pm in the school library."),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new"), UPDATES)
def test_one_thing_said_again_with_another_value(old: str, new: str) -> None:
    assert restated(new, old) is not None
    assert replaces(("W", old), ("W", new))


@pytest.mark.parametrize(("old", "new"), LOOK_ALIKES)
def test_look_alikes_are_no_restatement(old: str, new: str) -> None:
    assert restated(new, old) is None


def test_a_chat_turn_restates_nothing() -> None:
    # a speaker's turn says how things are for them, not a field's value
    old = ("Caroline: Saturday hours are 9am to 1pm at the clinic, and honestly I love that we "
           "close early because it gives me the whole afternoon with the kids.")  # fmt: skip
    new = "Caroline's Saturday hours are 8:30am to 12:30pm."
    assert restated(new, old) is not None  # read as a field, the turn would be restated
    assert not replaces(("W", old), ("W", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Analytical balance calibration is due on 2024-05-01.",
         "Analytical balance: calibration due 2025-05-01."),
        # who has the thing opens the older entry
        ("Ayasha has swim practice on Wednesdays at 5pm.",
         "Ayasha's swim practice is Fridays at 4pm."),
    ],
)  # fmt: skip
def test_a_label_says_its_thing_again(old: str, new: str) -> None:
    assert restated(new, old) is not None
    assert replaces(("W", old), ("W", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # one word names too little to be one thing
        ("Kids' dentist is Dr. Lopes.", "Dentist: Dr. Faria"),
        ("Groceries are delivered by Tesco every Saturday morning.",
         "Groceries: Ocado, Thursday evenings."),
        ("Everly Bakeries is on the Starter plan.", "Everly: Auckland, 12 stores."),
        ("Ayasha has piano on Wednesdays at 5pm.", "Ayasha's swim practice is Fridays at 4pm."),
        ("Ayasha has swim practice on Wednesdays at 5pm.",
         "Tom's swim practice is Fridays at 4pm."),
    ],
)  # fmt: skip
def test_too_little_said_of_one_thing_says_nothing_again(old: str, new: str) -> None:
    assert restated(new, old) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Leeds guarantee is £900 against 70% of door after costs.",
         "Correction: the Leeds guarantee is £1,100, not £900 - Jess sent the wrong draft."),
        ("Co-op Funeralcare final invoice came in: £4,260, payable from the estate once the "
         "Barclays account is closed.",
         "Correction: Co-op Funeralcare's final invoice is £4,620, not £4,260 - I misread the "
         "PDF."),
        ("Sick day rules from Helen: if Maya's ketones are above 1.5 mmol/L, call the diabetes "
         "team.",
         "Correction: Helen says call the diabetes team if ketones are above 1.0 mmol/L, not 1.5."),
        ("Website runs on Shopify Basic, £25 a month.",
         "Moved the website to Shopify Grow (£65/month) for the better reports."),
        ("Potting mix is Melcourt SylvaGrow, bought by the pallet.",
         "Ordering Dalefoot peat-free compost instead of Melcourt from now on."),
    ],
)  # fmt: skip
def test_corrections_rates_and_settled_switches(old: str, new: str) -> None:
    assert replaces(("W", old), ("W", new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a hedge is no correction
        ("Sick day rules from Helen: if Maya's ketones are above 1.5 mmol/L, call the diabetes "
         "team.",
         "Correction: Helen might want us to call if ketones are above 1.0 mmol/L, not 1.5."),
        # one occasion, no standing change
        ("Potting mix is Melcourt SylvaGrow, bought by the pallet.",
         "Picked up Dalefoot compost instead of Melcourt at the garden centre today."),
        # the name it replaces is what the older entry is about, not its value
        ("Melcourt delivers on Tuesdays.",
         "Ordering from Dalefoot instead of Melcourt from now on."),
    ],
)  # fmt: skip
def test_what_such_readings_leave_alone(old: str, new: str) -> None:
    assert not replaces(("W", old), ("W", new))
