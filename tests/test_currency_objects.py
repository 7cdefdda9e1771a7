"""What a change verb acts on: the thing whose value changed, not the one who changed it.

"The clinic moved Kofi's dentist appointment to March 10" speaks of Kofi's appointment, as
"Kofi's dentist appointment is on March 3" does; "We moved standup to 10:00" of the standup.
The clinic and "we" are doers. Earlier, only an object opened by a determiner ("changed the
cache TTL to 600") was read, so these updates stood beside what they replace.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import currency
from agent_sleep.analysis.claims import claims

UPDATES = [
    ("Ms. Duarte's insulin dose is 10 units at night.",
     "The endocrinologist raised Ms. Duarte's insulin dose to 14 units at night."),
    ("Kofi's dentist appointment is on March 3.",
     "The clinic moved Kofi's dentist appointment to March 10."),
    ("Lena's monthly allowance is $50.", "We increased Lena's monthly allowance to $65."),
    ("Grandpa's physiotherapy is on Tuesdays.",
     "The hospital moved Grandpa's physiotherapy to Fridays."),
    ("Standup is at 9:30.", "We moved standup to 10:00."),
    ("Prod runs Postgres 14.", "We switched prod to Postgres 16."),
]  # fmt: skip

LOOK_ALIKES = [
    # another possessor: another person's dose, another child's appointment
    ("Ms. Duarte's insulin dose is 10 units at night.",
     "The endocrinologist raised Mr. Osei's insulin dose to 14 units at night."),
    ("Kofi's dentist appointment is on March 3.",
     "The clinic moved Amara's dentist appointment to March 10."),
    # the same possessor, another attribute
    ("Lena's monthly allowance is $50.", "We increased Lena's piano lessons to twice a week."),
    # another thing named as the object
    ("Standup is at 9:30.", "We moved retro to 10:00."),
    ("Prod runs Postgres 14.", "We switched staging to Postgres 16."),
    # a pronoun names nothing
    ("The standup is at 9:30.", "We moved it to Friday."),
    ("Bob is on the payments team.", "Moved Alice to the platform team."),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new"), UPDATES)
def test_an_update_said_through_its_object_supersedes(old: str, new: str) -> None:
    assert currency.relation(new, old).kind == currency.SUPERSEDE


@pytest.mark.parametrize(("old", "new"), LOOK_ALIKES)
def test_another_object_leaves_both_standing(old: str, new: str) -> None:
    assert currency.relation(new, old).kind != currency.SUPERSEDE


def test_the_possessor_owns_the_object_and_is_no_value() -> None:
    [c] = claims("The endocrinologist raised Ms. Duarte's insulin dose to 14 units at night.")
    assert "duarte" in c.owner
    assert {"insulin", "dose"} <= c.attrs
    assert c.values == ("14",)  # "Duarte's" is whose dose it is, not the new value


def test_a_pronoun_doer_is_no_owner_of_what_it_moved() -> None:
    [c] = claims("We moved standup to 10:00.")
    assert c.owner == frozenset({"standup"})
    # after a determiner too ("I switched the tickets" had retired a flight rebooked by "us")
    [c] = claims("We raised the retry limit for Falcon to 5.")
    assert c.owner == frozenset({"falcon"})
    [c] = claims("I replaced my Kindle Paperwhite with a Kobo Libra.")  # still mine
    assert "user" in c.owner


def test_the_time_a_subject_is_said_of_is_not_its_owner() -> None:
    """ "Primary on-call this week is Rasmus": the on-call, not the week."""
    [c] = claims("Primary on-call this week is Rasmus Berg.")
    assert c.owner == frozenset({"on-call"})
    old, new = "Primary on-call this week is Rasmus Berg.", "On-call handed over to Thandiwe Osei."
    assert currency.relation(new, old).kind == currency.SUPERSEDE
    other = "The release manager this week is Ana."
    assert currency.relation("On-call handed over to Ben.", other).kind != currency.SUPERSEDE
