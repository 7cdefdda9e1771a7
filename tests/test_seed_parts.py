"""A seeded bank entry does not keep a copy of a value a later note superseded.

REM seeds a new page's ``## Overview`` with one entry joining two things said on other days,
each with its date ("A (2026-11-02); B (2026-11-02)"). When a later note superseded the
MEMORY.md entry B came from, B moved to History but the seeded entry still said it as current,
on the page and in search, beside the new value. Now the run that supersedes an entry rewrites
each current seeded entry citing its notes without the part that restates it
(``supersede.split_seeds``); the old one goes to History, like any bank supersede.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from agent_sleep import micro_rest, recall, sleep_cycle
from agent_sleep.consolidation import journal
from agent_sleep.consolidation.journal import rollback
from agent_sleep.consolidation.related import current_entries
from agent_sleep.consolidation.supersede import parts, restates
from agent_sleep.core import notes as fmt
from agent_sleep.core.memory import page_header
from agent_sleep.core.workspace import Workspace
from tests.fake_messages_api import QueueProvider
from tests.test_hostile_support import nrem_answer

DAY1 = dt.datetime(2026, 11, 2, 9)
LATER = dt.datetime(2026, 11, 30, 9)  # four weeks on
D1 = DAY1.date().isoformat()

BLIND = (
    "Dana is colour-blind (deuteranopia): never rely on red versus green alone in UI or "
    "terminal output."
)
TZ = "Dana's timezone is CET (Berlin)."
UPDATES = "Dana prefers short written status updates over meetings."
MOVED = "Dana relocated to Lisbon, so their timezone is WET now."
DESK = "Dana's desk is on the third floor by the window."


def _notes(ws: Path, when: dt.datetime, *texts: str) -> list[str]:
    return [
        micro_rest(t, "W", workspace=ws, when=when + dt.timedelta(minutes=k))
        for k, t in enumerate(texts)
    ]


def _tree(ws: Path) -> dict[str, bytes]:
    return {
        p.relative_to(ws).as_posix(): p.read_bytes()
        for p in sorted(ws.rglob("*"))
        if p.is_file() and ".agent-sleep" not in p.parts
    }


def _page(ws: Path, slug: str = "dana", folder: str = "entities") -> str:
    return (ws / "bank" / folder / f"{slug}.md").read_text(encoding="utf-8")


def _current(ws: Path, slug: str = "dana", folder: str = "entities") -> list[fmt.Note]:
    rel = f"bank/{folder}/{slug}.md"
    return [e.note for e in current_entries([(rel, _page(ws, slug, folder))])]


def _history(ws: Path, slug: str = "dana", folder: str = "entities") -> list[fmt.Note]:
    return fmt.notes_in(_page(ws, slug, folder), "History")


def _memory(ws: Path) -> dict[str, fmt.Note]:
    return {n.text: n for n in fmt.notes_in((ws / "MEMORY.md").read_text()) if n.id}


def _seed(*said: str, day: str = D1) -> str:
    return "; ".join(f"{s} ({day})" for s in said)


def _hand_page(ws: Path, lines: list[str], slug: str = "dana", kind: str = "entity") -> None:
    """A page as an earlier run left it: a header and ``lines`` (entries, headings)."""
    folder = "entities" if kind == "entity" else "concepts"
    path = ws / "bank" / folder / f"{slug}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    head = page_header(slug.replace("-", " ").title(), kind, DAY1.date())
    path.write_text(head + "".join(f"{line}\n" for line in lines), encoding="utf-8")


def _line(text: str, nid: str, sources: list[str]) -> str:
    return f"- W: {text} <!-- id={nid} sources={','.join(sources)} date={D1} -->"


def _supersede(replaces: str, text: str, sources: list[str]) -> dict[str, Any]:
    return {"action": "supersede", "replaces": replaces, "text": text, "type": "W",
            "confidence": 0.5, "sources": sources}  # fmt: skip


def _scripted(ws: Path, *items: dict[str, Any], prune: bool = False) -> Any:
    """A run on LATER whose model answers with ``items`` (with ``prune``: no removal cap)."""
    answer = nrem_answer(list(items), [])
    prov = QueueProvider().enqueue(answer)
    return sleep_cycle(ws, "nrem", prov, now=LATER.replace(hour=22), prune_memory=prune)


# -- end to end, offline: REM seeds the page, a note weeks later changes one of its facts -------


def test_a_superseded_fact_leaves_the_seeded_overview_and_rollback_restores_it(ws: Path) -> None:
    blind, tz, _ = _notes(ws, DAY1, BLIND, TZ, UPDATES)
    sleep_cycle(ws, "both", "offline", now=DAY1.replace(hour=22))
    (seed,) = _current(ws)
    assert seed.text == _seed(BLIND, TZ)  # the situation: REM joined both, each with its day
    assert {blind, tz} <= set(fmt.sources_of(seed))

    _notes(ws, LATER, MOVED)
    before = _tree(ws)
    r = sleep_cycle(ws, "both", "offline", now=LATER.replace(hour=22))
    assert r.decisions["memory_supersede"] == 1
    old = next(n for n in fmt.notes_in(_page(ws, "memory-archive", "concepts")) if n.text == TZ)
    assert old.meta["superseded_by"] == _memory(ws)[MOVED].id  # the entry it restated

    (now,) = _current(ws)
    assert "CET" not in now.text and "Berlin" not in now.text  # before: still current here
    assert now.text == _seed(BLIND)  # the other part stays current, with its day
    assert now.meta["supersedes"] == seed.id and now.meta["date"] == D1
    assert blind in fmt.sources_of(now) and tz not in fmt.sources_of(now)
    (moved,) = [n for n in _history(ws) if n.id == seed.id]
    assert moved.text == seed.text
    assert moved.meta["superseded_by"] == now.id and moved.meta["until"] == LATER.date().isoformat()
    assert moved.meta["sources"] == seed.meta["sources"]
    line = journal.entries(Workspace.at(ws))[-1]
    (record,) = [s for s in line["superseded"] if s["old_id"] == seed.id]
    assert record["why"] == "part superseded" and record["new_id"] == now.id

    # search: the page's current unit says the colour-blind fact, not the old timezone
    hits = [h for h in recall(ws, "Dana timezone", k=8) if h.text.startswith("Dana — Overview")]
    assert hits and all(h.current and "CET" not in h.text for h in hits)

    assert r.run_id
    rollback(ws, r.run_id)
    assert _tree(ws) == before  # byte for byte


# -- the same through a model's answers: a bank supersede and a MEMORY.md supersede -----------


def test_a_bank_supersede_splits_only_the_entries_citing_its_note(ws: Path) -> None:
    blind, tz, updates = _notes(ws, DAY1, BLIND, TZ, UPDATES)
    sleep_cycle(ws, "nrem", "offline", now=DAY1.replace(hour=22))
    _hand_page(
        ws,
        [
            "## Overview",
            "",
            _line(_seed(BLIND, TZ), "seedsplit1", [blind, tz, updates]),
            "",
            "## Notes",
            "",
            _line(TZ, "banktz0001", [tz]),
            # the same words, from other notes: not a copy of the superseded entry
            _line(_seed(TZ, UPDATES), "othernotes", [updates]),
            # cites the superseded entry's note, but no part says what it said
            _line(_seed(BLIND, UPDATES), "nopartsaid", [blind, tz]),
        ],
    )
    untouched = [ln for ln in _page(ws).splitlines() if "othernotes" in ln or "nopartsaid" in ln]
    moved = _notes(ws, LATER, MOVED)
    r = _scripted(ws, _supersede("banktz0001", "Dana's timezone is WET (Lisbon).", moved))
    assert r.decisions["bank_supersede"] == 1
    assert r.decisions["bank_part_superseded"] == 1

    current = {n.id: n for n in _current(ws)}
    assert "seedsplit1" not in current and "banktz0001" not in current
    (split,) = [n for n in current.values() if n.meta.get("supersedes") == "seedsplit1"]
    assert split.text == _seed(BLIND)
    # the superseded entry's note leaves its sources; the part kept keeps its own note
    assert fmt.sources_of(split) == [blind, updates]
    page = _page(ws)
    assert all(ln in page.splitlines() for ln in untouched)  # not rewritten, still current
    assert {"othernotes", "nopartsaid"} <= set(current)
    history = {n.id: n for n in _history(ws)}
    assert history["seedsplit1"].meta["superseded_by"] == split.id
    assert history["banktz0001"].meta["superseded_by"] not in ("", split.id)


def test_two_superseded_facts_rewrite_a_seeded_entry_once(ws: Path) -> None:
    blind, tz, desk = _notes(ws, DAY1, BLIND, TZ, DESK)
    sleep_cycle(ws, "nrem", "offline", now=DAY1.replace(hour=22))
    entries = _memory(ws)
    _hand_page(
        ws, ["## Overview", "", _line(_seed(BLIND, TZ, DESK), "threeparts", [blind, tz, desk])]
    )
    m1, m2 = _notes(ws, LATER, MOVED, "Dana's desk moved to the fifth floor by the lifts.")
    r = _scripted(
        ws,
        _supersede(entries[TZ].id, "Dana's timezone is WET (Lisbon).", [m1]),
        _supersede(entries[DESK].id, "Dana's desk is on the fifth floor by the lifts.", [m2]),
        prune=True,  # three entries: the removal cap would let one change through
    )
    assert r.decisions["memory_supersede"] == 2
    assert r.decisions["bank_part_superseded"] == 1  # one rewrite for both
    (now,) = _current(ws)
    assert now.text == _seed(BLIND) and now.meta["supersedes"] == "threeparts"
    assert fmt.sources_of(now) == [blind]
    assert [n.id for n in _history(ws) if n.text == _seed(BLIND, TZ, DESK)] == ["threeparts"]


def test_a_seeded_entry_with_no_part_left_goes_to_history(ws: Path) -> None:
    blind, tz = _notes(ws, DAY1, BLIND, TZ)
    sleep_cycle(ws, "nrem", "offline", now=DAY1.replace(hour=22))
    entry = _memory(ws)[TZ]
    _hand_page(
        ws,
        ["## Timezones", "", _line(_seed(TZ), "onlythetz", [tz]),
         "", "## Colours", "", _line(BLIND, "keepsblind", [blind])],
        slug="team-notes",
        kind="concept",
    )  # fmt: skip
    (moved,) = _notes(ws, LATER, MOVED)
    r = _scripted(ws, _supersede(entry.id, "Dana's timezone is WET (Lisbon).", [moved]))
    new = next(n for n in _memory(ws).values() if n.meta.get("supersedes") == entry.id)
    assert [n.id for n in _current(ws, "team-notes", "concepts")] == ["keepsblind"]
    page = _page(ws, "team-notes", "concepts")
    assert "## Timezones" not in page  # the section it left empty
    (old,) = [n for n in fmt.notes_in(page, "History") if n.id == "onlythetz"]
    assert old.meta["superseded_by"] == new.id and old.meta["until"] == LATER.date().isoformat()
    assert r.decisions["bank_part_superseded"] == 1


# -- the parts of a seeded entry -------------------------------------------------------------


def test_parts_are_the_dated_pieces_of_a_seed() -> None:
    assert parts(_seed(BLIND, TZ)) == [(BLIND, D1), (TZ, D1)]
    assert parts(f"{TZ} ({D1})") == [(TZ, D1)]  # one part
    # "; " inside a sentence is no boundary: a part ends with its day
    said = "Ops owns the pager; Dana owns the runbook."
    assert parts(f"{said} (2026-11-03); {TZ} ({D1})") == [(said, "2026-11-03"), (TZ, D1)]
    truncated = "Dana is colour-blind (deuteranopia): never rely on red versus gr…"
    assert parts(f"{truncated} ({D1})") == [(truncated, D1)]


@pytest.mark.parametrize(
    "text",
    [
        TZ,  # no day
        "Dana's timezone is CET (2026-11-02) in winter.",  # a day inside, not at the end
        f"{TZ} ({D1}); and more",  # after the last day
        f"{TZ} (2026-13-45)",  # not a day
        f"{TZ} ({D1}); ({D1})",  # a part with no text
        f"{TZ} ({D1});",
    ],
)
def test_text_that_is_no_seed_has_no_parts(text: str) -> None:
    assert parts(text) == []


# -- which part restates the superseded entry -------------------------------------------------


def test_a_part_restates_the_entry_it_was_taken_from() -> None:
    assert restates(TZ, TZ, MOVED)
    assert restates("dana's  TIMEZONE is cet, Berlin", TZ, MOVED)  # case, spacing, punctuation
    assert restates("Dana: timezone is CET (Berlin)", TZ, MOVED)  # a speaker label
    assert restates("Dana's timezone is CET (Berl…", TZ, MOVED)  # an excerpt's cut
    assert restates("Dana's timezone is CET", f"{TZ} She starts at 8.", MOVED)  # within
    assert restates(f"{TZ} She starts at 8.", TZ, MOVED)  # holds it whole
    assert restates("Timezone of Dana: Berlin, CET.", TZ, MOVED)  # the same words, reordered
    assert restates("Dana", "Dana", MOVED)  # a one-word part said word for word


def test_a_part_that_says_something_else_is_no_restatement() -> None:
    assert not restates(BLIND, TZ, MOVED)
    assert not restates(UPDATES, TZ, MOVED)
    assert not restates("Dana is here", TZ, MOVED)  # one content word is not enough
    # a value changed in one word: the part saying the new value is not the old one
    old = "The team standup is every weekday at 9:30 in room B."
    new = "The team standup is every weekday at 10:15 in room B."
    assert restates(old, old, new)
    assert not restates(new, old, new)
    assert not restates("", TZ, MOVED) and not restates(TZ, "", MOVED)
