"""Exploratory findings on the recall side: a search by agent when other agents' notes fill the
best ranks, a search of a workspace this process may not write, and CRLF files in the
session-start block."""

from __future__ import annotations

import contextlib
import datetime as dt
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_sleep import get_context
from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval.recall import Fusion, recall
from tests.conftest import permissions_enforced, run_cli

BM25 = Fusion(vector_weight=0.0, text_weight=1.0)
DAY = dt.datetime(2026, 11, 30, 10, 0)
CI_NOTE = (
    "The ci pipeline will deploy the nightly build from the main branch after the integration "
    "tests and the packaging step have both passed on the build farm"
)

# -- 1. recall(..., agent=...) when other agents' notes dominate ----------------------------


def _crowded(ws: Path) -> None:
    """40 short "deploy" notes of one agent, then one longer (lower-ranked) note of another."""
    for i in range(40):
        micro_rest(f"deploy service {i} to staging", "W", workspace=ws, when=DAY, agent="other")
    micro_rest(CI_NOTE, "W", workspace=ws, when=DAY, agent="ci-bot")


def test_an_agents_note_is_found_below_many_notes_of_other_agents(ws: Path) -> None:
    _crowded(ws)
    everyone = recall(ws, "deploy", k=8, fusion=BM25)
    assert everyone and all(h.text != f"W: {CI_NOTE}" for h in everyone)  # it does rank low
    for k in (1, 2, 6):  # k hits at most: the agent has one note
        hits = recall(ws, "deploy", k=k, fusion=BM25, agent="ci-bot")
        assert [h.text for h in hits] == [f"W: {CI_NOTE}"], k
    hits = recall(ws, "deploy", budget_tokens=40, fusion=BM25, agent="ci-bot")
    assert [h.text for h in hits] == [f"W: {CI_NOTE}"]
    assert len(recall(ws, "deploy", k=3, fusion=BM25, agent="other")) == 3  # k still cuts
    assert recall(ws, "deploy", k=1, fusion=BM25, agent="nobody") == []
    r = run_cli("search", "deploy", "--agent", "ci-bot", "-k", "1", "-w", str(ws))
    assert r.returncode == 0, r.stderr
    assert "ci pipeline will deploy" in r.stdout and "(no matches)" not in r.stdout


def test_a_budget_still_bounds_an_agents_hits(ws: Path) -> None:
    _crowded(ws)
    for i in range(3):
        micro_rest(
            f"ci-bot will deploy canary {i} first", "W", workspace=ws, when=DAY, agent="ci-bot"
        )
    hits = recall(ws, "deploy", budget_tokens=12, fusion=BM25, agent="ci-bot")
    assert hits and sum(h.tokens for h in hits) <= 12
    assert all("ci-bot" in h.text or "ci pipeline" in h.text for h in hits)


# -- 2. search on a workspace this process may not write, with no index (or a stale one) ----


@contextlib.contextmanager
def _read_only(root: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``chmod -R a-w root`` for the block, with ``run_cli`` in a process that obeys it (as
    root: without the capabilities that bypass file permissions, or the test is skipped)."""
    paths = [root, *root.rglob("*")]
    modes = {p: p.stat().st_mode for p in paths}
    for p in paths:
        p.chmod(modes[p] & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        with permissions_enforced(monkeypatch):
            yield
    finally:
        for p in reversed(paths):
            p.chmod(modes[p])


def _tree(root: Path) -> dict[str, bytes | None]:
    return {
        p.relative_to(root).as_posix(): (p.read_bytes() if p.is_file() else None)
        for p in sorted(root.rglob("*"))
    }


@pytest.mark.parametrize("state", ["no state folder", "no index", "a stale index"])
def test_search_answers_on_a_workspace_it_may_not_write(
    ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, state: str
) -> None:
    micro_rest("The staging database resets on Sundays", "W", workspace=ws, when=DAY)
    micro_rest("Lunch is at noon", "O", workspace=ws, when=DAY)
    state_dir = ws / ".agent-sleep"
    if state == "no state folder":
        for p in sorted(state_dir.rglob("*"), reverse=True):
            p.rmdir() if p.is_dir() else p.unlink()
        state_dir.rmdir()
    elif state == "a stale index":
        assert run_cli("reindex", "-w", str(ws)).returncode == 0
        micro_rest("The staging database backup runs at 02:00", "W", workspace=ws, when=DAY)
    assert not (state_dir / "index").exists() or state == "a stale index"
    env = {"HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": ""}
    before = _tree(ws)
    with _read_only(ws, monkeypatch):
        refused = run_cli("rest", "-w", str(ws), "--note", "x", "--type", "W", env=env)
        assert refused.returncode != 0, "the workspace is writable: the test proves nothing"
        r = run_cli("search", "staging database", "-w", str(ws), env=env)
        assert r.returncode == 0, r.stderr
        assert "staging database resets on Sundays" in r.stdout
        if state == "a stale index":  # the files are the truth, not the old index
            assert "backup runs at 02:00" in r.stdout
        assert "Error" not in r.stderr
        r = run_cli("context", "--query", "staging", "--date", "2026-11-30", "-w", str(ws), env=env)
        assert r.returncode == 0, r.stderr
    assert _tree(ws) == before


# -- 3. CRLF files in the session-start block -------------------------------------------------


def test_crlf_files_show_no_carriage_returns_and_stay_as_they_are(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    micro_rest("Fixed the login bug", "B", workspace=ws, when=DAY)
    micro_rest("User prefers tabs", "O", workspace=ws, when=DAY - dt.timedelta(days=1))
    w.memory_md.write_text(
        w.memory_md.read_text()
        + "## Facts\n\n- W: Redis listens on port 6380 <!-- id=m000000001 sources=x -->\n"
        + "- W: Deploys happen on Fridays <!-- id=m000000002 sources=x -->\n"
    )
    log = w.day_log(DAY.date())
    log.write_text(log.read_text() + "\n## Next session\n\n- S: Review the fix <!-- id=s1 -->\n")
    files = [w.memory_md, log, w.day_log(DAY.date() - dt.timedelta(days=1))]
    for f in files:
        f.write_bytes(f.read_bytes().replace(b"\n", b"\r\n"))
    before = {f: f.read_bytes() for f in files}
    text = get_context(workspace=ws, today=DAY.date())
    assert "\r" not in text
    assert "### Facts\n- W: Redis listens on port 6380\n- W: Deploys happen on Fridays" in text
    assert "Long-term memory: durable facts" not in text  # the boilerplate is still recognised
    assert f"## Today's log ({DAY.date()})\n\n- 10:00 B: Fixed the login bug" in text
    assert "\n\n- 10:00 O(c=0.7): User prefers tabs" in text
    assert "## Next session (planned on 2026-11-30)\n\n- S: Review the fix" in text
    assert "<!--" not in text
    small = get_context(workspace=ws, today=DAY.date(), max_memory_chars=50)
    assert "\r" not in small and "Deploys happen on Fridays" in small
    assert {f: f.read_bytes() for f in files} == before  # never rewritten
