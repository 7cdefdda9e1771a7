"""Shared tools for the hostile-conditions suites (no tests here).

- ``model_server``: the fake Messages API (real HTTP, real SDK on the other side) answering every
  request with what the offline consolidator would say about the request's own payload, so
  replies cite real ids; a ``tamper`` hook turns that honest answer into a hostile one, and
  ``delay`` slows replies so a kill can land during the model call.
- ``tree``: every file under a folder as bytes (sentinel trees, before/after images).
- ``note_ids`` / ``assert_all_parse``: what the daily logs hold, and that every Markdown file
  renders back to itself.
- ``TODAY`` / ``NOW`` / ``day`` / ``dated``: the fixed day the suites run as of.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from agent_sleep.core import notes
from tests.conftest import ROOT
from tests.fake_messages_api import FakeMessagesAPI, Reply

Tamper = Callable[[str, dict[str, Any], dict[str, Any]], dict[str, Any] | str]


class _Replies:
    """Stands in for the server's reply queue: computes each reply from the request."""

    def __init__(
        self, api: FakeMessagesAPI, tamper: Tamper | None, delay: Callable[[], float]
    ) -> None:
        self.api, self.tamper, self.delay = api, tamper, delay

    def __bool__(self) -> bool:
        return True

    def pop(self, _index: int = 0) -> Reply:
        from agent_sleep.providers import offline

        body = self.api.requests[-1].body
        content = body["messages"][0]["content"]
        payload = json.loads(content[content.find("{") : content.rindex("}") + 1])
        honest = offline.run(payload["task"], payload)
        answer = self.tamper(payload["task"], payload, honest) if self.tamper else honest
        text = answer if isinstance(answer, str) else json.dumps(answer)
        return Reply(text=text, delay=self.delay())


@contextlib.contextmanager
def model_server(
    tamper: Tamper | None = None, delay: Callable[[], float] = lambda: 0.0
) -> Iterator[FakeMessagesAPI]:
    with FakeMessagesAPI() as api:
        api.replies = _Replies(api, tamper, delay)  # type: ignore[assignment]
        yield api


def api_env(api: FakeMessagesAPI) -> dict[str, str]:
    """Environment for a subprocess that talks to ``api`` through the real SDK."""
    return {
        "ANTHROPIC_API_KEY": "sk-test-key",
        "ANTHROPIC_BASE_URL": api.url,
        "AGENT_SLEEP_PROVIDER": "anthropic",
        "AGENT_SLEEP_MAX_RETRIES": "0",
    }


def cli_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "AGENT_SLEEP_"))}
    return {**env, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1", **(extra or {})}


def cli(
    *args: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agent_sleep", *args],
        capture_output=True,
        text=True,
        env=cli_env(env),
        timeout=timeout,
    )


def tree(root: Path, *, skip_state: bool = False) -> dict[str, bytes]:
    """Every regular file under ``root`` (relative path -> bytes); symlinks as their target."""
    out: dict[str, bytes] = {}
    if not root.exists():
        return out
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = Path(dirpath).relative_to(root)
        if skip_state and rel_dir == Path("."):
            dirnames[:] = [d for d in dirnames if d != ".agent-sleep"]
        for name in filenames:
            path = Path(dirpath) / name
            key = (rel_dir / name).as_posix()
            if path.is_symlink():
                out[key] = b"-> " + os.readlink(path).encode()
            else:
                out[key] = path.read_bytes()
    return out


def nrem_answer(
    updates: list[dict[str, Any]] | None = None, bank: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """An NREM answer with these MEMORY.md updates and bank updates, nothing else."""
    return {
        "memory_md_updates": updates or [],
        "bank_updates": bank or [],
        "pruned_count": 0,
        "weakly_learned": [],
        "open_questions": [],
    }


def but_failure_lines(snapshot: dict[str, bytes]) -> dict[str, bytes]:
    """A :func:`tree` snapshot with the journal's ``sleep-failed`` lines taken out: a sleep
    that fails writes that one line and nothing else (a journal holding nothing else is
    taken out whole, as if never created)."""
    out = dict(snapshot)
    for key, data in snapshot.items():
        if key.endswith("journal.jsonl"):
            kept = [ln for ln in data.splitlines(keepends=True) if b'"sleep-failed"' not in ln]
            if kept:
                out[key] = b"".join(kept)
            else:
                del out[key]
    return out


def markdown_files(ws: Path) -> list[Path]:
    out = [ws / "MEMORY.md"] if (ws / "MEMORY.md").exists() else []
    for folder in ("memory", "bank/entities", "bank/concepts"):
        out += sorted(p for p in (ws / folder).glob("*.md") if p.is_file())
    return out


def assert_all_parse(ws: Path) -> None:
    for path in markdown_files(ws):
        text = path.read_bytes().decode("utf-8", "surrogateescape")
        assert notes.parse(text).render() == text, path


def note_ids(ws: Path) -> Counter[str]:
    """How many times each note id appears under ``## Retain`` in the daily logs."""
    out: Counter[str] = Counter()
    for path in sorted((ws / "memory").glob("*.md")):
        text = path.read_bytes().decode("utf-8", "surrogateescape")
        out.update(n.id for n in notes.notes_in(text, "Retain"))
    return out


def memory_entries(ws: Path) -> list[notes.Note]:
    return [n for n in notes.notes_in((ws / "MEMORY.md").read_text()) if n.id]


# The hostile suites run as of a fixed day, never the clock: notes, sleep runs and the CLI all
# take it (``now=`` / ``today=`` in the library, ``--when`` / ``--date`` on the command line).
TODAY = dt.date(2026, 3, 10)
NOW = dt.datetime.combine(TODAY, dt.time(18, 0))


def day(days_ago: int = 0, hour: int = 10) -> dt.datetime:
    """``hour`` o'clock, ``days_ago`` days before TODAY."""
    return dt.datetime.combine(TODAY - dt.timedelta(days=days_ago), dt.time(hour, 0))


AT = ("--when", NOW.isoformat(timespec="minutes"))  # rest, flush, sleep: as of NOW
ON = ("--date", TODAY.isoformat())  # status, context: as of TODAY
_AS_OF = {"rest": AT, "flush": AT, "sleep": AT, "status": ON, "context": ON}


def dated(*args: str) -> tuple[str, ...]:
    """CLI arguments ``args`` with the option that runs their command as of NOW (commands
    that read no date come back as they are)."""
    return (*args, *_AS_OF.get(args[0], ())) if args else args
