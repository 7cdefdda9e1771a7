"""The claim reader's fast paths give the answers of the patterns they stand for.

`change_words.found` searches a case-insensitive pattern's case-sensitive twin over the
lowered text when the text is ASCII; `may_hold` skips a substitution whose word cannot occur;
`change_word` caches a whole-word match. Each is checked against the plain pattern over
sentences in several cases and scripts, including the characters where Unicode case folding
and ``str.lower`` part ways (the long s, the Kelvin sign, the dotted capital I).
"""

from __future__ import annotations

import random
import re

import pytest

from agent_sleep.analysis import change_words as cw
from agent_sleep.analysis.claims import claims

PATTERNS = [
    cw.CHANGE_RE,
    cw.MODAL_RE,
    cw.DECIDED_RE,
    cw.NEGATION_RE,
    cw.ADDITIVE_RE,
    cw.WAS_RE,
    cw.OLD_VALUE_RE,
    cw.REPORTS_TO_RE,
    cw.TAKE_PLACE_RE,
]

SENTENCES = [
    "The standup MOVED to 10:15 (Was 9:30).",
    "We no longer use Jenkins; we switched to GitHub Actions.",
    "Dana Reports To Hiro after the reorg.",
    "The offsite Takes Place in Lisbon.",
    "I might quit if they don't raise it.",
    "Also added a second replica, too.",
    "Caroline: I went to the LGBTQ support group yesterday!",
    "Payments client timeout: 45 seconds",
    "We Decided to keep Postgres and will revisit it.",
    "ſtopped the nightly job",  # long s: IGNORECASE reads it as "s", lower() does not
    "The \u212aubernetes cluster was upgraded",  # Kelvin sign
    "İt was \u0130nstead of the old one",  # dotted capital I
    "Le délai est passé à 30 jours, plus tôt qu'avant.",
    "Die Frist wurde verlängert — now 30 days.",
    "",
]


def _corpus() -> list[str]:
    rng = random.Random(17)
    words = " ".join(SENTENCES).split() + ["now", "WAS", "(was", "report", "place", "may", "9"]
    made = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 14))) for _ in range(400)]
    return SENTENCES + made + [s.upper() for s in SENTENCES] + [s.swapcase() for s in SENTENCES]


@pytest.mark.parametrize("rx", PATTERNS, ids=lambda rx: rx.pattern[:24])
def test_found_answers_as_the_pattern_does(rx: re.Pattern[str]) -> None:
    corpus = _corpus()
    assert [cw.found(rx, s) for s in corpus] == [rx.search(s) is not None for s in corpus]
    assert any(cw.found(rx, s) for s in corpus), "the corpus should hold a match of each"


def test_found_keeps_unicode_case_folding() -> None:
    # IGNORECASE folds the long s to "s"; the ASCII twin must not be used on such text
    assert cw.CHANGE_RE.search("ſtopped the job") is not None
    assert cw.found(cw.CHANGE_RE, "ſtopped the job")
    assert cw.found(cw.CHANGE_RE, "STOPPED the job")


def test_a_pattern_that_writes_capitals_has_no_twin() -> None:
    rx = re.compile(r"\bSQL\b|\bnow\b", re.I)
    assert cw.found(rx, "we use sql") == (rx.search("we use sql") is not None)
    assert cw.found(rx, "NOW") and not cw.found(rx, "SQLite")


def test_may_hold_never_skips_a_match() -> None:
    for s in _corpus():
        for word, rx in (("place", cw.TAKE_PLACE_RE), ("report", cw.REPORTS_TO_RE)):
            if rx.search(s):
                assert cw.may_hold(s, word), s


def test_change_word_is_the_whole_word_match() -> None:
    for w in ["now", "moved", "took-over", "anymore", "any", "nowhere", "MOVED", "ſtopped", ""]:
        assert cw.change_word(w) == (cw.CHANGE_RE.fullmatch(w) is not None), w


def test_substitutions_still_apply() -> None:
    """The skipped substitutions run when their text is there: a contraction, "takes
    place", a thousands comma, an arrow, "took over", "reports to"."""
    (c,) = claims("Dana reports to Hiro.")
    assert "report-to" in c.text.lower() or "reports-to" in c.text
    assert claims("Upload cap: 25 MB -> 100 MB")[0].change
    assert "1200" in claims("The budget is $1,200.")[0].values[0]
    assert "happens" in claims("The offsite takes place in Lisbon.")[0].text
    assert "am" in claims("I'm based in Porto.")[0].text
