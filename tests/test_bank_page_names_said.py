"""Bank pages are named after what notes are about, not after a code, a count or a word of
manner.

Replayed scenarios made ``en.md`` (from "DE>EN"), ``eur.md`` (from "EUR 0.09 per word"),
``away.md``, ``three.md`` and ``live.md``; a first name said alone opened its own page beside
the full name the same notes give ("Dev" and "Dev Patel").
"""

from __future__ import annotations

from collections import Counter

import pytest

from agent_sleep.analysis import distill, lexical
from agent_sleep.providers import offline


def _page(texts: list[str], row: int) -> tuple[str, str]:
    known = frozenset(distill.known_names(texts))
    counts: Counter[str] = Counter(n for t in texts for n in distill.names(t, known))
    return offline._group(texts[row], counts, lexical.TfIdf(texts), row, known)


@pytest.mark.parametrize(
    "texts",
    [
        ["Lingua Bridge pays EUR 0.09 per word.", "Polyglot pays EUR 0.08 per word.",
         "Hartmann pays EUR 45 per hour.", "Rates in EUR are invoiced monthly."],
        ["Most agency work is DE>EN.", "Novatek manual is DE>EN, 38,000 words.",
         "The press kit is FR>EN.", "All DE>EN jobs go through Trados."],
    ],
)  # fmt: skip
def test_a_currency_or_a_language_pair_opens_no_page(texts: list[str]) -> None:
    for row in range(len(texts)):
        kind, name = _page(texts, row)
        assert name.lower() not in {"eur", "en", "de", "fr"}, (texts[row], kind, name)


def test_a_word_of_manner_or_a_count_names_no_topic() -> None:
    texts = [
        "Fair is 19 days away; the stalls are sorted.",
        "Sam covers when the chair is away.",
        "The tombola table sits away from the hall.",
        "All three rents are in; three flats let.",
        "Rent check: all three September rents are in.",
        "Three quotes came in for the roof.",
    ]
    for row in range(len(texts)):
        assert _page(texts, row)[1] not in ("away", "three"), texts[row]


def test_a_first_name_said_alone_is_the_full_name_the_notes_give() -> None:
    texts = [
        "Dev Patel's DBS application is pending.",
        "Dev Patel joined the committee in September.",
        "Added Dev to the fair volunteer rota for the tombola.",
        "Dev will bring the float on Saturday.",
    ]
    assert _page(texts, 2) == ("entity", "Dev Patel")
    assert _page(texts, 3) == ("entity", "Dev Patel")


def test_a_place_said_alone_stays_the_place() -> None:
    texts = [
        "Leeds Building Society holds the club's savings.",
        "Tour opens in Leeds on Thursday.",
        "Leeds has sold out; the Leeds crew call is at 4pm.",
        "Leeds load-in is at 2pm.",
    ]
    assert _page(texts, 3) == ("entity", "Leeds")
