"""Bank pages stay tidy when a run supersedes their entries.

An exploratory test (six weeks of one user's notes through the offline product) found two
kinds of clutter on the bank pages: a date heading left with nothing under it once its only
entry was superseded and moved to History (``jenkins.md ## 2026-11-09``), and a replacement
filed under the old entry's date (a note of 11-26 under ``maya.md ## 2026-11-07``). A section
a run empties is removed in the same write (rollback puts it back byte for byte), and on a
section that is a date, a later replacement goes under the section of its own date. Replies
are scripted with the queue provider, so the apply path is what is tested.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from agent_sleep.consolidation.journal import rollback
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core.memory import add_to_page, drop_empty_sections
from agent_sleep.core.rest import micro_rest
from tests.fake_messages_api import QueueProvider
from tests.test_hostile_support import NOW, day, nrem_answer, tree

PAGE = "bank/entities/atlas.md"


_nrem = nrem_answer


def _bank(section: str, text: str, nid: str) -> dict[str, Any]:
    return {"slug": "atlas", "kind": "entity", "section": section, "content": text,
            "sources": [nid]}  # fmt: skip


def _item(action: str, text: str, nid: str, replaces: str = "") -> dict[str, Any]:
    return {"action": action, "type": "W", "confidence": 0.9, "text": text,
            "replaces": replaces, "sources": [nid]}  # fmt: skip


def _sleep(ws: Path, answer: dict[str, Any], now: dt.datetime = NOW) -> None:
    sleep_cycle(ws, "nrem", QueueProvider().enqueue(answer), now=now)


def _sections(text: str) -> dict[str, list[str]]:
    """``{## title: [the entries' texts under it]}`` in page order."""
    out: dict[str, list[str]] = {}
    for b in notes.parse(text).blocks:
        if b.heading is not None and b.heading.level == 2:
            out[b.heading.title] = []
        elif b.note is not None and b.section in out:
            out[b.section].append(b.note.text)
    return out


def _page(ws: Path) -> str:
    return (ws / PAGE).read_text()


def _entry_id(ws: Path, text: str) -> str:
    [note] = [n for n in notes.notes_in(_page(ws)) if n.text == text]
    return note.id


DEPLOY = "Project Atlas deploys to AWS us-east-1."
TEAM = "Project Atlas has five engineers."
MOVED = "Project Atlas migrated its deploy target from AWS us-east-1 to GCP europe-west1."


def _seed(ws: Path) -> None:
    """An Atlas page with one entry under ## 2026-03-01 and one under ## 2026-03-03."""
    a = micro_rest(DEPLOY, "W", workspace=ws, when=day(9))
    b = micro_rest(TEAM, "W", workspace=ws, when=day(7))
    _sleep(ws, _nrem([], [_bank("2026-03-01", DEPLOY, a), _bank("2026-03-03", TEAM, b)]))
    assert _sections(_page(ws)) == {"2026-03-01": [DEPLOY], "2026-03-03": [TEAM]}


# -- a section a run leaves with nothing under it ---------------------------------------------


def test_a_date_heading_whose_only_entry_leaves_is_removed(ws: Path) -> None:
    _seed(ws)
    old = _entry_id(ws, DEPLOY)
    nid = micro_rest(MOVED, "W", workspace=ws, when=day(0))
    # the new value goes to MEMORY.md, so the old entry only leaves its page (as the offline
    # consolidator does with a clear fact that replaces a bank entry)
    _sleep(ws, _nrem([_item("add", MOVED, nid), _item("supersede", MOVED, nid, old)]))
    page = _page(ws)
    assert "## 2026-03-01" not in page  # before: the heading stayed, with nothing under it
    assert _sections(page) == {"2026-03-03": [TEAM], "History": [DEPLOY]}
    assert "\n\n\n" not in page
    assert MOVED in (ws / "MEMORY.md").read_text()


def test_rollback_puts_a_removed_heading_back_byte_for_byte(ws: Path) -> None:
    _seed(ws)
    old = _entry_id(ws, DEPLOY)
    nid = micro_rest(MOVED, "W", workspace=ws, when=day(0))
    before = tree(ws, skip_state=True)
    _sleep(ws, _nrem([_item("add", MOVED, nid), _item("supersede", MOVED, nid, old)]))
    assert "## 2026-03-01" not in _page(ws)
    rollback(ws)
    after = tree(ws, skip_state=True)
    assert after[PAGE] == before[PAGE]
    assert after == before


def test_a_heading_with_hand_written_text_under_it_stays(ws: Path) -> None:
    _seed(ws)
    page = ws / PAGE
    note = "Ask Dana about the AWS bill.\n\n"  # a line of prose under ## 2026-03-01
    page.write_text(page.read_text().replace("## 2026-03-03", note + "## 2026-03-03", 1))
    old = _entry_id(ws, DEPLOY)
    nid = micro_rest(MOVED, "W", workspace=ws, when=day(0))
    _sleep(ws, _nrem([_item("add", MOVED, nid), _item("supersede", MOVED, nid, old)]))
    text = _page(ws)
    assert "## 2026-03-01\n" in text and "Ask Dana about the AWS bill." in text
    assert _sections(text)["2026-03-01"] == []


def test_only_sections_the_run_emptied_go_and_never_history_or_the_title() -> None:
    text = (
        "---\ntitle: Atlas\nkind: entity\nupdated: 2026-03-01\n---\n\n# Atlas\n\n"
        "## 2026-03-01\n\n"
        "## Left empty by hand\n\n"
        "## 2026-03-03\n\n- W: Five engineers. <!-- id=aaaaaaaaaa -->\n\n"
        "## History\n\n"
    )
    out = drop_empty_sections(text, {"2026-03-01", "History", "Atlas"})
    assert "## 2026-03-01" not in out
    assert "## Left empty by hand\n" in out  # not emptied by this run: not ours to remove
    assert "## History" in out and "# Atlas\n" in out and out.startswith("---\ntitle: Atlas")
    assert "# Atlas\n\n## Left empty by hand\n\n## 2026-03-03\n" in out
    # the page's last section emptied: its heading and the blank lines before it go
    tail = drop_empty_sections("# A\n\n## X\n\n- W: x <!-- id=bbbbbbbbbb -->\n\n## Y\n\n", {"Y"})
    assert tail == "# A\n\n## X\n\n- W: x <!-- id=bbbbbbbbbb -->\n"


# -- a replacement on a page of date sections ---------------------------------------------------


def test_a_later_replacement_files_under_its_own_date(ws: Path) -> None:
    _seed(ws)
    old = _entry_id(ws, DEPLOY)
    nid = micro_rest(MOVED, "W", workspace=ws, when=day(0))
    _sleep(ws, _nrem([_item("supersede", MOVED, nid, old)]))
    page = _page(ws)
    # before: the replacement (dated 2026-03-10) sat under ## 2026-03-01, where DEPLOY was
    assert _sections(page) == {"2026-03-03": [TEAM], "2026-03-10": [MOVED], "History": [DEPLOY]}
    [new] = [n for n in notes.notes_in(page) if n.text == MOVED]
    assert new.meta["date"] == "2026-03-10" and new.meta["supersedes"] == old


def test_a_missing_date_section_is_created_in_date_order(ws: Path) -> None:
    a = micro_rest(DEPLOY, "W", workspace=ws, when=day(9))
    _sleep(ws, _nrem([], [_bank("2026-03-01", DEPLOY, a)]), now=day(8))
    page = ws / PAGE
    later = "## 2026-03-08\n\n- W: Project Atlas has a launch review on March 20.\n"
    page.write_text(page.read_text().rstrip("\n") + "\n\n" + later)
    old = _entry_id(ws, DEPLOY)
    nid = micro_rest(MOVED, "W", workspace=ws, when=day(5))
    _sleep(ws, _nrem([_item("supersede", MOVED, nid, old)]))
    assert list(_sections(_page(ws))) == ["2026-03-05", "2026-03-08", "History"]
    assert _sections(_page(ws))["2026-03-05"] == [MOVED]


def test_a_replacement_of_an_entry_filed_in_the_same_run_files_under_its_own_date(
    ws: Path,
) -> None:
    a = micro_rest(DEPLOY, "W", workspace=ws, when=day(9))
    b = micro_rest(MOVED, "W", workspace=ws, when=day(2))
    _sleep(ws, _nrem([_item("supersede", MOVED, b, a)], [_bank("2026-03-01", DEPLOY, a)]))
    assert _sections(_page(ws)) == {"2026-03-08": [MOVED], "History": [DEPLOY]}


def test_a_replacement_of_the_same_day_takes_the_old_entrys_place(ws: Path) -> None:
    a = micro_rest(DEPLOY, "W", workspace=ws, when=day(9, hour=9))
    b = micro_rest(TEAM, "W", workspace=ws, when=day(9, hour=9))
    _sleep(ws, _nrem([], [_bank("2026-03-01", DEPLOY, a), _bank("2026-03-01", TEAM, b)]),
           now=day(9, hour=12))  # fmt: skip
    old = _entry_id(ws, DEPLOY)
    nid = micro_rest(MOVED, "W", workspace=ws, when=day(9, hour=15))
    _sleep(ws, _nrem([_item("supersede", MOVED, nid, old)]), now=day(9, hour=18))
    assert _sections(_page(ws)) == {"2026-03-01": [MOVED, TEAM], "History": [DEPLOY]}


def test_on_a_topic_section_the_replacement_takes_the_old_entrys_place(ws: Path) -> None:
    a = micro_rest(DEPLOY, "W", workspace=ws, when=day(9))
    b = micro_rest(TEAM, "W", workspace=ws, when=day(9))
    _sleep(ws, _nrem([], [_bank("Infrastructure", DEPLOY, a), _bank("People", TEAM, b)]),
           now=day(8))  # fmt: skip
    old = _entry_id(ws, DEPLOY)
    nid = micro_rest(MOVED, "W", workspace=ws, when=day(0))
    _sleep(ws, _nrem([_item("supersede", MOVED, nid, old)]))
    assert _sections(_page(ws)) == {
        "Infrastructure": [MOVED], "People": [TEAM], "History": [DEPLOY]
    }  # fmt: skip


def test_add_to_page_keeps_date_sections_in_order_and_history_last() -> None:
    text = (
        "# Atlas\n\n## 2026-03-01\n\n- W: a <!-- id=aaaaaaaaaa -->\n\n"
        "## 2026-03-08\n\n- W: b <!-- id=bbbbbbbbbb -->\n\n"
        "## History\n\n- W: h <!-- id=cccccccccc -->\n"
    )
    out = add_to_page(text, "## 2026-03-05", ["- W: c <!-- id=dddddddddd -->\n"])
    assert list(_sections(out)) == ["2026-03-01", "2026-03-05", "2026-03-08", "History"]
    assert "- W: a <!-- id=aaaaaaaaaa -->\n\n## 2026-03-05\n\n- W: c" in out
    assert "- W: c <!-- id=dddddddddd -->\n\n## 2026-03-08\n" in out
    out = add_to_page(text, "## 2026-03-09", ["- W: d <!-- id=eeeeeeeeee -->\n"])
    assert list(_sections(out)) == ["2026-03-01", "2026-03-08", "2026-03-09", "History"]
    out = add_to_page(text, "## Overview", ["- W: e <!-- id=ffffffffff -->\n"])
    assert list(_sections(out)) == ["2026-03-01", "2026-03-08", "Overview", "History"]
