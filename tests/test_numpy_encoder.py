"""A process's first queries run on the numpy encoder, with the vectors onnxruntime gives, and a
search in a new process loads none of onnxruntime, tokenizers and numpy.ma."""

from __future__ import annotations

import datetime as dt
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval import embed, index
from agent_sleep.retrieval.embed import EmbedUnavailable, load_embedder, model_files
from agent_sleep.retrieval.numpy_encoder import NumpyEncoder, read_tensors
from tests.conftest import ROOT
from tests.test_embed import SENTENCES


def test_first_queries_run_in_numpy_with_the_graphs_vectors(tmp_path: Path) -> None:
    model = load_embedder(tmp_path)
    assert len(SENTENCES) + 2 <= embed.NUMPY_TEXTS
    queries = [model.embed_query(t) for t in SENTENCES]
    tokens = [model.query_tokens(t) for t in SENTENCES[:2]]
    assert model._session_ is None  # nothing so far ran on onnxruntime
    graph = model.embed_documents(SENTENCES)
    graph_tokens = model.embed_tokens(SENTENCES[:2])
    assert model._session_ is not None
    for mine, theirs in zip(queries, graph, strict=True):
        assert mine.dtype == np.float32 and np.abs(mine - theirs).max() < 1e-5
    for text, (vectors, owners, pieces), theirs in zip(
        SENTENCES[:2], tokens, graph_tokens, strict=True
    ):
        assert vectors.shape == theirs.shape and np.abs(vectors - theirs).max() < 1e-5
        ref = model._tok.encode(text)  # the words and pieces tokenizers gives
        assert pieces == ref.tokens
        assert owners == [None if w is None else text[slice(*ref.word_to_chars(w))]
                          for w in ref.word_ids]  # fmt: skip
    # over 256 tokens: truncated as the graph's input is
    assert model._encode([SENTENCES[-1]])[0].ids[-1] == 102


def test_a_small_update_runs_in_numpy_and_a_larger_batch_on_onnxruntime(tmp_path: Path) -> None:
    model = load_embedder(tmp_path)
    notes = SENTENCES[:3]
    vectors, states = model.embed_documents(notes), model.embed_tokens(notes[:2])
    assert model._session_ is None
    many = [f"note {i} about the build server" for i in range(embed.NUMPY_TEXTS)]
    model.embed_documents(many)  # more than what is left of the texts numpy runs
    assert model._session_ is not None
    assert np.abs(vectors - model.embed_documents(notes)).max() < 1e-5
    for mine, theirs in zip(states, model.embed_tokens(notes[:2]), strict=True):
        assert mine.shape == theirs.shape and np.abs(mine - theirs).max() < 1e-5


def test_a_process_that_keeps_asking_moves_to_onnxruntime(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embed, "NUMPY_TEXTS", 2)
    model = load_embedder(tmp_path)
    first = model.embed_query("the build server runs Debian")
    model.embed_query("a second question")
    assert model._session_ is None
    again = model.embed_query("the build server runs Debian")
    assert model._session_ is not None
    assert np.abs(first - again).max() < 1e-5


def test_another_architecture_is_refused(tmp_path: Path) -> None:
    files = model_files()
    config = json.loads((files.folder / "config.json").read_text(encoding="utf-8"))
    tensors = read_tensors(files.weights)
    with pytest.raises(ValueError, match="activation"):
        NumpyEncoder(tensors, {**config, "hidden_act": "relu"})
    with pytest.raises(KeyError):
        NumpyEncoder(tensors, {**config, "num_hidden_layers": 7})
    folder = tmp_path / "model"
    folder.mkdir()
    for f in files.folder.iterdir():
        if f.is_file():
            (folder / f.name).symlink_to(f)
    (folder / "config.json").unlink()
    (folder / "config.json").write_text(json.dumps({**config, "hidden_act": "relu"}))
    with pytest.raises(EmbedUnavailable, match="activation"):
        embed.MiniLM(embed.ModelFiles(folder, checked=False), tmp_path / "cache")


def test_a_tensor_that_overruns_the_file_is_refused(tmp_path: Path) -> None:
    header = json.dumps({"w": {"dtype": "F32", "shape": [4, 3], "data_offsets": [0, 48]}})
    path = tmp_path / "model.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header.encode() + bytes(40))
    with pytest.raises(ValueError, match="beyond the end"):
        read_tensors(path)
    path.write_bytes(struct.pack("<Q", len(header)) + header.encode() + bytes(48))
    assert read_tensors(path)["w"].shape == (4, 3)
    with pytest.raises(ValueError, match="no other"):
        read_tensors(path, ["other"])


def test_a_search_in_a_new_process_loads_no_onnxruntime(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    day = dt.datetime(2026, 3, 2, 9, 0)
    for i in range(6):
        note = f"Note {i}: the build server number {i} runs Debian"
        micro_rest(note, "W", workspace=ws, when=day)
    micro_rest("Priya adopted a grey cat named Pixel", "O", workspace=ws, when=day)
    assert index.update(Workspace.at(ws)).embedded == 7
    code = (
        "import sys\n"
        "from agent_sleep.retrieval import index\n"
        "from agent_sleep.retrieval.recall import recall\n"
        "hits = recall(sys.argv[1], 'which pet does she have', k=1)\n"
        "print(hits[0].text)\n"
        "print('MODEL', [m is not None for m in index._embedders.values()])\n"
        "from agent_sleep.retrieval.wordpiece import usable\n"
        "heavy = ('onnxruntime', 'numpy.ma') + (('tokenizers',) if usable() else ())\n"
        "print('LOADED', [m for m in heavy if m in sys.modules])\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(embed.MODEL_ENV, None)
    r = subprocess.run(
        [sys.executable, "-c", code, str(ws)], capture_output=True, text=True, env=env, timeout=120
    )
    assert r.returncode == 0, r.stderr
    assert "Pixel" in r.stdout  # no shared word: the vectors found it
    assert "MODEL [True]" in r.stdout and "LOADED []" in r.stdout
