"""One removal cap per run, item caps in proportion to the notes, finite confidences.

A model's reply is untrusted: whatever it sends, a run takes out of MEMORY.md (remove,
supersede, budget eviction) or rewrites (update, merge) at most 25% of the entries MEMORY.md
held when the run began; a list that files notes gives at most ``ITEMS_PER_NOTE`` items per
note; REM writes at most ``MAX_DREAMS`` dreams and ``MAX_NEXT_ACTIONS`` actions to today's log;
a NaN or an infinity is no confidence. Replies are scripted with the queue provider (and, for
the JSON text ``NaN``, through the fake Messages API and the real SDK).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.consolidation.apply import Builder
from agent_sleep.consolidation.journal import rollback
from agent_sleep.consolidation.plan import (
    ITEMS_PER_NOTE,
    MAX_DREAMS,
    MAX_NEXT_ACTIONS,
    Inputs,
)
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core import schema as jsonschema
from agent_sleep.core.errors import AgentSleepError
from agent_sleep.core.memory import ARCHIVE_SLUG
from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from tests.fake_messages_api import QueueProvider
from tests.test_hostile_support import NOW, TODAY, api_env, day, model_server, nrem_answer

ARCHIVE = f"bank/concepts/{ARCHIVE_SLUG}.md"


_nrem = nrem_answer


def _rem(**lists: list[dict[str, Any]]) -> dict[str, Any]:
    keys = (
        "aha_moments",
        "creative_connections",
        "confidence_updates",
        "new_bank_suggestions",
        "next_session_actions",
    )
    return {k: lists.get(k, []) for k in keys}


def _item(action: str, text: str, sources: list[str], **kw: Any) -> dict[str, Any]:
    return {
        "action": action,
        "type": kw.get("kind", "W"),
        "confidence": kw.get("conf", 0.9),
        "text": text,
        "replaces": kw.get("replaces", ""),
        "sources": sources,
    }


def _entries(ws: Path) -> list[notes.Note]:
    return [n for n in notes.notes_in((ws / "MEMORY.md").read_text()) if n.id]


def _files(ws: Path) -> dict[str, bytes]:
    """Every file of the workspace but the state folder, as bytes."""
    return {
        p.relative_to(ws).as_posix(): p.read_bytes()
        for p in sorted(ws.rglob("*"))
        if p.is_file() and ".agent-sleep" not in p.relative_to(ws).parts
    }


def _journal(ws: Path) -> dict[str, Any]:
    return json.loads((ws / ".agent-sleep/journal.jsonl").read_text().splitlines()[-1])


def _seed(ws: Path, n: int, kind: str = "W") -> list[notes.Note]:
    """MEMORY.md with ``n`` entries from notes two days old."""
    ids = [
        micro_rest(f"Fact {i}: the server rack {i} sits in room {100 + i}", kind, workspace=ws,
                   when=day(2), **({"confidence": 0.8} if kind == "O" else {}))
        for i in range(n)
    ]  # fmt: skip
    adds = [
        _item("add", f"Server rack {i} sits in room {100 + i}", [nid], kind=kind, conf=0.8)
        for i, nid in enumerate(ids)
    ]
    sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem(adds)), now=NOW)
    entries = _entries(ws)
    assert len(entries) == n
    return entries


def _new_notes(ws: Path, n: int) -> list[str]:
    return [
        micro_rest(f"New note {i} about the deployment pipeline", "W", workspace=ws, when=day(0))
        for i in range(n)
    ]


# -- the flood of adds ----------------------------------------------------------------------


def _letters(i: int) -> str:
    """``i`` written in letters ("bc" for 12): a word, not a number no note says."""
    return "".join(chr(ord("a") + int(d)) for d in str(i))


def test_a_flood_of_adds_citing_one_note_keeps_the_earlier_entries(ws: Path) -> None:
    earlier = _seed(ws, 6)
    (nid,) = _new_notes(ws, 1)
    before = _files(ws)
    filler = "with a long tail of words that only makes the entry bigger " * 2
    # a model's words, no value its note does not say (``analysis.grounding``)
    flood = [_item("add", f"Flooded fact {_letters(i)} {filler}", [nid]) for i in range(100)]
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem(flood)), now=NOW)

    left = {e.id for e in _entries(ws)}
    kept = [e for e in earlier if e.id in left]
    assert len(kept) >= 0.75 * len(earlier)
    assert r.decisions["memory_add"] == ITEMS_PER_NOTE  # one note: a few items, not 100
    assert r.dropped["item_cap"] == 100 - ITEMS_PER_NOTE
    assert _journal(ws)["dropped"]["item_cap"] == 100 - ITEMS_PER_NOTE

    rollback(ws)
    assert _files(ws) == before


def test_eviction_past_the_cap_moves_this_runs_additions_not_older_entries(ws: Path) -> None:
    earlier = _seed(ws, 8)  # the cap: 2 entries
    new = _new_notes(ws, 30)
    before = _files(ws)
    tail = " and more words about it" * 24  # about 600 characters: 30 of them overflow 8,000
    adds = [_item("add", f"Pipeline fact {i}{tail}", [nid]) for i, nid in enumerate(new)]
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem(adds)), now=NOW)

    text = (ws / "MEMORY.md").read_text()
    assert len(text) <= 8000  # the budget still holds
    left = {e.id for e in _entries(ws)}
    gone = [e for e in earlier if e.id not in left]
    assert len(gone) <= len(earlier) // 4  # at most the cap of what MEMORY.md held
    assert r.decisions["memory_add"] == 30 and "item_cap" not in r.dropped
    assert r.dropped["removal_cap"] >= 1
    archive = (ws / ARCHIVE).read_text()
    for i in range(30):  # nothing lost: an addition the cap kept out is on the archive page
        assert f"Pipeline fact {i} " in text or f"Pipeline fact {i} " in archive
    for e in gone:
        assert e.text in archive
    line = _journal(ws)
    assert any("removal cap reached" in s["why"] for s in line["superseded"])

    rollback(ws)
    assert _files(ws) == before


def test_with_prune_memory_the_budget_evicts_older_entries_as_before(ws: Path) -> None:
    earlier = _seed(ws, 8)
    new = _new_notes(ws, 30)
    tail = " and more words about it" * 24
    adds = [_item("add", f"Pipeline fact {i}{tail}", [nid]) for i, nid in enumerate(new)]
    q = QueueProvider().enqueue(_nrem(adds))
    r = sleep_cycle(ws, "nrem", q, prune_memory=True, now=NOW)
    left = {e.id for e in _entries(ws)}
    assert not any(e.id in left for e in earlier)  # the oldest, lowest-value entries went
    assert "removal_cap" not in r.dropped


# -- updates, merges, and the one cap -------------------------------------------------------


def test_updates_past_the_cap_are_dropped(ws: Path) -> None:
    earlier = _seed(ws, 6)  # the cap: int(6 * 0.25) = 1
    nids = _new_notes(ws, 2)
    before = _files(ws)
    updates = [_item("update", "overwritten", nids, replaces=e.id) for e in earlier[:3]] + [
        _item("merge", "overwritten too", nids, replaces=e.id) for e in earlier[3:]
    ]
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem(updates)), now=NOW)

    texts = [e.text for e in _entries(ws)]
    # a merge keeps the entry's text (it only adds the notes): the three merges are applied,
    # and the cap holds back two of the three text-changing updates
    assert r.decisions["memory_update"] == 1 + 3 and r.dropped["removal_cap"] == 2
    assert sum(t.startswith("overwritten") for t in texts) == 1
    assert sum(e.text in texts for e in earlier) == 5
    assert _journal(ws)["dropped"]["removal_cap"] == 2

    rollback(ws)
    assert _files(ws) == before


def test_updates_that_keep_the_text_are_not_capped(ws: Path) -> None:
    earlier = _seed(ws, 6)
    nid, other = _new_notes(ws, 2)
    same = [_item("update", e.text, [nid, other], replaces=e.id, conf=0.85) for e in earlier]
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem(same)), now=NOW)
    assert r.decisions["memory_update"] == 6 and "removal_cap" not in r.dropped
    assert all(nid in notes.sources_of(e) for e in _entries(ws))


def test_new_ids_from_same_text_updates_do_not_reopen_the_cap(ws: Path) -> None:
    earlier = _seed(ws, 8)  # the cap: 2
    new = _new_notes(ws, 8)
    # an update with the same text gives every entry a new id; supersedes then name them by text
    same = [_item("update", e.text, [n], replaces=e.id) for e, n in zip(earlier, new, strict=True)]
    sup = [
        _item("supersede", f"Server rack {k} moved to the new wing", [n], replaces=e.text)
        for k, (e, n) in enumerate(zip(earlier, new, strict=True))
    ]
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem(same + sup)), now=NOW)
    texts = {e.text for e in _entries(ws)}
    assert r.decisions["memory_supersede"] == 2 and r.dropped["removal_cap"] == 6
    assert sum(e.text in texts for e in earlier) == 6


def test_removes_updates_and_evictions_share_one_cap(ws: Path) -> None:
    earlier = _seed(ws, 8)  # the cap: 2
    new = _new_notes(ws, 30)
    tail = " and more words about it" * 24
    items = [
        _item("remove", "", [new[0]], replaces=earlier[0].id),
        _item("update", "Server rack 1 moved to the new wing", [new[1]], replaces=earlier[1].id),
        _item("update", "Server rack 2 moved to the old wing", [new[2]], replaces=earlier[2].id),
        _item("remove", "", [new[3]], replaces=earlier[3].id),
    ] + [_item("add", f"Pipeline fact {i}{tail}", [nid]) for i, nid in enumerate(new)]
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(_nrem(items)), now=NOW)
    entries = _entries(ws)
    held = {(e.id, e.text) for e in earlier}
    assert sum((e.id, e.text) in held for e in entries) == 6  # 2 of 8 taken, however
    assert r.decisions["memory_remove"] == 1 and r.decisions["memory_update"] == 1
    assert r.dropped["removal_cap"] >= 2 + 1  # an update, a remove, and the evictions
    assert len((ws / "MEMORY.md").read_text()) <= 8000


# -- REM floods -------------------------------------------------------------------------------


def test_a_rem_flood_is_capped(ws: Path) -> None:
    ids = [
        micro_rest(f"Pottery class number {i} went well", "B", workspace=ws, when=day(0))
        for i in range(3)
    ]
    before = _files(ws)
    n = 1000

    def tag(i: int) -> str:  # a different text per item, with no number the notes do not say
        return "".join(chr(ord("a") + int(d)) for d in str(i))

    reply = _rem(
        creative_connections=[
            {"link": f"Link {tag(i)}", "why": "because", "sources": [ids[i % 3]]} for i in range(n)
        ],
        aha_moments=[{"text": f"Aha {tag(i)}", "sources": [ids[i % 3]]} for i in range(n)],
        next_session_actions=[
            {"text": f"Do thing {tag(i)}", "sources": [ids[i % 3]]} for i in range(2 * n)
        ],
        new_bank_suggestions=[
            {"slug": f"page-{i}", "kind": "concept", "seed_content": "x", "sources": [ids[0]]}
            for i in range(100)
        ],
    )
    r = sleep_cycle(ws, "rem", QueueProvider().enqueue(reply), now=NOW)

    assert r.decisions["dreams"] == MAX_DREAMS
    assert r.decisions["next_session"] == MAX_NEXT_ACTIONS
    assert r.decisions["bank_suggestions"] == ITEMS_PER_NOTE * 3
    extra = (2 * n - MAX_DREAMS) + (2 * n - MAX_NEXT_ACTIONS) + (100 - ITEMS_PER_NOTE * 3)
    assert r.dropped["item_cap"] == extra
    log = (ws / f"memory/{TODAY.isoformat()}.md").read_text()
    assert len(log.encode()) < 20_000
    assert sum(" S: Do thing " in line for line in log.splitlines()) == MAX_NEXT_ACTIONS

    rollback(ws)
    assert _files(ws) == before


# -- NaN and infinities -----------------------------------------------------------------------


def test_the_schema_refuses_non_finite_numbers() -> None:
    schema = {"type": "object", "properties": {"c": {"type": "number"}}}
    for bad in (math.nan, math.inf, -math.inf):
        assert jsonschema.errors({"c": bad}, schema) == [
            f"$.c: expected a finite number, got {bad!r}"
        ]
    assert jsonschema.errors({"c": 0.5}, schema) == []
    assert jsonschema.errors({"c": 1}, schema) == []


def test_a_nan_confidence_is_repaired_or_refused_never_zero(ws: Path) -> None:
    nid = micro_rest("User prefers short replies", "O", workspace=ws, when=day(0), confidence=0.8)
    nan = _nrem([_item("add", "User prefers short replies", [nid], kind="O", conf=math.nan)])
    q = QueueProvider().enqueue(nan).enqueue(nan)
    with pytest.raises(AgentSleepError, match="finite number"):
        sleep_cycle(ws, "nrem", q, now=NOW)
    assert not (ws / "MEMORY.md").exists() or _entries(ws) == []

    good = _nrem([_item("add", "User prefers short replies", [nid], kind="O", conf=0.8)])
    r = sleep_cycle(ws, "nrem", QueueProvider().enqueue(nan).enqueue(good), now=NOW)
    assert r.tokens["repairs"] == 1
    (entry,) = _entries(ws)
    assert entry.confidence == 0.8
    assert "c=0.0" not in (ws / "MEMORY.md").read_text()


def test_a_nan_new_c_from_the_wire_leaves_opinions_alone(
    ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    earlier = _seed(ws, 2, kind="O")
    micro_rest("Room 100 is where rack 0 lives, still", "W", workspace=ws, when=day(0))

    def tamper(task: str, payload: dict[str, Any], honest: dict[str, Any]) -> Any:
        if task == "rem":  # json.dumps writes NaN; the SDK's reply is read by json.loads
            honest["confidence_updates"] = [
                {"item": m["id"], "old_c": 0.8, "new_c": math.nan, "reason": "x",
                 "sources": [payload["notes"][0]["id"]]}
                for m in payload["memory"]
            ]  # fmt: skip
        return honest

    before = (ws / "MEMORY.md").read_text()
    with model_server(tamper) as api:
        for k, v in api_env(api).items():
            monkeypatch.setenv(k, v)
        with pytest.raises(AgentSleepError, match="finite number"):
            sleep_cycle(ws, "rem", "anthropic", now=NOW)
    assert (ws / "MEMORY.md").read_text() == before
    assert [e.confidence for e in _entries(ws)] == [e.confidence for e in earlier]


def test_the_builder_drops_non_finite_confidences_itself(tmp_path: Path) -> None:
    """Behind the schema: an item that reaches the builder with NaN is dropped, never 0.0."""
    ws = Workspace.at(tmp_path / "ws")
    memory = (
        "## Preferences\n\n- O(c=0.8): User likes tea <!-- id=m000000000 sources=a000000000 -->\n"
    )
    inputs = Inputs(
        note_dates={"n000000000": TODAY.isoformat()},
        note_types={"n000000000": "O"},
        memory_ids=frozenset({"m000000000"}),
        cited=frozenset(),
        dream_texts=frozenset(),
    )
    files = {ws.memory_md: memory}
    b = Builder(ws, files.get, inputs, today=TODAY, now="22:00", budget=8000)
    src = ["n000000000"]
    b.nrem(
        _nrem(
            [
                _item("add", "User likes coffee", src, kind="O", conf=math.nan),
                _item("update", "User likes green tea", src, kind="O", conf=-math.inf,
                      replaces="m000000000"),
                _item("supersede", "User now likes mate", src, kind="O", conf=math.inf,
                      replaces="m000000000"),
            ]
        )
    )  # fmt: skip
    b.rem(
        _rem(
            confidence_updates=[
                {"item": "m000000000", "old_c": 0.8, "new_c": math.nan, "reason": "",
                 "sources": src}
            ]
        )
    )  # fmt: skip
    plan = b.finish(None)
    assert plan.dropped["bad_confidence"] == 4
    assert ws.memory_md not in plan.texts  # MEMORY.md unchanged
    assert b._entry("O", "x", math.nan, src).confidence != 0.0


def test_the_offline_path_is_unchanged_by_the_caps(ws: Path) -> None:
    """A normal day through the offline consolidator: nothing capped, nothing dropped."""
    for i in range(12):
        micro_rest(f"Fact {i}: the build server {i} runs Ubuntu 2{i}.04", "W", workspace=ws,
                   when=day(1))  # fmt: skip
    r = sleep_cycle(ws, "both", "offline", now=NOW)
    assert "item_cap" not in r.dropped and "removal_cap" not in r.dropped
    assert r.decisions.get("memory_add", 0) + r.decisions.get("bank_entries", 0) >= 1
