"""A vital entry of several sentences has the one sentence a note replaces put right.

A teacher's notes (an exploratory test): "Tom Reilly in 9C has type 1 diabetes. He's allowed
to eat snacks in lessons … His hypo kit is kept in the cupboard in the 9C tutor room, T12."
then "Tom Reilly's hypo kit is kept in the medical room, next to the main office". Only the
learned guess read the move, and it may not retire a vital entry for a note that says nothing
of its condition, so the old place of the kit stayed in every session-start block. The model
now reads each sentence: the one it replaces is swapped for the note, the diabetes is kept.
"""

from __future__ import annotations

import pytest

from tests.currency_support import rewritten

TOM = (
    "Tom Reilly in 9C has type 1 diabetes. He's allowed to eat snacks in lessons and can leave "
    "to check his blood sugar without asking. His hypo kit is kept in the cupboard in the 9C "
    "tutor room, T12."
)


def test_the_sentence_the_note_replaces_is_put_right() -> None:
    new = "Tom Reilly's hypo kit is kept in the medical room, next to the main office."
    assert rewritten(("W", TOM), ("W", new)) == (
        "Tom Reilly in 9C has type 1 diabetes. He's allowed to eat snacks in lessons and can "
        "leave to check his blood sugar without asking. Tom Reilly's hypo kit is kept in the "
        "medical room, next to the main office."
    )


@pytest.mark.parametrize(
    "new", ["Tom Reilly got 7 out of 10 on the quiz.", "Tom Reilly now sits at the front."]
)
def test_a_note_of_something_else_leaves_the_entry(new: str) -> None:
    assert rewritten(("W", TOM), ("W", new)) is None
