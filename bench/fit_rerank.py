"""Fit the learned rerank's weights (``agent_sleep/retrieval/learned.py``) on LoCoMo.

Every dev question is ranked at budgets of 1,000 and 4,000 tokens with the shipped first pass;
the candidates the rerank re-scores are its training rows, labelled by the question's gold
evidence. Printed: the weights fitted on all five conversations (the literal ``WEIGHTS`` holds),
then, leave one conversation out, each conversation's evidence recall with weights fitted on the
other four, beside the hand-set mix the learned model replaced. ``bench_recall.py`` reports the
same cross-fitted figures as its headline.

    python bench/fit_rerank.py [--data PATH] [--work DIR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from agent_sleep.retrieval.learned import FEATURES, WEIGHTS  # noqa: E402
from agent_sleep.retrieval.recall import Fusion  # noqa: E402
from bench import locomo  # noqa: E402
from bench.recall_harness import collect, crossfit, evaluate, fit, fold_weights, prepare  # noqa: E402

BUDGETS = (1000, 4000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=str(locomo.DEFAULT_PATH))
    parser.add_argument("--work", default="/tmp/agent-sleep-bench/locomo")
    args = parser.parse_args()
    started = time.monotonic()
    convs = prepare(locomo.load(args.data), Path(args.work))
    names = [c.sample_id for c in convs]
    shipped = Fusion()
    features = collect(convs, shipped, BUDGETS)
    rows = sum(len(y) for _, y in features.values())
    gold = int(sum(y.sum() for _, y in features.values()))
    print(f"{rows} re-scored candidates ({gold} evidence) from {len(convs)} conversations")
    every = fit(np.concatenate([x for x, _ in features.values()]),
                np.concatenate([y for _, y in features.values()]))  # fmt: skip
    print("Weights fitted on all five (bias, then " + ", ".join(FEATURES) + "):")
    print("WEIGHTS = (" + ", ".join(f"{w:.4f}" for w in every) + ")")
    drift = max(abs(a - b) for a, b in zip(every, WEIGHTS, strict=True))
    print(f"largest difference from the shipped WEIGHTS: {drift:.4f}")
    folds = fold_weights(features)
    learned = crossfit(convs, shipped, BUDGETS, folds)
    mix = evaluate(convs, replace(shipped, learned=None), BUDGETS)
    print("\nHeld out (weights fitted on the other four) against the hand-set mix:")
    head = ("learned 1000", 13), ("learned 4000", 13), ("mix 1000", 9), ("mix 4000", 9)
    print(f"{'held out':<10} " + " ".join(f"{h:>{w}}" for h, w in head))
    for n in names:
        print(f"{n:<10} " + " ".join(
            f"{s.mean([n], f'B{b}'):{w}.1f}%" for s, w in ((learned, 12), (mix, 8)) for b in BUDGETS
        ))  # fmt: skip
    for label, s in (("learned", learned), ("mix", mix)):
        cells = " / ".join(
            f"{statistics.fmean(s.mean([n], f'B{b}') for n in names):.1f}%" for b in BUDGETS
        )
        print(f"mean of folds, {label}: {cells}")
    print(f"({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
