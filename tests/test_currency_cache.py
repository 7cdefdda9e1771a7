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
