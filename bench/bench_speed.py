"""Recall speed on synthetic workspaces: 1k, 10k and 100k notes spread over 365 daily logs.

For each size it prints one row of a scaling table:

- build: a full index build (BM25 + one embedding per note) in-process, and its rate,
- warm p50 / p95: ``recall(query, k=6)`` in-process with the index loaded, 40 distinct queries,
  the first of them embedded in numpy (``embed.NUMPY_TEXTS``, a cold start's path); then the
  same over 40 other new queries, with onnxruntime loaded (a long-lived process: "steady"),
- deep: ``recall(query, budget_tokens=4000)``, which adds feedback and the late-interaction
  rerank (token states of up to 532 candidates): p50 over 10 queries in-process with nothing
  in memory and on disk only the token states the index build left (the newest
  ``index_vectors.INDEX_STATES`` notes: "new"), over 10 other queries with no token state anywhere
  ("none": every candidate's computed by the request), the first 10 with every state they
  need on disk (as a new process finds them: "disk"), then again with them in memory too
  ("repeat"); and ``agent-sleep search QUERY --budget-tokens 4000`` in a new process (median
  of 3) as "new" and with the queries' states on disk,
- cold search: ``agent-sleep search QUERY`` in a new process with the index cached (median of 5;
  the checkout's bytecode compiled first, as an installed package's is),
- one new note: the re-index after ``micro_rest`` appends one note (notes embedded, seconds;
  only the index's tail part is rewritten, see references/recall.md),
- next search: in the same process, a search right after another new note (it brings the
  index up to date and reads it back first),
- merge: the rewrite of every part, reusing all stored vectors, that happens when the index's
  tail part passes 10% of the units or an old log is edited,
- backlog: the first ``recall`` over a copy of the notes with no index (a backlog imported
  in bulk): it answers from BM25 and leaves the embedding to a background job (which the bench
  does not start: the build column is that work),

``--bm25-only-sizes`` measures sizes whose embedding would take too long on the machine at hand
through the BM25 route only (no vectors; labelled so in the table).

and, on the largest workspace, ``agent-sleep context`` (no query) against
``python -c "import click"``, measured alternately, medians of 20 runs each.

Workspaces are kept under ``--work`` so a rerun skips generation and embedding (it reprints
the build figures recorded when the index was built, and measures everything else anew).

    python bench/bench_speed.py [--sizes 1000,10000,100000] [--work DIR]
"""

from __future__ import annotations

import argparse
import compileall
import datetime as dt
import importlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent_sleep.core import notes  # noqa: E402
from agent_sleep.core.notes import RETAIN_HEADING, day_header  # noqa: E402
from agent_sleep.core.rest import micro_rest  # noqa: E402
from agent_sleep.core.workspace import Workspace  # noqa: E402
from agent_sleep.retrieval import index  # noqa: E402
from agent_sleep.retrieval.embed import NUMPY_TEXTS  # noqa: E402
from agent_sleep.retrieval.recall import Fusion, recall  # noqa: E402
from agent_sleep.retrieval.token_states import STATES  # noqa: E402

PEOPLE = [
    *("Alice", "Bilal", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana"),
    *("Ivan", "Jun", "Kofi", "Lena", "Mateo", "Nadia", "Omar"),
]
VERBS = [
    *("deployed", "fixed", "reviewed", "discussed", "planned"),
    *("tested", "migrated", "documented", "rolled back"),
]
THINGS = [
    "the billing service",
    "the login page",
    "the search index",
    "the staging database",
    "the mobile app",
    "the payment webhook",
    "the onboarding flow",
    "the metrics dashboard",
    "the email templates",
    "the API gateway",
    "the cache layer",
    "the CI pipeline",
]
DETAILS = [
    "after the outage",
    "with a retry and backoff",
    "because latency doubled",
    "for the Berlin customer",
    "before the quarterly release",
    "using feature flags",
    "while on call",
    "with help from the data team",
    "to cut costs",
    "as the user asked",
]
END = dt.date(2026, 6, 30)


def note_text(rng: random.Random) -> str:
    who, verb, thing, detail = (
        rng.choice(PEOPLE),
        rng.choice(VERBS),
        rng.choice(THINGS),
        rng.choice(DETAILS),
    )
    return f"{who} {verb} {thing} {detail} (ticket #{rng.randint(1000, 99999)})"


def generate(folder: Path, count: int, seed: int = 7) -> Workspace:
    """``count`` notes over 365 daily logs, written in the note format like micro_rest does."""
    ws = Workspace.at(folder).ensure()
    rng = random.Random(seed)
    days = [END - dt.timedelta(days=d) for d in range(364, -1, -1)]
    per_day = [count // 365 + (1 if i < count % 365 else 0) for i in range(365)]
    for day, n in zip(days, per_day, strict=True):
        lines = [day_header(day), RETAIN_HEADING + "\n\n"]
        for j in range(n):
            minute = (j * 1439) // max(n, 1)
            lines.append(
                notes.render_note(
                    notes.Note(
                        type=rng.choice("WBO"),
                        text=note_text(rng),
                        id=notes.new_id(),
                        time=f"{minute // 60:02d}:{minute % 60:02d}",
                        confidence=0.8,
                        meta={"source": f"msg-{rng.randint(1, 10**6)}"},
                    )
                )
            )
        ws.write_text(ws.day_log(day), "".join(lines))
    return ws


def queries(n: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    forms = [
        "when did {p} work on {t}",
        "what happened with {t} {d}",
        "who {v} {t}",
        "{t} problems",
        "why was {t} {v}",
    ]
    out = []
    for _ in range(n):
        form = rng.choice(forms)
        out.append(
            form.format(
                p=rng.choice(PEOPLE),
                t=rng.choice(THINGS),
                d=rng.choice(DETAILS),
                v=rng.choice(VERBS),
            )
        )
    return out


def cli(*args: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "agent_sleep", *args], capture_output=True, env=env)
    elapsed = time.perf_counter() - start
    if r.returncode != 0:
        raise SystemExit(f"agent-sleep {' '.join(args)} failed: {r.stderr.decode()}")
    return elapsed


def click_import() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import click"], check=True)
    return time.perf_counter() - start


def measure(folder: Path, count: int, vectors: bool = True) -> dict[str, Any]:
    marker = folder / ".agent-sleep" / "bench-generated"
    if not marker.exists():
        if folder.exists():
            shutil.rmtree(folder)
        generate(folder, count)
        marker.write_text(str(count))
    ws = Workspace.at(folder)
    record = folder / ".agent-sleep" / "bench-build.json"
    full = not (index.index_dir(ws) / index.MANIFEST).exists()
    start = time.perf_counter()
    report = index.update(ws, vectors=vectors)
    build = time.perf_counter() - start
    embedded = report.embedded
    built_at = time.time()
    if full or embedded >= 0.9 * report.units:  # keep a (re)build's figures for reruns
        record.write_text(json.dumps({"build_s": build, "embedded": embedded, "at": built_at}))
    elif record.exists():
        saved = json.loads(record.read_text())
        build, embedded = saved["build_s"], saved["embedded"]
        built_at = saved.get("at", built_at)
    fusion = Fusion() if vectors else Fusion(vector_weight=0.0, text_weight=1.0)
    flags = [] if vectors else ["--bm25-only"]
    qs = list(dict.fromkeys(queries(80)))[:40]
    # a query seen before (at another size) would skip the model through recall's query cache
    importlib.import_module("agent_sleep.retrieval.recall")._query_vectors.clear()
    recall(ws, "warm up", k=6, fusion=fusion)
    warm = []
    for q in qs:
        t = time.perf_counter()
        recall(ws, q, k=6, fusion=fusion)
        warm.append(time.perf_counter() - t)
    # 40 other new queries, past the process's first texts (which the model runs in numpy
    # for a cold start's sake, about 15 ms a query against 4 ms once onnxruntime is loaded)
    steady = []
    for q in [q for q in dict.fromkeys(queries(400)) if q not in qs][:40]:
        t = time.perf_counter()
        recall(ws, q, k=6, fusion=fusion)
        steady.append(time.perf_counter() - t)
    sketch = sketch_coverage(ws, qs) if vectors else None
    sketch_ab = warm_without_sketch(ws, qs, fusion) if sketch else None
    cold = [cli("search", q, "-w", str(folder), "-k", "6", *flags) for q in qs[:5]]
    tokens = ws.state_dir / "tokens"

    def forget(disk: bool) -> None:
        """No state in memory; on disk (``disk``) only those the index build left."""
        STATES.clear()
        if disk:
            for f in tokens.rglob("*.npy"):
                if f.stat().st_mtime > built_at:
                    f.unlink()

    deep_new, deep_again, deep_disk, deep_none = [], [], [], []
    for q in qs[:10]:
        forget(disk=True)
        t = time.perf_counter()
        recall(ws, q, budget_tokens=4000, fusion=fusion)
        deep_new.append(time.perf_counter() - t)
    kept = ws.state_dir / "tokens-kept"
    shutil.rmtree(kept, ignore_errors=True)
    if tokens.exists():
        tokens.rename(kept)
    for q in qs[10:20]:  # no states at all: every candidate's computed now
        STATES.clear()
        shutil.rmtree(tokens, ignore_errors=True)
        t = time.perf_counter()
        recall(ws, q, budget_tokens=4000, fusion=fusion)
        deep_none.append(time.perf_counter() - t)
    shutil.rmtree(tokens, ignore_errors=True)
    if kept.exists():
        kept.rename(tokens)
    for q in qs[:10]:  # untimed: every query's states on disk
        recall(ws, q, budget_tokens=4000, fusion=fusion)
    for q in qs[:10]:
        forget(disk=False)
        t = time.perf_counter()
        recall(ws, q, budget_tokens=4000, fusion=fusion)
        deep_disk.append(time.perf_counter() - t)
    for q in qs[:10]:
        t = time.perf_counter()
        recall(ws, q, budget_tokens=4000, fusion=fusion)
        deep_again.append(time.perf_counter() - t)
    deep_cold = [
        cli("search", q, "-w", str(folder), "--budget-tokens", "4000", *flags) for q in qs[:3]
    ]
    forget(disk=True)
    deep_cold_new = [
        cli("search", q, "-w", str(folder), "--budget-tokens", "4000", *flags) for q in qs[3:6]
    ]
    forget(disk=True)
    micro_rest(f"Alice moved the search index to cluster {time.time_ns()}", "B", workspace=ws)
    t = time.perf_counter()
    one = index.update(ws, vectors=vectors)
    one_s = time.perf_counter() - t
    # the rewrite of every part that merges a grown tail (or follows an edit of an old log),
    # reusing every stored vector; a +1 note update costs up to ~10% of it before a merge
    old = index._read(ws, vectors=False)
    t = time.perf_counter()
    with index._writer_lock(index.index_dir(ws)):
        index._rewrite(ws, index.index_dir(ws), index.scan(ws), [old], index.embedder(ws))
    merge_s = time.perf_counter() - t
    del old
    recall(ws, "warm up again", k=6, fusion=fusion)
    micro_rest(f"Bilal fixed the cache layer {time.time_ns()}", "B", workspace=ws)
    t = time.perf_counter()
    recall(ws, "who fixed the cache layer", k=6, fusion=fusion)  # updates the index first
    after_s = time.perf_counter() - t
    backlog_s = first_search_over_backlog(folder, vectors) if vectors else float("nan")
    return {
        "sketch": sketch,
        "sketch_ab_ms": sketch_ab,
        "backlog_s": backlog_s,
        "vectors": vectors,
        "notes": report.units,
        "build_s": build,
        "embedded": embedded,
        "warm_p50_ms": 1000 * statistics.median(warm),
        "warm_p95_ms": 1000 * sorted(warm)[int(0.95 * len(warm)) - 1],
        "steady_p50_ms": 1000 * statistics.median(steady),
        "steady_p95_ms": 1000 * sorted(steady)[int(0.95 * len(steady)) - 1],
        "cold_s": statistics.median(cold),
        "cold_max_s": max(cold),
        "deep_new_ms": 1000 * statistics.median(deep_new),
        "deep_none_ms": 1000 * statistics.median(deep_none),
        "deep_again_ms": 1000 * statistics.median(deep_again),
        "deep_cold_s": statistics.median(deep_cold),
        "deep_cold_new_s": statistics.median(deep_cold_new),
        "deep_disk_ms": 1000 * statistics.median(deep_disk),
        "one_embedded": one.embedded,
        "one_s": one_s,
        "after_s": after_s,
        "merge_s": merge_s,
    }


def sketch_coverage(ws: Workspace, qs: list[str], best: int = 50) -> tuple[int, int] | None:
    """For how many of ``qs`` a shallow search's shortlist (4 × 50 rows by the sketch, see
    ``retrieval/index_matrix.py``) holds all of the exact ``best`` rows by cosine; None below
    the size that uses a sketch."""
    import numpy as np

    from agent_sleep.retrieval import index_matrix

    loaded = index.open_index(ws)
    model = index.embedder(ws)
    vectors = loaded.vectors
    if model is None or vectors is None or len(vectors) < index_matrix.SKETCH_FROM:
        return None
    held = 0
    for q in qs:
        v = model.embed_query(q)
        exact = np.argpartition(-(vectors @ v), best - 1)[:best]
        got = vectors.cosines(v, 4 * best, np.array([], dtype=np.int64))
        held += bool((got[exact] != index_matrix.UNSEEN).all())
    return held, len(qs)


def warm_without_sketch(ws: Workspace, qs: list[str], fusion: Fusion) -> tuple[float, float]:
    """Warm p50 with the sketch and with every vector read, query by query in turn (the
    query's vector forgotten before each run, so both embed it): (sketch, full) in ms."""
    from agent_sleep.retrieval import index_matrix

    cache = importlib.import_module("agent_sleep.retrieval.recall")._query_vectors
    saved = index_matrix.SKETCH_FROM
    times: dict[bool, list[float]] = {True: [], False: []}
    try:
        for q in qs:
            for sketch in (False, True):
                index_matrix.SKETCH_FROM = saved if sketch else 1 << 62
                cache.clear()
                t = time.perf_counter()
                recall(ws, q, k=6, fusion=fusion)
                times[sketch].append(time.perf_counter() - t)
    finally:
        index_matrix.SKETCH_FROM = saved
    return 1000 * statistics.median(times[True]), 1000 * statistics.median(times[False])


def first_search_over_backlog(folder: Path, vectors: bool) -> float:
    """The first ``recall`` over the same notes with no index at all (a backlog imported in
    bulk): it answers from the files by BM25 and leaves the index to a background job, which
    the bench does not start (its work is what the build column measures)."""
    from agent_sleep.retrieval import backlog

    copy = folder.parent / f"{folder.name}-backlog"
    shutil.rmtree(copy, ignore_errors=True)
    copy.mkdir()
    shutil.copytree(folder / "memory", copy / "memory")
    start = backlog.start
    backlog.start = lambda ws: True
    try:
        t = time.perf_counter()
        recall(copy, "who fixed the cache layer", k=6)
        took = time.perf_counter() - t
    finally:
        backlog.start = start
    shutil.rmtree(copy, ignore_errors=True)
    return took


def context_vs_click(folder: Path, runs: int = 20) -> tuple[float, float]:
    ctx, clk = [], []
    for _ in range(runs):
        ctx.append(cli("context", "-w", str(folder)))
        clk.append(click_import())
    return statistics.median(ctx), statistics.median(clk)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument(
        "--bm25-only-sizes",
        default="",
        help="Sizes measured without embeddings (BM25 path only), e.g. 100000.",
    )
    parser.add_argument("--work", default="/tmp/agent-sleep-bench/speed")
    parser.add_argument(
        "--base",
        default="",
        help="A checkout of an earlier commit (e.g. a git worktree): its own bench_speed runs "
        "after ours, on workspaces of its own under WORK/base, and its table is printed too.",
    )
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    plain = [int(s) for s in args.bm25_only_sizes.split(",") if s]
    work = Path(args.work)
    # new processes read the checkout's bytecode, as an installed package's (with
    # PYTHONDONTWRITEBYTECODE set, a module edited since would be compiled in every one)
    compileall.compile_dir(ROOT / "agent_sleep", quiet=1)
    rows = []
    for size in sizes:
        rows.append(measure(work / f"ws-{size}", size))
        print(f"measured {size} notes", file=sys.stderr)
    for size in plain:
        rows.append(measure(work / f"ws-{size}-bm25", size, vectors=False))
        print(f"measured {size} notes, BM25 only", file=sys.stderr)
    print(f"Recall speed, {os.cpu_count()} cores, synthetic notes over 365 daily logs")
    print(
        f"{'notes':>7} {'build s':>8} {'emb/s':>6} {'warm p50 ms':>11} {'p95 ms':>7} "
        f"{'cold search s':>13} {'max':>5} {'+1 note: embedded':>17} {'s':>5} "
        f"{'next search s':>13} {'merge s':>7} {'backlog s':>9}  route"
    )
    deep = []
    for r in rows:
        rate = r["embedded"] / r["build_s"] if r["embedded"] else 0.0
        print(
            f"{r['notes']:>7.0f} {r['build_s']:>8.1f} {rate:>6.0f} {r['warm_p50_ms']:>11.1f} "
            f"{r['warm_p95_ms']:>7.1f} {r['cold_s']:>13.2f} {r['cold_max_s']:>5.2f} "
            f"{r['one_embedded']:>17.0f} "
            f"{r['one_s']:>5.2f} {r['after_s']:>13.2f} {r['merge_s']:>7.2f} "
            f"{r.get('backlog_s', float('nan')):>9.2f}  "
            f"{'hybrid' if r['vectors'] else 'BM25 only'}"
        )
        deep.append(
            f"{r['notes']:>7.0f} {r['deep_new_ms']:>10.0f} {r['deep_none_ms']:>12.0f} "
            f"{r['deep_disk_ms']:>13.0f} {r['deep_again_ms']:>14.1f} "
            f"{r['deep_cold_new_s']:>18.2f} {r['deep_cold_s']:>19.2f}"
        )
    for r in rows:
        print(
            f"{r['notes']:>7.0f} notes: warm p50 / p95 over 40 other new queries once the "
            f"model's runtime is loaded (a long-lived process past its first "
            f"{NUMPY_TEXTS} texts): {r['steady_p50_ms']:.1f} / {r['steady_p95_ms']:.1f} ms"
        )
    for r in rows:
        if r.get("sketch"):
            held, asked = r["sketch"]
            print(
                f"{r['notes']:>7.0f} notes: the sketch's shortlist held the exact best 50 by "
                f"cosine for {held} of {asked} queries; warm p50, the same queries in turn: "
                f"{r['sketch_ab_ms'][0]:.1f} ms with it, {r['sketch_ab_ms'][1]:.1f} ms "
                "reading every vector"
            )
    print("Deep recall (budget_tokens=4000: feedback + late-interaction rerank)")
    print(
        f"{'notes':>7} {'new p50 ms':>10} {'none p50 ms':>12} {'disk p50 ms':>13} "
        f"{'repeat p50 ms':>14} "
        f"{'cold search s: new':>18} {'cold, states on disk':>19}"
    )
    print("\n".join(deep))
    largest = max([*sizes, *plain])
    folder = work / (f"ws-{largest}" if largest in sizes else f"ws-{largest}-bm25")
    ctx, clk = context_vs_click(folder)
    print(
        f"agent-sleep context (no query), {largest} notes: {1000 * ctx:.0f} ms median; "
        f'python -c "import click": {1000 * clk:.0f} ms; ratio {ctx / clk:.2f}'
    )
    if args.base:
        base = Path(args.base)
        print(f"\nThe same benchmark, commit before ({base}), in this run:", flush=True)
        cmd = [sys.executable, str(base / "bench/bench_speed.py"), "--sizes", args.sizes]
        cmd += ["--work", str(work / "base")]
        if args.bm25_only_sizes:
            cmd += ["--bm25-only-sizes", args.bm25_only_sizes]
        env = {**os.environ, "PYTHONPATH": str(base)}
        # cwd: ``python -m`` puts the working folder first on sys.path, which would run
        # this checkout's package in the base's CLI timings
        subprocess.run(cmd, env=env, check=True, stderr=subprocess.DEVNULL, cwd=base)


if __name__ == "__main__":
    main()
