"""Offline currency on notes that all share their words: each item is compared with at most
``MAX_COMPARED`` of the newest entries it may replace, so a backlog of look-alike log lines
("Deployed the billing service to staging", many times) costs time linear in its length, not
quadratic, while an update of a recent entry is still found."""

from __future__ import annotations

import pytest

from agent_sleep.analysis import currency
from agent_sleep.providers import offline_currency as oc


def _items(n: int) -> list[tuple[str, str, list[str], float, str]]:
    return [
        ("W", f"Bilal deployed the billing service to staging (build {100 + i})", [f"n{i}"], 0.8,
         f"2026-03-{1 + i % 28:02d}")
        for i in range(n)
    ]  # fmt: skip


def test_each_item_is_compared_with_at_most_the_newest_entries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[str, str]] = []
    relation = currency.relation

    def counted(new: str, old: str, *args: object) -> currency.Verdict:
        calls.append((new, old))
        return relation(new, old, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(currency, "relation", counted)
    monkeypatch.setattr(oc, "MAX_COMPARED", 5)
    oc.supersedes(_items(40), [], [], frozenset())
    per_item: dict[str, int] = {}
    for new, _old in calls:
        per_item[new] = per_item.get(new, 0) + 1
    assert per_item and max(per_item.values()) <= 5
    assert len(calls) <= 5 * 40
    # without the bound, the last item alone would be compared with all 39 before it
    calls.clear()
    monkeypatch.setattr(oc, "MAX_COMPARED", 1000)
    oc.supersedes(_items(40), [], [], frozenset())
    assert max(sum(1 for n, _ in calls if n == new) for new, _ in calls) > 5


def test_an_update_of_a_recent_entry_is_still_found() -> None:
    memory = [{"id": f"e{i}", "text": f"Billing service build {i} passed review.",
               "date": "2026-03-01"} for i in range(300)]  # fmt: skip
    memory.append({"id": "port", "text": "The billing service listens on port 8080.",
                   "date": "2026-03-02"})  # fmt: skip
    item = ("W", "The billing service now listens on port 9090.", ["n1"], 0.9, "2026-03-05")
    [update] = oc.supersedes([item], memory, [], frozenset()).values()
    assert update["replaces"] == "port"
