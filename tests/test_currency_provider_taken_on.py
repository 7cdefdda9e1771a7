"""Another provider taken on, told as what happened, replaces the one an entry names.

Three scenarios of five weeks' notes (a vet practice, a small publisher, an allotment site)
each told a change of provider as an event: "Signed with Medequip Vet Engineering today - they
take over all our equipment servicing from 1 October", "Signed with Liis Saar today - she'll
translate Night Ferry to Tallinn from the Estonian", "Signed with Northgate Polytunnels today for
the polytunnel re-skin, £910 …". No rule read them, so Pennine, Kadri Tamm and Coversure stayed
current. The entry now has its provider put right (its other facts stay), or, where both give an
amount, the note takes its place.
"""

from __future__ import annotations

import pytest

from tests.currency_support import rewritten


@pytest.mark.parametrize(
    ("old", "new", "now"),
    [
        ("Equipment servicing contract is with Pennine Vet Services (x-ray, anaesthetic machine, "
         "autoclave).",
         "Signed with Medequip Vet Engineering today - they take over all our equipment "
         "servicing from 1 October.",
         "Equipment servicing contract is with Medequip Vet Engineering (x-ray, anaesthetic "
         "machine, autoclave)."),
        ("Night Ferry to Tallinn by Tomas Lind, translated from Estonian by Kadri Tamm. "
         "Publication April 2027.",
         "Signed with Liis Saar today - she'll translate Night Ferry to Tallinn from the Estonian.",
         "Night Ferry to Tallinn by Tomas Lind, translated from Estonian by Liis Saar. "
         "Publication April 2027."),
        ("Going with Coversure Tunnels for the polytunnel repair; their quote is £840 for a "
         "re-skin.",
         "Signed with Northgate Polytunnels today for the polytunnel re-skin, £910 including "
         "hot-spot tape; they start Wednesday 14 October.",
         "Signed with Northgate Polytunnels today for the polytunnel re-skin, £910 including "
         "hot-spot tape; they start Wednesday 14 October."),
    ],
)  # fmt: skip
def test_the_provider_is_put_right(old: str, new: str, now: str) -> None:
    assert rewritten(("W", old), ("B", new)) == now


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another book the same translator works on
        ("Kadri Tamm is translating the Estonian short story anthology.",
         "Signed with Liis Saar today - she'll translate Night Ferry to Tallinn from the "
         "Estonian."),
        # another service
        ("Our accountant is Jane Moss at Moss & Co.",
         "Hired Brightwave for the newsletter design."),
        # the same provider said again
        ("Night Ferry to Tallinn by Tomas Lind, translated from Estonian by Kadri Tamm.",
         "Signed with Kadri Tamm today for the Night Ferry to Tallinn translation."),
    ],
)  # fmt: skip
def test_no_other_provider_is_put_right(old: str, new: str) -> None:
    assert rewritten(("W", old), ("B", new)) is None


def test_no_name_in_a_list_is_a_provider() -> None:
    """A publisher's weekly summary had "Small Gods" put right to "Liis Saar": the first name
    after a shared word, in a list. A provider is said "by", "with", "is" …"""
    old = (
        "Week summary: Salt Orchard copyedits back, launch booked at Foyles for 22 October, "
        "Night Ferry grant confirmed, Small Gods due 30 September."
    )
    new = "Signed with Liis Saar today - she'll translate Night Ferry to Tallinn from the Estonian."
    assert rewritten(("W", old), ("B", new)) is None
    assert rewritten(("S", old), ("B", new)) is None


def test_a_day_is_no_provider_nor_a_shared_service() -> None:
    """A parent's "Signed with Fittleworth today for Maya's pod and pump supply home deliveries;
    first box arrives 12 Oct." had rewritten "… appointment is pushed back to Wed 21 Oct …" to
    "pushed back to Fittleworth 21 Oct": "Maya" and "Oct" were the two words shared, "Wed" the
    name after "to"."""
    old = (
        "Clinic rang: Maya's diabetes clinic appointment is pushed back to Wed 21 Oct, 10:30, "
        "with Dr Rao."
    )
    new = (
        "Signed with Fittleworth today for Maya's pod and pump supply home deliveries; first box "
        "arrives 12 Oct."
    )
    assert rewritten(("W", old), ("B", new)) is None


def test_a_provider_said_at_a_place_with_figures_of_its_own() -> None:
    """A conference's hotel block: the note gives its own rooms and price, so it is the entry."""
    old = "Hotel block: 40 rooms held at the Riverside Hotel for 17–20 November."
    new = "Signed with Castle Court Hotel today for the hotel block: 35 rooms, 17–20 November."
    assert rewritten(("W", old), ("B", new)) == new


def test_a_provider_named_as_the_entrys_subject() -> None:
    """A landlord's "Signed with Northgate Property today - they take over managing Flat 2 at 8%
    plus VAT" had left "Hartwell Lettings manage Flat 2 for us, 10% of rent plus VAT" standing:
    the provider was the entry's subject, not a name said "by" or "with"."""
    old = "Hartwell Lettings manage Flat 2 for us, 10% of rent plus VAT."
    new = "Signed with Northgate Property today - they take over managing Flat 2 at 8% plus VAT."
    assert rewritten(("W", old), ("B", new)) == new
