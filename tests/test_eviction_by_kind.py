"""When MEMORY.md is over its budget, events and summaries move out before facts and
preferences, and what a session must not miss (an allergy, a name) moves out last: the dog,
the sister's birthday and the TypeScript preference were moved out while "Friday team pizza"
stayed (a six-week exploratory test: the order was by confidence, sources and age alone)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

from agent_sleep import Workspace, micro_rest, sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core.memory import SECTIONS, MemoryDoc

FACTS = [
    ("W", "Maya is allergic to penicillin."),
    ("W", "The family dog is Biscuit, a beagle mix."),
    ("O", "Maya prefers TypeScript over JavaScript for new services."),
    ("W", "Maya's sister Ada has her birthday on March 3."),
]
EVENTS = [
    ("B", "Friday team pizza; Maya had the margherita."),
    ("B", "Maya skipped her run because of the rain."),
    ("B", "Watched the new Dune film with Sam on the couch."),
]


def _adder(doc: MemoryDoc) -> Callable[[str, str, dt.date], None]:
    """An entry written into ``doc`` by hand, of one day, citing one note."""

    def add(kind: str, text: str, day: dt.date) -> None:
        nid = notes.stable_id("hand", text)
        meta = {"id": nid, "date": day.isoformat(), "sources": notes.stable_id("log", text)}
        doc.add(notes.Note(type=kind, text=text, id=nid, meta=meta), SECTIONS[kind])

    return add


def _sleep_over_budget(
    ws: Path, doc: MemoryDoc, share: float, note: tuple[str, str], when: dt.datetime
) -> list[str]:
    """MEMORY.md written as ``doc``, then one note slept on with a budget of ``share`` of its
    size: the entries left."""
    (ws / "MEMORY.md").write_text(doc.render())
    micro_rest(note[1], note[0], workspace=ws, when=when)
    sleep_cycle(ws, "both", "offline", now=when.replace(hour=22),
                memory_budget_chars=int(len(doc.render()) * share), prune_memory=True)  # fmt: skip
    return [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text())]


def test_events_move_out_before_facts_and_vital_facts_last(tmp_path: Path) -> None:
    day = dt.datetime(2026, 11, 10, 9)
    for k, (kind, text) in enumerate(FACTS):  # the facts are the oldest
        micro_rest(text, kind, workspace=tmp_path, when=day + dt.timedelta(minutes=k),
                   confidence=0.8 if kind == "O" else None)  # fmt: skip
    sleep_cycle(tmp_path, "both", "offline", now=day.replace(hour=22))
    # events written into MEMORY.md by hand, later ("Safe to edit by hand")
    doc = MemoryDoc((tmp_path / "MEMORY.md").read_text())
    for k, (kind, text) in enumerate(EVENTS):
        when = f"2026-11-1{2 + k}"
        nid = notes.stable_id("hand", text)
        doc.add(notes.Note(type=kind, text=text, id=nid, meta={"id": nid, "date": when}),
                SECTIONS[kind])  # fmt: skip
    (tmp_path / "MEMORY.md").write_text(doc.render())
    memory = [n.text for n in notes.notes_in((tmp_path / "MEMORY.md").read_text())]
    assert len(memory) == len(FACTS) + len(EVENTS)
    budget = len(doc.render()) - 150  # about two entries too many
    later = day + dt.timedelta(days=6)
    micro_rest("Maya's editor is Neovim.", "W", workspace=tmp_path, when=later)
    sleep_cycle(tmp_path, "both", "offline", now=later.replace(hour=22),
                memory_budget_chars=budget, prune_memory=True)  # fmt: skip
    memory = [n.text for n in notes.notes_in((tmp_path / "MEMORY.md").read_text())]
    gone = [t for _k, t in FACTS + EVENTS if t not in memory]
    assert gone  # the situation: the budget moved entries out
    assert all(t in [e for _k, e in EVENTS] for t in gone), gone


def test_facts_of_the_first_week_outlast_the_events_of_the_last(tmp_path: Path) -> None:
    """Six weeks of entries: twenty facts from the first week, an event on each later day.
    Age weighs less than what an entry is: over the budget, the events move out before any
    fact (an exploratory test: a restaurant group's head chefs, manager and suppliers were
    moved out while "Window cleaner came this morning" and "Temperature log checked" lines
    stayed: age, a third of an entry's value, outweighed being a fact)."""
    start = dt.date(2026, 10, 5)
    doc = MemoryDoc((Workspace.at(tmp_path).ensure().memory_md).read_text())
    add = _adder(doc)

    streets = ["Mill Lane", "Quay Road", "Canal Street", "Harbour Way", "Elm Row"]
    facts = [f"Supplier number {k} is based on {streets[k % 5]}." for k in range(20)]
    events = [f"Window cleaner came to the office on day {d} of the quarter." for d in range(30)]
    for k, text in enumerate(facts):
        add("W", text, start + dt.timedelta(days=k % 5))
    for d, text in enumerate(events):
        add("B", text, start + dt.timedelta(days=7 + d))
    later = dt.datetime(2026, 11, 20, 9)
    note = ("W", "The office wifi is now on the new router.")
    memory = _sleep_over_budget(tmp_path, doc, 3 / 5, note, later)  # twenty entries too many
    assert [t for t in events if t not in memory]  # the budget moved entries out
    assert all(t in memory for t in facts), [t for t in facts if t not in memory]


def test_passing_impressions_move_out_before_old_facts_and_likings(tmp_path: Path) -> None:
    """Fifteen replayed five-week workspaces kept every one of their 11-15 opinions while the
    budget moved out first-week facts ("Mum is Margaret Ellis, 84, lives alone at 27 Larch
    Avenue"): an impression ("Tidewell's operator seemed more experienced on the phone") now
    moves out before a fact or an opinion that says a liking or a wish."""
    start = dt.date(2026, 9, 7)
    doc = MemoryDoc((Workspace.at(tmp_path).ensure().memory_md).read_text())
    add = _adder(doc)

    facts = [f"Flat {k} is at {k} Larch Avenue, let since 20{10 + k}." for k in range(1, 9)]
    likings = ["Mum prefers the morning carer to come before nine.", "Dana hates phone calls."]
    impressions = [f"The carer on visit {k} seemed cheerful and was on time." for k in range(1, 9)]
    for k, text in enumerate(facts):
        add("W", text, start + dt.timedelta(days=k % 3))
    for k, text in enumerate(likings):
        add("O", text, start + dt.timedelta(days=k))
    for k, text in enumerate(impressions):
        add("O", text, start + dt.timedelta(days=14 + k))
    later = dt.datetime(2026, 10, 9, 9)
    note = ("B", "The boiler at Flat 1 was serviced today.")
    memory = _sleep_over_budget(tmp_path, doc, 4 / 5, note, later)
    assert [t for t in impressions if t not in memory]  # the budget moved entries out
    assert all(t in memory for t in facts + likings), [
        t for t in facts + likings if t not in memory
    ]


def test_a_day_soon_to_come_is_moved_out_last_and_one_gone_by_first(tmp_path: Path) -> None:
    """The wedding a week away was moved out of MEMORY.md (the oldest fact) while newer,
    lesser facts stayed; a booking whose day has gone by goes before standing facts."""
    doc = MemoryDoc((Workspace.at(tmp_path).ensure().memory_md).read_text())
    add = _adder(doc)
    first = dt.date(2026, 9, 7)
    add("W", "Priya and Tom's wedding is on 17 October 2026 at Ashcombe Barn.", first)
    add("W", "Van MOT booked at Brook Street Garage for 21 September.", first)
    for k in range(12):
        add("W", f"Supplier number {k + 1} of the florists' list keeps spare vases.",
            first + dt.timedelta(days=k + 1))  # fmt: skip
    memory = _sleep_over_budget(
        tmp_path,
        doc,
        0.8,
        ("W", "The band's set list is due by Friday."),
        dt.datetime(2026, 10, 10, 9),
    )
    assert "Priya and Tom's wedding is on 17 October 2026 at Ashcombe Barn." in memory
    assert "Van MOT booked at Brook Street Garage for 21 September." not in memory
    assert sum(t.startswith("Supplier number") for t in memory) < 12  # the budget moved some out
