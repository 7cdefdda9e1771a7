"""The offline flush keeps what a user says about themselves ("I live in Berlin", "I'm allergic
to peanuts") and about someone else ("He uses vim"), read from verb forms and pronouns, and
still drops questions, requests, chit-chat, the moment's activity and the assistant's "I…"."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from agent_sleep.analysis import gate
from agent_sleep.consolidation.flush import flush
from agent_sleep.core import notes
from tests.conftest import run_cli

NOW = dt.datetime(2026, 12, 4, 10, 0)  # a Friday; "last week" is the week of 2026-11-23

SESSION = """User: Hi! Quick context before we start.
User: I live in Berlin and I work at Acme Corp as a backend engineer.
Assistant: Got it. How can I help today?
User: I'm vegetarian, and I'm allergic to peanuts.
User: I use vim for everything. My manager is Priya.
User: I have two cats. Can you look at the failing test in the billing module?
Assistant: Let me check. I'm looking at the logs now.
User: I'm looking at the logs now too. I think so.
Assistant: The test fails because the fixture reads a stale config file.
Assistant: I will run the tests now. Would you like me to fix it?
"""


def _texts(ws: Path) -> list[str]:
    return [
        n.text
        for log in sorted((ws / "memory").glob("*.md"))
        for n in notes.notes_in(log.read_text())
    ]


def _flush(text: str, ws: Path) -> list[str]:
    flush(text, workspace=ws, now=NOW, provider="offline")
    return _texts(ws)


def test_first_person_facts_are_kept_without_the_label_and_with_a_resolved_date(ws: Path) -> None:
    r = flush(
        "User: I live in Berlin. I work at Acme Corp. I use vim. I'm allergic to peanuts. "
        "I moved to Lisbon last week.",
        workspace=ws,
        now=NOW,
        provider="offline",
    )
    assert len(r.written) == 5 and r.rejected == {}
    assert _texts(ws) == [
        "I live in Berlin.",
        "I work at Acme Corp.",
        "I use vim.",
        "I'm allergic to peanuts.",
        "I moved to Lisbon last week (week of 2026-11-23).",
    ]
    log = next((ws / "memory").glob("*.md")).read_text()
    assert "B: I moved to Lisbon" in log  # a change of state is an experience


def test_third_person_facts_are_kept_even_in_three_words(ws: Path) -> None:
    assert _flush("User: She lives in Berlin. He works at Acme Corp. He uses vim.", ws) == [
        "She lives in Berlin.",
        "He works at Acme Corp.",
        "He uses vim.",
    ]
    assert gate.reject_reason("He uses vim.") is None
    assert gate.reject_reason("User: I'm vegetarian.") is None
    assert gate.reject_reason("ok thanks") == "too-short"


def test_a_two_word_fact_with_a_contraction_is_kept(ws: Path) -> None:
    # the flush keeps what was said without its speaker label: "I'm" holds the verb
    assert gate.reject_reason("I'm vegetarian.") is None
    assert gate.reject_reason("Vegetarian.") == "too-short"
    assert _flush("User: I'm vegetarian.", ws) == ["I'm vegetarian."]


def test_a_realistic_session_keeps_the_facts_and_nothing_else(ws: Path) -> None:
    texts = _flush(SESSION, ws)
    assert texts == [
        "I live in Berlin and I work at Acme Corp as a backend engineer.",
        "I'm vegetarian, and I'm allergic to peanuts.",
        "I use vim for everything.",
        "My manager is Priya.",
        "I have two cats.",
        "The test fails because the fixture reads a stale config file.",
    ]


@pytest.mark.parametrize(
    "line",
    [
        # questions and requests to the assistant
        "User: Do you use vim?",
        "User: Can you look at the deploy script?",
        "User: I'd like you to refactor the parser module.",
        "User: Could you fix the failing billing test please.",
        # chit-chat
        "User: I love it!",
        "User: I'm not sure about that.",
        "User: I have a question about the deploy.",
        "User: I just want to say thanks.",
        "User: I see what you mean.",
        # the moment's activity
        "User: I'm looking at the logs now.",
        "User: Let me check the logs.",
        "User: I'll check the logs.",
        "User: I need to check something first.",
        "User: I'm working on the parser.",
        "User: I'm in the office now.",
        "User: I've been looking at this for an hour.",
        "User: One sec, I'm checking the dashboard.",
        # the assistant's own speech
        "Assistant: I use a cached index for every search.",
        "Assistant: I'm happy to help with the parser.",
        "Assistant: I will run the tests now.",
        "Assistant: Sure.\nI keep the changes small and reviewable.",
    ],
)
def test_what_is_not_a_lasting_fact_is_not_kept(ws: Path, line: str) -> None:
    r = flush(line, workspace=ws, now=NOW, provider="offline")
    assert r.written == [] and _texts(ws) == []


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("User: I'm a backend engineer.", None),
        ("User: I don't eat meat.", None),
        ("User: I have two kids and a dog.", None),
        ("User: I've been using vim for ten years.", None),
        (
            "User: I'm moving to Porto next month.",
            "I'm moving to Porto next month (2027-01).",
        ),
        ("User: Our team is based in Lisbon.", None),
        ("User: She is vegetarian.", "She is vegetarian."),
        ("I usually deploy on Tuesdays.", "I usually deploy on Tuesdays."),  # no labels at all
        ("User: Please always run ruff before committing.", None),  # a standing instruction
    ],
)
def test_verb_forms_not_sentences(ws: Path, line: str, kept: str | None) -> None:
    texts = _flush(line, ws)
    assert texts == [kept or line.removeprefix("User: ")]


def test_an_assistant_fact_is_kept_as_before(ws: Path) -> None:
    texts = _flush("Assistant: I fixed the flaky test because the fixture was stale.", ws)
    assert texts == ["I fixed the flaky test because the fixture was stale."]


def test_a_durable_statement_the_gate_refuses_is_counted(ws: Path) -> None:
    r = flush(
        "User: I keep my scratch notes in /tmp/scratch/notes.md on this laptop.",
        workspace=ws,
        now=NOW,
        provider="offline",
    )
    assert r.written == [] and r.rejected == {"ephemeral:temp-path": 1}


def test_cli_flush_of_the_first_person_dump(ws: Path) -> None:
    dump = (
        "User: I live in Berlin. I work at Acme Corp. I use vim. I'm allergic to peanuts. "
        "I moved to Lisbon last week."
    )
    p = run_cli("flush", "-w", str(ws), "--json", "--provider", "offline", "--context-dump", dump)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert len(out["written"]) == 5 and out["rejected"] == {}
    texts = _texts(ws)
    assert "I live in Berlin." in texts
    assert any(t.startswith("I moved to Lisbon last week (week of ") for t in texts)


@pytest.mark.parametrize(
    "line",
    [
        "User: My son runs a bakery in Lyon.",
        "User: My brother drives a Tesla.",
        "User: Our team deploys every Thursday at 3pm.",
        "User: My manager approves all releases.",
        "User: My daughter Mia plays tennis every Sunday.",
        "User: I got married in June.",
        "User: I got promoted last week.",
    ],
)
def test_a_verb_of_the_present_simple_after_my_or_a_change_of_standing_is_kept(
    ws: Path, line: str
) -> None:
    """A "My X" sentence used to need "is" or "has" to be read as a fact, and "got" was a
    conversation verb: these were dropped with nothing counted as rejected."""
    assert len(_flush(line, ws)) == 1


@pytest.mark.parametrize(
    "line",
    [
        "User: My head hurts.",
        "User: My tests pass.",
        "User: My bad, thanks.",
        "User: I got it.",
        "User: I got bored.",
        "User: I got coffee.",
    ],
)
def test_moods_and_the_moment_after_my_or_got_are_not_kept(ws: Path, line: str) -> None:
    assert _flush(line, ws) == []
