"""What syncing costs: three clones of one bare remote writing N notes in total.

Each round is a day: every clone appends its share of the round's notes to that day's log (in
batches through the write path), then the three sync one after the other: the first
fast-forwards or merges, the next two merge what the others pushed. ``--scatter`` writes each
round's notes over every day so far instead (the worst case: every sync merges every log).
Prints the time of one ``sync`` (in-process, git subprocesses included) over all rounds and
in the last round, a fresh clone's clone and first sync, and the remote's size per 10,000
notes, as pushed (loose objects and packs as received) and packed by ``git gc``.

    python bench/bench_sync.py [--notes 10000 100000] [--rounds 20] [--scatter]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent_sleep.core import notes as fmt  # noqa: E402
from agent_sleep.core.rest import append_notes, build_note  # noqa: E402
from agent_sleep.core.workspace import Workspace  # noqa: E402
from agent_sleep.sync.remote import sync  # noqa: E402
from agent_sleep.sync.repo import enable  # noqa: E402
from bench import locomo  # noqa: E402

BATCH = 50  # notes per append: an agent's burst between two syncs


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(cwd), *args], capture_output=True, text=True, check=True
    ).stdout


def identity(clone: Path, name: str) -> None:
    git(clone, "config", "user.name", name)
    git(clone, "config", "user.email", f"{name}@example.com")


def du(path: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(path):
        for f in files:
            total += os.path.getsize(os.path.join(root, f))
    return total


def write(
    ws: Workspace, rng: random.Random, pool: list[str], count: int, days: range, start: dt.date
) -> set[str]:
    """``count`` notes (texts drawn from ``pool``) over the logs of ``days``, ``BATCH`` per
    append."""
    ids: set[str] = set()
    by_day: dict[dt.date, list[fmt.Note]] = {}
    for _ in range(count):
        day = start + dt.timedelta(days=rng.choice(days))
        when = dt.datetime.combine(day, dt.time(rng.randrange(24), rng.randrange(60)))
        text = rng.choice(pool)
        note, _ = build_note(text, rng.choice("WBO"), when=when)
        by_day.setdefault(day, []).append(note)
        ids.add(note.id)
    for day, items in sorted(by_day.items()):
        items.sort(key=lambda n: n.time or "")
        for i in range(0, len(items), BATCH):
            append_notes(ws, day, items[i : i + BATCH])
    return ids


def run(total: int, rounds: int, scatter: bool, pool: list[str], tmp: Path) -> dict[str, float]:
    remote = tmp / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    first = tmp / "c0"
    enable(first)
    identity(first, "c0")
    git(first, "remote", "add", "origin", str(remote))
    sync(first)
    clones = [first]
    for i in (1, 2):
        c = tmp / f"c{i}"
        git(tmp, "clone", "-q", str(remote), str(c))
        identity(c, c.name)
        sync(c)
        clones.append(c)
    rng = random.Random(total)
    start = dt.date(2026, 1, 1)
    ids: set[str] = set()
    times: list[float] = []
    last_round: list[float] = []
    per = total // (3 * rounds)
    for r in range(rounds):
        for c in clones:
            days = range(r + 1) if scatter else range(r, r + 1)
            ids |= write(Workspace(c), rng, pool, per, days, start)
        last_round = []
        for c in clones:
            t = time.perf_counter()
            sync(c)
            last_round.append(time.perf_counter() - t)
        times += last_round
        print(f"  round {r + 1}/{rounds}: {len(ids)} notes, syncs {_ms(last_round)}", flush=True)
    for c in clones:
        sync(c)
    heads = {git(c, "rev-parse", "HEAD") for c in clones}
    assert len(heads) == 1, "clones disagree"
    for c in clones:
        seen = [n.id for log in (c / "memory").glob("*.md") for n in fmt.notes_in(log.read_text())]
        assert len(seen) == len(set(seen)) and set(seen) == ids, "a note lost or doubled"
    pushed = du(remote)
    fresh = tmp / "fresh"
    t = time.perf_counter()
    git(tmp, "clone", "-q", str(remote), str(fresh))
    identity(fresh, "fresh")
    sync(fresh)
    join = time.perf_counter() - t
    subprocess.run(["git", "-C", str(remote), "gc", "-q"], check=True)
    packed = du(remote)
    markdown = (
        sum(du(c / d) for c in clones[:1] for d in ("memory", "bank"))
        + (clones[0] / "MEMORY.md").stat().st_size
    )
    return {
        "notes": len(ids),
        "sync_median": statistics.median(times),
        "sync_p90": sorted(times)[int(0.9 * (len(times) - 1))],
        "sync_last_round_median": statistics.median(last_round),
        "join": join,
        "pushed_per_10k": pushed / len(ids) * 10_000,
        "packed_per_10k": packed / len(ids) * 10_000,
        "markdown_per_10k": markdown / len(ids) * 10_000,
        "commits": int(git(clones[0], "rev-list", "--count", "HEAD")),
    }


def _ms(values: list[float]) -> str:
    return " ".join(f"{v * 1000:.0f}" for v in values) + " ms"


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--notes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--scatter", action="store_true", help="each round writes to every log")
    ap.add_argument("--data", default=str(locomo.DEFAULT_PATH), help="LoCoMo JSON: note texts")
    args = ap.parse_args()
    pool = [t.note for sample in locomo.load(args.data) for t in locomo.turns(sample) if t.text]
    print(f"note texts: {len(pool)} LoCoMo turns (drawn with repeats)")
    print(f"git {git(ROOT, '--version').split()[-1]}, {os.cpu_count()} cores")
    for total in args.notes:
        how = "over every log so far" if args.scatter else "into that day's log"
        print(f"{total} notes, 3 clones, {args.rounds} rounds (days), each {how}:", flush=True)
        with tempfile.TemporaryDirectory(prefix="bench-sync-") as tmp:
            r = run(total, args.rounds, args.scatter, pool, Path(tmp))
        print(
            f"  sync: median {r['sync_median'] * 1000:.0f} ms, p90 {r['sync_p90'] * 1000:.0f} ms "
            f"over all rounds; median {r['sync_last_round_median'] * 1000:.0f} ms in the last "
            f"round ({r['notes']} notes)\n"
            f"  a fresh clone's clone + first sync: {r['join']:.2f} s\n"
            f"  remote per 10,000 notes: {r['pushed_per_10k'] / 1e6:.2f} MB as pushed, "
            f"{r['packed_per_10k'] / 1e6:.2f} MB after git gc "
            f"(the Markdown itself: {r['markdown_per_10k'] / 1e6:.2f} MB); {r['commits']} commits",
            flush=True,
        )


if __name__ == "__main__":
    main()
