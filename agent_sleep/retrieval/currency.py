"""Currency in recall: superseded entries, and the raw notes they came from, rank below what
replaced them and say so.

The map is read from the files (a superseded entry carries ``superseded_by=<id> until=<date>``
and sits in a bank page's History section): entry id -> (replacing id, date), and each daily
note cited only by superseded entries, or the one note a superseded entry cites -> the same.
A ranked unit all of whose ids are superseded is moved just below its replacement (the
replacement is brought into the ranking when it was not a candidate); so is a unit that cites
a superseded entry or note (sleep's "A ↔ B" connections and "Decide: …" actions quote the
entry as it stood; a bank entry that merged the old note with others holds a copy of it).
Hits are labelled: ``current``, ``superseded_by`` (the text of what is current now: the last
entry reached following ``superseded_by`` from the replacing one, so a value replaced twice
names the latest, not the one in between) and ``superseded_on`` (the date this one stopped
being current). A replacement moved out of MEMORY.md to the archive page is found by the id it
had (``was=``). Hand-edited metadata naming a missing entry is ignored with one warning (a
chain stops at the last entry found); a supersede cycle (A by B, B by A) leaves both current,
with one warning, and a longer one stops at the last entry before it repeats.
"""

from __future__ import annotations

import logging
import os
import re
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_sleep.core import notes as fmt
from agent_sleep.core.memory import marked
from agent_sleep.core.workspace import Workspace

if TYPE_CHECKING:
    from agent_sleep.retrieval.index import Loaded
    from agent_sleep.retrieval.recall import Hit
    from agent_sleep.retrieval.units import Unit

log = logging.getLogger(__name__)
_warned: set[str] = set()


@dataclass(frozen=True)
class Superseded:
    by: str  # id of the replacing entry
    on: str  # the date it stopped being current
    by_text: str = ""
    now: str = ""  # id of the last entry of its chain (``latest``): what is current now
    now_text: str = ""


def _warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        log.warning(message)


# the last map computed for each workspace, with the stat of every file it was read from: a
# search asks for it every time, and MEMORY.md and the bank pages seldom change
_maps: dict[Path, tuple[list[tuple[str, int, int]], Mapping[str, Superseded]]] = {}


def _pages(folder: Path) -> list[Path]:
    """``folder``'s ``*.md`` files, sorted; none when it is missing."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return sorted(folder / n for n in names if n.endswith(".md"))


def _stamps(paths: list[Path]) -> list[tuple[str, int, int]]:
    """(path, mtime_ns, size) of each regular file of ``paths``."""
    out = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            out.append((str(path), st.st_mtime_ns, st.st_size))
    return out


def superseded_map(ws: Workspace) -> Mapping[str, Superseded]:
    """Entry and note id -> how it was superseded (see the module docstring). Read again only
    when MEMORY.md or a bank page changed (size or mtime) since the last call; read-only."""
    files = _stamps([ws.memory_md, *_pages(ws.entities_dir), *_pages(ws.concepts_dir)])
    cached = _maps.get(ws.root)
    if cached is not None and cached[0] == files:
        return cached[1]
    out = _superseded(ws, [Path(p) for p, _, _ in files])
    _maps[ws.root] = (files, out)
    return out


def _superseded(ws: Workspace, paths: list[Path]) -> dict[str, Superseded]:
    entries: dict[str, fmt.Note] = {}
    for path in paths:
        for n in fmt.notes_in(ws.read_text(path)):
            if n.id:
                entries.setdefault(n.id, n)
    # an entry moved out of MEMORY.md to the archive page takes a new id and keeps its old
    # one as ``was``: what it replaced still names the old id
    moved = {n.meta["was"]: n.id for n in entries.values() if n.meta.get("was")}
    out: dict[str, Superseded] = {}
    for n in entries.values():
        by = n.meta.get("superseded_by")
        if not by:
            continue
        if by not in entries and moved.get(by) in entries:
            by = moved[by]
        if by not in entries:
            _warn_once(f"entry {n.id} names a missing replacement {by}: ignored (fix its metadata)")
            continue
        if entries[by].meta.get("superseded_by") == n.id:
            pair = " and ".join(sorted((n.id, by)))
            _warn_once(f"entries {pair} supersede each other: both kept current")
            continue
        out[n.id] = Superseded(by, n.meta.get("until", ""), entries[by].text)
    for old_id, end in latest(out).items():
        out[old_id] = replace(out[old_id], now=end, now_text=entries[end].text)
    current_cites = {
        s
        for n in entries.values()
        if n.id not in out
        for s in n.meta.get("sources", "").split(",")
        if s
    }
    for old_id, sup in list(out.items()):
        cited = [s for s in entries[old_id].meta.get("sources", "").split(",") if s]
        for s in cited:
            # the one note a superseded entry stood for is outdated with it, even where
            # another entry still holds a copy (a bank entry that merged it with others)
            if s not in out and (s not in current_cites or len(cited) == 1):
                out[s] = sup
    return out


def _consolidated_rows(index: Loaded) -> Iterator[int]:
    """The rows of MEMORY.md and the bank pages, in row order: only those hold what replaces an
    entry, and decoding every daily note of a large index to find them would cost seconds."""
    at = 0
    for path, (_mtime, _size, count) in index.files.items():
        if not path.startswith("memory/"):
            yield from range(at, at + count)
        at += count


def reorder(
    index: Loaded, ranked: list[tuple[float, int]], sup: Mapping[str, Superseded]
) -> list[tuple[float, int]]:
    """``ranked`` with each superseded unit just below what is current now in its place (the
    end of its chain; the entry that replaced it when the end is not indexed)."""
    if not sup or not ranked:
        return ranked
    flagged = {row: s for _score, row in ranked if (s := _outdated(index.units[row], sup))}
    if not flagged:
        return ranked
    # the entry current now (the end of its chain), else the one that replaced it
    wanted = {s.now or s.by for s in flagged.values()} | {s.by for s in flagged.values()}
    home: dict[str, int] = {}
    for row in _consolidated_rows(index):
        unit = index.units[row]
        for i in unit.ids:
            if i in wanted and i not in home and unit.kind != "log":
                home[i] = row
    scores = {row: score for score, row in ranked}
    for row, s in sorted(flagged.items(), key=lambda t: -scores[t[0]]):
        new_row = home.get(s.now or s.by, home.get(s.by))
        if new_row is None or new_row in flagged:
            scores[row] *= 0.5
            continue
        top = max(scores.get(new_row, 0.0), scores[row] + 1e-6)
        scores[new_row] = top
        scores[row] = min(scores[row], top - 1e-6) * 0.999
    return sorted(((round(v, 6), r) for r, v in scores.items()), key=lambda t: (-t[0], t[1]))


def _outdated(unit: Unit, sup: Mapping[str, Superseded]) -> Superseded | None:
    """What replaced ``unit`` (an index unit) when it is superseded, or quotes what is: a note
    sleep wrote about a superseded entry or note ("A ↔ B", "Changed on DATE: A → B"), or an
    entry that holds a copy of it, merged with other facts."""
    found = [sup.get(i) for i in unit.ids]
    if unit.ids and all(found):
        return found[0]
    for i in unit.cites:
        s = sup.get(i)
        if s is not None and s.by not in unit.ids:
            return s
    return None


def _statement(text: str) -> str:
    """What the restatement check reads of a unit's text: "W: …" is a note's type, not a
    speaker."""
    return fmt.PREFIX_RE.sub("", text, count=1)


def stored_claims(text: str) -> list[Any] | None:
    """The claims the restatement check will read of a unit's ``text``, as its index record
    stores them (``analysis.claims.dump``); None for a chat turn, which it never reads.
    The index reads them when it embeds a unit, so a search does not."""
    from agent_sleep.analysis import claims as cl

    if not reads_claims(text):
        return None
    said = _statement(text)
    return cl.dump(cl.claims(said), said)


def reads_claims(text: str) -> bool:
    """Whether the index stores claims for a unit's ``text`` (:func:`stored_claims`), without
    reading them: not for a chat turn, nor where the claim reader has no source to stamp them."""
    from agent_sleep.analysis import claims as cl
    from agent_sleep.analysis import currency as ac

    return bool(cl.reader()) and not ac._chat(_statement(text))


# a line sleep wrote about a note: a change record, a next-session action
_SLEEP_LINE_RE = re.compile(r"^(?:S: )?(?:Changed on |Follow up: |To do: |Decide: |Find out: )")


def sources_first(index: Loaded, ranked: list[tuple[float, int]]) -> list[tuple[float, int]]:
    """``ranked`` with each line sleep wrote about one note ("Changed on DATE: A → B",
    "Follow up: …") among the best ``NEWER_DEPTH`` moved just below the best unit
    ranked under it that says what it quotes (the note it cites, or an entry citing that
    note): the fact first, sleep's record of it after ("Changed on …: the return is due
    April 15. → … now due October 15" had come before the entry for October 15)."""
    top = ranked[:NEWER_DEPTH]
    units = [index.units[row] for _score, row in top]
    # a line quoting one note; a connection of two ("A ↔ B") is left where it ranks: where
    # sleep kept the older entry, it may be the one hit that tells of both (moved below its
    # newer note, recall's first hit lost 8 of the read sets' new values)
    lines = [i for i, u in enumerate(units) if len(u.cites) == 1 and _SLEEP_LINE_RE.search(u.text)]
    if not lines:
        return ranked
    order = list(range(len(top)))
    for i in reversed(lines):
        quoted = set(units[i].cites)
        at = order.index(i)
        below = next(
            (
                k for k in range(at + 1, len(order))
                if order[k] not in lines
                and (quoted & set(units[order[k]].ids) or quoted & set(units[order[k]].cites))
            ),
            None,
        )  # fmt: skip
        if below is not None:
            order.insert(below, order.pop(at))
    # the scores stay where they were: each place keeps its score, so they still descend
    return [(top[k][0], top[i][1]) for k, i in enumerate(order)] + ranked[len(top) :]


_TYPE_RE = re.compile(r"(?:[^\n]*\n- )?([WBOS])(?:\(c=[\d.]+\))?: ")


def _note_type(text: str) -> str:
    """A unit's note type as its text opens with it ("W: …", "O(c=0.7): …"), or that of a bank
    section's first entry, under its heading ("Bluebell Homecare — History\n- B: Last Bluebell
    visit today"); "" for any other text."""
    m = _TYPE_RE.match(text)
    return m.group(1) if m else ""


# sleep's count of a name that recurs ("CQC keeps coming up: 3 notes; MEMORY.md has 5 entries
# on it"): it tells what is talked about, never the answer, and gives way to a fact as an
# event does
_RECURS_RE = re.compile(r"\bkeeps coming up: \d+ notes\b")
FACT_DEPTH = 3  # how far below an event or a view a fact may stand and move above it
FACT_RATIO = 0.8  # of the event's score, at least
_PAST_QUESTION_RE = re.compile(
    r"\s*(?:when|what|where|how|why|who)\s+(?:did|was|were)\b|\s*did\b"
    # "How much was the Okafor kitchen rewire quote?", "How many households did we serve?"
    r"|\s*how\s+(?:much|many|long|far|often)(?:\s+[\w'’-]+){0,4}?\s+(?:did|was|were)\b",
    re.I,
)


def facts_first(
    index: Loaded, ranked: list[tuple[float, int]], query: str
) -> list[tuple[float, int]]:
    """``ranked`` with a fact first where an event or a view (a B or O note or entry), or
    sleep's count of a recurring name, ranks first and a fact (W) stands within
    ``FACT_DEPTH`` places below it, with ``FACT_RATIO`` of its score at least; not when the
    question asks what happened ("When did …?", "What was …?"). "What day is Sam's swimming
    lesson?" is answered by "Sam's swimming moved to Thursdays at 4:30pm", not by the event
    "Sam's swimming at Riverside, 4:30 lesson"; "What is Jenna Park's phone number?" by her
    entry, not by "Jenna Park confirmed Orion phase one is 40
    stores". The scores stay where they were, so they still descend."""
    if _PAST_QUESTION_RE.match(query) or not ranked:
        return ranked
    # only the units a step reads are decoded: the first, then those within reach below it
    first = index.units[ranked[0][1]].text
    if _note_type(first) not in ("B", "O") and not _RECURS_RE.search(first):
        return ranked
    for j in range(1, min(len(ranked), FACT_DEPTH + 1)):
        score, row = ranked[j]
        if score >= FACT_RATIO * ranked[0][0] and _note_type(index.units[row].text) == "W":
            rows = [row] + [r for _s, r in ranked[:j]]
            return [(ranked[k][0], r) for k, r in enumerate(rows)] + ranked[j + 1 :]
    return ranked


NEWER_DEPTH = 12  # the best units among which a newer restatement moves up
RESTATED = 0.6  # cosine of two units' vectors for a restatement


def newer_first(
    index: Loaded, ranked: list[tuple[float, int]], sup: Mapping[str, Superseded]
) -> list[tuple[float, int]]:
    """``ranked`` with a newer note moved just above an older one among the best
    ``NEWER_DEPTH`` when it restates it with another value (``analysis.currency.restates``,
    vectors at cosine >= ``RESTATED``): the update sleep did not read ("Ardent Labs is
    licensed for 65 seats" after "… has 40 licensed seats") still comes first. Chat turns and
    superseded units are left where they are."""
    top = [row for _score, row in ranked[:NEWER_DEPTH]]
    if index.vectors is None or len(top) < 2:
        return ranked
    import numpy as np

    vecs = np.asarray(index.vectors[np.asarray(top, dtype=np.intp)], dtype=np.float32)
    vecs /= np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-9)
    alike = (vecs @ vecs.T) >= RESTATED
    np.fill_diagonal(alike, False)
    if not alike.any():
        return ranked
    units = [index.units[row] for row in top]
    when = [(u.date or "", u.time or "") for u in units]
    # superseded units, and what quotes them ("Changed on DATE: 9:30 → 10:00" after 10:15
    # replaced 10:00: newer than the entry for 10:15, but no restatement of it)
    old = [any(sup.get(i) for i in u.ids) or _outdated(u, sup) is not None for u in units]
    # the pairs the text check is asked of: most requests have none, and then neither the
    # claim reader is imported (a cold search) nor any unit's claims loaded
    if not any(
        alike[i, j] and when[i] < when[j] and not old[i]
        for j in range(1, len(top)) if when[j][0] and not old[j]
        for i in range(len(top)) if i != j
    ):  # fmt: skip
        return ranked
    from agent_sleep.analysis import claims as cl
    from agent_sleep.analysis.currency import restates

    texts = [_statement(u.text) for u in units]
    loaded: set[int] = set()

    def read(k: int) -> str:
        """Unit ``k``'s statement, its stored claims handed to the claim reader first."""
        if k not in loaded:
            loaded.add(k)
            text = texts[k]
            stored = None if cl.remembered(text) else index.records[top[k]].claims
            found = cl.load(stored, text) if stored is not None else None
            if found is not None:
                cl.remember(text, found)
        return texts[k]

    order = list(range(len(top)))
    for j in range(1, len(top)):
        if old[j] or not when[j][0]:
            continue
        for i in order[: order.index(j)]:
            if when[i] >= when[j] or old[i]:
                continue
            if alike[i, j] and restates(read(j), read(i)):
                order.remove(j)
                order.insert(order.index(i), j)
                break
    if order == sorted(order):
        return ranked
    scores = [score for score, _row in ranked[: len(top)]]
    moved = [(scores[k], top[o]) for k, o in enumerate(order)]  # the scores stay in place
    return moved + ranked[len(top) :]


def latest(sup: Mapping[str, Superseded]) -> dict[str, str]:
    """Each superseded id of ``sup`` -> the last entry reached following ``by`` from it: the
    current one, or where a cycle would repeat an entry. Each chain is walked once (its ids
    share their end); a walk that ends in a cycle is not shared, its end depending on where
    it started. ``chain`` walks the same links for one entry, reading the files."""
    ends: dict[str, str] = {}
    out: dict[str, str] = {}
    for start in sup:
        path, seen, cur, shared = [start], {start}, start, True
        while True:
            if cur in ends:
                end = ends[cur]
                break
            nxt = sup[cur].by if cur in sup else None
            if nxt is None or nxt in seen:
                end, shared = cur, nxt is None
                break
            path.append(nxt)
            seen.add(nxt)
            cur = nxt
        if shared:
            ends.update(dict.fromkeys(path, end))
        out[start] = end
    return out


# the last marks read for each workspace, with the stat of its MEMORY.md (marked_map)
_marks: dict[Path, tuple[list[tuple[str, int, int]], Mapping[str, str]]] = {}


def marked_map(ws: Workspace) -> Mapping[str, str]:
    """MEMORY.md entry id -> "DATE: text" of the newer current entry that may replace it
    (``newer=``, consolidation/maybe_replaced.py), and so for the daily notes the marked
    entry cites (a search shows the note where the entry folds into it); a mark naming an
    entry MEMORY.md does not hold is left out. Read again only when MEMORY.md changed."""
    files = _stamps([ws.memory_md])
    cached = _marks.get(ws.root)
    if cached is not None and cached[0] == files:
        return cached[1]
    entries = fmt.notes_in(ws.read_text(ws.memory_md)) if files else []
    newer = marked(entries)
    out: dict[str, str] = {}
    for n in entries:
        if n.id in newer:
            told = f"{newer[n.id].meta.get('date', '?')}: {newer[n.id].text}"
            for i in [n.id, *fmt.sources_of(n)]:
                out[i] = told
    _marks[ws.root] = (files, out)
    return out


def label(
    hits: list[Hit], sup: Mapping[str, Superseded], marks: Mapping[str, str] | None = None
) -> list[Hit]:
    """``hits`` with each unit all of whose ids are superseded marked not current, naming what
    is current now (the end of its chain) and the date it stopped being current. A unit of
    several entries (a bank section an index split before History entries were units of their
    own) names each one's current value, and the date the last of them stopped. A current
    MEMORY.md entry sleep marked (``marks``: :func:`marked_map`) names the newer entry that may
    replace it."""
    out = []
    for h in hits:
        told = {marks.get(i) for i in h.ids} if marks and h.ids else set()
        if len(told) == 1 and None not in told:  # every entry or note of it marked, alike
            h = replace(h, newer=told.pop())
        found = [s for i in h.ids if (s := sup.get(i)) is not None]
        if not (h.ids and len(found) == len(h.ids)) and _changed_record(h.text):
            # sleep's "Changed on DATE: A → B" whose B was replaced since: history, not now
            cited = [i for i in h.sources if i not in h.ids]
            found = [s for i in cited if (s := sup.get(i)) is not None]
            found = found if cited and len(found) == len(cited) else []
        if found:
            now = dict.fromkeys(s.now_text or s.now or s.by_text or s.by for s in found)
            on = max(s.on for s in found)
            h = replace(h, current=False, superseded_by="; ".join(now), superseded_on=on)
        out.append(h)
    return out


def _changed_record(text: str) -> bool:
    """Whether a unit's text is REM's record of a change (with its note type or without)."""
    return fmt.PREFIX_RE.sub("", text, count=1).startswith(fmt.CHANGED_ON)


def chain(ws: Workspace, entry_id: str, limit: int = 20) -> list[dict[str, str]]:
    """The versions of an entry, oldest first: each ``{"id", "text", "date", "until"}``,
    followed through ``supersedes`` back and ``superseded_by`` forward (a cycle stops it)."""
    entries: dict[str, fmt.Note] = {}
    for path in [ws.memory_md, *sorted(ws.entities_dir.glob("*.md")),
                 *sorted(ws.concepts_dir.glob("*.md"))]:  # fmt: skip
        if path.is_file():
            for n in fmt.notes_in(ws.read_text(path)):
                if n.id:
                    entries.setdefault(n.id, n)
    if entry_id not in entries:
        return []
    start, seen = entry_id, {entry_id}
    while len(seen) < limit:
        back = entries[start].meta.get("supersedes") or next(
            (i for i, n in entries.items() if n.meta.get("superseded_by") == start), None
        )
        if not back or back in seen or back not in entries:
            break
        seen.add(back)
        start = back
    out: list[dict[str, str]] = []
    cur, visited = start, set()
    while cur in entries and cur not in visited and len(out) < limit:
        visited.add(cur)
        n = entries[cur]
        out.append({"id": n.id, "text": n.text, "date": n.meta.get("date", ""),
                    "until": n.meta.get("until", "")})  # fmt: skip
        nxt = n.meta.get("superseded_by") or next(
            (i for i, m in entries.items() if m.meta.get("supersedes") == cur), ""
        )
        cur = nxt
    return out
