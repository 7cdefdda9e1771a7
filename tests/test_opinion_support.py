"""Opposite opinions are not each other's support: "prefers light mode" used to raise "prefers
dark mode" (and the reverse) to 0.95, since the two read alike word for word; and "now prefers
dark mode again" was read as replacing the dark-mode entry it restates."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import currency
from agent_sleep.core import notes
from agent_sleep.providers.offline_rem import _swapped

DAY = dt.datetime(2026, 8, 1)


def _entries(ws: Path) -> dict[str, notes.Note]:
    text = (ws / "MEMORY.md").read_text()
    return {n.text: n for n in notes.notes_in(text) if not n.meta.get("superseded_by")}


def test_a_later_opposite_opinion_lowers_the_earlier_and_neither_supports_the_other(
    tmp_path: Path,
) -> None:
    dark, light = (
        "The user prefers dark mode in the editor.",
        "The user prefers light mode in the editor.",
    )
    micro_rest(dark, "O", workspace=tmp_path, confidence=0.9, when=DAY.replace(hour=9))
    micro_rest(light, "O", workspace=tmp_path, confidence=0.9, when=DAY.replace(hour=15))
    sleep_cycle(tmp_path, "both", "offline", now=DAY.replace(hour=22))
    entries = _entries(tmp_path)
    assert (
        entries[light].confidence == 0.9
    )  # not raised by its opposite, not lowered by an older note
    assert entries[dark].confidence is not None and entries[dark].confidence < 0.9
    micro_rest("The user now prefers dark mode again.", "O", workspace=tmp_path, confidence=0.9,
               when=DAY.replace(day=2, hour=9))  # fmt: skip
    sleep_cycle(tmp_path, "both", "offline", now=DAY.replace(day=2, hour=22))
    entries = _entries(tmp_path)
    assert not any(n.meta.get("contested") for n in entries.values())
    now_dark = entries[dark].confidence
    now_light = entries[light].confidence
    assert now_dark is not None and now_light is not None and now_dark > now_light


def test_a_restatement_with_change_words_is_the_same_value() -> None:
    again = "The user now prefers dark mode again."
    assert (
        currency.relation(again, "The user prefers dark mode in the editor.").kind == currency.SAME
    )
    assert (
        currency.relation(again, "The user prefers light mode in the editor.").kind
        == currency.SUPERSEDE
    )


@pytest.mark.parametrize(
    ("a", "b", "swapped"),
    [
        (
            "The user prefers dark mode in the editor.",
            "The user prefers light mode in the editor.",
            True,
        ),
        ("Indent with 2 spaces in Python files.", "Indent with 4 spaces in Python files.", True),
        ("The user prefers dark mode.", "The user prefers dark mode in VS Code.", False),
        (
            "The user now prefers dark mode again.",
            "The user prefers dark mode in the editor.",
            False,
        ),
        ("The user prefers tea.", "The user prefers coffee.", True),
        ("Alice prefers tea.", "Bob prefers tea.", False),  # another owner
        ("The user prefers dark mode.", "The user prefers light mode in the editor.", False),
        (  # a longer detail, not an opposite
            "Alice prefers the billing migration plan reviewed, part 2",
            "Alice prefers the billing migration plan reviewed early",
            False,
        ),
    ],
)
def test_a_word_swapped_inside_a_shared_frame(a: str, b: str, swapped: bool) -> None:
    assert _swapped(a, b) is swapped
