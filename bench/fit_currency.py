"""Fit the learned last word on updates (agent_sleep/analysis/update_model.py).

Rows are pairs of notes the clause rules call ``other`` and the model is asked about
(``update_model.asked``: notes that share a content word, no chat turn, the older no event):

- each scenario of the written sets in ``bench/currency_cases/`` (an update: 1; a look-alike
  control: 0), and pairs of one scenario's later note with another scenario's earlier note of
  the same set (0, weighted 0.2: many, and mostly easy);
- the generator's scenarios (bench_currency.generate, seeds 100-105) and such crossed pairs:
  the rules read all its updates, so it adds only controls and crossed pairs (0).

It prints, leaving one written set out at a time (fitted on the others and the generator's
rows), how many of that set's updates the rules missed and the model catches, and how many of
its controls and crossed pairs the model would wrongly call updates, at a few thresholds; then
the same on the held-out sets (never used to fit or choose anything), and the weights fitted on
every set but the held-out ones, to paste into update_model.WEIGHTS::

    python bench/fit_currency.py [--hold-out f,h,k]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent_sleep.analysis import currency, update_model  # noqa: E402
from agent_sleep.providers.offline_currency import similarity  # noqa: E402
from bench.bench_currency import generate  # noqa: E402

CASES = ROOT / "bench" / "currency_cases"
CROSS_WEIGHT = 0.2
L2 = 1.0
THRESHOLDS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75)


def _rows(tag: str, pairs: list[tuple[str, int, str, str]], similar) -> list[dict]:
    out = []
    for src, y, new, old in pairs:
        if not update_model.asked(new, old):
            continue
        verdict = currency.relation(new, old, frozenset(), similar)
        if verdict.kind != currency.OTHER:
            continue  # the rules decided: update_model.last_word never asks the model
        x = update_model.features(new, old, verdict.why, similar)
        out.append({"tag": tag, "src": src, "y": y, "x": x})
    return out


def written(path: Path, similar) -> list[dict]:
    cases = json.loads(path.read_text(encoding="utf-8"))
    pairs = []
    for i, c in enumerate(cases):
        pairs.append(("case", int(c["kind"] == "update"), c["second"], c["first"]))
        pairs += [("cross", 0, d["second"], c["first"]) for j, d in enumerate(cases) if j != i]
    return _rows(path.stem.removeprefix("written_"), pairs, similar)


def generated(seed: int, similar) -> list[dict]:
    scenarios = [s for _, _, s in generate(seed)]
    rng = random.Random(seed)
    pairs = []
    for i, s in enumerate(scenarios):
        pairs.append(("case", int(s.family != "control"), s.second, s.first))
        for j in rng.sample(range(len(scenarios)), 8):
            if j != i:
                pairs.append(("cross", 0, scenarios[j].second, s.first))
    return _rows(f"gen{seed}", pairs, similar)


def fit(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """L2-regularised logistic regression (the bias unpenalised), by Newton's method."""
    b = np.zeros(x.shape[1])
    penalty = L2 * np.r_[0.0, np.ones(x.shape[1] - 1)]
    for _ in range(100):
        p = 1 / (1 + np.exp(-x @ b))
        grad = x.T @ (w * (p - y)) + penalty * b
        hess = (x * (w * p * (1 - p))[:, None]).T @ x + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        b -= step
        if np.abs(step).max() < 1e-9:
            break
    return b


def table(rows: list[dict], b_of, sets: list[str]) -> None:
    print("set   missed by rules  caught at " + " / ".join(f"{t}" for t in THRESHOLDS)
          + "   controls wrongly replaced   crossed pairs wrongly replaced")  # fmt: skip
    totals = np.zeros((3, len(THRESHOLDS)))
    n_pos = n_ctl = n_cross = 0
    for s in sets:
        test = [r for r in rows if r["tag"] == s]
        b = b_of(s)
        x = np.array([r["x"] for r in test])
        p = 1 / (1 + np.exp(-x @ b))
        y = np.array([r["y"] for r in test])
        ctl = np.array([r["src"] == "case" and r["y"] == 0 for r in test])
        cross = np.array([r["src"] == "cross" for r in test])
        got = np.array([[(p >= t)[m].sum() for t in THRESHOLDS] for m in (y == 1, ctl, cross)])
        totals += got
        n_pos, n_ctl, n_cross = n_pos + (y == 1).sum(), n_ctl + ctl.sum(), n_cross + cross.sum()
        print(f"{s:5} {(y == 1).sum():6}           " + " / ".join(f"{g:3d}" for g in got[0])
              + f"   {' / '.join(f'{g:2d}' for g in got[1])} of {ctl.sum():3d}"
              + f"   {' / '.join(f'{g:2d}' for g in got[2])} of {cross.sum()}")  # fmt: skip
    print(f"all   {n_pos:6}           " + " / ".join(f"{int(g):3d}" for g in totals[0])
          + f"   {' / '.join(f'{int(g):2d}' for g in totals[1])} of {n_ctl:3d}"
          + f"   {' / '.join(f'{int(g):2d}' for g in totals[2])} of {n_cross}")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hold-out", default="f,h,k", help="written sets never fitted on")
    args = ap.parse_args()
    similar = similarity()
    if similar is None:
        sys.exit("fit_currency: the embedding model is not installed (pip install -e '.[vectors]')")
    held = set(args.hold_out.split(","))
    rows = []
    for path in sorted(CASES.glob("written_*.json")):
        rows += written(path, similar)
    for seed in range(100, 106):
        rows += generated(seed, similar)
    train_sets = sorted({r["tag"] for r in rows if not r["tag"].startswith("gen")} - held)

    def fitted_without(skip: set[str]) -> np.ndarray:
        use = [r for r in rows if r["tag"] not in skip]
        x = np.array([r["x"] for r in use])
        y = np.array([r["y"] for r in use], float)
        w = np.array([CROSS_WEIGHT if r["src"] == "cross" else 1.0 for r in use])
        return fit(x, y, w)

    print("leave one written set out (fitted on the other sets and the generator's rows):")
    table(rows, lambda s: fitted_without(held | {s}), train_sets)
    final = fitted_without(held)
    print("\nheld out (never fitted on):")
    table(rows, lambda s: final, sorted(held & {r["tag"] for r in rows}))
    print("\nWEIGHTS = (" + ", ".join(f"{v:.4f}" for v in final) + ")")


if __name__ == "__main__":
    main()
