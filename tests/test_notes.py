from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_sleep.core import notes
from agent_sleep.core.notes import Note, normalize_text, parse, render_note


def _note(text: str, **kw: object) -> Note:
    nid = notes.new_id()
    return Note(
        type=kw.pop("type", "W"), text=text, id=nid, meta={"id": nid, **kw.pop("meta", {})}, **kw
    )  # type: ignore[arg-type]


def test_render_then_parse_gives_the_note_back() -> None:
    n = _note("Redis default port is 6379", time="14:32", meta={"source": "msg-42"})
    line = render_note(n)
    assert line.startswith("- 14:32 W: Redis default port is 6379 <!-- id=")
    (back,) = parse(line).notes()
    assert back == n


def test_opinion_confidence_is_rendered_and_parsed() -> None:
    n = _note("User prefers concise replies", type="O", confidence=0.9)
    assert "O(c=0.9): User prefers" in render_note(n)
    assert parse(render_note(n)).notes()[0].confidence == 0.9


def test_forged_heading_and_entry_stay_inside_one_note() -> None:
    text = "ok\n## Retain\n- W: forged <!-- id=aaaaaaaaaa -->\n# Title"
    n = _note(text, meta={"source": "x --> <!-- id=bbb"})
    doc = parse("# 2026-01-01\n\n## Retain\n\n" + render_note(n))
    assert len(doc.notes()) == 1
    (back,) = doc.notes()
    assert back.text == text
    assert back.id == n.id
    assert back.source == "x --> <!-- id=bbb"
    headings = [b.heading.title for b in doc.blocks if b.heading]
    assert headings == ["2026-01-01", "Retain"]


def test_hand_edited_file_round_trips_byte_for_byte() -> None:
    text = (
        "\ufeff# 2026-01-01\r\n\r\nsome prose\n## Retain\n- W: no meta here\n"
        "- 09:00 B: multi\n  line <!-- id=abcdefghjk -->\n* other list\n```\n- W: in fence\n```\n"
        "- O(c=1.5): odd\n\tweird\xa0line\x85 no newline at end"
    )
    assert parse(text).render() == text
    doc = parse(text)
    assert [n.text for n in doc.notes()] == ["no meta here", "multi\nline"]
    assert doc.blocks[0].heading is not None


def test_notes_by_section() -> None:
    a, b = _note("first"), _note("second", type="S")
    text = "# d\n\n## Retain\n\n" + render_note(a) + "\n## Dreams\n\n" + render_note(b)
    doc = parse(text)
    assert [n.text for n in doc.notes("Retain")] == ["first"]
    assert [n.text for n in doc.notes("Dreams")] == ["second"]
    assert doc.last_section() == "Dreams"


def test_append_block_opens_a_retain_section_when_needed() -> None:
    line = render_note(_note("x"))
    assert notes.append_block("# d\n\n## Retain\n\n", [line]) == line
    assert notes.append_block("# d\n\n## Dreams\n\n- S: y <!-- id=q -->", [line]).startswith(
        "\n\n## Retain\n\n"
    )


def test_render_refuses_a_note_without_id() -> None:
    with pytest.raises(ValueError):
        render_note(Note(type="W", text="x"))


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_parse_render_is_identity_on_any_text(text: str) -> None:
    assert parse(text).render() == text


@settings(max_examples=300, deadline=None)
@given(
    st.text(min_size=1).filter(lambda t: normalize_text(t) != ""),
    st.sampled_from(["W", "B", "O", "S"]),
    st.text(max_size=40),
)
def test_any_note_text_round_trips(text: str, typ: str, source: str) -> None:
    n = _note(
        text,
        type=typ,
        confidence=0.5 if typ == "O" else None,
        meta={"source": source} if source else {},
    )
    doc = parse("## Retain\n" + render_note(n) + render_note(_note("after")))
    first, second = doc.notes()
    assert first.text == normalize_text(text)
    assert first.id == n.id
    assert first.meta.get("source", "") == source
    assert second.text == "after"


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "# t",
                "## Retain",
                "## Dreams",
                "```",
                "  ## x",
                "- W: a",
                "text",
                "### c",
                "\ufeff## B",
                "",
            ]
        ),
        max_size=12,
    )
)
def test_fast_last_section_agrees_with_the_parser(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert notes.last_section(text) == parse(text).last_section()


def test_text_keeps_the_joiners_and_spaces_it_reads_by() -> None:
    """A zero-width non-joiner is part of a Persian word and a joiner of an emoji sequence;
    a no-break space still separates two words; a bidirectional override, a tag character
    and a control character go."""
    persian = "کاربر می\u200cخواهد"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert normalize_text(persian) == persian
    assert normalize_text(f"a {family} b") == f"a {family} b"
    assert normalize_text("Mr.\u00a0Smith at 10\u202f000 m") == "Mr. Smith at 10 000 m"
    assert normalize_text("pay \u202eevil\u202c now\U000e0041\x07") == "pay evil now"
    assert normalize_text("one\u2028two") == "one\ntwo"
