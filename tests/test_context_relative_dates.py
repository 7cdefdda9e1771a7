"""The session-start context shows a log's relative times resolved against the log's own day:
"yesterday" in yesterday's log is the day before it, not the day before the session. Only the
display changes: the files stay byte for byte, and the size caps count the text as shown."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from agent_sleep import get_context, micro_rest
from agent_sleep.core.workspace import Workspace
from agent_sleep.integrations.claude_code import session_start_context
from agent_sleep.retrieval.context import log_section, next_session
from tests.conftest import run_cli

TODAY = dt.date(2026, 3, 10)
YESTERDAY = TODAY - dt.timedelta(days=1)


def _at(day: dt.date, hour: int = 9, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute))


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _actions(ws: Path, day: dt.date, *texts: str) -> None:
    log = Workspace.at(ws).day_log(day)
    lines = "".join(f"- 22:00 S: {t} <!-- id=s{day:%m%d}{k:05d} -->\n" for k, t in enumerate(texts))
    log.write_text(log.read_text() + f"\n## Next session\n\n{lines}")


def test_yesterdays_log_reads_yesterday_as_the_day_before_it(ws: Path) -> None:
    micro_rest("Went to the dentist yesterday", "B", workspace=ws, when=_at(YESTERDAY))
    micro_rest("The release ships tomorrow", "W", workspace=ws, when=_at(TODAY))
    text = get_context(workspace=ws, today=TODAY)
    assert "- 09:00 B: Went to the dentist yesterday (2026-03-08)\n" in text
    assert "- 09:00 W: The release ships tomorrow (2026-03-11)" in text


def test_a_note_already_resolved_is_shown_as_it_is(ws: Path) -> None:
    micro_rest("Went to the dentist yesterday (2026-03-08)", "B", workspace=ws, when=_at(YESTERDAY))
    micro_rest("Met Ana last week (week of 2026-03-02)", "B", workspace=ws, when=_at(TODAY))
    text = get_context(workspace=ws, today=TODAY)
    assert "B: Went to the dentist yesterday (2026-03-08)\n" in text
    assert "B: Met Ana last week (week of 2026-03-02)\n" in text
    assert text.count("(2026-03-08)") == 1 and text.count("week of") == 1


def test_context_leaves_every_file_byte_for_byte(ws: Path) -> None:
    micro_rest("Went to the dentist yesterday", "B", workspace=ws, when=_at(YESTERDAY))
    micro_rest("Call the plumber tomorrow", "B", workspace=ws, when=_at(TODAY))
    _actions(ws, YESTERDAY, "Follow up: the invoice is due next Friday.")
    before = _files(ws)
    r = run_cli("context", "--workspace", str(ws), "--date", TODAY.isoformat())
    assert r.returncode == 0, r.stderr
    assert "yesterday (2026-03-08)" in r.stdout and "next Friday (2026-03-13)" in r.stdout
    assert "tomorrow (2026-03-11)" in r.stdout
    assert _files(ws) == before


def test_next_session_actions_are_read_from_the_day_they_were_planned(ws: Path) -> None:
    micro_rest("a note", "B", workspace=ws, when=_at(YESTERDAY))
    _actions(ws, YESTERDAY, "Follow up: call the plumber tomorrow.", "Follow up: book flights.")
    planned, actions = next_session(Workspace.at(ws), TODAY) or ("", "")
    assert planned == YESTERDAY.isoformat()
    assert "- 22:00 S: Follow up: call the plumber tomorrow (2026-03-10).\n" in actions + "\n"
    # two days on, that "tomorrow" has passed: the action is past, as a written date would be
    _, later = next_session(Workspace.at(ws), TODAY + dt.timedelta(days=1)) or ("", "")
    assert "plumber" not in later and "book flights" in later


def test_the_log_cap_counts_the_notes_as_shown() -> None:
    lines = "".join(f"- 09:{i:02d} B: Saw client {i} yesterday <!-- id=n{i:09d} -->\n"
                    for i in range(60))  # fmt: skip
    text = f"# {YESTERDAY}\n\n## Retain\n\n{lines}"
    body = log_section(text, 400, f"memory/{YESTERDAY}.md")
    shown = body.split("\n", 1)[1]  # below the line saying older notes were left out
    assert "yesterday (2026-03-08)" in shown
    assert len(shown) <= 400
    assert "Saw client 59 yesterday (2026-03-08)" in shown  # the newest kept
    # a text with no log name (no day) is shown as written
    assert "(2026-03-08)" not in log_section(text, 400)


def test_the_session_start_hook_shows_them_resolved_within_its_limit(ws: Path) -> None:
    micro_rest("Went to the dentist yesterday", "B", workspace=ws, when=_at(YESTERDAY))
    for i in range(40):
        micro_rest(f"Reviewed pull request {i} yesterday with Ana", "B", workspace=ws,
                   when=_at(TODAY, 10, i))  # fmt: skip
    w = Workspace.at(ws)
    full = session_start_context(w, today=TODAY)
    assert "Went to the dentist yesterday (2026-03-08)" in full
    assert "Reviewed pull request 39 yesterday (2026-03-09) with Ana" in full
    # a limit the whole block does not fit: the budgeted block, cut as shown
    small = session_start_context(w, 1500, today=TODAY)
    assert len(small) <= 1500
    assert "Reviewed pull request 39 yesterday (2026-03-09) with Ana" in small
    assert "more than fits" in small


def test_relevant_memories_from_an_older_log_are_resolved(ws: Path) -> None:
    day = TODAY - dt.timedelta(days=5)
    micro_rest("Went to the orthodontist yesterday", "B", workspace=ws, when=_at(day))
    text = get_context(workspace=ws, query="orthodontist", today=TODAY)
    relevant = text.split("## Relevant memories", 1)[1]
    assert "- [2026-03-05 09:00] B: Went to the orthodontist yesterday (2026-03-04)" in relevant
