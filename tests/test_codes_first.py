"""A unit that holds a code of the query as written (a setting, ticket, port, order number)
comes before units that only read alike or follow it: fusion let "opt14" and "opt54" (close
vectors) and the note after "Order 5001" (BM25 reads a note with the one before it) outrank the
only note that held the code, and ``k`` then cut it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, recall
from agent_sleep.retrieval.recall import Fusion, _codes

BM25 = Fusion(vector_weight=0.0, text_weight=1.0)
TEAMS = [
    *("billing", "auth", "search", "payments", "frontend"),
    *("kafka", "redis", "postgres", "k8s", "ci"),
]


def _settings(ws: Path, count: int = 60) -> None:
    for i in range(count):
        team = TEAMS[i % len(TEAMS)]
        micro_rest(
            f"the {team} team changed setting {team}_opt{i} to value {i * 37 % 1000}",
            "W",
            workspace=ws,
            when=dt.datetime(2026, 11, 1 + i % 20, 10),
        )


@pytest.mark.parametrize("code", ["opt15", "opt35", "opt46"])
def test_the_only_unit_holding_a_code_is_the_first_hit(tmp_path: Path, code: str) -> None:
    _settings(tmp_path)
    hits = recall(tmp_path, code, k=3)  # hybrid, the bundled model
    assert f"_{code} " in hits[0].text
    assert hits[0].exact


def test_the_note_after_a_code_does_not_outrank_it(tmp_path: Path) -> None:
    micro_rest("Order 5001 shipped to Berlin by DHL", "B", workspace=tmp_path)
    micro_rest("Order 5002 shipped to Berlin by UPS", "B", workspace=tmp_path)
    (hit,) = recall(tmp_path, "order 5001 Berlin", k=1, fusion=BM25)
    assert "5001" in hit.text


def test_more_codes_held_ranks_first(tmp_path: Path) -> None:
    for w in (1, 2):
        for i in (1, 2):
            micro_rest(f"writer{w} wrote item{i} of the batch", "W", workspace=tmp_path)
    hits = recall(tmp_path, "writer1 item2", k=4)
    held = [("writer1 " in h.text) + ("item2 " in h.text) for h in hits]
    assert held == [2, 1, 1, 0]


def test_a_code_held_only_as_part_of_a_longer_one_is_not_lifted(tmp_path: Path) -> None:
    micro_rest("The legacy proxy listens on port 80443", "W", workspace=tmp_path)
    micro_rest("The admin console port is 8044", "W", workspace=tmp_path)
    micro_rest("The staging proxy port was moved last week", "W", workspace=tmp_path)
    hits = recall(tmp_path, "which proxy port is 8044", k=3)
    assert hits[0].text.endswith("The admin console port is 8044")


@pytest.mark.parametrize(
    ("query", "codes"),
    [
        ("opt15", {"opt15"}),
        ("STRIPE_WEBHOOK_SECRET rotated?", {"stripe_webhook_secret"}),
        ("status of PAY-101 and v1.2.3 in eu-west-1", {"pay-101", "v1.2.3", "eu-west-1"}),
        ("port 8044 and order 5001", {"8044", "5001"}),
        ("why does getUser fail on the iPhone", {"getuser", "iphone"}),
        # dates, ordinals, quantities, brands and hyphenated words are no codes
        ("What did Caroline do on 8 May, 2023?", set()),
        ("Who ran a 5K on the 8th at 10am in 3D?", set()),
        ("Which YouTube channel sells dairy-free snacks in the U.S.?", set()),
        ("What happened in 1999 and 2024?", set()),
    ],
)
def test_what_reads_as_a_code(query: str, codes: set[str]) -> None:
    assert _codes(query) == codes
