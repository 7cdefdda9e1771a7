"""kill -9 a real ``agent-sleep sleep`` (and ``reindex``) at random points.

Each trial copies a small workspace with pending notes, starts the command in a subprocess and
kills it either after a random delay in [0, typical run time] or at a random point of its
writes: timed from when its ``runs/<id>/`` folder appears (it is writing before-images) or, in
every other such trial, from when its ``meta.json`` appears (the targets are next), so kills land
before, during and after the writes whatever else loads the machine.
Afterwards: every file is its old version or the run's new one (checked against the run's own
record of what it meant to write), every Markdown file parses, every acknowledged note is there
exactly once, ``rollback`` of the interrupted run restores the before-images byte for byte, and
the next ``sleep`` completes and consolidates everything without duplicates.

``AGENT_SLEEP_CRASH_SEED`` replays a failing series; ``AGENT_SLEEP_CRASH_TRIALS`` scales it.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from agent_sleep import micro_rest
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core.notes import sources_of
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
    tree,
)

SEED = int(os.environ.get("AGENT_SLEEP_CRASH_SEED", "20261129"))
SCALE = float(os.environ.get("AGENT_SLEEP_CRASH_TRIALS", "1"))
TOPICS = ["Apollo", "Boston", "Caroline", "Melanie", "pottery", "Redis", "the beta", "Kyoto"]


def build_template(root: Path, consolidated: int = 12, pending: int = 10) -> Path:
    """A workspace with a first sleep behind it and ``pending`` new notes waiting."""
    ws = root / "template"
    for i in range(consolidated):
        a, b = TOPICS[i % len(TOPICS)], TOPICS[(3 * i + 1) % len(TOPICS)]
        micro_rest(
            f"{a} and {b} came up in meeting {i} on 2026-0{1 + i % 9}-1{i % 10}",
            "W",
            workspace=ws,
            when=day(2, 9 + i % 8),
        )
    sleep_cycle(ws, "both", "offline", now=NOW)
    for i in range(pending):
        a, b = TOPICS[(i + 2) % len(TOPICS)], TOPICS[(5 * i + 3) % len(TOPICS)]
        kind = "OBWS"[i % 4]
        micro_rest(
            f"{a} asked about {b} after call {i}, three weeks before the launch",
            kind,
            workspace=ws,
            when=day(i % 2, 9 + i % 8),
        )
    return ws


@dataclass
class Outcome:
    phase: str  # "before-writes", "during-writes", "after-writes"
    rolled_back: bool


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _interrupted_runs(ws: Path, template_runs: set[str]) -> list[Path]:
    runs = ws / ".agent-sleep" / "runs"
    return sorted(p for p in runs.iterdir() if p.name not in template_runs) if runs.is_dir() else []


def _leftovers(ws: Path, before: dict[str, bytes]) -> dict[str, bytes]:
    """Files the killed run left besides its targets: only hidden temp files are allowed."""
    now = tree(ws, skip_state=True)
    extra = {k: v for k, v in now.items() if k not in before and k.endswith(".tmp")}
    for rel in extra:
        assert rel.rsplit("/", 1)[-1].startswith("."), f"a visible temp file {rel}"
    return extra


def _check_old_or_new(ws: Path, before: dict[str, bytes], run: Path | None) -> str:
    """Each file is its old version or the version the run recorded; returns the phase."""
    now = {k: v for k, v in tree(ws, skip_state=True).items() if not k.endswith(".tmp")}
    if run is None or not (run / "meta.json").is_file():
        assert now == before, "files changed although the run never recorded its before-images"
        return "before-writes"
    meta = json.loads((run / "meta.json").read_text())
    new = 0
    for rel, info in meta["files"].items():
        old = before.get(rel)
        cur = now.get(rel)
        if "appended" in info:
            block = info["appended"].encode()
            done = (old or b"") + block
            assert cur in (old, done), f"{rel} is neither old nor new"
            new += cur == done and cur != old
        else:
            assert cur == old or (cur is not None and _sha(cur) == info["after_sha"]), (
                f"{rel} is neither its old nor its new version"
            )
            new += cur is not None and cur != old
    assert {k: v for k, v in now.items() if k not in meta["files"]} == {
        k: v for k, v in before.items() if k not in meta["files"]
    }
    return "after-writes" if new == len(meta["files"]) else "during-writes"


def _check_consolidated(ws: Path, ids: Counter[str]) -> None:
    """After a completed sleep: each note cited or marked, no entry twice."""
    assert note_ids(ws) == ids
    assert_all_parse(ws)
    entries = memory_entries(ws)
    assert len({e.id for e in entries}) == len(entries)
    texts = [" ".join(e.text.split()) for e in entries]
    assert len(set(texts)) == len(texts), "an entry was added twice"
    marks = json.loads((ws / ".agent-sleep/consolidated.json").read_text())
    cited = {s for e in entries for s in sources_of(e)}
    for page in (ws / "bank").rglob("*.md"):
        cited |= {s for n in notes.notes_in(page.read_text()) for s in sources_of(n)}
    assert set(ids) <= set(marks["nrem"]) | cited, "a note was never consolidated"


def trial(
    template: Path,
    ws: Path,
    rng: random.Random,
    typical: tuple[float, float, float],
    env: dict[str, str],
    *,
    at_writes: bool,
    recover_with_rollback: bool,
    from_meta: bool = False,
) -> Outcome:
    shutil.copytree(template, ws, symlinks=True)
    template_runs = {p.name for p in (template / ".agent-sleep/runs").iterdir()}
    before = tree(ws, skip_state=True)
    ids = note_ids(ws)
    proc = _start(ws, env, "sleep")
    if at_writes and from_meta:  # kill at a random point of the writes to the targets
        _wait_for_new_run(proc, ws / ".agent-sleep/runs", template_runs, "meta.json")
        time.sleep(rng.uniform(0, typical[2]))
    elif at_writes:  # kill at a random point from the first before-image on
        _wait_for_new_run(proc, ws / ".agent-sleep/runs", template_runs)
        time.sleep(rng.uniform(0, typical[1]))
    else:
        time.sleep(rng.uniform(0, typical[0]))
    proc.send_signal(signal.SIGKILL)
    proc.wait()

    assert note_ids(ws) == ids, "an acknowledged note was lost or duplicated"
    assert_all_parse(ws)
    leftovers = _leftovers(ws, before)
    interrupted = _interrupted_runs(ws, template_runs)
    assert len(interrupted) <= 1
    run = interrupted[0] if interrupted else None
    phase = _check_old_or_new(ws, before, run)

    rolled = False
    if recover_with_rollback and run is not None and (run / "meta.json").is_file():
        r = cli("rollback", "--json", "-w", str(ws))  # finds the interrupted run by itself
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["run_id"] == run.name
        now = tree(ws, skip_state=True)
        assert {k: v for k, v in now.items() if k not in leftovers} == before
        rolled = True
    r = cli(*dated("sleep", "-w", str(ws), "-p", "offline"))
    assert r.returncode == 0, r.stderr
    _check_consolidated(ws, ids)
    return Outcome(phase, rolled)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_template(tmp_path_factory.mktemp("crash"))


def _start(ws: Path, env: dict[str, str], *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "agent_sleep", *dated(*args), "-w", str(ws)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=cli_env(env),
    )


def _wait_for_new_run(
    proc: subprocess.Popen[bytes], runs: Path, known: set[str], inside: str = ""
) -> float:
    """Poll until the run creates its folder (it is about to write), or with ``inside`` until
    that file appears in it; returns that moment."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if any(
            p.name not in known and (not inside or (p / inside).is_file()) for p in runs.iterdir()
        ):
            break
        time.sleep(0.002)  # a busy loop would starve the run on a small machine
    return time.monotonic()


def _typical(template: Path, tmp: Path, env: dict[str, str]) -> tuple[float, float, float]:
    """Seconds for a whole run, from its first write to its journal line (its last), and from
    its ``meta.json`` to that line."""
    ws = tmp / "timing"
    shutil.copytree(template, ws, symlinks=True)
    known = {p.name for p in (ws / ".agent-sleep/runs").iterdir()}
    journal = ws / ".agent-sleep/journal.jsonl"
    size = journal.stat().st_size
    start = time.monotonic()
    proc = _start(ws, env, "sleep")
    writing = _wait_for_new_run(proc, ws / ".agent-sleep/runs", known)
    meta = _wait_for_new_run(proc, ws / ".agent-sleep/runs", known, "meta.json")
    while proc.poll() is None and journal.stat().st_size == size:
        time.sleep(0.001)
    written = time.monotonic()
    assert proc.wait() == 0
    return (
        time.monotonic() - start,
        max(written - writing, 0.005),
        max(written - meta, 0.005),
    )


def _series(template: Path, tmp: Path, env: dict[str, str], n: int, seed: int) -> Iterator[Outcome]:
    rng = random.Random(seed)
    typical = _typical(template, tmp, env)
    for i in range(n):
        yield trial(
            template,
            tmp / f"t{i}",
            rng,
            typical,
            env,
            at_writes=i % 2 == 1,
            recover_with_rollback=i % 4 in (1, 2),
            from_meta=i % 4 == 1,
        )


@pytest.mark.slow
def test_kill_offline_sleep(template: Path, tmp_path: Path) -> None:
    n = max(4, int(38 * SCALE))
    outcomes = list(_series(template, tmp_path, {"AGENT_SLEEP_PROVIDER": "offline"}, n, SEED))
    phases = Counter(o.phase for o in outcomes)
    print("offline kills landed:", dict(phases))
    assert len(outcomes) == n
    assert phases["before-writes"] and phases["during-writes"] + phases["after-writes"] >= 2
    assert any(o.rolled_back for o in outcomes)


@pytest.mark.slow
def test_kill_anthropic_sleep(template: Path, tmp_path: Path) -> None:
    rng = random.Random(SEED + 1)
    with model_server(delay=lambda: rng.choice([0.0, 0.0, 0.3])) as api:
        n = max(4, int(12 * SCALE))
        outcomes = list(_series(template, tmp_path, api_env(api), n, SEED + 2))
    phases = Counter(o.phase for o in outcomes)
    print("anthropic kills landed:", dict(phases))
    assert len(outcomes) == n and len(api.requests) >= n
    assert phases["before-writes"] and phases["during-writes"] + phases["after-writes"] >= 2


def test_kill_reindex(template: Path, tmp_path: Path) -> None:
    """The index rebuilds after a crash at any point; Markdown is never touched."""
    ws = tmp_path / "ws"
    shutil.copytree(template, ws, symlinks=True)
    for i in range(400):
        micro_rest(
            f"log line {i} about {TOPICS[i % len(TOPICS)]} and invoice {i}",
            "B",
            workspace=ws,
            when=day(i % 3),
        )
    markdown = tree(ws, skip_state=True)
    start = time.monotonic()
    assert cli("reindex", "--bm25-only", "--full", "-w", str(ws)).returncode == 0
    typical = time.monotonic() - start
    rng = random.Random(SEED + 3)
    for _ in range(max(3, int(8 * SCALE))):
        proc = _start(ws, {}, "reindex", "--bm25-only", "--full")
        time.sleep(rng.uniform(0, typical))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert tree(ws, skip_state=True) == markdown
        r = cli("search", "--bm25-only", "--json", "invoice 123", "-w", str(ws))
        assert r.returncode == 0, r.stderr
        assert "invoice 123" in json.loads(r.stdout)[0]["text"]
    assert cli("reindex", "--bm25-only", "-w", str(ws)).returncode == 0
    index = ws / ".agent-sleep" / "index"
    stray = [p.name for p in index.iterdir() if p.name.endswith(".tmp")]
    assert not stray, f"temp files of killed builds are never cleaned: {stray}"


def test_plain_rollback_takes_the_newest_run_within_one_second(ws: Path) -> None:
    """Run ids carry seconds only: two runs in the same second must still roll back in order."""
    from agent_sleep.consolidation.journal import rollback

    micro_rest("Caroline moved to Boston with Apollo", "W", workspace=ws, when=day(1))
    first = sleep_cycle(ws, "nrem", "offline", now=NOW).run_id
    micro_rest("Melanie adopted a cat named Luna", "B", workspace=ws, when=day(1))
    second = sleep_cycle(ws, "nrem", "offline", now=NOW).run_id
    assert first and second
    same_second = first[:-4] + "0000"  # sorts before the first run's id
    state = ws / ".agent-sleep"
    (state / "runs" / second).rename(state / "runs" / same_second)
    for path in (state / "journal.jsonl", state / "runs" / same_second / "meta.json"):
        path.write_text(path.read_text().replace(second, same_second))
    assert rollback(ws)["run_id"] == same_second
    assert rollback(ws)["run_id"] == first
    assert not memory_entries(ws)


def test_plain_rollback_takes_the_journals_newest_run_whatever_the_files_times(ws: Path) -> None:
    """A workspace copied with `cp -r` gives every run's record the time of the copy, in no
    order: the journal says which run came last (an on-call assistant's copy had rolled back
    an older run, which then refused)."""
    import os

    from agent_sleep.consolidation.journal import rollback

    micro_rest("Caroline moved to Boston with Apollo", "W", workspace=ws, when=day(1))
    first = sleep_cycle(ws, "nrem", "offline", now=NOW).run_id
    micro_rest("Melanie adopted a cat named Luna", "B", workspace=ws, when=day(1))
    second = sleep_cycle(ws, "nrem", "offline", now=NOW).run_id
    assert first and second
    runs = ws / ".agent-sleep" / "runs"
    os.utime(runs / first / "meta.json", ns=(2_000_000_000 * 10**9,) * 2)  # the first looks newer
    os.utime(runs / second / "meta.json", ns=(1_000_000_000 * 10**9,) * 2)
    assert rollback(ws)["run_id"] == second
    assert rollback(ws)["run_id"] == first
