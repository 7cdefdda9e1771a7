"""The learned second stage of deep recall: its features, its token cost, and its fit."""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path

import numpy as np
import pytest

from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval.index import open_index
from agent_sleep.retrieval.learned import FEATURES, WEIGHTS, Signals, features, rescore, score
from agent_sleep.retrieval.recall import Fusion, count_tokens, recall
from bench.recall_harness import fit

DAY = dt.datetime(2026, 3, 1, 10, 0)
NOTES = [
    "Nate: My turtles love the new tank, they swim around all day.",
    "Joanna: Do you have any plans for the weekend, Nate?",
    "Nate: I am going hiking in the hills with my brother on Saturday morning, then we will "
    "cook dinner together at his place and watch the game.",
]


@pytest.fixture
def two_days(ws: Path) -> Path:
    for day in range(2):
        for text in NOTES:
            micro_rest(text, "B", workspace=ws, when=DAY + dt.timedelta(days=day), source=None)
    return ws


def _signals(n: int, fused: dict[int, float], content: set[str]) -> Signals:
    return Signals(
        text=np.linspace(0.0, 1.0, n),
        cos=np.linspace(-0.2, 0.8, n),
        cand=np.arange(n),
        fused=fused,
        named=frozenset({0}),
        content=frozenset(content),
    )


def test_features_read_the_unit_its_log_and_the_query(two_days: Path) -> None:
    index = open_index(Workspace.at(two_days))
    n = len(index.units)
    assert n == 6
    fused = {r: 0.1 * (r + 1) for r in range(n)}
    sig = _signals(n, fused, {"turtles", "tank", "weekend"})
    rows = list(range(n))
    x = features(index, rows, np.arange(n, dtype=float), np.zeros(n), sig)
    col = {name: x[:, i] for i, name in enumerate(FEATURES)}
    assert x.shape == (n, len(FEATURES))
    assert col["first"][0] == 0.0 and col["first"][-1] == 1.0  # min-max over the re-scored
    assert list(col["question"]) == [0, 1, 0, 0, 1, 0]
    # the turns around a question, within its log: day one's last note is not before day two's
    assert list(col["after_question"]) == [0, 0, 1, 0, 0, 1]
    assert list(col["before_question"]) == [1, 0, 0, 1, 0, 0]
    assert col["named"][0] == 1.0 and col["named"][1:].sum() == 0
    assert col["coverage"][0] == pytest.approx(2 / 3)  # turtles and tank, not weekend
    assert col["coverage"][1] == pytest.approx(1 / 3)
    for r in rows:
        assert col["length"][r] == pytest.approx(math.log(1 + count_tokens(index.units[r].text)))
    # a note's neighbours are the notes beside it in its own log, never across days
    assert col["neighbour"][0] == pytest.approx(fused[1])
    assert col["neighbour"][2] == pytest.approx(fused[1])  # the last of day one: not row 3
    assert col["neighbour"][3] == pytest.approx(fused[4])  # the first of day two: not row 2
    assert col["day"][0] == pytest.approx(fused[2]) and col["day"][3] == pytest.approx(fused[5])
    assert col["bm25"][-1] == pytest.approx(1.0) and col["cosine"][0] == pytest.approx(0.0)


KITES = ["Ann: The red kite flew high.", "Bob: Lunch was soup.", "Ann: My kite string broke?"]


def test_question_neighbours_outside_the_re_scored_rows_are_read(two_days: Path) -> None:
    index = open_index(Workspace.at(two_days))
    rows = [0, 2]  # row 1, the question between them, is not re-scored
    sig = _signals(len(index.units), {0: 0.5, 2: 0.4}, {"turtles"})
    x = features(index, rows, np.array([1.0, 0.0]), np.zeros(2), sig)
    col = {name: x[:, i] for i, name in enumerate(FEATURES)}
    assert list(col["before_question"]) == [1, 0]
    assert list(col["after_question"]) == [0, 1]


def test_the_added_features_rank_neighbours_leaders_and_speakers(ws: Path) -> None:
    for day in range(2):
        for text in KITES:
            micro_rest(text, "B", workspace=ws, when=DAY + dt.timedelta(days=day), source=None)
    index = open_index(Workspace.at(ws))
    n = len(index.units)
    assert n == 6
    fused = {r: 0.1 * (r + 1) for r in range(n)}
    sig = _signals(n, fused, {"bob", "kite"})
    rows = list(range(n))
    first = np.array([6.0, 1.0, 2.0, 3.0, 4.0, 5.0])  # row 0 leads, then 5, 4
    match = np.array([0.3, 0.9, 0.1, 0.5, 0.2, 0.4])
    x = features(index, rows, first, match, sig)
    col = {name: x[:, i] for i, name in enumerate(FEATURES)}
    assert x.shape == (n, len(FEATURES)) == (n, 40)
    # ranks: BM25 and cosine rise with the row (see _signals), first and match as given
    assert col["rank_bm25"] == pytest.approx([math.log(1 + 5 - r) for r in rows])
    assert col["rank_cos"] == pytest.approx([math.log(1 + 5 - r) for r in rows])
    assert col["rank_first"] == pytest.approx([math.log(v) for v in (1, 6, 5, 4, 3, 2)])
    assert col["rank_match"] == pytest.approx([math.log(v) for v in (4, 1, 6, 2, 5, 3)])
    assert list(col["match_raw"]) == pytest.approx(list(match))
    # neighbours stay within a day: row 2's only neighbour is row 1, row 3's is row 4
    assert col["near_cos"][2] == pytest.approx(sig.cos[1])
    assert col["near_cos"][3] == pytest.approx(sig.cos[4])
    assert col["near_bm25"][3] == pytest.approx(sig.text[4] / sig.text[5])
    assert col["near_match"][0] == pytest.approx(1.0)  # row 1 has the best match
    assert col["near_match"][3] == pytest.approx((0.2 - 0.1) / 0.8)
    assert col["near_named"][1] == 1.0 and col["near_named"][2] == 0.0  # row 0 is named
    assert col["near_coverage"][0] == pytest.approx(0.5)  # row 1 names Bob, not a kite
    assert col["near_coverage"][1] == pytest.approx(0.5)
    # the leader (row 0: Ann's red kite) shares "ann" or "kite" with Ann's notes, not Bob's
    assert list(col["shares_top"]) == [1, 0, 1, 1, 0, 1]
    assert list(col["speaker"]) == [0, 1, 0, 0, 1, 0]
    assert list(col["day_count"]) == pytest.approx([math.log(4)] * n)
    # rows 2 and 5 end with a question mark, each its day's last note: nothing follows either
    assert list(col["before_question"]) == [0, 1, 0, 0, 1, 0]
    assert list(col["after_question"]) == [0, 0, 0, 0, 0, 0]
    if index.vectors is not None:
        v = np.asarray(index.vectors[np.arange(n)], dtype=np.float64)
        lead = [0, 5, 4]  # the three best first-pass units
        for r in rows:
            others = [x for x in lead if x != r]
            assert col["cos_top1"][r] == pytest.approx(v[r] @ v[others[0]])
            assert col["cos_top3"][r] == pytest.approx(max(v[r] @ v[x] for x in others))
    # each base feature again, times ln(re-scored units)
    for name in ("first", "match", "bm25", "neighbour", "coverage"):
        assert col[f"{name}*depth"] == pytest.approx(col[name] * math.log(n))


def test_token_cost_puts_the_shorter_of_two_equals_first_only_when_asked(two_days: Path) -> None:
    index = open_index(Workspace.at(two_days))
    short, long = 1, 2  # the question and the long hiking plan
    assert count_tokens(index.units[long].text) > 2 * count_tokens(index.units[short].text)
    x = np.ones((2, len(FEATURES)))
    plain = rescore(index, [long, short], x, WEIGHTS, cost_weight=0.0)
    assert plain[long] == plain[short]
    costed = rescore(index, [long, short], x, WEIGHTS, cost_weight=1.5)
    assert costed[short] > costed[long]
    assert all(0.5 <= v <= 1.0 for v in costed.values())


def test_a_strong_enough_learned_score_outweighs_the_cost(two_days: Path) -> None:
    index = open_index(Workspace.at(two_days))
    short, long = 1, 2
    x = np.zeros((2, len(FEATURES)))
    x[:, FEATURES.index("rank_match")] = [0.0, math.log(132)]  # best and last of 4 × 33
    x[0, FEATURES.index("match")] = 1.0  # the long unit matches the query token by token
    x[0, FEATURES.index("match*depth")] = math.log(132)
    costed = rescore(index, [long, short], x, WEIGHTS, cost_weight=1.5)
    gap = score(x[:1], WEIGHTS)[0] - score(x[1:], WEIGHTS)[0]
    ratio = count_tokens(index.units[long].text) / count_tokens(index.units[short].text)
    assert gap > 1.5 * math.log(ratio)  # so the long one must stay first
    assert costed[long] > costed[short]


def test_the_learned_rerank_is_the_default_and_the_mix_remains(two_days: Path) -> None:
    assert Fusion().learned == WEIGHTS and len(WEIGHTS) == 1 + len(FEATURES)
    query = "What does Nate keep as pets?"
    learned = recall(two_days, query, budget_tokens=1000)
    mixed = recall(two_days, query, budget_tokens=1000, fusion=Fusion(learned=None))
    assert {h.text for h in learned} == {h.text for h in mixed}  # six units fit either way
    assert "turtles" in learned[0].text


def test_fit_recovers_a_planted_model() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(20_000, 3)) * [1.0, 2.0, 0.5] + [0.0, 1.0, -2.0]
    planted = np.array([-1.0, 1.5, -0.5, 0.0])
    p = 1 / (1 + np.exp(-(planted[0] + x @ planted[1:])))
    y = (rng.random(len(p)) < p).astype(float)
    got = np.array(fit(x, y))
    assert np.allclose(got, planted, atol=0.12)
    assert abs(got[3]) < 0.12  # the feature that carries nothing gets about nothing


def test_the_days_a_query_names() -> None:
    from agent_sleep.retrieval.signals import in_days, query_days

    on = query_days("What did Ana show Ben on October 13, 2023?")
    assert on == (("2023-10-11", "2023-10-15"),)
    assert query_days("What did Gina find on 1 February, 2023?") == (("2023-01-30", "2023-02-03"),)
    assert query_days("status on 2024-03-05") == (("2024-03-03", "2024-03-07"),)
    # a month with its year reaches into the week after it: what happened is told later
    assert in_days("2023-08-05", query_days("What did they paint in July 2023?"))
    assert not in_days("2023-08-09", query_days("What did they paint in July 2023?"))
    # a month alone, in any year
    assert in_days("2021-06-20", query_days("When did Mel go camping in June?"))
    assert not in_days("2021-05-31", query_days("When did Mel go camping in June?"))
    assert in_days("2023-10-13", on) and not in_days("2023-10-20", on)
    # no day named: a year alone, the modal "may", an impossible day
    for q in ("How often in 2023?", "What may I bring?", "in mayhem"):
        assert query_days(q) == (), q
    assert query_days("on 31 February, 2023") == ()
    assert not in_days(None, on)


def test_a_unit_of_a_day_the_query_names_is_dated(two_days: Path) -> None:
    index = open_index(Workspace.at(two_days))
    n = len(index.units)
    from dataclasses import replace

    from agent_sleep.retrieval.signals import query_days

    sig = replace(_signals(n, {r: 0.1 for r in range(n)}, {"turtles"}), days=query_days(
        "What did Nate say on 2 March, 2026?"
    ))  # fmt: skip
    x = features(index, list(range(n)), np.arange(n, dtype=float), np.zeros(n), sig)
    dated = x[:, FEATURES.index("dated")]
    # the two logs are 1 and 2 March: both within two days of the 2nd; the 4th only the 2nd
    assert list(dated) == [1.0] * n
    sig = replace(sig, days=query_days("What did Nate say on 4 March, 2026?"))
    x = features(index, list(range(n)), np.arange(n, dtype=float), np.zeros(n), sig)
    assert list(x[:, FEATURES.index("dated")]) == [0, 0, 0, 1, 1, 1]
    assert len(WEIGHTS) == len(FEATURES) + 1 and WEIGHTS[1 + FEATURES.index("dated")] > 0


def test_a_day_the_query_names_is_searched_in_the_notes_dates(ws: Path) -> None:
    from agent_sleep.retrieval.signals import date_terms

    assert date_terms("What did we decide on 4 March, 2026?") == ["2026", "03", "04"]
    assert date_terms("the review in July 2023") == ["2023", "07"]
    assert date_terms("camping in June?") == ["06"] and date_terms("what may I bring?") == []
    for day in range(6):  # one decision a day, alike but for the day
        when = dt.datetime(2026, 3, 1 + day, 10, 0)
        text = f"Decided in the planning meeting to ship build {100 + day} to the beta group."
        micro_rest(text, "W", workspace=ws, when=when, source=None)
    keywords = Fusion(vector_weight=0.0, text_weight=1.0)  # what BM25 alone finds
    for query in ("What did we decide in the planning meeting on 4 March, 2026?",
                  "What did we decide in the planning meeting on March 4th, 2026?"):  # fmt: skip
        hits = recall(ws, query, k=3, fusion=keywords, today=dt.date(2026, 3, 10))
        assert hits[0].date == "2026-03-04" and "build 103" in hits[0].text, hits
    # and the shipped default, vectors and all, ranks it among the three best
    hits = recall(ws, "What did we decide in the planning meeting on 4 March, 2026?", k=3)
    assert "2026-03-04" in [h.date for h in hits], hits
