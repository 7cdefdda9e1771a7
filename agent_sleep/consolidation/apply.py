"""Turn validated NREM/REM output into new file contents: the model's output is untrusted data.

The :class:`Builder` is pure with respect to the workspace: it reads files through a callback and
returns a :class:`Plan` (new texts for MEMORY.md and bank pages, suffixes for daily logs, counts
and the superseded entries). The run writes the plan atomically under the workspace lock; a dry
run prints it as a diff. Every item must cite ids that were in the input; text is redacted;
slugs become ``[a-z0-9-]+``, and an entity slug with no page of its own goes to the page of the
same name ("jordan" to ``jordan-reyes``: ``pages.py``), a concept slug to the page of its other
number ("services" to ``service``); paths are confined to the workspace; a
list that files notes gives at most ``ITEMS_PER_NOTE`` items per note of the run
(``item_cap``); a confidence must be a number from 0 to 1 (``bad_confidence``; never clamped).

One removal cap per run (unless pruning is asked for): of the entries MEMORY.md held when the
run began, at most 25% may leave it or have their text rewritten — remove, supersede,
update/merge, and eviction by the budget all count (``removal_cap`` past it). MEMORY.md is kept
under its budget by moving the lowest-value entries to a bank page, never by truncation; once
the cap is spent, the budget moves this run's own new entries there instead of older ones, but
not a replacement of an entry the run superseded (and when none are left, MEMORY.md stays over
its budget until a later run).

An update that changes an entry's text (or type) goes through the gates of a supersede
(``supersede.py``: a note of this run cited, the old entry to its subject's History); a merge
keeps the entry's text and type and only adds sources (or a confidence). A note some NREM item
cites, every such item refused (any drop but ``ALREADY_THERE``), is consolidated by nothing
the run writes: :meth:`Builder.unapplied` leaves it pending, as the removal cap's ``deferred``.
A bank page REM seeds from a note NREM has not consolidated is marked ``by=rem``: it cites the
note without consuming it.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from agent_sleep.analysis import distill, grounding, salience, vital
from agent_sleep.consolidation import apply_rem, maybe_replaced, pages, supersede
from agent_sleep.consolidation.plan import (
    ALREADY_THERE,
    ITEMS_PER_NOTE,
    MAX_CONTENT_CHARS,
    MAX_ITEMS,
    MAX_TEXT_CHARS,
    REMOVAL_CAP,
    SEEDED_BY,
    Inputs,
    Plan,
    bounded,
    finite,
    merge_ids,
)
from agent_sleep.core import notes as fmt
from agent_sleep.core.errors import WorkspaceError
from agent_sleep.core.memory import (
    ARCHIVE_SECTION,
    ARCHIVE_SLUG,
    SECTIONS,
    MemoryDoc,
    add_to_page,
    clean_text,
    drop_empty_sections,
    one_line,
    page_header,
    sections_of,
    slug_of,
    touch_updated,
)
from agent_sleep.core.notes import DEFAULT_CONFIDENCE, Note, sources_of, stable_id, written_on
from agent_sleep.core.redact import redact
from agent_sleep.core.workspace import Workspace
from agent_sleep.retrieval import context

# sections sleep keeps for what is no longer current: a model's current fact is never filed there
_RESERVED_SECTIONS = frozenset({"history", ARCHIVE_SECTION.lstrip("# ").lower()})


def _section_title(raw: str) -> str:
    """A section title from a model's string: no comment (an id comment is metadata), no '#',
    one line of at most 80 characters; a title sleep keeps for History reads "Notes"."""
    plain = re.sub(r"<!--.*?(?:-->|$)", " ", redact(raw), flags=re.S)
    title = " ".join(plain.replace("#", " ").split())[:80]
    if title.lower() in _RESERVED_SECTIONS:
        return "Notes"
    return title or "Notes"


class Builder:
    def __init__(
        self,
        ws: Workspace,
        read: Callable[[Path], str | None],
        inputs: Inputs,
        *,
        today: dt.date,
        now: str,
        budget: int,
        prune_memory: bool = False,
        similar: Callable[[str, str], float] | None = None,
    ) -> None:
        self.ws, self.read, self.inputs = ws, read, inputs
        # with it, an older entry a newer one of this run may replace is marked (maybe_replaced)
        self.similar = similar
        self.today, self.now, self.budget, self.prune = today, now, budget, prune_memory
        self.plan = Plan()
        original = read(ws.memory_md)
        self.plan.originals[ws.memory_md] = original
        self.memory = MemoryDoc(original or "")
        self.start_entries = len(self.memory.entries())
        self.start_ids = frozenset(e.id for e in self.memory.entries())
        # ids that carry an entry MEMORY.md held when the run began (an update that keeps the
        # text gives the entry a new id, not a new identity); the rest are this run's own
        self.held_ids: set[str] = set(self.start_ids)
        self.removed = 0  # held entries taken out or rewritten: counts against the cap
        self.pages: dict[Path, str] = {}  # page text as read (or a new page's header)
        self.present: dict[Path, set[str]] = {}  # normalized texts of the page's entries
        self.added: dict[Path, dict[str, list[Note]]] = {}  # page -> section -> new entries
        self.edits: dict[Path, dict[str, Note | None]] = {}  # page -> entry id -> new / gone
        self.superseded_now: set[str] = set()
        # what this run superseded: a seeded bank entry's copy of it goes too (split_seeds)
        self.replaced: list[supersede.Change] = []
        # entry id -> the id an update or merge that kept its text gave it: what names the old
        # id (a History entry's ``superseded_by``) names the new one (``supersede.relink``)
        self.renamed: dict[str, str] = {}
        self.dreams: list[str] = []
        self.actions: list[str] = []
        # note id -> an NREM item citing it was applied (True) or every one was refused (False)
        self.landed: dict[str, bool] = {}
        self.awaiting: frozenset[str] = inputs.awaiting_nrem  # REM: notes NREM has not taken
        self.names = pages.Names(ws.entities_dir, self._usable)  # entity pages by name

    # -- grounding -----------------------------------------------------------------------

    def _grounded(self, sources: object) -> list[str] | None:
        ids = (
            [s.strip() for s in sources if isinstance(s, str)] if isinstance(sources, list) else []
        )
        known = set(self.inputs.note_dates) | self.inputs.memory_ids | set(self.inputs.bank_entries)
        if not ids or any(i not in known for i in ids):
            self.plan.dropped["ungrounded"] += 1
            return None
        return merge_ids(ids)

    def _fresh(self, ids: list[str]) -> bool:
        notes = [i for i in ids if i in self.inputs.note_dates]
        return not notes or any(i not in self.inputs.cited for i in notes)

    def _date(self, ids: Iterable[str]) -> str:
        dates = [self.inputs.note_dates[i] for i in ids if i in self.inputs.note_dates]
        return max(dates) if dates else self.today.isoformat()

    def _too_big(self, text: str, cap: int) -> bool:
        if len(text) > cap:
            self.plan.dropped["oversized"] += 1
            return True
        return False

    # -- MEMORY.md ------------------------------------------------------------------------

    def _entry(self, kind: str, text: str, conf: float | None, ids: list[str], **meta: str) -> Note:
        kind = kind if kind in fmt.NOTE_TYPES else "S"
        value = finite(conf) if conf is not None else None  # NaN would clamp to 0.0
        c = round(min(1.0, max(0.0, value if value is not None else DEFAULT_CONFIDENCE)), 2)
        note_id = stable_id("memory", kind, text, ",".join(ids))
        full = {"id": note_id, "sources": ",".join(ids), "date": self._date(ids), **meta}
        return Note(
            type=kind, text=text, id=note_id, confidence=c if kind == "O" else None, meta=full
        )

    def cap(self) -> int:
        return int(REMOVAL_CAP * self.start_entries)

    def held(self, note_id: str) -> bool:
        """The entry ``note_id`` is one MEMORY.md held when the run began (the cap guards it)."""
        return note_id in self.held_ids

    def within_cap(self, *, at_least_one: bool = False) -> bool:
        """One more held entry may leave MEMORY.md or be rewritten. A supersede, update or
        merge may always take one (``at_least_one``); a removal or an eviction may not."""
        if self.prune:
            return True
        return self.removed < (max(1, self.cap()) if at_least_one else self.cap())

    def item_limit(self) -> int:
        """New entries a list may file (MEMORY.md adds, bank entries, bank suggestions): a
        few per note of the run."""
        return ITEMS_PER_NOTE * max(1, len(self.inputs.note_dates))

    def capped(
        self, items: list[Any], limit: int, counts: Callable[[Any], bool] = lambda _: True
    ) -> list[Any]:
        """``items`` with those ``counts`` selects past the first ``limit`` dropped and counted
        (``item_cap``). What takes entries out or rewrites them is held by the removal cap."""
        out = []
        for item in items[:MAX_ITEMS]:
            if counts(item):
                if limit <= 0:
                    self.plan.dropped["item_cap"] += 1
                    continue
                limit -= 1
            out.append(item)
        return out

    def nrem(self, out: dict[str, Any]) -> None:
        out = bounded(out)
        limit = self.item_limit()
        listed = out.get("memory_md_updates", [])
        updates = self.capped(listed, limit, lambda i: i.get("action") == "add")
        self._refused(listed, updates)
        for item in updates:
            if item.get("action") != "supersede":
                self._tracked(item, self._memory_update)
        listed = out.get("bank_updates", [])
        bank = self.capped(listed, limit)
        self._refused(listed, bank)
        self._asked_pages(bank)
        for item in bank:
            self._tracked(
                item,
                lambda i: self._bank_update(
                    i.get("slug", ""),
                    i.get("kind", ""),
                    i.get("section", ""),
                    i.get("content", ""),
                    i.get("sources"),
                ),
            )
        for item in updates:  # after the adds and the bank: a supersede may name their notes
            if item.get("action") == "supersede":
                self._tracked(item, self._memory_update)
        self.plan.decisions["pruned"] += max(0, int(out.get("pruned_count", 0) or 0))

    def rem(self, out: dict[str, Any]) -> None:
        # a page REM seeds from a note NREM has not consolidated (it held the note's change
        # back, refused every item citing it, or did not run) does not consolidate it
        self.awaiting = self.inputs.awaiting_nrem | self.plan.deferred | self.unapplied()
        self._asked_pages(bounded(out.get("new_bank_suggestions", [])))
        apply_rem.rem(self, out)

    # -- which notes an NREM answer consolidates ----------------------------------------------

    def _notes_of(self, item: object) -> list[str]:
        """The notes of this run an item cites (whatever else it cites)."""
        sources = item.get("sources") if isinstance(item, dict) else None
        if not isinstance(sources, list):
            return []
        return [s.strip() for s in sources if isinstance(s, str)
                and s.strip() in self.inputs.note_dates]  # fmt: skip

    def _refusals(self, supersede_item: bool) -> int:
        """Items refused so far: every drop but those whose content is there already. A
        second supersede of one entry (``duplicate``) is refused: its value was not written."""
        return sum(
            n
            for reason, n in self.plan.dropped.items()
            if reason not in ALREADY_THERE or (supersede_item and reason == "duplicate")
        )

    def _tracked(self, item: dict[str, Any], apply: Callable[[dict[str, Any]], None]) -> None:
        """``apply(item)``, noting for each note it cites whether it was applied or refused."""
        cites = self._notes_of(item)
        strict = isinstance(item, dict) and item.get("action") == "supersede"
        before = self._refusals(strict) if cites else 0
        apply(item)
        if cites:
            applied = self._refusals(strict) == before
            for n in cites:
                self.landed[n] = self.landed.get(n, False) or applied

    def _refused(self, listed: list[Any], kept: list[Any]) -> None:
        """The notes of the items an item cap dropped (``listed`` but not ``kept``)."""
        taken = {id(i) for i in kept}
        for item in listed[:MAX_ITEMS]:
            if id(item) not in taken:
                for n in self._notes_of(item):
                    self.landed.setdefault(n, False)

    def unapplied(self) -> set[str]:
        """Notes some NREM item cited and every such item was refused: nothing this run writes
        consolidates them, so they stay pending (the removal cap's ``deferred`` aside)."""
        return {n for n, ok in self.landed.items() if not ok} - self.plan.deferred

    def _memory_update(self, item: dict[str, Any]) -> None:
        action = item.get("action")
        ids = self._grounded(item.get("sources"))
        if ids is None:
            return
        conf = item.get("confidence")
        value = finite(conf) if conf is not None else 0.5
        if value is None or not 0.0 <= value <= 1.0:
            # NaN, an infinity, 1.7, -0.3: a broken answer, never clamped to a 0.0 or a 1.0
            self.plan.dropped["bad_confidence"] += 1
            return
        text = one_line(str(item.get("text", "")))
        if action != "remove" and (not text or self._too_big(text, MAX_TEXT_CHARS)):
            if not text:
                self.plan.dropped["empty"] += 1
            return
        if action in ("add", "update", "supersede") and not self._said(text, ids, item):
            return
        if action == "supersede":
            if self._restates(item, text):  # a "new" entry with the old id would delete it
                self.plan.dropped["unchanged"] += 1
                return
            supersede.supersede(self, item, ids, text)
        elif action == "keep":
            self.plan.decisions["kept"] += 1
        elif action == "add":
            self._memory_add(item, ids, text)
        else:
            self._memory_change(str(action), item, ids, text)

    def _said(
        self, text: str, ids: list[str], item: dict[str, Any] | None = None, *, loose: bool = False
    ) -> bool:
        """Whether ``text``'s numbers and names come from what it cites: the notes (as the
        model read them, with their dates), the entries, and the entry it rewrites; a name may
        also come from anything the model was shown (with ``loose``, a number too, or the run's
        date: REM's dreams and actions link what it was shown). Else ``unsupported_value`` (an
        NREM item's notes stay pending). Not checked when the texts of the notes it cites are
        not at hand."""
        notes = [i for i in ids if i in self.inputs.note_dates]
        if not notes or any(i not in self.inputs.note_texts for i in notes):
            return True
        texts = [self.inputs.note_texts[i] for i in notes]
        texts += [self.inputs.note_dates[i] for i in notes]
        texts += [self.today.isoformat()] if loose else []
        refs = [i for i in ids if i not in self.inputs.note_dates]  # the entries it cites
        refs.append(str((item or {}).get("replaces") or "").strip())  # and the one it rewrites
        for ref in refs:
            if ref and (target := supersede.find_target(self, ref)) is not None:
                texts.append(target.note.text)
        # cleaned as the item's text is (control characters, undecodable bytes)
        said = grounding.support_of(one_line(t) for t in texts)
        if loose:  # REM links what it was shown: any value of it, and the run's date
            said |= self.inputs.shown
        missing = grounding.unsupported(text, said, self.inputs.shown)
        if missing:
            self.plan.dropped["unsupported_value"] += 1
            return False
        return True

    def _restates(self, item: dict[str, Any], text: str) -> bool:
        """A supersede whose entry already says ``text`` (same type, same confidence): it
        changes nothing (a note of an earlier run read again proposes it once more)."""
        target = supersede.find_target(self, str(item.get("replaces", "")).strip())
        if target is None or one_line(target.note.text) != text:
            return False
        old = target.note
        kind = str(item.get("type") or old.type)
        if (kind if kind in fmt.NOTE_TYPES else "S") != old.type:
            return False
        conf = finite(item.get("confidence"))
        return old.type != "O" or conf is None or round(conf, 2) == old.confidence

    def _memory_add(self, item: dict[str, Any], ids: list[str], text: str) -> None:
        """A new entry, or more sources for the entry that already says ``text``."""
        if not self._fresh(ids):
            self.plan.dropped["already_consolidated"] += 1
            return
        same = self.memory.index(text)
        if same is not None:
            old = self.memory.blocks[same].note
            assert old is not None
            merged = merge_ids(sources_of(old), ids)
            self.memory.set(same, replace(old, meta={**old.meta, "sources": ",".join(merged)}))
            self.plan.decisions["memory_reinforced"] += 1
        else:
            note = self._entry(item.get("type", "S"), text, item.get("confidence"), ids)
            self.memory.add(note, SECTIONS[note.type])
            self.plan.decisions["memory_add"] += 1

    def _memory_change(self, action: str, item: dict[str, Any], ids: list[str], text: str) -> None:
        """An update, merge or removal of the entry the item ``replaces``."""
        ref = str(item.get("replaces", ""))
        i = self.memory.index(ref) if ref else None
        if i is None:
            self.plan.dropped["stale_reference"] += 1
            return
        old = self.memory.blocks[i].note
        assert old is not None
        cited = [s for s in ids if s != old.id]
        if action == "merge":  # the entry keeps its text and type: the note is more evidence
            self._memory_revise(i, old, {**item, "type": old.type}, one_line(old.text), cited)
        elif action == "update":
            self._memory_revise(i, old, item, text, cited, ids)
        elif action == "remove":
            self._memory_remove(i, old, cited)

    def _memory_revise(
        self,
        i: int,
        old: Note,
        item: dict[str, Any],
        text: str,
        cited: list[str],
        ids: list[str] | None = None,
    ) -> None:
        """Entry ``i`` given more sources or another confidence (update, merge), unless nothing
        would change. An update that changes its text (or type) is a supersede
        (:meth:`_memory_rewrite`)."""
        merged = merge_ids(sources_of(old), cited)
        same_text = one_line(old.text) == text
        conf = item.get("confidence")
        kind = str(item.get("type") or old.type)
        if not same_text or (kind if kind in fmt.NOTE_TYPES else "S") != old.type:
            self._memory_rewrite(old, item, text, ids if ids is not None else cited)
            return
        if merged == sources_of(old) and (
            old.type != "O" or conf is None or round(float(conf), 2) == old.confidence
        ):
            self.plan.dropped["unchanged"] += 1
            return
        # the same entry with more evidence: its links (what it replaced) go with it
        new = self._entry(old.type, text, conf, merged, **supersede.carried(old, bool(cited)))
        if self.held(old.id):
            self.held_ids.add(new.id)  # still held
        if new.id != old.id:
            self.renamed[old.id] = new.id
        if old.meta.get("contested") and cited:  # the next evidence agrees: decided
            self.plan.decisions["contest_decided"] += 1
        self.memory.set(i, new)
        self.plan.superseded.append(
            {
                "old_id": old.id,
                "old": old.text,
                "new_id": new.id,
                "new": new.text,
                "sources": cited,
                "why": "update",
            }
        )
        self.plan.decisions["memory_update"] += 1

    def _memory_rewrite(self, old: Note, item: dict[str, Any], text: str, ids: list[str]) -> None:
        """An update that changes an entry's text (or type) through the gates of a supersede:
        it must cite a note of this run (``supersede_without_note``), the old entry moves to
        the History of its subject, a weaker opinion contests, and the removal cap holds it
        back with its notes pending. Counted as an update (``why``: "update")."""
        before, records = self.plan.decisions["memory_supersede"], len(self.plan.superseded)
        supersede.supersede(self, {**item, "replaces": old.id}, ids, text)
        if self.plan.decisions["memory_supersede"] > before:
            self.plan.decisions["memory_supersede"] -= 1
            if not self.plan.decisions["memory_supersede"]:
                del self.plan.decisions["memory_supersede"]
            self.plan.decisions["memory_update"] += 1
            for record in self.plan.superseded[records:]:
                if record.get("why") == "superseded":
                    record["why"] = "update"

    def _memory_remove(self, i: int, old: Note, cited: list[str]) -> None:
        """Entry ``i`` moved to the archive page, within the removal cap."""
        if not self.within_cap():
            self.plan.dropped["removal_cap"] += 1
            return
        self.removed += 1
        self.memory.remove(i)
        self._archive(old, "removed by consolidation", cited)
        self.plan.decisions["memory_remove"] += 1

    def _archive(self, old: Note, why: str, cited: list[str]) -> None:
        moved = Note(
            type=old.type,
            text=old.text,
            id=stable_id("archive", old.id),
            confidence=old.confidence,
            meta={**old.meta, "id": stable_id("archive", old.id), "was": old.id},
        )
        self._page_entries(ARCHIVE_SLUG, "concept", ARCHIVE_SECTION, [moved], force=True)
        self.plan.superseded.append(
            {
                "old_id": old.id,
                "old": old.text,
                "new_id": None,
                "new": None,
                "sources": cited,
                "why": why,
                "moved_to": f"bank/concepts/{ARCHIVE_SLUG}.md",
            }
        )

    # -- bank -----------------------------------------------------------------------------

    def _usable(self, path: Path) -> bool:
        """An existing page the run may file on: a file, inside the workspace."""
        try:
            self.ws.confine(path)
        except WorkspaceError:
            return False
        return path.is_file()

    def _asked_pages(self, items: object) -> None:
        """The full names a list of bank items files entity entries under: a first name or
        a surname alone in the same run goes to that page (both would be new)."""
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict) and item.get("kind") == "entity":
                self.names.plan(slug_of(str(item.get("slug", ""))))

    def _same_name(self, slug: str, entries: list[Note]) -> str:
        """The slug of the entity page ``entries`` go on: ``slug``'s own page when there is
        one, else the page of the same name (``pages.Names.resolve``: "jordan" to
        ``jordan-reyes``), else ``slug`` (a new page)."""
        if self._existing(slug) is not None:
            return slug
        texts = [n.text for n in entries]
        texts += [self.inputs.note_texts[s] for n in entries for s in sources_of(n)
                  if s in self.inputs.note_texts]  # fmt: skip
        return self.names.resolve(slug, texts, self._entity_texts)

    def _entity_texts(self, slug: str) -> list[str]:
        """The texts of the entries on entity page ``slug``, this run's among them."""
        path = self.ws.entities_dir / f"{slug}.md"
        out = [n.text for n in fmt.notes_in(self._page_text(path, slug, "entity"))]
        return out + [n.text for sec in self.added.get(path, {}).values() for n in sec]

    def _concept_exists(self, slug: str) -> bool:
        """Whether the concept page ``slug`` exists, or this run writes it."""
        path = self.ws.concepts_dir / f"{slug}.md"
        return path in self.pages or os.path.lexists(path)

    def _existing(self, slug: str) -> Path | None:
        """The page named ``slug`` that exists or this run writes (the entity page first)."""
        for d in (self.ws.entities_dir, self.ws.concepts_dir):
            p = d / f"{slug}.md"
            if p in self.pages or os.path.lexists(p):
                return p
        return None

    def _page_path(self, slug: str, kind: str) -> Path | None:
        folder = self.ws.entities_dir if kind == "entity" else self.ws.concepts_dir
        chosen = self._existing(slug) or folder / f"{slug}.md"
        try:
            self.ws.confine(chosen)  # out of the workspace, or caught in a symlink loop
        except WorkspaceError:
            self.plan.dropped["unsafe_path"] += 1
            return None
        if chosen not in self.pages and os.path.lexists(chosen) and not chosen.is_file():
            self.plan.dropped["not_a_file"] += 1
            return None
        return chosen

    def _page_text(self, path: Path, slug: str, kind: str, texts: Iterable[str] = ()) -> str:
        if path not in self.pages:
            current = self.read(path)
            self.plan.originals[path] = current
            if current is None:
                title = _written_title(slug, texts) or slug.replace("-", " ").title()
                kind = "entity" if path.parent == self.ws.entities_dir else "concept"
                current = page_header(title, kind, self.today)
                if kind == "entity":
                    self.names.add(path.stem)
            self.pages[path] = current
        return self.pages[path]

    def _page_entries(
        self, slug: str, kind: str, section: str, entries: list[Note], *, force: bool = False
    ) -> bool:
        asked = slug
        if kind == "entity" and not force:  # History and the archive name their page exactly
            slug = self._same_name(slug, entries)
        elif kind == "concept" and not force and self._existing(slug) is None:
            slug = pages.same_concept(slug, self._concept_exists)
        path = self._page_path(slug, kind)
        if path is None:
            return False
        text = self._page_text(path, slug, kind, (n.text for n in entries))
        if path not in self.present:
            self.present[path] = {one_line(n.text) for n in fmt.notes_in(text)}
        present = self.present[path]
        fresh = [n for n in entries if force or one_line(n.text) not in present]
        if not fresh:
            self.plan.dropped["duplicate"] += len(entries)
            return False
        created = self.plan.originals.get(path) is None and path not in self.added
        # collected and written into the page once, in finish(): re-parsing the page for
        # every entry made a run quadratic in the number of notes
        added = self.added.setdefault(path, {}).setdefault(section, [])
        added += fresh
        present.update(one_line(n.text) for n in fresh)
        if created:
            self.plan.decisions["bank_pages_created"] += 1
        if slug != asked:
            self.plan.decisions["bank_same_name"] += len(fresh)
        return True

    def _write_pages(self) -> None:
        """Each page the run changed, as one text: its entries replaced or taken out, the new
        ones added, and the sections the run left with nothing under them removed (in the
        plan, so rollback puts them back)."""
        for path in dict.fromkeys([*self.edits, *self.added]):
            text = self.pages[path]
            emptied: set[str] = set()
            if self.edits.get(path):
                gone = {i for i, n in self.edits[path].items() if n is None}
                emptied = set(sections_of(text, gone).values()) if gone else set()
                text = supersede.apply_edits(text, self.edits[path])
            for section, entries in self.added.get(path, {}).items():
                if entries:
                    text = add_to_page(text, section, [fmt.render_note(n) for n in entries])
            if emptied:
                text = drop_empty_sections(text, emptied)
            if text != self.plan.originals.get(path):
                self.plan.texts[path] = touch_updated(text, self.today)

    def _bank_update(
        self,
        raw_slug: str,
        kind: str,
        section: str,
        content: str,
        sources: object,
        decision: str = "bank_entries",
    ) -> None:
        ids = self._grounded(sources)
        if ids is None:
            return
        slug = slug_of(str(raw_slug))
        if not slug or slug == ARCHIVE_SLUG:  # the archive holds what left MEMORY.md only
            self.plan.dropped["bad_slug"] += 1
            return
        text = clean_text(str(content))
        if not text:
            self.plan.dropped["empty"] += 1
            return
        if self._too_big(text, MAX_CONTENT_CHARS):
            return
        if not self._said(text, ids):
            return
        # REM may seed a page from notes NREM already filed; NREM must not file a note twice
        if decision == "bank_entries" and not self._fresh(ids):
            self.plan.dropped["already_consolidated"] += 1
            return
        note_ids = [i for i in ids if i in self.inputs.note_types]
        types = {self.inputs.note_types[i] for i in note_ids}
        kind_of_note = types.pop() if len(types) == 1 else "S"
        # an opinion filed to a page keeps the confidence its notes were written with
        stated = [self.inputs.note_confidences[i] for i in note_ids
                  if i in self.inputs.note_confidences]  # fmt: skip
        conf = sum(stated) / len(stated) if stated else DEFAULT_CONFIDENCE
        seeded = decision == "bank_suggestions" and any(i in self.awaiting for i in note_ids)
        meta = dict([SEEDED_BY]) if seeded else {}
        note = self._entry(kind_of_note, text, conf, ids, **meta)
        if self._page_entries(
            slug,
            kind if kind in ("entity", "concept") else "concept",
            f"## {_section_title(section)}",
            [note],
        ):
            self.plan.decisions[decision] += 1

    # -- budget and result ------------------------------------------------------------------

    def _value(self, note: Note, rank: float) -> float:
        """What keeping an entry in MEMORY.md is worth: its confidence, its sources and its age
        (rank), plus what it is: a fact or a preference outlasts an event or a summary ("Friday
        team pizza" goes before "the family dog is Biscuit"), a passing impression ("the
        carer seemed cheerful") goes before a fact or a liking, and what a session must not
        miss (an allergy, a name: :func:`salience.vital`) goes last."""
        conf = note.confidence if note.confidence is not None else DEFAULT_CONFIDENCE
        # above the whole weight of age: a fact from the first week outlasts yesterday's event
        if note.type in ("W", "O"):
            # an impression below any fact or liking whatever their ages (the whole weight of
            # age, 0.3, is less than the 0.35 - 0.05 between them)
            kind = 0.05 if vital.impression(note.type, note.text) else 0.35
        else:
            kind = 0.0
        must = 1.0 if salience.vital(note.text) else 0.0
        # what names a day soon to come is what the next sessions need ("… wedding is on 17
        # October", a week before it): moved out last, with what must not be missed; what a
        # date says is over (a booking gone by) goes with the events
        timing = context.when(note.text, written_on(note), self.today)
        if timing == "soon":
            must = 1.0
        elif timing == "over":
            kind = 0.0
        return 0.4 * conf + 0.3 * min(len(sources_of(note)), 5) / 5 + 0.3 * rank + kind + must

    def _lowest(self, entries: list[Note], pool: list[Note] | None = None) -> Note:
        """The entry of ``pool`` (default: all) with the lowest value among ``entries``."""
        # age: the entries of one day share one rank (the middle of the day's places), never
        # one from their ids (the same notes give the same MEMORY.md whatever ids they were
        # written under) nor from their place (the first line of a day, "Priya Shah and Daniel
        # Okafor's wedding is on Saturday 21 November 2026 at Hollins Barn", had gone first
        # for being first); among entries of equal value, the one that tells least goes first
        days = Counter(n.meta.get("date", "") for n in entries)
        before, rank_of = 0, {}
        for day in sorted(days):
            rank_of[day] = (before + (days[day] + 1) / 2) / len(entries)
            before += days[day]
        return min(
            entries if pool is None else pool,
            key=lambda n: (
                self._value(n, rank_of[n.meta.get("date", "")]),
                n.meta.get("date", ""),
                distill.information(n.text),
            ),
        )

    def _enforce_budget(self) -> None:
        """The lowest-value entries move to the archive page until MEMORY.md fits its budget.
        An entry MEMORY.md held counts against the removal cap; once it is spent, this run's
        own entries (added or rewritten by it) move instead, but never one that replaced an
        entry this run, and when none is left the rest waits for a later run (``removal_cap``
        counts the entries the cap kept)."""
        while len(self.memory.render()) > self.budget:
            entries = self.memory.entries()
            if not entries:
                return
            victim = self._lowest(entries)
            why = "evicted: MEMORY.md over its size budget"
            if self.held(victim.id) and not self.within_cap():
                # a replacement stands where the entry it replaced stood: moving it out would
                # leave its subject with no current value in MEMORY.md (the old one in History)
                took = {s["new_id"] for s in self.plan.superseded}
                own = [n for n in entries if not self.held(n.id) and n.id not in took]
                if not own:
                    self.plan.dropped["removal_cap"] += self._still_over()
                    return
                victim = self._lowest(entries, own)
                why += " (removal cap reached: this run's entry moved, not an older one)"
                self.plan.dropped["removal_cap"] += 1
            self.removed += self.held(victim.id)
            i = self.memory.index(victim.id)
            assert i is not None
            self.memory.remove(i)
            self._archive(victim, why, [])
            self.plan.decisions["memory_evicted"] += 1

    def _still_over(self) -> int:
        """How many more entries the budget would move out (the cap keeps them this run)."""
        doc = MemoryDoc(self.memory.render())
        n = 0
        while len(doc.render()) > self.budget and doc.entries():
            i = doc.index(self._lowest(doc.entries()).id)
            assert i is not None
            doc.remove(i)
            n += 1
        return n

    def finish(self, log_path: Path | None) -> Plan:
        self.plan.unapplied = self.unapplied()
        self._enforce_budget()
        supersede.split_seeds(self)
        if self.similar is not None and log_path is not None:  # not REM's preview of the plan
            maybe_replaced.mark(self, self.similar)
        supersede.relink(self)
        self._write_pages()
        text = self.memory.render()
        if text != (self.plan.originals[self.ws.memory_md] or ""):
            self.plan.texts[self.ws.memory_md] = text
        if log_path is not None and (self.dreams or self.actions):
            existing = self.read(log_path)
            self.plan.originals[log_path] = existing
            current = existing or ""
            suffix = "" if existing is not None else fmt.day_header(self.today)
            if self.dreams:
                suffix += fmt.append_block(current + suffix, self.dreams, fmt.DREAMS_HEADING)
            if self.actions:
                suffix += fmt.append_block(current + suffix, self.actions, fmt.NEXT_SESSION_HEADING)
            self.plan.appends[log_path] = suffix
        return self.plan


_WORD = re.compile(r"[^\W_][\w'’.-]*")


def _written_title(slug: str, texts: Iterable[str]) -> str | None:
    """A new page's title as its entries write the name, where the slug lost letters of it:
    "José Núñez" for ``jose-nunez`` (a slug keeps ASCII only), "Olive & Thyme" for
    ``olive-thyme``, "李雷" for the digest slug of a
    name of another script, "BP" for ``bp``, "Kestrel DPA" for ``kestrel-dpa``. None when the
    name is plain ASCII written in words the slug's capitalised give (the title then) or no
    entry writes it."""
    if fmt.HASHED_SLUG_RE.match(slug):
        return _name_of_digest(slug, texts)
    texts = list(texts)
    # "Olive & Thyme" for ``olive-thyme``: the slug has no "&"
    anded = re.compile(
        r"(?<!\w)" + r"(?:\s+&)?\s+".join(map(re.escape, slug.split("-"))) + r"(?!\w)", re.I
    )
    for text in texts:
        m = anded.search(text) if "&" in text else None
        if m is not None and "&" in m.group(0) and m.group(0)[:1].isupper():
            return " ".join(m.group(0).split())
    parts = slug.count("-") + 1
    for text in texts:
        words = _WORD.findall(text)
        for i in range(len(words) - parts + 1):
            phrase = " ".join(w.strip(".'’-") for w in words[i : i + parts])
            if fmt.slugify(phrase) != slug:
                continue
            if phrase.isascii():
                if not any(map(_cased_as_written, phrase.split())):
                    continue  # the slug's words capitalised
                # an acronym or a brand as written, the other words capitalised: "BP",
                # "Kestrel DPA", "GitHub Actions"
                return " ".join(
                    w if _cased_as_written(w) else w[:1].upper() + w[1:] for w in phrase.split()
                )
            return phrase.title() if phrase.islower() else phrase
    return None


def _cased_as_written(word: str) -> bool:
    """Whether a word keeps its case in a title: an acronym ("DPA") or capitals inside it
    ("GitHub", "iOS")."""
    return len(word) > 1 and (word.isupper() or any(ch.isupper() for ch in word[1:]))


_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f](?:[^\x00-\x7f]| (?=[^\x00-\x7f]))*")


def _name_of_digest(slug: str, texts: Iterable[str], longest: int = 16) -> str | None:
    """The name a digest slug (``u-…``) stands for, as an entry writes it: a run of letters of
    another script, which need not be a word of its own ("李雷在北京工作" holds "李雷")."""
    for text in texts:
        for run in _NON_ASCII_RUN.findall(text[:4000]):
            for size in range(1, min(len(run), longest) + 1):
                for i in range(len(run) - size + 1):
                    phrase = run[i : i + size].strip()
                    if phrase and fmt.slugify(phrase) == slug:
                        return phrase
    return None
