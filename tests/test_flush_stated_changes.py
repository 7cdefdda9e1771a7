"""The offline flush keeps a change of a thing's value that a person states ("the team standup
moved to 10:00", "The staging database moved to pg-staging-2"). Only sentences with a person
as the subject ("We moved to Lisbon") or a keyword were read as facts, so these were dropped
with nothing counted as rejected, and memory kept the stale value. Hedges, reports,
conditions, negations, the conversation's own drift and the assistant's speech still are not
kept (an exploratory test)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from agent_sleep import Workspace
from agent_sleep.consolidation.flush import flush
from agent_sleep.core import notes
from agent_sleep.integrations import claude_code
from tests.conftest import run_cli
from tests.fixtures import claude_transcript as ct

NOW = dt.datetime(2026, 12, 5, 10, 0)


def _notes(ws: Path) -> list[notes.Note]:
    return [
        n for log in sorted((ws / "memory").glob("*.md")) for n in notes.notes_in(log.read_text())
    ]


def _flush(text: str, ws: Path) -> list[str]:
    flush(text, workspace=ws, now=NOW, provider="offline")
    return [n.text for n in _notes(ws)]


CHANGES = [
    "The staging database moved to pg-staging-2 over the weekend; pg-staging-1 is being "
    "decommissioned.",
    "The weekly sync was moved to Thursday afternoons.",
    "Hannah switched the deploy target from eu-west-1 to eu-central-1.",
    "Our CI moved from Jenkins to GitHub Actions.",
    "The repo has been renamed to agent-sleep.",
    "The on-call rota changed to two-week shifts.",
]


@pytest.mark.parametrize("said", CHANGES)
@pytest.mark.parametrize("label", ["User: ", "Human: ", ""])
def test_a_stated_change_is_kept_as_a_world_fact(ws: Path, said: str, label: str) -> None:
    r = flush(label + said, workspace=ws, now=NOW, provider="offline")
    assert len(r.written) == 1 and r.rejected == {}
    (note,) = _notes(ws)
    assert (note.type, note.text) == ("W", said)


def test_the_change_keeps_its_date(ws: Path) -> None:
    assert _flush("User: FYI the team standup moved to 10:00 starting today.", ws) == [
        "FYI the team standup moved to 10:00 starting today (2026-12-05)."
    ]


@pytest.mark.parametrize(
    "line",
    [
        # a hedge, a report, a condition, a negation, a plan that is not dated
        "User: I think the standup moved to 10:00.",
        "User: The standup probably moved to 10:00.",
        "User: I heard the staging database moved to pg-staging-2.",
        "User: If the standup moved to 10:00, Hannah would be late.",
        "User: The standup hasn't moved to 10:00.",
        # questions and chit-chat
        "User: Did the standup move to 10:00?",
        "User: The standup moved to 10:00?",
        "User: The discussion moved to pricing.",
        "User: Then things moved to the next topic.",
        "User: Hannah changed it to 10:00.",
        # the assistant's own words: its echo and its guesses are no statement of the user's
        "Assistant: Noted: standup is now at 10:00 instead of 9:30.",
        "Assistant: The export job moved to 03:30 UTC.",
        "Assistant: The staging database probably moved to pg-staging-2.",
    ],
)
def test_what_is_no_stated_change_is_not_kept(ws: Path, line: str) -> None:
    r = flush(line, workspace=ws, now=NOW, provider="offline")
    assert r.written == [] and _notes(ws) == []


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("User: Use make deploy from now on.", "Use make deploy from now on."),
        ("User: Going forward, releases are cut on Wednesdays.", None),
        # "Heads up:" is asked to be kept like "FYI:"; a path keeps its case
        (
            "User: Heads up: scripts/deploy.sh is gone from main.",
            "scripts/deploy.sh is gone from main.",
        ),
    ],
)
def test_a_standing_change_of_practice_is_kept(ws: Path, line: str, kept: str | None) -> None:
    assert _flush(line, ws) == [kept or line.removeprefix("User: ")]


def test_the_pre_compact_hook_keeps_the_changes_the_user_states(ws: Path, tmp_path: Path) -> None:
    transcript = ct.write(
        tmp_path / "t.jsonl",
        [
            ct.user(
                "Morning. FYI the team standup moved to 10:00 starting today, Hannah changed it."
            ),
            ct.assistant("Noted: standup is now at 10:00 instead of 9:30."),
            ct.user(
                "The staging database moved to pg-staging-2 over the weekend; pg-staging-1 is "
                "being decommissioned."
            ),
            ct.assistant("Noted: staging Postgres for both services is now pg-staging-2."),
        ],
    )
    done = claude_code.flush_transcript(Workspace.at(ws), "s", transcript)
    assert done["notes_written"] == 2
    texts = [n.text for n in _notes(ws)]
    assert any("standup moved to 10:00" in t for t in texts)
    assert any(t.startswith("The staging database moved to pg-staging-2") for t in texts)
    assert not any("Noted" in t for t in texts)


def test_cli_flush_says_what_it_wrote(ws: Path) -> None:
    dump = "the team standup moved to 10:00\nThe staging database moved to pg-staging-2."
    p = run_cli("flush", "-w", str(ws), "-p", "offline", "--json", "--context-dump", dump)
    assert p.returncode == 0, p.stderr
    assert len(json.loads(p.stdout)["written"]) == 2
