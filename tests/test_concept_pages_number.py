"""A concept is one page whatever the number its name is written in.

Five weeks of notes slept offline left ``service.md`` beside ``services.md`` and ``invoice.md``
beside ``invoices.md`` (an exploratory test): each run named the page after the word as its
notes wrote it. A concept slug with no page of its own now goes to the one concept page of its
other number (``pages.same_concept``); entity slugs are left alone ("Adams" is not "Adam").
Replies are scripted with the queue provider, so the apply path every provider shares is what
is tested.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_sleep.consolidation.pages import other_number, same_concept
from tests.test_entity_pages import _bank, _hand_page, _note, _pages, _sleep


@pytest.mark.parametrize(
    ("slug", "forms"),
    [
        ("invoice", ["invoices"]),
        ("invoices", ["invoice"]),
        ("service", ["services"]),
        ("policy", ["policies"]),
        ("policies", ["policy", "policie"]),
        ("pull-request", ["pull-requests"]),
        ("boxes", ["box", "boxe"]),
        ("status", ["statuses"]),
        ("class", ["classes"]),
        ("holiday", ["holidays"]),
        ("api", []),  # too short to tell
        ("ledger-api", []),
        ("q4", []),
    ],
)
def test_the_other_number_of_a_slug(slug: str, forms: list[str]) -> None:
    assert other_number(slug) == forms


def test_only_one_existing_page_is_taken() -> None:
    pages = {"service", "class", "classe"}
    assert same_concept("services", pages.__contains__) == "service"
    assert same_concept("classes", pages.__contains__) == "classes"  # two: none
    assert same_concept("invoices", pages.__contains__) == "invoices"  # none


def _page(ws: Path, slug: str) -> str:
    return (ws / "bank" / "concepts" / f"{slug}.md").read_text()


def test_a_concept_files_on_the_page_of_its_other_number(ws: Path) -> None:
    _hand_page(ws, "concepts", "service")
    _hand_page(ws, "concepts", "invoices")
    ports = "ledger-api listens on port 8080 behind the mesh"
    pdfs = "billing-api stores each invoice PDF in S3"
    r = _sleep(
        ws,
        _bank("services", ports, _note(ws, ports), kind="concept"),
        _bank("invoice", pdfs, _note(ws, pdfs), kind="concept"),
    )
    assert _pages(ws, "concepts") == ["invoices.md", "service.md"]  # before: four pages
    assert ports in _page(ws, "service") and pdfs in _page(ws, "invoices")
    assert r.decisions["bank_same_name"] == 2


def test_one_run_writing_both_numbers_makes_one_page(ws: Path) -> None:
    one, two = "The refund service retries three times", "Both services log to Loki"
    _sleep(
        ws,
        _bank("service", one, _note(ws, one), kind="concept"),
        _bank("services", two, _note(ws, two), kind="concept"),
    )
    assert _pages(ws, "concepts") == ["service.md"]
    assert two in _page(ws, "service")


def test_an_entity_keeps_its_own_number(ws: Path) -> None:
    """Two people, "Adams" and "Adam"; and an entity is never filed on a concept page."""
    _hand_page(ws, "entities", "adam")
    _hand_page(ws, "concepts", "service")
    adams = "Paired with Adams on the ledger export"
    services = "Services was the team name before the reorg"
    _sleep(
        ws,
        _bank("adams", adams, _note(ws, adams)),
        _bank("services", services, _note(ws, services)),
    )
    assert _pages(ws) == ["adam.md", "adams.md", "services.md"]
    assert _pages(ws, "concepts") == ["service.md"]
