"""Planned changes that came due: an entry that announced a change for a later day replaces the
entry it changes once that day has come.

"Standup moves to 10:15 starting next Monday (2026-11-16)", slept on the Thursday before, is a
plan: until Monday the 9:30 standup still holds, so sleep adds it beside "Team standup is at
9:30 every weekday". Nothing later says the move happened, so before, both times stayed current
for good. Now every run (NREM, any provider) looks for such plans whose day has come (the date
sleep wrote after "starting next Monday", "as of next week"…, or a day of a month written
without its year, "from 20 September": :func:`agent_sleep.analysis.plans.start`; after the day
the plan was written and no later than today) and reads each as the change it has become
("Standup moved to 10:15"), with the offline consolidator's own currency step
(:func:`agent_sleep.providers.offline_currency.supersedes`) against the entries older than the
plan. The entry it replaces whole moves to History, replaced by the plan
(:func:`agent_sleep.consolidation.supersede.reconcile`); nothing is decided where that step
would not replace a whole entry (a list edit, a value put right inside a longer entry), unless
the entry says nothing the plan does not ("Sunday Parish Communion is at 9:45am"), and the
plan's own text is kept as written, its date telling when the change began.

A plan the run itself files (a note written before its day, slept on or after it: a user who
sleeps once a week) is read the same way right after NREM, in the same run, against the entries
MEMORY.md then holds; before, it stood beside the value it changes until the next run.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Sequence

from agent_sleep.analysis import distill
from agent_sleep.analysis import plans as plans_text
from agent_sleep.core.notes import Note, sources_of, written_on
from agent_sleep.providers import offline_currency

LOOK_BACK_DAYS = 60  # a plan due longer ago than this is not read again
WHY = "a planned change came due: the plan stands"
as_done = plans_text.as_done  # (its callers' name)


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
        written = written_on(plan)
        start = plans_text.start(plan.text, written)
        if start is None or written is None or not written < start <= today:
            continue
        if (today - start).days > LOOK_BACK_DAYS:
            continue
        if plan.meta.get("supersedes"):
            continue  # read as a change already when it was slept: what it replaced is gone
        done = as_done(plan.text)
        if done is None:  # a value that holds from the day: "Subs are £52 a term from 1 October"
            done = plans_text.start_as_now(plan.text, written)
            if done == plan.text:
                continue
        done = plans_text.without_start(done, written)  # "from 20 September" is no value
        older = [
            {"id": e.id, "text": e.text, "date": _iso(e), "type": e.type}
            for e in memory
            if e.id != plan.id
            and e.id not in out
            and (d := written_on(e)) is not None
            and d <= written
        ]
        if not older:
            continue
        item = (plan.type, done, sources_of(plan) or [plan.id], 1.0, written.isoformat())
        found = offline_currency.supersedes([item], older, [], known, similar).get(0)
        if not found or found.get("replaces") == plan.id:
            continue
        ref = str(found["replaces"])
        was = next(str(e["text"]) for e in older if e["id"] == ref)
        if found.get("text") == done or plans_text.told_whole(was, done):
            out[ref] = plan
    return out


def since(found: dict[str, Note]) -> dict[str, str]:
    """``{id of the entry replaced: the day its plan came due}`` for :func:`plans`' answer."""
    out = {}
    for old_id, plan in found.items():
        start = plans_text.start(plan.text, written_on(plan))
        if start is not None:
            out[old_id] = start.isoformat()
    return out


def _iso(e: Note) -> str:
    return str(e.meta.get("date") or "")
