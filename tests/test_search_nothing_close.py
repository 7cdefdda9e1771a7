"""Search says when memory holds nothing on the question: fused scores are normalised, so the
best hit of a nonsense query scored 0.9 and looked like an answer. Each hit says how it matches
the query (its words, its meaning, or weakly) from its raw cosine and the words it shares; the
ranking itself does not move."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from agent_sleep import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.integrations.mcp_server import MemoryTools
from agent_sleep.retrieval import recall as recall_module
from agent_sleep.retrieval.recall import (
    CLOSE_COSINE,
    Fusion,
    Hit,
    nothing_close,
    recall,
    relevant,
)
from tests.conftest import run_cli

NOTES = [
    ("W", "Redis listens on port 6380 in staging, not the default 6379."),
    ("W", "Error code PAY-402 means the card issuer declined the charge."),
    ("O", "The user prefers pytest fixtures over unittest setUp methods."),
    ("W", "Production runs on three Kubernetes pods behind an nginx ingress."),
    ("B", "The nightly backup job failed because the S3 bucket policy changed."),
    ("W", "Currency amounts are stored as integer cents, never floats."),
    ("B", "Onboarded Priya, who will own the reconciliation job."),
    ("W", "Emails are sent through Postmark; templates are in templates/email/."),
]
NONSENSE = "xyzzy frobnicate quux"
REAL = "which port does redis use in staging"


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = tmp_path_factory.mktemp("close") / "ws"
    start = dt.datetime(2026, 3, 2, 9, 0)
    for i, (kind, text) in enumerate(NOTES):
        micro_rest(text, kind, workspace=ws, when=start + dt.timedelta(minutes=7 * i))
    return ws


def test_a_nonsense_query_finds_hits_but_none_is_close(filled: Path) -> None:
    hits = recall(filled, NONSENSE)
    assert hits and hits[0].score > 0.5  # what misled: a high relative score
    assert {h.match for h in hits} == {"weak"} and not relevant(hits)
    assert all(h.cosine is not None and h.cosine < CLOSE_COSINE for h in hits)
    assert nothing_close(NONSENSE, hits) == (
        "nothing close to the query: the hits share no word with it and read unlike it"
    )


def test_a_real_question_is_matched_by_its_words(filled: Path) -> None:
    hits = recall(filled, REAL)
    assert "6380" in hits[0].text and hits[0].match == "words"
    assert hits[0].cosine is not None and hits[0].cosine > CLOSE_COSINE
    assert relevant(hits) and nothing_close(REAL, hits) is None


def test_a_question_sharing_no_word_is_matched_by_meaning(filled: Path) -> None:
    query = "what is our cloud container orchestration setup"
    hits = recall(filled, query)
    found = next(h for h in hits if "Kubernetes" in h.text)
    assert found.match == "meaning" and relevant(hits)


def test_a_code_in_no_note_is_named_as_missing(filled: Path) -> None:
    query = "what does error ERR_7731 mean"
    hits = recall(filled, query)
    # "error" and "mean" are in the PAY-402 note: only the code tells it is not the answer
    assert hits and not relevant(hits)
    assert nothing_close(query, hits) == "nothing close to the query: no hit holds ERR_7731"
    held = recall(filled, "what does PAY-402 mean")
    assert "PAY-402" in held[0].text and held[0].match == "words"


def test_without_the_model_the_words_alone_decide(filled: Path) -> None:
    bm25 = Fusion(vector_weight=0.0, text_weight=1.0)
    hits = recall(filled, "staging port", fusion=bm25)
    assert hits[0].match == "words" and all(h.cosine is None for h in hits)
    # BM25 reads a note with the one before it: the next note matches, its own text does not
    assert [h.match for h in hits[1:]] == ["weak"] * (len(hits) - 1)


def test_a_unit_whose_vector_waits_for_a_later_update_has_no_cosine() -> None:
    import numpy as np

    # a backlog's rows are zeros until the background job embeds them: no cosine, not 0
    index: Any = SimpleNamespace(vectors=np.array([[0.0, 0.0], [0.6, 0.8]], dtype=np.float32))
    hits = [Hit("plain words", "memory/a.md", 1.0, ()), Hit("other words", "memory/a.md", 0.5, ())]
    out = recall_module._closeness(index, hits, [0, 1], "zzz", np.array([0.6, 0.8]))
    assert [h.cosine for h in out] == [None, 1.0]
    assert [h.match for h in out] == ["weak", "meaning"]


def test_closeness_moves_no_hit(filled: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for query in (NONSENSE, REAL, "what does error ERR_7731 mean"):
        shown = [(h.text, h.score) for h in recall(filled, query, k=8)]
        with monkeypatch.context() as m:
            m.setattr(recall_module, "_closeness", lambda index, hits, *_: hits)
            assert [(h.text, h.score) for h in recall(filled, query, k=8)] == shown


def test_cli_says_so_on_stderr_and_still_shows_the_hits(filled: Path) -> None:
    r = run_cli("search", NONSENSE, "-w", str(filled))
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines() == [
        "(nothing close to the query: the hits share no word with it and read unlike it)"
    ]
    assert "memory/2026-03-02.md" in r.stdout
    r = run_cli("search", REAL, "-w", str(filled))
    assert r.returncode == 0 and "nothing close" not in r.stderr and "6380" in r.stdout


def test_cli_json_gives_each_hit_its_match_and_cosine(filled: Path) -> None:
    r = run_cli("search", NONSENSE, "-w", str(filled), "--json")
    assert r.returncode == 0 and r.stderr == ""  # stdout is the one JSON document
    hits = json.loads(r.stdout)
    assert hits and all(h["match"] == "weak" and isinstance(h["cosine"], float) for h in hits)
    hits = json.loads(run_cli("search", REAL, "-w", str(filled), "--json").stdout)
    assert hits[0]["match"] == "words" and hits[0]["cosine"] > CLOSE_COSINE
    hits = json.loads(
        run_cli("search", "staging", "--bm25-only", "-w", str(filled), "--json").stdout
    )
    assert hits[0]["match"] == "words" and hits[0]["cosine"] is None


def test_mcp_search_carries_it(filled: Path) -> None:
    tools = MemoryTools(Workspace.at(filled))
    found = tools.memory_search(query=NONSENSE)
    assert found["relevant"] is False and found["hits"]
    assert {h["match"] for h in found["hits"]} == {"weak"}
    found = tools.memory_search(query=REAL)
    assert found["relevant"] is True and found["hits"][0]["match"] == "words"
    assert isinstance(found["hits"][0]["cosine"], float)


def test_the_session_start_context_says_so_above_the_nearest(filled: Path) -> None:
    from agent_sleep import get_context

    far = get_context(workspace=filled, query=NONSENSE, today=dt.date(2026, 3, 20))
    assert "(nothing in memory is close to the query: these are only the nearest)" in far
    near = get_context(workspace=filled, query=REAL, today=dt.date(2026, 3, 20))
    assert "## Relevant memories" in near and "6380" in near
    assert "nothing in memory is close" not in near
