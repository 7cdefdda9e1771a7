"""Hybrid recall: provenance, exact keyword hits, recency, duplicates, budget, CLI."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace
from pathlib import Path

import pytest

from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval.recall import Fusion, Hit, count_tokens, recall
from tests.conftest import run_cli

OLD = dt.datetime(2025, 1, 10, 10, 0)
NEW = dt.datetime(2026, 3, 1, 10, 0)
TODAY = dt.date(2026, 3, 2)


@pytest.fixture
def filled(ws: Path) -> Path:
    micro_rest("User prefers concise replies", "O", workspace=ws, when=OLD, source="msg-1")
    micro_rest("Redis default port is 6379", "W", workspace=ws, when=OLD, source="msg-2")
    micro_rest("We deployed the billing service to staging", "B", workspace=ws, when=NEW)
    micro_rest("The cat is called Miso", "W", workspace=ws, when=NEW)
    for i in range(12):
        micro_rest(f"Lunch on day {i} was a sandwich with soup", "B", workspace=ws, when=NEW)
    return ws


def test_hits_carry_text_path_score_date_and_provenance(filled: Path) -> None:
    hit = recall(filled, "which port does redis use", k=1)[0]
    assert isinstance(hit, Hit)
    assert hit.text == "W: Redis default port is 6379"
    assert hit.path == "memory/2025-01-10.md" and hit.date == "2025-01-10"
    assert hit.sources[1] == "msg-2" and len(hit.sources[0]) == 10
    assert hit.score > 0


def test_consolidated_entries_cite_notes_and_their_outside_refs(filled: Path) -> None:
    w = Workspace.at(filled)
    note = recall(filled, "redis port", k=1)[0]
    w.memory_md.write_text(
        w.memory_md.read_text()
        + f"- W: Redis listens on 6379 <!-- id=mmmmmmmmmm sources={note.ids[0]} -->\n"
    )
    hits = recall(filled, "redis listens", k=3)
    entry = next(h for h in hits if h.path == "MEMORY.md")
    assert entry.sources == ("mmmmmmmmmm", note.ids[0], "msg-2")


def test_exact_keyword_hits_survive_the_cutoff(filled: Path) -> None:
    strict = Fusion(min_score=2.0)  # above any fused score: only exact hits remain
    hits = recall(filled, "Miso", k=5, fusion=strict)
    assert [h.text for h in hits] == ["W: The cat is called Miso"]
    assert hits[0].exact
    assert recall(filled, "6379", k=5, fusion=strict)[0].text.endswith("6379")
    assert recall(filled, "feline pet name", k=5, fusion=strict) == []


def test_recency_decay_favours_recent_notes_but_never_memory(filled: Path) -> None:
    w = Workspace.at(filled)
    w.memory_md.write_text(
        w.memory_md.read_text() + "- W: Staging deploys need approval <!-- id=mmmmmmmmmm -->\n"
    )
    micro_rest("Deployed the billing service to staging", "B", workspace=filled, when=OLD)
    query = "deployed billing service staging"
    plain = recall(filled, query, k=3, today=TODAY)
    decayed = recall(filled, query, k=3, fusion=Fusion(half_life_days=30), today=TODAY)
    old_score = {h.date: h.score for h in decayed}
    assert old_score["2026-03-01"] > old_score.get("2025-01-10", 0) * 100
    memory = [h for h in decayed if h.path == "MEMORY.md"]
    assert memory and memory[0].score == next(h.score for h in plain if h.path == "MEMORY.md")


def test_near_duplicates_fold_into_one_hit_with_both_sources(ws: Path) -> None:
    a = micro_rest("The VPN password rotates every 90 days", "W", workspace=ws, when=OLD)
    b = micro_rest("The VPN password rotates every 90 days.", "W", workspace=ws, when=NEW)
    micro_rest("Coffee machine is on floor 3", "W", workspace=ws, when=NEW)
    hits = recall(ws, "vpn password rotation", k=5)
    vpn = [h for h in hits if "VPN" in h.text]
    assert len(vpn) == 1 and {a, b} <= set(vpn[0].sources)
    kept = recall(ws, "vpn password rotation", k=5, fusion=Fusion(duplicate=1.0))
    assert len([h for h in kept if "VPN" in h.text]) == 2


def test_results_are_packed_greedily_into_the_budget(filled: Path) -> None:
    # one ranking for both depths (deep recall re-ranks a k=50 request, not a small budget)
    shallow = Fusion(deep_from=1000)
    everything = recall(filled, "lunch sandwich soup day", k=50, fusion=shallow)
    budget = sum(h.tokens for h in everything[:3]) + 2
    packed = recall(filled, "lunch sandwich soup day", budget_tokens=budget, fusion=shallow)
    assert sum(count_tokens(h.text) for h in packed) <= budget
    assert [h.text for h in packed[:3]] == [h.text for h in everything[:3]]
    assert len(recall(filled, "lunch", budget_tokens=budget, k=1)) == 1


def test_default_is_six_results_and_empty_cases(filled: Path, tmp_path: Path) -> None:
    assert len(recall(filled, "lunch sandwich")) == 6
    assert recall(filled, "   ") == []
    assert recall(tmp_path / "nothing-here", "anything") == []


def test_vector_search_finds_paraphrases_bm25_cannot(filled: Path) -> None:
    words_only = replace(Fusion(), vector_weight=0.0, text_weight=1.0)
    assert all("Miso" not in h.text for h in recall(filled, "kitty", k=3, fusion=words_only))
    assert "Miso" in recall(filled, "what is the name of our kitty", k=1)[0].text


def test_search_command_prints_hits_and_json(filled: Path) -> None:
    r = run_cli("search", "redis port", "-w", str(filled), "-k", "2", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data[0]["text"] == "W: Redis default port is 6379" and "msg-2" in data[0]["sources"]
    r = run_cli("search", "redis port", "-w", str(filled), "--budget-tokens", "12")
    assert r.returncode == 0 and "6379" in r.stdout
    assert "--half-life" in run_cli("search", "--help").stdout


def test_a_window_shows_its_notes_each_once_within_the_budget(
    ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent_sleep.retrieval import units

    monkeypatch.setattr(units, "WINDOW_NOTES", 3)
    monkeypatch.setattr(units, "WINDOW_STRIDE", 1)
    talk = [
        "Joanna: Do you remember the lake we visited?",
        "Nate: Yes, we swam there with the turtles all afternoon",
        "Joanna: The water was so cold!",
    ]
    talk += [f"Nate: Filler talk number {i} about the weather" for i in range(30)]
    for i, text in enumerate(talk):
        micro_rest(text, "B", workspace=ws, when=NEW + dt.timedelta(minutes=i), source=f"D1:{i}")
    bm25 = Fusion(vector_weight=0.0, text_weight=1.0)
    hits = recall(ws, "lake turtles", budget_tokens=600, fusion=bm25, today=TODAY)  # deep
    ids = [h.ids for h in hits]
    assert len(ids) == len(set(ids))  # no note shown twice
    assert all(h.kind == "log" for h in hits)  # a window is never shown itself
    assert sum(h.tokens for h in hits) <= 600
    assert [h.sources[-1] for h in hits[:3]] == ["D1:0", "D1:1", "D1:2"]  # the window, in order
    shallow = recall(ws, "lake turtles", k=3, fusion=bm25, today=TODAY)
    assert {h.sources[-1] for h in shallow} >= {"D1:0", "D1:1"}  # notes ranked on their own
