"""Deep recall: pseudo-relevance feedback and the late-interaction rerank, and when they run."""

from __future__ import annotations

import datetime as dt
import importlib
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval.bm25 import tokenize
from agent_sleep.retrieval.index import embedder, open_index
from agent_sleep.retrieval.recall import Fusion, _feedback_terms, recall
from agent_sleep.retrieval.rerank import rerank, unit_tokens
from agent_sleep.retrieval.token_states import STATES, model_key

DAY = dt.datetime(2026, 3, 1, 10, 0)
recall_mod = importlib.import_module(
    "agent_sleep.retrieval.recall"
)  # the package exports the function
SHALLOW = Fusion(deep_from=10_000)
FIRST_PASS = Fusion(feedback_weight=0.0, rerank_weight=0.0)


@pytest.fixture(autouse=True)
def _empty_token_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    STATES.clear()
    monkeypatch.setattr(STATES, "memory", OrderedDict())


@pytest.fixture
def chat(ws: Path) -> Path:
    """A conversation in which the pets are never called pets."""
    notes = [
        "Nate: I went to the grocery store and bought some bread.",
        "Nate: My turtles love the new tank, they swim around all day.",
        "Nate: Traffic on the highway was terrible this morning.",
        "Nate: I watched a movie about space travel last night.",
        "Nate: The new video game tournament starts on Friday.",
        "Joanna: Do you have any plans for the weekend, Nate?",
        "Nate: I painted the living room walls a light blue colour.",
        "Nate: My coffee machine broke again, so I bought a new one.",
        "Joanna: I finished writing the second draft of my screenplay.",
        "Nate: I fed the goldfish and cleaned the bowl this morning.",
        "Nate: The weather has been rainy all week long.",
        "Joanna: My favourite book this year is about a lighthouse keeper.",
    ]
    for i in range(3):
        for text in notes:
            micro_rest(text, "B", workspace=ws, when=DAY + dt.timedelta(days=i), source=None)
    return ws


def _rank_of(hits: list, needle: str) -> int:
    return next(i for i, h in enumerate(hits) if needle in h.text)


def test_shallow_requests_skip_feedback_and_rerank(chat: Path) -> None:
    shallow = recall(chat, "What pets does Nate have?", k=6)
    assert not STATES.memory  # no unit was token-embedded
    first = recall(chat, "What pets does Nate have?", k=6, fusion=FIRST_PASS)
    assert [h.text for h in shallow] == [h.text for h in first]
    recall(chat, "What pets does Nate have?", budget_tokens=1000)
    assert STATES.memory  # a 1000-token budget wants 33 hits: deep


def test_switching_both_off_gives_the_first_pass_ranking(chat: Path) -> None:
    off = recall(chat, "What pets does Nate have?", k=30, fusion=FIRST_PASS)
    shallow = recall(chat, "What pets does Nate have?", k=30, fusion=SHALLOW)
    assert [(h.text, h.score) for h in off] == [(h.text, h.score) for h in shallow]


def test_rerank_lifts_a_note_that_names_an_instance_of_what_is_asked(chat: Path) -> None:
    query = "What pets does Nate have?"
    no_rerank = replace(Fusion(), rerank_weight=0.0)
    before = recall(chat, query, k=30, fusion=no_rerank)
    after = recall(chat, query, k=30)
    assert _rank_of(after, "turtles") < _rank_of(before, "turtles")
    assert _rank_of(after, "goldfish") < _rank_of(before, "goldfish")


def test_feedback_reaches_notes_that_share_no_word_with_the_query(ws: Path) -> None:
    # the broker note comes first: the notes before a note are part of what BM25 reads
    micro_rest("The kafka broker runs on the ops cluster, port 9092", "W", workspace=ws, when=DAY)
    for i in range(20):
        micro_rest(f"Unrelated chatter number {i} about the weather", "B", workspace=ws, when=DAY)
    failed = "Deploy of the billing service failed: kafka broker unreachable"
    micro_rest(failed, "B", workspace=ws, when=DAY)
    micro_rest("Billing deploy retried after the kafka broker restart", "B", workspace=ws, when=DAY)
    bm25 = Fusion(vector_weight=0.0, text_weight=1.0)
    query = "why did the billing deploy fail"
    plain = recall(ws, query, k=25, fusion=replace(bm25, feedback_weight=0.0))
    fed = recall(ws, query, k=25, fusion=bm25)
    assert not any("9092" in h.text for h in plain)  # no query word: not even a candidate
    assert any("9092" in h.text for h in fed)  # "kafka broker" came from the best notes


def test_feedback_terms_weigh_frequency_by_length_and_rarity(chat: Path) -> None:
    index = open_index(Workspace.at(chat))
    rows = np.array([i for i, u in enumerate(index.units) if "goldfish" in u.text])
    terms = _feedback_terms(index, rows, ["bowl"], Fusion(feedback_terms=3))
    assert len(terms) == 3
    assert "bowl" not in terms  # the query's own terms
    assert "nate" not in terms
    assert "b" not in terms  # one letter (the note's kind) names no topic
    read = {t for r in rows for t in tokenize(index.units[r].embedded)}
    assert set(terms) <= read
    assert "goldfish" in terms  # in every row, rare elsewhere
    assert "nate" in read  # the speaker is in every row too, but in every other note as well


def test_rerank_keeps_the_rest_below_the_rescored_block(chat: Path) -> None:
    ws = Workspace.at(chat)
    index = open_index(ws)
    model = embedder(ws)
    assert model is not None
    scores = {r: 1.0 / (1 + r) for r in range(len(index.units))}
    out = rerank(index, "What pets does Nate have?", model, scores, 0.4, depth=10)
    block = sorted(scores, key=lambda r: -scores[r])[:10]
    assert all(0.5 <= out[r] <= 1.0 for r in block)
    rest = [r for r in scores if r not in block]
    assert all(out[r] < 0.5 for r in rest)
    assert sorted(rest, key=lambda r: -out[r]) == sorted(rest, key=lambda r: -scores[r])
    same = rerank(index, "What pets does Nate have?", model, scores, 0.0, depth=10)
    assert sorted(block, key=lambda r: -same[r]) == block


def test_token_cache_stays_under_its_cap(chat: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = Workspace.at(chat)
    index = open_index(ws)
    model = embedder(ws)
    assert model is not None
    monkeypatch.setattr(STATES, "memory_bytes", 10_000)  # about one unit
    first = unit_tokens(index, [0, 1, 2], model)
    assert len(STATES.memory) == 3  # a request's own units always stay
    second = unit_tokens(index, [3, 4], model)
    kept = set(STATES.memory)
    who = model_key(model)
    assert kept == {f"{who}|{index.hashes[r]}" for r in (3, 4)}  # oldest went first
    assert STATES.used == sum(v.size for v in second)  # one byte a component
    again = unit_tokens(index, [0], model)[0]
    assert np.array_equal(again, first[0])  # re-embedded alike
    assert first[0].dtype == np.int8 and first[0].shape[1] == 384


def test_bm25_only_deep_recall_needs_no_model(chat: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import agent_sleep.retrieval.index as index_mod

    def no_model(_ws: Workspace) -> None:
        raise AssertionError("the model was asked for")

    bm25 = Fusion(vector_weight=0.0, text_weight=1.0)
    recall(chat, "turtles tank", k=2, fusion=bm25)  # the index exists, with vectors or not
    monkeypatch.setattr(index_mod, "embedder", no_model)
    hits = recall(chat, "turtles tank", budget_tokens=2000, fusion=bm25)
    assert any("turtles" in h.text for h in hits[:3])


def test_token_states_persist_for_the_next_process(
    chat: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    query = "What pets does Nate have?"
    first = recall(chat, query, k=30)
    folder = Workspace.at(chat).state_dir / "tokens"
    assert list(folder.rglob("*.npy"))  # written beside the index, inside the workspace
    STATES.clear()  # as a new process would start
    model = embedder(Workspace.at(chat))

    real, asked = model.embed_tokens, []

    def counted(texts: list[str]) -> list[np.ndarray]:
        asked.extend(texts)
        return real(texts)

    monkeypatch.setattr(model, "embed_tokens", counted)
    again = recall(chat, query, k=30)
    assert [(h.text, h.score) for h in again] == [(h.text, h.score) for h in first]
    assert asked == [query]  # the query's own pieces; every unit came from disk


def test_a_damaged_token_file_is_recomputed(chat: Path) -> None:
    query = "What pets does Nate have?"
    first = recall(chat, query, k=30)
    files = sorted((Workspace.at(chat).state_dir / "tokens").rglob("*.npy"))
    files[0].write_bytes(b"\x93NUMPY torn")
    files[1].write_bytes(b"")
    STATES.clear()
    again = recall(chat, query, k=30)
    # recomputed in another batch than the index's (a state may differ in the last bit)
    assert [h.text for h in again] == [h.text for h in first]
    assert [h.score for h in again] == pytest.approx([h.score for h in first], abs=1e-4)
    assert files[0].stat().st_size > 100 and files[1].stat().st_size > 100  # rewritten whole


def test_token_folder_stays_under_its_cap(chat: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(STATES, "disk_bytes", 60_000)
    recall(chat, "What pets does Nate have?", k=30)
    STATES.clear()
    recall(chat, "Which books does Joanna like?", k=30)
    files = list((Workspace.at(chat).state_dir / "tokens").rglob("*"))
    assert sum(f.stat().st_size for f in files if f.is_file()) <= 60_000
    assert not [f for f in files if f.name.endswith(".tmp")]


def test_other_weights_never_read_these_states(chat: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = Workspace.at(chat)
    model = embedder(ws)
    recall(chat, "What pets does Nate have?", k=30)
    STATES.clear()
    # a configured model folder has the same name but other weights
    monkeypatch.setattr(model, "fingerprint", "0123456789ab")
    monkeypatch.setattr(model, "name", "all-MiniLM-L6-v2")
    recall(chat, "What pets does Nate have?", k=30)
    folders = sorted(p.name for p in (ws.state_dir / "tokens").iterdir())
    assert len(folders) == 2 and any(f.endswith("-0123456789ab") for f in folders)


def test_threads_share_the_token_cache(chat: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from concurrent.futures import ThreadPoolExecutor

    queries = ["What pets does Nate have?", "Which books does Joanna like?", "Nate's hobbies"]
    alone = {q: [h.text for h in recall(chat, q, k=25)] for q in queries}
    monkeypatch.setattr(STATES, "memory_bytes", 200_000)  # evictions while they run
    STATES.clear()
    STATES.used = 0
    with ThreadPoolExecutor(4) as pool:
        runs = list(pool.map(lambda q: (q, [h.text for h in recall(chat, q, k=25)]), queries * 4))
    assert all(texts == alone[q] for q, texts in runs)
    assert STATES.used == sum(v.nbytes for v in STATES.memory.values())


def test_token_states_are_int8_on_disk_and_keep_their_direction(chat: Path) -> None:
    from agent_sleep.retrieval.token_states import dequantize, quantize

    ws = Workspace.at(chat)
    index = open_index(ws)
    model = embedder(ws)
    assert model is not None
    exact = model.embed_tokens([index.units[0].text])[0]
    packed = quantize(exact)
    assert packed.dtype == np.int8 and packed.shape == exact.shape
    back = dequantize(packed).astype(np.float32)
    assert np.allclose(np.linalg.norm(back, axis=1), 1.0, atol=2e-3)
    assert float((back * exact).sum(axis=1).min()) > 0.999  # each row keeps its direction
    recall(chat, "What pets does Nate have?", k=30)
    files = sorted((ws.state_dir / "tokens").rglob("*.npy"))
    assert files and all(np.load(f).dtype == np.int8 for f in files)


def test_float16_states_of_an_earlier_release_are_recomputed(chat: Path) -> None:
    query = "What pets does Nate have?"
    first = recall(chat, query, k=30)
    files = sorted((Workspace.at(chat).state_dir / "tokens").rglob("*.npy"))
    for f in files:  # same names, the format before int8
        np.save(f, np.load(f).astype(np.float16) / 127)
    STATES.clear()
    again = recall(chat, query, k=30)
    assert [h.text for h in again] == [h.text for h in first]
    assert all(np.load(f).dtype == np.int8 for f in files)  # rewritten in this format


def test_a_small_deep_request_rescores_at_least_the_floor(
    chat: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    depths: list[int] = []
    real = recall_mod.rerank

    def spy(*args: object, **kwargs: object) -> dict[int, float]:
        depths.append(int(args[5]))  # type: ignore[call-overload]
        return real(*args, **kwargs)

    monkeypatch.setattr(recall_mod, "rerank", spy)
    ws = Workspace.at(chat)
    for floor in (0, 30):
        recall(
            ws, "What pets does Nate have?", k=20, fusion=Fusion(rerank_depth=1, rerank_floor=floor)
        )
    assert depths == [20, 30]  # 1 x the 20 hits wanted, then the floor
    assert Fusion().rerank_floor == 400
