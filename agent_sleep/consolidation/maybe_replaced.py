"""Entries a newer one may replace: what sleep could not settle, marked for the agent to settle.

The offline consolidator replaces an entry only when it reads an update surely; otherwise both
stand ("Monorepo uses yarn v1 workspaces" beside a later "pnpm is the package manager for the
monorepo"), and a session start showed the two side by side with nothing to tell which is
current. At the end of an offline NREM run (:func:`mark`), an older current MEMORY.md entry
that a newer one written by this run reads like an update of gets ``newer=<that entry's id>``:

- both are standing facts or views (W or O), dated, the older one dated before the newer;
- the two read alike (MiniLM cosine at least :data:`MARK_COSINE`), and each holds a value the
  other does not say (the newer one agrees with the older where it says all its values);
- nothing tells them apart as two things: none of the learned model's refusals
  (``update_model.refused``: another owner, another code, a plan, a list that grows, …; but
  two notes that share only their owner's name are compared) nor of its second look (another
  attribute of one owner, a qualifier of a shared word, a count);
- the learned model, either set of weights, gives at least :data:`MARK_THRESHOLD` (below the
  bar at which sleep replaces the entry itself);
- the older entry is not contested nor marked already, and at most :data:`MARKS_PER_RUN` are
  marked in one run, the likeliest first.

Nothing is retired: the older entry stays current. The session start shows it with the date
and words of the newer one (``retrieval/context.py``), search hits name the newer one
(``Hit.newer``), ``status`` lists it, and the run's next-session actions ask to settle it
("Check: “…” (DATE) may be out of date, by a newer note: “…”"). A later note that tells the
change replaces it as any update does; one that says the older fact again is merged into it,
which drops the mark (an update or merge carries ``supersedes`` and ``evidence`` only). A
mark that names an entry MEMORY.md no longer holds is not shown, and the entry may be marked
again. The marks are written in the run's plan, so the journal and ``rollback`` cover them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from agent_sleep.analysis import currency as c
from agent_sleep.analysis import update_model as um
from agent_sleep.consolidation import apply_rem
from agent_sleep.consolidation.plan import MAX_NEXT_ACTIONS
from agent_sleep.core.memory import NEWER, marked
from agent_sleep.core.notes import Note, sources_of
from agent_sleep.providers.offline_common import excerpt

if TYPE_CHECKING:
    from agent_sleep.consolidation.apply import Builder

MARK_COSINE = 0.65  # two entries read alike at least this much to be compared at all
MARK_THRESHOLD = 0.3  # the learned model's probability of an update, either set of weights
MARKS_PER_RUN = 5  # the likeliest marks of one run; the rest wait for a later note
KINDS = frozenset({"W", "O"})  # standing facts and views; an event stays what happened


def likelihood(
    new_text: str,
    old_text: str,
    similar: Callable[[str, str], float],
    names: frozenset[str] = frozenset(),
    known: frozenset[str] = frozenset(),
) -> float | None:
    """The learned model's probability that ``new_text`` replaces ``old_text``, when the two
    read alike, nothing tells them apart as two things and it reaches :data:`MARK_THRESHOLD`;
    else None."""
    if similar(new_text, old_text) < MARK_COSINE:
        return None
    verdict = c.relation(new_text, old_text, names, similar)
    if verdict.kind == c.SAME:
        return None  # said again: nothing to settle
    fresh, gone = c._values_apart(new_text, old_text)
    if not (fresh and gone):
        return None  # the newer says the older's values again, or none of its own
    asked = c.Verdict(c.OTHER, verdict.why)  # whatever the rules read, the model's refusals
    if um.refused(
        new_text, old_text, asked, similar, names, known, owner_only=False
    ) or um.second_apart(new_text, old_text, verdict):
        return None
    x = um.features(new_text, old_text, verdict.why, similar)
    p = max(um.logistic(um.WEIGHTS, x), um.logistic(um.SECOND_WEIGHTS, x))
    return p if p >= MARK_THRESHOLD else None


def _quoted(text: str) -> str:
    """An entry's words as a Check action quotes them: at most 120 characters, no end stop."""
    return excerpt(text, 120).rstrip(" .")


def _day(entry: Note) -> str:
    return entry.meta.get("date", "")


def mark(b: Builder, similar: Callable[[str, str], float]) -> None:
    """Mark in ``b``'s MEMORY.md each older entry a newer entry of this run may replace (see
    the module's docstring), and ask the next session to settle it."""
    entries = [e for e in b.memory.entries() if e.type in KINDS and _day(e)]
    new = [e for e in entries if not b.held(e.id)]
    if not new:
        return
    # an entry marked already keeps its mark while the newer one it names is current
    held = marked(b.memory.entries())
    old = [e for e in entries if e.id not in held and not e.meta.get("contested")]
    pairs = [(n, o) for n in new for o in old if o.id != n.id and _day(o) < _day(n)]
    if not pairs:
        return  # nothing older than this run's entries (a first sleep): no model loaded
    prefetch = getattr(similar, "prefetch", None)
    if prefetch is not None:  # the texts compared, embedded together
        prefetch(list(dict.fromkeys(e.text for pair in pairs for e in pair)))
    best: dict[str, tuple[float, Note, Note]] = {}  # older id -> (probability, newer, older)
    for n, o in pairs:
        p = likelihood(n.text, o.text, similar)
        if p is not None and p > best.get(o.id, (0.0,))[0]:
            best[o.id] = (p, n, o)
    ranked = sorted(best.items(), key=lambda kv: (-kv[1][0], kv[0]))[:MARKS_PER_RUN]
    for old_id, (_p, n, o) in ranked:
        i = b.memory.index(old_id)
        assert i is not None
        b.memory.set(i, replace(o, meta={**o.meta, NEWER: n.id}))
        b.plan.decisions["memory_maybe_replaced"] += 1
        # the newer one's day is left out: a day not before the one planned reads as a day
        # ahead, and the session start would take the action for past the day after
        text = (
            f"Check: “{_quoted(o.text)}” ({_day(o)}) may be out of date, by a newer note: "
            f"“{_quoted(n.text)}”. If it is, note the change; if it still holds, say it again"
        )
        sources = [old_id, *(s for s in sources_of(n) if s in b.inputs.note_dates)]
        apply_rem.log_note(b, b.actions, text, sources, "next_session", MAX_NEXT_ACTIONS)
