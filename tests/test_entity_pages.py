"""One person, one entity page, whether the notes write the name short or in full.

A five-week test found one person on two pages: notes said "Jordan" most days and "Jordan
Reyes" on others, and sleep made ``jordan.md`` beside ``jordan-reyes.md`` (another person got
``whitfield.md`` beside the full-name page). An entity slug with no page of its own now goes to
the page of the same name (``consolidation/pages.py``): a first name or a surname alone to the
one full-name page, a full name to the only page of its first (or last) name. Nothing merges
when it is ambiguous, across kinds, or for a word that is no name; each such test also files
one entry that does merge in the same run, so it shows the rule held back, not a missing rule.
Replies are scripted with the queue provider (and once through the fake Messages API and the
real SDK); the offline consolidator is run through the CLI.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.consolidation.journal import rollback
from agent_sleep.consolidation.sleep import SleepResult, sleep_cycle
from agent_sleep.core.memory import page_header
from agent_sleep.core.rest import micro_rest
from tests.fake_messages_api import QueueProvider
from tests.test_hostile_support import NOW, TODAY, api_env, cli, day, model_server, nrem_answer
from tests.test_hostile_support import tree as files


def _bank(slug: str, text: str, nid: str, kind: str = "entity") -> dict[str, Any]:
    return {"slug": slug, "kind": kind, "section": "Notes", "content": text, "sources": [nid]}


def _note(ws: Path, text: str, days_ago: int = 0) -> str:
    return micro_rest(text, "B", workspace=ws, when=day(days_ago))


def _sleep(ws: Path, *items: dict[str, Any]) -> SleepResult:
    return sleep_cycle(ws, "nrem", QueueProvider().enqueue(nrem_answer([], list(items))), now=NOW)


def _file(ws: Path, slug: str, text: str, days_ago: int = 0) -> SleepResult:
    """One note, filed by the model on the entity page ``slug``."""
    return _sleep(ws, _bank(slug, text, _note(ws, text, days_ago)))


def _hand_page(ws: Path, folder: str, slug: str, *lines: str) -> None:
    """A page written by hand (or by an earlier run): a header and ``lines``."""
    path = ws / "bank" / folder / f"{slug}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    title = slug.replace("-", " ").title()
    kind = "entity" if folder == "entities" else "concept"
    path.write_text(page_header(title, kind, TODAY - dt.timedelta(days=9)) + "".join(lines))


def _pages(ws: Path, folder: str = "entities") -> list[str]:
    return sorted(p.name for p in (ws / "bank" / folder).glob("*.md"))


def _page(ws: Path, slug: str) -> str:
    return (ws / "bank/entities" / f"{slug}.md").read_text()


REYES = "Paired with Jordan Reyes on the billing migration"
FIGMA = "Jordan prefers Figma over Sketch for mockups"
DANA = "Reviewed the Q4 roadmap draft with Dana Whitfield"
LUNCH = "Lunch with Whitfield, talked about hiring plans"


# -- a short name goes to the full-name page --------------------------------------------------


def test_a_first_name_goes_to_the_one_full_name_page(ws: Path) -> None:
    _file(ws, "jordan-reyes", REYES, days_ago=2)
    r = _file(ws, "jordan", FIGMA)
    assert _pages(ws) == ["jordan-reyes.md"]  # before: jordan.md beside it
    page = _page(ws, "jordan-reyes")
    assert REYES in page and FIGMA in page
    assert r.decisions["bank_same_name"] == 1
    assert "bank_pages_created" not in r.decisions
    journal = (ws / ".agent-sleep/journal.jsonl").read_text().splitlines()
    line = json.loads(journal[-1])
    assert line["decisions"]["bank_same_name"] == 1
    assert list(line["filed"]) == ["bank/entities/jordan-reyes.md"]


def test_a_surname_goes_to_the_one_full_name_page(ws: Path) -> None:
    _file(ws, "dana-whitfield", DANA, days_ago=2)
    _file(ws, "whitfield", LUNCH)
    assert _pages(ws) == ["dana-whitfield.md"]  # before: whitfield.md beside it
    assert LUNCH in _page(ws, "dana-whitfield")


def test_a_full_name_goes_to_the_page_of_its_first_name_until_another_claims_it(
    ws: Path,
) -> None:
    """The existing page keeps what is known; the entries filed there write the full name, so
    a second person of that first name gets a page of their own, and the first keeps coming
    back to the old page."""
    _file(ws, "jordan", FIGMA, days_ago=3)
    _file(ws, "jordan-reyes", REYES, days_ago=2)
    assert _pages(ws) == ["jordan.md"]  # before: jordan-reyes.md beside it
    assert REYES in _page(ws, "jordan")

    lee = "Met Jordan Lee from the data team"
    _file(ws, "jordan-lee", lee, days_ago=1)
    assert _pages(ws) == ["jordan-lee.md", "jordan.md"]
    assert lee not in _page(ws, "jordan")

    again = "Reviewed the ledger design with Jordan Reyes"
    _file(ws, "jordan-reyes", again)
    assert _pages(ws) == ["jordan-lee.md", "jordan.md"]
    assert again in _page(ws, "jordan")


def test_a_full_name_asked_for_an_entry_that_writes_its_first_word_only(ws: Path) -> None:
    """A dental practice's notes wrote "Crestwood", then "Crestwood Dental Lab": sleep filed
    "Sent two crown cases to Crestwood" under the full name it knew, and since the entry
    writes neither "Dental" nor "Lab", the name was not read as one and
    crestwood-dental-lab.md opened beside crestwood.md. A longer name needs its first word
    written as a name (the others may be words the notes write in lower case, "our dental
    lab")."""
    _file(ws, "crestwood", "Asked Crestwood for a quote on crowns", days_ago=3)
    sent = "Sent two crown cases to Crestwood"
    _file(ws, "crestwood-dental-lab", sent)
    assert _pages(ws) == ["crestwood.md"]
    assert sent in _page(ws, "crestwood")


# -- no merge: ambiguous, another kind, no name -----------------------------------------------


def test_an_ambiguous_name_gets_a_page_of_its_own(ws: Path) -> None:
    for slug in ("jordan-reyes", "jordan-lee", "dana-whitfield", "sam", "okafor"):
        _hand_page(ws, "entities", slug)
    jordan, sam, lunch = (
        "Jordan owns the release checklist",
        "Paired with Sam Okafor on the search index",
        LUNCH,
    )
    r = _sleep(
        ws,
        _bank("jordan", jordan, _note(ws, jordan)),  # Jordan Reyes or Jordan Lee?
        _bank("sam-okafor", sam, _note(ws, sam)),  # the page of Sam or of Okafor?
        _bank("whitfield", lunch, _note(ws, lunch)),  # only Dana Whitfield: merged
    )
    assert _pages(ws) == [
        "dana-whitfield.md", "jordan-lee.md", "jordan-reyes.md", "jordan.md", "okafor.md",
        "sam-okafor.md", "sam.md",
    ]  # fmt: skip
    assert jordan in _page(ws, "jordan") and sam in _page(ws, "sam-okafor")
    assert lunch in _page(ws, "dana-whitfield")
    assert r.decisions["bank_same_name"] == 1


def test_an_entity_never_lands_on_a_concept_page(ws: Path) -> None:
    _hand_page(ws, "concepts", "jordan-reyes")
    _hand_page(ws, "entities", "dana-whitfield")
    jordan = "Jordan owns the release checklist"
    hiring = "Whitfield hiring plan drafted for the platform team"
    dana = "Dana approved the Q4 roadmap"
    _sleep(
        ws,
        _bank("jordan", jordan, _note(ws, jordan)),  # an entity; the full name is a concept
        _bank("whitfield", hiring, _note(ws, hiring), kind="concept"),  # a concept
        _bank("dana", dana, _note(ws, dana)),  # entity to entity: merged
    )
    assert _pages(ws) == ["dana-whitfield.md", "jordan.md"]
    assert _pages(ws, "concepts") == ["jordan-reyes.md", "whitfield.md"]
    assert dana in _page(ws, "dana-whitfield")


def test_a_word_that_is_no_name_stays_on_its_own_page(ws: Path) -> None:
    for slug in ("billing-team", "q4-roadmap", "dana-whitfield"):
        _hand_page(ws, "entities", slug)
    billing = "The billing export failed again on Monday"  # "billing": a word, not a name
    q4 = "Q4 planning moved to the big room"
    _sleep(
        ws,
        _bank("billing", billing, _note(ws, billing)),
        _bank("q4", q4, _note(ws, q4)),
        _bank("whitfield", LUNCH, _note(ws, LUNCH)),
    )
    assert _pages(ws) == [
        "billing-team.md", "billing.md", "dana-whitfield.md", "q4-roadmap.md", "q4.md",
    ]  # fmt: skip
    assert LUNCH in _page(ws, "dana-whitfield")


# -- one run, other providers, rollback ------------------------------------------------------


def test_one_run_asking_for_both_names_files_one_page(ws: Path) -> None:
    """Both pages would be new: the full name is the page (the first name goes there)."""
    r = _sleep(
        ws,
        _bank("jordan", FIGMA, _note(ws, FIGMA)),
        _bank("jordan-reyes", REYES, _note(ws, REYES)),
        _bank("whitfield", LUNCH, _note(ws, LUNCH)),
        _bank("dana-whitfield", DANA, _note(ws, DANA)),
    )
    assert _pages(ws) == ["dana-whitfield.md", "jordan-reyes.md"]
    assert FIGMA in _page(ws, "jordan-reyes") and LUNCH in _page(ws, "dana-whitfield")
    assert "title: Jordan Reyes" in _page(ws, "jordan-reyes")
    assert r.decisions["bank_pages_created"] == 2


def test_a_rem_suggestion_goes_to_the_page_of_the_same_name(ws: Path) -> None:
    _file(ws, "jordan-reyes", REYES, days_ago=2)
    nid = _note(ws, FIGMA)
    suggestion = {"slug": "Jordan", "kind": "entity", "seed_content": FIGMA, "sources": [nid]}
    reply = {
        "aha_moments": [], "creative_connections": [], "confidence_updates": [],
        "new_bank_suggestions": [suggestion], "next_session_actions": [],
    }  # fmt: skip
    sleep_cycle(ws, "rem", QueueProvider().enqueue(reply), now=NOW)
    assert _pages(ws) == ["jordan-reyes.md"]
    assert FIGMA in _page(ws, "jordan-reyes")


def test_a_model_over_the_wire_files_a_first_name_on_the_full_name_page(
    ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Claude's answer (the fake Messages API, the real SDK) goes through the same builder."""
    _file(ws, "jordan-reyes", REYES, days_ago=2)
    nid = _note(ws, FIGMA)

    def tamper(task: str, payload: dict[str, Any], honest: dict[str, Any]) -> dict[str, Any]:
        if task == "nrem":
            honest["memory_md_updates"] = []
            honest["bank_updates"] = [_bank("Jordan", FIGMA, nid)]
        return honest

    with model_server(tamper) as api:
        for k, v in api_env(api).items():
            monkeypatch.setenv(k, v)
        r = sleep_cycle(ws, "nrem", "anthropic", now=NOW)
    assert r.provider == "anthropic"
    assert _pages(ws) == ["jordan-reyes.md"]
    assert FIGMA in _page(ws, "jordan-reyes")


def test_rollback_restores_the_page_of_the_same_name_byte_for_byte(ws: Path) -> None:
    _file(ws, "jordan-reyes", REYES, days_ago=2)
    nid = _note(ws, FIGMA)
    before = files(ws, skip_state=True)
    r = _sleep(ws, _bank("jordan", FIGMA, nid))
    assert r.files_changed == ["bank/entities/jordan-reyes.md"]
    rollback(ws)
    assert files(ws, skip_state=True) == before


def test_the_offline_consolidator_keeps_one_page_per_person(tmp_path: Path) -> None:
    """Three days of notes through the CLI: "Jordan Reyes", then "Jordan" and a chat turn of
    Jordan's; "Dana Whitfield", then "Whitfield"."""
    ws = str(tmp_path / "W")
    offline = {"AGENT_SLEEP_PROVIDER": "offline"}
    days = [
        ("2026-11-02", [REYES, DANA]),
        ("2026-11-03", ["Spent the morning with Jordan on the invoice retry queue", LUNCH]),
        ("2026-11-04", ["Jordan: I will take the ledger flake this sprint"]),
    ]
    assert cli("init", "-w", ws, env=offline).returncode == 0
    for date, texts in days:
        for k, text in enumerate(texts):
            when = f"{date}T{9 + k:02d}:00"
            done = cli("rest", "-w", ws, "--when", when, "-t", "B", "--note", text, env=offline)
            assert done.returncode == 0, done.stderr
        done = cli("sleep", "-w", ws, "--when", f"{date}T22:00", env=offline)
        assert done.returncode == 0, done.stderr
    root = Path(ws)
    assert _pages(root) == ["dana-whitfield.md", "jordan-reyes.md"]  # before: four pages
    jordan = _page(root, "jordan-reyes")
    assert "invoice retry queue" in jordan and "ledger flake" in jordan
    assert LUNCH in _page(root, "dana-whitfield")


# -- a name and an acronym: the name's thing, on the name's page ------------------------------

KESTREL = "Sent Kestrel Logistics the mutual action plan draft"
DPA = "Kestrel DPA signed off by their legal team"
SYNC = "Kestrel sync: final order form review with Ana"


def test_a_name_and_an_acronym_go_to_the_page_the_name_has(ws: Path) -> None:
    """An account executive's notes on one customer had been spread over ``kestrel.md``,
    ``kestrel-logistics.md`` and ``kestrel-dpa.md``: "Kestrel DPA" read as a person's full
    name, which then made "Kestrel" ambiguous."""
    _file(ws, "kestrel-logistics", KESTREL, days_ago=3)
    _file(ws, "kestrel-dpa", DPA, days_ago=2)
    _file(ws, "kestrel", SYNC, days_ago=1)
    assert _pages(ws) == ["kestrel-logistics.md"]
    page = _page(ws, "kestrel-logistics")
    assert DPA in page and SYNC in page


def test_a_name_and_an_acronym_with_no_page_of_the_name_keep_their_own(ws: Path) -> None:
    _file(ws, "orion-cfo", "Orion CFO wants a 3-year term")
    assert _pages(ws) == ["orion-cfo.md"]
    # a surname is no acronym: Jordan Lee keeps a page apart from Jordan Reyes's
    _file(ws, "jordan-reyes", REYES, days_ago=2)
    _file(ws, "jordan-lee", "Met Jordan Lee from the data team")
    assert "jordan-lee.md" in _pages(ws)
