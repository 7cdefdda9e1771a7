"""The merge rules of memory files: pure functions, checked rule by rule and on random edits."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from agent_sleep.core import notes as fmt
from agent_sleep.sync.merge import kind_of, merge_text

LOG = "memory/2026-12-01.md"
HEAD = "# 2026-12-01\n\n## Retain\n\n"


def n(time: str | None, kind: str, text: str, nid: str, **meta: str) -> str:
    note = fmt.Note(
        type=kind[0],
        text=text,
        id=nid,
        time=time,
        confidence=0.8 if kind == "O" else None,
        meta={"id": nid, **meta},
    )
    return fmt.render_note(note)


def ids(text: str) -> list[str]:
    return [x.id for x in fmt.notes_in(text)]


def test_kinds() -> None:
    assert kind_of("memory/2026-12-01.md") == "log"
    assert kind_of("MEMORY.md") == "entries"
    assert kind_of("bank/entities/billing.md") == "entries"
    assert kind_of("notes.txt") == "text"


def test_log_is_the_union_of_both_sides_in_time_order() -> None:
    base = HEAD + n("09:00", "B", "a", "a000000000")
    ours = base + n("10:05", "B", "c", "c000000000") + n("12:00", "W", "e", "e000000000")
    theirs = base + n("10:03", "B", "b", "b000000000") + n("11:00", "W", "d", "d000000000")
    merged = merge_text(LOG, base, ours, theirs)
    assert ids(merged) == ["a000000000", "b000000000", "c000000000", "d000000000", "e000000000"]
    assert merged.startswith(HEAD) and merged.count("## Retain") == 1
    # the other direction gives the same file: every clone converges on one text
    assert merge_text(LOG, base, theirs, ours) == merged


def test_logs_created_on_two_machines_without_a_common_ancestor() -> None:
    ours = HEAD + n("09:00", "B", "a", "a000000000")
    theirs = HEAD + n("08:00", "B", "b", "b000000000")
    merged = merge_text(LOG, "", ours, theirs)
    assert ids(merged) == ["b000000000", "a000000000"]
    assert merged.count("# 2026-12-01") == 1 and merged.count("## Retain") == 1


def test_a_note_removed_on_one_side_stays_removed_and_edits_win_over_removal() -> None:
    dream = "\n## Dreams\n\n" + n("18:00", "S", "a dream", "s000000000", sources="a000000000")
    base = HEAD + n("09:00", "B", "a", "a000000000") + dream
    rolled_back = HEAD + n("09:00", "B", "a", "a000000000")
    appended = base + "\n## Retain\n\n" + n("19:00", "B", "late", "l000000000")
    merged = merge_text(LOG, base, rolled_back, appended)
    assert "s000000000" not in ids(merged) and {"a000000000", "l000000000"} <= set(ids(merged))
    edited = base.replace("a dream", "a dream, corrected by hand")
    merged = merge_text(LOG, base, rolled_back, edited)
    assert "corrected by hand" in merged


MEM = (
    "# MEMORY\n\nLong-term memory.\n\n## Facts\n\n"
    + n(None, "W", "Redis listens on 6379", "f100000000", sources="n100000000")
    + n(None, "W", "Staging resets on Sunday", "f200000000", sources="n200000000")
)


def test_additions_from_both_sides_are_kept_under_their_sections() -> None:
    ours = (
        MEM + "\n## Preferences\n\n" + n(None, "O", "User likes tabs", "p100000000", sources="n3")
    )
    theirs = MEM + n(None, "W", "Billing retries 5 times", "f300000000", sources="n4")
    merged = merge_text("MEMORY.md", MEM, ours, theirs)
    doc = fmt.parse(merged)
    sections = {b.note.id: b.section for b in doc.blocks if b.note}
    assert sections["f300000000"] == "Facts" and sections["p100000000"] == "Preferences"
    assert len(ids(merged)) == 4 == len(set(ids(merged)))


def test_superseded_on_one_side_stays_superseded() -> None:
    old = n(None, "W", "Staging resets on Sunday", "f200000000", sources="n200000000")
    new = n(None, "W", "Staging resets on Sunday at 02:00", "f900000000", sources="n200000000,n5")
    ours = MEM.replace(old, new)
    theirs = MEM + n(None, "W", "Billing retries 5 times", "f300000000", sources="n4")
    merged = merge_text("MEMORY.md", MEM, ours, theirs)
    assert "f200000000" not in ids(merged)
    assert {"f900000000", "f300000000", "f100000000"} == set(ids(merged))
    assert merge_text("MEMORY.md", MEM, theirs, ours).count("f200000000") == 0


def test_superseded_stays_superseded_when_the_other_side_only_reinforced_it() -> None:
    old = n(None, "W", "Staging resets on Sunday", "f200000000", sources="n200000000")
    new = n(
        None, "W", "Staging resets on Monday", "f900000000", sources="n6", supersedes="f200000000"
    )
    superseded = MEM.replace(old, new)
    reinforced = MEM.replace(
        old, n(None, "W", "Staging resets on Sunday", "f200000000", sources="n200000000,n7")
    )
    for merged in (
        merge_text("MEMORY.md", MEM, superseded, reinforced),
        merge_text("MEMORY.md", MEM, reinforced, superseded),
    ):
        assert "f200000000" not in ids(merged)
        (succ,) = [x for x in fmt.notes_in(merged) if x.id == "f900000000"]
        assert succ.meta["sources"] == "n6,n7"  # the reinforcing note is still cited


def test_an_entry_moved_to_history_on_one_side_is_there_once() -> None:
    page = "# Billing\n\n## Facts\n\n" + n(None, "W", "Retries 3 times", "r100000000", sources="n1")
    moved = (
        page.replace(
            n(None, "W", "Retries 3 times", "r100000000", sources="n1"),
            n(None, "W", "Retries 5 times", "r200000000", sources="n2", supersedes="r100000000"),
        )
        + "\n## History\n\n"
        + n(None, "W", "Retries 3 times", "r100000000", sources="n1", superseded_by="r200000000")
    )
    reinforced = page.replace("sources=n1", "sources=n1,n3")
    for merged in (
        merge_text("bank/entities/billing.md", page, moved, reinforced),
        merge_text("bank/entities/billing.md", page, reinforced, moved),
    ):
        doc = fmt.parse(merged)
        where = [
            (b.section, b.note.meta) for b in doc.blocks if b.note and b.note.id == "r100000000"
        ]
        assert len(where) == 1 and where[0][0] == "History"
        assert where[0][1]["superseded_by"] == "r200000000" and where[0][1]["sources"] == "n1,n3"


def test_a_hand_edit_and_a_sleep_on_the_same_entry_lose_nothing() -> None:
    old = n(None, "W", "Staging resets on Sunday", "f200000000", sources="n200000000")
    by_sleep = MEM.replace(
        old, n(None, "W", "Staging resets Sundays", "f900000000", sources="n200000000,n6")
    )
    by_hand = MEM.replace("Staging resets on Sunday", "Staging resets on Sunday (ask ops first)")
    one = merge_text("MEMORY.md", MEM, by_hand, by_sleep)
    two = merge_text("MEMORY.md", MEM, by_sleep, by_hand)
    for merged in (one, two):
        assert "(ask ops first)" in merged and "f900000000" in ids(merged)
    assert merge_text("MEMORY.md", MEM, by_hand, by_sleep) == one  # deterministic


def test_entries_citing_the_same_notes_are_not_duplicated() -> None:
    a = n(None, "W", "Billing retries webhooks five times", "x100000000", sources="n7,n8")
    b = n(None, "W", "Webhooks are retried 5 times by billing", "x200000000", sources="n7,n8")
    c = n(None, "W", "Webhooks retry 5 times over 24 hours", "x300000000", sources="n7,n8,n9")
    merged = merge_text("MEMORY.md", MEM, MEM + a, MEM + b)
    assert ids(merged).count("x100000000") == 1 and "x200000000" not in ids(merged)
    assert merge_text("MEMORY.md", MEM, MEM + b, MEM + a) == merged
    merged = merge_text("MEMORY.md", MEM, MEM + a, MEM + c)  # a superset of the same notes
    assert "x300000000" in ids(merged) and "x100000000" not in ids(merged)


def test_the_same_text_twice_keeps_one_entry_with_both_sources() -> None:
    a = n(None, "W", "Billing retries 5 times", "x100000000", sources="n7")
    b = n(None, "W", "Billing retries  5 times", "x200000000", sources="n8")
    merged = merge_text("MEMORY.md", MEM, MEM + a, MEM + b)
    entry = [x for x in fmt.notes_in(merged) if x.id == "x100000000"]
    assert len(entry) == 1 and entry[0].meta["sources"] == "n7,n8"
    assert "x200000000" not in merged


def test_both_sides_edit_one_entry_fields_merge() -> None:
    base = MEM + n(None, "O", "User prefers small PRs", "p100000000", sources="n1")
    text_edit = base.replace("small PRs", "small PRs, one concern each")
    conf_edit = base.replace(
        n(None, "O", "User prefers small PRs", "p100000000", sources="n1"),
        fmt.render_note(
            fmt.Note(
                "O",
                "User prefers small PRs",
                "p100000000",
                None,
                0.95,
                {"id": "p100000000", "sources": "n1", "evidence": "n9"},
            )
        ),
    )
    merged = merge_text("MEMORY.md", base, text_edit, conf_edit)
    (entry,) = [x for x in fmt.notes_in(merged) if x.id == "p100000000"]
    assert entry.text == "User prefers small PRs, one concern each"
    assert entry.confidence == 0.95 and entry.meta["evidence"] == "n9"


def test_two_new_texts_for_one_entry_keep_both() -> None:
    base = MEM
    one = base.replace("Redis listens on 6379", "Redis listens on 6380")
    two = base.replace("Redis listens on 6379", "Redis listens on port 6379 in staging")
    merged = merge_text("MEMORY.md", base, one, two)
    texts = [x.text for x in fmt.notes_in(merged)]
    assert "Redis listens on 6380" in texts and "Redis listens on port 6379 in staging" in texts
    kept = [x for x in fmt.notes_in(merged) if x.meta.get("was") == "f100000000"]
    assert len(kept) == 1 and len(set(ids(merged))) == len(ids(merged))


def test_bank_frontmatter_keeps_one_updated_line() -> None:
    page = (
        "---\ntitle: Billing\nkind: entity\nupdated: 2026-11-29\n---\n\n# Billing\n\n## Notes\n\n"
    )
    ours = page.replace("2026-11-29", "2026-12-01") + n(None, "W", "a", "a100000000", sources="n1")
    theirs = page.replace("2026-11-29", "2026-12-02") + n(
        None, "W", "b", "b100000000", sources="n2"
    )
    merged = merge_text("bank/entities/billing.md", page, ours, theirs)
    assert merged.count("updated:") == 1 and "updated: 2026-12-02" in merged
    assert {"a100000000", "b100000000"} == set(ids(merged))


def test_hand_written_prose_from_both_sides_survives() -> None:
    ours = MEM.replace("Long-term memory.\n", "Long-term memory.\nOwner: ops team.\n")
    theirs = MEM + "\nSee also the runbook.\n"
    merged = merge_text("MEMORY.md", MEM, ours, theirs)
    assert "Owner: ops team." in merged and "See also the runbook." in merged


@pytest.mark.parametrize("seed", range(30))
def test_random_logs_lose_and_duplicate_nothing(seed: int) -> None:
    rng = random.Random(seed)
    counter = iter(range(10**6))

    def note() -> str:
        i = next(counter)
        t = f"{rng.randrange(24):02d}:{rng.randrange(60):02d}"
        return n(t, rng.choice("WBS"), f"note {i} " + "x" * rng.randrange(5), f"{i:010d}")

    base = HEAD + "".join(note() for _ in range(rng.randrange(6)))
    sides = []
    for _ in range(2):
        text = base + "".join(note() for _ in range(rng.randrange(6)))
        if rng.random() < 0.3:
            text += "\n## Dreams\n\n" + note()
        if rng.random() < 0.3:
            text += "\n## Retain\n\n" + note()
        sides.append(text)
    ours, theirs = sides
    merged = merge_text(LOG, base, ours, theirs)
    want = set(ids(ours)) | set(ids(theirs))
    counts = Counter(ids(merged))
    assert set(counts) == want and max(counts.values(), default=1) == 1
    assert "<<<<<<<" not in merged and ">>>>>>>" not in merged
    assert fmt.parse(merged).render() == merged
    # a sync killed after writing the merge commits it as its own change and merges again
    # from the same ancestor: nothing changes
    assert merge_text(LOG, base, merged, theirs) == merged


def test_notes_written_in_the_same_minute_keep_their_order() -> None:
    """A story told within a minute ("deployed", "saw errors", "rolled back") keeps the order
    it was written in on the other clone, whatever the ids; both directions agree here."""
    base = HEAD
    said = [n("10:00", "B", "Deployed v2", "zz00000000"), n("10:00", "B", "Saw 500s", "aa00000000"),
            n("10:00", "B", "Rolled back", "mm00000000")]  # fmt: skip
    ours = base + n("09:00", "B", "unrelated", "qq00000000")
    theirs = base + "".join(said)
    merged = merge_text(LOG, base, ours, theirs)
    assert ids(merged) == ["qq00000000", "zz00000000", "aa00000000", "mm00000000"]
    assert merge_text(LOG, base, theirs, ours) == merged
    # a note of ours in the same minute does not split the other side's sequence out of order
    ours = base + n("10:00", "B", "meanwhile", "bb00000000")
    merged = merge_text(LOG, base, ours, theirs)
    theirs_order = [i for i in ids(merged) if i != "bb00000000"]
    assert theirs_order == ["zz00000000", "aa00000000", "mm00000000"]


@pytest.mark.parametrize(
    ("path", "base", "edited", "old", "new", "added"),
    [
        (
            "MEMORY.md",
            "# MEMORY\n\n- Office wifi rotates monthly\n- VPN: use the EU gateway\n",
            "- VPN: use the US gateway (EU gateway retired)\n",
            "- VPN: use the EU gateway\n",
            "- VPN: use the US gateway (EU gateway retired)\n",
            "- Parking is on level -2\n",
        ),
        ("TODO.md", "# Todo\n\n- buy milk\n", "- buy oat milk\n", "- buy milk\n",
         "- buy oat milk\n", "- call Bob\n"),
    ],
)  # fmt: skip
def test_a_hand_line_one_side_rewrote_does_not_come_back_from_the_other(
    path: str, base: str, edited: str, old: str, new: str, added: str
) -> None:
    """One side corrects a hand-written line (no id), the other adds a line after it: the
    union kept the old line beside the corrected one, in both merge directions (an
    exploratory test)."""
    ours = base.replace(old, edited)
    theirs = base + added
    for merged in (merge_text(path, base, ours, theirs), merge_text(path, base, theirs, ours)):
        assert old not in merged.splitlines(keepends=True)
        assert merged.count(new) == 1 and merged.count(added) == 1
