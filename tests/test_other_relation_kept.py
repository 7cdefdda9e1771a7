"""A new fact of one attribute of a person or thing never archives another attribute of it:
"Bob now drives a Tesla" filed "Bob lives in Paris" in the archive (the embedding's likeness of
the two sentences, names masked, overrode the rules' "another attribute"), as did "Tom now works
at Stripe" for "Tom lives in Oslo", "Kofi now uses Neovim" for "Kofi works at Shopify", "Our
office now has a gym" for "Our office is in Lisbon", "Alice now lives in Rome" for "Alice's
mother lives in Berlin" and "Sara took over the billing service from Tom" for "Tom owns the
search service" (an exploratory test)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import currency, update_model
from agent_sleep.core import notes
from agent_sleep.retrieval.embed import load_embedder

KEPT = [
    ("Bob now drives a Tesla", "Bob lives in Paris"),
    ("Kofi now uses Neovim", "Kofi works at Shopify"),
    ("Tom now works at Stripe", "Tom lives in Oslo"),
    ("Alice now lives in Rome", "Alice's mother lives in Berlin"),
    ("Sara took over the billing service from Tom", "Tom owns the search service"),
    ("Our office now has a gym", "Our office is in Lisbon"),
    ("Bob renamed the repo to atlas-core", "Bob lives in Paris"),
    # a name of another kind (analysis/gazetteer): a place is not an employer, a language not
    # a place
    ("Dana moved to Berlin", "Dana works at Google"),
    ("Alice now speaks German", "Alice is from Canada"),
    ("Raj moved to Lisbon", "Raj's manager is Karen"),
    ("Mia moved to Rome", "Mia is from Canada"),  # where one is from stays so
    ("The user moved to Portland", "The user's favorite city is Paris"),  # a liked place
    ("Production moved to eu-central-1", "Production deploys are on Tuesdays"),  # a day's no host
    ("Noor is moving to Rome next month (2026-12)", "Noor lives in Paris"),  # a plan
    ("Lee joined the Stripe call", "Lee works at Acme"),  # a call joined, no employer
    # the old value neither replaced nor said gone
    ("The billing service moved to a new team", "The billing service is written in Go"),
    # a language learned is one more spoken
    ("Maria started learning French", "Maria speaks German and Spanish"),
    # "left Dropbox" says only what went: a new laptop holds no newer value of it
    ("Priya upgraded to a MacBook Pro M4", "Priya left Dropbox and now works at Stripe"),
    # the date sleep writes after "today" is when it happened, no value it gives (a six-week
    # exploratory test)
    ("Maya had a sore throat today (2026-11-21) and took ibuprofen.",
     "Maya is allergic to penicillin."),
    # a change that names the value it replaced ("it was Pacific") is of that value only
    ("Ravi's time zone is now Mountain Time (it was Pacific).", "Ravi now lives in Denver."),
    # a condition: nothing changed yet
    ("Maya and Sam talked about moving to Denver if the Globex job happens.",
     "Maya's partner is Sam, an ER nurse at OHSU who works night shifts."),
    # each names an attribute the other never says: a standup, a time zone
    ("Maya's standup at Globex moved to 9:30 Mountain from next week.",
     "Maya's time zone is now Mountain Time."),
]  # fmt: skip
REPLACED = [
    ("Tom now works at Stripe", "Tom works at Google"),
    ("Bob moved to Berlin", "Bob lives in Paris"),
    ("Kofi now uses Neovim", "Kofi uses vim"),
    ("Alice now lives in Rome", "Alice lives in Berlin"),
    ("Sara took over the billing service from Tom", "Tom owns the billing service"),
    ("Our office moved to Porto", "Our office is in Lisbon"),
    ("Bob moved to Berlin", "Bob is based in London"),
    ("Carol moved to Berlin", "Carol lives in Smalltown"),  # a place the gazetteer lacks
    ("The team now meets in Berlin", "The team meets in Room 4"),
    ("Sam now studies Japanese", "Sam studies Spanish"),
    ("Dana moved to Stripe", "Dana works at Google"),
    # taking up an employer or a home, told in the past tense
    ("Tom joined Stripe", "Tom works at Acme"),
    ("Ben got a job at Globex", "Ben works at Acme"),
    ("Maria now speaks French at home", "Maria speaks German at home"),
    ("Priya no longer works at Dropbox, she moved to Stripe", "Priya works at Dropbox"),
]


@pytest.fixture(scope="module")
def similar():  # the bundled model, as sleep asks it
    import numpy as np

    model = load_embedder()

    def cosine(a: str, b: str) -> float:
        v = model.embed_documents([a, b])
        v = v / np.linalg.norm(v, axis=1, keepdims=True)
        return float(v[0] @ v[1])

    return cosine


@pytest.mark.parametrize(("new", "old"), KEPT)
def test_another_attribute_is_not_replaced(new: str, old: str, similar) -> None:
    # as sleep reads a pair: the rules, the embedding's likeness, then the learned last word
    assert update_model.relation(new, old, frozenset(), similar).kind != currency.SUPERSEDE


@pytest.mark.parametrize(("new", "old"), REPLACED)
def test_the_same_attribute_still_is(new: str, old: str, similar) -> None:
    assert update_model.relation(new, old, frozenset(), similar).kind == currency.SUPERSEDE


def test_sleep_keeps_every_old_fact_current(tmp_path: Path) -> None:
    olds = [old for _new, old in KEPT if "Paris" not in old or "Tesla" in _new]
    day1, day2 = dt.datetime(2026, 3, 1, 9), dt.datetime(2026, 3, 2, 10)
    for i, text in enumerate(olds):
        micro_rest(text, "W", workspace=tmp_path, when=day1 + dt.timedelta(minutes=i))
    sleep_cycle(tmp_path, "both", "offline", now=day1.replace(hour=22))
    for i, (new, _old) in enumerate(KEPT):
        micro_rest(new, "W", workspace=tmp_path, when=day2 + dt.timedelta(minutes=i))
    sleep_cycle(tmp_path, "both", "offline", now=day2.replace(hour=22), prune_memory=True)
    entries = notes.notes_in((tmp_path / "MEMORY.md").read_text())
    for page in sorted((tmp_path / "bank").rglob("*.md")):
        entries += notes.notes_in(page.read_text())
    replaced = [n.text for n in entries if n.meta.get("superseded_by")]
    assert replaced == []


def test_a_fact_read_only_as_alike_never_replaces_an_opinion(tmp_path: Path) -> None:
    # "Maya's standup at Globex moved to 9:30" replaced the opinion "Maya feels relieved and
    # excited about Globex" through the embedding's likeness (a six-week exploratory test)
    opinion = "Maya feels relieved and excited about Globex."
    day1, day2 = dt.datetime(2026, 3, 1, 9), dt.datetime(2026, 3, 3, 10)
    micro_rest(opinion, "O", workspace=tmp_path, when=day1, confidence=0.7)
    sleep_cycle(tmp_path, "both", "offline", now=day1.replace(hour=22))
    micro_rest("Maya's standup at Globex moved to 9:30 Mountain from next week.", "W",
               workspace=tmp_path, when=day2)  # fmt: skip
    sleep_cycle(tmp_path, "both", "offline", now=day2.replace(hour=22), prune_memory=True)
    memory = notes.notes_in((tmp_path / "MEMORY.md").read_text())
    assert opinion in [n.text for n in memory if not n.meta.get("superseded_by")]
