"""``get_context``: a log whose sections sleep repeated shows each note under its own section,
one heading per kind; the relevant memories leave out what the sections above already show
before they spend the budget."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import get_context, micro_rest, sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval import context
from agent_sleep.retrieval.context import log_section, log_tail
from agent_sleep.retrieval.recall import count_tokens

DAY = dt.date(2026, 3, 5)


def _at(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute))


def _note(time: str, kind: str, text: str, key: str) -> str:
    return notes.render_note(notes.Note(kind, text, f"{key:a>10}", time=time))


def _log(*sections: tuple[str, list[str]]) -> str:
    out = notes.day_header(DAY)
    for title, lines in sections:
        out += f"## {title}\n\n" + "".join(lines) + "\n"
    return out


TWO_SLEEPS = _log(
    ("Retain", [_note("10:00", "W", "We moved the API to port 8080", "r1")]),
    ("Dreams", [_note("22:00", "S", "Changed: port 5000 to port 8080", "d1")]),
    ("Next session", [_note("22:00", "S", "Follow up: billing", "n1")]),
    ("Retain", [_note("22:10", "W", "The project Falcon was renamed to Osprey", "r2")]),
    ("Dreams", [_note("23:00", "S", "Changed: Falcon to Osprey", "d2")]),
)


def test_repeated_sections_are_merged_each_note_under_its_own() -> None:
    body = log_section(TWO_SLEEPS)
    assert body.splitlines() == [
        "- 10:00 W: We moved the API to port 8080",
        "- 22:10 W: The project Falcon was renamed to Osprey",
        "### Dreams",
        "- 22:00 S: Changed: port 5000 to port 8080",
        "- 23:00 S: Changed: Falcon to Osprey",
    ]


def test_notes_show_in_time_order_within_each_section() -> None:
    late_entry = _log(
        ("Retain", [_note("10:00", "W", "ten", "a"), "A line written by hand\n"]),
        ("Dreams", [_note("22:00", "S", "dream", "b")]),
        ("Retain", [_note("09:00", "W", "nine, noted late", "c"), _note("", "W", "untimed", "d")]),
    )
    assert log_section(late_entry).splitlines() == [
        "- 09:00 W: nine, noted late",
        "- W: untimed",  # a line without a time stays after the one written before it
        "- 10:00 W: ten",
        "A line written by hand",
        "### Dreams",
        "- 22:00 S: dream",
    ]


def test_a_trimmed_log_keeps_the_newest_notes_and_one_heading_per_section() -> None:
    retain = [_note(f"10:{i:02d}", "W", f"Morning note number {i:02d}", f"m{i}") for i in range(30)]
    text = _log(
        ("Retain", retain[:20]),
        ("Dreams", [_note("22:00", "S", "First dream", "d1")]),
        ("Retain", retain[20:]),
        ("Dreams", [_note("23:00", "S", "Second dream", "d2")]),
    )
    body = log_section(text, 400, "memory/x.md")
    lines = body.splitlines()
    assert lines[0].startswith("[older notes of memory/x.md not shown")
    assert len(body) - len(lines[0]) <= 400 + 1
    assert body.count("### Dreams") == 1 and "Second dream" in body
    shown = [int(x.split()[-1]) for x in lines if "Morning note" in x]
    assert shown == list(range(30 - len(shown), 30)) and shown  # the newest, in order
    assert lines.index("### Dreams") > max(i for i, x in enumerate(lines) if "Morning" in x)


def test_two_sleeps_on_one_day_end_to_end(ws: Path) -> None:
    for text in ("The API runs on port 5000", "The project is called Falcon"):
        micro_rest(text, "W", workspace=ws, when=_at(DAY - dt.timedelta(days=4), 10))
    sleep_cycle(ws, provider="offline", now=_at(DAY - dt.timedelta(days=4), 22))
    micro_rest("We moved the API to port 8080", "W", workspace=ws, when=_at(DAY, 10))
    sleep_cycle(ws, provider="offline", now=_at(DAY, 22))
    micro_rest("The project Falcon was renamed to Osprey", "W", workspace=ws, when=_at(DAY, 22, 10))
    sleep_cycle(ws, provider="offline", now=_at(DAY, 23))
    log = Workspace.at(ws).day_log(DAY).read_text()
    assert log.count("## Retain") == 2 and log.count("## Dreams") == 2  # what sleep wrote
    text = get_context(ws, today=DAY, load_yesterday=False)
    today = text.split(f"## Today's log ({DAY})\n\n")[1].split("\n\n## ")[0] + "\n"
    assert today.count("### Dreams") == 1
    retain, dreams = today.split("### Dreams\n")
    assert "22:10 W: The project Falcon was renamed to Osprey" in retain
    assert "renamed to Osprey" in dreams and "22:10" not in dreams
    for block in notes.parse(log).blocks:  # each note once, nothing lost
        note = block.note
        if note is not None and block.section != notes.NEXT_SESSION:
            assert today.count(f"- {note.time} {note.prefix}: {note.text}\n") == 1, note


def _redis(ws: Path) -> None:
    micro_rest(
        "Redis runs on port 6380 in staging",
        "W",
        workspace=ws,
        when=_at(DAY - dt.timedelta(days=4), 10),
    )
    micro_rest("Redis cache TTL is 300 seconds", "W", workspace=ws, when=_at(DAY, 10))


def _relevant(text: str) -> str:
    return text.split("## Relevant memories (query: ")[1].split("\n\n", 1)[1].rstrip("\n")


def test_hits_shown_above_do_not_spend_the_budget(ws: Path) -> None:
    _redis(ws)
    text = get_context(ws, today=DAY, query="redis cache ttl", budget_tokens=15)
    relevant = _relevant(text)
    assert relevant == "- [2026-03-01 10:00] W: Redis runs on port 6380 in staging"
    assert count_tokens("W: Redis runs on port 6380 in staging") <= 15
    assert "do not fit" not in text and text.count("TTL is 300") == 1


def test_without_a_budget_hits_shown_above_do_not_take_the_places(ws: Path) -> None:
    micro_rest(
        "Kafka topic orders has 12 partitions",
        "W",
        workspace=ws,
        when=_at(DAY - dt.timedelta(days=9), 9),
    )
    for i in range(8):
        micro_rest(
            f"Kafka consumer lag alert number {i} fired", "B", workspace=ws, when=_at(DAY, 9, i)
        )
    text = get_context(ws, today=DAY, query="kafka", load_yesterday=False)
    assert "- [2026-02-24 09:00] W: Kafka topic orders has 12 partitions" in _relevant(text)
    assert "alert number" not in _relevant(text)


def test_when_everything_near_is_shown_above_it_says_so(ws: Path) -> None:
    micro_rest("Redis cache TTL is 300 seconds", "W", workspace=ws, when=_at(DAY, 10))
    for budget in (1, 15, None):
        text = get_context(ws, today=DAY, query="redis cache ttl", budget_tokens=budget)
        assert "the nearest memories are already shown above" in _relevant(text)
        assert "do not fit" not in text


def test_memory_entries_and_next_session_actions_shown_above_are_not_repeated(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    entry = notes.render_note(notes.Note("W", "The billing service uses MySQL", "mem0000001"))
    w.memory_md.write_text(w.memory_md.read_text() + "## Facts\n\n" + entry)
    old = DAY - dt.timedelta(days=6)
    micro_rest("Billing invoices go out on the first", "W", workspace=ws, when=_at(old, 9))
    log = w.day_log(old)
    action = _note("", "S", "Check the billing service alerts", "act1")
    log.write_text(log.read_text() + "\n## Next session\n\n" + action)
    text = get_context(ws, today=DAY, query="billing service", budget_tokens=200)
    assert text.count("The billing service uses MySQL") == 1
    assert text.count("Check the billing service alerts") == 1
    assert "Billing invoices go out on the first" in _relevant(text)
    small = get_context(ws, today=DAY, query="billing service", max_memory_chars=10)
    assert "The billing service uses MySQL" in _relevant(small)  # trimmed away above: shown here


def _big_log(path: Path, dreams: int) -> None:
    """A day's log: 300 notes of the day, then ``dreams`` under ``## Dreams``."""
    retain = [_note(f"{10 + i // 60}:{i % 60:02d}", "W", f"Day note {i:03d} " + "x" * 60, f"m{i}")
              for i in range(300)]  # fmt: skip
    dream = [_note("23:00", "S", f"Dream {i:03d} " + "y" * 60, f"d{i}") for i in range(dreams)]
    path.write_text(_log(("Retain", retain), ("Dreams", dream)))


@pytest.mark.parametrize("dreams", [40, 120, 2])
@pytest.mark.parametrize("max_bytes", [1000, 3000, 9000])
def test_a_log_cut_at_its_tail_keeps_the_section_of_the_notes_it_shows(
    tmp_path: Path, dreams: int, max_bytes: int
) -> None:
    path = tmp_path / "2026-03-05.md"
    _big_log(path, dreams)
    text, cut = log_tail(path, max_bytes)
    assert cut
    body = log_section(text, None, "memory/2026-03-05.md", cut)
    lines = body.splitlines()
    dreams_at = [i for i, x in enumerate(lines) if "Dream " in x]
    days_at = [i for i, x in enumerate(lines) if "Day note" in x]
    assert dreams_at  # the tail always holds the last dream
    assert "### Dreams" in lines
    assert lines.index("### Dreams") < min(dreams_at)  # every dream under its heading
    assert not days_at or max(days_at) < lines.index("### Dreams")


def test_the_heading_above_a_cut_is_found_across_read_chunks(tmp_path: Path) -> None:
    path = tmp_path / "2026-03-05.md"
    _big_log(path, 200)
    data = path.read_bytes()
    heading = data.index(b"\n## Dreams") + 1
    with open(path, "rb") as f:
        for chunk in (3, 4, 5, 7, 64, 1 << 16):
            for end in (heading + 1, heading + 5, heading + 200, len(data) - 10):
                assert context._section_above(f, end, chunk) == b"## Dreams\n", (chunk, end)
        assert context._section_above(f, heading - 1, 64) == b"## Retain\n"
        assert context._section_above(f, 10, 64) == b""
