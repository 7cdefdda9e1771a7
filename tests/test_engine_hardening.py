"""The engine against a hostile workspace and a vanishing client.

- A symbolic link loop in ``bank/`` (a page that links to itself, two pages that link to each
  other) is skipped with one warning naming it, by the library, ``agent-sleep sleep`` and the MCP
  ``memory_sleep`` tool alike; the rest is consolidated, the links are never written through (nor
  is a page linked out of the workspace), and recall goes on working.
- The MCP server exits as soon as its client goes away (stdin closes), even in the middle of a
  long tool call, and leaves the workspace as a crash before the writes would: every file as it
  was, no lock held, the notes pending for the next sleep.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import anyio

from agent_sleep.consolidation import journal
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.consolidation.status import status
from agent_sleep.core import notes
from agent_sleep.core.workspace import Workspace
from agent_sleep.integrations.sleep_lock import lock_path, sleep_running
from tests.conftest import ROOT, run_cli
from tests.fake_messages_api import QueueProvider
from tests.test_hostile_support import AT, NOW, note_ids, tree
from tests.test_mcp import data, session
from tests.test_mcp_hardening import no_crash_logged
from tests.test_sleep_safety import _add, _note, _nrem

LOOPS = ("bank/entities/loop.md", "bank/concepts/a.md", "bank/concepts/b.md")


def _loops(ws: Path) -> dict[str, str]:
    """A page that links to itself and two that link to each other; returns each link."""
    Workspace.at(ws).ensure()
    (ws / LOOPS[0]).symlink_to("loop.md")
    (ws / LOOPS[1]).symlink_to("b.md")
    (ws / LOOPS[2]).symlink_to("a.md")
    return {rel: os.readlink(ws / rel) for rel in LOOPS}


def _warned_once_each(ws: Path, err: str) -> None:
    for rel in LOOPS:
        assert err.count(f"warning: skipping {ws / rel}: symlink loop") == 1, err
    assert "Traceback" not in err, err


def _bank_update(slug: str, kind: str, sources: list[str]) -> dict[str, Any]:
    return {"slug": slug, "kind": kind, "section": "Notes", "content": "a fact", "sources": sources}


def test_a_symlink_loop_in_the_bank_is_skipped_and_never_written_through(
    ws: Path, tmp_path: Path, capsys: Any
) -> None:
    links = _loops(ws)
    outside = tmp_path / "outside.md"
    outside.write_text("# not yours\n")
    (ws / "bank/entities/linked.md").symlink_to(outside)
    nid = _note(ws, "Caroline went to a support group")
    bank = [  # the model files the note on each looping page, the page out, and a new page
        _bank_update("loop", "entity", [nid]),
        _bank_update("a", "concept", [nid]),
        _bank_update("linked", "entity", [nid]),
        _bank_update("caroline", "entity", [nid]),
    ]
    answer = _nrem([_add("Caroline went to a support group", [nid])], bank=bank)
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(answer), now=NOW)

    _warned_once_each(ws, capsys.readouterr().err)
    assert r.dropped["unsafe_path"] == 3
    assert "support group" in (ws / "MEMORY.md").read_text()
    assert "a fact" in (ws / "bank/entities/caroline.md").read_text()
    assert {rel: os.readlink(ws / rel) for rel in LOOPS} == links  # still the user's links
    assert outside.read_text() == "# not yours\n"
    assert set(r.files_changed) == {"MEMORY.md", "bank/entities/caroline.md"}
    assert journal.rollback(ws)["run_id"] == r.run_id  # the run's record is whole


def test_cli_sleep_and_recall_get_past_a_symlink_loop_in_the_bank(ws: Path) -> None:
    _loops(ws)
    w = run_cli("rest", "-w", str(ws), "--note", "Redis default port is 6379", "--type", "W", *AT)
    assert w.returncode == 0, w.stderr
    r = run_cli("sleep", "-w", str(ws), "-p", "offline", "--json", *AT)
    assert r.returncode == 0, r.stderr
    _warned_once_each(ws, r.stderr)
    assert "MEMORY.md" in json.loads(r.stdout)["files_changed"]
    assert "Redis default port is 6379" in (ws / "MEMORY.md").read_text()
    for args in (("search", "--json", "Redis port"), ("context", "--query", "Redis")):
        found = run_cli(*args, "-w", str(ws))
        assert found.returncode == 0, found.stderr
        assert "6379" in found.stdout and "Traceback" not in found.stderr


def test_mcp_sleep_gets_past_a_symlink_loop_in_the_bank(ws: Path, tmp_path: Path) -> None:
    errlog = tmp_path / "server.err"
    links = _loops(ws)

    async def main() -> None:
        async with session(ws, errlog=errlog) as s:
            args = {"note": "Redis default port is 6379", "type": "W"}
            data(await s.call_tool("memory_write", args))
            r = data(await s.call_tool("memory_sleep", {}))
            assert "MEMORY.md" in r["files_changed"], r
            hits = data(await s.call_tool("memory_search", {"query": "Redis port"}))["hits"]
            assert any("6379" in h["text"] for h in hits)

    anyio.run(main)
    no_crash_logged(errlog)
    _warned_once_each(ws, errlog.read_text())
    assert {rel: os.readlink(ws / rel) for rel in LOOPS} == links


# -- the client goes away mid-call ---------------------------------------------------------

SLOW_NOTES = 2000  # an offline sleep over them takes half a minute: far longer than the wait
WORDS = ["apollo", "boston", "caroline", "pottery", "redis", "beta", "kyoto", "invoice", "deploy"]


def _backlog(ws: Path, n: int) -> Path:
    """Today's log with ``n`` distinct notes: a genuinely slow sleep for the offline provider."""
    rng = random.Random(20261203)
    today = dt.date.today()
    lines = [
        notes.render_note(
            notes.Note(
                type="W",
                text=f"Fact {i}: {' '.join(rng.choice(WORDS) for _ in range(8))} on host {i}",
                id=notes.stable_id("backlog", str(i)),
                time="09:00",
            )
        )
        for i in range(n)
    ]
    log = Workspace.at(ws).ensure().day_log(today)
    log.write_text(notes.day_header(today) + "## Retain\n\n" + "".join(lines))
    return log


def _send(stdin: IO[bytes], message: dict[str, Any]) -> None:
    stdin.write((json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode())
    stdin.flush()


def _answer(stdout: IO[bytes], timeout: float = 60) -> dict[str, Any]:
    ready, _, _ = select.select([stdout], [], [], timeout)
    assert ready, "the server did not answer"
    out: dict[str, Any] = json.loads(stdout.readline())
    return out


def _wait_for(path: Path, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert proc.poll() is None and time.monotonic() < deadline, f"no {path.name}"
        time.sleep(0.01)


def test_the_server_exits_when_its_client_goes_away_mid_call(ws: Path, tmp_path: Path) -> None:
    _backlog(ws, SLOW_NOTES)
    before, ids = tree(ws, skip_state=True), note_ids(ws)
    errlog = tmp_path / "server.err"
    with open(errlog, "w") as err:
        proc = subprocess.Popen(  # the command and environment of tests/test_mcp.py's session
            [sys.executable, "-m", "agent_sleep", "mcp", "--workspace", str(ws)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            env={**os.environ, "PYTHONPATH": str(ROOT), "AGENT_SLEEP_PROVIDER": "offline"},
        )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        _send(
            proc.stdin,
            {
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "gone-client", "version": "0"},
                },
            },
        )
        assert "result" in _answer(proc.stdout)
        _send(proc.stdin, {"method": "notifications/initialized"})
        _send(proc.stdin, {"id": 2, "method": "tools/call", "params": {"name": "memory_sleep"}})
        _wait_for(lock_path(Workspace.at(ws)), proc)  # memory_sleep has started its run
        proc.stdin.close()  # the client goes away
        left = time.monotonic()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            raise AssertionError("the server still computes for a client that has gone") from None
        assert time.monotonic() - left < 10
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
    assert proc.returncode == 0, errlog.read_text()[-3000:]
    no_crash_logged(errlog)
    # as a crash before the writes leaves it: every file as it was, nothing to roll back, no
    # lock held, every note pending for the next sleep
    assert tree(ws, skip_state=True) == before and note_ids(ws) == ids
    assert journal.latest_run(Workspace.at(ws)) is None
    assert not sleep_running(Workspace.at(ws))
    assert status(ws)["pending_notes"] == SLOW_NOTES


def test_a_bank_folder_that_loops_is_named_in_one_line(ws: Path) -> None:
    """``bank/concepts -> concepts``: the layout cannot be made, and the error says which
    folder is a symlink loop (it said "not writable (File exists)"); search skips the folder
    with a warning and finds the rest (it failed as a whole)."""
    w = run_cli("rest", "--type", "W", "--note", "Redis default port is 6379", "-w", str(ws))
    assert w.returncode == 0, w.stderr
    concepts = ws / "bank" / "concepts"
    concepts.rmdir()
    concepts.symlink_to("concepts")
    r = run_cli("rest", "--type", "W", "--note", "a note", "-w", str(ws))
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and "concepts is a symlink loop" in r.stderr
    assert concepts.is_symlink() and os.readlink(concepts) == "concepts"  # left as it was
    found = run_cli("search", "Redis port", "--json", "-w", str(ws))  # searches the rest
    assert found.returncode == 0, found.stderr
    assert "6379" in found.stdout and "concepts: symlink loop" in found.stderr
