"""Bank page names: a redaction placeholder is never an entity, a name keeps its accented
letters ("José Ñúñez", not "Jos"), and sleep and the memory tool name a page with the same slug
function (José Ñúñez -> jose-nunez, Café -> cafe)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_sleep import micro_rest
from agent_sleep.analysis import distill
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core.memory import slug_of
from agent_sleep.core.workspace import Workspace
from agent_sleep.integrations import memory_files
from agent_sleep.providers import offline_common
from tests.test_hostile_support import NOW, day

KEY = "sk-ant-api03-" + "x" * 40


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("José Ñúñez", "jose-nunez"),
        ("Café", "cafe"),
        ("Crème Brûlée", "creme-brulee"),
        ("Zoë's notes", "zoe-s-notes"),
        ("Jose\u0301 Smith", "jose-smith"),  # written decomposed
        ("Zürich", "zurich"),
        ("Дмитрий", ""),  # nothing a file name keeps
        ("\uff45\uff54\uff43", "etc"),  # fullwidth letters: the letters they stand for
        ("\ufb01nance", "finance"),  # a ligature keeps both its letters
    ],
)
def test_one_slug_function_for_sleep_and_the_memory_tool(name: str, slug: str) -> None:
    assert notes.slugify(name) == slug
    assert offline_common.slugify(name) == slug  # the offline consolidator's pages
    assert slug_of(name) == slug  # what apply writes
    assert memory_files.slugify(name) == slug  # the memory tool's pages


def test_memory_tool_and_sleep_agree_on_a_page(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "w")
    target = memory_files.resolve(ws, "/memories/José Ñúñez.md")
    assert target.rel == f"bank/concepts/{notes.slugify('José Ñúñez')}.md"


def test_names_keep_their_accented_letters() -> None:
    assert distill.names("Yesterday José Ñúñez met Zoë in Zürich") == [
        "José Ñúñez",
        "Zoë",
        "Zürich",
    ]
    assert "José" in distill.known_names(["Lunch with José today", "José said hi"])


def test_a_redaction_placeholder_is_never_a_name() -> None:
    text = "the api key is [REDACTED:anthropic-key] for José Ñúñez"
    assert distill.names(text) == ["José Ñúñez"]
    assert distill.names("we think [REDACTED:aws-access-key] Bob is unused") == ["Bob"]
    assert not {n for n in distill.known_names([text] * 3) if "REDACTED" in n.upper()}


def _entities(ws: Path) -> list[str]:
    return sorted(p.name for p in (ws / "bank" / "entities").glob("*.md"))


def test_sleep_names_the_entity_page_with_its_accents_folded(ws: Path) -> None:
    for text in (
        "José Ñúñez leads the Lisbon office",
        "José Ñúñez prefers tea",
        f"the api key is {KEY} for José Ñúñez",
        f"José Ñúñez rotated the key {KEY}2 yesterday",
        "José Ñúñez moved to the Porto team in March",
    ):
        micro_rest(text, "B", workspace=ws, when=day(0))
    sleep_cycle(ws, "both", "offline", now=NOW)
    assert _entities(ws) == ["jose-nunez.md"]
    page = (ws / "bank" / "entities" / "jose-nunez.md").read_text()
    assert "José Ñúñez leads the Lisbon office" in page


def test_sleep_files_no_page_under_a_placeholder(ws: Path) -> None:
    for text in (
        f"rotated key {KEY}a on the billing box",
        f"staging uses {KEY}b maybe",
        f"old key {KEY}c was leaked perhaps",
        "the deploy key ghp_abcdefghijklmnopqrstuvwxyz0123456789 expired?",
        "we think AKIAABCDEFGHIJKLMNOP is unused",
    ):
        micro_rest(text, "S", workspace=ws, when=day(0))
    sleep_cycle(ws, "both", "offline", now=NOW)
    pages = [p.stem for p in (ws / "bank").rglob("*.md")]
    assert pages  # the notes were filed somewhere
    assert not [p for p in pages if "redacted" in p], pages


def test_sleep_names_no_page_after_code_or_a_unit(ws: Path) -> None:
    # "cloning the Arc<AppState>" made bank/entities/arc.md, "1 Gbps" gbps.md (an exploratory
    # test); the notes' subjects name their pages
    for text in (
        "Fixed trailmap handler by cloning the Arc<AppState> instead of borrowing it",
        "trailmap handler now returns early on cache hits; Arc<AppState> stays shared",
        "Home internet upgraded: Fiber line installed, 1 Gbps down",
        "Home internet speed test: 940 Mbps down, 1 Gbps plan",
    ):
        micro_rest(text, "S", workspace=ws, when=day(0))
    sleep_cycle(ws, "both", "offline", now=NOW)
    pages = {p.stem for p in (ws / "bank").rglob("*.md")}
    assert pages
    assert not pages & {"arc", "appstate", "gbps", "mbps"}, pages
