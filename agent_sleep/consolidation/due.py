"""Planned changes that came due: an entry that announced a change for a later day replaces the
entry it changes once that day has come.

"Standup moves to 10:15 starting next Monday (2026-11-16)", slept on the Thursday before, is a
plan: until Monday the 9:30 standup still holds, so sleep adds it beside "Team standup is at
9:30 every weekday". Nothing later says the move happened, so before, both times stayed current
for good. Now every run (NREM, any provider) looks for such plans whose day has come (the date
sleep wrote after "starting next Monday", "from Dec 1", "as of next week"…, after the day the
plan was written and no later than today) and reads each as the change it has become ("Standup
moved to 10:15"), with the offline consolidator's own currency step
(:func:`agent_sleep.providers.offline_currency.supersedes`) against the entries older than the
plan. The entry it replaces whole moves to History, replaced by the plan
(:func:`agent_sleep.consolidation.supersede.reconcile`); nothing is decided where that step
would not replace a whole entry (a list edit, a value put right inside a longer entry), and the
plan's own text is kept as written, its date telling when the change began.

A plan the run itself files (a note written before its day, slept on or after it: a user who
sleeps once a week) is read the same way right after NREM, in the same run, against the entries
MEMORY.md then holds; before, it stood beside the value it changes until the next run.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Collection, Sequence

from agent_sleep.analysis import distill, temporal
from agent_sleep.core.notes import Note, sources_of
from agent_sleep.providers import offline_currency

# a day a change starts on, as sleep resolved it: "starting next Monday (2026-11-16)", "from
# December (2026-12)", "as of next week (week of 2026-11-16)", "effective tomorrow (…)"
_STARTS_RE = re.compile(
    r"\b(?:starting|from|as of|beginning|effective|begins|starts)\b[^().;!?]{0,40}?"
    r"\((?:week of |weekend of )?(\d{4}-\d{2}(?:-\d{2})?)\)",
    re.I,
)
# a change said as one to come, and the same change said as done
_TO_COME_RE = re.compile(
    r"\b(?:will |(?:is|are|am)\s+(?:going to\s+|set to\s+)?|['’](?:s|re|ll)\s+(?:going to\s+)?)?"
    r"(?P<stem>mov|chang|switch|shift)(?:e|es|ing)?\b"
    r"|\b(?:will |(?:is|are)\s+going to\s+)?(?P<become>becom)(?:e|es|ing)\b"
    # "will be" with the value it will be, or with the one it replaces: "will be £950",
    # "will be 9 to 10 instead of 8 to 9" (not "will be closed", which says no value)
    r"|(?P<be>\bwill be|['’]ll be)\b(?= (?:at |in |on |to )?[£$€]?\d"
    r"| [^.;!?]*\b(?:instead of|rather than|up from|down from)\b)",
    re.I,
)
_DONE = {"mov": "moved", "chang": "changed", "switch": "switched", "shift": "shifted"}
LOOK_BACK_DAYS = 60  # a plan due longer ago than this is not read again
WHY = "a planned change came due: the plan stands"


def _start(text: str) -> dt.date | None:
    m = _STARTS_RE.search(text)
    if not m:
        return None
    value = m.group(1)
    try:
        return dt.date.fromisoformat(value if len(value) == 10 else value + "-01")
    except ValueError:
        return None


def as_done(text: str) -> str | None:
    """``text`` with its change said as done ("Standup moves to 10:15 …" -> "Standup moved to
    10:15 …"), or None when it says no change to come in those words or speaks of the past."""
    if temporal.tense(text) < 0:
        return None  # "moved to 10:15 starting Monday": read as a change when it was slept
    m = _TO_COME_RE.search(text)
    if m is None:
        return None
    if m.group("be"):
        done = "is now"  # "it'll be £950" -> "it is now £950"
    else:
        done = "became" if m.group("become") else _DONE[m.group("stem").lower()]
    if m.group(0)[:1].isupper():
        done = done.capitalize()
    elif m.group(0)[:1] in "'’":  # "We're moving" -> "We moved"
        done = " " + done
    return text[: m.start()] + done + text[m.end() :]


def plans(
    memory: Sequence[Note],
    today: dt.date,
    similar: Callable[[str, str], float] | None = None,
    *,
    only: Collection[str] | None = None,
) -> dict[str, Note]:
    """``{id of the entry replaced: the plan entry that replaces it}`` for the plans of
    ``memory`` (MEMORY.md's entries; only those whose ids are in ``only``, when given) that
    came due by ``today`` (:func:`since` gives the day each came due)."""
    out: dict[str, Note] = {}
    known = distill.known_names([e.text for e in memory])
    for plan in memory:
        if only is not None and plan.id not in only:
            continue
        start, written = _start(plan.text), _day(plan)
        if start is None or written is None or not written < start <= today:
            continue
        if (today - start).days > LOOK_BACK_DAYS:
            continue
        done = as_done(plan.text)
        if done is None:
            continue
        older = [
            {"id": e.id, "text": e.text, "date": _iso(e), "type": e.type}
            for e in memory
            if e.id != plan.id and e.id not in out and (d := _day(e)) is not None and d <= written
        ]
        if not older:
            continue
        item = (plan.type, done, sources_of(plan) or [plan.id], 1.0, written.isoformat())
        found = offline_currency.supersedes([item], older, [], known, similar).get(0)
        if found and found.get("text") == done and found.get("replaces") != plan.id:
            out[str(found["replaces"])] = plan
    return out


def since(found: dict[str, Note]) -> dict[str, str]:
    """``{id of the entry replaced: the day its plan came due}`` for :func:`plans`' answer."""
    out = {}
    for old_id, plan in found.items():
        start = _start(plan.text)
        if start is not None:
            out[old_id] = start.isoformat()
    return out


def _day(e: Note) -> dt.date | None:
    try:
        return dt.date.fromisoformat(_iso(e)[:10])
    except ValueError:
        return None


def _iso(e: Note) -> str:
    return str(e.meta.get("date") or "")
