"""get_context: the session-start memory block, and its literal skill-folder import."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path

from agent_sleep import get_context
from agent_sleep.core import notes
from agent_sleep.core.rest import micro_rest
from agent_sleep.core.workspace import Workspace
from tests.conftest import ROOT, run_cli

TODAY = dt.date(2026, 3, 10)  # a fixed day: the tests pass it as get_context(today=...)
NOW = dt.datetime.combine(TODAY, dt.time(9, 15))
YESTERDAY = NOW - dt.timedelta(days=1)


def _memory(ws: Path, count: int) -> None:
    w = Workspace.at(ws).ensure()
    entries = "".join(
        f"- W: Durable fact number {i:02d} about the project <!-- id=m{i:09d} sources=x -->\n"
        for i in range(count)
    )
    w.memory_md.write_text(w.memory_md.read_text() + "## Facts\n\n" + entries)


def _next_session(ws: Path, day: dt.date, action: str) -> None:
    log = Workspace.at(ws).day_log(day)
    log.write_text(
        log.read_text() + f"\n## Next session\n\n- S: {action} <!-- id=s{day:%m%d}aaaaaa -->\n"
    )


def test_sections_today_yesterday_memory_and_next_session(ws: Path) -> None:
    _memory(ws, 2)
    micro_rest("Fixed the login bug", "B", workspace=ws, when=NOW, source="PR-7")
    micro_rest("User prefers tabs", "O", workspace=ws, when=YESTERDAY, confidence=0.9)
    _next_session(ws, YESTERDAY.date(), "Review the login fix")
    text = get_context(workspace=ws, today=TODAY)
    assert text.startswith("# Memory\n")
    assert "## Long-term memory (MEMORY.md)\n\n### Facts\n- W: Durable fact number 00" in text
    assert f"## Today's log ({TODAY})\n\n- 09:15 B: Fixed the login bug" in text
    assert f"## Yesterday's log ({YESTERDAY.date()})\n\n- 09:15 O(c=0.9): User prefers tabs" in text
    assert f"## Next session (planned on {YESTERDAY.date()})\n\n- S: Review the login fix" in text
    assert text.count("Review the login fix") == 1
    assert "<!--" not in text and "PR-7" not in text
    assert "Long-term memory: durable facts" not in text  # the file's boilerplate intro
    assert "Yesterday's log" not in get_context(workspace=ws, today=TODAY, load_yesterday=False)


def test_latest_next_session_wins(ws: Path) -> None:
    micro_rest("a", "B", workspace=ws, when=NOW - dt.timedelta(days=5))
    micro_rest("b", "B", workspace=ws, when=NOW - dt.timedelta(days=3))
    _next_session(ws, TODAY - dt.timedelta(days=5), "Old plan")
    _next_session(ws, TODAY - dt.timedelta(days=3), "Newer plan")
    text = get_context(workspace=ws, today=TODAY)
    assert "Newer plan" in text and "Old plan" not in text


def test_memory_is_trimmed_at_entry_boundaries_and_says_so(ws: Path) -> None:
    _memory(ws, 40)
    text = get_context(workspace=ws, today=TODAY, max_memory_chars=500)
    section = text.split("## Long-term memory (MEMORY.md)\n\n")[1].split("\n\n[MEMORY.md")[0]
    assert len(section) <= 500
    assert all(line.startswith(("- W: Durable fact", "### Facts")) for line in section.splitlines())
    shown = section.count("- W:")
    assert f"{40 - shown} older entries" in text and "max_memory_chars=500" in text
    assert "Durable fact number 39" in section and "Durable fact number 00" not in section
    assert text.count("trimmed") == 1
    untrimmed = get_context(workspace=ws, today=TODAY, max_memory_chars=100_000)
    assert "trimmed" not in untrimmed and untrimmed.count("- W: Durable fact") == 40


def test_empty_or_missing_workspace_gives_empty_string(tmp_path: Path) -> None:
    assert get_context(workspace=tmp_path / "missing") == ""
    assert not (tmp_path / "missing").exists()


def test_query_adds_relevant_memories_within_budget(ws: Path) -> None:
    old = NOW - dt.timedelta(days=40)
    micro_rest("The staging database runs Postgres 16", "W", workspace=ws, when=old)
    for i in range(30):
        micro_rest(f"Filler note {i} about lunch and weather", "B", workspace=ws, when=old)
    micro_rest("Today we talked about Postgres upgrades", "B", workspace=ws, when=NOW)
    text = get_context(
        workspace=ws, today=TODAY, query="which postgres version on staging", budget_tokens=40
    )
    relevant = text.split("## Relevant memories (query: which postgres version on staging)\n\n")[1]
    assert relevant.splitlines()[0].endswith("W: The staging database runs Postgres 16")
    assert "Today we talked" not in relevant  # today's log is already shown above
    assert sum(len(line.split()) for line in relevant.splitlines()) * 1.3 <= 40 + 15


def _probe(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, timeout=60, env={}
    )


def test_literal_skill_import_works_and_loads_nothing_heavy(ws: Path) -> None:
    _memory(ws, 1)  # MEMORY.md is always loaded, whatever day the subprocess thinks it is
    code = (
        "import sys\n"
        "from scripts.load_memory import get_context\n"
        f"text = get_context(workspace={str(ws)!r}, max_memory_chars=3000, load_yesterday=True)\n"
        "print(text)\n"
        "heavy = ('numpy', 'onnxruntime', 'torch', 'anthropic')\n"
        "print('HEAVY', [m for m in heavy if m in sys.modules])"
    )
    r = _probe(code, ROOT)
    assert r.returncode == 0, r.stderr
    assert "- W: Durable fact number 00" in r.stdout and "HEAVY []" in r.stdout


def test_load_memory_script_runs_from_anywhere(ws: Path, tmp_path: Path) -> None:
    _memory(ws, 1)
    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "load_memory.py"), "--workspace", str(ws)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        env={},
    )
    assert r.returncode == 0, r.stderr
    assert "Durable fact number 00" in r.stdout


def test_context_command(ws: Path) -> None:
    _memory(ws, 1)
    r = run_cli("context", "-w", str(ws), "--json")
    assert r.returncode == 0, r.stderr
    assert "Durable fact number 00" in r.stdout and r.stdout.startswith('{"context": ')
    r = run_cli("context", "-w", str(ws), "--query", "durable project", "--no-yesterday")
    assert "## Relevant memories (query: durable project)" in r.stdout


def test_get_context_follows_the_workspace_variable(ws: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("AGENT_SLEEP_WORKSPACE", str(ws))
    micro_rest("Noted through the variable", "B", when=NOW)
    assert "Noted through the variable" in get_context(today=TODAY)


def test_a_trimmed_memory_keeps_each_sections_newest_entries(ws: Path) -> None:
    """MEMORY.md over the limit: a short section after a long one still shows, and the
    entries learned last are the ones kept, in the file's order."""
    w = Workspace.at(ws)
    facts = "".join(
        notes.render_note(notes.Note("W", f"Fact {i:02d}: " + "detail " * 8, f"f{i:09d}"))
        for i in range(60)
    )
    prefs = "".join(
        notes.render_note(
            notes.Note(
                "O", f"Preference {i}: answers in British English", f"p{i:09d}", confidence=0.9
            )
        )
        for i in range(2)
    )
    w.write_text(
        w.memory_md,
        w.read_text(w.memory_md) + "## Facts\n\n" + facts + "\n## Preferences\n\n" + prefs,
    )
    text = get_context(workspace=ws, today=TODAY, max_memory_chars=1000)
    section = text.split("## Long-term memory (MEMORY.md)\n\n")[1].split("\n\n[MEMORY.md")[0]
    assert len(section) <= 1000
    assert "Preference 0" in section and "Preference 1" in section and "### Preferences" in section
    shown = [int(line.split()[3].rstrip(":")) for line in section.splitlines() if "Fact " in line]
    assert shown == list(range(60 - len(shown), 60)) and len(shown) >= 8
    assert section.index("### Facts") < section.index("### Preferences")


def test_a_budget_too_small_for_any_match_says_so(ws: Path) -> None:
    micro_rest("The user prefers answers in British English", "O", workspace=ws, confidence=0.9,
               when=NOW - dt.timedelta(days=5))  # fmt: skip
    tiny = get_context(workspace=ws, today=TODAY, query="British English", budget_tokens=2)
    assert "do not fit in budget_tokens=2" in tiny and "nothing found" not in tiny
    only_today = get_context(workspace=ws, today=(NOW - dt.timedelta(days=5)).date(),
                             query="British English", budget_tokens=2)  # fmt: skip
    assert "nothing found beyond the logs above" in only_today
    assert "British English" in get_context(
        workspace=ws, today=TODAY, query="British English", budget_tokens=200
    )


def test_the_lists_of_the_days_before_stay_with_the_newest(ws: Path) -> None:
    """Each sleep plans from its own notes: an action planned two days ago that no later list
    repeats used to vanish after one more sleep."""
    for days in (2, 1):
        micro_rest("x", "B", workspace=ws, when=NOW - dt.timedelta(days=days))
    _next_session(ws, TODAY - dt.timedelta(days=2), "Rotate the Stripe secret before Friday")
    _next_session(ws, TODAY - dt.timedelta(days=1), "Migrate the cron jobs")
    text = get_context(workspace=ws, today=TODAY)
    section = text.split("## Next session", 1)[1]
    assert section.startswith(f" (planned on {YESTERDAY.date()})\n\n- S: Migrate the cron jobs\n")
    planned = TODAY - dt.timedelta(days=2)
    assert f"### Planned {planned}\n- S: Rotate the Stripe secret before Friday" in section
    assert text.count("Rotate the Stripe secret") == 1


def test_the_next_session_as_of_a_day_is_planned_by_then(ws: Path) -> None:
    micro_rest("x", "B", workspace=ws, when=NOW - dt.timedelta(days=3))
    micro_rest("y", "B", workspace=ws, when=NOW)
    _next_session(ws, TODAY - dt.timedelta(days=3), "Plan of three days ago")
    _next_session(ws, TODAY, "Plan of today")
    text = get_context(workspace=ws, today=TODAY - dt.timedelta(days=1))
    assert "Plan of three days ago" in text and "Plan of today" not in text


def test_passing_impressions_are_shown_after_the_rest(ws: Path) -> None:
    """Fifteen replayed five-week workspaces showed every one of their 11-15 opinions at the
    session start while its 3,000 characters left out first-week facts: a passing impression
    ("The carer seemed cheerful") is shown once the facts and likings are in."""
    w = Workspace.at(ws)
    facts = "".join(
        notes.render_note(notes.Note("W", f"Fact {i:02d}: " + "detail " * 8, f"f{i:09d}"))
        for i in range(12)
    )
    views = "".join(
        notes.render_note(notes.Note("O", f"Visit {i} seemed cheerful and calm", f"o{i:09d}"))
        for i in range(12)
    ) + notes.render_note(notes.Note("O", "Mum prefers tea before nine", "o999999999"))
    w.write_text(
        w.memory_md,
        w.read_text(w.memory_md) + "## Facts\n\n" + facts + "\n## Preferences\n\n" + views,
    )
    text = get_context(workspace=ws, today=TODAY, max_memory_chars=1000)
    section = text.split("## Long-term memory (MEMORY.md)\n\n")[1].split("\n\n[MEMORY.md")[0]
    shown = [line for line in section.splitlines() if line.startswith("- ")]
    assert "Mum prefers tea before nine" in section
    assert sum("Fact " in line for line in shown) >= 9, shown
    assert sum("seemed cheerful" in line for line in shown) <= 1, shown
