"""A hit is ``exact`` for an identifier of the query only where the text holds it as a whole
token: an agent trusts the flag for ports, ticket numbers and versions."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, recall
from agent_sleep.retrieval.recall import Fusion

BM25 = Fusion(vector_weight=0.0, text_weight=1.0)
WHEN = dt.datetime(2026, 11, 2, 10)


@pytest.mark.parametrize(
    ("query", "text", "exact"),
    [
        ("port 8044", "Port 80443 is used by the legacy proxy", False),
        ("port 8044", "The legacy proxy listens on port 8044.", True),
        ("PAY-10", "Ticket PAY-101 is open for the refund bug", False),
        ("PAY-10", "Ticket PAY-10 is open for the refund bug", True),
        ("v1.2", "Production runs v1.2.3 of the agent", False),
        ("v1.2", "Production runs v1.2 of the agent.", True),
        ("opt15", "The kafka team set kafka_opt15 to 370", True),
        ("kafka opt15", "The kafka team set kafka_opt150 to 370", False),
    ],
)
def test_exact_means_the_whole_identifier(tmp_path: Path, query: str, text: str, exact: bool):
    micro_rest(text, "W", workspace=tmp_path, when=WHEN)
    (hit,) = recall(tmp_path, query, k=3, fusion=BM25)
    assert hit.exact is exact
