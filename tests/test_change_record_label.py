"""Sleep's "Changed on DATE: A → B" record whose B was itself replaced since is history: recall
labels it not current and names what is (it came back as current, unlabelled, and ranked
first for "when is the standup" after 9:30 → 10:00 → 10:15; an exploratory test)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from agent_sleep import micro_rest, recall, sleep_cycle


def _at(day: int, hour: int) -> dt.datetime:
    return dt.datetime(2026, 3, day, hour)


def test_a_change_record_of_a_replaced_value_is_labelled(tmp_path: Path) -> None:
    facts = ["Bob lives in Paris", "The CI runs on GitHub Actions", "Our office is in Lisbon",
             "The team standup is at 9:30"]  # fmt: skip
    for i, text in enumerate(facts):
        micro_rest(text, "W", workspace=tmp_path, when=_at(1, 9) + dt.timedelta(minutes=i))
    sleep_cycle(tmp_path, "both", "offline", now=_at(1, 22))
    micro_rest("The team standup moved to 10:00", "W", workspace=tmp_path, when=_at(2, 10))
    micro_rest("The team standup moved to 10:15", "W", workspace=tmp_path, when=_at(2, 15))
    sleep_cycle(tmp_path, "both", "offline", now=_at(2, 22))
    sleep_cycle(tmp_path, "both", "offline", now=_at(2, 23))  # what the removal cap held back
    hits = recall(tmp_path, "when is the standup", k=8)
    records = [h for h in hits if "Changed on" in h.text]
    assert records, [h.text for h in hits]
    for h in records:
        if h.text.rstrip().endswith("moved to 10:00"):
            assert not h.current and h.superseded_by == "The team standup moved to 10:15"
        else:  # → 10:15: still what holds
            assert h.current
    current = [h.text for h in hits if h.current and "standup" in h.text]
    assert all("10:15" in t.split("→")[-1] for t in current), current
    # and it ranks below what holds now: it is newer than the entry for 10:15 (written at the
    # end of the sleep), but no restatement of it
    standup = [h for h in hits if "standup" in h.text]
    assert standup[0].current and standup[0].text.rstrip().endswith("10:15"), [
        (h.current, h.text) for h in standup
    ]
