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


def _pages_slept(ws: Path, kind: str, *texts: str) -> set[str]:
    """The bank pages one offline sleep files ``texts`` (notes of one day, of ``kind``) on."""
    for text in texts:
        micro_rest(text, kind, workspace=ws, when=day(0))
    sleep_cycle(ws, "both", "offline", now=NOW)
    return {p.stem for p in (ws / "bank").rglob("*.md")}


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("José Ñúñez", "jose-nunez"),
        ("Café", "cafe"),
        ("Crème Brûlée", "creme-brulee"),
        ("Zoë's notes", "zoe-s-notes"),
        ("Jose\u0301 Smith", "jose-smith"),  # written decomposed
        ("Zürich", "zurich"),
        ("\uff45\uff54\uff43", "etc"),  # fullwidth letters: the letters they stand for
        ("\ufb01nance", "finance"),  # a ligature keeps both its letters
    ],
)
def test_one_slug_function_for_sleep_and_the_memory_tool(name: str, slug: str) -> None:
    assert notes.slugify(name) == slug
    assert offline_common.slugify(name) == slug  # the offline consolidator's pages
    assert slug_of(name) == slug  # what apply writes
    assert memory_files.slugify(name) == slug  # the memory tool's pages


@pytest.mark.parametrize("name", ["李雷", "Дмитрий", "東京タワー", "서울", "Αθήνα"])
def test_a_name_of_another_script_gets_a_slug_of_its_own(name: str) -> None:
    # before, these gave "" and a model's page under such a name was dropped (bad_slug)
    slug = notes.slugify(name)
    assert notes.HASHED_SLUG_RE.match(slug), slug
    assert slug_of(name) == memory_files.slugify(name) == offline_common.slugify(name) == slug
    assert notes.slugify(f" {name.upper()} ") == slug  # the same page, however written
    assert notes.slugify(name + "x") != slug and notes.slugify(name[:-1] or "z") != slug
    assert notes.slugify("— ... —") == ""  # no letter at all: still no slug


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
    pages = _pages_slept(
        ws,
        "S",
        "Fixed trailmap handler by cloning the Arc<AppState> instead of borrowing it",
        "trailmap handler now returns early on cache hits; Arc<AppState> stays shared",
        "Home internet upgraded: Fiber line installed, 1 Gbps down",
        "Home internet speed test: 940 Mbps down, 1 Gbps plan",
    )
    assert pages
    assert not pages & {"arc", "appstate", "gbps", "mbps"}, pages


def test_a_model_files_a_name_of_another_script_on_a_page_titled_with_it(ws: Path) -> None:
    # before, the slug "李雷" was dropped as bad_slug and the fact was filed nowhere
    from tests.fake_messages_api import QueueProvider

    nid = micro_rest("李雷在北京工作, on the payments team.", "W", workspace=ws, when=day(0))
    page = {"slug": "李雷", "kind": "entity", "section": "Work", "sources": [nid],
            "content": "李雷在北京工作, on the payments team."}  # fmt: skip
    answer = {"memory_md_updates": [], "bank_updates": [page], "pruned_count": 0,
              "weakly_learned": [], "open_questions": []}  # fmt: skip
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(answer), now=NOW)
    assert not r.dropped and r.decisions.get("bank_entries") == 1, r
    path = ws / "bank" / "entities" / f"{notes.slugify('李雷')}.md"
    text = path.read_text()
    assert "title: 李雷\n" in text and "\n# 李雷\n" in text and "on the payments team" in text
    # a second note about the same name lands on the same page
    other = micro_rest("李雷 prefers tea.", "W", workspace=ws, when=day(0))
    page2 = {**page, "content": "李雷 prefers tea.", "sources": [other]}
    sleep_cycle(ws, "nrem", QueueProvider().enqueue({**answer, "bank_updates": [page2]}), now=NOW)
    assert [p.name for p in (ws / "bank" / "entities").glob("*.md")] == [path.name]
    assert "prefers tea" in path.read_text()


def test_sleep_names_no_page_after_a_day(ws: Path) -> None:
    # "Friday: Jordan out at 3 as usual." made bank/entities/friday.md, "Veterans Day, half the
    # team is out." day.md and "Black Friday traffic fine" black.md (an exploratory test)
    pages = _pages_slept(
        ws,
        "B",
        "Friday: Jordan out at 3 as usual.",
        "Veterans Day, half the team is out.",
        "Black Friday traffic fine; the gateway peaked at 60% of its limit.",
        "Black Friday prep: scale the gateway to 12 pods.",
        "Thanksgiving week, Jordan is off on Thursday.",
        "Jordan wants the gateway dashboards cleaned up.",
    )
    assert pages and not pages & {"friday", "day", "black", "black-friday", "thanksgiving"}, pages


def test_sleep_names_no_page_after_a_label_or_a_filler_word(ws: Path) -> None:
    # one day of a personal assistant's notes made concepts/new.md, concepts/packed.md and
    # entities/question.md (an exploratory test)
    micro_rest("Question: which day does the new flat's building collect recycling?", "W",
               workspace=ws, when=day(0))  # fmt: skip
    micro_rest("Plan: check the parents' evening date on the school portal.", "W",
               workspace=ws, when=day(0))  # fmt: skip
    pages = _pages_slept(
        ws,
        "B",
        "Packed the first six boxes of books.",
        "Set up the new laptop's email and calendar accounts.",
        "The family moved into the new flat at Rua de Cedofeita 210 over the weekend.",
        "Packed the living room except the sofa.",
        "Saturday: the whole family packed the kitchen cupboards.",
    )
    assert pages and not pages & {"new", "packed", "question", "plan", "first", "day"}, pages


def test_sleep_names_no_page_after_remember(ws: Path) -> None:
    # "Remember: Payments v2.3 release Nov 17, Dashboard 5.0 Nov 12" was filed on a page
    # titled "Remember" (an engineering manager's notes)
    pages = _pages_slept(
        ws,
        "S",
        "Remember: Payments v2.3 release Nov 17, Dashboard 5.0 Nov 12.",
        "Remember: the staging database is db-stg-1.",
        "FYI: the office is closed on Monday.",
    )
    assert not pages & {"remember", "fyi"}, pages


def test_sleep_names_no_concept_page_after_a_time(ws: Path) -> None:
    # six weeks of a personal assistant's notes made concepts/saturday.md and concepts/day.md
    pages = _pages_slept(
        ws,
        "B",
        "Saturday: the whole family packed the kitchen cupboards.",
        "Saturday morning Tomás had his football match; they won 3-1.",
        "Sofia's Saturday ballet class ran late.",
        "Spent the day on the Lumina leaflet.",
        "A long day of calls with Kettering Legal.",
        "The day ended with a long walk by the river.",
    )
    assert pages and not pages & {"saturday", "day", "morning"}, pages


def test_sleep_names_no_page_after_days_of_a_habit_or_a_short_month(ws: Path) -> None:
    # an engineering manager's five weeks made entities/fridays.md ("Kwame's first 1:1,
    # Fridays going forward") and concepts/nov.md ("… She starts Nov 16")
    pages = _pages_slept(
        ws,
        "B",
        "Kwame's first 1:1, Fridays going forward.",
        "Nina's onsite moved; she starts Nov 16 if the offer lands by Nov 2.",
        "Offer call with Nina on Nov 3; start date Nov 16 confirmed.",
        "Retro notes: deploys now on Tuesdays and Thursdays.",
    )
    assert pages and not pages & {"fridays", "nov", "tuesdays", "thursdays"}, pages


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Tyrell Systems has 200 seats.", ["Tyrell Systems"]),
        ("Acme Corp is on the Growth plan.", ["Acme Corp", "Growth"]),
        ("Called Soylent Labs about seats.", ["Soylent Labs"]),
        ("Met Priya at Globex.", ["Priya", "Globex"]),  # a first word alone stays out
        ("Systems are down again.", []),
    ],
)
def test_a_company_name_opening_a_sentence_is_read_whole(text: str, names: list[str]) -> None:
    """A company's name that opens a sentence lost its first word ("Tyrell Systems" read as
    "Systems"), so the offline consolidator filed the company on a page ``systems.md`` (an
    exploratory test of an account manager's notes)."""
    assert distill.names(text, distill.known_names([text])) == names


def test_the_company_page_is_named_after_the_company(ws: Path) -> None:
    micro_rest("Tyrell Systems asked for SSO on the admin console.", "B", workspace=ws, when=day(0))
    for text in ["Globex wants invoices in EUR.", "Initech has 25 seats."]:
        micro_rest(text, "W", workspace=ws, when=day(0))
    sleep_cycle(ws, provider="offline", now=NOW)
    pages = {p.stem for p in (ws / "bank").rglob("*.md")}
    assert "tyrell-systems" in pages and "systems" not in pages, pages
