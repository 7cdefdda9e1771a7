"""A sleep over a large backlog: the currency index leaves out only pairs that cannot be an
update, and a long NREM reports its steps to the progress callback."""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path

import pytest

from agent_sleep.analysis import currency, update_model
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core.rest import micro_rest
from agent_sleep.providers import offline_common
from tests.test_hostile_support import TODAY

CASES = Path(__file__).resolve().parent.parent / "bench" / "currency_cases"


def _texts() -> list[str]:
    out: list[str] = []
    for name in ("written_a.json", "written_b.json"):
        for c in json.loads((CASES / name).read_text(encoding="utf-8")):
            out += [c["first"], c["second"]]
    # the same statements as chat turns (two speakers), and two notes with a field label
    chat = [f"{'AB'[k % 2]}: I think {t[0].lower()}{t[1:]}" for k, t in enumerate(out[:60])]
    return out + chat + ["Standup: 10:15 (was 9:30)", "Standup: 9:30 every weekday"]


def test_pairs_the_index_leaves_out_are_never_an_update() -> None:
    texts = _texts()
    known = frozenset({"Fatima", "Leeds"})
    index = currency.Candidates(known)
    for t in texts:
        index.add(t)
    rng = random.Random(7)
    pairs = [(i, i ^ 1) for i in range(0, 200)] + [
        (rng.randrange(len(texts)), rng.randrange(len(texts))) for _ in range(6000)
    ]
    offered = {new: set(index.of(texts[new])) for new, _ in pairs}
    asked: list[tuple[str, str]] = []

    def similar(a: str, b: str) -> float:  # says alike whenever asked: the most updates
        asked.append((a, b))
        return 0.95

    left_out = found = 0
    for new, old in pairs:
        asked.clear()
        verdict = currency.relation(texts[new], texts[old], known, similar)
        verdict = update_model.last_word(texts[new], texts[old], verdict, similar)
        if old in offered[new]:
            found += verdict.kind == currency.SUPERSEDE
            continue
        left_out += 1
        assert verdict.kind != currency.SUPERSEDE, (texts[new], texts[old])
        assert not asked, (texts[new], texts[old])
    assert left_out > 3000 and found > 50  # the index does work, and the updates are offered
    sharing = currency.Candidates(keyed=False)
    for t in texts:
        sharing.add(t)
    for new, old in pairs:  # the learned model reads only the notes offered by sharing()
        if old not in sharing.sharing(texts[new]):
            assert not update_model.asked(texts[new], texts[old])
    with pytest.raises(ValueError):
        sharing.of(texts[0])


def test_a_long_nrem_reports_its_steps(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(offline_common, "PROGRESS_EVERY", 4)
    start = dt.datetime.combine(TODAY - dt.timedelta(days=3), dt.time(9, 0))
    facts = [
        "The billing service runs on port 8080",
        "Alice owns the billing service since March 2024",
        "The staging database is db-stg-1 in eu-west-1",
        "Deployed v2 to staging after fixing the auth bug",
        "User prefers concise replies under 200 words",
        "The nightly backup of Postgres runs at 02:00",
        "Bob moved the standup to 10:15 on Mondays",
        "The API base URL is https://api.staging.local/v1",
        "Grafana alerts go to the ops channel on Slack",
        "The retry limit of the payments client is 5",
        "Carol leads the search team in Berlin",
        "The build uses Python 3.11 and numpy 1.26",
    ]
    for k, text in enumerate(facts):
        micro_rest(text, "W", workspace=ws, when=start + dt.timedelta(hours=k))
    said: list[str] = []
    sleep_cycle(ws, "both", "offline", since=start.date().isoformat(), progress=said.append,
                now=dt.datetime.combine(TODAY, dt.time(22, 0)))  # fmt: skip
    assert said[0].startswith("NREM: 12 notes")
    steps = [s for s in said if s.startswith("  NREM:")]
    assert any("notes kept" in s for s in steps)
    assert any("currency checked for 4/" in s for s in steps)
    assert any("currency checked for 8/" in s for s in steps)
    assert said.index(steps[-1]) < next(i for i, s in enumerate(said) if s.startswith("REM:"))
    quiet: list[str] = []  # a short run says what it said before
    monkeypatch.setattr(offline_common, "PROGRESS_EVERY", 500)
    micro_rest("Dana joined the data team", "W", workspace=ws, when=start)
    sleep_cycle(ws, "both", "offline", since=start.date().isoformat(), progress=quiet.append,
                now=dt.datetime.combine(TODAY, dt.time(22, 0)))  # fmt: skip
    assert not [s for s in quiet if s.startswith("  ")]
