"""Notes that share a topic with a standing fact but give no new value of it retire nothing.

Three exploratory tests (a science teacher, an SRE on call, a runner), five weeks of notes
each, found true facts retired by notes that only touched their topic. In each case the rules
found no update and the learned guess read one:
- the day an entry gives came: "Staff briefing: mock exams start tomorrow" had retired the mock
  timetable it agrees with, "parents' evening tonight; saw 22 families" the evening's date;
- a task list: "Weekend plan: … finish the trip risk assessment draft" had retired who signs
  the assessment off, "Before the Dec 14 on-call week: re-read the Redis failover runbook" the
  runbook's address;
- a day to come: "Tomorrow's checkout-api release is v4.13.2" had retired the version running
  now, and the port said with it;
- a view held: "Maya now believes 4:00 at Lakeshore is realistic" had retired when and where
  her running club meets.
"""

from __future__ import annotations

import pytest

from tests.currency_support import replaces, rewritten


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Year 11 mocks: Chemistry Paper 1 is on Tuesday 24 November, Physics Paper 1 on "
         "Thursday 26 November.", ("B", "Staff briefing: mock exams start tomorrow (2026-11-24).")),
        ("Year 10 parents' evening: Thursday 3 December, 4-7pm, sports hall.",
         ("B", "Year 10 parents' evening tonight (2026-12-03) in the sports hall; saw 22 "
               "families.")),
        ("The trip risk assessment needs sign-off from the Educational Visits Coordinator, "
         "Mr. Paul Grant.",
         ("S", "Weekend plan: write the 9C retrieval quizzes and finish the trip risk "
               "assessment draft.")),
        ("Redis failover runbook: wiki.example.internal/runbooks/redis-failover",
         ("S", "Before the Dec 14 on-call week: re-read the Redis failover runbook and the Loki "
               "query cheatsheet.")),
        ("checkout-api runs v4.12.0 in production and listens on port 8443.",
         ("S", "Tomorrow's (2026-11-10) checkout-api release is v4.13.2; rollback plan is to "
               "redeploy the v4.12.0 images.")),
        ("Maya runs with the Eastside Striders, who do a group run every Tuesday at 6:30 pm "
         "from the Riverside Park boathouse.",
         ("O", "Maya now believes 4:00 at Lakeshore is realistic.")),
    ],
)  # fmt: skip
def test_a_note_on_the_topic_retires_no_fact(old: str, new: tuple[str, str]) -> None:
    assert not replaces(("W", old), new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a new day for the event is still a change
        ("Year 10 parents' evening: Thursday 3 December, 4-7pm, sports hall.",
         ("W", "Year 10 parents' evening has been moved to Thursday 10 December.")),
        # a view that replaces a view
        ("Maya thinks a sub-3:45 marathon is realistic.",
         ("O", "Maya now believes 4:00 is the realistic target.")),
    ],
)  # fmt: skip
def test_a_change_of_the_fact_still_replaces_it(old: str, new: tuple[str, str]) -> None:
    assert replaces(("W" if new[0] != "O" else "O", old), new)


@pytest.mark.parametrize(
    "new",
    [
        ("B", "Rolled out checkout-api v4.13.2 to production."),
        ("W", "checkout-api now runs v4.13.2 in production."),
        ("B", "Upgraded checkout-api to v4.13.2 in production."),
        ("B", "Rolled out checkout-api v4.13.2 to production at 11:40; canary was clean."),
        ("W", "checkout-api v4.13.2 has been stable in prod for three weeks."),
    ],
)
def test_the_release_done_puts_the_version_right(new: tuple[str, str]) -> None:
    """The release itself, once done, gives the new version: put right in the entry, the port
    said with it stays (before, the entry was kept whole beside the note, or not replaced)."""
    old = "checkout-api runs v4.12.0 in production and listens on port 8443."
    assert rewritten(("W", old), new) == (
        "checkout-api runs v4.13.2 in production and listens on port 8443."
    )


@pytest.mark.parametrize(
    "new",
    [
        "Rolled out checkout-api v4.13.2 to staging.",  # another environment
        "Rolled out search-api v4.13.2 to production.",  # another service
        "Next week we will roll out checkout-api v4.14.0 to production.",  # not yet
    ],
)
def test_a_release_of_another_thing_puts_nothing_right(new: str) -> None:
    old = "checkout-api runs v4.12.0 in production and listens on port 8443."
    assert rewritten(("W", old), ("B", new)) is None


def test_a_field_the_entry_does_not_hold_replaces_nothing() -> None:
    """A relocating family's notes: "Maisie's ISU start date: 16 November" retired "ISU has a
    Year 5 place for Maisie; admissions contact is Mr. Daan Visser" (the learned guess), and the
    contact's name left MEMORY.md. A field and its value, where the older note says no word of
    the field, is no new value of it."""
    old = (
        "International School Utrecht (ISU) has a Year 5 place for Maisie; admissions contact "
        "is Mr. Daan Visser."
    )
    assert rewritten(("W", old), ("W", "Maisie's ISU start date: 16 November.")) is None
    # the field it holds, given a new value, still replaces it
    assert replaces(("W", "Maisie's ISU start date: 16 November."),
                    ("W", "Maisie's ISU start date: 23 November."))  # fmt: skip


def test_a_change_told_before_a_colon_is_no_field() -> None:
    """ "Helix Bio expanded: order form for 200 seats countersigned." was read as a field
    ("Helix Bio expanded") the entry does not hold, so the 120 seats stayed current beside the
    200 once "Helix Bio" was a known name. A label ending in a verb tells a change."""
    old = ("W", "Helix Bio has 120 licensed seats on the Team plan.")
    new = ("W", "Helix Bio expanded: order form for 200 seats countersigned.")
    assert replaces(old, new, frozenset({"Helix", "Bio"}))
