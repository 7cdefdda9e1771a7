"""Reliability figures for the README: crash trials, notes written and lost, bytes written
outside the workspace, and peak memory on a large daily log.

1. kill -9 trials: ``agent-sleep sleep`` (offline, and anthropic against a fake Messages API on
   127.0.0.1 through the real SDK) killed at random points, each checked as in
   tests/test_crash_sleep.py (old-or-new files, no note lost, rollback byte for byte, the next
   sleep completes); plus ``reindex`` killed at random points.
2. Concurrency: writer processes appending notes while sleeps and searches run; every
   acknowledged note is counted in the logs afterwards.
3. Hostile model output (traversal slugs, absolute paths, symlinks out): a sentinel tree beside
   the workspaces is compared byte for byte after everything above.
4. Peak RSS (ru_maxrss of the child) of sleep, context, search and status on a generated daily
   log of ``--log-mb`` megabytes.

    python bench/bench_reliability.py [--trials 100] [--writers 8 --notes 500] [--log-mb 100]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_crash_sleep import _typical, build_template, trial  # noqa: E402
from tests.test_hostile_files import peak_rss_mb, write_large_log  # noqa: E402
from tests.test_hostile_support import (  # noqa: E402
    api_env,
    cli,
    cli_env,
    model_server,
    note_ids,
    tree,
)


def _outside_changes(before: dict[str, bytes], after: dict[str, bytes]) -> int:
    """Bytes of files created or changed in the sentinel tree."""
    return sum(len(v) for k, v in after.items() if before.get(k) != v) + sum(
        len(v) for k, v in before.items() if k not in after
    )


def crash_trials(root: Path, n: int, seed: int) -> dict[str, Any]:
    template = build_template(root / "template")
    phases: dict[str, int] = {}
    rolled = 0
    rng = random.Random(seed)
    per_provider = {"offline": (n * 2) // 3, "anthropic": n - (n * 2) // 3}
    start = time.monotonic()
    with model_server(delay=lambda: rng.choice([0.0, 0.0, 0.3])) as api:
        for name, count in per_provider.items():
            env = api_env(api) if name == "anthropic" else {"AGENT_SLEEP_PROVIDER": "offline"}
            typical = _typical(template, root / name, env)
            shutil.rmtree(root / name / "timing")
            for i in range(count):
                ws = root / name / f"t{i}"
                out = trial(
                    template,
                    ws,
                    rng,
                    typical,
                    env,
                    at_writes=i % 2 == 1,
                    recover_with_rollback=i % 4 in (1, 2),
                )
                phases[out.phase] = phases.get(out.phase, 0) + 1
                rolled += out.rolled_back
                shutil.rmtree(ws)
    return {
        "trials": n,
        "by_provider": per_provider,
        "kill_landed": phases,
        "rolled_back": rolled,
        "seconds": round(time.monotonic() - start, 1),
    }


def reindex_trials(root: Path, n: int, seed: int) -> dict[str, Any]:
    from agent_sleep import micro_rest

    ws = root / "reindex"
    shutil.copytree(build_template(root / "rt"), ws)
    for i in range(2000):
        micro_rest(f"log line {i} about invoice {i}", "B", workspace=ws)
    markdown = tree(ws, skip_state=True)
    start = time.monotonic()
    assert cli("reindex", "--bm25-only", "--full", "-w", str(ws)).returncode == 0
    typical = time.monotonic() - start
    rng = random.Random(seed)
    for _ in range(n):
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "agent_sleep",
                "reindex",
                "--bm25-only",
                "--full",
                "-w",
                str(ws),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=cli_env(),
        )
        time.sleep(rng.uniform(0, typical))
        proc.kill()
        proc.wait()
        assert tree(ws, skip_state=True) == markdown, "reindex changed a Markdown file"
        r = cli("search", "--bm25-only", "--json", "invoice 1234", "-w", str(ws))
        assert r.returncode == 0 and "invoice 1234" in json.loads(r.stdout)[0]["text"]
    return {"trials": n, "markdown_changed": 0}


_WRITER = """
import sys
from agent_sleep import micro_rest
w, n, ws = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
for j in range(n):
    print(micro_rest(f"writer {w} note {j} about Apollo", "W", workspace=ws), flush=True)
"""


def concurrency(root: Path, writers: int, each: int) -> dict[str, Any]:
    ws = root / "busy"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(w), str(each), str(ws)],
            stdout=subprocess.PIPE,
            text=True,
            env=cli_env(),
        )
        for w in range(writers)
    ]
    time.sleep(0.5)
    others = []
    for _ in range(3):
        others.append(
            subprocess.Popen(
                [sys.executable, "-m", "agent_sleep", "sleep", "-w", str(ws), "-p", "offline"],
                env=cli_env(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        others.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "agent_sleep",
                    "search",
                    "--bm25-only",
                    "Apollo",
                    "-w",
                    str(ws),
                ],
                env=cli_env(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    acknowledged: set[str] = set()
    for p in procs:
        out, _ = p.communicate()
        acknowledged.update(out.split())
    for p in others:
        p.wait()
    seen = note_ids(ws)
    lost = len(acknowledged - set(seen))
    duplicated = sum(1 for c in seen.values() if c > 1)
    return {
        "writers": writers,
        "notes_written": len(acknowledged),
        "notes_lost": lost,
        "duplicated": duplicated,
        "sleeps_failed": sum(p.returncode != 0 for p in others),
    }


def hostile_output(root: Path, outside: Path) -> dict[str, Any]:
    from agent_sleep import micro_rest

    ws = root / "hostile"
    ids = [micro_rest("Caroline moved to Boston", "W", workspace=ws) for _ in range(3)]
    os.symlink(outside / "target.md", ws / "bank" / "entities" / "linked.md")
    evil = ["../../outside/x", str(outside / "y"), "..", "linked", "/etc/passwd", "~/.ssh/k"]

    def tamper(task: str, payload: dict[str, Any], honest: dict[str, Any]) -> dict[str, Any]:
        if task == "nrem":
            honest["bank_updates"] = [
                {
                    "slug": s,
                    "kind": "entity",
                    "section": "## ../../x",
                    "content": "c",
                    "sources": [payload["notes"][0]["id"]],
                }
                for s in evil
            ]
        return honest

    with model_server(tamper) as api:
        r = cli("sleep", "--json", "-w", str(ws), env=api_env(api))
    assert r.returncode == 0, r.stderr
    return {
        "hostile_slugs": len(evil),
        "dropped": json.loads(r.stdout)["dropped"],
        "notes": len(ids),
    }


def large_log(root: Path, megabytes: float) -> dict[str, Any]:
    ws = root / "large"
    count = write_large_log(ws, megabytes)
    cli("init", "-w", str(root / "empty"))  # status on a missing workspace is an error
    baseline = peak_rss_mb("status", "-w", str(root / "empty"))
    out: dict[str, Any] = {"log_mb": megabytes, "notes": count, "baseline_rss_mb": round(baseline)}
    for args in (
        ("context",),
        ("status",),
        ("sleep", "-p", "offline"),
        ("search", "--bm25-only", "apollo invoice"),
    ):
        start = time.monotonic()
        rss = peak_rss_mb(*args, "-w", str(ws))
        out[args[0]] = {"peak_rss_mb": round(rss), "seconds": round(time.monotonic() - start, 1)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--trials", type=int, default=100, help="kill -9 trials of sleep")
    ap.add_argument("--reindex-trials", type=int, default=20)
    ap.add_argument("--writers", type=int, default=8)
    ap.add_argument("--notes", type=int, default=500, help="notes per writer")
    ap.add_argument("--log-mb", type=float, default=100.0)
    ap.add_argument("--seed", type=int, default=20261129)
    args = ap.parse_args()

    base = Path(tempfile.mkdtemp(prefix="bench-reliability-"))
    outside = base / "outside"
    (outside / "etc").mkdir(parents=True)
    (outside / "etc" / "passwd").write_text("root:x:0:0\n")
    (outside / "target.md").write_text("# not yours\n")
    root = base / "work"
    root.mkdir()
    sentinel = tree(outside)
    report: dict[str, Any] = {}
    try:
        report["crash"] = crash_trials(root, args.trials, args.seed)
        print("crash", json.dumps(report["crash"]), flush=True)
        report["reindex"] = reindex_trials(root, args.reindex_trials, args.seed + 1)
        print("reindex", json.dumps(report["reindex"]), flush=True)
        report["concurrency"] = concurrency(root, args.writers, args.notes)
        print("concurrency", json.dumps(report["concurrency"]), flush=True)
        report["hostile"] = hostile_output(root, outside)
        print("hostile", json.dumps(report["hostile"]), flush=True)
        outside_bytes = _outside_changes(sentinel, tree(outside))
        outside_bytes += sum(1 for p in base.iterdir() if p.name not in ("outside", "work"))
        report["large"] = large_log(root, args.log_mb)
        print("large", json.dumps(report["large"]), flush=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    c, w, big = report["crash"], report["concurrency"], report["large"]
    print()
    print("| figure | value |")
    print("|---|---|")
    print(
        f"| kill -9 trials of sleep (offline / anthropic) | {c['trials']} "
        f"({c['by_provider']['offline']} / {c['by_provider']['anthropic']}); kill landed "
        + ", ".join(f"{k} {v}" for k, v in sorted(c["kill_landed"].items()))
        + " |"
    )
    print(f"| kill -9 trials of reindex | {report['reindex']['trials']} |")
    print(
        f"| notes written concurrently ({w['writers']} writers, sleeps and searches running) "
        f"| {w['notes_written']} |"
    )
    print(f"| notes lost / duplicated | {w['notes_lost']} / {w['duplicated']} |")
    print(f"| bytes written outside the workspace | {outside_bytes} |")
    for cmd in ("context", "status", "sleep", "search"):
        print(
            f"| peak RSS, `{cmd}` on a {big['log_mb']:g} MB log ({big['notes']} notes) | "
            f"{big[cmd]['peak_rss_mb']} MB ({big[cmd]['seconds']} s) |"
        )
    print(f"| baseline RSS (`status` on an empty workspace) | {big['baseline_rss_mb']} MB |")


if __name__ == "__main__":
    main()
