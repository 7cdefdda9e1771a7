"""A provider signed with, a role's new holder, a day said again: each replaces what it puts
right.

Four replayed scenarios (a dental practice, an on-call SRE team, a smallholding's farm shop,
an investigative journalist's research) each told a change of provider as an event, in a way
no rule read:

- "Signed with Crestwood Dental Lab today; Meridian will only finish the cases they already
  have": the old lab is named, as the one left;
- "Signed with Instatus today for the public status page", for "Public status page is on
  Atlassian Statuspage": a provider said "on";
- "Signed with Haddon Meats … today — they'll do all our butchery": what it takes over said
  as "all our …";
- "Signed with Verbit today for interview transcription", for "We use Rev for interview
  transcripts": the service in another form, the provider before it in its clause.

Two told a role's new holder with no word of change ("Luis Ortega is the platform engineering
manager"), and two a day said again ("Autoclave validation booked for 30 September"; "Story
meetings with Claire are Thursdays at 14:00"). The older entries stayed current beside them.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis.currency import (
    due_day_put_right,
    restated_day_put_right,
    role_holder_put_right,
)
from tests.currency_support import rewritten


@pytest.mark.parametrize(
    ("old", "new", "now"),
    [
        ("Our dental lab is Meridian Dental Lab in Salford; the account is in Dr Whitfield's name.",
         "Signed with Crestwood Dental Lab today; Meridian will only finish the cases they "
         "already have.",
         None),
        ("Public status page is on Atlassian Statuspage (status.larkfield.io).",
         "Signed with Instatus today for the public status page; migrating components this week.",
         "Public status page is on Instatus (status.larkfield.io)."),
        ("Butchery is done by Ferris Butchers in Thirsk; they cut and pack for us after the "
         "abattoir.",
         "Signed with Haddon Meats in Northallerton today — they'll do all our butchery.",
         None),
        ("We use Rev for interview transcripts; upload the audio through Maya's account.",
         "Signed with Verbit today for interview transcription - the Ledger's new contract "
         "covers all desks.",
         None),
    ],
)  # fmt: skip
def test_a_provider_signed_with_replaces_the_one_named(old: str, new: str, now: str | None) -> None:
    got = rewritten(("W", old), ("B", new))
    assert got == (now or new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the old provider named as what the new one works on, not as the one left
        ("Night Ferry to Tallinn by Tomas Lind, translated from Estonian by Kadri Tamm.",
         "Signed with Liis Saar today to design the Night Ferry cover."),
        # one word of what it does shared, in another form, and nothing taken over
        ("We use Rev for interview transcripts.", "Signed with Verbit today for subtitles."),
        # "all our …" of something the entry does not say
        ("Butchery is done by Ferris Butchers in Thirsk.",
         "Signed with Haddon Meats today — they'll take all our eggs."),
    ],
)  # fmt: skip
def test_no_provider_is_put_right_by_another_service(old: str, new: str) -> None:
    assert rewritten(("W", old), ("B", new)) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Dana Whitfield is the platform engineering manager; Sev1 escalations go to her.",
         "Luis Ortega is the platform engineering manager; Sev1 escalations go to him."),
        ("Our accountant is Sarah Okafor at Lindley & Co.",
         "Our accountant is Daniel Reeve at Lindley & Co."),
        ("The site lead is Priya.", "The site lead is now Omar."),
    ],
)  # fmt: skip
def test_a_roles_new_holder_replaces_the_one_before(old: str, new: str) -> None:
    assert role_holder_put_right(new, old) == new
    assert rewritten(("W", old), ("W", new)) == new


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another role
        ("Dana Whitfield is the platform engineering manager.",
         "Luis Ortega is the data engineering manager."),
        # the same holder said again
        ("Tom Hale is the treasurer.", "Tom Hale is the treasurer, re-elected at the AGM."),
        # a role many hold
        ("Priya is a nurse on ward 4.", "Omar is a nurse on ward 4."),
    ],
)  # fmt: skip
def test_no_holder_is_replaced_by_another_role(old: str, new: str) -> None:
    assert role_holder_put_right(new, old) is None


@pytest.mark.parametrize(
    ("old", "new", "now"),
    [
        ("Autoclave annual validation is booked for 24 September with Melag's engineer.",
         "Autoclave validation booked for 30 September.",
         "Autoclave annual validation is booked for 30 September with Melag's engineer."),
        ("Story meetings with Claire Dunn (editor) are Tuesdays at 10:00.",
         "Story meetings with Claire are Thursdays at 14:00.",
         "Story meetings with Claire Dunn (editor) are Thursdays at 14:00."),
    ],
)  # fmt: skip
def test_a_day_said_again_is_put_right(old: str, new: str, now: str) -> None:
    assert restated_day_put_right(new, old) == now
    assert rewritten(("W", old), ("W", new)) == now


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another one's day: a figure, a name, a word the entry does not say
        ("Year 3 parents' evening is 14 October.", "Year 5 parents' evening is 21 October."),
        ("Sam's swimming lesson is on Tuesdays.", "Ella's swimming lesson is on Thursdays."),
        ("Bins go out Tuesdays.", "Recycling goes out Thursdays."),
        # the end of a range is no day of its own
        ("Dr Patel is on leave 12-16 October, Dr Lindqvist covering.",
         "Dr Patel on leave 19 October."),
        # a question, a time the entry has none of
        ("The team offsite is on 3 October.", "The team offsite is on 10 October?"),
        ("The team offsite is on 3 October.", "The team offsite is on 10 October at 9am."),
    ],
)  # fmt: skip
def test_no_other_day_is_put_right(old: str, new: str) -> None:
    assert restated_day_put_right(new, old) is None


def test_a_move_to_another_numbered_place_puts_its_number_right() -> None:
    """ "The market office has moved us to pitch 22" retired the market's set-up time (a guess
    from likeness) and left "We're on pitch 14" current."""
    new = (
        "The market office has moved us to pitch 22 at Ashby, by the fountain, from this Saturday."
    )
    assert rewritten(("W", "We're on pitch 14 at Ashby market."), ("W", new)) == (
        "We're on pitch 22 at Ashby market."
    )
    assert rewritten(("W", "Ashby Saturday market set-up starts at 6:30am."), ("W", new)) is None
    # nothing else shared: another place of that kind
    assert (
        rewritten(("W", "Hall 2 is booked, bay 7 for the lorry."), ("W", "Moved the van to bay 4."))
        is None
    )


def test_no_address_is_replaced_by_a_note_that_gives_none() -> None:
    old = "Our sister practice, Hazel Grove Dental, is at 211 London Road, Hazel Grove."
    new = "The practice main number 0161 480 2290 now forwards to Hazel Grove Dental after 5:30pm."
    assert rewritten(("W", old), ("W", new)) is None
    # a day put right in place keeps the address
    old = "Priya is doing a reading at Burley Fisher Books, 400 Kingsland Road, in November."
    new = "Priya's Burley Fisher reading is confirmed for 12 November at 7pm."
    assert rewritten(("W", old), ("W", new)) == (
        "Priya is doing a reading at Burley Fisher Books, 400 Kingsland Road, on 12 November "
        "at 7pm."
    )


def test_someone_handed_a_thing_is_no_change_of_what_they_hold() -> None:
    old = "Priya Raman (payments lead) mobile: 07700 900412."
    new = "Handed the pager to Priya for the weekend at 14:30, before the 15:00 deploy cutoff."
    assert rewritten(("W", old), ("B", new)) is None


def test_her_number_after_a_person_and_a_place_is_hers() -> None:
    old = "Vet is Dr Priya Nair at Fellside Veterinary Practice; her mobile is 07700 914 223."
    assert rewritten(("W", old), ("W", "Priya Nair's mobile is 07700 918 550.")) == (
        "Vet is Dr Priya Nair at Fellside Veterinary Practice; her mobile is 07700 918 550."
    )
    assert rewritten(("W", old), ("W", "Karen Moss's mobile is 07700 918 550.")) is None


def test_a_day_now_due_is_put_right_in_the_entry_that_gives_it() -> None:
    old = (
        "Filed an FOI request with Northvale City Council for the contract variation orders. "
        "Reference FOI-2026-1183; response due 2 October."
    )
    new = "The council invoked an extension: the council FOI response is now due 16 October."
    # an event's entry too: when the response is due is no part of what was done
    assert rewritten(("B", old), ("W", new)) == old.replace("2 October", "16 October")
    assert due_day_put_right("The invoice is now due 16 October.", old) is None
    # every word of what is due is the entry's: not another body's FOI
    other = (
        "Filed an FOI with the Environment Agency for pollution incident reports on the "
        "Harbourline network; response due 14 October."
    )
    assert due_day_put_right(new, other) is None


def test_an_aside_of_our_dealings_with_the_old_provider_goes_with_it() -> None:
    """ "Subscription billing vendor is Adapty (we're on a trial account)" had become "… is
    RevenueCat (we're on a trial account)" after "Signed with RevenueCat today …": a trial the
    new contract is not."""
    old = "Subscription billing vendor is Adapty (we're on a trial account)."
    new = (
        "Signed with RevenueCat today; RevenueCat is our subscription billing provider going "
        "forward."
    )
    assert rewritten(("W", old), ("B", new)) == new
    # an aside that is no clause stays: our own page's address
    old = "Public status page is on Atlassian Statuspage (status.larkfield.io)."
    new = "Signed with Instatus today for the public status page; migrating components this week."
    assert (
        rewritten(("W", old), ("B", new))
        == "Public status page is on Instatus (status.larkfield.io)."
    )
