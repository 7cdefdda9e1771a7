"""Claims read when a note is indexed: stored with its record, handed back to recall's check of
newer restatements instead of being read again at every search."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.analysis import claims as cl
from agent_sleep.analysis import currency
from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval import currency as recall_currency
from agent_sleep.retrieval import index
from agent_sleep.retrieval.index_records import Record
from agent_sleep.retrieval.recall import recall
from tests.test_currency import write_restated_notes

TEXTS = [
    "Recycling pickup happens on Thursdays.",
    "The clinic moved Kofi's dentist appointment to March 10.",
    "Tom's manager's phone number is 555-0199.",
    "Priya lives in Berlin and works at Siemens.",
    "We switched prod to Postgres 16 (was 14).",
    "Ardent Labs is licensed for 65 seats, no longer 40.",
    "Is the standup at 10:00?",
    "",
    "Maybe we should not move the release to Friday.",
    "I'm now mentoring two interns.",
]


@pytest.fixture(autouse=True)
def _forget() -> Any:
    cl._known.clear()
    yield
    cl._known.clear()


@pytest.mark.parametrize("text", TEXTS)
def test_stored_claims_come_back_equal_through_json(text: str) -> None:
    found = cl.claims(text)
    back = cl.load(json.loads(json.dumps(cl.dump(found, text))), text)
    assert back == tuple(found)


def test_claims_of_another_reader_or_shape_are_not_used() -> None:
    text = TEXTS[1]
    stored = cl.dump(cl.claims(text), text)
    assert cl.load(["0" * 12, stored[1]], text) is None  # read by other code
    assert cl.load(["", stored[1]], text) is None
    row = list(stored[1][0])
    assert len(row) >= 10  # a change: its flag is set
    bad_rows = [
        row[:6],  # a field without a default left out
        [*row, *[[]] * 12],  # more fields than a claim has
        [*row[:1], "owner", *row[2:]],
        [*row[:8], "yes", *row[9:]],
        [*row[:1], [1, 2], *row[2:]],
        [*row[:3], ["x"], *row[4:]],
    ]
    for bad in bad_rows:
        assert cl.load([stored[0], [bad]], text) is None, bad
    assert cl.load(None, text) is None
    assert cl.load([stored[0], "rows"], text) is None


def test_remembered_claims_are_what_claims_returns() -> None:
    text = "Standup is at 10:15."
    other = cl.claims("Lunch is at noon.")
    cl.remember(text, tuple(other))
    assert cl.claims(text) == other
    assert cl.claims(text, frozenset({"Standup"})) != other  # with names: read as usual


def test_remembered_claims_are_bounded(monkeypatch: Any) -> None:
    monkeypatch.setattr(cl, "KNOWN", 3)
    for i in range(5):
        cl.remember(f"note {i}", ())
    assert sorted(cl._known) == ["note 2", "note 3", "note 4"]


def test_an_older_record_without_claims_still_reads() -> None:
    row = ["log", "memory/2026-11-03.md", "W: x", "2026-11-03", ["a"], [], [], None, "10:00",
           0, ["a"]]  # fmt: skip
    assert Record.of_row(row).claims is None
    assert Record.of_row([*row, ["r", []]]).claims == ["r", []]
    assert Record.of_row(row).row() == row
    with pytest.raises(ValueError):
        Record.of_row(row[:10])


def _loaded(ws: Path) -> Any:
    loaded = index._read(Workspace.at(ws), vectors=False)
    assert loaded is not None
    return loaded


def _by_text(loaded: Any) -> dict[str, Any]:
    return {loaded.records[r].text: loaded.records[r] for r in range(len(loaded.records))}


def test_the_index_stores_the_claims_of_what_it_embeds(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    when = dt.datetime(2026, 11, 3, 10, 0)
    micro_rest("Recycling is collected every other Tuesday.", "W", workspace=ws, when=when)
    micro_rest("Caroline: I went to the support group yesterday!", "O", workspace=ws, when=when)
    index.update(Workspace.at(ws))
    records = _by_text(_loaded(ws))
    note = records["W: Recycling is collected every other Tuesday."]
    said = "Recycling is collected every other Tuesday."
    assert cl.load(note.claims, said) == tuple(cl.claims(said))
    chat = next(r for t, r in records.items() if "Caroline" in t)
    assert chat.claims is None  # a chat turn: the check never reads it

    # a note added to the same log: its file is read again, the first note's claims are
    # taken from the old record, not read again, and the new note's are read
    asked: list[str] = []
    real = cl.claims

    def counted(text: str, names: frozenset[str] = frozenset()) -> list[cl.Claim]:
        asked.append(text)
        return real(text, names)

    micro_rest("Glass goes out on Fridays.", "W", workspace=ws, when=when)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cl, "claims", counted)
        index.update(Workspace.at(ws))
    assert asked == ["Glass goes out on Fridays."]
    records = _by_text(_loaded(ws))
    assert records["W: Recycling is collected every other Tuesday."].claims == note.claims
    assert cl.load(records["W: Glass goes out on Fridays."].claims, "Glass goes out on Fridays.")


def test_recall_reads_no_claims_it_finds_stored(tmp_path: Path, monkeypatch: Any) -> None:
    """The restatement check orders the newer note first from the stored claims alone; with
    claims of another reader it reads them again, and orders the same."""
    ws = tmp_path / "ws"
    write_restated_notes(ws)
    index.update(Workspace.at(ws))
    read: list[str] = []

    def reading(text: str, names: frozenset[str]) -> tuple[cl.Claim, ...]:
        read.append(text)
        return real(text, names)

    real = cl._claims.__wrapped__
    monkeypatch.setattr(cl, "_claims", reading)
    hits = recall(ws, "when is recycling collected", k=4)
    assert "Thursdays" in hits[0].text and "Tuesday" in hits[1].text
    assert read == []

    cl._known.clear()
    currency.restates.cache_clear()
    monkeypatch.setattr(cl, "reader", lambda: "another-one")
    hits = recall(ws, "when is recycling collected", k=4)
    assert "Thursdays" in hits[0].text and "Tuesday" in hits[1].text
    assert "Recycling pickup happens on Thursdays." in read
    monkeypatch.setattr(recall_currency, "RESTATED", 2.0)  # the check off: the older first
    assert "Tuesday" in recall(ws, "when is recycling collected", k=4)[0].text


def test_claims_outlive_a_new_split_of_the_files(tmp_path: Path, monkeypatch: Any) -> None:
    """A release that splits files into units otherwise reads every file again; the units
    whose text is unchanged keep their claims, and none is read again."""
    from agent_sleep.retrieval import units

    ws = tmp_path / "ws"
    micro_rest("Standup moved to 10:15.", "W", workspace=ws, when=dt.datetime(2026, 11, 3, 9))
    index.update(Workspace.at(ws))
    before = _by_text(_loaded(ws))["W: Standup moved to 10:15."].claims
    assert before is not None
    monkeypatch.setattr(units, "SPLIT", units.SPLIT + 1)
    monkeypatch.setattr(cl, "claims", lambda *a: pytest.fail("claims read again"))
    report = index.update(Workspace.at(ws))
    assert report.files_read >= 1 and report.embedded == 0  # read again, vectors reused
    assert _by_text(_loaded(ws))["W: Standup moved to 10:15."].claims == before


def test_claims_stored_under_another_python_are_not_used(monkeypatch: Any) -> None:
    """str.lower and the regex engine's tables belong to the Python that ran the reader."""
    text = TEXTS[0]
    stored = cl.dump(cl.claims(text), text)
    cl.reader.cache_clear()
    monkeypatch.setattr(cl.sys, "version", "3.99.0 (another build)")
    try:
        assert cl.load(stored, text) is None
    finally:
        cl.reader.cache_clear()


def test_a_search_with_nothing_restated_reads_no_claims(tmp_path: Path) -> None:
    """When no two of the best units read alike with different times, the restatement check
    loads no stored claims, and a new process (a cold search) never imports the claim reader;
    with a restatement among them, it does."""
    import subprocess
    import sys

    ws = tmp_path / "ws"
    day = dt.datetime(2026, 11, 3, 9, 0)
    for i, text in enumerate(["The staging database runs Postgres 16.",
                              "Maya prefers window seats on long flights.",
                              "The quarterly report is due on the first Monday."]):  # fmt: skip
        micro_rest(text, "W", workspace=ws, when=day + dt.timedelta(hours=i))
    index.update(Workspace.at(ws))
    probe = (
        "import sys; from agent_sleep import recall; recall(sys.argv[1], sys.argv[2], k=4); "
        "print('agent_sleep.analysis.claims' in sys.modules)"
    )

    def imports_reader(where: Path, query: str) -> bool:
        out = subprocess.run([sys.executable, "-c", probe, str(where), query],
                             capture_output=True, text=True, check=True)  # fmt: skip
        return out.stdout.strip() == "True"

    assert not imports_reader(ws, "which database does staging use")

    restated = tmp_path / "restated"
    write_restated_notes(restated)
    index.update(Workspace.at(restated))
    assert imports_reader(restated, "when is recycling collected")
