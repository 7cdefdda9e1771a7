"""The watch that spares a search the stat of every file: any change made by another process
is still seen by the next search, and where a watch could miss one, every file is stat'ed."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval import index
from agent_sleep.retrieval.recall import Fusion, recall
from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify: Linux")
DAY = dt.datetime(2026, 3, 2, 9, 30)
BM25 = Fusion(vector_weight=0.0, text_weight=1.0)


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many full scans open_index made (one entry per scan)."""
    made: list[int] = []
    real = index._scan

    def counted(ws: Workspace) -> tuple[dict[str, list[int]], bool]:
        made.append(1)
        return real(ws)

    monkeypatch.setattr(index, "_scan", counted)
    return made


def _seed(ws: Path) -> None:
    micro_rest("The build server runs Debian", "W", workspace=ws, when=DAY)
    micro_rest("Staging moved to Postgres 16", "W", workspace=ws, when=DAY - dt.timedelta(days=3))


def _texts(ws: Path, query: str) -> list[str]:
    return [h.text for h in recall(ws, query, k=5, fusion=BM25)]


def _other_process(code: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=60)


def test_searches_without_changes_skip_the_scan_and_a_note_of_another_process_is_seen(
    ws: Path, scans: list[int]
) -> None:
    _seed(ws)
    assert _texts(ws, "Debian")
    before = len(scans)
    for _ in range(3):
        assert _texts(ws, "Debian")
    assert len(scans) == before  # the watch heard nothing: no stat of every file
    _other_process(
        "from agent_sleep.core.rest import micro_rest\n"
        f"micro_rest('The payroll export runs nightly', 'W', workspace={str(ws)!r})\n"
    )
    assert any("payroll" in t for t in _texts(ws, "payroll export"))
    assert len(scans) > before


def test_an_old_log_edited_by_another_process_is_seen(ws: Path) -> None:
    _seed(ws)
    assert _texts(ws, "Postgres")
    old = next(p for p in (ws / "memory").iterdir() if p.name.startswith("2026-02-27"))
    _other_process(
        f"p = {str(old)!r}\n"
        "with open(p, 'a', encoding='utf-8') as f:\n"
        "    f.write('- W: The kiosk firmware is pinned <!-- id=kiosk00001 -->\\n')\n"
    )
    assert any("kiosk" in t for t in _texts(ws, "kiosk firmware"))


def test_a_change_of_mtime_alone_and_a_removed_log_are_seen(ws: Path, scans: list[int]) -> None:
    _seed(ws)
    assert _texts(ws, "Postgres")
    log = next(p for p in (ws / "memory").iterdir() if p.name.startswith("2026-02-27"))
    st = log.stat()
    os.utime(log, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    n = len(scans)
    _texts(ws, "Postgres")
    assert len(scans) > n  # heard: scanned again
    log.unlink()
    assert not any("Postgres" in t for t in _texts(ws, "Postgres"))


def test_a_bank_folder_made_after_the_first_search_is_watched(ws: Path) -> None:
    import shutil

    _seed(ws)
    shutil.rmtree(ws / "bank", ignore_errors=True)
    assert _texts(ws, "Debian")
    page = ws / "bank/entities/payroll.md"
    page.parent.mkdir(parents=True)
    page.write_text(
        "# Payroll\n\n## Facts\n\n- W: The payroll export runs nightly <!-- id=pay0000001 -->\n"
    )
    assert any("payroll" in t for t in _texts(ws, "payroll export"))
    page.write_text(page.read_text().replace("nightly", "hourly"))
    assert any("hourly" in t for t in _texts(ws, "payroll export"))


def test_a_log_with_another_hard_link_is_stat_every_time(
    ws: Path, tmp_path: Path, scans: list[int]
) -> None:
    _seed(ws)
    log = next(p for p in (ws / "memory").iterdir() if p.name.startswith("2026-02-27"))
    other = tmp_path / "elsewhere.md"
    os.link(log, other)
    assert _texts(ws, "Postgres")
    n = len(scans)
    with open(other, "a", encoding="utf-8") as f:  # written through the other name
        f.write("- W: The kiosk firmware is pinned <!-- id=kiosk00001 -->\n")
    assert any("kiosk" in t for t in _texts(ws, "kiosk firmware"))
    assert len(scans) > n
    m = len(scans)
    _texts(ws, "kiosk firmware")
    assert len(scans) == m + 1  # no change heard, yet every file is stat'ed again


def test_a_symlinked_log_is_stat_every_time(ws: Path, tmp_path: Path, scans: list[int]) -> None:
    _seed(ws)
    target = tmp_path / "outside.md"
    target.write_text(
        "# 2026-01-05\n\n## Retain\n\n- W: The VPN gateway is in Frankfurt <!-- id=vpn0000001 -->\n"
    )
    (ws / "memory/2026-01-05.md").symlink_to(target)
    assert any("Frankfurt" in t for t in _texts(ws, "VPN gateway"))
    time.sleep(0.01)
    with open(target, "a", encoding="utf-8") as f:
        f.write("- W: The VPN gateway moved to Dublin <!-- id=vpn0000002 -->\n")
    assert any("Dublin" in t for t in _texts(ws, "VPN gateway Dublin"))


def test_a_forked_child_makes_its_own_watch(ws: Path) -> None:
    _seed(ws)
    _texts(ws, "Debian")
    w = Workspace.at(ws)
    first = index._watches[w.root]
    assert first is not None
    first.pid = -1  # as a child sees its parent's watch after fork
    again = index._watch(w)
    assert again is not None and again is not first and again.pid == os.getpid()


def test_the_watch_can_be_turned_off(
    ws: Path, scans: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(index.WATCH_ENV, "0")
    index._watches.clear()
    _seed(ws)
    _texts(ws, "Debian")
    n = len(scans)
    _texts(ws, "Debian")
    assert len(scans) == n + 1
