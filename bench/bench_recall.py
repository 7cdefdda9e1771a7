"""Recall quality on LoCoMo: evidence recall within a token budget.

Each conversation is imported into its own workspace through ``micro_rest`` (one B note per turn,
filed under its session's date, ``source=<dia_id>``). For every question of categories 1-4,
``recall(question, budget_tokens=B)`` runs and the score is the share of the question's gold
evidence turns among the returned hits' ``sources`` (a question with no valid evidence counts
1). Printed per category at B = 1000 and 4000 tokens (tokens ≈ words × 1.3) for:

- recency: the newest notes that fit the budget (what a context window without search keeps),
- bm25: BM25 only, vector: MiniLM cosine only (single-signal baselines: no feedback, no rerank),
- bm25 route: what ``recall`` does without the model (BM25 with feedback),
- first pass: the shipped fusion with the deep steps off (feedback and rerank),
- hybrid: the shipped defaults (a budget of 1000 or 4000 tokens is a deep request).

Workspaces (and their index, so embeddings) are kept under ``--work`` and reused by reruns.

    python bench/bench_recall.py [--data PATH] [--work DIR] [--budgets 1000,4000]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent_sleep.core.workspace import Workspace  # noqa: E402
from agent_sleep.retrieval.index import open_index  # noqa: E402
from agent_sleep.retrieval.recall import Fusion, Hit, count_tokens, recall  # noqa: E402
from bench import locomo  # noqa: E402

METHODS = ("recency", "bm25", "vector", "bm25 route", "first pass", "hybrid")
PLAIN = {"deep_from": 10**9}


def workspace_for(sample: dict, work: Path) -> Path:
    folder = work / sample["sample_id"]
    done = folder / ".agent-sleep" / "bench-imported.json"
    if not done.exists():
        if folder.exists():
            import shutil

            shutil.rmtree(folder)
        ids = locomo.import_conversation(sample, folder)
        done.write_text(json.dumps(ids))
    return folder


def recency(ws: Workspace, budget: int) -> list[Hit]:
    index = open_index(ws, vectors=False)
    out, used = [], 0
    for row in range(len(index.units) - 1, -1, -1):
        unit = index.units[row]
        cost = count_tokens(unit.text)
        if used + cost > budget:
            break
        out.append(Hit(unit.text, unit.path, 0.0, index.sources[row], unit.date))
        used += cost
    return out


def run(method: str, ws: Workspace, question: str, budget: int, fusion: Fusion) -> list[Hit]:
    if method == "recency":
        return recency(ws, budget)
    if method == "bm25":
        fusion = replace(fusion, vector_weight=0.0, text_weight=1.0, **PLAIN)
    elif method == "vector":
        fusion = replace(fusion, vector_weight=1.0, text_weight=0.0, **PLAIN)
    elif method == "bm25 route":
        fusion = replace(fusion, vector_weight=0.0, text_weight=1.0)
    elif method == "first pass":
        fusion = replace(fusion, **PLAIN)
    return recall(ws, question, budget_tokens=budget, fusion=fusion)


def evidence_recall(hits: list[Hit], evidence: tuple[str, ...]) -> float:
    if not evidence:
        return 1.0
    found = {s for h in hits for s in h.sources}
    return sum(e in found for e in evidence) / len(evidence)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=str(locomo.DEFAULT_PATH))
    parser.add_argument("--work", default="/tmp/agent-sleep-bench/locomo")
    parser.add_argument("--budgets", default="1000,4000")
    parser.add_argument("--methods", default=",".join(METHODS))
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    methods = args.methods.split(",")
    fusion = Fusion()
    work = Path(args.work)
    scores: dict[tuple[str, int, int], list[float]] = defaultdict(list)
    started = time.monotonic()
    samples = locomo.load(args.data)
    for sample in samples:
        ws = Workspace.at(workspace_for(sample, work))
        open_index(ws)
        for q in locomo.questions(sample):
            for method in methods:
                for budget in budgets:
                    hits = run(method, ws, q.question, budget, fusion)
                    scores[(method, budget, q.category)].append(evidence_recall(hits, q.evidence))
    count = sum(len(locomo.questions(s)) for s in samples)
    print(
        f"LoCoMo evidence recall, {len(samples)} conversations, {count} questions (categories 1-4)"
    )
    print(f"data: {args.data}")
    cats = sorted(locomo.CATEGORIES)
    header = (
        f"{'method':<10} {'budget':>6} "
        + " ".join(f"{locomo.CATEGORIES[c]:>12}" for c in cats)
        + f" {'overall':>8}"
    )
    print(header)
    for budget in budgets:
        for method in methods:
            cells = []
            total: list[float] = []
            for c in cats:
                vals = scores[(method, budget, c)]
                total += vals
                cells.append(f"{100 * sum(vals) / max(len(vals), 1):11.1f}%")
            overall = 100 * sum(total) / max(len(total), 1)
            print(f"{method:<10} {budget:>6} " + " ".join(cells) + f" {overall:7.1f}%")
    print(f"({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
