"""agent-sleep beside basic-memory and Mem0 on LoCoMo: the same turns in, the same scoring.

Every system is fed the same turns (``Speaker: text [shares a photo: caption]``, one note or
memory per turn, with its session's date where the system keeps one) and asked every question
of categories 1-4. Each system's ranked results are packed greedily into a budget of tokens
(words × 1.3, as recall packs) and scored as bench_recall scores recall: the share of the gold
evidence turns packed, within 1,000 and 4,000 tokens, R@5 / R@10 over the first results and
the share of questions with any gold turn in the first 5.

- agent-sleep: ``recall`` (bench/recall_harness.py), twice: held out, each conversation ranked
  with the learned rerank's weights fitted on the other conversations of the run (as
  bench_recall's headline; needs two or more), and tuned on, with the shipped weights, which
  were fitted on the dev conversations themselves. Ingest is ``micro_rest`` per turn plus the
  index build with embeddings, measured on a new workspace of the first conversation; query
  time is a deep request (1,000 tokens), warm, with the shipped weights.
- Mem0 (``mem0ai``), ``infer=False`` (no LLM extraction: each turn stored as it is), qdrant in
  local path mode, the same MiniLM weights as its embedder (a path string): vector search only
  (its BM25 and entity boosts need models it downloads).
- basic-memory: one Markdown note per turn in a project folder indexed by its CLI, searched
  through its search tool in keyword mode (SQLite full-text; its vectors need SQLite extension
  loading and a model download). It needs Python >= 3.12, so it runs in a virtualenv of its own.

Each peer runs in its own interpreter (``--mem0-python``, ``--basic-memory-python``: the
``python`` of a virtualenv holding the peer) through bench/peer_worker.py, in the same run.
A peer that cannot be imported or fails is reported as not run, with the reason; no figure is
printed for it. Query time is the warm p50 of one search asking for ``--depth`` results.

    python bench/bench_peers.py --mem0-python VENV/bin/python --basic-memory-python VENV/bin/python
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent_sleep.retrieval.embed import model_files  # noqa: E402
from agent_sleep.retrieval.index import update  # noqa: E402
from agent_sleep.retrieval.recall import Fusion, count_tokens  # noqa: E402
from bench import locomo  # noqa: E402
from bench.recall_harness import collect, fold_weights, hits_for, prepare  # noqa: E402

WORKER = Path(__file__).resolve().parent / "peer_worker.py"
BUDGETS = (1000, 4000)


def job_of(samples: list[dict], work: Path, depth: int) -> dict[str, Any]:
    convs = []
    for s in samples:
        turns = [
            {"dia_id": t.dia_id, "text": t.note, "when": t.when.isoformat()}
            for t in locomo.turns(s)
            if t.text
        ]
        qs = [q.question for q in locomo.questions(s)]
        convs.append({"id": s["sample_id"], "turns": turns, "questions": qs})
    return {"conversations": convs, "work": str(work), "depth": depth, "model": ""}


def score(ranked: dict[int, list[Any]], evidence: tuple[str, ...]) -> dict[str, float]:
    """Metrics of one question from a system's ranked ``[ids, text]`` results (by budget:
    agent-sleep answers each budget itself; a peer's one list serves both)."""
    out: dict[str, float] = {}
    gold = set(evidence)

    def share(ids: set[str]) -> float:
        return 1.0 if not gold else len(gold & ids) / len(gold)

    for budget in BUDGETS:
        used, ids = 0, set()
        for found, text in ranked[budget]:
            cost = count_tokens(text)
            if used + cost <= budget:
                used += cost
                ids.update(found)
            if budget - used < 2:
                break
        out[f"B{budget}"] = share(ids)
    first = ranked[max(BUDGETS)]
    for k in (5, 10):
        out[f"R@{k}"] = share({d for found, _ in first[:k] for d in found})
    out["any@5"] = 1.0 if not gold else float(bool(share({d for f, _ in first[:5] for d in f})))
    return out


def ours(samples: list[dict], work: Path) -> dict[str, dict[str, Any]]:
    """agent-sleep's runs: held out (each conversation ranked by the learned rerank's weights
    fitted on the other conversations of the run, as bench_recall's headline), and with the
    shipped weights, fitted on the dev conversations themselves (tuned on)."""
    convs = prepare(samples, work / "agent-sleep")
    shipped = Fusion()
    folds = fold_weights(collect(convs, shipped, BUDGETS)) if len(convs) > 1 else {}
    runs: dict[str, dict[str, Any]] = {}
    times = []
    for label, weights in (("held out", folds), ("tuned on", None)):
        if weights == {}:
            continue
        results: dict[str, list[dict[int, list[Any]]]] = {}
        for conv in convs:
            fusion = replace(shipped, learned=weights[conv.sample_id]) if weights else shipped
            ranked = []
            for qi in range(len(conv.questions)):
                if weights is None:
                    hits_for(conv, qi, 1000, fusion)  # warm: the query's pieces and states known
                    t = time.perf_counter()
                short = hits_for(conv, qi, 1000, fusion)
                if weights is None:
                    times.append(time.perf_counter() - t)
                long = hits_for(conv, qi, 4000, fusion)
                ranked.append({b: [[list(h.sources), h.text] for h in hits] for b, hits in
                               ((1000, short), (4000, long))})  # fmt: skip
            results[conv.sample_id] = ranked
        mode = "hybrid recall (BM25 + MiniLM, deep request)"
        if weights:
            mode += ", rerank weights fitted on the other conversations"
        else:
            mode += ", shipped constants (fitted on these conversations)"
        runs[f"agent-sleep ({label})"] = {"mode": mode, "results": results}
    fresh = Path(tempfile.mkdtemp(prefix="ingest-", dir=work))
    t = time.perf_counter()
    locomo.import_conversation(samples[0], fresh)
    from agent_sleep.core.workspace import Workspace

    update(Workspace.at(fresh))  # every turn embedded (as a search would, in the background)
    per_note = (time.perf_counter() - t) / sum(1 for x in locomo.turns(samples[0]) if x.text)
    shutil.rmtree(fresh, ignore_errors=True)
    for run in runs.values():
        run.update(query_s=times, ingest_s_per_note=per_note)
    return runs


def peer(name: str, python: str, job: dict[str, Any], work: Path) -> dict[str, Any]:
    if not python or not Path(python).exists():
        return {"error": f"no interpreter given or found ({python or 'none'}); not installed here"}
    folder = work / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    path, out = folder / "job.json", folder / "out.json"
    path.write_text(json.dumps({**job, "work": str(folder)}), encoding="utf-8")
    r = subprocess.run([python, str(WORKER), name, str(path), str(out)], capture_output=True)
    if not out.exists():
        return {"error": f"worker exited {r.returncode}: {r.stderr.decode()[-300:]}"}
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=str(locomo.DEFAULT_PATH))
    parser.add_argument("--work", default="/tmp/agent-sleep-bench/peers")
    parser.add_argument("--mem0-python", default="")
    parser.add_argument("--basic-memory-python", default="")
    parser.add_argument("--depth", type=int, default=200, help="results asked of each peer")
    parser.add_argument(
        "--conversations", type=int, default=0, help="only the first N conversations (0: all)"
    )
    args = parser.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    samples = locomo.load(args.data)
    if args.conversations:
        samples = samples[: args.conversations]
    job = job_of(samples, work, args.depth)
    job["model"] = str(model_files().folder)
    runs = {
        **ours(samples, work),
        "mem0": peer("mem0", args.mem0_python, job, work),
        "basic-memory": peer("basic-memory", args.basic_memory_python, job, work),
    }
    count = sum(len(c["questions"]) for c in job["conversations"])
    print(f"LoCoMo, {len(samples)} conversations, {count} questions (categories 1-4), one run")
    head = "within 1000  within 4000    R@5   R@10  any@5  ingest ms/note  query p50 ms"
    print(f"{'system':<24} {head}  mode")
    for name, run in runs.items():
        if "error" in run:
            print(f"{name:<24} not run: {run['error']}")
            continue
        metrics: dict[str, list[float]] = {}
        for s in samples:
            ranked = run["results"][s["sample_id"]]
            for q, r in zip(locomo.questions(s), ranked, strict=True):
                if not name.startswith("agent-sleep"):  # one ranked list of [dia_id, text]
                    r = {b: [[[d], text] for d, text in r] for b in BUDGETS}
                for m, v in score(r, q.evidence).items():
                    metrics.setdefault(m, []).append(v)

        def pct(m: str, metrics: dict[str, list[float]] = metrics) -> str:
            return f"{100 * statistics.fmean(metrics[m]):5.1f}%"

        p50 = 1000 * statistics.median(run["query_s"])
        print(
            f"{name:<24} {pct('B1000'):>11}  {pct('B4000'):>11} {pct('R@5')} {pct('R@10')} "
            f"{pct('any@5')} {1000 * run['ingest_s_per_note']:>15.1f} {p50:>13.1f}  {run['mode']}"
        )


if __name__ == "__main__":
    main()
