"""`agent-sleep reindex` reads again the claims an older release stored: the claim reader's
fingerprint changes with each release that edits it, and until now the stored claims of every
unit were then ignored (a search read them again at query time) until `reindex --full`, which
embeds everything anew (about 280 s at 100k notes). Vectors are kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_sleep.analysis import claims as cl
from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval import index
from tests.conftest import run_cli

NOTES = [f"Service s{i} listens on port 80{i:02d}." for i in range(12)]


def _records(ws: Path) -> list:
    loaded = index._read(Workspace.at(ws), vectors=False)
    assert loaded is not None
    return [loaded.records[r] for r in range(len(loaded.records))]


def _built_by_an_older_reader(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for text in NOTES:
        micro_rest(text, "W", workspace=ws)
    micro_rest("Caroline: I went to the lake today.", "B", workspace=ws)  # a chat turn
    with monkeypatch.context() as m:
        m.setattr(cl, "reader", lambda: "0ld0ld0ld0ld")
        index.update(Workspace.at(ws))
    assert all(r.claims is None or r.claims[0] == "0ld0ld0ld0ld" for r in _records(ws))


def test_reindex_reads_claims_of_an_older_reader_again_and_keeps_vectors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _built_by_an_older_reader(tmp_path, monkeypatch)
    # a search's update does not pay for it
    assert index.update(Workspace.at(tmp_path)).claims_read == 0
    assert any(r.claims and r.claims[0] == "0ld0ld0ld0ld" for r in _records(tmp_path))

    r = index.update(Workspace.at(tmp_path), claims=True)
    assert r.embedded == 0 and r.claims_read == len(NOTES)
    for record in _records(tmp_path):
        if "Caroline" in record.text:
            assert record.claims is None  # never read for a chat turn
        else:
            assert record.claims[0] == cl.reader()
            assert cl.load(record.claims, record.text.split(": ", 1)[1]) is not None
    again = index.update(Workspace.at(tmp_path), claims=True)
    assert (again.embedded, again.claims_read, again.files_read) == (0, 0, 0)


def test_the_cli_says_how_many_it_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _built_by_an_older_reader(tmp_path, monkeypatch)
    out = run_cli("reindex", "-w", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert f"claims read again for {len(NOTES)} units" in out.stdout
    assert "0 embedded" in out.stdout
