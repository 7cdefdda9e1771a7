"""rest writers, sleep and search at the same time on one workspace, all real processes.

Afterwards every acknowledged note is there exactly once, every file parses, the index converges
after ``reindex``, and the next sleep leaves nothing pending. A sleep that starts while notes keep
arriving consolidates what it read and leaves the rest pending.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from agent_sleep import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval.index import _read, index_dir, update
from tests.test_hostile_support import (
    NOW,
    api_env,
    assert_all_parse,
    cli,
    cli_env,
    dated,
    day,
    memory_entries,
    model_server,
    note_ids,
)

_WRITER = """
import datetime as dt, sys
from agent_sleep import micro_rest
w, n, ws, when = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
topics = ["Apollo", "Boston", "Caroline", "Melanie", "Redis", "Kyoto"]
for j in range(n):
    t = topics[(w + j) % len(topics)]
    print(micro_rest(f"writer {w} note {j}: {t} update number {j}", "WBOS"[j % 4],
                     workspace=ws, source=f"w{w}-{j}", when=dt.datetime.fromisoformat(when)),
          flush=True)
"""

_LOOP = """
import subprocess, sys
args, times = sys.argv[2:], int(sys.argv[1])
for _ in range(times):
    r = subprocess.run([sys.executable, "-m", "agent_sleep", *args], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(r.stderr)
"""


def _popen(code: str, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(env),
    )


def test_writers_sleep_and_search_at_once(ws: Path, tmp_path: Path) -> None:
    seed = [
        micro_rest(f"seed note {i} about Apollo", "W", workspace=ws, when=day(1)) for i in range(10)
    ]
    writers = [_popen(_WRITER, str(w), "120", str(ws), NOW.isoformat()) for w in range(3)]
    cli_writer = _popen(
        _LOOP, "15", *dated("rest", "-w", str(ws), "-n", "from the CLI about Kyoto")
    )
    sleeper = _popen(_LOOP, "4", *dated("sleep", "-w", str(ws), "-p", "offline"))
    searcher = _popen(_LOOP, "4", "search", "--bm25-only", "Apollo", "-w", str(ws))

    acknowledged = set(seed)
    for p in writers:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        acknowledged.update(out.split())
    for p in (cli_writer, sleeper, searcher):
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    assert len(acknowledged) == 10 + 3 * 120

    ids = note_ids(ws)
    assert set(ids) >= acknowledged and max(ids.values()) == 1
    assert sum(ids.values()) == len(acknowledged) + 15  # plus the CLI writer's notes
    assert_all_parse(ws)
    entries = memory_entries(ws)
    assert len({e.id for e in entries}) == len(entries)

    # the index converges: after reindex it equals a build from scratch
    assert cli("reindex", "--bm25-only", "-w", str(ws)).returncode == 0
    wsp = Workspace.at(ws)
    incremental = _read(wsp)
    assert incremental is not None
    for stale in index_dir(wsp).iterdir():
        stale.unlink()
    update(wsp, vectors=False, full=True)
    scratch = _read(wsp)
    assert scratch is not None
    assert incremental.files == scratch.files
    diff = [(a, b) for a, b in zip(incremental.units, scratch.units, strict=True) if a != b]
    assert not diff, diff[:2]
    r = cli("search", "--bm25-only", "--json", "writer 2 note 77", "-w", str(ws))
    assert any("writer 2 note 77:" in h["text"] for h in json.loads(r.stdout))

    # the next sleep leaves nothing pending
    assert cli(*dated("sleep", "-w", str(ws), "-p", "offline")).returncode == 0
    status = json.loads(cli(*dated("status", "--json", "-w", str(ws))).stdout)
    assert status["pending_notes"] == 0 and status["backlog_notes"] == 0
    assert note_ids(ws) == ids


def test_notes_arriving_during_a_sleep_stay_pending(ws: Path) -> None:
    read = [
        micro_rest(f"Caroline note {i} about the Apollo launch", "W", workspace=ws, when=day(0))
        for i in range(6)
    ]
    during: list[str] = []
    gate = threading.Lock()

    def write_while_the_model_thinks() -> float:
        with gate:  # NREM and REM both wait here; the notes are written once
            if not during:
                during.extend(
                    micro_rest(f"Melanie note {i} arrived mid-sleep", "B", workspace=ws, when=NOW)
                    for i in range(4)
                )
        return 0.05

    with model_server(delay=write_while_the_model_thinks) as api:
        r = cli(*dated("sleep", "--json", "-w", str(ws)), env=api_env(api))
    assert r.returncode == 0, r.stderr
    result: dict[str, Any] = json.loads(r.stdout)
    assert result["notes_in"] == 6 and len(during) == 4
    sent = api.requests[0].body["messages"][0]["content"]
    assert all(i in sent for i in read) and not any(i in sent for i in during)

    marks = json.loads((ws / ".agent-sleep/consolidated.json").read_text())
    assert set(read) <= set(marks["nrem"]) and not set(during) & set(marks["nrem"])
    status = json.loads(cli(*dated("status", "--json", "-w", str(ws))).stdout)
    assert status["pending_notes"] == 4
    assert note_ids(ws).keys() == set(read) | set(during)

    r = cli(*dated("sleep", "--json", "-w", str(ws), "-p", "offline"))
    assert json.loads(r.stdout)["notes_in"] == 4
    assert json.loads(cli(*dated("status", "--json", "-w", str(ws))).stdout)["pending_notes"] == 0
    assert_all_parse(ws)
