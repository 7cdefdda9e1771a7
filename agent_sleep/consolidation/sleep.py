"""sleep: NREM two-track consolidation and REM synthesis over the notes not yet consolidated.

One run:
  1. under the workspace lock, read the window of daily logs, MEMORY.md and the bank, and take
     the pending notes (not in the watermark and not cited by any MEMORY.md or bank entry);
  2. without the lock, resolve relative dates, score salience, and ask the provider (NREM, then
     REM on the result); notes appended meanwhile stay pending for the next run;
  3. under the lock again, build the plan against the files as they are now and write it:
     before-images, atomic writes, watermark, one journal line.

Only NREM consolidates a note: the watermark takes the notes of its batch but those the removal
cap held back (``deferred``: pending until a run takes the rest of their changes, though an
applied change cites them) and those every item of which was dropped (``unapplied``); a page REM
seeds from a note NREM has not taken does not consume it (``status.waiting``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import difflib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from agent_sleep.analysis import grounding, salience, temporal
from agent_sleep.consolidation import batches, due, journal, related, supersede
from agent_sleep.consolidation.apply import Builder
from agent_sleep.consolidation.plan import MAX_TEXT_CHARS, Inputs, Plan, consolidating_sources
from agent_sleep.consolidation.snapshot import DayNote, Snapshot, parse_since, read_snapshot
from agent_sleep.consolidation.status import consolidating_ids, held_back, nrem_cited, waiting
from agent_sleep.core import args
from agent_sleep.core import notes as fmt
from agent_sleep.core.errors import BadInput
from agent_sleep.core.memory import MemoryDoc, memory_budget, one_line
from agent_sleep.core.notes import sources_of
from agent_sleep.core.redact import redact
from agent_sleep.core.workspace import Workspace
from agent_sleep.providers import offline_common, offline_currency, prompts
from agent_sleep.providers.base import Provider, UnusableReply, Usage, get_provider

PHASES = ("nrem", "rem", "both")
BRIEF_ITEMS = 50  # open questions / weakly-learned items kept per run
MAX_ERROR_CHARS = 500  # a failed run's reason, as its journal line keeps it


@dataclass(frozen=True)
class SleepResult:
    run_id: str | None
    phase: str
    provider: str
    model: str
    notes_in: int
    decisions: dict[str, int]
    dropped: dict[str, int]
    tokens: dict[str, int]
    seconds: float
    files_changed: list[str]
    pending_left: int  # notes still pending after the run, ``deferred``, ``unapplied`` included
    deferred: int = 0  # notes whose change the removal cap held back: the next run takes them
    unapplied: int = 0  # notes every item citing them was dropped: the next run reads them again
    dry_run: bool = False
    diff: str = ""
    open_questions: list[str] = field(default_factory=list)


def _as_read(n: DayNote) -> str:
    """A note's text as a model reads it: redacted, its relative times resolved."""
    return temporal.resolve(redact(n.text), dt.date.fromisoformat(n.date))


def _note_payload(n: DayNote, scores: dict[str, salience.Scored], text: str) -> dict[str, Any]:
    s = scores.get(n.id)
    return {
        "id": n.id,
        "date": n.date,
        "time": n.time,
        "type": n.type,
        "confidence": n.confidence,
        "text": text,  # _as_read
        "salience": s.salience if s else 0.5,
        "tier": s.tier if s else "condense",
    }


def _memory_payload(entries: list[fmt.Note]) -> list[dict[str, Any]]:
    return [
        {
            "id": e.id,
            "type": e.type,
            "confidence": e.confidence,
            "text": e.text,
            "date": e.meta.get("date", ""),
            "sources": sources_of(e),
            "evidence": [s for s in e.meta.get("evidence", "").split(",") if s],
            **({"contested": True} if e.meta.get("contested") else {}),
        }
        for e in entries
    ]


def _brief(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Model-written side notes as the journal keeps them: bounded, whatever the model sent."""
    return [
        {
            "text": one_line(str(i.get("text", ""))[: 2 * MAX_TEXT_CHARS])[:MAX_TEXT_CHARS],
            "sources": [str(s)[: 2 * fmt.ID_LENGTH] for s in i.get("sources", [])[:BRIEF_ITEMS]],
        }
        for i in items[:BRIEF_ITEMS]
    ]


def _diff(ws: Workspace, plan: Plan) -> str:
    out: list[str] = []
    for path in plan.changed():
        rel = path.relative_to(ws.root).as_posix()
        before = plan.originals.get(path) or ""
        after = plan.texts.get(path, before + plan.appends.get(path, ""))
        out += difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            f"a/{rel}",
            f"b/{rel}",
        )
    return "".join(line if line.endswith("\n") else line + "\n" for line in out)


@dataclass
class _Run:
    """One run's settings and what the providers answered."""

    ws: Workspace
    prov: Provider
    today: dt.date
    clock: str
    budget: int
    prune: bool
    say: Callable[[str], None]
    inputs: Inputs
    usage: Usage = field(default_factory=Usage)
    repairs: int = 0
    batches: int = 0
    nrem_out: dict[str, Any] = field(default_factory=dict)
    rem_out: dict[str, Any] = field(default_factory=dict)
    forks: dict[str, fmt.Note] = field(default_factory=dict)  # supersede.forks: settled first
    copies: dict[str, tuple[Path, fmt.Note]] = field(default_factory=dict)  # stale_copies
    due: dict[str, fmt.Note] = field(default_factory=dict)  # due.plans: applied next
    held: set[str] = field(default_factory=set)  # notes earlier runs' removal caps held back
    cached: list[str] = field(default_factory=list)  # batch answers kept until the run commits
    similar: offline_currency.Lazy = field(default_factory=offline_currency.Lazy)  # due plans

    def read(self, path: Path) -> str | None:
        return self.ws.read_text(path) if path.exists() else None

    def builder(self, inputs: Inputs) -> Builder:
        b = Builder(
            self.ws, self.read, inputs, today=self.today, now=self.clock, budget=self.budget,
            prune_memory=self.prune,
            # offline, an entry this run's may replace is marked for the agent to settle
            similar=self.similar if self.prov.name == "offline" and self.nrem_out else None,
        )  # fmt: skip
        supersede.settle_copies(b, self.copies)
        supersede.reconcile(b, self.forks)
        supersede.reconcile(
            b, self.due, why=due.WHY, decision="memory_due", since=due.since(self.due)
        )
        if self.nrem_out:
            b.nrem(self.nrem_out)
            # a plan this run files whose day has already come (slept after its day)
            standing = b.memory.entries()
            filed = {e.id for e in standing} - b.start_ids
            if filed:
                late = due.plans(standing, self.today, self.similar, only=filed)
                supersede.reconcile(
                    b, late, why=due.WHY, decision="memory_due", since=due.since(late)
                )
        return b

    def ask(self, system: str, user: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
        # batches that fit the provider's window; one merged answer, one plan (batches.py);
        # the offline consolidator reports the steps of a long request to the same callback
        with offline_common.reporting(self.say):
            try:
                answer = batches.ask_all(
                    self.prov, system, user, schema, workspace=self.ws, progress=self.say
                )
            except UnusableReply as e:  # what the failed run spent, for its journal line
                self.usage += e.usage
                raise
        self.usage, self.repairs = self.usage + answer.usage, self.repairs + answer.repairs
        self.batches += answer.batches
        self.cached += answer.keys
        return answer.data


def _select(
    snap: Snapshot,
    phase: str,
    limit: int,
    again: set[str],
    cited: frozenset[str],
    held: set[str],
) -> tuple[list, list, list]:
    """(pending, NREM batch, REM batch). Pending (``status.waiting``): not yet consolidated, or
    filed on a bank page deleted since (``again``), and cited by no MEMORY.md or bank entry
    (``cited``: REM-seeded pages aside), or held back by a removal cap (``held``)."""
    marks = snap.marks["nrem"]
    pending = [n for n in snap.window if waiting(n.id, marks, cited, held, again)]
    nrem_batch = pending[:limit] if phase in ("nrem", "both") else []
    if phase == "both":
        rem_batch = nrem_batch
    elif phase == "rem":
        rem_batch = [n for n in snap.window if n.id not in snap.marks["rem"]][:limit]
    else:
        rem_batch = []
    return pending, nrem_batch, rem_batch


def _settled(snap: Snapshot) -> set[str]:
    """Notes a weakly-learned item no longer waits on: cited by MEMORY.md, or superseded."""
    out = {s for e in snap.memory for s in sources_of(e)}
    return out | set(snap.superseded_notes)


def _nrem(run: _Run, snap: Snapshot, batch: list[DayNote], scores: Any, weak: list) -> None:
    run.say(f"NREM: {_count(len(batch), 'note')} with {run.prov.name} ({run.prov.model})")
    shown = [e for e in snap.bank if e.note.id in run.inputs.bank_entries]
    user = prompts.payload(
        "nrem",
        today=run.today.isoformat(),
        notes=[_note_payload(n, scores, run.inputs.note_texts[n.id]) for n in batch],
        memory=[
            {k: v for k, v in e.items() if k not in ("sources", "evidence")}
            for e in _memory_payload(
                [e for e in snap.memory if e.id not in run.forks and e.id not in run.due]
            )
        ],
        related=related.payload(shown),
        weakly_learned=weak,
    )
    run.nrem_out = run.ask(prompts.NREM_SYSTEM, user, prompts.NREM_SCHEMA)


def _rem(run: _Run, snap: Snapshot, batch: list[DayNote], scores: Any, known: set[str]) -> None:
    preview = run.builder(run.inputs).finish(None)
    ws = run.ws
    planned = MemoryDoc(preview.texts.get(ws.memory_md, preview.originals[ws.memory_md] or ""))
    entries = planned.entries()
    run.inputs = replace(run.inputs, memory_ids=frozenset(known | {e.id for e in entries}))
    run.say(f"REM: {_count(len(batch), 'note')} with {run.prov.name} ({run.prov.model})")
    user = prompts.payload(
        "rem",
        today=run.today.isoformat(),
        notes=[_note_payload(n, scores, run.inputs.note_texts[n.id]) for n in batch],
        memory=_memory_payload(entries),
        open_questions=run.nrem_out.get("open_questions", []),
        changes=[
            {"old": c["old"], "new": c["new"], "until": c["until"], "sources": c["sources"]}
            for c in preview.superseded
            if c.get("new_id") and c.get("until") and c.get("sources")
        ],
        bank_pages=sorted(snap.bank_slugs | {p.stem for p in preview.texts if p.parent != ws.root}),
    )
    run.rem_out = run.ask(prompts.REM_SYSTEM, user, prompts.REM_SCHEMA)


def sleep_cycle(
    workspace: str | os.PathLike[str] | Workspace | None = None,
    phase: str = "both",
    provider: Provider | str | None = None,
    *,
    dry_run: bool = False,
    prune_memory: bool = False,
    since: str | dt.date | None = None,
    model: str | None = None,
    memory_budget_chars: int | None = None,
    progress: Callable[[str], None] | None = None,
    now: dt.datetime | None = None,
) -> SleepResult:
    """Consolidate the pending notes: NREM into MEMORY.md and the bank, REM into dreams,
    confidence shifts and next-session actions. Same input twice changes nothing, except that
    a run applies what an earlier run's removal cap held back (``deferred``: still pending).

    ``now`` (local time; default the clock) dates the run: today's log, the look-back window
    and the time written on new entries."""
    args.provider(provider)
    args.flag(dry_run=dry_run, prune_memory=prune_memory)
    args.text_or_none(model=model)
    args.integer_or_none(memory_budget_chars=memory_budget_chars)
    args.callable_or_none(progress=progress)
    args.moment_or_none(now=now)
    if phase not in PHASES:
        raise BadInput(f"unknown phase {phase!r}: use nrem, rem or both")
    started = time.monotonic()
    budget = memory_budget(memory_budget_chars)  # refused before anything is created
    ws = Workspace.at(workspace)
    if dry_run:  # writes nothing, not even a new layout: a read-only workspace will do
        ws = ws.for_reading()
    ws.ensure()
    attempt: dict[str, Any] = {}
    try:
        return _cycle(
            ws, phase, provider, model, dry_run, prune_memory, since, budget, progress, now,
            started, attempt,
        )  # fmt: skip
    except (Exception, KeyboardInterrupt) as exc:
        if not dry_run:  # a dry run writes nothing, not even this
            _journal_failure(ws, phase, provider, model, attempt, exc, started)
        raise


def _journal_failure(
    ws: Workspace,
    phase: str,
    provider: Provider | str | None,
    model: str | None,
    attempt: dict[str, Any],
    exc: BaseException,
    started: float,
) -> None:
    """One journal line for a run that failed (a provider error, a timeout, Ctrl-C): what it
    was asked, how far it got and why it stopped. Nothing was written (the plan is applied
    all or nothing, under the journal's own before-images); its notes stay pending. Best
    effort: a journal that cannot be written never hides the run's own error."""
    run: _Run | None = attempt.get("run")
    prov = run.prov if run else None if provider is None or isinstance(provider, str) else provider
    name = prov.name if prov else provider if isinstance(provider, str) else None
    usage = run.usage if run else Usage()
    line = {
        "event": "sleep-failed",
        "time": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "phase": phase,
        "provider": name,
        "model": _known_model(prov) if prov else model,
        "error": one_line(f"{type(exc).__name__}: {exc}")[:MAX_ERROR_CHARS],
        "stage": attempt.get("stage", "reading"),
        "notes_in": attempt.get("notes_in", 0),
        "tokens": {
            "input": usage.input_tokens,
            "output": usage.output_tokens,
            "calls": usage.calls,
            "repairs": run.repairs if run else 0,
            "batches": run.batches if run else 0,
        },
        "seconds": round(time.monotonic() - started, 3),
    }
    with contextlib.suppress(Exception):  # see the docstring
        journal.append(ws, line)


def _known_model(prov: Provider) -> str | None:
    """The provider's model name if it is known without asking its server: an
    OpenAI-compatible provider lists the server's models to learn it, and a run that failed
    must not ask again (the server may be what failed)."""
    if isinstance(getattr(type(prov), "model", None), property):
        value = vars(prov).get("_model")
    else:
        value = getattr(prov, "model", None)
    return value if isinstance(value, str) else None


def _cycle(
    ws: Workspace,
    phase: str,
    provider: Provider | str | None,
    model: str | None,
    dry_run: bool,
    prune_memory: bool,
    since: str | dt.date | None,
    budget: int,
    progress: Callable[[str], None] | None,
    now: dt.datetime | None,
    started: float,
    attempt: dict[str, Any],
) -> SleepResult:
    offline_currency.cache_in(ws.state_dir / "model")  # the offline consolidator's MiniLM
    prov = (
        get_provider(provider, model) if provider is None or isinstance(provider, str) else provider
    )
    now = now or dt.datetime.now()
    with ws.lock():
        snap = read_snapshot(ws, parse_since(since, now.date()), until=now.date())
        lines = journal.entries(ws)
        again = related.deleted_pages(lines, ws.root)
        cited = nrem_cited(ws, snap, again)
    held = held_back(lines)
    pending, nrem_batch, rem_batch = _select(snap, phase, prov.max_notes, again, cited, held)
    # a REM-only run reads notes NREM has not consolidated: they stay pending for NREM
    awaiting = {n.id for n in pending} & {n.id for n in rem_batch} if phase == "rem" else set()
    scores = salience.score([(n.id, n.type, n.text) for n in snap.window])
    batch_ids = {n.id: n for n in [*nrem_batch, *rem_batch]}
    shown = related.related([n.text for n in nrem_batch], snap.bank)
    read = {i: _as_read(n) for i, n in batch_ids.items()}  # what a model reads of each note
    run = _Run(
        ws, prov, now.date(), now.strftime("%H:%M"), budget,
        prune_memory, progress or (lambda _msg: None),
        Inputs(
            check_rem=prov.name != "offline",
            note_dates={i: n.date for i, n in batch_ids.items()},
            note_types={i: n.type for i, n in batch_ids.items()},
            note_confidences={
                i: n.confidence for i, n in batch_ids.items() if n.confidence is not None
            },
            memory_ids=frozenset(e.id for e in snap.memory),
            cited=cited,
            dream_texts=snap.dream_texts,
            bank_entries={e.note.id: e.page for e in shown},
            awaiting_nrem=frozenset(awaiting),
            note_texts=read,
            shown=grounding.support_of(
                one_line(t)
                for t in [
                    *read.values(),
                    *(e.text for e in snap.memory),
                    *(e.note.text for e in shown),
                ]
            ),
        ),
        held=held,
    )  # fmt: skip
    attempt.update(run=run, notes_in=len(batch_ids))
    if phase in ("nrem", "both"):
        run.copies = supersede.stale_copies(ws, snap.memory, snap.replaced)
        run.forks = supersede.forks(ws, snap.memory)
        standing = [e for e in snap.memory if e.id not in run.forks and e.id not in run.copies]
        run.due = due.plans(standing, run.today, run.similar)
    weak = related.open_weak(lines, _settled(snap))
    if nrem_batch:
        attempt["stage"] = "nrem"
        _nrem(run, snap, nrem_batch, scores, weak)
    if rem_batch:
        attempt["stage"] = "rem"
        _rem(run, snap, rem_batch, scores, {e.id for e in snap.memory})
    attempt["stage"] = "writing"
    if awaiting:
        one = len(awaiting) == 1
        run.say(
            f"{_count(len(awaiting), 'note')} REM read {'is' if one else 'are'} still pending: "
            "only NREM consolidates a note (sleep --phase nrem or both)"
        )
    return _write(run, phase, pending, nrem_batch, rem_batch, weak, dry_run, started)


def _write(
    run: _Run,
    phase: str,
    pending: list[DayNote],
    nrem_batch: list[DayNote],
    rem_batch: list[DayNote],
    weak: list[dict[str, Any]],
    dry_run: bool,
    started: float,
) -> SleepResult:
    """Build the plan against the files as they are now and write it (under the lock)."""
    ws = run.ws
    run_id, files, diff = None, [], ""
    with ws.lock():
        builder = run.builder(replace(run.inputs, cited=frozenset(consolidating_ids(ws))))
        if run.rem_out:
            builder.rem(run.rem_out)
        plan = builder.finish(ws.day_log(run.today))
        unapplied = {n.id for n in nrem_batch} & plan.unapplied
        if unapplied:
            one = len(unapplied) == 1
            run.say(
                f"{_count(len(unapplied), 'note')} {'stays' if one else 'stay'} pending: every "
                f"change the model proposed for {'it' if one else 'them'} was dropped (see "
                f"dropped); the next sleep reads {'it' if one else 'them'} again"
            )
        if dry_run:
            diff = _diff(ws, plan)
        elif (
            nrem_batch
            or rem_batch
            or plan.decisions.get("memory_reconciled")
            or plan.decisions.get("memory_due")
        ):
            run_id = journal.new_run_id()
            left = plan.deferred | plan.unapplied  # their notes wait for the next run
            marked = {
                "nrem": sorted(n.id for n in nrem_batch if n.id not in left),
                "rem": sorted(n.id for n in rem_batch),
            }
            files = journal.commit(ws, run_id, plan, marked)
            marks = journal.load_watermark(ws)
            for ph, ids in marked.items():
                marks[ph].update(ids)
            journal.save_watermark(ws, marks)
        deferred = {n.id for n in nrem_batch} & plan.deferred
        result = SleepResult(
            run_id=run_id,
            phase=phase,
            provider=run.prov.name,
            model=run.prov.model,
            notes_in=len({n.id for n in [*nrem_batch, *rem_batch]}),
            decisions=dict(sorted(plan.decisions.items())),
            dropped=dict(sorted(plan.dropped.items())),
            tokens={
                "input": run.usage.input_tokens,
                "output": run.usage.output_tokens,
                "calls": run.usage.calls,
                "repairs": run.repairs,
                "batches": run.batches,
            },
            seconds=round(time.monotonic() - started, 3),
            files_changed=files,
            pending_left=_pending_left(
                ws, plan, pending, nrem_batch, builder.inputs.cited, run.held
            ),
            deferred=len(deferred),
            unapplied=len(unapplied),
            dry_run=dry_run,
            diff=diff,
            open_questions=[q["text"] for q in _brief(run.nrem_out.get("open_questions", []))],
        )
        if run_id is not None:
            line = _journal_line(run, result, plan, nrem_batch, rem_batch, weak)
            journal.append(ws, {**line, "deferred_notes": sorted(deferred)})
            batches.forget(ws, run.cached)  # kept for an interrupted run; this one is done
    return result


def _pending_left(
    ws: Workspace,
    plan: Plan,
    pending: list[DayNote],
    nrem_batch: list[DayNote],
    cited: frozenset[str],
    held: set[str],
) -> int:
    """The notes still pending once the plan stands (what ``status`` then counts): those NREM
    did not take (past the provider's batch, held back by the removal cap, or every item
    citing them refused), unless a page the plan writes cites them now; a note the removal
    cap held back (``held`` by earlier runs, or this one) stays pending though cited."""
    taken = {n.id for n in nrem_batch} - plan.deferred - plan.unapplied
    now_cited = set(cited)
    for path, text in plan.texts.items():
        if path == ws.memory_md or path.is_relative_to(ws.bank_dir):
            now_cited.update(s for note in fmt.notes_in(text) for s in consolidating_sources(note))
    waits = held | plan.deferred
    return sum(1 for n in pending if n.id not in taken and (n.id not in now_cited or n.id in waits))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _journal_line(
    run: _Run,
    result: SleepResult,
    plan: Plan,
    nrem_batch: list[DayNote],
    rem_batch: list[DayNote],
    weak: list[dict[str, Any]],
) -> dict[str, Any]:
    fresh = _brief(run.nrem_out.get("weakly_learned", []))
    listed = {w["text"] for w in fresh}
    carried = [w for w in weak if w["text"] not in listed] if nrem_batch else weak
    return {
        "event": "sleep",
        "time": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        **{k: v for k, v in result.__dict__.items() if k not in ("diff", "dry_run")},
        "notes": {"nrem": len(nrem_batch), "rem": len(rem_batch)},
        "superseded": plan.superseded,
        # replay: this run's weakly-learned items and the earlier ones still open
        "weakly_learned": (fresh + carried)[:BRIEF_ITEMS],
        "filed": related.filed_pages(plan.texts, run.ws.root),
    }
