"""A thing that holds no more, said by name, retires the fact of it.

"Cancelled Netflix today" left "Netflix subscription is £10.99 a month" in MEMORY.md, and
"Walter stopped taking simvastatin" left the dose beside it: a note that ends a thing gives
no new value, so no rule read it as an update. An ending now replaces the standing fact that
names the same thing; a thing merely mentioned, another person's thing, an intention or a
word that only looks alike does not.
"""

from __future__ import annotations

import pytest

from tests.currency_support import replaces


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Netflix subscription is £10.99 a month.", ("B", "Cancelled Netflix today.")),
        ("We pay £10.99 a month for Netflix, on Noor's card.", ("B", "Cancelled Netflix today.")),
        ("Walter takes simvastatin 20 mg at night.", ("W", "Walter stopped taking simvastatin.")),
        ("Walter takes simvastatin 20 mg at night.",
         ("B", "Dr. Shah stopped Walter's simvastatin.")),
        ("The gym membership at PureGym costs £24.99 a month.",
         ("B", "Cancelled the PureGym membership.")),
        ("Netflix subscription is £10.99 a month.", ("W", "Netflix is cancelled.")),
        ("Netflix subscription is £10.99 a month.", ("W", "We no longer have Netflix.")),
        # a field label that is no speaker (a relocating family's notes: "Crossing:" had read as
        # a chat turn's speaker, and a chat turn is never read as ended)
        ("Crossing: Stena Line Harwich to Hook of Holland overnight ferry on 22 November, "
         "booking ref SL7731920.",
         ("W", "Cancelled the Stena booking (no pet cabins left); we're driving via Eurotunnel "
               "on 23 November, ref ET48822.")),
    ],
)  # fmt: skip
def test_an_ending_retires_the_fact(old: str, new: tuple[str, str]) -> None:
    assert replaces(("W", old), new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # an intention or a question ends nothing yet
        ("Netflix subscription is £10.99 a month.", "We might cancel Netflix next month."),
        ("Netflix subscription is £10.99 a month.", "Should we cancel Netflix?"),
        # another person's thing
        ("Noor's Netflix subscription is £10.99 a month.", "Farida's Netflix was cancelled."),
        # the verb used without an object: "closed in August" is when, not what
        ("Alpha milestone for Ember is due August 30.",
         "Consumables are now charged to grant account 4-30562; the old one closed in August."),
        # one plain word in common is not the thing
        ("The window in the spare room sticks in wet weather.", "Closed the window."),
        # what ended is not all said in the older note
        ("Walter takes simvastatin 20 mg at night.", "Walter stopped taking ibuprofen."),
    ],
)  # fmt: skip
def test_no_ending_of_another_thing(old: str, new: str) -> None:
    assert not replaces(("W", old), ("B", new))


def test_what_ended_is_a_thing_not_the_next_clause() -> None:
    """ "Saturday's friendly at Millbrook Juniors (Oct 3) is cancelled - their pitch is
    waterlogged" retired where training is ("… on the Greenway 3G pitch"): "- their pitch" was
    read as what was cancelled."""
    old = ("W", "The club emailed: from next week Rovers training will be on the Greenway 3G "
                "pitch (floodlit) instead of Hollins Park.")  # fmt: skip
    new = ("W", "The league emailed: Saturday's friendly at Millbrook Juniors (Oct 3) is "
                "cancelled - their pitch is waterlogged.")  # fmt: skip
    assert not replaces(old, new)
