"""Days moved and values said again, put right where they belong; things apart kept apart.

Four more replayed scenarios (a course administrator, a charity's fundraiser, a mobile app's
coding agent, a dog-walking business) showed:

- "The GEO2041 exam moved to 19 January" rewrote "Dr Neil Fraser wants all exam paper drafts by
  20 November" (the exam's code was not read as part of what moved);
- "Gala moved to St Mary's Hall - same date, 20 November" put "Friday 20 November" right to "20
  November" and kept the old venue;
- "Garage can't fit us in - van MOT pushed back to 16 October" left "Van MOT booked for Friday 2
  October" current (the reason before the dash read as part of what moved);
- "Staging API base URL is https://stg-api.tidewell.dev" stood beside the old URL;
- "Gemma Ross confirmed the revised GEO1010 booking …" and "Gerald mentioned Rolo's new vet
  does hydrotherapy" retired a contact and the new vet;
- "Mrs Penrose's key safe code is 4471" retired Finch's code; "Dr Aisha Bello is module leader
  for GEO2110" retired GEO1020's leader; "Priya Nair's mobile is 07700 556219 - she's in …"
  (the same number) retired "Priya Nair is our finance officer; …".
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis.currency import moved_day_put_right
from agent_sleep.analysis.update_model import same_subject_put_right, tells_a_change
from tests.currency_support import rewritten


def test_a_day_moved_is_of_the_thing_its_code_names() -> None:
    new = "The GEO2041 exam moved to 19 January."
    assert (
        moved_day_put_right(new, "Dr Neil Fraser wants all exam paper drafts by 20 November.")
        is None
    )
    assert moved_day_put_right(new, "The GEO2041 exam is on 14 January.") == (
        "The GEO2041 exam is on 19 January."
    )


def test_a_move_to_a_place_is_no_day_moved() -> None:
    old = "Autumn gala venue is The Corn Exchange; the gala is on Friday 20 November."
    assert (
        moved_day_put_right("Gala moved to St Mary's Hall - same date, 20 November.", old) is None
    )
    assert moved_day_put_right("Gala moved to Friday 27 November.", old) == (
        "Autumn gala venue is The Corn Exchange; the gala is on Friday 27 November."
    )


def test_a_reason_before_a_dash_is_no_part_of_what_moved() -> None:
    old = "Van MOT booked for Friday 2 October at the Fishponds garage."
    new = "Garage can't fit us in - van MOT pushed back to 16 October."
    assert moved_day_put_right(new, old) == "Van MOT booked for 16 October at the Fishponds garage."


@pytest.mark.parametrize(
    ("old", "new", "now"),
    [
        ("Staging API base URL is https://staging.tidewell.dev - use it for all QA builds.",
         "Staging API base URL is https://stg-api.tidewell.dev.",
         "Staging API base URL is https://stg-api.tidewell.dev - use it for all QA builds."),
        ("Wifi password: falcon42 (changed monthly)", "Wifi password: kestrel99",
         "Wifi password: kestrel99 (changed monthly)"),
    ],
)  # fmt: skip
def test_a_value_said_again_after_the_same_subject_is_put_right(
    old: str, new: str, now: str
) -> None:
    assert same_subject_put_right(new, old) == now
    assert rewritten(("W", old), ("W", new)) == now


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another subject
        ("Production API base URL is https://api.tidewell.dev.",
         "Staging API base URL is https://stg-api.tidewell.dev."),
        # a value of another form
        ("Support contact is help@tidewell.dev.", "Support contact is https://tidewell.dev/help."),
    ],
)  # fmt: skip
def test_no_value_of_another_subject_or_form_is_put_right(old: str, new: str) -> None:
    assert same_subject_put_right(new, old) is None


def test_a_thing_told_as_revised_or_new_without_a_value_tells_no_change_of_the_entry() -> None:
    contact = "Gemma Ross is our contact in Central Timetabling."
    booking = "Gemma Ross confirmed the revised GEO1010 booking in the timetabling system."
    assert not tells_a_change(booking, contact)
    assert rewritten(("W", contact), ("B", booking)) is None
    vet = "Rolo's vet is Vets4Pets Cribbs Causeway."
    assert not tells_a_change("Gerald mentioned Rolo's new vet does hydrotherapy.", vet)
    # a new one with its value, or a revised thing the entry names, still tells one
    assert tells_a_change("Finished in 51:15, a new personal best.", "Maya's best is 52:40.")
    assert tells_a_change("Sent the revised rota to the team.", "The rota is on the drive.")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Finch key safe code is 8135; spare key is with the neighbour at number 16.",
         "Mrs Penrose's key safe code is 4471. The key safe is left of the back door."),
        ("GEO1020 Human Geography Foundations is led by Dr Ravi Patel; lectures are in Lecture "
         "Theatre A, Tuesdays 10:00.",
         "Dr Aisha Bello is module leader for GEO2110 Urban Geography."),
        ("Priya Nair is our finance officer; her mobile is 07700 556219.",
         "Priya Nair's mobile is 07700 556219 - she's in the office Tuesday to Thursday."),
    ],
)  # fmt: skip
def test_things_apart_or_said_again_retire_nothing(old: str, new: str) -> None:
    assert rewritten(("W", old), ("W", new)) is None


def test_the_learned_guess_retires_no_fee_for_a_note_of_days() -> None:
    old = "Hygiene appointment fee is £78 (30 minutes with Megan)."
    new = "Megan's hygiene days moved to Mondays and Thursdays from October."
    assert rewritten(("W", old), ("W", new)) is None


def test_a_part_said_again_retires_no_entry_of_parts() -> None:
    """An entry of two parts, one of which the note confirms: the model's reading of the whole
    had replaced it, and Mira's royalty left MEMORY.md (a publisher's replayed notes)."""
    old = (
        "Royalty terms on file: Mira gets 10% of RRP on the hardback; Tomas Lind gets 25% of "
        "net receipts on ebooks."
    )
    new = "Tomas Lind's ebook royalty is confirmed at 25% of net receipts in the signed contract."
    assert rewritten(("W", old), ("W", new)) is None
    # a part that gives no value is said again by no note: the time said again with another
    # is put right, and the rest stays
    old = (
        "Lab courier collects at 3:15pm daily from the back door; cases must be bagged and "
        "labelled by then."
    )
    new = "Lab courier collects at 11:30am daily."
    assert rewritten(("W", old), ("W", new)) == old.replace("3:15pm", "11:30am")
