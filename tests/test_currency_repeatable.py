"""Currency figures are repeatable: the same notes consolidate into the same MEMORY.md and bank
pages whatever the process embedded before, and bench_currency measures the code of the
checkout it sits in.

bench_currency's figures once seemed to vary from run to run (written_d 76.7% / 78.3% /
71.7% on "the same commit"). The product was not the cause: the bench imported whatever
``agent_sleep`` the environment had installed (the main tree, in editable mode), so a copy run
from a worktree of the commit before measured the main tree as it stood at that moment,
edits in progress included (references/consolidation.md)."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agent_sleep.analysis import currency
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core.rest import micro_rest
from agent_sleep.providers import offline_currency as oc

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench" / "bench_currency.py"


def _bench(tree: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The bench's cheapest path (``--conflicts`` over a folder with no MEMORY.md file)."""
    empty = tree / "empty"
    empty.mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, str(tree / "bench" / "bench_currency.py"), "--conflicts", str(empty)],
        cwd=tree, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def test_the_bench_measures_the_checkout_it_sits_in(tmp_path: Path) -> None:
    tree = tmp_path / "checkout"
    (tree / "bench").mkdir(parents=True)
    shutil.copy(BENCH, tree / "bench" / "bench_currency.py")
    (tree / "agent_sleep").mkdir()
    (tree / "agent_sleep" / "__init__.py").write_text(
        'raise SystemExit("the checkout\'s own agent_sleep")\n'
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    own = _bench(tree, env)
    assert "the checkout's own agent_sleep" in own.stderr, own.stdout + own.stderr
    # a checkout named in PYTHONPATH is measured instead (the commit before, say)
    named = _bench(tree, {**env, "PYTHONPATH": str(ROOT)})
    assert named.returncode == 0, named.stderr
    assert named.stdout.split() == ["0", "0"]


# updates the clause rules read, updates "said alike" and the learned model
# read, and look-alikes that stand beside each other
STABLE = [
    "The office wifi network is called Heron.",
    "Quarterly reviews are held in the Oak room.",
    "The on-call rota is kept in PagerDuty.",
    "Expense reports go to Priya Natarajan.",
    "The design system lives in Figma.",
    "Release notes are drafted by Tomasz.",
]
OLD = [
    "CloudWatch log retention is set to 30 days.",
    "Staging is reachable at staging.orbitlabs.io.",
    "Logging goes to Papertrail.",
    "The staging cluster has 3 nodes.",
    "The billing service listens on port 8080.",
    "Mia's swim class is on Tuesdays.",
    "Weekday parking costs $12 at the Elm garage.",
    "The fiscal year ends on 31 March.",
]
NEW = [
    "Dropped log retention to 14 days to save on storage.",
    "Staging URL is now stg.orbitlabs.cloud.",
    "Logging now ships to Datadog.",
    "Staging cluster node count: 5.",
    "The billing service now listens on port 9090.",
    "Leo's swim class is on Thursdays.",
    "Weekend parking costs $8 at the Elm garage.",
    "We decided the fiscal year will end on 31 December going forward.",
]


def _consolidate(ws: Path) -> str:
    # a run replaces at most a quarter of MEMORY.md's entries (the removal cap)
    days = [(1, STABLE), (2, OLD[:4]), (3, OLD[4:]), (7, NEW[:3]), (8, NEW[3:6]), (9, NEW[6:])]
    for day, texts in ((dt.date(2026, 11, d), notes) for d, notes in days):
        for k, text in enumerate(texts):
            when = dt.datetime.combine(day, dt.time(9, 0)) + dt.timedelta(minutes=10 * k)
            micro_rest(text, "W", workspace=ws, when=when)
        sleep_cycle(ws, "both", "offline", now=dt.datetime.combine(day, dt.time(22, 0)))
    pages = [ws / "MEMORY.md", *sorted((ws / "bank").rglob("*.md"))]
    # note and entry ids are random (so the metadata is left out): what is written counts, in
    # MEMORY.md, on the bank pages and in their History sections
    return "\n".join(
        f"{p.relative_to(ws)}\n{re.sub(r'<!--.*?-->', '', p.read_text())}" for p in pages
    )


def test_the_same_notes_consolidate_the_same_way_whatever_was_embedded_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(oc, "_encoder", [])  # as in a new process: the model loaded anew
    monkeypatch.setattr(oc, "_vectors", {})
    first = _consolidate(tmp_path / "a")
    if oc.similarity() is None:
        pytest.skip("no embedding model")
    # updates were read by the rules, by "said alike" and by the learned model: their old
    # notes are history now, and the look-alikes stand
    history = first.split("## History", 1)[1]
    assert all(old in history for old in OLD[:5] + OLD[7:]), first
    assert not any(look_alike in history for look_alike in OLD[5:7]), first
    # the model loaded, its cache emptied and filled again one text at a time, newest first:
    # each vector now comes from a run of its own, not from the batch it was first embedded in
    oc._vectors.clear()
    for text in reversed([*OLD, *NEW]):
        oc._embed([currency._masked_text(text)])
        oc._embed([text])
    assert _consolidate(tmp_path / "b") == first
