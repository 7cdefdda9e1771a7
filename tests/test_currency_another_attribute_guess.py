"""The learned guess retires no entry for a note about another attribute of the same thing.

Over 31 replayed scenarios, about a third of the entries the learned guess retired were other
fields of one thing: "Taproom indoor capacity is 80" retired "Taproom is at Unit 4, Quayside
Yard"; "Pryce Butchers minimum order is £80 for free delivery" retired "Meat comes from Pryce
Butchers — they deliver Monday, Wednesday and Friday"; "Training set for the sentiment model is
reviews-v3" retired "The sentiment model is for our client Brightwave Retail". The note's
attribute (the plain words of the phrase it opens with) is said nowhere in the entry it would
retire: the guess is not taken.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis.update_model import another_attribute, attribute_words
from tests.currency_support import rewritten


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Taproom is at Unit 4, Quayside Yard; deliveries go round the back gate.",
         "Taproom indoor capacity is 80."),
        ("Meat comes from Pryce Butchers — they deliver Monday, Wednesday and Friday.",
         "Pryce Butchers minimum order is £80 for free delivery."),
        ("The sentiment model is for our client Brightwave Retail (product review classifier).",
         "Training set for the sentiment model is reviews-v3."),
        ("Flat 2 has allocated parking space 17 in the rear car park.",
         "Flat 2 EPC is rating C, valid until March 2031."),
        ("St Mark's Church Hall on Hill End Lane hosts the Saturday session, 10am to 12:30pm.",
         "The next trustees' meeting is on 15 October at 7pm in the St Mark's vestry."),
    ],
)  # fmt: skip
def test_another_attribute_retires_nothing(old: str, new: str) -> None:
    assert another_attribute(new, old)
    assert rewritten(("W", old), ("W", new)) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Golden pothos 12cm wholesale from Van der Berg is £2.10 each.",
         "Golden pothos 12cm wholesale price from Van der Berg is £2.45 each."),
        ("Dawn Ellery is the council allotments officer; her phone is 01632 960418.",
         "Dawn Ellery's direct line is 01632 960733."),  # a way to reach her, for another
        ("Deposit for groups of 8 or more is £10 a head, taken at booking.",
         "Group bookings of 8+ need a £15 a head deposit."),  # "bookings" for "booking"
        ("Raffle tickets will be £1.50 a strip.",
         "Correction: raffle strips are £2.50 each."),  # the label names no attribute
        # a clause first: no subject is read
        ("Hourly rate for the Saturday shift: £11.",
         "After the pay review, the Saturday shift pays £12 an hour."),
        ("Milk is delivered by Dale Farm at 7am.",
         "Dale Farm's van pulls up at 6:15 now, so someone opens early."),
        # "of" joins the words of one attribute: "point of contact"
        ("Main contact at Acme is Ms. Okafor in procurement.",
         "Acme's point of contact is now Derek Lin, IT director."),
        # a label telling what happened, before a clause or a value of its own
        ("The main office is in Manchester.",
         "Move done: the main office is in Leeds since Monday."),
        ("Acme has 30 licensed seats.", "Acme expanded: order form for 50 seats signed."),
        # the first word, which the entry writes in lower case: "Menu" of "the menu"
        ("Lemon tart is on the menu at £6.50.", "Menu update: lemon tart £7, cheesecake £6.50."),
    ],
)  # fmt: skip
def test_the_same_attribute_is_read(old: str, new: str) -> None:
    assert not another_attribute(new, old)


def test_the_words_of_an_attribute() -> None:
    assert attribute_words("Taproom indoor capacity is 80.") == {"indoor", "capacity"}
    assert attribute_words("Flat 2 EPC is rating C.") == {"epc"}
    assert attribute_words("Training set for the sentiment model is reviews-v3.") == {"set"}
    assert attribute_words("Airbnb cancelled on us; moved temp flat.") == frozenset()
    assert attribute_words("We will see.") == frozenset()  # no phrase before its verb
