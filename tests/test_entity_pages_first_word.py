"""A full name that opens a sentence files on the page its first (or last) name already has.

``bank/entities/hannah.md`` was there (from "ask Hannah about the Q1 roadmap"); "Hannah Cole is
the tech lead…" opened ``cole.md`` (an exploratory test; "Priya Nair owns billing-api" likewise
made ``nair.md``): a sentence's first word is a name only when the run's notes show it is one,
so the name read was "Cole" alone, and no page has that name. The words of the entity pages'
names are now names where they open a sentence too, and a single word the entries write in one
full name stands for that name (``consolidation/pages.py``). Nothing is guessed when two pages
could be the person's; each such test also files one entry that does merge in the same run.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core.rest import micro_rest
from tests.test_entity_pages import LUNCH, _bank, _file, _hand_page, _note, _page, _pages, _sleep

COLE = "Hannah Cole is the tech lead for the payments platform"
ASK = "TODO: ask Hannah about the Q1 roadmap for the ledger"


def test_a_surname_read_alone_goes_to_the_page_of_its_first_name(ws: Path) -> None:
    _hand_page(ws, "entities", "hannah", f"- B: {ASK} <!-- id=askhannah1 -->\n")
    r = _file(ws, "cole", COLE)  # what the offline consolidator read: "Cole"
    assert _pages(ws) == ["hannah.md"]  # before: cole.md beside it
    assert COLE in _page(ws, "hannah") and ASK in _page(ws, "hannah")
    assert r.decisions["bank_same_name"] == 1


def test_a_first_name_read_alone_goes_to_the_page_of_its_surname(ws: Path) -> None:
    _hand_page(ws, "entities", "cole")
    _file(ws, "hannah", COLE)
    assert _pages(ws) == ["cole.md"]
    assert COLE in _page(ws, "cole")


def test_a_first_name_goes_to_the_full_name_page(ws: Path) -> None:
    """The other direction: "Hannah" alone, with ``hannah-cole.md`` there."""
    _hand_page(ws, "entities", "hannah-cole", f"- W: {COLE} <!-- id=colehannah -->\n")
    _file(ws, "hannah", ASK)
    assert _pages(ws) == ["hannah-cole.md"]
    assert ASK in _page(ws, "hannah-cole")


def test_two_pages_the_name_could_be_on_get_neither(ws: Path) -> None:
    """``hannah.md`` and ``hannah-lee.md``: "Hannah Cole" may be either page's Hannah or
    neither; the entry stays on the page asked for."""
    for slug in ("hannah", "hannah-lee", "dana-whitfield"):
        _hand_page(ws, "entities", slug)
    r = _sleep(
        ws,
        _bank("cole", COLE, _note(ws, COLE)),
        _bank("whitfield", LUNCH, _note(ws, LUNCH)),  # only Dana Whitfield: merged
    )
    assert _pages(ws) == ["cole.md", "dana-whitfield.md", "hannah-lee.md", "hannah.md"]
    assert COLE in _page(ws, "cole")
    assert LUNCH in _page(ws, "dana-whitfield")
    assert r.decisions["bank_same_name"] == 1


def test_a_full_name_without_a_page_keeps_the_page_asked_for(ws: Path) -> None:
    """Read whole, the name goes only to a page it has: with none, nothing is renamed."""
    _hand_page(ws, "entities", "maya")
    _file(ws, "cole", COLE)
    assert _pages(ws) == ["cole.md", "maya.md"]


def test_a_word_the_entry_writes_in_two_full_names_stays_alone(ws: Path) -> None:
    _hand_page(ws, "entities", "hannah")
    _hand_page(ws, "entities", "maya")
    both = "Hannah Cole and Maya Cole share the on-call week"
    _file(ws, "cole", both)
    assert _pages(ws) == ["cole.md", "hannah.md", "maya.md"]
    assert both in _page(ws, "cole")


def test_the_offline_consolidator_files_the_full_name_on_the_first_names_page(ws: Path) -> None:
    """The exploratory test's days: Hannah's page from a todo, then a day of facts with
    "Hannah Cole is the tech lead…" among them, each day slept offline."""
    first = dt.datetime(2026, 11, 5, 15, 0)
    micro_rest(ASK, "B", workspace=ws, when=first)
    sleep_cycle(ws, "both", "offline", now=first.replace(hour=22))
    assert _pages(ws) == ["hannah.md"]
    facts = [
        "ledger-api exposes gRPC on port 50051 for internal callers",
        "PRs need two approvals before merge",
        "Release branches are named release/YYYY.MM",
        "Both services share the Redis cache at redis-prod-1",
        "Schema migrations are managed with Alembic, one migrations folder per service",
        "ArgoCD deploys both services to the k8s clusters",
        COLE,
        "Deploy freeze: no production deploys on Fridays after 15:00",
        "billing-api stores generated invoice PDFs in the S3 bucket acme-invoices-prod",
        "ledger-api stores all money amounts as integer cents (BIGINT)",
        "Stripe webhooks hit billing-api at /webhooks/stripe",
    ]
    second = dt.datetime(2026, 11, 7, 9, 0)
    for k, text in enumerate(facts):
        micro_rest(text, "W", workspace=ws, when=second + dt.timedelta(minutes=k + 1))
    sleep_cycle(ws, "both", "offline", now=second.replace(hour=22))
    assert "cole.md" not in _pages(ws)
    where = [p.name for p in (ws / "bank").rglob("*.md") if COLE in p.read_text()]
    assert where == ["hannah.md"], (where, _pages(ws))
