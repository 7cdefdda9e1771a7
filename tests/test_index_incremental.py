"""Incremental index updates: a new note rewrites only the tail part, and the result equals a
full build from scratch (units, sources, BM25 scores) whatever path the update took."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval import index
from agent_sleep.retrieval.bm25 import BM25, tokenize

PEOPLE = ("Maya", "Jonas", "Priya", "Tomas")
TOPICS = ("pottery class", "half marathon", "kiln firing", "greyhound walks", "Lisbon trip")
QUERIES = ["Maya pottery", "marathon training Lisbon", "greyhound", "kiln", "unknown zebra"]


def _day(n: int) -> dt.datetime:
    return dt.datetime(2026, 4, 1, 9, 0) + dt.timedelta(days=n)


def _workspace(ws: Path, days: int = 6, per_day: int = 5) -> list[str]:
    ids = []
    for d in range(days):
        for i in range(per_day):
            text = f"{PEOPLE[(d + i) % 4]} talked about the {TOPICS[(d * i) % 5]} on day {d}"
            when = _day(d) + dt.timedelta(minutes=i)
            ids.append(micro_rest(text, "B", workspace=ws, when=when, source=f"D{d}:{i}"))
    memory = Workspace.at(ws).memory_md
    memory.write_text(
        "# MEMORY\n\n## People\n\n"
        f"- W: Maya took a pottery class <!-- id=mmmmmmmmm1 sources={ids[0]},{ids[7]} -->\n"
        f"- O(c=0.8): Jonas trains for a marathon <!-- id=mmmmmmmmm2 sources={ids[-1]} -->\n",
        encoding="utf-8",
    )
    bank = Workspace.at(ws).entities_dir / "maya.md"
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(
        "---\ntitle: Maya\nkind: entity\nupdated: 2026-04-06\n---\n\n## Hobbies\n\n"
        f"- B: Pottery on Thursdays <!-- id=bbbbbbbbb1 sources={ids[2]} -->\n",
        encoding="utf-8",
    )
    return ids


def _from_scratch(ws: Path, tmp_path: Path, vectors: bool) -> index.Loaded:
    """The index a full build gives over a copy of the workspace's Markdown."""
    copy = tmp_path / "scratch"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(ws, copy, ignore=shutil.ignore_patterns(".agent-sleep"))
    index.update(Workspace.at(copy), vectors=vectors, full=True)
    loaded = index._read(Workspace.at(copy))
    assert loaded is not None
    return loaded


def _assert_same(ours: index.Loaded, scratch: index.Loaded, vectors: bool = False) -> None:
    assert {k: v[2] for k, v in ours.files.items()} == {k: v[2] for k, v in scratch.files.items()}
    assert list(ours.units) == list(scratch.units)
    for loaded in (ours, scratch):  # a row's file without its record, whatever parts it took
        assert [loaded.path_of(r) for r in range(len(loaded.units))] == [
            u.path for u in loaded.units
        ]
    assert list(ours.sources) == list(scratch.sources)
    assert ours.hashes == scratch.hashes
    assert ours.tokens == scratch.tokens
    assert len(ours.bm25.segments) == len(ours.parts) >= 1
    whole = BM25.build(t.split() for t in scratch.tokens)  # one segment over every unit
    for query in QUERIES:
        terms = tokenize(query)
        # bitwise equal: statistics are summed over parts, weights computed per posting
        assert np.array_equal(ours.bm25.scores(terms), whole.scores(terms)), query
        assert np.array_equal(scratch.bm25.scores(terms), whole.scores(terms)), query
    if vectors:
        assert ours.vectors is not None and scratch.vectors is not None
        np.testing.assert_allclose(ours.vectors, scratch.vectors, atol=1e-5)


def _manifest(ws: Path) -> dict[str, Any]:
    path = index.index_dir(Workspace.at(ws)) / index.MANIFEST
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _read(ws: Path) -> index.Loaded:
    loaded = index._read(Workspace.at(ws))
    assert loaded is not None
    return loaded


def test_a_new_note_rewrites_only_the_tail_and_scores_as_a_full_build(
    ws: Path, tmp_path: Path
) -> None:
    _workspace(ws)
    w = Workspace.at(ws)
    index.update(w, vectors=False)
    main, tail = _manifest(ws)["parts"]
    assert main[2] == 5 and main[1] == 25  # every daily log but the newest
    main_file = index.index_dir(w) / f"units-{main[0]}.json"
    before = main_file.stat().st_mtime_ns

    micro_rest("Maya glazed her pottery bowls blue", "B", workspace=ws, when=_day(5))
    micro_rest("Priya booked the Lisbon trip", "W", workspace=ws, when=_day(5), source="D5:9")
    report = index.update(w, vectors=False)

    parts = _manifest(ws)["parts"]
    assert parts[0] == main and parts[1][0] != tail[0] and len(parts) == 2
    assert main_file.stat().st_mtime_ns == before  # the large part is not rewritten
    assert report.files_read == 1 and report.units == 35
    _assert_same(_read(ws), _from_scratch(ws, tmp_path, vectors=False))
    live = {p[0] for p in parts}
    leftovers = [p.name for p in index.index_dir(w).iterdir() if "-" in p.name]
    assert {index._part_id(n) for n in leftovers} == live, leftovers


def test_one_new_note_embeds_one_note_and_vectors_match_a_full_build(
    ws: Path, tmp_path: Path
) -> None:
    _workspace(ws, days=3, per_day=3)
    w = Workspace.at(ws)
    assert index.update(w).embedded == 3 * 3 + 3
    micro_rest("Tomas adopted a second greyhound", "B", workspace=ws, when=_day(2))
    report = index.update(w)
    assert report.embedded == 1 and report.files_read == 1
    _assert_same(_read(ws), _from_scratch(ws, tmp_path, vectors=True), vectors=True)


@pytest.mark.parametrize(
    "change",
    ["new day", "old log edited", "memory rewritten", "old log deleted", "cited note changed"],
)
def test_every_kind_of_change_gives_what_a_full_build_gives(
    ws: Path, tmp_path: Path, change: str
) -> None:
    ids = _workspace(ws)
    w = Workspace.at(ws)
    index.update(w, vectors=False)
    if change == "new day":
        micro_rest("Jonas ran 30 km", "B", workspace=ws, when=_day(6), source="D6:0")
    elif change == "old log edited":
        log = w.day_log(_day(1).date())
        log.write_text(log.read_text().replace("talked about", "wrote about"))
    elif change == "memory rewritten":
        w.memory_md.write_text(
            f"# MEMORY\n\n- W: Priya moved <!-- id=mmmmmmmmm3 sources={ids[3]} -->\n"
        )
    elif change == "old log deleted":
        w.day_log(_day(0).date()).unlink()
    else:  # MEMORY.md cites a note of the newest log, whose outside ref changes
        new_log = w.day_log(_day(5).date())
        new_log.write_text(new_log.read_text().replace("source=D5:4", "source=D5:changed"))
    index.update(w, vectors=False)
    ours = _read(ws)
    _assert_same(ours, _from_scratch(ws, tmp_path, vectors=False))
    memory = {u.ids: src for u, src in zip(ours.units, ours.sources, strict=True)}
    if change == "cited note changed":
        assert "D5:changed" in memory[("mmmmmmmmm2",)] and "D5:4" not in memory[("mmmmmmmmm2",)]
    if change == "memory rewritten":  # the refs of a note in the kept main part
        assert memory[("mmmmmmmmm3",)] == ("mmmmmmmmm3", ids[3], "D0:3")


def test_a_tail_past_its_share_is_merged_into_the_main_part(
    ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index, "TAIL_MIN", 10)
    _workspace(ws)
    w = Workspace.at(ws)
    index.update(w, vectors=False)
    first_main = _manifest(ws)["parts"][0]
    micro_rest("Maya fired the kiln", "B", workspace=ws, when=_day(5))
    index.update(w, vectors=False)
    assert _manifest(ws)["parts"][0] == first_main  # a tail of 9 units is kept apart
    mains = []
    for d in range(6, 9):  # new days grow the tail until it is merged
        micro_rest(f"Jonas ran on day {d}", "B", workspace=ws, when=_day(d))
        index.update(w, vectors=False)
        mains.append(_manifest(ws)["parts"][0])
    # day 7 made the tail 11 units: all but the newest log went into a new main part
    assert mains[0] == first_main and mains[1] != first_main and mains[2] == mains[1]
    assert mains[1][1:] == [32, 7]
    assert _manifest(ws)["parts"][1][1:] == [5, 4]  # days 7 and 8, MEMORY.md, the bank page
    _assert_same(_read(ws), _from_scratch(ws, tmp_path, vectors=False))


def test_a_reader_sees_every_new_note(ws: Path) -> None:
    from agent_sleep.retrieval.recall import Fusion, recall

    _workspace(ws)
    bm25 = Fusion(vector_weight=0.0, text_weight=1.0)
    assert recall(ws, "Maya pottery", k=3, fusion=bm25)
    for i in range(3):
        note = micro_rest(f"Quokka sighting number {i}", "B", workspace=ws, when=_day(5))
        hits = recall(ws, f"quokka sighting number {i}", k=1, fusion=bm25)
        assert hits and hits[0].ids == (note,)


_NOTES_AND_UPDATES = """
import datetime as dt, sys
from agent_sleep.retrieval import index
from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
ws = Workspace.at(sys.argv[1])
when = dt.datetime(2026, 4, 6, 12, 0)
for i in range(100000):
    micro_rest(f"Jonas logged run number {i}", "B", workspace=ws, when=when)
    index.update(ws, vectors=False)
    print(i, flush=True)
"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_killing_an_incremental_update_leaves_a_readable_index(
    ws: Path, tmp_path: Path, seed: int
) -> None:
    """kill -9 at a random point of a stream of notes and tail updates: the manifest always
    names complete parts, and the next update converges to a full build."""
    import os
    import random
    import subprocess
    import sys
    import time

    from tests.conftest import ROOT

    _workspace(ws)
    w = Workspace.at(ws)
    index.update(w, vectors=False)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", _NOTES_AND_UPDATES, str(ws)],
        stdout=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None
    proc.stdout.readline()  # one update done: the process is past its imports
    time.sleep(random.Random(seed).uniform(0.0, 0.3))
    proc.kill()
    proc.wait()
    proc.stdout.close()
    index._loaded.clear()
    assert index._read(w) is not None
    index.update(w, vectors=False)
    _assert_same(_read(ws), _from_scratch(ws, tmp_path, vectors=False))
    names = [p.name for p in index.index_dir(w).iterdir() if "-" in p.name]
    assert {index._part_id(n) for n in names} == {p.id for p in _read(ws).parts}
