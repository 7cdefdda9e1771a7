"""Recall quality on LoCoMo: evidence recall within a token budget, leave-one-conversation-out.

Each conversation is imported into its own workspace through ``micro_rest`` (one B note per turn,
filed under its session's date, ``source=<dia_id>``). For every question of categories 1-4,
recall runs with ``budget_tokens=B`` and the score is the share of the question's gold evidence
turns among the returned hits' ``sources`` (a question with no valid evidence counts 1).

Headline, leave one conversation out (LOCO): every entry of ``GRID`` (the shipped constants and
single changes to them: the re-scored block without its floor, the token cost of the learned
rerank, the hand-set rerank mix it replaced, weights, reciprocal-rank fusion, names in the
query, spread across days, and window units of consecutive notes, on indexes of their own with
the rerank refitted there) is scored on every conversation, each conversation ranked with the
learned rerank's weights fitted on the other four (``recall_harness.crossfit``); for each
conversation in turn, the entry with the best mean recall over the budgets on the other four is
chosen and measured on it. (The weights that rank one of those four were fitted with the
held-out conversation among their data; the figure measured on the held-out one never was.)
Printed: each fold's held-out figures and choice, then the mean and spread (min-max, standard
deviation) over the five folds. The figure of the shipped constants on all the questions (which
they were chosen on) follows as the secondary "tuned-on" table, per category, beside
single-signal baselines:

- recency: the newest notes that fit the budget (what a context window without search keeps),
- bm25: BM25 only, vector: MiniLM cosine only (single-signal baselines: no feedback, no rerank),
- bm25 route: what ``recall`` does without the model (BM25 with feedback),
- first pass: the shipped fusion with the deep steps off (feedback and rerank),
- hybrid: the shipped defaults (a budget of 1000 or 4000 tokens is a deep request),

and, for comparison with published figures, per category R@5 and R@10 over the returned units
(at the largest budget; a unit is one note) and the share of questions with any gold turn in
the first 5 ("any@5"), held out (tuned on with ``--quick``).

Workspaces (their index, embeddings and token states) are kept under ``--work`` and reused.

    python bench/bench_recall.py [--data PATH] [--work DIR] [--budgets 1000,4000] [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent_sleep.core.workspace import Workspace  # noqa: E402
from agent_sleep.retrieval.index import open_index  # noqa: E402
from agent_sleep.retrieval.recall import Fusion, Hit, count_tokens, recall  # noqa: E402
from bench import locomo  # noqa: E402
from bench.recall_harness import (  # noqa: E402
    Scores,
    collect,
    crossfit,
    evaluate,
    evidence_recall,
    fold_weights,
    loco,
    prepare,
    workspace_for,
)

__all__ = ["evidence_recall", "run", "workspace_for"]

METHODS = ("recency", "bm25", "vector", "bm25 route", "first pass", "hybrid")
PLAIN: dict[str, Any] = {"deep_from": 10**9}
SHIPPED = Fusion()
GRID = {  # kept small: each entry is a full evaluation (about a minute of CPU on 2 cores)
    "shipped": SHIPPED,
    "floor 0": replace(SHIPPED, rerank_floor=0),  # 4 x the hits wanted alone
    "cost 1.5": replace(SHIPPED, cost_weight=1.5),
    "cost 2": replace(SHIPPED, cost_weight=2.0),
    "hand-set mix": replace(SHIPPED, learned=None),
    "vector 0.7": replace(SHIPPED, vector_weight=0.7, text_weight=0.3),
    "session 0.3": replace(SHIPPED, session_weight=0.3),
    "rrf k=60": replace(SHIPPED, fuse="rrf"),
    "day spread 0.1": replace(SHIPPED, day_spread=0.1),
    "names 0.2": replace(SHIPPED, name_weight=0.2),
    "names 0.4": replace(SHIPPED, name_weight=0.4),
}


def recency(ws: Workspace, budget: int) -> list[Hit]:
    index = open_index(ws, vectors=False)
    out, used = [], 0
    for row in range(len(index.units) - 1, -1, -1):
        unit = index.units[row]
        if unit.kind == "window":
            continue
        cost = count_tokens(unit.text)
        if used + cost > budget:
            break
        out.append(Hit(unit.text, unit.path, 0.0, index.sources[row], unit.date))
        used += cost
    return out


def variant(method: str, fusion: Fusion) -> Fusion:
    if method == "bm25":
        return replace(fusion, vector_weight=0.0, text_weight=1.0, **PLAIN)
    if method == "vector":
        return replace(fusion, vector_weight=1.0, text_weight=0.0, **PLAIN)
    if method == "bm25 route":
        return replace(fusion, vector_weight=0.0, text_weight=1.0)
    if method == "first pass":
        return replace(fusion, **PLAIN)
    return fusion


def run(method: str, ws: Workspace, question: str, budget: int, fusion: Fusion) -> list[Hit]:
    """One question through ``recall`` itself (``method`` as in the module doc)."""
    if method == "recency":
        return recency(ws, budget)
    return recall(ws, question, budget_tokens=budget, fusion=variant(method, fusion))


def row(label: str, scores: Scores, names: list[str], metric: str, width: int = 12) -> str:
    cats = sorted(locomo.CATEGORIES)
    cells = " ".join(f"{scores.mean(names, metric, [c]):{width - 1}.1f}%" for c in cats)
    return f"{label} {cells} {scores.mean(names, metric):7.1f}%"


def print_loco(grid: dict[str, Scores], names: list[str], budgets: list[int]) -> None:
    metrics = [f"B{b}" for b in budgets]
    print("Grid entries on all five conversations (what each fold chooses among):")
    for entry, scores in grid.items():
        cells = " ".join(f"{scores.mean(names, m):11.1f}%" for m in metrics)
        print(f"  {entry:<16} {cells}")
    folds = loco(grid, names, budgets, metrics)
    print("Leave one conversation out (constants chosen on the other four, measured on one):")
    head = " ".join(f"{'within ' + str(b):>12}" for b in budgets)
    print(f"{'held out':<10} {head}  chosen on the other four")
    for f in folds:
        cells = " ".join(f"{f.scores[m]:11.1f}%" for m in metrics)
        print(f"{f.held_out:<10} {cells}  {f.chosen}")
    for label, fn in (("mean", statistics.fmean), ("min", min), ("max", max)):
        cells = " ".join(f"{fn([f.scores[m] for f in folds]):11.1f}%" for m in metrics)
        print(f"{label:<10} {cells}")
    sd = " ".join(f"{statistics.pstdev([f.scores[m] for f in folds]):11.1f} " for m in metrics)
    print(f"{'std':<10} {sd}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=str(locomo.DEFAULT_PATH))
    parser.add_argument("--work", default="/tmp/agent-sleep-bench/locomo")
    parser.add_argument("--budgets", default="1000,4000")
    parser.add_argument("--quick", action="store_true", help="skip LOCO (shipped table only)")
    parser.add_argument(
        "--windows",
        default="6,3",
        help="window units (notes,stride) scored as one more LOCO entry, on workspaces of "
        "their own (WORK-windows-N-S); empty to skip",
    )
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    started = time.monotonic()
    convs = prepare(locomo.load(args.data), Path(args.work))
    names = [c.sample_id for c in convs]
    count = sum(len(c.questions) for c in convs)
    print(f"LoCoMo evidence recall, {len(convs)} conversations, {count} questions (categories 1-4)")
    print(f"data: {args.data}")
    tuned = evaluate(convs, SHIPPED, budgets, top=True)
    grid: dict[str, Scores] = {}
    if not args.quick:
        # the learned rerank's weights, fitted for each conversation on the other four
        folds = fold_weights(collect(convs, SHIPPED, budgets))
        for name, fusion in GRID.items():
            if fusion.learned is None:
                grid[name] = evaluate(convs, fusion, budgets)
            else:
                grid[name] = crossfit(convs, fusion, budgets, folds, top=name == "shipped")
            print(f"  scored {name}", file=sys.stderr, flush=True)
        if args.windows:
            notes, stride = (int(x) for x in args.windows.split(","))
            grid[f"windows {notes}/{stride}"] = _with_windows(args, notes, stride, budgets)
        print_loco(grid, names, budgets)
    print("\nTuned on (the shipped constants, on every question they were chosen on):")
    cats = sorted(locomo.CATEGORIES)
    print(
        f"{'method':<10} {'budget':>6} "
        + " ".join(f"{locomo.CATEGORIES[c]:>12}" for c in cats)
        + f" {'overall':>8}"
    )
    tables = {"hybrid": tuned}
    for method in METHODS:
        if method == "hybrid":
            continue
        if method == "recency":
            tables[method] = _recency_scores(convs, budgets)
        else:
            tables[method] = evaluate(convs, variant(method, SHIPPED), budgets)
    for budget in budgets:
        for method in METHODS:
            print(row(f"{method:<10} {budget:>6}", tables[method], names, f"B{budget}"))
    held = "shipped" in grid
    which = "held out (weights fitted on the other four)" if held else "tuned on"
    print(f"\nUnits returned at budget {max(budgets)}, shipped constants, {which}:")
    for metric in ("R@5", "R@10", "any@5"):
        print(row(f"{metric:<17}", grid["shipped"] if held else tuned, names, metric))
    print(f"({time.monotonic() - started:.0f} s)")


def _with_windows(
    args: argparse.Namespace,
    notes: int,
    stride: int,
    budgets: list[int],
) -> Scores:
    """The shipped constants over indexes that also hold window units, each conversation
    ranked with rerank weights fitted without it on those indexes: a window's features (its
    length, its neighbours) are unlike a note's, so weights fitted on notes alone would not
    judge windows fairly."""
    from agent_sleep.retrieval import units

    saved = units.WINDOW_NOTES, units.WINDOW_STRIDE
    units.WINDOW_NOTES, units.WINDOW_STRIDE = notes, stride
    try:
        work = Path(f"{args.work}-windows-{notes}-{stride}")
        convs = prepare(locomo.load(args.data), work)
        folds = fold_weights(collect(convs, SHIPPED, budgets))
        return crossfit(convs, SHIPPED, budgets, folds)
    finally:
        units.WINDOW_NOTES, units.WINDOW_STRIDE = saved


def _recency_scores(convs: list, budgets: list[int]) -> Scores:
    out = Scores()
    for conv in convs:
        for budget in budgets:
            hits = recency(conv.ws, budget)
            for q in conv.questions:
                out.add(conv.sample_id, f"B{budget}", q.category, evidence_recall(hits, q.evidence))
    return out


if __name__ == "__main__":
    main()
