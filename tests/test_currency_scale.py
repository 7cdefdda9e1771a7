"""Offline currency on notes that all share their words: each item is compared with at most
``MAX_COMPARED`` of the newest entries it may replace, so a backlog of look-alike log lines
("Deployed the billing service to staging", many times) costs time linear in its length, not
quadratic, while an update of a recent entry is still found."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import numpy as np
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


class _Encoder:
    """A stand-in for the MiniLM: a text's vector is its hashed words (so look-alikes, values
    masked, read alike), whatever it is embedded with; every call is kept."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return np.stack([_hashed(t) for t in texts])


def _hashed(text: str) -> np.ndarray:
    v = np.zeros(64, dtype=np.float32)
    for word in re.findall(r"\w+", text.lower()):
        v[int(hashlib.sha256(word.encode()).hexdigest(), 16) % 64] += 1.0
    return v / max(float(np.linalg.norm(v)), 1e-12)


def _changes(n: int) -> list[tuple[str, str, list[str], float, str]]:
    """Look-alike log lines of one day, many in change language ("now", "moved"): the learned
    model is never asked of two notes of one day, so it fetches none of their texts."""
    services, envs = ["billing", "search", "checkout", "ledger"], ["staging", "production"]
    out = []
    for i in range(n):
        svc, env = services[i % 4], envs[i // 4 % 2]
        text = (f"The {svc} service now runs on port {8000 + i} in {env}." if i % 3 else
                f"Moved the {svc} service to build {100 + i} in {env}.")  # fmt: skip
        out.append(("W", text, [f"n{i}"], 0.8, "2026-03-02"))
    return out


def test_said_alike_texts_are_embedded_together_with_the_same_decisions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Sleep embeds the masked texts "said alike" may compare in one call (in batches) before
    it compares them, instead of one model call per new text; the decisions are those of an
    embedding asked text by text."""
    encoder = _Encoder()
    monkeypatch.setattr(oc, "_encoder", [encoder])
    monkeypatch.setattr(oc, "_vectors", {})
    asked: list[tuple[str, str]] = []
    said_alike = currency._said_alike

    def recorded(new: str, old: str, names: frozenset[str], similar: Any) -> Any:
        def cos(a: str, b: str) -> float:
            asked.append((a, b))
            return float(similar(a, b))

        return said_alike(new, old, names, cos if similar is not None else None)

    monkeypatch.setattr(currency, "_said_alike", recorded)
    memory = [{"id": "m1", "text": "The billing service runs on port 7000 in staging.",
               "date": "2026-03-02"}]  # fmt: skip
    items = _changes(60)
    batched = oc.supersedes(items, memory, [], frozenset(), oc.Lazy())
    assert asked and batched  # said alike was asked, and some items replace others
    fetched = set(encoder.calls[0])
    assert {t for pair in asked for t in pair} <= fetched
    assert len(encoder.calls) == 1  # nothing was embedded alone afterwards
    one_by_one = oc.supersedes(
        items, memory, [], frozenset(), lambda a, b: float(_hashed(a) @ _hashed(b))
    )
    assert batched == one_by_one


def test_the_vector_cache_lets_its_oldest_go_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``MAX_VECTORS`` the oldest vectors go, never those just fetched together (the
    cache used to be emptied, prefetched texts included, by the next text asked alone)."""
    monkeypatch.setattr(oc, "_encoder", [_Encoder()])
    monkeypatch.setattr(oc, "_vectors", {})
    monkeypatch.setattr(oc, "MAX_VECTORS", 4)
    oc._embed(["a", "b", "c"])
    oc._embed(["d", "e"])
    assert list(oc._vectors) == ["b", "c", "d", "e"]
    oc._embed(["f"])
    assert list(oc._vectors) == ["c", "d", "e", "f"]
