"""The superseded map a search reads is kept between searches, and read again when MEMORY.md
or a bank page changes."""

from __future__ import annotations

import os
from pathlib import Path

from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval import currency

SUPERSEDED = (
    "# Notes\n\n## History\n\n"
    "- W: Port 6379 <!-- id=aaaaaaaaaa superseded_by=bbbbbbbbbb until=2026-11-02 -->\n"
    "- W: Port 6380 <!-- id=bbbbbbbbbb -->\n"
)
CURRENT = SUPERSEDED.replace(" superseded_by=bbbbbbbbbb until=2026-11-02", "")


def _page(root: Path, text: str) -> Path:
    page = root / "bank/concepts/notes.md"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(text)
    return page


def test_an_edited_page_is_read_again(tmp_path: Path) -> None:
    ws = Workspace.at(tmp_path / "ws")
    page = _page(ws.root, SUPERSEDED)
    assert set(currency.superseded_map(ws)) == {"aaaaaaaaaa"}
    assert set(currency.superseded_map(ws)) == {"aaaaaaaaaa"}  # kept
    page.write_text(CURRENT)
    assert dict(currency.superseded_map(ws)) == {}


def test_an_edit_of_the_same_size_is_seen_by_its_mtime(tmp_path: Path) -> None:
    ws = Workspace.at(tmp_path / "ws")
    page = _page(ws.root, SUPERSEDED)
    assert set(currency.superseded_map(ws)) == {"aaaaaaaaaa"}
    before = page.stat()
    same_size = SUPERSEDED.replace("superseded_by=bbbbbbbbbb", "superseded_bz=bbbbbbbbbb")
    page.write_text(same_size)
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000))
    assert dict(currency.superseded_map(ws)) == {}


def test_a_new_page_and_a_removed_one_are_seen(tmp_path: Path) -> None:
    ws = Workspace.at(tmp_path / "ws")
    assert dict(currency.superseded_map(ws)) == {}
    page = _page(ws.root, SUPERSEDED)
    assert set(currency.superseded_map(ws)) == {"aaaaaaaaaa"}
    page.unlink()
    assert dict(currency.superseded_map(ws)) == {}


def test_the_one_note_of_a_superseded_entry_is_outdated_even_where_merged(tmp_path: Path) -> None:
    """A bank entry that merged the old note with another still cites it: the note is outdated
    all the same. A note of a superseded entry that cites several stays current while a
    current entry cites it (that entry may say something else of it)."""
    ws = Workspace.at(tmp_path / "ws")
    _page(ws.root, (
        "# Notes\n\n## Overview\n\n"
        "- W: Standup at 9 (2026-11-01); Retro on Fridays (2026-11-01) "
        "<!-- id=mmmmmmmmmm sources=n1n1n1n1n1,n2n2n2n2n2,n3n3n3n3n3 -->\n\n## History\n\n"
        "- W: Standup at 9 <!-- id=aaaaaaaaaa sources=n1n1n1n1n1 superseded_by=bbbbbbbbbb "
        "until=2026-11-05 -->\n"
        "- W: Standup at 9, retro on Thursdays <!-- id=cccccccccc sources=n2n2n2n2n2,n3n3n3n3n3 "
        "superseded_by=bbbbbbbbbb until=2026-11-05 -->\n"
        "- W: Standup at 10 <!-- id=bbbbbbbbbb sources=n4n4n4n4n4 -->\n"
    ))  # fmt: skip
    sup = currency.superseded_map(ws)
    assert set(sup) == {"aaaaaaaaaa", "cccccccccc", "n1n1n1n1n1"}
    assert sup["n1n1n1n1n1"].by == "bbbbbbbbbb"


def test_a_merged_copy_of_a_replaced_fact_ranks_below_the_replacement() -> None:
    """A bank entry that merged the replaced note with another fact cites it: it moves just
    below the replacement, and a unit citing its own replacement is left alone."""
    from types import SimpleNamespace

    from agent_sleep.retrieval.units import BANK, MEMORY, Unit

    merged = Unit(
        BANK,
        "bank/concepts/notes.md",
        "W: Sync on Fridays; sales sync too",
        None,
        ids=("mmmmmmmmmm",),
        cites=("n1n1n1n1n1", "n2n2n2n2n2"),
    )
    new = Unit(MEMORY, "MEMORY.md", "W: Sync moved to Mondays", None, ids=("bbbbbbbbbb",),
               cites=("n4n4n4n4n4", "n1n1n1n1n1"))  # fmt: skip
    index = SimpleNamespace(units=[merged, new], files={"bank/concepts/notes.md": [0, 0, 1],
                                                        "MEMORY.md": [0, 0, 1]})  # fmt: skip
    old = currency.Superseded("bbbbbbbbbb", "2026-11-05")
    sup = {"aaaaaaaaaa": old, "n1n1n1n1n1": old}
    ranked = currency.reorder(index, [(1.0, 0), (0.9, 1)], sup)  # type: ignore[arg-type]
    assert [row for _score, row in ranked] == [1, 0]
    assert ranked[0][0] > 0.9  # the replacement was raised, not the copy lowered past others
