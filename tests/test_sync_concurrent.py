"""Three clones of one bare remote, each with a writer, a sleeper and a syncer running at once
as real processes, for several rounds. At the end every clone has the same files, every
acknowledged note exactly once, no conflict markers and no entry twice."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.test_sync_support import (
    bare_remote,
    check_files,
    cli,
    first_clone,
    git,
    join,
    note_counts,
    tree,
)

ROUNDS = 4
NOTES_PER_ROUND = 12

# The writer acknowledges a note only once micro_rest has returned its id.
_WRITER = """
import random, sys, time, datetime as dt
from agent_sleep import micro_rest
ws, name, ack = sys.argv[1], sys.argv[2], sys.argv[5]
rounds, per = int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(name)
facts = ["prefers small pull requests", "deploys on Tuesday", "uses Redis on port 6379",
         "works with Caroline on billing", "reviews code in the morning", "likes concise replies"]
with open(ack, "a") as out:
    for r in range(rounds):
        for i in range(per):
            kind = rng.choice("WBO")
            text = f"{name} round {r} note {i}: the user {rng.choice(facts)}"
            when = dt.datetime(2026, 11, 28 + r % 3, 8 + i % 12, rng.randrange(60))
            nid = micro_rest(text, kind, workspace=ws, when=when)
            out.write(nid + "\\n")
            out.flush()
            time.sleep(rng.uniform(0, 0.03))
"""

# Sleeps and syncs through the CLI, as a user's cron or agent would.
_LOOP = """
import random, subprocess, sys, time
ws, name, verb, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rng = random.Random(name + verb)
for r in range(rounds):
    time.sleep(rng.uniform(0.1, 0.5))
    p = subprocess.run([sys.executable, "-m", "agent_sleep", verb, "-w", ws],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{verb} failed in {name}: {p.stderr}")
"""


@pytest.mark.slow
def test_three_clones_writing_sleeping_and_syncing_at_once_agree(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path)
    clones = [first_clone(tmp_path, remote, "c0")]
    clones += [join(tmp_path, remote, f"c{i}") for i in (1, 2)]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AGENT_SLEEP_PROVIDER": "offline"}
    procs = []
    acks = []
    for ws in clones:
        ack = tmp_path / f"{ws.name}.acks"
        acks.append(ack)
        args = [str(ws), ws.name]
        procs.append(
            [sys.executable, "-c", _WRITER, *args, str(ROUNDS), str(NOTES_PER_ROUND), str(ack)]
        )
        procs.append([sys.executable, "-c", _LOOP, *args, "sleep", str(ROUNDS)])
        procs.append([sys.executable, "-c", _LOOP, *args, "sync", str(ROUNDS + 2)])
    running = [subprocess.Popen(p, env=env, stderr=subprocess.PIPE, text=True) for p in procs]
    for p in running:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err

    acknowledged = [line for a in acks for line in a.read_text().split()]
    assert len(acknowledged) == len(set(acknowledged)) == 3 * ROUNDS * NOTES_PER_ROUND
    # settle: every clone syncs twice in turn, then all hold the last push
    for ws in clones + clones:
        r = cli("sync", "-w", str(ws))
        assert r.returncode == 0, r.stderr
    heads = {git(ws, "rev-parse", "HEAD").strip() for ws in clones}
    assert len(heads) == 1
    assert tree(clones[0]) == tree(clones[1]) == tree(clones[2])
    for ws in clones:
        counts = note_counts(ws)
        assert set(acknowledged) <= set(counts)
        assert all(counts[i] == 1 for i in acknowledged)
        check_files(ws)
        assert git(ws, "status", "--porcelain") == ""
    subjects = git(clones[0], "log", "--format=%s").splitlines()
    assert any(s.startswith("sleep run ") for s in subjects)
    assert any(s.startswith("sync: merge") for s in subjects)
    assert sum(s.startswith("notes: ") for s in subjects) < len(acknowledged) / 2  # batches
