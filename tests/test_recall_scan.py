"""The first search over a large backlog reads the files (retrieval/scan.py) instead of waiting
for the index: the same units, BM25 over the whole collection, the index left to the job."""

from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path

import pytest

from agent_sleep.core import notes
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval import backlog, index, scan
from agent_sleep.retrieval.bm25 import tokenize
from agent_sleep.retrieval.recall import Fusion, rank, recall
from agent_sleep.retrieval.units import iter_units

# a log with what the block grammar has to get right: a BOM, headings of both levels, a fenced
# block (a note look-alike inside), continuation lines, a note whose text is only its metadata,
# an entry head that does not parse, plain lines between notes, apostrophes of both kinds
LOG = (
    "\ufeff# 2026-03-02\n\n## Retain\n\n"
    "- 09:00 W: O\u2019Brien migrated the billing studies to Postgres <!-- id=aaaaaaaaa1 -->\n"
    "- 09:05 B: the rollout waits for the audit <!-- id=aaaaaaaaa2 source=msg-1 -->\n"
    "a plain line between notes\n"
    "- 09:06 W: <!-- id=aaaaaaaaa3 -->\n"
    "- 09:07 O(c=0.7): the audit covers\n  two lines of Postgres notes <!-- id=aaaaaaaaa4 -->\n"
    "- 09:08 X: not an entry head, mentions Postgres\n"
    "```\n- 09:09 W: inside a fence, Postgres <!-- id=aaaaaaaaa5 -->\n```\n"
    "- 09:10 S: after the fence the queue drained <!-- id=aaaaaaaaa6 -->\n"
    "### A level-3 heading keeps the section\n"
    "- 09:11 W: a note under it, no query word <!-- id=aaaaaaaaa7 -->\n"
    "## Reflect\n\n"
    "- 09:12 W: a new section, O'Brien again <!-- id=aaaaaaaaa8 -->\n"
    "- 09:13 W: its follower, no query word either <!-- id=aaaaaaaaa9 -->\n"
)
REL = "memory/2026-03-02.md"


def _scanned(query: str, text: str = LOG) -> tuple[scan._Found, list]:
    found = scan._Found()
    probe = scan.probes(list(dict.fromkeys(tokenize(query))))
    assert probe is not None
    scan._scan_log(found, REL, text, "2026-03-02", probe)
    return found, list(iter_units(REL, text))


@pytest.mark.parametrize(
    "query", ["Postgres", "obrien", "O'Brien study", "audit", "queue", "2026", "drained notes"]
)
def test_the_scan_reads_every_unit_that_holds_a_query_term_and_builds_it_as_the_index_does(
    query: str,
) -> None:
    found, every = _scanned(query)
    assert found.count == len(every)  # the collection's size is exact
    got = [found.unit(r) for r in range(len(found.units))]
    assert all(u in every for u in got)  # each unit read is the unit the index holds
    terms = set(tokenize(query))
    holding = [u for u in every if terms & set(tokenize(u.indexed))]
    assert holding and all(u in got for u in holding)
    for r, u in enumerate(got):  # its BM25 terms are the index's
        exact = tokenize(u.indexed)
        assert found.exact_terms(r, u) == exact
        # those read hold every query term the unit holds (the rest counts by its length)
        assert all(found.terms[r].count(t) == exact.count(t) for t in terms)


def test_the_scan_skips_notes_that_cannot_match() -> None:
    def read(query: str) -> list[str]:
        found, every = _scanned(query)
        assert found.unread_chars > 0 and found.count == len(every) == 8
        return [i for r in range(len(found.units)) for i in found.unit(r).ids]

    # the note, and the one after it, which carries its last words
    assert read("section") == ["aaaaaaaaa8", "aaaaaaaaa9"]
    # ... unless a heading (of any level) comes between them
    assert read("queue") == ["aaaaaaaaa6"]


def test_blank_note_agrees_with_the_parsed_text() -> None:
    cases = [
        "- W: <!-- id=aaaaaaaaa1 -->\n",
        "- W:\n",
        "- W: text <!-- id=aaaaaaaaa1 -->\n",
        "- W: <!-- not metadata -->\n",
        "- W:  <!-- id=aaaaaaaaa1 --> <!-- id=b -->\n",
        "- 10:00 O(c=0.5): <!-- id=aaaaaaaaa1 source=x -->\r\n",
        "- W: \u00a0 <!-- id=aaaaaaaaa1 -->\n",
        "- W: <b>bold</b>\n",
    ]
    for line in cases:
        head = notes._HEAD_RE.match(line.rstrip("\r\n"))
        assert head is not None
        note = notes.note_of([line], head)
        assert notes.blank_note([line], head) == (not note.text.strip()), line
        assert notes.text_of([line], head) == note.text


def _workspace(root: Path, days: int = 6, per_day: int = 30) -> Workspace:
    ws = Workspace.at(root)
    (root / "memory").mkdir(parents=True)
    for d in range(days):
        day = dt.date(2026, 1, 1) + dt.timedelta(days=d)
        lines = [f"# {day}\n", "\n", "## Retain\n", "\n"]
        for i in range(per_day):
            what = ["the cache layer", "the payment webhook", "the search index"][(d + i) % 3]
            who = ["Ana", "Bo", "Chen", "Dana", "Emeka"][(d * 7 + i) % 5]
            verb = ["fixed", "tested", "deployed", "reviewed"][(d + 3 * i) % 4]
            extra = " after the long outage of that week" * ((d + i) % 4)
            lines.append(
                f"- 09:{i:02d} W: {who} {verb} {what}{extra} (ticket #{d * 100 + i}) "
                f"<!-- id={d:02d}{i:08d} -->\n"
            )
        (root / "memory" / f"{day}.md").write_text("".join(lines))
    (root / "MEMORY.md").write_text(
        "# MEMORY\n\n## Facts\n\n- W: the cache layer is owned by Dana <!-- id=m000000001 -->\n"
    )
    return ws


@pytest.mark.parametrize(
    "query", ["who fixed the cache layer", "Dana payment webhook", "ticket 304", "outage"]
)
def test_the_scan_ranks_as_an_index_of_bm25_ranks(tmp_path: Path, query: str) -> None:
    ws = _workspace(tmp_path / "w")
    index.update(ws, vectors=False)
    full = index.open_index(ws, vectors=False)
    answer = scan.answer_index(ws, query, index.scan(ws))
    fusion = Fusion(vector_weight=0.0)
    today = dt.date(2026, 2, 1)
    want = rank(full, query, None, fusion, 10, None, today)[:10]
    got = rank(answer, query, None, fusion, 10, None, today)[:10]
    assert [answer.units[r].text for _, r in got] == [full.units[r].text for _, r in want]
    # the collection's length is estimated for the notes not read: scores stay within 1%
    assert [s for s, _ in got] == pytest.approx([s for s, _ in want], rel=0.01)
    assert answer.bm25.count == full.bm25.count
    for term in tokenize(query):
        assert answer.bm25.df(term) == full.bm25.df(term)


def test_a_first_search_over_a_large_backlog_answers_from_the_files_and_leaves_the_index_to_the_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = _workspace(tmp_path / "w")
    started: list[Path] = []
    monkeypatch.setattr(scan, "SCAN_FROM", 1000)
    monkeypatch.setattr(backlog, "start", lambda w: started.append(w.root) or True)
    bm25 = Fusion(vector_weight=0.0)
    hits = recall(ws.root, "who fixed the cache layer", k=3, fusion=bm25)
    assert hits and "fixed the cache layer" in hits[0].text
    assert started == [ws.root]
    assert "read the files directly" in capsys.readouterr().err
    assert not (index.index_dir(ws) / index.MANIFEST).exists()  # the search wrote nothing
    assert ws.root not in index._loaded  # nor kept its answer, which holds its query's units
    # below the threshold, or with the index there, a search builds and uses the index
    monkeypatch.setattr(scan, "SCAN_FROM", 10**9)
    again = recall(ws.root, "who fixed the cache layer", k=3, fusion=bm25)
    assert [h.text for h in again] == [h.text for h in hits]
    assert (index.index_dir(ws) / index.MANIFEST).exists() and started == [ws.root]


def test_while_the_job_builds_the_index_searches_read_the_files_whatever_the_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = _workspace(tmp_path / "w")
    started: list[Path] = []
    monkeypatch.setattr(backlog, "start", lambda w: started.append(w.root) or True)
    bm25 = Fusion(vector_weight=0.0)
    with backlog._held(index.index_dir(ws)) as taken:  # as the job holds it
        assert taken and backlog.running(index.index_dir(ws))
        hits = recall(ws.root, "payment webhook", k=2, fusion=bm25)
        assert hits and "payment webhook" in hits[0].text
        assert started == [] and not (index.index_dir(ws) / index.MANIFEST).exists()
    # the job done (its lock released) and the files small: the search builds the index
    assert [h.text for h in recall(ws.root, "payment webhook", k=2, fusion=bm25)] == [
        h.text for h in hits
    ]
    assert (index.index_dir(ws) / index.MANIFEST).exists() and started == []


def test_without_a_background_job_the_search_builds_the_index_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = _workspace(tmp_path / "w")
    monkeypatch.setattr(scan, "SCAN_FROM", 1000)
    monkeypatch.setattr(backlog, "start", lambda w: False)  # no fcntl, or no process
    assert recall(ws.root, "payment webhook", k=2)
    assert (index.index_dir(ws) / index.MANIFEST).exists()


def test_the_real_job_builds_the_index_after_a_scanned_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = _workspace(tmp_path / "w")
    monkeypatch.setattr(scan, "SCAN_FROM", 1000)
    assert recall(ws.root, "search index", k=2, fusion=Fusion(vector_weight=0.0))
    manifest = index.index_dir(ws) / index.MANIFEST
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (
        manifest.exists() and not backlog.running(index.index_dir(ws))
    ):
        time.sleep(0.2)
    assert manifest.exists() and not backlog.running(index.index_dir(ws))
    data = json.loads(manifest.read_text())
    assert data["pending"] == 0  # built, then embedded
    index._loaded.clear()
    loaded = index.open_index(ws)
    assert len(loaded.units) == 6 * 30 + 1 and loaded.vectors is not None


def test_the_scan_leaves_the_garbage_collector_as_it_found_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    ws = _workspace(tmp_path / "w", days=1, per_day=5)
    seen: list[bool] = []
    real = scan._scan_log
    monkeypatch.setattr(scan, "_scan_log", lambda *args: seen.append(gc.isenabled()) or real(*args))
    assert gc.isenabled()
    scan.answer_index(ws, "cache layer", index.scan(ws))
    assert gc.isenabled() and seen == [False]  # off while it scans, back on after
    gc.disable()
    try:
        scan.answer_index(ws, "cache layer", index.scan(ws))
        assert not gc.isenabled()
    finally:
        gc.enable()
