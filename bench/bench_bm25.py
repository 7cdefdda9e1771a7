"""BM25 backends side by side: ours (agent_sleep.retrieval.bm25), rank-bm25 and bm25s.

Every backend indexes the same terms: ``agent_sleep.retrieval.bm25.tokenize`` of each recall
unit's indexed text, exactly as the search index stores them, and is queried with
``tokenize(query)``.

- ours: ``agent_sleep.retrieval.bm25.BM25`` (Okapi, k1=1.2, b=0.75,
  idf ``ln(1 + (N-df+0.5)/(df+0.5))``, repeated query terms counted once),
- rank-bm25: ``rank_bm25.BM25Okapi`` as shipped (k1=1.5, b=0.75, idf ``ln((N-df+0.5)/(df+0.5))``
  floored at 0.25 × the mean idf for terms in more than half the documents), and with k1=1.2,
- bm25s: ``bm25s.BM25(k1=1.2, b=0.75, method="lucene")`` fed token ids (Lucene's BM25 is ours
  divided by k1+1, so it ranks the same), and with repeated query terms given once.

1. Quality: LoCoMo evidence recall at each budget, BM25 alone. Units are ranked by the
   backend's score (units scoring 0 are left out, ties by position), packed greedily by rank
   into the budget (``agent_sleep.retrieval.recall.count_tokens``), and scored as bench_recall
   does: the
   share of the question's gold evidence among the packed units' sources. Also printed: the
   product's own BM25-only route (``recall`` with the vector weight at 0: sessions and
   near-duplicate folding on top of our scores), the number of questions a backend scores
   higher / lower than ours, and the mean share of our top 10 units that each backend also ranks
   in its top 10.
2. In the product: ``recall`` as shipped (its BM25-only route and the hybrid with MiniLM), with
   rank-bm25 and bm25s put in place of the index's BM25; each row is compared question by
   question with the same route on ours.
3. Speed and memory on the synthetic workspaces of bench_speed.py: per backend, in a process of
   its own, build seconds (median of 3); peak and retained memory of a build (``tracemalloc``,
   which numpy reports to; the input terms are not counted); query p50/p95 over 40 distinct
   queries (score every unit, then top 10 by ``argpartition``); size on disk when saved and
   load time; and each library's import time in a new process. Build and load include the
   first query, since a backend may finish its work then (ours computes its weights).

The workspaces of bench_recall and bench_speed are only read: their notes (for part 2 with
their index and embeddings) are copied under ``--work/bm25`` and indexed there, so their own
index is never rebuilt or written.

    python bench/bench_bm25.py [--data PATH] [--work DIR] [--budgets 1000,4000]
                               [--sizes 10000,100000] [--parts quality,recall,speed,imports]
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import pickle
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent_sleep.core.workspace import Workspace  # noqa: E402
from agent_sleep.retrieval import index as search_index  # noqa: E402
from agent_sleep.retrieval.bm25 import BM25, tokenize  # noqa: E402
from agent_sleep.retrieval.recall import Fusion, count_tokens  # noqa: E402
from agent_sleep.retrieval.units import iter_units  # noqa: E402
from bench import locomo  # noqa: E402

TOP = 10  # top-k of the speed queries and of the ranking agreement
QUERIES = 40
BUILDS = 3  # timed builds per backend (median); the machine may be shared


@dataclass(frozen=True)
class Backend:
    """One way to build and query BM25: ``build(docs)`` returns a model, ``scores(model, terms)``
    the score of every document; ``save``/``load`` are None when the library cannot persist."""

    name: str
    build: Callable[[list[list[str]]], Any]
    scores: Callable[[Any, list[str]], Any]
    save: Callable[[Any, Path], None] | None
    load: Callable[[Path], Any] | None
    module: str  # what ``import`` costs for this backend


def _ours_save(model: BM25, folder: Path) -> None:
    import numpy as np

    # The layout the search index writes (the index keeps the count in its manifest).
    arrays = model.arrays()
    np.savez(folder / "bm25.npz", vocab=np.array(model.terms(), dtype=str), **arrays)
    (folder / "manifest.json").write_text(json.dumps({"units": model.count}))


def _ours_load(folder: Path) -> BM25:
    import numpy as np

    count = json.loads((folder / "manifest.json").read_text())["units"]
    with np.load(folder / "bm25.npz") as z:
        arrays = {k: z[k] for k in z.files if k != "vocab"}
        vocab = z["vocab"].tolist()
    return BM25.from_arrays(vocab, arrays, count)


def _rank_bm25(k1: float | None) -> Callable[[list[list[str]]], Any]:
    def build(docs: list[list[str]]) -> Any:
        from rank_bm25 import BM25Okapi

        return BM25Okapi(docs) if k1 is None else BM25Okapi(docs, k1=k1, b=0.75)

    return build


def _pickle_save(model: Any, folder: Path) -> None:
    with open(folder / "model.pickle", "wb") as f:
        pickle.dump(model, f, protocol=pickle.HIGHEST_PROTOCOL)


def _pickle_load(folder: Path) -> Any:
    with open(folder / "model.pickle", "rb") as f:
        return pickle.load(f)


def _bm25s_build(docs: list[list[str]]) -> Any:
    import bm25s

    vocab: dict[str, int] = {}
    ids = [[vocab.setdefault(t, len(vocab)) for t in doc] for doc in docs]
    model = bm25s.BM25(k1=1.2, b=0.75, method="lucene")
    model.index((ids, vocab), show_progress=False)
    return model


def _bm25s_scores(model: Any, terms: list[str]) -> Any:
    return model.get_scores_from_ids(model.get_tokens_ids(terms))


def _bm25s_save(model: Any, folder: Path) -> None:
    model.save(folder, show_progress=False)


def _bm25s_load(folder: Path) -> Any:
    import bm25s

    return bm25s.BM25.load(folder)


BACKENDS = {
    "ours": Backend(
        "ours",
        BM25.build,
        lambda m, q: m.scores(q),
        _ours_save,
        _ours_load,
        "agent_sleep.retrieval.bm25",
    ),
    "rank-bm25": Backend(
        "rank-bm25",
        _rank_bm25(None),
        lambda m, q: m.get_scores(q),
        None,
        None,
        "rank_bm25",
    ),
    "rank-bm25 k1=1.2": Backend(
        "rank-bm25 k1=1.2",
        _rank_bm25(1.2),
        lambda m, q: m.get_scores(q),
        None,
        None,
        "rank_bm25",
    ),
    "bm25s": Backend("bm25s", _bm25s_build, _bm25s_scores, _bm25s_save, _bm25s_load, "bm25s"),
    # bm25s counts a repeated query term twice, ours once: the one difference in ranking.
    "bm25s terms once": Backend(
        "bm25s terms once",
        _bm25s_build,
        lambda m, q: _bm25s_scores(m, list(dict.fromkeys(q))),
        None,
        None,
        "bm25s",
    ),
}
QUALITY = ("ours", "rank-bm25", "rank-bm25 k1=1.2", "bm25s", "bm25s terms once")
SPEED = ("ours", "rank-bm25", "bm25s")  # rank-bm25's k1 does not change its cost
IMPORTS = {
    "python -c pass": "pass",
    "numpy": "import numpy",
    "ours (agent_sleep.retrieval.bm25 + numpy)": "import agent_sleep.retrieval.bm25, numpy",
    "rank_bm25": "import rank_bm25",
    "bm25s": "import bm25s",
}


# --- workspaces ---------------------------------------------------------------------------


def copy_notes(folder: Path, spare: Path) -> Workspace:
    """A copy of the notes of ``folder`` (its Markdown, not its ``.agent-sleep``) under ``spare``.

    The benchmark indexes and reads only the copy, so the workspaces of the other benchmarks
    (and their embeddings) are never written, whatever the state of their index or of the code.
    Files keep their mtimes, so the copy's index stays current across reruns."""
    copy = spare / folder.name
    source = Workspace.at(folder)
    if copy.exists() and set(search_index.scan(Workspace.at(copy))) != set(
        search_index.scan(source)
    ):
        shutil.rmtree(copy)
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns(".agent-sleep"), dirs_exist_ok=True)
    return Workspace.at(copy)


def index_tokens(ws: Workspace) -> list[list[str]]:
    """The BM25 terms of every unit, as the index stores them (``tokenize(unit.indexed)``);
    ``ws`` is a copy made by ``copy_notes`` (opening an index may rebuild it)."""
    loaded = search_index.open_index(ws, vectors=False)
    return [t.split() for t in loaded.tokens]


def fresh_tokens(ws: Workspace) -> list[list[str]]:
    """The same terms computed from the files now, in the index's order."""
    out = []
    for rel in search_index.scan(ws):
        for unit in iter_units(rel, ws.read_text(ws.root / rel)):
            out.append(tokenize(unit.indexed))
    return out


# --- 1. quality ---------------------------------------------------------------------------


def pack(order: Sequence[int], costs: Sequence[int], budget: int) -> list[int]:
    """Greedy by rank, as recall packs: each unit that still fits is taken."""
    out, used = [], 0
    for row in order:
        if budget - used < 2:
            break
        if used + costs[row] > budget:
            continue
        out.append(row)
        used += costs[row]
    return out


def ranking(scores: Any) -> list[int]:
    import numpy as np

    order = np.argsort(-np.asarray(scores, dtype=np.float64), kind="stable")
    return [int(r) for r in order if scores[r] > 0]


def quality(data: str, work: Path, budgets: list[int]) -> None:
    from bench.bench_recall import evidence_recall, run, workspace_for

    scores: dict[tuple[str, int, int], list[float]] = defaultdict(list)
    overlap: dict[str, list[float]] = defaultdict(list)
    samples = locomo.load(data)
    units_total = 0
    for sample in samples:
        ws = copy_notes(workspace_for(sample, work / "locomo"), work / "bm25" / "locomo")
        docs = index_tokens(ws)
        if docs != fresh_tokens(ws):
            raise SystemExit(f"{ws.root}: the index's terms differ from tokenize(unit.indexed)")
        loaded = search_index.open_index(ws, vectors=False)
        costs = [count_tokens(loaded.units[r].text) for r in range(len(docs))]
        sources = [set(loaded.sources[r]) for r in range(len(docs))]
        units_total += len(docs)
        models = {name: BACKENDS[name].build(docs) for name in QUALITY}
        for q in locomo.questions(sample):
            terms = tokenize(q.question)
            tops: dict[str, set[int]] = {}
            for name in QUALITY:
                order = ranking(BACKENDS[name].scores(models[name], terms))
                tops[name] = set(order[:TOP])
                for budget in budgets:
                    found = {s for r in pack(order, costs, budget) for s in sources[r]}
                    scores[(name, budget, q.category)].append(_share(found, q.evidence))
            for name in QUALITY:
                shared = len(tops[name] & tops["ours"]) / max(len(tops["ours"]), 1)
                overlap[name].append(shared if tops["ours"] else float(not tops[name]))
            for budget in budgets:
                fusion = Fusion(vector_weight=0.0, text_weight=1.0)
                hits = run("bm25", ws, q.question, budget, fusion)
                scores[("recall --bm25-only", budget, q.category)].append(
                    evidence_recall(hits, q.evidence)
                )
    count = sum(len(locomo.questions(s)) for s in samples)
    print(
        f"LoCoMo evidence recall, BM25 only: {len(samples)} conversations, {units_total} units, "
        f"{count} questions (categories 1-4)"
    )
    print(f"data: {data}")
    table(scores, [*QUALITY, "recall --bm25-only"], budgets, lambda _: "ours", overlap)


Scores = dict[tuple[str, int, int], list[float]]


def table(
    scores: Scores,
    rows: Sequence[str],
    budgets: list[int],
    reference: Callable[[str], str],
    overlap: dict[str, list[float]] | None = None,
) -> None:
    """Evidence recall per category and overall, and how many questions each row scores
    higher / lower than its ``reference(row)`` (same questions, same order)."""
    cats = sorted(locomo.CATEGORIES)
    print(
        f"{'backend':<19} {'budget':>6} "
        + " ".join(f"{locomo.CATEGORIES[c]:>11}" for c in cats)
        + f" {'overall':>8} {'vs ours +/-':>11}"
        + (f" {'top-10 overlap':>14}" if overlap is not None else "")
    )
    for budget in budgets:
        for name in rows:
            total: list[float] = []
            cells = []
            better = worse = 0
            for c in cats:
                vals = scores[(name, budget, c)]
                total += vals
                cells.append(f"{100 * sum(vals) / max(len(vals), 1):10.1f}%")
                for mine, theirs in zip(vals, scores[(reference(name), budget, c)], strict=True):
                    better += mine > theirs
                    worse += mine < theirs
            paired = f"+{better}/-{worse}"
            overall = 100 * sum(total) / max(len(total), 1)
            line = f"{name:<19} {budget:>6} " + " ".join(cells) + f" {overall:7.1f}% {paired:>11}"
            if overlap is not None:
                same = overlap.get(name)
                line += f" {100 * sum(same) / len(same):13.1f}%" if same else f" {'-':>14}"
            print(line)


def _share(found: set[str], evidence: tuple[str, ...]) -> float:
    if not evidence:
        return 1.0
    return sum(e in found for e in evidence) / len(evidence)


# --- 2. in the product's recall -----------------------------------------------------------


class Substitute:
    """Another backend in the index's place: recall asks the index's BM25 for ``scores`` (of
    every unit) and ``df`` (near-duplicate folding, feedback terms and the rerank's IDF),
    nothing else."""

    def __init__(self, backend: Backend, docs: list[list[str]]) -> None:
        from collections import Counter

        self.backend = backend
        self.model = backend.build(docs)
        self._df: Counter[str] = Counter()
        for doc in docs:
            self._df.update(set(doc))

    def scores(self, terms: Sequence[str]) -> Any:
        import numpy as np

        return np.asarray(self.backend.scores(self.model, list(terms)), dtype=np.float32)

    def df(self, term: str) -> int:
        return self._df[term]


def in_recall(data: str, work: Path, budgets: list[int]) -> None:
    """``recall`` as shipped (BM25-only route and hybrid), with each backend in place of ours."""
    from bench.bench_recall import evidence_recall, run, workspace_for

    scores: Scores = defaultdict(list)
    samples = locomo.load(data)
    for sample in samples:
        source = workspace_for(sample, work / "locomo")
        copy = work / "bm25" / "recall" / source.name
        # With its index and embeddings this time, so the hybrid rows embed nothing.
        shutil.copytree(source, copy, dirs_exist_ok=True)
        ws = Workspace.at(copy)
        loaded = search_index.open_index(ws)
        if loaded.vectors is None:
            raise SystemExit("the embedding model is not available; the hybrid rows need it")
        docs = [t.split() for t in loaded.tokens]
        backends = {"ours": loaded.bm25, **{n: Substitute(BACKENDS[n], docs) for n in SPEED[1:]}}
        for q in locomo.questions(sample):
            for name, bm25 in backends.items():
                loaded.bm25 = bm25  # type: ignore[assignment]
                for method in ("bm25", "hybrid"):
                    for budget in budgets:
                        hits = run(method, ws, q.question, budget, Fusion())
                        scores[(f"{method} {name}", budget, q.category)].append(
                            evidence_recall(hits, q.evidence)
                        )
            if search_index.open_index(ws) is not loaded:
                raise SystemExit(f"{ws.root}: the index was reloaded; the substitution was lost")
    count = sum(len(locomo.questions(s)) for s in samples)
    print(
        f"LoCoMo evidence recall through recall() with each backend in place of ours: "
        f"{len(samples)} conversations, {count} questions"
    )
    rows = [f"{m} {n}" for m in ("bm25", "hybrid") for n in SPEED]
    table(scores, rows, budgets, lambda row: row.split()[0] + " ours")


# --- 3. speed and memory ------------------------------------------------------------------


def worker(name: str, folder: Path) -> dict[str, Any]:
    """Measure one backend on one workspace, in this process (run as ``--worker``)."""
    import importlib

    import numpy as np

    from bench.bench_speed import queries

    backend = BACKENDS[name]
    importlib.import_module(backend.module)
    docs = index_tokens(Workspace.at(folder))
    search_index._loaded.clear()  # only the terms are input; the rest of the index goes
    qs = [tokenize(q) for q in queries(QUERIES)]

    def top(m: Any, q: list[str]) -> Any:
        s = np.asarray(backend.scores(m, q))
        k = min(TOP, len(s))
        return np.argpartition(-s, k - 1)[:k]

    def ready(make: Callable[[], Any]) -> Any:
        """A model that has answered one query: a backend may finish its work on first use
        (ours computes its posting weights then)."""
        m = make()
        top(m, qs[0])
        return m

    builds = []
    for _ in range(BUILDS):
        gc.collect()
        start = time.perf_counter()
        model = ready(lambda: backend.build(docs))
        builds.append(time.perf_counter() - start)
        del model
    gc.collect()
    # Memory from another build under tracemalloc (it slows the build, so not a timed one):
    # RSS would hide what a build takes from arenas the loaded index left free.
    tracemalloc.start()
    model = ready(lambda: backend.build(docs))
    gc.collect()
    retained, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    times = []
    for q in qs:
        t = time.perf_counter()
        top(model, q)
        times.append(time.perf_counter() - t)
    times.sort()
    saver, loader = backend.save, backend.load
    if saver is None or loader is None:
        saver, loader, how = _pickle_save, _pickle_load, "pickle"
    else:
        how = "native"
    with tempfile.TemporaryDirectory(prefix="bench-bm25-") as tmp:
        saver(model, Path(tmp))
        size = sum(p.stat().st_size for p in Path(tmp).rglob("*") if p.is_file())
        del model
        gc.collect()
        start = time.perf_counter()
        ready(lambda: loader(Path(tmp)))
        load_s = time.perf_counter() - start
    return {
        "backend": name,
        "docs": len(docs),
        "build_s": statistics.median(builds),
        "peak_mb": peak / 2**20,
        "retained_mb": retained / 2**20,
        "p50_ms": 1000 * statistics.median(times),
        "p95_ms": 1000 * times[int(0.95 * len(times)) - 1],
        "saved_mb": size / 2**20,
        "saved_as": how,
        "load_s": load_s,
    }


def speed(work: Path, sizes: list[int], speed_dir: Path) -> None:
    rows = []
    for size in sizes:
        folder = speed_dir / f"ws-{size}"
        if not folder.exists():
            from bench.bench_speed import generate

            folder = work / "bm25" / "generated" / f"ws-{size}"
            if not folder.exists():
                generate(folder, size)
        ws = copy_notes(folder, work / "bm25" / "speed")
        search_index.open_index(ws, vectors=False)  # built here, not in each worker
        search_index._loaded.clear()
        for name in SPEED:
            env = {**os.environ, "PYTHONPATH": str(ROOT)}
            cmd = [sys.executable, __file__, "--worker", name, "--workspace", str(ws.root)]
            r = subprocess.run(cmd, capture_output=True, text=True, env=env)
            if r.returncode != 0:
                raise SystemExit(f"{name} on {ws.root} failed:\n{r.stderr}")
            rows.append(json.loads(r.stdout.strip().splitlines()[-1]))
            print(f"measured {name} on {rows[-1]['docs']} units", file=sys.stderr)
    print(f"BM25 speed and memory, {os.cpu_count()} cores, synthetic notes (bench_speed.py)")
    print(
        f"{'units':>7} {'backend':<10} {'build s':>8} {'peak MB':>8} {'kept MB':>8} "
        f"{'p50 ms':>7} {'p95 ms':>7} {'saved MB':>13} {'load s':>7}"
    )
    for r in rows:
        saved = f"{r['saved_mb']:.1f}" + ("" if r["saved_as"] == "native" else " (pickle)")
        print(
            f"{r['docs']:>7} {r['backend']:<10} {r['build_s']:>8.2f} {r['peak_mb']:>8.0f} "
            f"{r['retained_mb']:>8.0f} {r['p50_ms']:>7.2f} {r['p95_ms']:>7.2f} {saved:>13} "
            f"{r['load_s']:>7.3f}"
        )
    print(
        "build / load s: up to the first answer; "
        "peak / kept MB: allocated during the build / still held by the index (tracemalloc)"
    )
    print(f"p50/p95: score every unit, then top {TOP} by argpartition; {QUERIES} distinct queries")


def imports(runs: int = 7) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    times: dict[str, list[float]] = defaultdict(list)
    for _ in range(runs):  # alternated, so a busy moment hits every library alike
        for label, code in IMPORTS.items():
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, env=env)
            times[label].append(time.perf_counter() - start)
    print(f"Import time in a new process, median of {runs}")
    for label, vals in times.items():
        print(f"{label:<34} {1000 * statistics.median(vals):6.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=str(locomo.DEFAULT_PATH))
    parser.add_argument(
        "--work",
        default="/tmp/agent-sleep-bench",
        help="holds locomo/<sample_id> (bench_recall) and speed/ws-N (bench_speed); "
        "copies and generated workspaces go to its bm25/ folder",
    )
    parser.add_argument("--budgets", default="1000,4000")
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--parts", default="quality,recall,speed,imports")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--workspace", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, Path(args.workspace))))
        return
    missing = [m for m in ("bm25s", "rank_bm25") if importlib.util.find_spec(m) is None]
    if missing:
        sys.exit(f"Error: bench_bm25 needs {' and '.join(missing)}: pip install -e '.[bench]'")
    work = Path(args.work)
    parts = args.parts.split(",")
    if "quality" in parts:
        quality(args.data, work, [int(b) for b in args.budgets.split(",")])
    if "recall" in parts:
        in_recall(args.data, work, [int(b) for b in args.budgets.split(",")])
    if "speed" in parts:
        speed(work, [int(s) for s in args.sizes.split(",") if s], work / "speed")
    if "imports" in parts:
        imports()


if __name__ == "__main__":
    main()
