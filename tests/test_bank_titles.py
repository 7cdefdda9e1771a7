"""A new bank page's title is the name as its notes write it: "José Núñez", not "Jose Nunez"
(the slug, ``jose-nunez``, keeps ASCII only and used to be the title's only source)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_sleep import micro_rest
from agent_sleep.consolidation.apply import _written_title
from agent_sleep.consolidation.sleep import sleep_cycle


def test_sleep_titles_a_page_with_its_accents(tmp_path: Path) -> None:
    for text in (
        "José Núñez leads the payments team",
        "José Núñez prefers Rust for services",
        "José Núñez works from Madrid",
    ):
        micro_rest(text, "W", workspace=tmp_path)
    sleep_cycle(tmp_path, provider="offline")
    page = (tmp_path / "bank" / "entities" / "jose-nunez.md").read_text()
    assert "title: José Núñez\n" in page
    assert "\n# José Núñez\n" in page


@pytest.mark.parametrize(
    ("slug", "texts", "title"),
    [
        ("jose-nunez", ["Met José Núñez today."], "José Núñez"),
        ("zurich", ["the office in zürich moved"], "Zürich"),
        ("cafe", ["Café Rouge closes early", "the café on Rue Cler"], "Café"),
        ("acme", ["Acme renewed"], None),  # ASCII: the slug's words are the title
        # an acronym or a brand keeps its capitals, not "Kestrel Dpa" or "Github Actions"
        ("kestrel-dpa", ["Kestrel DPA done; Orion scope confirmed."], "Kestrel DPA"),
        ("github-actions", ["CI runs on GitHub Actions"], "GitHub Actions"),
        ("orion-cfo", ["Orion's CFO wants pricing locked"], None),  # not written as one name
        ("jose-nunez", ["Nothing about him here"], None),
        ("zoe-s-notes", ["Zoë's notes are in the wiki"], None),  # not written as the slug's words
    ],
)
def test_the_written_title(slug: str, texts: list[str], title: str | None) -> None:
    assert _written_title(slug, texts) == title
