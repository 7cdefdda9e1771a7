"""Currency in the plan: a supersede replaces an entry in place and files the old one in the
History of its subject.

An item ``{"action": "supersede", "replaces": OLD, "text": NEW, "sources": [...]}`` (from the
offline consolidator or a model) goes through these gates:

- it must cite at least one new note of this run (a supersede says which note brought the new
  value); otherwise it is dropped (``supersede_without_note``);
- ``replaces`` must name a MEMORY.md entry, a bank entry shown to the model, or a note of this
  run that this run filed; otherwise it is dropped and counted (``unknown_id``);
- the newest note it cites must not be older than the entry it replaces (a back-dated note):
  otherwise it is added as an entry of its own beside the old one (the decision
  ``older_than_entry``);
- an opinion weaker than the entry it replaces (lower confidence) does not win: the old entry is
  marked ``contested=<note ids>`` and stays current until the next evidence decides; an entry
  already contested is decided by the new evidence;
- MEMORY.md supersedes count against the run's one removal cap with removals, updates and
  budget evictions (at least one supersede per run); past it the note stays pending, and so
  does a note of the same run that replaces it (a chain of changes lands whole, in order).

Two current MEMORY.md entries that replace the same entry (a fork: two machines each recorded a
change of one fact, and sync merged both) are reconciled at the start of the next run
(:func:`forks`, :func:`reconcile`): the later one, by the date and time of its newest source
note, stands; the other moves to History with ``superseded_by=<the later one>``. The run is
committed and journaled even with no note pending, and the consolidator is shown only the
entry that stands, so a newer note replaces that one.

The new entry takes the old one's place (MEMORY.md line or bank section) with
``supersedes=<old id>``, but on a bank section that is a date (``## 2026-11-07``) a new entry
dated later goes under the section of its own date (created in date order when missing): a
note of November 26 is not filed under November 7. The old entry, unchanged but for
``superseded_by=<new id>`` and ``until=<date>``, moves to the ``## History`` section of its
subject's bank page (the entity page of a name it mentions, the page it was on, else the
archive page); a bank section it leaves with nothing under it is removed. Nothing is deleted;
every file is in the plan, so rollback restores it byte for byte.

An update or merge that keeps an entry's text writes it under a new id: it keeps its links
(:func:`carried`), and every ``superseded_by`` or ``contests`` naming the old id names the new
one, in the same plan (:func:`relink`), so no History entry is left naming a missing entry.

A bank entry that joins parts said on other days (REM's seed of a new page: "A (date); B
(date)", :func:`parts`) can hold a copy of an entry this run superseded. At the end of the run
(:func:`split_seeds`) each current entry that cites a note of a superseded entry and has a part
restating it (:func:`restates`) is rewritten without that part, the old one filed in History
(``superseded_by`` the rewrite, or the replacement when no part is left), as a bank supersede.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from agent_sleep.analysis import distill, lexical
from agent_sleep.consolidation.plan import SEEDED_BY
from agent_sleep.core import notes as fmt
from agent_sleep.core.memory import ARCHIVE_SECTION, section_day, sections_of
from agent_sleep.core.memory import ARCHIVE_SLUG as ARCHIVE
from agent_sleep.core.notes import Note, sources_of

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from agent_sleep.consolidation.apply import Builder
    from agent_sleep.core.workspace import Workspace

HISTORY = "## History"
CONTESTED = "## Contested"
# what ties an entry to others: an update or merge that gives it a new id keeps them
CARRIED = ("supersedes", "evidence")
# what names another entry by its id: it follows that entry to the id a rewrite gave it
LINKS = ("superseded_by", "contests", "newer")


class Change(NamedTuple):
    """An entry this run superseded (``old``), what replaced it and the day it ended."""

    old: Note
    new: Note
    until: str


def _conf(note: Note | None, value: Any, kind: str) -> float | None:
    """An opinion's confidence; None for facts (a newer fact always wins)."""
    if kind != "O" or (note is not None and note.type != "O"):
        return None
    try:
        return float(value if note is None else (note.confidence or 0.5))
    except (TypeError, ValueError):
        return None


class Target:
    """Where the replaced entry lives: MEMORY.md (index), or a bank page (path), or an entry
    this run added to a page."""

    def __init__(self, note: Note, memory_index: int | None = None, page: Path | None = None):
        self.note, self.memory_index, self.page = note, memory_index, page


def find_target(b: Builder, ref: str) -> Target | None:
    """The entry ``ref`` names: a MEMORY.md entry id (or text), a bank entry id shown in the
    input, or a note id of this run that an entry of this run cites."""
    i = b.memory.index(ref) if ref else None
    if i is not None:
        note = b.memory.blocks[i].note
        assert note is not None
        return Target(note, memory_index=i)
    if ref in b.inputs.bank_entries:
        path = b.ws.root / b.inputs.bank_entries[ref]
        text = b._page_text(path, path.stem, "concept")
        for n in fmt.notes_in(text):
            if n.id == ref and not n.meta.get("superseded_by"):
                return Target(n, page=path)
        for section in b.added.get(path, {}).values():
            for n in section:
                if n.id == ref:
                    return Target(n, page=path)
        return None
    if ref in b.inputs.note_dates:
        for k, blk in enumerate(b.memory.blocks):
            if blk.note is not None and ref in sources_of(blk.note):
                return Target(blk.note, memory_index=k)
        for path, sections in b.added.items():
            for section in sections.values():
                for n in section:
                    if ref in sources_of(n):
                        return Target(n, page=path)
    return None


def supersede(b: Builder, item: dict[str, Any], ids: list[str], text: str) -> None:
    fresh_notes = [i for i in ids if i in b.inputs.note_dates]
    if not fresh_notes:
        b.plan.dropped["supersede_without_note"] += 1
        return
    ref = str(item.get("replaces", "")).strip()
    target = find_target(b, ref)
    if target is None and ref in b.plan.deferred:
        # it replaces a note of this run whose own change the removal cap held back (pytest
        # 7.4 -> 8.1 -> 8.2 with 8.1 deferred): it waits with it, and the next run files both
        # in order, instead of being dropped and marked consolidated with nothing written
        b.plan.dropped["removal_cap"] += 1
        b.plan.deferred.update(fresh_notes)
        return
    if target is None:
        b.plan.dropped["unknown_id"] += 1
        return
    old = target.note
    if old.id in b.superseded_now:
        b.plan.dropped["duplicate"] += 1
        return
    # a note told before the entry (an imported history, ``rest --when`` into an earlier day)
    # never replaces it: the later word stands, and the note is filed beside it as an entry of
    # its own (no History line may end before its entry starts)
    if str(old.meta.get("date", "")) > b._date(fresh_notes):
        b.plan.decisions["older_than_entry"] += 1
        b._memory_add({**item, "action": "add"}, ids, text)
        return
    kind = str(item.get("type") or old.type)
    cited = [s for s in ids if s != old.id]
    new_c, old_c = _conf(None, item.get("confidence"), kind), _conf(old, None, kind)
    weaker = new_c is not None and old_c is not None and new_c < old_c
    # the cap protects what MEMORY.md held when the run began, not what this run just added
    existed = b.held(old.id)
    capped = existed and target.memory_index is not None and not b.within_cap(at_least_one=True)
    if capped:  # the note stays pending: the next run (a new cap) takes it
        b.plan.dropped["removal_cap"] += 1
        b.plan.deferred.update(fresh_notes)
        return
    if weaker and not old.meta.get("contested"):
        contest(b, target, cited, text, kind, new_c)
        return
    new = b._entry(kind, text, item.get("confidence"), cited, supersedes=old.id)
    until = b._date(cited)
    moved = Note(
        type=old.type,
        text=old.text,
        id=old.id,
        confidence=old.confidence,
        meta={
            **{k: v for k, v in old.meta.items() if k != "contested"},
            "superseded_by": new.id,
            "until": until,
        },
    )
    place(b, target, new)
    b.superseded_now.add(old.id)
    b.replaced.append(Change(old, new, until))
    where = history(b, moved, target.page)
    b.plan.superseded.append(
        {
            "old_id": old.id,
            "old": old.text,
            "new_id": new.id,
            "new": new.text,
            "sources": cited,
            "why": "superseded" if not old.meta.get("contested") else "contest decided",
            "until": until,
            "moved_to": where,
        }
    )
    b.plan.decisions[
        "memory_supersede" if target.memory_index is not None else "bank_supersede"
    ] += 1


def place(b: Builder, target: Target, new: Note) -> None:
    """The new entry where the old one was (once: a second target of the same new entry only
    leaves). On a bank page, where the old entry sits under a date section and the new one is
    dated later, the new one goes under the section of its own date instead (:func:`later_day`)."""
    if target.memory_index is not None:
        b.removed += b.held(target.note.id)
        if b.memory.index(new.id) is None:
            b.memory.set(target.memory_index, new)
        else:
            b.memory.remove(target.memory_index)
        return
    page = target.page
    assert page is not None
    sections = b.added.get(page, {})
    present = b.memory.index(new.id) is not None or any(
        n.id == new.id for sec in sections.values() for n in sec
    )
    edits = b.edits.setdefault(page, {})
    edits[target.note.id] = None if present else new
    for title, section in sections.items():
        for k, n in enumerate(section):
            if n.id == target.note.id:
                del section[k]
                edits.pop(target.note.id, None)
                day = None if present else later_day(title, new)
                if day is not None:
                    sections.setdefault(f"## {day}", []).append(new)
                elif not present:
                    section.insert(k, new)
                return
    if not present:
        where = sections_of(b.pages.get(page, ""), {target.note.id}).get(target.note.id)
        day = later_day(where, new)
        if day is not None:  # the old entry leaves its section; the new one files by its date
            edits[target.note.id] = None
            b.added.setdefault(page, {}).setdefault(f"## {day}", []).append(new)


def later_day(section: str | None, new: Note) -> str | None:
    """The day ``new`` is dated (its ``date=``: the newest note it cites) when ``section`` is a
    date section (``## 2026-11-07``) of an earlier day: the new entry files under its own
    date. None for a topic section or a day not earlier: it takes the old entry's place."""
    day = section_day(section.lstrip("#").strip() if section else None)
    own = section_day(str(new.meta.get("date", "")))
    return own if day is not None and own is not None and own > day else None


def history(b: Builder, old: Note, page: Path | None) -> str:
    """File ``old`` (already marked) in the History of its subject; returns the page."""
    slug = subject_page(b, old.text) or (page.stem if page is not None else ARCHIVE)
    kind = "entity" if page is not None and page.parent == b.ws.entities_dir else "concept"
    b._page_entries(slug, kind, HISTORY, [old], force=True)
    path = b._page_path(slug, kind)
    return path.relative_to(b.ws.root).as_posix() if path is not None else ""


def subject_page(b: Builder, text: str) -> str | None:
    """The slug of an existing entity page named by a name ``text`` mentions."""
    for name in distill.names(text):
        slug = fmt.slugify(name)
        if slug and os.path.lexists(b.ws.entities_dir / f"{slug}.md"):
            return slug
    return None


def contest(
    b: Builder, target: Target, cited: list[str], text: str, kind: str, conf: float | None
) -> None:
    """The old entry stays current, marked contested by the new notes; the challenger is kept
    on the archive page under Contested, so the next evidence can decide."""
    old = target.note
    marked = replace(old, meta={**old.meta, "contested": ",".join(cited)})
    if target.memory_index is not None:
        b.memory.set(target.memory_index, marked)
    else:
        assert target.page is not None
        b.edits.setdefault(target.page, {})[old.id] = marked
    challenger = b._entry(kind, text, conf, cited, contests=old.id)
    b._page_entries(ARCHIVE, "concept", CONTESTED, [challenger])
    b.plan.decisions["contested"] += 1


def apply_edits(text: str, edits: dict[str, Note | None]) -> str:
    """``text`` with the entries named in ``edits`` replaced (or removed, for None)."""
    out = []
    for block in fmt.parse(text).blocks:
        if block.note is not None and block.note.id in edits:
            new = edits[block.note.id]
            if new is not None:
                out.append(fmt.render_note(new))
            continue
        out.append(block.raw)
    return "".join(out)


def forks(ws: Workspace, entries: Sequence[Note]) -> dict[str, Note]:
    """``{id: the entry that replaces it}`` for each current entry of ``entries`` (MEMORY.md's)
    that replaces the same entry as a later one: the later is the one whose newest source note
    is later (its date, then its time in that day's log), then the greater id."""
    groups: dict[str, list[Note]] = {}
    for e in entries:
        old = e.meta.get("supersedes", "")
        if e.id and old and not e.meta.get("superseded_by"):
            groups.setdefault(old, []).append(e)
    times: dict[str, dict[str, str]] = {}  # day -> note id -> time, read once per day

    def when(e: Note) -> tuple[str, str, str]:
        day = e.meta.get("date", "")
        if day not in times:
            times[day] = {}
            try:
                log = ws.day_log(dt.date.fromisoformat(day))
                if log.is_file():
                    times[day] = {n.id: n.time or "" for n in fmt.notes_in(ws.read_text(log))}
            except (ValueError, OSError):
                pass
        clock = max((times[day].get(i, "") for i in sources_of(e)), default="")
        return day, clock, e.id

    out: dict[str, Note] = {}
    for group in groups.values():
        if len(group) > 1:
            ranked = sorted(group, key=when)
            for loser in ranked[:-1]:
                out[loser.id] = ranked[-1]
    return out


def stale_copies(
    ws: Workspace, entries: Sequence[Note], replaced: Mapping[str, tuple[str, Note]]
) -> dict[str, tuple[Path, Note]]:
    """``{id: (page, its History copy)}`` for each current entry of ``entries`` (MEMORY.md's)
    that a bank page also holds as replaced (``replaced``: the snapshot's, by id, with the
    workspace-relative page). A sync keeps a hand edit of an entry that the other machine's
    sleep moved to History (merge rule 4): both stood, the old value current beside its
    replacement, run after run."""
    return {
        e.id: (ws.root / replaced[e.id][0], replaced[e.id][1])
        for e in entries
        if e.id in replaced and not e.meta.get("superseded_by")
    }


def settle_copies(b: Builder, copies: Mapping[str, tuple[Path, Note]]) -> None:
    """Each copy of :func:`stale_copies` leaves MEMORY.md (within the removal cap: past it,
    the next run settles it); the History copy stands, in the words of the current one when
    they were edited (a person's words are kept, as replaced)."""
    for entry_id, (page, held) in copies.items():
        i = b.memory.index(entry_id)
        if i is None or entry_id in b.superseded_now:
            continue
        if b.held(entry_id) and not b.within_cap(at_least_one=True):
            b.plan.dropped["removal_cap"] += 1
            continue
        current = b.memory.blocks[i].note
        assert current is not None
        b.removed += b.held(entry_id)
        b.memory.remove(i)
        b.superseded_now.add(entry_id)
        if current.text != held.text:  # the page read into the plan: rollback restores it
            b._page_text(page, page.stem, "concept")
            b.edits.setdefault(page, {})[entry_id] = replace(held, text=current.text)
        b.plan.decisions["memory_reconciled"] += 1


def reconcile(
    b: Builder,
    found: Mapping[str, Note],
    *,
    why: str = "two changes of one entry merged: the later stands",
    decision: str = "memory_reconciled",
    since: Mapping[str, str] | None = None,
) -> None:
    """Each fork of ``found`` (:func:`forks`) settled: the earlier entry leaves MEMORY.md for
    the History of its subject, replaced by the later one (within the removal cap: past it,
    the next run settles it). A planned change that came due (``consolidation.due.plans``)
    is settled the same way, the plan standing, with its own ``why`` and ``decision``, and
    the day it came due (``since``, by the id of the entry it replaces) ending the old one."""
    for loser_id, winner in found.items():
        i = b.memory.index(loser_id)
        if i is None or b.memory.index(winner.id) is None or loser_id in b.superseded_now:
            continue  # the files changed since the fork was read
        if b.held(loser_id) and not b.within_cap(at_least_one=True):
            b.plan.dropped["removal_cap"] += 1
            continue
        old = b.memory.blocks[i].note
        assert old is not None
        until = (since or {}).get(loser_id) or winner.meta.get("date") or b.today.isoformat()
        moved = replace(old, meta={**old.meta, "superseded_by": winner.id, "until": until})
        b.removed += b.held(loser_id)
        b.memory.remove(i)
        b.superseded_now.add(loser_id)
        where = history(b, moved, None)
        b.plan.superseded.append(
            {
                "old_id": old.id,
                "old": old.text,
                "new_id": winner.id,
                "new": winner.text,
                "sources": list(sources_of(winner)),
                "why": why,
                "until": until,
                "moved_to": where,
            }
        )
        b.plan.decisions[decision] += 1


def carried(old: Note, decided: bool) -> dict[str, str]:
    """The metadata an update or merge of ``old`` keeps under its new id (:data:`CARRIED`,
    and its ``contested`` mark unless the new evidence ``decided`` it)."""
    keys = CARRIED if decided else (*CARRIED, "contested")
    return {k: old.meta[k] for k in keys if old.meta.get(k)}


def relink(b: Builder) -> None:
    """Every link (:data:`LINKS`) that names an entry this run gave a new id
    (``Builder.renamed``: an update or merge that kept its text) names the new one: a History
    entry's ``superseded_by`` on any bank page, this run's own included, and a Contested
    challenger's ``contests``. Before, the History entry named an id no file held, and every
    search warned about metadata the user never wrote. The pages are edited in the plan, so
    the journal and rollback cover them."""
    if not b.renamed:
        return

    def now(i: str) -> str:
        seen = set()
        while i in b.renamed and i not in seen:  # renamed again later in the run
            seen.add(i)
            i = b.renamed[i]
        return i

    def relinked(n: Note) -> Note | None:
        moved = {k: now(v) for k, v in n.meta.items() if k in LINKS and v in b.renamed}
        return replace(n, meta={**n.meta, **moved}) if moved else None

    for k, block in enumerate(b.memory.blocks):
        if block.note is not None and (fixed := relinked(block.note)) is not None:
            b.memory.set(k, fixed)
    for sections in b.added.values():
        for section in sections.values():
            section[:] = [relinked(n) or n for n in section]
    for path in dict.fromkeys([*b.ws.bank_pages(), *b.pages]):
        text = b.pages[path] if path in b.pages else b.read(path)
        if not text or not any(i in text for i in b.renamed):
            continue
        text = b._page_text(path, path.stem, "concept")  # in the plan: rollback restores it
        edits = b.edits.get(path, {})
        for n in fmt.notes_in(text):
            planned = edits.get(n.id, n)
            if planned is not None and (fixed := relinked(planned)) is not None:
                b.edits.setdefault(path, edits)[n.id] = fixed


# -- seeded entries that hold a copy of a superseded entry ----------------------------------

# a part of a seeded entry ends with the day it was said: "A (2026-11-02); B (2026-11-03)"
_PART_END = re.compile(r" \((\d{4}-\d{2}-\d{2})\)(?:; |$)")
_ELLIPSIS = ("…", "...")
_POSSESSIVE = re.compile(r"(?<=\w)['’]s\b")
_WORDS = re.compile(r"\w+")
SHARE = 0.8  # of a part's content words in the superseded entry's text: a restatement
MIN_WORDS = 2  # content words a part needs to restate an entry other than word for word
# not current (History, a Contested challenger), or no seed (what left MEMORY.md, kept as it was)
NOT_SEEDS = frozenset({"History", "Contested", ARCHIVE_SECTION.lstrip("# ")})


def parts(text: str) -> list[tuple[str, str]]:
    """The parts of a seeded entry: ``[(text, day), ...]`` for "A (day); B (day)" (REM's seed
    of a page, ``providers/offline_rem._seed``; one "A (day)" is one part). A "; " inside a
    sentence is no boundary: a part ends only with its day in parentheses. [] when ``text``
    is not such an entry (anything after the last day, a part with no text, a bad day)."""
    out: list[tuple[str, str]] = []
    at = 0
    for m in _PART_END.finditer(text):
        piece = text[at : m.start()].strip()
        try:
            dt.date.fromisoformat(m.group(1))
        except ValueError:
            return []
        if not piece:
            return []
        out.append((piece, m.group(1)))
        at = m.end()
    return out if at == len(text) else []


def _words(text: str, excerpt: bool = False) -> list[str]:
    """``text``'s words, case, punctuation and a possessive "'s" aside; an ``excerpt`` (a
    part) ending with an ellipsis loses its last word too, as it may be cut ("… termin…")."""
    cut = excerpt and text.rstrip().endswith(_ELLIPSIS)
    words = _WORDS.findall(_POSSESSIVE.sub("", text.casefold()))
    return words[:-1] if cut else words


def _within(short: list[str], long: list[str]) -> bool:
    """``short``'s words appear in ``long`` in a row."""
    return bool(short) and f" {' '.join(short)} " in f" {' '.join(long)} "


def _content(words: list[str]) -> list[str]:
    return [w for w in words if w not in lexical.STOPWORDS]


def restates(part: str, old: str, new: str = "") -> bool:
    """Whether a part of a seeded entry says again what ``old`` (an entry replaced by ``new``)
    says: the same words (case, spacing and punctuation aside), or one's words in a row within
    the other's, or ``SHARE`` of the part's content words among ``old``'s. A part and the entry
    it restates are both taken from one note (the caller asks that the entry holding the part
    cite a note of ``old``), so they differ by an excerpt's cut, a speaker label, a word the
    entry leaves out: 80% lets one word in five differ. A value changed in one word ("at 9:30"
    / "at 10:15") keeps the rest alike, so a part that shares more content words with ``new``
    than with ``old`` says the new value and is no restatement; nor is a part with fewer than
    ``MIN_WORDS`` content words (but said word for word)."""
    p, o = _words(part, excerpt=True), _words(old)
    if not p or not o:
        return False
    if p == o:
        return True
    mine, theirs, now = _content(p), set(_content(o)), set(_content(_words(new)))
    if len(mine) < MIN_WORDS:
        return False
    if sum(w in now for w in mine) > sum(w in theirs for w in mine):
        return False
    if _within(p, o) or (len(theirs) >= MIN_WORDS and _within(o, p)):
        return True
    return sum(w in theirs for w in mine) >= SHARE * len(mine)


def split_seeds(b: Builder) -> None:
    """Each current bank entry made of parts (:func:`parts`) that cites a note of an entry this
    run superseded (``b.replaced``) loses the parts that restate it (:func:`restates`, said no
    later than the change): it is rewritten without them (same type and confidence; the
    superseded entry's notes no part left was taken from leave its ``sources``), and the old
    entry goes to the History of its subject with ``superseded_by`` the rewrite, or the
    replacement when no part is left. Looked at: the bank entries shown to the run, and the
    pages of the superseded entries, of the names their texts and replacements give, and of
    this run's new entries. Each entry once; MEMORY.md and the removal cap are not touched."""
    if not b.replaced:
        return
    replacements = {c.new.id for c in b.replaced}
    seen: set[str] = set()
    for path in _seed_pages(b):
        for entry in _current(b, path):
            if entry.id in seen or entry.id in b.superseded_now or entry.id in replacements:
                continue
            seen.add(entry.id)
            _split(b, path, entry)


def _seed_pages(b: Builder) -> list[Path]:
    """The bank pages :func:`split_seeds` reads (existing ones, or this run's)."""
    found = [b.ws.root / rel for rel in b.inputs.bank_entries.values()]
    for change in b.replaced:
        for text in (change.old.text, change.new.text):
            found += [b.ws.entities_dir / f"{slug}.md" for slug in _named(b, text)]
    found += [*b.edits, *b.added]
    dirs = (b.ws.entities_dir, b.ws.concepts_dir)
    return [
        p
        for p in dict.fromkeys(found)
        if p.parent in dirs and p.suffix == ".md" and (p in b.pages or b._usable(p))
    ]


def _named(b: Builder, text: str) -> list[str]:
    """The slugs of the existing entity pages of the names in ``text``, one that opens a
    sentence too (:func:`subject_page` reads names mid-sentence only)."""
    capitals = {w for w in re.findall(r"[^\W\d_]\w*", text) if w[:1].isupper()}
    slugs = [fmt.slugify(name) for name in distill.names(text, capitals)]
    return [s for s in slugs if s and os.path.lexists(b.ws.entities_dir / f"{s}.md")]


def _current(b: Builder, path: Path) -> list[Note]:
    """The current entries of bank page ``path`` as the run leaves them so far: not in History
    or Contested (nor what left MEMORY.md for the archive), not superseded, not replaced or
    removed by this run; this run's own too."""
    text = b._page_text(path, path.stem, "concept")
    edits = b.edits.get(path, {})
    out = []
    for block in fmt.iter_blocks(text):
        n = block.note
        if n is None or not n.id or block.section in NOT_SEEDS:
            continue
        if n.id in edits:
            planned = edits[n.id]
            if planned is None or planned.id != n.id:
                continue
            n = planned
        if not n.meta.get("superseded_by"):
            out.append(n)
    for title, section in b.added.get(path, {}).items():
        if title.lstrip("#").strip() not in NOT_SEEDS:
            out += [n for n in section if not n.meta.get("superseded_by")]
    return out


def _split(b: Builder, path: Path, entry: Note) -> None:
    """``entry`` (on ``path``) without its parts that restate an entry this run superseded."""
    pieces = parts(entry.text)
    cites = set(sources_of(entry))
    changes = [c for c in b.replaced if cites & {c.old.id, *sources_of(c.old)}]
    if not pieces or not changes:
        return
    kept: list[tuple[str, str]] = []
    gone: list[Change] = []
    for text, day in pieces:
        hit = next(
            (c for c in changes if day <= c.until and restates(text, c.old.text, c.new.text)),
            None,
        )
        if hit is None:
            kept.append((text, day))
        else:
            gone.append(hit)
    if not gone:
        return
    until = max(c.until for c in gone)
    if kept:
        theirs = {i for c in gone for i in (c.old.id, *sources_of(c.old))}
        left = [i for i in sources_of(entry) if i not in theirs or _told(b, i, kept)]
        meta = {k: entry.meta[k] for k in ("evidence", SEEDED_BY[0]) if entry.meta.get(k)}
        new = b._entry(
            entry.type,
            "; ".join(f"{text} ({day})" for text, day in kept),
            entry.confidence,
            left or sources_of(entry),
            **meta,
            date=entry.meta.get("date") or max(day for _text, day in kept),
            supersedes=entry.id,
        )
        place(b, Target(entry, page=path), new)
        by, now = new.id, new.text
    else:
        _leave(b, path, entry)
        last = max(gone, key=lambda c: c.until)
        by, now = last.new.id, last.new.text
    moved = replace(
        entry,
        meta={
            **{k: v for k, v in entry.meta.items() if k != "contested"},
            "superseded_by": by,
            "until": until,
        },
    )
    b.superseded_now.add(entry.id)
    where = history(b, moved, path)
    b.plan.superseded.append(
        {
            "old_id": entry.id,
            "old": entry.text,
            "new_id": by,
            "new": now,
            # no note of its own: REM's "Changed on" reads the supersede that caused it
            "sources": [],
            "why": "part superseded",
            "replaced": sorted({c.old.id for c in gone}),
            "until": until,
            "moved_to": where,
        }
    )
    b.plan.decisions["bank_part_superseded"] += 1


def _told(b: Builder, note_id: str, kept: list[tuple[str, str]]) -> bool:
    """Whether note ``note_id`` says one of the ``kept`` parts (read from the log of the part's
    day): a part is an excerpt of one note's sentence, so that note is still its source."""
    for text, day in kept:
        log = b.read(b.ws.day_log(dt.date.fromisoformat(day)))
        for n in fmt.notes_in(log or ""):
            if n.id == note_id and _within(_words(text, excerpt=True), _words(n.text)):
                return True
    return False


def _leave(b: Builder, path: Path, entry: Note) -> None:
    """``entry`` taken off ``path`` (this run's new entry, or one the page holds)."""
    for section in b.added.get(path, {}).values():
        for k, n in enumerate(section):
            if n.id == entry.id:
                del section[k]
                return
    b.edits.setdefault(path, {})[entry.id] = None
