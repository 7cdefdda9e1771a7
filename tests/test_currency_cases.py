"""The hand-written update scenarios of bench/currency_cases are well formed: each value is
said where the scoring looks for it, so a bench figure measures the detector, not the data."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

CASES = sorted((Path(__file__).resolve().parent.parent / "bench" / "currency_cases").glob("*.json"))


def _has(text: str, value: str) -> bool:  # bench_currency's test, kept in step
    return (
        re.search(rf"(?<![\w@.]){re.escape(value.lower())}(?![\w@]|\.\w)", text.lower()) is not None
    )


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_cases_are_well_formed(path: Path) -> None:
    cases = json.loads(path.read_text(encoding="utf-8"))
    assert len(cases) >= 40
    assert {c["kind"] for c in cases} == {"update", "control"}
    for c in cases:
        first, second = c["first"], c["second"]
        # one subject said in both, or two alternatives ("laptop|ThinkPad"), one in each
        alts = c["subject"].lower().split("|")
        assert len(alts) in (1, 2) and all(len(a) >= 2 for a in alts), c
        assert alts[0] in first.lower() and alts[-1] in second.lower(), c
        assert _has(first, c["old"]), c
        if c.get("family") == "list":
            # one item of a list removed (the new value: an item that stays) or swapped
            assert c["kind"] == "update" and _has(first + " " + second, c["new"]), c
            continue
        assert _has(second, c["new"]), c
        if c["kind"] == "update":  # the new value is news: the old note never says it
            assert not _has(first, c["new"]), c


def test_the_bench_loads_every_set() -> None:
    from bench import bench_currency

    for path in CASES:
        plan = bench_currency.load_cases(path, seed=7)
        assert len(plan) == len(json.loads(path.read_text(encoding="utf-8")))
        for d0, d1, s in plan:
            assert 0 <= d0 < d1 < bench_currency.DAYS and s.family in ("written", "list", "control")
