"""The light embedding route gives sentence-transformers' vectors, and checks its weights."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from agent_sleep.retrieval import embed
from agent_sleep.retrieval.embed import (
    EmbedUnavailable,
    MiniLM,
    ModelFiles,
    load_embedder,
    model_files,
)

SENTENCES = [
    "Redis default port is 6379",
    "Priya: I went to the pottery workshop yesterday and it was so calming.",
    "x",
    "",
    "Émile a mangé des crêpes à Paris 🙂",
    "A much longer note that goes on and on " * 40,  # over 256 tokens: truncated like ST
]


@pytest.fixture(autouse=True)
def onnxruntime_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests hold the onnxruntime route; test_numpy_encoder holds the numpy one to it."""
    monkeypatch.setattr(embed, "NUMPY_TEXTS", 0)


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> MiniLM:
    return load_embedder(tmp_path_factory.mktemp("model-cache"))


def test_vectors_match_sentence_transformers(model: MiniLM) -> None:
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(str(model_files().folder), device="cpu")
    expected = reference.encode(SENTENCES, normalize_embeddings=True)
    got = model.embed_documents(SENTENCES)
    assert got.shape == (len(SENTENCES), 384)
    assert np.abs(got - expected).max() < 1e-4
    assert np.abs(model.embed_query(SENTENCES[1]) - expected[1]).max() < 1e-4


def test_token_states_match_sentence_transformers(model: MiniLM) -> None:
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(str(model_files().folder), device="cpu")
    expected = reference.encode(SENTENCES, output_value="token_embeddings")
    got = model.embed_tokens(SENTENCES)
    assert len(got) == len(SENTENCES)
    for mine, theirs in zip(got, expected, strict=True):
        theirs = theirs.numpy()
        theirs = theirs / np.linalg.norm(theirs, axis=1, keepdims=True)
        assert mine.shape == theirs.shape  # [CLS] ... [SEP], truncated at 256 like ST
        assert np.abs(mine - theirs).max() < 1e-4
    assert model.embed_tokens([]) == []


def test_query_tokens_know_the_word_each_piece_belongs_to(model: MiniLM) -> None:
    vectors, owners, pieces = model.query_tokens("What does Melanie do to de-stress?")
    assert len(vectors) == len(owners) == len(pieces)
    assert owners[0] is None and owners[-1] is None  # [CLS], [SEP]
    assert pieces[0] == "[CLS]" and owners[3] == "Melanie"
    assert "stress" in owners and "-" in owners
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_unit_length_and_batching_do_not_change_vectors(model: MiniLM) -> None:
    many = [f"note number {i} about topic {i % 7}" for i in range(70)]
    batched = model.embed_documents(many)
    one_by_one = np.stack([model.embed_query(t) for t in many[:5]])
    assert np.allclose(np.linalg.norm(batched, axis=1), 1.0, atol=1e-5)
    assert np.abs(batched[:5] - one_by_one).max() < 1e-5


def test_onnx_graph_is_cached_and_reused(tmp_path: Path) -> None:
    first = load_embedder(tmp_path).embed_documents(SENTENCES)
    graphs = sorted(tmp_path.glob("minilm-*.onnx"))
    # the graph, optimised: the plain one is dropped once that is saved (one copy of the model
    # per workspace)
    assert len(graphs) == 1 and graphs[0].name.endswith(".opt.onnx")
    stamps = [g.stat().st_mtime_ns for g in graphs]
    again = load_embedder(tmp_path).embed_documents(SENTENCES)
    assert [g.stat().st_mtime_ns for g in graphs] == stamps
    assert np.allclose(first, again, atol=1e-6)


def test_worker_threads_spin_within_a_run_and_stop_after_it(tmp_path: Path) -> None:
    """A query's run wakes the worker threads for each of its dozens of operators: they spin
    inside a run and stop when it returns, whether the graph is optimised now or read
    optimised from the cache."""
    for _ in range(2):  # the first load optimises and saves the graph, the second reads it
        session = load_embedder(tmp_path)._session
        options = session.get_session_options()
        assert options.get_session_config_entry("session.intra_op.allow_spinning") == "1"
        assert options.get_session_config_entry("session.force_spinning_stop") == "1"


def test_a_damaged_optimised_graph_is_optimised_again(tmp_path: Path) -> None:
    first = load_embedder(tmp_path).embed_documents(SENTENCES)
    (done,) = tmp_path.glob("minilm-*.opt.onnx")
    done.write_bytes(b"torn")
    again = load_embedder(tmp_path).embed_documents(SENTENCES)
    assert np.allclose(first, again, atol=1e-6) and done.stat().st_size > 1000


def test_a_model_outlives_the_workspace_that_cached_its_graph(tmp_path: Path) -> None:
    """A process loads the model once, with its graph cached in the first workspace it
    served; when that workspace is deleted before the first batch, the graph is built again
    in memory (and nothing is written where the workspace was)."""
    expected = load_embedder(tmp_path / "other").embed_documents(SENTENCES)
    cache = tmp_path / "ws" / ".agent-sleep" / "model"
    model = load_embedder(cache)
    shutil.rmtree(tmp_path / "ws")
    got = model.embed_documents(SENTENCES)
    assert np.allclose(got, expected, atol=1e-6)
    assert not (tmp_path / "ws").exists()


def _copy_model(tmp_path: Path) -> Path:
    folder = tmp_path / "model"
    shutil.copytree(model_files().folder, folder)
    return folder


def test_tampered_weights_are_refused(tmp_path: Path) -> None:
    folder = _copy_model(tmp_path)
    with open(folder / "model.safetensors", "r+b") as f:
        f.seek(embed.WEIGHTS_SIZE // 2)
        f.write(b"\x00\x01\x02\x03")
    with pytest.raises(EmbedUnavailable, match="SHA-256"):
        embed.verify_weights(ModelFiles(folder, checked=True))


def test_weight_verdict_is_cached_by_size_and_mtime(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    files = ModelFiles(_copy_model(tmp_path), checked=True)
    verdict = tmp_path / "ok.json"
    embed.verify_weights(files, verdict)
    assert verdict.exists()
    monkeypatch.setattr(embed, "_sha256", lambda path: pytest.fail("hashed again"))
    embed.verify_weights(files, verdict)
    os.utime(files.weights, ns=(1, 1))  # a changed file is checked again
    with pytest.raises(pytest.fail.Exception):
        embed.verify_weights(files, verdict)


def test_configured_model_folder_is_used(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv(embed.MODEL_ENV, str(tmp_path / "nowhere"))
    assert model_files().folder == tmp_path / "nowhere"
    with pytest.raises(EmbedUnavailable, match="not found"):
        load_embedder(tmp_path / "cache")


def test_the_word_table_is_read_from_the_weights_not_held_by_the_graph(tmp_path: Path) -> None:
    from safetensors.numpy import load_file

    files = model_files()
    table = embed.word_table(files.weights)
    stored = load_file(str(files.weights))
    key = next(k for k in stored if k.endswith(embed.WORD_TABLE))
    assert table.shape == stored[key].shape and np.array_equal(table, stored[key])
    load_embedder(tmp_path)
    (graph,) = [g for g in tmp_path.glob("minilm-*.onnx") if not g.name.endswith(".opt.onnx")]
    # the graph holds every weight but the table (half of the file)
    assert graph.stat().st_size < embed.WEIGHTS_SIZE - table.nbytes + 1_000_000


@pytest.mark.parametrize(
    "damage", ["header size", "no table", "short table", "unknown dtype", "not json"]
)
def test_an_unreadable_word_table_means_no_model(tmp_path: Path, damage: str) -> None:
    import json
    import struct

    info = {"dtype": "F32", "shape": [4, 3], "data_offsets": [0, 48]}
    header = {embed.WORD_TABLE: info}
    if damage == "no table":
        header = {"other.weight": info}
    elif damage == "short table":
        info["data_offsets"] = [0, 40]
    elif damage == "unknown dtype":
        info["dtype"] = "Q4"
    raw = b"{not json" if damage == "not json" else json.dumps(header).encode()
    size = 10**12 if damage == "header size" else len(raw)
    path = tmp_path / "model.safetensors"
    path.write_bytes(struct.pack("<Q", size) + raw + bytes(48))
    with pytest.raises(EmbedUnavailable, match="word-piece table"):
        embed.word_table(path)
    info.update(dtype="F32", data_offsets=[0, 48])
    good = json.dumps({embed.WORD_TABLE: info}).encode()
    path.write_bytes(struct.pack("<Q", len(good)) + good + np.arange(12, dtype="<f4").tobytes())
    assert embed.word_table(path).tolist() == np.arange(12).reshape(4, 3).tolist()
