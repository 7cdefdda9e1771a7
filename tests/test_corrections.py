"""A correction replaces the value it corrects: "Correction: the staging database is actually on
port 5433, not 5432." used to be read as a chat turn said by someone called "Correction" (a
speaker's page, bank/entities/correction.md, and no supersede), and the closing ", not 5432" as
a negation of the new value. A remark's label ("Correction:", "Update:", "FYI:") is no speaker,
and ", not A" names the value corrected, for the same subject only."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import claims, currency, lexical
from agent_sleep.core import notes


@pytest.mark.parametrize(
    ("new", "old"),
    [
        (
            "Correction: the staging database is actually on port 5433, not 5432.",
            "The staging database listens on port 5432.",
        ),
        (
            "Correction: my 1:1 with Dana is on Mondays, not Thursdays.",
            "My 1:1 with Dana is on Thursdays.",
        ),
        ("The API runs on Python 3.11, not 3.12.", "The API runs on Python 3.12."),
        ("Update: the deploy target is eu-central-1.", "The deploy target is eu-west-1."),
        ("FYI: the office closes at 6pm.", "The office closes at 5pm."),
    ],
)
def test_a_correction_supersedes_the_value_it_names(new: str, old: str) -> None:
    assert currency.relation(new, old).kind == currency.SUPERSEDE


@pytest.mark.parametrize(
    ("new", "old"),
    [
        # another subject: the corrected value is not theirs
        ("The API runs on Python 3.11, not 3.12.", "The docs build uses Python 3.12."),
        (
            "The meeting with Acme is on Tuesday, not Monday.",
            "The meeting with Globex is on Monday.",
        ),
        # a chat turn stays a chat turn
        ("Caroline: I went to the park, not the beach.", "Caroline: I love the beach."),
    ],
)
def test_a_correction_leaves_other_subjects_alone(new: str, old: str) -> None:
    assert currency.relation(new, old).kind != currency.SUPERSEDE


def test_a_remark_label_is_no_speaker_and_a_name_still_is() -> None:
    assert lexical.split_speaker("Correction: the port is 5433.") == (
        "",
        "Correction: the port is 5433.",
    )
    assert lexical.split_speaker("FYI: builds are slow today.")[0] == ""
    assert lexical.split_speaker("Caroline: I went to the park.")[0] == "Caroline: "
    (c,) = claims.claims("Correction: the staging database is on port 5433, not 5432.")
    assert c.speaker == "" and not c.negated and c.change
    assert "5432" not in c.values and "5432" not in c.words


def _at(day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, 4, day, hour, minute)


def test_corrections_replace_the_old_entries_after_a_sleep(tmp_path: Path) -> None:
    for i in range(1, 9):  # other entries, so the removal cap lets two changes through
        micro_rest(f"Server host{i} runs Ubuntu 22.04 in rack R{i}.", "W", workspace=tmp_path,
                   when=_at(1, 8, 10 + i))  # fmt: skip
    micro_rest("The staging database listens on port 5432.", workspace=tmp_path, when=_at(1, 9))
    micro_rest("My 1:1 with Dana is on Thursdays.", workspace=tmp_path, when=_at(1, 9, 5))
    sleep_cycle(tmp_path, "both", "offline", now=_at(1, 22))
    micro_rest("Correction: the staging database is actually on port 5433, not 5432.",
               workspace=tmp_path, when=_at(3, 9))  # fmt: skip
    micro_rest("Correction: my 1:1 with Dana is on Mondays, not Thursdays.", workspace=tmp_path,
               when=_at(3, 9, 10))  # fmt: skip
    sleep_cycle(tmp_path, "both", "offline", now=_at(3, 22))

    entries = notes.notes_in((tmp_path / "MEMORY.md").read_text())
    for page in sorted((tmp_path / "bank").rglob("*.md")):
        entries += notes.notes_in(page.read_text())
    current = {n.text for n in entries if not n.meta.get("superseded_by")}
    replaced = {n.text for n in entries if n.meta.get("superseded_by")}
    assert replaced == {
        "The staging database listens on port 5432.",
        "My 1:1 with Dana is on Thursdays.",
    }
    assert any("5433" in t for t in current) and any("Mondays" in t for t in current)
    assert not (tmp_path / "bank" / "entities" / "correction.md").exists()


# an entry of several facts: the value the note names as replaced is put right in it, and the
# entry's other facts stay (an exploratory test: the whole entry went to History, port 8443
# with it)
IN_PLACE = [
    ("payments-gateway runs locally on port 8443 and its Postgres on 5434.",
     "Correction: payments-gateway's local Postgres is on 5435, not 5434.",
     "payments-gateway runs locally on port 8443 and its Postgres on 5435."),
    ("Maria lives in Berlin and works at Siemens.", "Maria moved from Berlin to Munich.",
     "Maria lives in Munich and works at Siemens."),
    ("Standup is at 9:30 and retro on Fridays", "Standup moved from 9:30 to 10:15",
     "Standup is at 10:15 and retro on Fridays"),
    # ", not A" closing a clause the note goes on after; a value of another kind ("DB") aside
    ("payments-gateway runs locally on port 8443 and its Postgres on 5434.",
     "Correction: payments-gateway's local Postgres is on 5435, not 5434 - 5434 is the test DB.",
     "payments-gateway runs locally on port 8443 and its Postgres on 5435."),
]  # fmt: skip
WHOLE = [
    # one fact: the note replaces it whole, in its own words
    ("Standup is at 9:30", "Standup moved from 9:30 to 10:15"),
    # no value named as replaced, or two new values
    ("Maria lives in Berlin and works at Siemens.", "Maria now lives in Munich."),
    ("We use Node 18 and pnpm 8", "Bumped Node from 18 to 20 and pnpm to 9"),
    # the policy changed too: the whole entry is the note's
    ("Car insurance is with Aviva, policy AV-558120.",
     "Car insurance renewed with Admiral instead of Aviva, policy ADM-77341."),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "want"), IN_PLACE)
def test_the_named_value_is_put_right_in_an_entry_of_several_facts(
    old: str, new: str, want: str
) -> None:
    assert currency.in_place(new, old) == want


@pytest.mark.parametrize(("old", "new"), WHOLE)
def test_no_value_put_in_place(old: str, new: str) -> None:
    assert currency.in_place(new, old) is None


@pytest.mark.parametrize(("old", "new", "want"), [IN_PLACE[0], IN_PLACE[3]])
def test_a_correction_keeps_the_other_facts_of_its_entry_after_a_sleep(
    tmp_path: Path, old: str, new: str, want: str
) -> None:
    micro_rest(old, "W", workspace=tmp_path, when=_at(1, 9))
    sleep_cycle(tmp_path, "both", "offline", now=_at(1, 22))
    micro_rest(new, "W", workspace=tmp_path, when=_at(3, 9))
    sleep_cycle(tmp_path, "both", "offline", now=_at(3, 22), prune_memory=True)
    memory = notes.notes_in((tmp_path / "MEMORY.md").read_text())
    current = [n.text for n in memory if not n.meta.get("superseded_by")]
    assert current == [want]
