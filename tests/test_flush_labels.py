"""The offline flush reads turns however a dump labels them ("User:", "**User:**", "Human:",
"> **AI**:"), keeps what a person said without the label, does not keep the assistant's echo
of what the user said, and keeps "my/our" + a plural noun + a verb ("My parents live in Porto")."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import Workspace
from agent_sleep.consolidation.flush import flush
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes
from agent_sleep.integrations import claude_code
from tests.fixtures import claude_transcript as ct

NOW = dt.datetime(2026, 12, 4, 10, 0)


def _texts(ws: Path) -> list[str]:
    return [
        n.text
        for log in sorted((ws / "memory").glob("*.md"))
        for n in notes.notes_in(log.read_text())
    ]


def _flush(text: str, ws: Path) -> list[str]:
    flush(text, workspace=ws, now=NOW, provider="offline")
    return _texts(ws)


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
    assert _flush(dump, ws) == ["I live in Berlin."]


def test_the_assistants_echo_of_a_decision_is_not_a_second_note(ws: Path) -> None:
    dump = (
        "User: We decided the billing service deploys on Fridays.\n"
        "Assistant: Noted, I'll remember that the billing service deploys on Fridays.\n"
        "Assistant: I've saved that your manager is Priya.\n"
        "Assistant: The billing service deploys from the main branch because staging is frozen."
    )
    assert _flush(dump, ws) == [
        "We decided the billing service deploys on Fridays.",
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
    assert _flush(f"User: {line}", ws) == [line]


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
        ("User: Please remember that I prefer tabs.", ["I prefer tabs."]),
        ("User: Remember this: can you check the logs?", []),  # a request, however wrapped
    ],
)
def test_what_a_person_asks_to_keep_is_kept_without_the_asking(
    ws: Path, dump: str, kept: list[str]
) -> None:
    """ "Remember this: X" is kept as X, not as the words that asked for it; a statement an
    explicit "FYI" or "Note:" marks is kept though it reads as no standing fact by itself."""
    assert _flush(dump, ws) == kept


# -- the label never reaches a note --------------------------------------------------------------

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "session_log.txt"


@pytest.mark.parametrize(
    ("dump", "kept"),
    [
        ("User: I prefer tabs over spaces.", "I prefer tabs over spaces."),
        ("Human: We always deploy on Tuesdays.", "We always deploy on Tuesdays."),
        ("**User:** My manager is Priya.", "My manager is Priya."),
        (
            "Assistant: I fixed the flaky test because the fixture was stale.",
            "I fixed the flaky test because the fixture was stale.",
        ),
        # the asking goes as well as the label
        (
            "User: Remember I like the PR description to list the risky parts first.",
            "I like the PR description to list the risky parts first.",
        ),
        ("User: Don't forget, my sister Ana is allergic to peanuts.", None),
    ],
)
def test_a_note_keeps_what_was_said_without_the_speaker_label(
    ws: Path, dump: str, kept: str | None
) -> None:
    """ "User: I prefer…" used to be kept whole: MEMORY.md got raw chat turns, and sleep filed
    them on bank/entities/user.md as if "User" were a name."""
    (text,) = _flush(dump, ws)
    assert text == (kept or "My sister Ana is allergic to peanuts.")
    assert not text.startswith(("User", "Human", "Assistant", "**", "Remember", "Don't"))


def test_the_bundled_example_reaches_memory_without_labels(ws: Path) -> None:
    flush(EXAMPLE.read_text(), workspace=ws, now=NOW, provider="offline")
    texts = _texts(ws)
    assert "I prefer that you ask before changing any cron schedule in production." in texts
    assert any(t.startswith("From now on, always stream large exports") for t in texts)
    sleep_cycle(ws, provider="offline", now=NOW + dt.timedelta(hours=12))
    memory = (ws / "MEMORY.md").read_text()
    assert "I prefer that you ask before changing any cron schedule" in memory
    pages = {p.name: p.read_text() for p in (ws / "bank").rglob("*.md")}
    assert "user.md" not in pages
    for text in [memory, *texts, *pages.values()]:
        assert "User:" not in text and "Assistant:" not in text


def test_the_pre_compact_hook_keeps_no_label_either(ws: Path, tmp_path: Path) -> None:
    """The hook renders a Claude Code transcript as "User: …" / "Assistant: …" turns and
    hands them to the same flush as ``agent-sleep flush``."""
    transcript = ct.write(
        tmp_path / "t.jsonl",
        [
            ct.user("I prefer tabs over spaces in every repository."),
            ct.assistant("Noted, I'll remember that you prefer tabs."),
            ct.user("From now on, always run ruff before committing."),
        ],
    )
    claude_code.flush_transcript(Workspace.at(ws), "s", transcript)
    assert _texts(ws) == [
        "I prefer tabs over spaces in every repository.",
        "From now on, always run ruff before committing.",
    ]
