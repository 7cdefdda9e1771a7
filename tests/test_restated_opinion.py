"""An opinion said again, in fewer words of its own, reinforces its MEMORY.md entry (one entry,
its confidence raised, the note among its sources) instead of becoming a second entry that REM
also counted as the first one's evidence."""

from __future__ import annotations

from pathlib import Path

from agent_sleep.core import notes
from agent_sleep.core.workspace import Workspace
from agent_sleep.providers import offline
from tests.conftest import run_cli


def _sleep_two_days(ws: Path, first: str, second: str) -> list[notes.Note]:
    cli = ("--workspace", str(ws))
    for args in (
        ("init",),
        ("rest", "--type", "O", "--confidence", "0.9", "--note", first,
         "--when", "2026-11-11T10:00"),
        ("sleep", "--when", "2026-11-11T22:00"),
        ("rest", "--type", "O", "--confidence", "0.9", "--note", second,
         "--when", "2026-12-04T10:30"),
        ("sleep", "--when", "2026-12-04T22:00"),
    ):  # fmt: skip
        done = run_cli(*args, *cli)
        assert done.returncode == 0, done.stderr
    text = Workspace.at(ws).memory_md.read_text()
    return [b.note for b in notes.parse(text).blocks if b.note is not None]


def test_a_restated_opinion_reinforces_its_entry(ws: Path) -> None:
    entries = _sleep_two_days(
        ws, "Maya wants answers short and direct.", "Still wants short, direct answers."
    )
    assert [e.text for e in entries] == ["Maya wants answers short and direct."]
    [entry] = entries
    assert entry.confidence is not None and entry.confidence > 0.9  # raised
    assert len(entry.meta.get("sources", "").split(",")) == 2  # the restatement is recorded


def test_an_opinion_with_another_value_stays_its_own_entry(ws: Path) -> None:
    entries = _sleep_two_days(
        ws, "Maya wants less detail in answers.", "Now wants more detail in answers."
    )
    assert any(e.text == "Now wants more detail in answers." for e in entries)


def test_restated_reads_words_not_likeness() -> None:
    from agent_sleep.providers.offline_rem import restated

    assert restated("Still wants short, direct answers.", "Maya wants answers short and direct.")
    assert restated("Still prefers dark mode", "Prefers dark mode in the editor")
    assert not restated("Now wants more detail in answers.", "Maya wants less detail in answers.")
    assert not restated("Prefers tabs.", "Maya prefers spaces.")
    assert not restated("Does not want long answers", "Maya wants long answers")
    assert not restated("Prefers pytest fixtures over setUp methods.", "Maya prefers pytest.")
    assert not restated("Short.", "Maya wants answers short and direct.")  # one word is no claim


def _payload(note: str, entry: str, kind: str = "O") -> dict[str, object]:
    return {
        "task": "nrem",
        "today": "2026-12-04",
        "notes": [{"id": "n1", "type": kind, "confidence": 0.9, "text": note,
                   "date": "2026-12-04", "time": "10:30", "tier": "keep", "salience": 0.5}],
        "memory": [{"id": "m1", "type": kind, "confidence": 0.9, "text": entry,
                    "sources": ["n0"], "evidence": [], "date": "2026-11-11"}],
        "related": [],
    }  # fmt: skip


def test_nrem_files_a_restatement_as_an_update_of_its_entry() -> None:
    out = offline.nrem(_payload("Still wants short, direct answers.", "Maya wants answers short "
                                "and direct."))  # fmt: skip
    [item] = out["memory_md_updates"]
    assert item["action"] == "update" and item["replaces"] == "m1"
    assert item["sources"] == ["n1"] and item["confidence"] > 0.9
    assert not out["bank_updates"]


def test_a_fact_said_to_hold_still_reinforces_its_entry() -> None:
    """ "Orla is still our main contact at Halden Foods" had become a second entry beside
    "Orla Byrne is the main contact at Halden Foods" (an account manager's notes)."""
    for note, entry in [
        ("Still lives in Denver.", "Maya lives in Denver."),
        ("Orla is still our main contact at Halden Foods.",
         "Orla Byrne is the main contact at Halden Foods."),
        ("The standup remains at 9:30.", "The team standup is at 9:30 every weekday."),
    ]:  # fmt: skip
        [item] = offline.nrem(_payload(note, entry, "W"))["memory_md_updates"]
        assert item["action"] == "update" and item["replaces"] == "m1", note
        assert item["text"] == entry and item["sources"] == ["n1"]


def test_a_fact_said_without_holding_still_or_with_a_word_of_its_own_is_filed() -> None:
    for note, entry in [
        ("Lives in Denver.", "Maya lives in Denver and works in Boulder."),  # not said to hold
        ("Still lives in Denver, now with her sister.", "Maya lives in Denver."),  # a new fact
        ("Orla is still the main contact at Kestrel.", "Orla Byrne is the main contact at "
         "Halden Foods."),  # another company
    ]:  # fmt: skip
        items = offline.nrem(_payload(note, entry, "W"))["memory_md_updates"]
        assert not any(u["action"] == "update" for u in items), note
