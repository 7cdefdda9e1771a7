"""The update model's second look (analysis/update_model.py: SECOND_WEIGHTS in last_word):
updates the first weights leave as ``other``, read by weights fitted on replayed scenarios
(bench/fit_currency.py), and what no weights are asked of (``refused``)."""

from __future__ import annotations

from typing import Any

import pytest

from agent_sleep.analysis import currency, update_model
from bench import fit_currency
from tests.currency_support import replaces, rewritten

# (older note, newer note): the rules say "other" and the first weights read no update; the
# second look reads one, and sleep replaces the entry
SECOND_LOOK_UPDATES = [
    ("The hall hire is £40 an evening.", "Hall hire costs £45 per evening."),
]

# two things told apart by a sign the model does not read: no weights are asked, sleep keeps both
REFUSED = [
    ("Ravi Patel has 25% extra time in exams.", "Ravi's extra time also applies to the mock."),
    ("Room 4 is the double with a sea view.", "Room 5, next to 4, is a twin."),  # numbered
    ("Milk comes from Hillside Dairy on Tuesdays.", "Bread comes from Crumbs Bakery on Tuesdays."),
]

# look-alikes the model is asked of and reads apart with both weights
LOOK_ALIKES = [
    ("The adult class costs £12.", "The junior class costs £8."),
    ("Maya's piano lesson is on Mondays.", "Maya's swimming lesson is on Thursdays."),
]

# pairs the second weights would read as updates, left apart by what the second look never
# reads as one thing: two people's things, a plain qualifier of a word both share, a count
# joined to a word (update_model.second_apart)
SECOND_APART = [
    ("Leah covers the Sunday breakfast shift.",
     "Omar is doing the Saturday breakfast shift instead of Leah from now on."),
    ("Dana Whitfield's work email is dana.whitfield@norbridge.com.",
     "Dana Whitfield's personal email is dana.w@fastmail.com."),
    ("A 10-session PT pack costs £300.", "5-session PT pack is £160."),
]  # fmt: skip


def _both(new: str, old: str, why: str, similar: Any) -> tuple[float, float]:
    return (
        update_model.probability(new, old, why, similar),
        update_model.probability(new, old, why, similar, update_model.SECOND_WEIGHTS),
    )


@pytest.mark.parametrize(("old", "new"), SECOND_LOOK_UPDATES)
def test_the_second_look_reads_what_the_first_weights_miss(
    old: str, new: str, similar: Any
) -> None:
    rules = currency.relation(new, old, similar=similar)
    assert rules.kind == currency.OTHER
    assert not update_model.refused(new, old, rules, similar)
    first, second = _both(new, old, rules.why, similar)
    assert first < update_model.THRESHOLD <= 1.0
    assert second >= update_model.SECOND_THRESHOLD
    verdict = update_model.last_word(new, old, rules, similar)
    assert (verdict.kind, verdict.why) == (currency.SUPERSEDE, "likely update")
    assert replaces(("W", old), ("W", new))
    assert rewritten(("W", old), ("W", new)) == new


@pytest.mark.parametrize(("old", "new"), REFUSED)
def test_no_weights_are_asked_of_two_things_told_apart(old: str, new: str, similar: Any) -> None:
    rules = currency.relation(new, old, similar=similar)
    assert update_model.refused(new, old, rules, similar)
    assert update_model.last_word(new, old, rules, similar) is rules
    assert not replaces(("W", old), ("W", new))


@pytest.mark.parametrize(("old", "new"), LOOK_ALIKES)
def test_both_weights_keep_look_alikes_apart(old: str, new: str, similar: Any) -> None:
    rules = currency.relation(new, old, similar=similar)
    assert not update_model.refused(new, old, rules, similar)  # asked, and read apart
    first, second = _both(new, old, rules.why, similar)
    assert first < update_model.THRESHOLD and second < update_model.SECOND_THRESHOLD
    assert update_model.last_word(new, old, rules, similar).kind != currency.SUPERSEDE
    assert not replaces(("W", old), ("W", new))


def test_without_the_model_every_pair_is_refused() -> None:
    old, new = SECOND_LOOK_UPDATES[0]
    rules = currency.relation(new, old)
    assert update_model.refused(new, old, rules, None)
    assert update_model.last_word(new, old, rules, None) is rules


def test_what_the_rules_decide_is_not_asked(similar: Any) -> None:
    old, new = "Membership is £30 a year.", "Membership goes up to £35 a year."
    rules = currency.relation(new, old, similar=similar)
    assert rules.kind == currency.SUPERSEDE
    assert update_model.refused(new, old, rules, similar)
    assert update_model.last_word(new, old, rules, similar) is rules


def test_the_weights_fit_the_features() -> None:
    assert len(update_model.SECOND_WEIGHTS) == len(update_model.WEIGHTS)
    assert len(update_model.WEIGHTS) == len(update_model.FEATURES)
    assert 0.0 < update_model.SECOND_THRESHOLD < 1.0
    assert update_model.SECOND_WEIGHTS != update_model.WEIGHTS


def test_the_replayed_scenarios_are_whole() -> None:
    sets = fit_currency.replayed()
    assert len(sets) == 95
    names = {s["set"] for s in sets}
    assert {"r192", "r197"} <= names
    assert all(
        any(fit_currency.in_group(n, g) for g in (*fit_currency.GROUPS, fit_currency.HELD_OUT))
        for n in names
    )
    counts = [0, 0]
    for s in sets:
        notes = s["notes"]
        assert notes and s["pairs"] and all(set(n) == {"day", "type", "text"} for n in notes)
        for a, b, y in s["pairs"]:
            assert 0 <= a < len(notes) and 0 <= b < len(notes) and y in (0, 1)
            assert notes[a]["day"] >= notes[b]["day"]  # the newer note first
            counts[y] += 1
    assert counts == [23302, 1265]  # zeros, changes


def test_the_fit_reads_rows_and_fits_weights(similar: Any) -> None:
    got = fit_currency.replayed_rows(similar, only=frozenset({"r192", "r193"}), progress=False)
    assert {r["tag"] for r in got} == {"r192", "r193"}
    assert {r["y"] for r in got} == {0, 1}
    assert all(len(r["x"]) == len(update_model.FEATURES) for r in got)
    weights, threshold = fit_currency.fitted(got, [])
    assert len(weights) == len(update_model.FEATURES) and 0.0 < threshold < 1.0
    changes, n_changes, zeros, n_zeros = fit_currency.read(got, weights, threshold)
    assert 0 <= changes <= n_changes and 0 <= zeros <= n_zeros
    assert n_changes + n_zeros == len(got)


@pytest.mark.parametrize(("old", "new"), SECOND_APART)
def test_the_second_look_leaves_apart_what_it_never_reads_as_one(
    old: str, new: str, similar: Any
) -> None:
    rules = currency.relation(new, old, similar=similar)
    assert not update_model.refused(new, old, rules, similar)
    first, second = _both(new, old, rules.why, similar)
    assert first < update_model.THRESHOLD and second >= update_model.SECOND_THRESHOLD
    assert update_model.second_apart(new, old, rules)
    assert update_model.last_word(new, old, rules, similar).kind != currency.SUPERSEDE
    assert not replaces(("W", old), ("W", new))
