"""A change of one thing about a subject does not replace another thing said of it: "Tom
changed his email address" leaves "Tom is allergic to peanuts" current. Before, the embedding's
last word ("said alike") read the two as one statement once their values were masked, since
the owner's name was most of what was left."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_sleep.analysis import currency, update_model
from agent_sleep.core import notes
from agent_sleep.providers.offline_currency import similarity
from tests.conftest import run_cli

OTHER_ATTRIBUTE = [
    ("Tom is allergic to peanuts.", "Tom changed his email address to tom@new.example"),
    ("Bob's phone number is 555-1234.", "Bob moved to Berlin."),
    ("Acme's contact is Bob.", "Acme renewed for two more years."),
    ("Priya is vegetarian.", "Priya switched to the night shift."),
    ("Dana's desk is on the third floor.", "Dana switched to the platform team."),
]
SAME_ATTRIBUTE = [  # the same thing said again with a value of its own: still replaced
    ("The API runs on port 5000.", "We moved the API to port 8080."),
    ("Standup is at 9:30 in the Huddle room.", "Standup moved to 10:15."),
    ("Staging is reachable at staging.orbitlabs.io.", "Staging URL is now stg.orbitlabs.cloud."),
    ("Logging goes to Papertrail.", "Logging now ships to Datadog."),
    ("Seat preference: aisle, near the front.", "Seat preference is window now."),
    ("Coffee order: oat flat white.", "Coffee order changed to a cortado with whole milk."),
]


def _verdict(old: str, new: str) -> currency.Verdict:
    similar = similarity()
    assert similar is not None, "the bundled model is a test dependency"
    verdict = currency.relation(new, old, frozenset(), similar)
    return update_model.last_word(new, old, verdict, similar)


@pytest.mark.parametrize(("old", "new"), OTHER_ATTRIBUTE)
def test_a_change_of_another_attribute_replaces_nothing(old: str, new: str) -> None:
    assert _verdict(old, new).kind != currency.SUPERSEDE


@pytest.mark.parametrize(("old", "new"), SAME_ATTRIBUTE)
def test_a_change_of_the_same_attribute_still_replaces(old: str, new: str) -> None:
    assert _verdict(old, new).kind == currency.SUPERSEDE


def test_sleep_keeps_the_allergy_when_the_email_changes(tmp_path: Path) -> None:
    ws = str(tmp_path / "w")
    assert run_cli("init", "-w", ws).returncode == 0
    day1 = ["Tom is allergic to peanuts", "Deploys happen on Fridays", "The team uses Slack"]
    for text in day1:
        r = run_cli("rest", "-w", ws, "--note", text, "--type", "W", "--when", "2026-03-01T10:00")
        assert r.returncode == 0, r.stderr
    assert run_cli("sleep", "-w", ws, "--when", "2026-03-01T22:00").returncode == 0
    new = "Tom changed his email address to tom@new.example"
    r = run_cli("rest", "-w", ws, "--note", new, "--type", "W", "--when", "2026-03-02T10:00")
    assert r.returncode == 0, r.stderr
    assert run_cli("sleep", "-w", ws, "--when", "2026-03-02T22:00").returncode == 0
    memory = notes.notes_in((tmp_path / "w" / "MEMORY.md").read_text())
    current = {n.text for n in memory if not n.meta.get("superseded_by")}
    assert {"Tom is allergic to peanuts", new} <= current
