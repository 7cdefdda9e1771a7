"""The index's files of this version: BM25 and line starts mapped from one file per part; an
index of the previous version is rebuilt reusing its vectors; a damaged file means a rebuild."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import numpy as np

from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval import index, index_store
from agent_sleep.retrieval.recall import recall

DAY = dt.datetime(2026, 3, 2, 9, 30)


def _fill(ws: Path, count: int) -> None:
    for i in range(count):
        when = DAY + dt.timedelta(days=i % 3, minutes=i)
        micro_rest(
            f"Note {i}: the build server {i} runs Debian {i % 4}", "W", workspace=ws, when=when
        )


def _as_previous_version(w: Workspace, **changes: object) -> dict[str, object]:
    """Make the index on disk read as one of version 4 (its manifest; a stray .npz of that
    layout too), as the last release left it."""
    manifest = index.index_dir(w) / index.MANIFEST
    data = json.loads(manifest.read_text())
    data.update({"version": index_store.LEGACY_VERSION, **changes})
    manifest.write_text(json.dumps(data))
    (index.index_dir(w) / f"bm25-{data['generation']}.npz").write_bytes(b"PK")
    index._loaded.clear()
    index_store._parsed.clear()
    return data


def _vectors(w: Workspace) -> np.ndarray:
    loaded = index._read(w)
    assert loaded is not None and loaded.vectors is not None
    return np.asarray(loaded.vectors)


def test_an_index_of_the_previous_version_is_rebuilt_reusing_its_vectors(ws: Path) -> None:
    _fill(ws, 12)
    w = Workspace.at(ws)
    assert index.update(w).embedded == 12
    before = _vectors(w)
    hits = [(h.path, h.text) for h in recall(ws, "which server runs Debian 3", k=4)]
    _as_previous_version(w)
    assert index._read(w) is None  # not read as this version
    again = index.update(w)
    assert again.embedded == 0 and again.units == 12
    assert json.loads((index.index_dir(w) / index.MANIFEST).read_text())["version"] == 5
    np.testing.assert_array_equal(_vectors(w), before)
    assert [(h.path, h.text) for h in recall(ws, "which server runs Debian 3", k=4)] == hits
    assert not list(index.index_dir(w).glob("*.npz"))  # the old layout's files are removed


def test_vectors_of_another_model_or_other_texts_are_not_reused(ws: Path) -> None:
    _fill(ws, 5)
    w = Workspace.at(ws)
    index.update(w)
    _as_previous_version(w, model="another-model")
    assert index.update(w).embedded == 5
    _as_previous_version(w, meaning=index.MEANING - 1)
    assert index.update(w).embedded == 5


def test_a_full_rebuild_embeds_everything_again(ws: Path) -> None:
    _fill(ws, 4)
    w = Workspace.at(ws)
    index.update(w)
    _as_previous_version(w)
    assert index.update(w, full=True).embedded == 4


def test_a_damaged_arrays_file_means_a_rebuild(ws: Path) -> None:
    _fill(ws, 6)
    w = Workspace.at(ws)
    index.update(w)
    for damage in (lambda b: b[: len(b) // 2], lambda b: b"\xff" * 16 + b[16:], lambda b: b""):
        data = json.loads((index.index_dir(w) / index.MANIFEST).read_text())
        path = index.index_dir(w) / f"bm25-{data['generation']}.bin"
        path.write_bytes(damage(path.read_bytes()))
        index._loaded.clear()
        index_store._parsed.clear()
        assert index._read(w) is None
        hits = recall(ws, "server 3 Debian", k=3)
        assert hits and "server 3 runs" in hits[0].text


def test_records_read_through_their_stored_line_starts(ws: Path) -> None:
    _fill(ws, 9)
    w = Workspace.at(ws)
    index.update(w)
    loaded = index._read(w)
    assert loaded is not None
    texts = [loaded.units[i].text for i in range(len(loaded.units))]
    assert sorted(texts) == sorted(
        f"W: Note {i}: the build server {i} runs Debian {i % 4}" for i in range(9)
    )


def test_line_starts_out_of_order_mean_a_rebuild(ws: Path) -> None:
    """Stored line starts that still fit the file's ends but not its lines are refused, so a
    search never decodes a record from the wrong bytes."""
    _fill(ws, 9)
    w = Workspace.at(ws)
    index.update(w)
    data = json.loads((index.index_dir(w) / index.MANIFEST).read_text())
    path = index.index_dir(w) / f"bm25-{data['generation']}.bin"
    arrays = {k: np.array(v) for k, v in index_store._unpack(path.read_bytes()).items()}
    assert len(arrays["lines"]) >= 4  # two starts inside the file to swap
    arrays["lines"][[1, 2]] = arrays["lines"][[2, 1]]
    path.write_bytes(b"".join(index_store._pack(arrays)))
    index._loaded.clear()
    index_store._parsed.clear()
    assert index._read(w) is None
    hits = recall(ws, "server 3 Debian", k=3)
    assert hits and "server 3 runs" in hits[0].text
