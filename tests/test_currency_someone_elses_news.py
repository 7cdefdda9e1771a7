"""A person's news is no new value of a thing, and "stands at" says what a thing is.

An allotment site's notes: "Gareth Lloyd no longer holds plot 7 - he gave it up; Helen Okafor
from the waiting list takes it over" retired "Waiting list stands at 23 people" (the learned
guess), and "Waiting list is 19 people after the tidy-up" then retired the plot-7 note rather
than the count ("stands at" was read as another attribute than "is"), so Helen Okafor's plot left
MEMORY.md and 23 stayed.
"""

from __future__ import annotations

from tests.currency_support import replaced, replaces

COUNT = {"id": "m1", "type": "W", "text": "Waiting list stands at 23 people.", "date": "2026-09-09"}
PLOT = {
    "id": "m2",
    "type": "W",
    "text": "Gareth Lloyd no longer holds plot 7 - he gave it up; Helen Okafor from the waiting "
    "list takes it over.",
    "date": "2026-10-05",
}


def test_a_persons_news_leaves_the_count() -> None:
    assert not replaces(("W", COUNT["text"]), ("W", PLOT["text"]))


def test_the_new_count_replaces_the_count_not_the_persons_news() -> None:
    new = ("W", "Waiting list is 19 people after the tidy-up.")
    assert replaced(new, [COUNT, PLOT], day="2026-10-07") == ["m1"]
    assert not replaces(("W", PLOT["text"]), new)
