"""The offline flush reads turns however a dump labels them ("User:", "**User:**", "Human:",
"> **AI**:"), stores one speaker name for the same person, does not keep the assistant's echo
of what the user said, and keeps "my/our" + a plural noun + a verb ("My parents live in Porto")."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep.consolidation.flush import flush
from agent_sleep.core import notes

NOW = dt.datetime(2026, 12, 4, 10, 0)


def _flush(text: str, ws: Path) -> list[str]:
    flush(text, workspace=ws, now=NOW, provider="offline")
    return [
        n.text
        for log in sorted((ws / "memory").glob("*.md"))
        for n in notes.notes_in(log.read_text())
    ]


@pytest.mark.parametrize(
    "dump",
    [
        "User: I live in Berlin.\nAssistant: I use Emacs every day for my notes.",
        "**User:** I live in Berlin.\n**Assistant:** I use Emacs every day for my notes.",
        "**User:** I live in Berlin. **Assistant:** I use Emacs every day for my notes.",
        "**User**: I live in Berlin.\n**Assistant**: I use Emacs every day for my notes.",
        "Human: I live in Berlin.\nAI: I use Emacs every day for my notes.",
        "> **Human:** I live in Berlin.\n> **Claude:** I use Emacs every day for my notes.",
    ],
)
def test_every_label_style_gives_the_same_note(ws: Path, dump: str) -> None:
    assert _flush(dump, ws) == ["User: I live in Berlin."]


def test_the_assistants_echo_of_a_decision_is_not_a_second_note(ws: Path) -> None:
    dump = (
        "User: We decided the billing service deploys on Fridays.\n"
        "Assistant: Noted, I'll remember that the billing service deploys on Fridays.\n"
        "Assistant: I've saved that your manager is Priya.\n"
        "Assistant: The billing service deploys from the main branch because staging is frozen."
    )
    assert _flush(dump, ws) == [
        "User: We decided the billing service deploys on Fridays.",
        "The billing service deploys from the main branch because staging is frozen.",
    ]


@pytest.mark.parametrize(
    "line",
    [
        "My parents live in Porto.",
        "My kids go to school in Lyon.",
        "Our build servers run Debian 12.",
        "My two kids play tennis on Sundays.",
        "My children attend the Lycée Français.",
    ],
)
def test_a_plural_subject_with_its_verb_is_kept(ws: Path, line: str) -> None:
    assert _flush(f"User: {line}", ws) == [f"User: {line}"]


@pytest.mark.parametrize(
    "line",
    [
        "My thoughts exactly.",
        "My friends think so.",
        "My parents in Porto.",
        "My kids and I went out.",
        "My glasses broke.",
    ],
)
def test_a_plural_subject_without_a_lasting_verb_is_not(ws: Path, line: str) -> None:
    assert _flush(f"User: {line}", ws) == []


@pytest.mark.parametrize(
    ("dump", "kept"),
    [
        (
            "User: Remember this: Falcon logs are shipped to Grafana Loki.\n"
            "Assistant: Noted - Falcon logs are shipped to Grafana Loki.",
            ["Falcon logs are shipped to Grafana Loki."],
        ),
        ("User: FYI, the staging DB is db-stg-1.", ["The staging DB is db-stg-1."]),
        (
            "User: Note: the deploy key rotates every 90 days.",
            ["The deploy key rotates every 90 days."],
        ),
        (
            "User: Keep in mind that Dana is out until Monday.",
            ["Dana is out until Monday (2026-12-07)."],  # the day resolved, as for any note
        ),
        ("User: Please remember that I prefer tabs.", ["User: I prefer tabs."]),
        ("User: Remember this: can you check the logs?", []),  # a request, however wrapped
    ],
)
def test_what_a_person_asks_to_keep_is_kept_without_the_asking(
    ws: Path, dump: str, kept: list[str]
) -> None:
    """ "Remember this: X" is kept as X, not as the words that asked for it; a statement an
    explicit "FYI" or "Note:" marks is kept though it reads as no standing fact by itself."""
    assert _flush(dump, ws) == kept
