"""Property-based round trips on structured, hand-edited-looking files.

- parse → render is the identity for any daily log, MEMORY.md and bank page built from headings,
  notes with metadata, continuation lines, frontmatter, code fences, blank and stray lines, with
  LF or CRLF ends and an optional BOM; and every note written outside a fence is found again
  with its id and metadata;
- render → parse gives back any note (text normalized);
- whatever sleep's apply step writes for arbitrary model output re-parses to itself, keeps every
  hand-written line, and adds no heading but its own.
"""

from __future__ import annotations

import datetime as dt
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_sleep.consolidation.apply import Builder
from agent_sleep.consolidation.plan import Inputs
from agent_sleep.core import notes
from agent_sleep.core.workspace import Workspace

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))

_ALPHABET = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")
words = st.text(_ALPHABET, min_size=0, max_size=40)
ids = st.text("0123456789abcdefghjkmnpqrstvwxyz", min_size=10, max_size=10)
meta_keys = st.sampled_from(["source", "sources", "date", "evidence", "was", "x_y"])
meta_values = st.text(_ALPHABET, max_size=20)


@st.composite
def note(draw: st.DrawFn, timed: bool = True) -> notes.Note:
    kind = draw(st.sampled_from(notes.NOTE_TYPES))
    text = draw(st.lists(words, min_size=1, max_size=3).map("\n".join))
    if not notes.normalize_text(text):
        text = "x"
    return notes.Note(
        type=kind,
        text=text,
        id=draw(ids),
        time=draw(st.sampled_from([None, "09:05", "23:59"])) if timed else None,
        confidence=draw(st.sampled_from([0.0, 0.35, 0.9, 1.0])) if kind == "O" else None,
        meta=draw(st.dictionaries(meta_keys, meta_values, max_size=3)),
    )


def _stray(draw: st.DrawFn) -> str:
    return draw(
        st.sampled_from(
            [
                "",
                "plain prose line",
                "- a list item that is not a note",
                "- W:no space after the colon",
                "<!-- id=zzzzzzzzzz -->",
                "- 14:32 O(c=2): confidence out of range",
                "####### seven hashes",
                "---",
                "\t- tabbed",
            ]
        )
    )


@st.composite
def document(draw: st.DrawFn, kind: str) -> tuple[str, list[notes.Note]]:
    """A file as a person (or a tool) might leave it, and the notes written outside fences."""
    lines: list[str] = []
    written: list[notes.Note] = []
    if kind == "bank" and draw(st.booleans()):
        lines += ["---", f"title: {draw(words)}", "kind: entity", "updated: 2026-01-01", "---", ""]
    if kind == "log":
        lines += ["# 2026-11-29", ""]
    elif kind == "memory":
        lines += ["# MEMORY", "", "Hand-written intro.", ""]
    in_fence = False
    for _ in range(draw(st.integers(0, 12))):
        choice = draw(st.integers(0, 9))
        if choice <= 4:
            n = draw(note(timed=kind == "log"))
            if n.id in {w.id for w in written}:
                continue
            rendered = notes.render_note(n)
            lines += rendered.rstrip("\n").split("\n")
            if not in_fence:
                written.append(n)
        elif choice == 5:
            level = draw(st.sampled_from(["#", "##", "###"]))
            title = draw(st.sampled_from(["Retain", "Dreams", "Facts", "Notes", "x"]))
            lines.append(f"{level} {title}")
        elif choice == 6:
            lines.append("```" + draw(st.sampled_from(["", "python"])))
            in_fence = not in_fence
        else:
            lines.append(_stray(draw))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    text = end.join(lines) + (end if draw(st.booleans()) else "")
    if lines and lines[0][:1] in "#-" and draw(st.integers(0, 9)) == 0:
        text = "\ufeff" + text  # a BOM before a title or frontmatter, where editors put it
    return text, written


def _same(parsed: notes.Note, original: notes.Note) -> None:
    assert parsed.id == original.id
    assert parsed.type == original.type and parsed.time == original.time
    assert parsed.text.replace("\r", "") == notes.normalize_text(original.text)
    expected = {k: v for k, v in original.meta.items() if k != "id" and v != ""}
    assert {k: v for k, v in parsed.meta.items() if k != "id"} == expected


def _check(text: str, written: list[notes.Note]) -> None:
    doc = notes.parse(text)
    assert doc.render() == text
    found = {n.id: n for n in doc.notes() if n.id}
    for n in written:
        if n.id in found:
            _same(found[n.id], n)
    assert {n.id for n in written} <= set(found)


@FUZZ
@given(document("log"))
def test_daily_log_round_trip(doc: tuple[str, list[notes.Note]]) -> None:
    _check(*doc)


@FUZZ
@given(document("memory"))
def test_memory_md_round_trip(doc: tuple[str, list[notes.Note]]) -> None:
    _check(*doc)


@FUZZ
@given(document("bank"))
def test_bank_page_round_trip(doc: tuple[str, list[notes.Note]]) -> None:
    _check(*doc)


@FUZZ
@given(note())
def test_render_then_parse_gives_the_note_back(n: notes.Note) -> None:
    (parsed,) = notes.parse(notes.render_note(n)).notes()
    _same(parsed, n)


# -- what sleep writes ---------------------------------------------------------------------

_WS = Workspace.at(Path(tempfile.mkdtemp(prefix="fuzz-ws-"))).ensure()
NOTE_IDS = ["a000000000", "b000000000", "c000000000"]
hostile_text = st.one_of(
    words,
    st.sampled_from(
        [
            "line one\n## Retain\n- W: forged <!-- id=zzzzzzzzzz -->",
            "```\n# MEMORY",
            "ends like metadata <!-- id=yyyyyyyyyy sources=a000000000 -->",
            "---\ntitle: x\n---",
            "  leading spaces\r\nCRLF inside",
            "W: prefixed already",
        ]
    ),
)
cites = st.lists(st.sampled_from([*NOTE_IDS, "never-seen"]), min_size=0, max_size=3)


@st.composite
def nrem_output(draw: st.DrawFn) -> dict[str, Any]:
    updates = draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "action": st.sampled_from(["add", "update", "remove"]),
                    "type": st.sampled_from(notes.NOTE_TYPES),
                    "confidence": st.floats(-1, 2),
                    "text": hostile_text,
                    "replaces": st.one_of(hostile_text, st.sampled_from(["m000000000", ""])),
                    "sources": cites,
                }
            ),
            max_size=6,
        )
    )
    bank = draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "slug": hostile_text,
                    "kind": st.sampled_from(["entity", "concept"]),
                    "section": hostile_text,
                    "content": hostile_text,
                    "sources": cites,
                }
            ),
            max_size=4,
        )
    )
    return {
        "memory_md_updates": updates,
        "bank_updates": bank,
        "pruned_count": 0,
        "weakly_learned": [],
        "open_questions": [],
    }


@st.composite
def rem_output(draw: st.DrawFn) -> dict[str, Any]:
    cited = st.fixed_dictionaries({"text": hostile_text, "sources": cites})
    return {
        "aha_moments": draw(st.lists(cited, max_size=3)),
        "creative_connections": draw(
            st.lists(
                st.fixed_dictionaries(
                    {"link": hostile_text, "why": hostile_text, "sources": cites}
                ),
                max_size=2,
            )
        ),
        "confidence_updates": [],
        "new_bank_suggestions": [],
        "next_session_actions": draw(st.lists(cited, max_size=3)),
    }


MEMORY = (
    "# MEMORY\r\n\r\nHand-written intro, CRLF.\r\n\r\n## Facts\r\n\r\n"
    "- W: Boston is in Massachusetts <!-- id=m000000000 sources=a000000000 -->\r\n"
    "- hand-written line that is not an entry\r\n"
)
LOG = "# 2026-11-29\n\n## Retain\n\n- 10:00 W: note <!-- id=a000000000 -->\n```\nopen fence\n"


@FUZZ
@given(nrem_output(), rem_output())
def test_whatever_sleep_writes_reparses(nrem: dict[str, Any], rem: dict[str, Any]) -> None:
    originals = {_WS.memory_md: MEMORY, _WS.day_log(dt.date(2026, 11, 29)): LOG}
    inputs = Inputs(
        note_dates=dict.fromkeys(NOTE_IDS, "2026-11-29"),
        note_types=dict.fromkeys(NOTE_IDS, "W"),
        memory_ids=frozenset({"m000000000"}),
        cited=frozenset(),
        dream_texts=frozenset(),
    )
    builder = Builder(
        _WS, originals.get, inputs, today=dt.date(2026, 11, 29), now="22:00", budget=100_000
    )
    builder.nrem(nrem)
    builder.rem(rem)
    log = _WS.day_log(dt.date(2026, 11, 29))
    plan = builder.finish(log)
    texts = dict(plan.texts)
    if log in plan.appends:
        texts[log] = LOG + plan.appends[log]
    for path, text in texts.items():
        doc = notes.parse(text)
        assert doc.render() == text
        before = originals.get(path) or ""
        for line in before.splitlines(keepends=True):  # hand-written lines survive
            if "<!-- id=m000000000" not in line:
                assert line in text, (path, line)
        titles = {b.heading.title for b in doc.blocks if b.heading}
        before_titles = {b.heading.title for b in notes.parse(before).blocks if b.heading}
        allowed = before_titles | {
            "Facts",
            "Experiences",
            "Preferences",
            "Summaries",
            "Dreams",
            "Next session",
            "Moved out of MEMORY.md",
        }
        if path.parent != _WS.root and path != log:  # bank pages: title and any section
            continue
        assert titles <= allowed, titles - allowed
        for n in doc.notes():
            assert n.id != "zzzzzzzzzz" and n.id != "yyyyyyyyyy"
    for path in plan.texts:
        _WS.confine(path)
        assert path.parent in (_WS.root, _WS.entities_dir, _WS.concepts_dir)
