"""Temporal resolution and extraction, salience tiers, the offline consolidator, the validator."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from agent_sleep.analysis import salience, temporal
from agent_sleep.core import schema
from agent_sleep.providers import offline, prompts

MAY8 = dt.date(2023, 5, 8)  # a Monday


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("went yesterday", "went yesterday (2023-05-07)"),
        ("Yesterday it rained", "Yesterday (2023-05-07) it rained"),
        ("see you tomorrow", "see you tomorrow (2023-05-09)"),
        ("the day before yesterday", "the day before yesterday (2023-05-06)"),
        ("3 days ago", "3 days ago (2023-05-05)"),
        ("two weeks ago", "two weeks ago (2023-04-24)"),
        ("in 2 weeks", "in 2 weeks (2023-05-22)"),
        ("last week", "last week (week of 2023-05-01)"),
        ("next week", "next week (week of 2023-05-15)"),
        ("last Friday", "last Friday (2023-05-05)"),
        ("last Monday", "last Monday (2023-05-01)"),
        ("next Monday", "next Monday (2023-05-15)"),
        ("this Friday", "this Friday (2023-05-12)"),
        ("last weekend", "last weekend (weekend of 2023-05-06)"),
        ("this weekend", "this weekend (weekend of 2023-05-13)"),
        ("last month", "last month (2023-04)"),
        ("a month ago", "a month ago (2023-04)"),
        ("last year", "last year (2022)"),
        ("last night", "last night (2023-05-07)"),
        # after a possessive, not inside it
        ("after this afternoon's upgrade", "after this afternoon's (2023-05-08) upgrade"),
        ("yesterday’s standup ran long", "yesterday’s (2023-05-07) standup ran long"),
        ("on Friday", "on Friday"),
        ("no time here", "no time here"),
    ],
)
def test_resolve(text: str, expected: str) -> None:
    assert temporal.resolve(text, MAY8) == expected
    assert temporal.resolve(expected, MAY8) == expected  # idempotent


def test_resolve_month_end() -> None:
    assert temporal.resolve("last month", dt.date(2023, 3, 31)) == "last month (2023-02)"


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("on 7 May 2023 at 9pm", ["date", "time"]),
        ("she turned 30 and is 22 years old", ["age", "age"]),
        ("for 3 hours, then two weeks", ["duration", "duration"]),
        ("I may go, since 2016", ["date"]),
        ("yesterday and last Tuesday", ["relative", "relative"]),
        ("nothing temporal", []),
    ],
)
def test_extract(text: str, kinds: list[str]) -> None:
    assert [e.kind for e in temporal.extract(text)] == kinds


def test_salience_components_and_tiers() -> None:
    window = [
        ("a", "B", "Thanks!"),
        ("b", "B", "Caroline moved to Boston in May 2023 with Melanie"),
        ("c", "W", "ok"),
        ("d", "B", "Caroline loves Boston and Melanie visited Boston twice"),
        ("e", "B", "haha yes"),
    ]
    s = salience.score(window)
    assert s["a"].tier == "prune"
    assert s["c"].tier == "condense"  # W notes are protected from pruning
    assert s["b"].downstream > 0 and s["b"].density > s["a"].density
    assert s["e"].recency == 1.0
    ids = [w[0] for w in window]
    down = salience.percentiles([s[i].downstream for i in ids])
    den = salience.percentiles([s[i].density for i in ids])
    for k, i in enumerate(ids):
        expected = 0.4 * down[k] + 0.3 * s[i].recency + 0.3 * den[k]
        assert s[i].salience == pytest.approx(expected, abs=1e-3)
    assert s["b"].salience > s["a"].salience
    assert salience.score(window) == s


def test_percentiles_share_ties() -> None:
    assert salience.percentiles([0.0, 0.0, 1.0, 2.0]) == pytest.approx([0, 0, 2 / 3, 1])
    assert salience.percentiles([0.5]) == [0.0]


def test_temporal_notes_are_never_pruned() -> None:
    assert salience.tier_of(0.01, "B", "ok see you at 9pm") == "condense"
    assert salience.tier_of(0.01, "B", "ok see you") == "prune"


def test_condense_keeps_temporal_sentences_verbatim() -> None:
    text = "Caroline: Wow! Thanks so much. I went to the LGBTQ support group on 7 May 2023. Haha."
    out = offline.condense(text)
    assert (
        out.startswith("Caroline: ") and "I went to the LGBTQ support group on 7 May 2023." in out
    )
    assert "Wow" not in out and "Haha" not in out


def _n(
    i: str, text: str, kind: str = "B", tier: str = "keep", conf: float | None = None
) -> dict[str, Any]:
    return {
        "id": i,
        "date": "2023-05-08",
        "time": "10:00",
        "type": kind,
        "confidence": conf,
        "text": text,
        "salience": 0.7,
        "tier": tier,
    }


def test_nrem_merges_duplicates_and_counts_reinforcement() -> None:
    p = {
        "notes": [
            _n("a1", "User prefers concise replies under 200 words", "O", conf=0.8),
            _n("a2", "User prefers concise replies under 200 words", "O", conf=0.8),
            _n("a3", "Unrelated chatter", tier="prune"),
        ],
        "memory": [],
    }
    out = offline.nrem(p)
    assert out["pruned_count"] == 1
    [item] = out["memory_md_updates"]
    assert item["sources"] == ["a1", "a2"] and item["confidence"] == pytest.approx(0.9)
    assert offline.nrem(p) == out  # deterministic
    assert schema.errors(out, prompts.NREM_SCHEMA) == []


def test_nrem_does_not_merge_different_dates() -> None:
    p = {
        "notes": [
            _n("a1", "Team sync happened on 7 May 2023"),
            _n("a2", "Team sync happened on 9 May 2023"),
        ],
        "memory": [],
    }
    out = offline.nrem(p)
    texts = [u["text"] for u in out["memory_md_updates"]] + [
        b["content"] for b in out["bank_updates"]
    ]
    assert sorted(texts) == ["Team sync happened on 7 May 2023", "Team sync happened on 9 May 2023"]


def test_nrem_repeat_of_memory_entry_updates_it() -> None:
    p = {
        "notes": [_n("a1", "Redis default port is 6379", "W")],
        "memory": [
            {"id": "m1", "type": "W", "confidence": None, "text": "Redis default port is 6379"}
        ],
    }
    [item] = offline.nrem(p)["memory_md_updates"]
    assert item["action"] == "update" and item["replaces"] == "m1" and item["sources"] == ["a1"]


def test_nrem_contradiction_supersedes_never_reinforces() -> None:
    # issue 11: a contradicting opinion never raises the old one; it supersedes it (the apply
    # path turns a weaker one into a contest), and is not also added beside it
    p = {
        "notes": [_n("a1", "User likes the dark editor theme", "O", conf=0.8)],
        "memory": [
            {
                "id": "m1",
                "type": "O",
                "confidence": 0.8,
                "text": "User does not like the dark editor theme",
            }
        ],
    }
    out = offline.nrem(p)
    [item] = out["memory_md_updates"]
    assert item["action"] == "supersede" and item["replaces"] == "m1"
    assert item["sources"] == ["a1"] and item["confidence"] == 0.8
    assert out["bank_updates"] == []


def test_nrem_groups_slow_track_by_entity() -> None:
    p = {
        "notes": [
            _n("a1", "Caroline: I went to a support group", tier="condense"),
            _n("a2", "Maybe Bob will visit Alice in June?", tier="condense"),
        ],
        "memory": [],
    }
    out = offline.nrem(p)
    slugs = {b["slug"]: b for b in out["bank_updates"]}
    assert slugs["caroline"]["kind"] == "entity" and slugs["caroline"]["section"] == "## 2023-05-08"
    assert out["open_questions"][0]["sources"] == ["a2"]


def test_rem_output_is_grounded_and_valid() -> None:
    notes = [
        _n(f"n{i}", f"Alice {how} prefers the billing migration plan reviewed early.")
        for i, how in enumerate(("still", "again", "really"))
    ]
    memory = [
        {
            "id": "m1",
            "type": "O",
            "confidence": 0.7,
            "text": "Alice prefers the billing migration plan reviewed early",
            "sources": [],
            "evidence": [],
        }
    ]
    out = offline.rem({"notes": notes, "memory": memory, "open_questions": [], "bank_pages": []})
    assert schema.errors(out, prompts.REM_SCHEMA) == []
    ids = {"n0", "n1", "n2", "m1"}
    for key in (
        "aha_moments",
        "creative_connections",
        "new_bank_suggestions",
        "confidence_updates",
    ):
        for item in out[key]:
            assert set(item["sources"]) <= ids and item["sources"]
    assert out["new_bank_suggestions"][0]["slug"] == "alice"
    assert out["confidence_updates"][0]["new_c"] > 0.7


def test_another_opinion_of_one_subject_is_no_support() -> None:
    """ "Dana prefers small pull requests" says nothing for "Dana prefers squash merges for pull
    requests" (cosine 0.69): raised by it, the entry then outweighed the note that reversed it."""
    memory = [
        {
            "id": "m1",
            "type": "O",
            "confidence": 0.7,
            "text": "Dana prefers squash merges for pull requests.",
            "sources": [],
            "evidence": [],
        }
    ]
    other = [_n("n0", "Dana prefers small pull requests under 400 lines.")]
    out = offline.rem({"notes": other, "memory": memory, "open_questions": [], "bank_pages": []})
    assert out["confidence_updates"] == []
    again = [_n("n1", "Dana still prefers squash merges for pull requests.")]
    out = offline.rem({"notes": again, "memory": memory, "open_questions": [], "bank_pages": []})
    assert [u["new_c"] for u in out["confidence_updates"]] == [0.75]


def test_schema_validator() -> None:
    good = {"notes": [{"type": "W", "confidence": 1, "text": "x"}]}
    assert schema.errors(good, prompts.FLUSH_SCHEMA) == []
    bad = {"notes": [{"type": "Q", "confidence": True, "text": 3, "extra": 1}]}
    errs = schema.errors(bad, prompts.FLUSH_SCHEMA)
    assert any("'Q' is not one of" in e for e in errs)
    assert any("confidence: expected number" in e for e in errs)
    assert any("unexpected key 'extra'" in e for e in errs)
    assert schema.errors({}, prompts.FLUSH_SCHEMA) == ["$: missing required key 'notes'"]


def test_concept_pages_are_named_by_words_not_dates() -> None:
    p = {
        "notes": [
            _n(
                "a1",
                "fixed the flaky auth test yesterday (2026-11-28) by pinning the clock",
                tier="condense",
            )
        ],
        "memory": [],
    }
    [item] = offline.nrem(p)["bank_updates"]
    assert item["kind"] == "concept" and item["slug"].isalpha()


def _entry(i: str, text: str, date: str) -> dict[str, Any]:
    return {"id": i, "type": "W", "confidence": 0.8, "text": text, "sources": [f"s{i}"],
            "evidence": [], "date": date}  # fmt: skip


def test_rem_connects_notes_by_what_few_texts_share_and_says_what() -> None:
    """A name every note holds (the user's own) is no connection, nor "keeps coming up"; a
    connection names what links the two texts."""
    notes = [
        {**_n("n1", "Maya prefers pytest fixtures over setUp methods."), "date": "2026-11-18"},
        {
            **_n(
                "n2", "Kafka evaluation cancelled: the team sticks with RabbitMQ for ledger events."
            ),
            "date": "2026-11-18",
        },  # fmt: skip
        {**_n("n3", "Maya asked for a shorter standup summary today."), "date": "2026-11-18"},
    ]
    memory = [
        _entry("m1", "Maya prefers squash-merging PRs.", "2026-11-10"),
        _entry(
            "m2",
            "The team is evaluating Kafka to replace RabbitMQ for ledger events.",
            "2026-11-10",
        ),  # fmt: skip
        _entry("m3", "Maya lives in Portland, Oregon.", "2026-11-07"),
        _entry("m4", "Maya drives a 2015 Honda Civic.", "2026-11-07"),
        _entry("m5", "Maya is vegetarian and allergic to penicillin.", "2026-11-07"),
        _entry("m6", "Maya's son Leo plays soccer on Saturdays.", "2026-11-08"),
    ]
    out = offline.rem({"notes": notes, "memory": memory, "open_questions": [], "bank_pages": []})
    assert schema.errors(out, prompts.REM_SCHEMA) == []
    links = out["creative_connections"]
    assert [c["sources"] for c in links] == [["n2", "m2"]]
    assert "Kafka" in links[0]["why"] and "RabbitMQ" in links[0]["why"]
    assert not any("Maya" in c["why"] for c in links)
    assert not any(a["text"].startswith("Maya keeps coming up") for a in out["aha_moments"])
