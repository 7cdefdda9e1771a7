"""A superseded hit names what is current now, and a History entry is a search unit of its own.

A value replaced twice (port 5000 -> 8080 -> 9090) was labelled "now 8080", the value in
between; and a bank page's History section was one unit, so a search for one replaced fact
returned every replaced fact of the page under the first one's label.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from agent_sleep import recall
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval import currency
from agent_sleep.retrieval.recall import Fusion, Hit
from agent_sleep.retrieval.units import BANK, units_of

P5000, P8080, P9090 = "p5000aaaaa", "p8080bbbbb", "p9090ccccc"
EU, US = "euwest1aaa", "useast2bbb"
N5000, N8080, N9090, NEU, NUS = "n5000aaaaa", "n8080bbbbb", "n9090ccccc", "neuwestaaa", "nuseastbbb"

MEMORY = f"""# MEMORY

## Facts

- W: We moved the API to port 9090 <!-- id={P9090} sources={N9090} date=2026-03-03 supersedes={P8080} -->
- W: Deploys happen on Fridays <!-- id=deploysaaa sources=ndeploysaa date=2026-03-01 -->
- W: Staging moved to us-east-2 <!-- id={US} sources={NUS} date=2026-03-04 supersedes={EU} -->
"""  # noqa: E501

ARCHIVE = f"""---
title: Memory Archive
kind: concept
updated: 2026-03-04
---

# Memory Archive

## History

- W: The API runs on port 5000 <!-- id={P5000} sources={N5000} date=2026-03-01 superseded_by={P8080} until=2026-03-02 -->
- W: We moved the API to port 8080 <!-- id={P8080} sources={N8080} date=2026-03-02 supersedes={P5000} superseded_by={P9090} until=2026-03-03 -->
- W: Staging lives in eu-west-1 <!-- id={EU} sources={NEU} date=2026-03-01 superseded_by={US} until=2026-03-04 -->
"""  # noqa: E501

LOGS = {
    "2026-03-01": [
        ("The API runs on port 5000", N5000),
        ("Deploys happen on Fridays", "ndeploysaa"),
        ("Staging lives in eu-west-1", NEU),
    ],
    "2026-03-02": [("We moved the API to port 8080", N8080)],
    "2026-03-03": [("We moved the API to port 9090", N9090)],
    "2026-03-04": [("Staging moved to us-east-2", NUS)],
}


def _workspace(root: Path, memory: str = MEMORY, archive: str = ARCHIVE) -> Workspace:
    (root / "memory").mkdir(parents=True)
    (root / "bank/concepts").mkdir(parents=True)
    (root / "bank/entities").mkdir(parents=True)
    (root / "MEMORY.md").write_text(memory)
    (root / "bank/concepts/memory-archive.md").write_text(archive)
    for day, items in LOGS.items():
        lines = "".join(f"- 10:00 W: {text} <!-- id={i} -->\n" for text, i in items)
        (root / "memory" / f"{day}.md").write_text(f"# {day}\n\n## Retain\n\n{lines}")
    return Workspace.at(root)


def _page(root: Path, history: str) -> Workspace:
    """A workspace of one hand-written page whose History holds ``history``."""
    page = root / "bank/concepts/notes.md"
    page.parent.mkdir(parents=True)
    page.write_text(f"# Notes\n\n## History\n\n{history}")
    return Workspace.at(root)


# -- the map: each superseded id names the end of its chain ------------------------------------


def test_a_value_replaced_twice_names_the_latest_and_keeps_its_own_date(tmp_path: Path) -> None:
    sup = currency.superseded_map(_workspace(tmp_path / "ws"))
    first = sup[P5000]
    assert first.by == P8080  # the link itself is unchanged (reorder moves it below that)
    assert first.now == P9090 and first.now_text == "We moved the API to port 9090"
    assert first.on == "2026-03-02"  # the date 5000 stopped being current, not 8080's
    assert sup[P8080].now == P9090 and sup[P8080].on == "2026-03-03"
    assert sup[N5000].now == P9090  # the one note the replaced entry stood for: the same
    assert sup[EU].now == US


def test_a_revert_names_the_entry_that_brought_the_old_value_back(tmp_path: Path) -> None:
    back = "backaaaaaa"
    ws = _page(tmp_path / "ws", (
        f"- W: The API runs on port 5000 <!-- id={P5000} superseded_by={P8080} until=2026-03-02 -->\n"  # noqa: E501
        f"- W: We moved the API to port 8080 <!-- id={P8080} superseded_by={back} until=2026-03-03 -->\n"  # noqa: E501
        f"- W: We moved the API back to port 5000 <!-- id={back} supersedes={P8080} -->\n"
    ))  # fmt: skip
    sup = currency.superseded_map(ws)
    assert sup[P5000].now_text == sup[P8080].now_text == "We moved the API back to port 5000"


def test_a_missing_link_stops_at_the_last_entry_found(tmp_path: Path) -> None:
    ws = _page(tmp_path / "ws", (
        "- W: A <!-- id=aaaaaaaaaa superseded_by=bbbbbbbbbb until=2026-03-02 -->\n"
        "- W: B <!-- id=bbbbbbbbbb superseded_by=zzzzzzzzzz until=2026-03-03 -->\n"
    ))  # fmt: skip
    sup = currency.superseded_map(ws)
    assert set(sup) == {"aaaaaaaaaa"} and sup["aaaaaaaaaa"].now_text == "B"


def test_a_cycle_stops_at_the_last_entry_before_it_repeats(tmp_path: Path) -> None:
    ws = _page(tmp_path / "ws", (
        "- W: A <!-- id=aaaaaaaaaa superseded_by=bbbbbbbbbb until=2026-03-02 -->\n"
        "- W: B <!-- id=bbbbbbbbbb superseded_by=cccccccccc until=2026-03-03 -->\n"
        "- W: C <!-- id=cccccccccc superseded_by=aaaaaaaaaa until=2026-03-04 -->\n"
        "- W: X <!-- id=xxxxxxxxxx superseded_by=aaaaaaaaaa until=2026-03-01 -->\n"
    ))  # fmt: skip
    sup = currency.superseded_map(ws)
    now = {i: s.now_text for i, s in sup.items()}
    assert now == {"aaaaaaaaaa": "C", "bbbbbbbbbb": "A", "cccccccccc": "B", "xxxxxxxxxx": "C"}


def test_chains_are_walked_once_per_link() -> None:
    """A long chain costs one walk, not one per superseded entry (the map is built once per
    change of the files, and label only reads it)."""
    ids = [f"e{i:09d}" for i in range(2000)]
    sup = {a: currency.Superseded(b, "2026-01-01") for a, b in zip(ids, ids[1:], strict=False)}
    calls = 0

    class Counting(dict):  # type: ignore[type-arg]
        def __getitem__(self, key: str) -> currency.Superseded:
            nonlocal calls
            calls += 1
            return super().__getitem__(key)

    ends = currency.latest(Counting(sup))
    assert set(ends.values()) == {ids[-1]} and len(ends) == len(ids) - 1
    assert calls < 3 * len(ids)


# -- the label ---------------------------------------------------------------------------------


def _hit(*ids: str) -> Hit:
    return Hit(text="x", path="bank/concepts/memory-archive.md", score=1.0, sources=ids, ids=ids)


def test_label_names_the_current_value(tmp_path: Path) -> None:
    sup = currency.superseded_map(_workspace(tmp_path / "ws"))
    [hit] = currency.label([_hit(P5000)], sup)
    assert not hit.current
    assert (hit.superseded_by, hit.superseded_on) == ("We moved the API to port 9090", "2026-03-02")


def test_a_unit_of_several_replaced_entries_names_each_current_value(tmp_path: Path) -> None:
    """An index split before History entries were units of their own still holds the whole
    section as one unit: it names what replaced each of its facts, not the first one's."""
    sup = currency.superseded_map(_workspace(tmp_path / "ws"))
    [hit] = currency.label([_hit(P5000, P8080, EU)], sup)
    assert hit.superseded_by == "We moved the API to port 9090; Staging moved to us-east-2"
    assert hit.superseded_on == "2026-03-04"


# -- units: each History entry by itself ------------------------------------------------------


def test_each_history_entry_is_a_unit_of_its_own() -> None:
    units = units_of("bank/concepts/memory-archive.md", ARCHIVE)
    assert [u.ids for u in units] == [(P5000,), (P8080,), (EU,)]
    assert all(u.kind == BANK and u.section == "History" for u in units)
    assert units[0].text == "Memory Archive — History\n- W: The API runs on port 5000"
    assert units[0].cites == (N5000,) and units[0].date == "2026-03-01"


def test_a_superseded_entry_outside_history_is_split_out_and_the_rest_stays_grouped() -> None:
    page = (
        "---\ntitle: Ops\n---\n\n## Facts\n\n"
        "- W: Deploys on Fridays <!-- id=aaaaaaaaaa -->\n"
        "- W: Port 5000 <!-- id=bbbbbbbbbb superseded_by=cccccccccc until=2026-03-02 -->\n"
        "- W: Slack for chat <!-- id=dddddddddd -->\n"
        "- W: Port 8080 <!-- id=cccccccccc supersedes=bbbbbbbbbb -->\n"
        "\n## History\n\n"
        "Values replaced by hand.\n"
        "- W: Jenkins for CI <!-- id=eeeeeeeeee superseded_by=ffffffffff -->\n"
        "- W: a note without an id\n"
        "- W: Old wiki <!-- id=gggggggggg superseded_by=hhhhhhhhhh -->\n"
    )
    units = units_of("bank/entities/ops.md", page)
    assert [u.ids for u in units] == [
        ("aaaaaaaaaa",),
        ("bbbbbbbbbb",),
        ("dddddddddd", "cccccccccc"),  # the current entries of a section, one unit as before
        (),  # the prose before the first History entry
        ("eeeeeeeeee",),
        (),
        ("gggggggggg",),
    ]
    assert units[2].text == "Ops — Facts\n- W: Slack for chat\n- W: Port 8080"


# -- end to end ---------------------------------------------------------------------------------

TODAY = dt.date(2026, 3, 20)
BM25 = Fusion(vector_weight=0.0, text_weight=1.0)


def test_search_labels_each_archive_entry_with_its_own_successor(tmp_path: Path) -> None:
    hits = recall(tmp_path / "ws", "Staging lives in eu-west-1", k=8, fusion=BM25, today=TODAY)
    assert hits == []  # no workspace yet
    _workspace(tmp_path / "ws")
    hits = recall(tmp_path / "ws", "Staging lives in eu-west-1", k=8, fusion=BM25, today=TODAY)
    archive = [h for h in hits if h.path == "bank/concepts/memory-archive.md"]
    assert archive, hits
    for h in archive:
        assert len(h.ids) == 1 and not h.current
    [staging] = [h for h in archive if "eu-west-1" in h.text]
    assert "port" not in staging.text
    assert staging.superseded_by == "Staging moved to us-east-2"
    assert staging.superseded_on == "2026-03-04"


def test_search_and_context_name_the_latest_port(tmp_path: Path) -> None:
    from agent_sleep.retrieval.context import get_context

    ws = tmp_path / "ws"
    _workspace(ws)
    hits = recall(ws, "The API runs on port", k=8, fusion=BM25, today=TODAY)
    old = [h for h in hits if not h.current]
    assert {h.superseded_by for h in old} == {"We moved the API to port 9090"}
    # a note and its archived entry say the same: one hit each value (recall.pack)
    for twins, until in (((N5000,), (P5000,)), "2026-03-02"), (((N8080,), (P8080,)), "2026-03-03"):
        (hit,) = [h for h in old if h.ids in twins]
        assert hit.superseded_on == until
    text = get_context(
        ws, query="The API runs on port", budget_tokens=200, load_yesterday=False, today=TODAY
    )
    assert "now We moved the API to port 8080" not in text
    assert "[superseded 2026-03-02: now We moved the API to port 9090]" in text
