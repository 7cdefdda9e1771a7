"""What the offline consolidator writes must read like distilled memory, not raw chat."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.analysis import distill, salience, temporal
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes as fmt
from agent_sleep.core.notes import sources_of
from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.providers import offline

DAY = dt.date(2023, 5, 8)

SMALL_TALK = [
    "Priya: Hey Tom! Nice to see you! How's everything going?",
    "Tomas: Thanks, Priya! That's really sweet.",
    "Priya: Wow, that's so cool! You're doing amazing!",
    "Tomas: Sounds fun! Can't wait to hear more!",
    "Priya: Bye! Take care, talk to you soon!",
    "Tomas: Yep, totally agree. Glad you had fun!",
    "Priya: What kinda trips are you planning?",
]
FACTS = [
    "Priya: I went to a pottery workshop yesterday and it was so calming.",
    "Tomas: Yeah, I sketched that harbour at dawn last year!",
    "Priya: I'm keen on teaching or working in a library.",
    "Tomas: We adopted a cat named Bailey in March and she is 2 years old.",
]


@pytest.mark.parametrize("text", SMALL_TALK)
def test_small_talk_is_recognised(text: str) -> None:
    assert distill.small_talk(text)
    assert salience.tier_of(0.9, "B", text) == "prune"


@pytest.mark.parametrize("text", FACTS)
def test_statements_of_fact_are_not_small_talk(text: str) -> None:
    assert not distill.small_talk(text)
    assert salience.tier_of(0.9, "B", text) == "keep"


def test_notes_written_on_purpose_and_dated_notes_are_never_pruned() -> None:
    assert salience.tier_of(0.1, "W", "ok") != "prune"
    assert salience.tier_of(0.1, "B", "ok see you at 9pm") != "prune"


def test_an_agents_own_note_is_never_pruned_for_its_rank_only_a_chat_turn_is() -> None:
    fact = "Fixed the flaky billing test by freezing the clock with freezegun"
    assert salience.tier_of(0.05, "B", fact) != "prune"
    assert salience.tier_of(0.05, "B", f"Tomas: {fact.lower()}") == "prune"
    assert salience.tier_of(0.05, "B", "ok, thanks!") == "prune"  # small talk still goes


def test_a_sleep_keeps_every_informative_note_of_a_short_agent_day(tmp_path: Path) -> None:
    day = [
        ("B", "Fixed the flaky billing test by freezing the clock with freezegun"),
        ("W", "The billing service retries webhooks 5 times over 24 hours"),
        ("B", "Deployed billing v2 to staging yesterday"),
        ("W", "Staging database is reset every Sunday at 02:00 UTC"),
        ("B", "Maria from the payments team owns the webhook signing keys"),
        ("W", "Billing v2 needs the STRIPE_WEBHOOK_SECRET env var in every environment"),
    ]
    at = dt.datetime.combine(DAY, dt.time(9, 0))
    ids = [
        micro_rest(text, kind, workspace=tmp_path, when=at + dt.timedelta(minutes=k))
        for k, (kind, text) in enumerate(day)
    ]
    sleep_cycle(workspace=tmp_path, now=dt.datetime.combine(DAY, dt.time(22, 0)))
    ws = Workspace.at(tmp_path)
    filed = ws.memory_md.read_text() + "".join(
        p.read_text() for p in sorted(ws.bank_dir.rglob("*.md"))
    )
    assert all(i in filed for i in ids)
    concept_pages = sorted(p.stem for p in ws.concepts_dir.glob("*.md"))
    assert "deployed" not in concept_pages  # a page is named after a topic other notes share


def test_condense_keeps_speaker_facts_and_every_date() -> None:
    text = (
        "Tomas: Hey Priya, good to hear from you! Wow, that's awesome. "
        "I ran a charity race for the library last Saturday (2023-05-06) - it was so rewarding. "
        "We're heading to the beach on 14 June. What about you? Thanks again!"
    )
    out = distill.condense(text, 15)
    assert out.startswith("Tomas: I ran a charity race for the library")
    for e in temporal.extract(text):
        assert e.text in out
    for gone in ("Hey", "awesome", "What about you", "Thanks again", "rewarding"):
        assert gone not in out
    assert len(out.split()) <= len(text.split()) / 2


def test_condense_respects_its_budget_but_keeps_the_best_sentence() -> None:
    text = (
        "Jon: I lost my job at the bank and started a dance studio downtown with two partners. "
        "The studio teaches contemporary and hip-hop classes for kids and adults every evening. "
        "I also signed a lease for a second room near the river for private lessons."
    )
    short = distill.condense(text, 5)
    assert short.startswith("Jon: ") and len(lexical_sentences(short)) == 1
    assert distill.condense(text, 200) == text


def lexical_sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text.split(": ", 1)[1]) if s]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Tomas: Thanks, Priya! I met Matt Patterson in New York.",
            ["Matt Patterson", "New York"],
        ),
        ("Priya: Biscuit's hilarious! He hid his ball in my boot.", []),
        ("Priya: Yep, they're here. Bye! Can't wait, we've been busy.", []),
        ("Jon: Hey Gina! I went to Paris with Jon.", ["Paris", "Jon"]),
        ("Gina: Yeah Tom, I went to Paris. In Boston, we met Jon.", ["Paris", "Boston", "Jon"]),
    ],
)
def test_names_are_proper_nouns_only(text: str, expected: list[str]) -> None:
    assert distill.names(text) == expected


def test_a_sentence_opening_word_is_a_name_only_when_known() -> None:
    corpus = [
        "Priya: Biscuit's hilarious! He hid his ball.",
        "Tomas: I walked Biscuit today.",
        "Priya: Take it easy. Long day. I will take the bus.",
    ]
    known = distill.known_names(corpus)
    assert "Biscuit" in known and "Take" not in known and "Long" not in known
    assert distill.names(corpus[0], known) == ["Biscuit"]
    assert distill.known_names(["Alice owns the repo.", "Alice reviews code."]) == {"Alice"}


def _n(i: str, text: str, tier: str = "keep", kind: str = "B") -> dict[str, Any]:
    return {
        "id": i,
        "date": "2023-05-08",
        "time": "10:00",
        "type": kind,
        "confidence": None,
        "text": text,
        "salience": 0.7,
        "tier": tier,
    }


def test_nrem_prunes_small_talk_and_counts_it() -> None:
    notes = [_n(f"s{i}", t) for i, t in enumerate(SMALL_TALK)]
    notes += [_n(f"f{i}", t) for i, t in enumerate(FACTS)]
    out = offline.nrem({"notes": notes, "memory": []})
    cited = {s for item in out["memory_md_updates"] + out["bank_updates"] for s in item["sources"]}
    assert out["pruned_count"] == len(SMALL_TALK)
    assert cited == {f"f{i}" for i in range(len(FACTS))}
    assert out["open_questions"] == []  # "How have you been?" is not a gap worth a task


def test_nrem_merges_near_duplicates_with_a_reinforcement_count() -> None:
    same = "Priya: I moved to Boston in May 2023 for a counseling job."
    notes = [
        _n("a1", same),
        _n("a2", "Priya: Wow! I moved to Boston in May 2023 for a counseling job."),
        _n("a3", same),
        _n("b1", "Tomas: My daughter turned 8 and we threw a party at the lake."),
    ]
    out = offline.nrem({"notes": notes, "memory": []})
    items = out["memory_md_updates"] + [
        {"text": b["content"], "sources": b["sources"]} for b in out["bank_updates"]
    ]
    boston = [i for i in items if "Boston" in i["text"]]
    assert len(boston) == 1 and boston[0]["sources"] == ["a1", "a2", "a3"]
    [fast] = [u for u in out["memory_md_updates"] if "Boston" in u["text"]]
    assert fast["confidence"] == pytest.approx(0.95)  # 0.75 + 0.1 per extra note, capped


def test_slow_track_files_a_chat_turn_on_its_speakers_page() -> None:
    notes = [_n("a1", "Tomas: Thanks, Priya! I signed up for a pottery class.", "condense")]
    [item] = offline.nrem({"notes": notes, "memory": []})["bank_updates"]
    assert item["slug"] == "tomas" and item["kind"] == "entity"
    assert item["content"] == "Tomas: I signed up for a pottery class."


def test_rem_suggests_pages_for_recurring_names_and_topics_only() -> None:
    notes = [
        _n("a1", "Tomas: Biscuit hid his ball in my boot. They're cute, yep."),
        _n("a2", "Tomas: I took Biscuit to the vet for his vaccination."),
        _n("a3", "Priya: I bought a toy for Biscuit at the pottery fair."),
        _n("a4", "Priya: I finished the pottery class yesterday."),
        _n("a5", "Tomas: My pottery bowl cracked in the kiln."),
        _n("a6", "Priya: Bye! Yep, can't wait, they're great."),
    ]
    out = offline.rem({"notes": notes, "memory": [], "open_questions": [], "bank_pages": []})
    pages = {(s["slug"], s["kind"]) for s in out["new_bank_suggestions"]}
    assert pages == {("biscuit", "entity"), ("pottery", "concept")}
    for s in out["new_bank_suggestions"]:
        assert set(s["sources"]) <= {"a1", "a2", "a3", "a4", "a5"}


@pytest.fixture
def chat_workspace(tmp_path: Path) -> Workspace:
    ws = Workspace.at(tmp_path / "ws").ensure()
    day = [
        "Priya: Hey Tom! Nice to see you! How's everything going?",
        "Tomas: Hey Priya! Good to see you! I'm buried in work and the garden.",
        "Priya: I went to a pottery workshop yesterday and it was so calming.",
        "Tomas: Wow, that's cool, Priya! Did you make anything you liked?",
        "Priya: Thanks, Tomas! The workshop gave me the patience to finish a bowl.",
        "Tomas: Yeah, I sketched that harbour at dawn last year! It's special to me.",
        "Priya: Thanks, Tom! Sounds great! Bye!",
        "Tomas: Yep. Talk to you soon! Take care!",
    ]
    for k, text in enumerate(day):
        micro_rest(text, "B", workspace=ws, when=dt.datetime(2023, 5, 8, 13, k), source=f"D1:{k}")
    return ws


def test_a_slept_chat_reads_like_memory(chat_workspace: Workspace) -> None:
    ws = chat_workspace
    result = sleep_cycle(ws, "both", "offline", since=DAY)
    assert result.decisions["pruned"] >= 4
    entries = [
        n for p in [ws.memory_md, *ws.bank_pages()] for n in fmt.notes_in(ws.read_text(p)) if n.id
    ]
    texts = "\n".join(n.text for n in entries)
    for junk in ("Good to see you", "Bye", "Talk to you soon", "Sounds great", "Thanks"):
        assert junk not in texts
    assert "yesterday (2023-05-07)" in texts and "last year (2022)" in texts
    slugs = {p.stem for p in ws.bank_pages()}
    assert slugs <= {"priya", "tomas", "pottery", "memory-archive"}
    raw = [n for p in ws.daily_logs() for n in fmt.parse(ws.read_text(p)).notes("Retain")]
    assert len(raw) == 8  # pruned notes stay in the daily log
    cited = {s for n in entries for s in sources_of(n)}
    assert cited <= {n.id for n in raw}
    raw_words = sum(len(n.text.split()) for n in raw)
    assert sum(len(n.text.split()) for n in entries) < 0.5 * raw_words


@pytest.mark.parametrize(
    ("sentence", "pieces"),
    [
        (
            "I ran a race last Saturday - it was so rewarding!",
            ["I ran a race last Saturday.", "It was so rewarding!"],
        ),
        (
            "I run every day - running, reading - which keeps me sane.",
            ["I run every day - running, reading - which keeps me sane."],
        ),
        ("Researching agencies; Boston has three.", ["Researching agencies.", "Boston has three."]),
        # an en dash between words is a span, not a break (a bakery's Dreams line had quoted
        # "… shift through December" without "Ben asked to keep his Wed–")
        (
            "Ben asked to keep his Wed–Sun 7am to 3pm shift through December.",
            ["Ben asked to keep his Wed–Sun 7am to 3pm shift through December."],
        ),
        (
            "The talk went well—Dana wants a follow-up.",
            ["The talk went well.", "Dana wants a follow-up."],
        ),
    ],
)
def test_clauses_cut_only_where_a_new_statement_starts(sentence: str, pieces: list[str]) -> None:
    assert distill.clauses(sentence) == pieces


def test_a_photo_caption_never_stands_in_for_what_was_said() -> None:
    text = "Tomas: Wow, so cool! [shares a photo: a man and a woman eating food on a blanket]"
    assert distill.small_talk(text)
    fact = "Tomas: I adopted a puppy. [shares a photo: a small brown dog asleep on a red blanket]"
    assert distill.condense(fact, 5) == "Tomas: I adopted a puppy."
    assert distill.condense(fact, 50).endswith("[photo: a small brown dog asleep on a red blanket]")


def test_density_ranks_statements_above_small_talk() -> None:
    window = [(f"s{i}", "B", t) for i, t in enumerate(SMALL_TALK)]
    window += [(f"f{i}", "B", t) for i, t in enumerate(FACTS)]
    scores = salience.score(window)
    assert min(scores[f"f{i}"].density for i in range(len(FACTS))) > max(
        scores[f"s{i}"].density for i in range(len(SMALL_TALK))
    )
    assert all(scores[f"s{i}"].tier == "prune" for i in range(len(SMALL_TALK)))


def test_a_condensed_note_scores_as_it_did() -> None:
    text = (
        "Priya: The talks were so moving! I was so glad and grateful for all the "
        "help. [shares a photo: a photo of a cat sitting on a window sill next to a large "
        "pot of basil]"
    )
    once = distill.condense(text, 30)
    assert once.endswith("a window sill next to a large pot of basil]")
    assert distill.information(once) == distill.information(text)
    assert distill.condense(once, 30) == once


def test_a_backlog_gets_a_few_memory_entries_per_day_not_per_run() -> None:
    # visits, not moves: eight moves in a row would each supersede the last (issue 11)
    fact = "Priya: I visited {} on {} May 2023 with my sister {} and her {} kids."
    towns = ["Boston", "Denver", "Austin", "Seattle", "Portland", "Chicago", "Miami", "Tulsa"]
    notes = [
        {**_n(f"d{d}n{i}", fact.format(town, i + 1, f"Ann{d}{i}", i + 2)), "date": f"2023-05-0{d}"}
        for d in (1, 2)
        for i, town in enumerate(towns)
    ]
    out = offline.nrem({"notes": notes, "memory": []})
    days = Counter(s[:2] for u in out["memory_md_updates"] for s in u["sources"])
    assert days == {"d1": offline.MAX_FAST, "d2": offline.MAX_FAST}
    assert len(out["bank_updates"]) == 2 * (len(towns) - offline.MAX_FAST)


def test_open_questions_are_real_gaps_stated_in_one_sentence() -> None:
    notes = [
        _n("a1", "Priya: Glad you had fun! Life is short, do more of that!"),
        _n("a2", "Jon: Hey Gina! Not sure whether the venue in Boston takes deposits before June."),
        _n("a3", "Gina: How have you been? Anything new?"),
    ]
    out = offline.nrem({"notes": notes, "memory": []})
    assert out["open_questions"] == [
        {
            "text": "Jon: Not sure whether the venue in Boston takes deposits before June.",
            "sources": ["a2"],
        }
    ]
