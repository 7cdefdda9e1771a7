"""Deterministic three-way merges of workspace files: pure functions of three strings.

``merge_text(path, base, ours, theirs)`` never fails and never writes conflict markers. Every
file is split into blocks by the note parser (a note, a heading, any other line); a note is
identified by its ``id``, any other block by its text.

- **Notes, by id** (all files): kept by both sides, or added on either side, a note stays;
  one that was in the common ancestor and is gone on one side while unchanged on the other stays
  gone (a superseded or archived entry stays superseded, a rolled-back dream stays rolled back);
  gone on one side but edited on the other, the edited one stays (nothing is lost). Edited on
  both sides, the fields merge three-way (type and confidence, text, each metadata key;
  ``sources`` and ``evidence`` as the union of their ids); two different new texts for one id
  keep both, the second under a derived id with ``was=<id>``.
- **Other lines**: a three-way merge by blocks; where both sides changed the same stretch, the
  union of both (ours first), lines one side deleted stay deleted.
- **Daily logs** (``memory/YYYY-MM-DD.md``): a run of notes that gained notes from the other side
  is put in time order (time, then id), so the log is the union of the notes by id in time order.
- **MEMORY.md and bank pages**: an entry added on one side is dropped when the other side added
  one citing the same source notes or a superset of them (two machines consolidated the same
  notes: the smaller id wins a tie), or one with the same text (its sources join the kept one);
  a page's frontmatter keeps one line per key (the greater value, so ``updated`` is the latest).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from difflib import SequenceMatcher

from agent_sleep.core import notes as fmt
from agent_sleep.sync.by_id import Carried, apply_decisions, decide, note_blocks, terminated

_LOG_RE = re.compile(r"(^|/)memory/\d{4}-\d{2}-\d{2}\.md$")
_FRONT_KEY_RE = re.compile(r"^([A-Za-z0-9_-]+):")

Key = tuple[str, str]


def one_line(text: str) -> str:
    """The text two entries are compared by: canonical, on one line, case folded."""
    return " ".join(fmt.normalize_text(text).split()).casefold()


def kind_of(path: str) -> str:
    """``log`` for a daily log, ``entries`` for MEMORY.md and bank pages, ``text`` otherwise."""
    p = path.replace("\\", "/")
    if _LOG_RE.search(p):
        return "log"
    if p == "MEMORY.md" or p.endswith("/MEMORY.md") or "bank/" in p and p.endswith(".md"):
        return "entries"
    return "text"


def merge_text(path: str, base: str, ours: str, theirs: str) -> str:
    """The merge of ``ours`` and ``theirs`` given their common ancestor ``base`` ('' if none)."""
    if ours == theirs or theirs == base:
        return ours
    if ours == base:
        return theirs
    kind = kind_of(path)
    if kind == "log" and _appended(base, ours, theirs):
        # both sides only appended (the usual case): merge the tails under the section the
        # ancestor ends in, and leave the ancestor's text as it is (no need to parse it)
        title = fmt.last_section(base)
        head = f"## {title}\n" if title is not None else ""
        cut = len(base)
        tail = _merge_parsed(kind, head, head + ours[cut:], head + theirs[cut:])
        if tail.startswith(head):
            return base + tail[len(head) :]
    return _merge_parsed(kind, base, ours, theirs)


def _merge_parsed(kind: str, base: str, ours: str, theirs: str) -> str:
    b, o, t = (list(fmt.parse(x).blocks) for x in (base, ours, theirs))
    origin = _origins(b, o, t)
    rules, carried = decide(b, o, t)
    if kind == "log":
        return _merge_log(b, o, t, rules)
    merged = apply_decisions(_merge_blocks(b, o, t), rules)
    if kind == "entries":
        merged = _carry(merged, carried)
        merged = _dedupe_additions(merged, origin)
        merged = _front_matter(merged)
    return "".join(x.raw for x in merged)


def _appended(base: str, ours: str, theirs: str) -> bool:
    if not base.endswith("\n") or not (ours.startswith(base) and theirs.startswith(base)):
        return False
    fences = sum(1 for line in base.splitlines() if line.startswith("```"))
    return fences % 2 == 0


def merge_daily_log(base: str, ours: str, theirs: str) -> str:
    return merge_text("memory/0000-00-00.md", base, ours, theirs)


def merge_entries(base: str, ours: str, theirs: str) -> str:
    return merge_text("MEMORY.md", base, ours, theirs)


# -- block sequences ------------------------------------------------------------------------


def _key(block: fmt.Block) -> Key:
    if block.note is not None and block.note.id:
        return ("n", block.note.id)
    return ("r", block.raw)


def _origins(b: list[fmt.Block], o: list[fmt.Block], t: list[fmt.Block]) -> dict[str, str]:
    """For each note id not in the base: ``o`` (added by ours), ``t`` (theirs) or ``b`` (both)."""
    base, ours, theirs = note_blocks(b), note_blocks(o), note_blocks(t)
    out = {i: "o" for i in ours if i not in base}
    for i in theirs:
        if i not in base:
            out[i] = "b" if i in out else "t"
    return out


def _matches(base: list[Key], side: list[Key]) -> dict[int, int]:
    sm = SequenceMatcher(None, base, side, autojunk=False)
    out: dict[int, int] = {}
    for a, s, size in sm.get_matching_blocks():
        for k in range(size):
            out[a + k] = s + k
    return out


def _merge_blocks(b: list[fmt.Block], o: list[fmt.Block], t: list[fmt.Block]) -> list[fmt.Block]:
    """diff3 over block keys: stretches between blocks all three share are resolved whole."""
    bk, ok, tk = [_key(x) for x in b], [_key(x) for x in o], [_key(x) for x in t]
    mo, mt = _matches(bk, ok), _matches(bk, tk)
    anchors = [i for i in range(len(b)) if i in mo and i in mt]
    out: list[fmt.Block] = []
    pb = po = pt = -1
    for i in [*anchors, len(b)]:
        io, it = (mo[i], mt[i]) if i < len(b) else (len(o), len(t))
        lead = out[-1].section if out else None
        out += _resolve(b[pb + 1 : i], o[po + 1 : io], t[pt + 1 : it], lead)
        if i < len(b):
            out.append(o[io])
        pb, po, pt = i, io, it
    return out


def _raws(blocks: Sequence[fmt.Block]) -> list[str]:
    return [x.raw for x in blocks]


def _resolve(
    b: list[fmt.Block], o: list[fmt.Block], t: list[fmt.Block], lead: str | None
) -> list[fmt.Block]:
    rb, ro, rt = _raws(b), _raws(o), _raws(t)
    if ro == rb:
        return t
    if ro == rt:
        return o
    if rt == rb:
        return o
    deleted = Counter(rb)
    deleted.subtract(ro)
    gone = Counter(rb)  # and the lines theirs deleted (or rewrote) that ours left as they were
    gone.subtract(rt)
    sm = SequenceMatcher(None, [_key(x) for x in o], [_key(x) for x in t], autojunk=False)
    out: list[fmt.Block] = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        part = list(o[i1:i2])
        if tag != "equal":
            part = [x for x in part if not _deleted_line(x, gone)]
            extra = []
            for x in t[j1:j2]:
                if (x.note is None or not x.note.id) and deleted[x.raw] > 0:
                    deleted[x.raw] -= 1  # ours deleted this line
                    continue
                extra.append(x)  # a note: whether it stays is the note rules' call
            part = _interleave(part, extra, out[-1].section if out else lead)
        out += part
    return out


def _deleted_line(x: fmt.Block, deleted: Counter[str]) -> bool:
    """Whether ``x`` is a hand-written line (no note id) the other side deleted: counted off
    ``deleted``. A note's fate is the note rules' call; a blank line is layout."""
    if (x.note is not None and x.note.id) or not x.raw.strip() or deleted[x.raw] <= 0:
        return False
    deleted[x.raw] -= 1
    return True


def _interleave(ours: list[fmt.Block], extra: list[fmt.Block], lead: str | None) -> list[fmt.Block]:
    """``extra`` after the last of ``ours`` in the same section (so an entry the other side
    added lands under its heading), at the start when the section is the one before ``ours``
    (``lead``), else at the end; ``extra`` keeps its order."""
    out = list(ours)
    at = len(out)
    prev: str | None = None
    for x in extra:
        if x.section != prev or at > len(out):
            same = [i for i, y in enumerate(out) if y.section == x.section and y.raw.strip()]
            at = same[-1] + 1 if same else (0 if lead == x.section else len(out))
        out.insert(at, x)
        at += 1
        prev = x.section
    return out


# -- per kind -------------------------------------------------------------------------------


def _merge_log(
    b: list[fmt.Block], o: list[fmt.Block], t: list[fmt.Block], rules: dict[str, list[fmt.Block]]
) -> str:
    """Ours with the note rules applied, and the other side's new notes placed by time among
    the notes of the section of the same title (a new section at the end if ours has none)."""
    out = apply_decisions(o, rules)
    have = set(note_blocks(out))
    mine = note_blocks(o)
    where: dict[str, list[tuple[tuple[str, str], int]]] = {}
    heads: dict[str, int] = {}
    for i, x in enumerate(out):
        if x.note is not None and x.note.id and x.section is not None:
            where.setdefault(x.section, []).append((_time_key(x), i))
        elif x.heading is not None and x.section is not None:
            heads.setdefault(x.section, i)
    orders = {title: _order(notes) for title, notes in where.items()}
    # the other side's new notes, each with its place in that side's file: notes written in
    # the same minute keep the order they were written in ("deployed", "saw errors", "rolled
    # back"), where their ids would shuffle them
    at: dict[int, list[tuple[int, fmt.Block]]] = {}
    tail: dict[str, list[tuple[int, fmt.Block]]] = {}
    last: dict[str, tuple[str, int]] = {}  # per section: the time and spot of the last placed
    for x in t:
        if x.note is None or not x.note.id or x.note.id in mine:
            continue
        for y in rules.get(x.note.id, []):
            if y.note is None or y.note.id in have:
                continue
            have.add(y.note.id)
            placed = (len(have), y)
            section = y.section or ""
            spot = _spot(orders.get(section), heads.get(section), out, y)
            if spot is None:
                tail.setdefault(y.section or "Retain", []).append(placed)
                continue
            when = y.note.time or ""
            before = last.get(section)
            if before is not None and before[0] == when:
                spot = max(spot, before[1])
            last[section] = (when, spot)
            at.setdefault(spot, []).append(placed)
    merged: list[fmt.Block] = []
    for i in range(len(out) + 1):
        group = [y for _, y in sorted(at.get(i, []), key=_written)]
        if group and i < len(out) and out[i].heading is not None and out[i - 1].note is None:
            group.append(fmt.Block(raw="\n"))  # an empty section got notes: keep its blank line
        merged += [terminated(x) for x in group]
        if i < len(out):
            merged.append(out[i])
    text = "".join(x.raw for x in merged)
    for title, late in tail.items():
        text += ("" if text.endswith("\n") or not text else "\n") + ("\n" if text else "")
        text += f"## {title}\n\n" + "".join(_line(y.raw) for _, y in sorted(late, key=_written))
    return text + "".join(_line(r) for r in _new_lines(b, o, t))


def _written(placed: tuple[int, fmt.Block]) -> tuple[str, int]:
    """A new note of the other side by its time, then by its place in that side's file."""
    return ((placed[1].note.time or "") if placed[1].note else "", placed[0])


def _time_key(x: fmt.Block) -> tuple[str, str]:
    return ((x.note.time or "") if x.note else "", x.note.id if x.note else "")


Order = tuple[list[tuple[str, str]], list[int], int]


def _order(notes: list[tuple[tuple[str, str], int]]) -> Order:
    """A section's notes by (time, id), with the furthest position among each prefix: where
    the notes with a key up to a given one end in the file, found by bisection."""
    ranked = sorted(notes)
    furthest: list[int] = []
    for _, i in ranked:
        furthest.append(max(i, furthest[-1]) if furthest else i)
    return [k for k, _ in ranked], furthest, min(i for _, i in notes)


def _spot(order: Order | None, head: int | None, out: list[fmt.Block], y: fmt.Block) -> int | None:
    """Where a new note goes: after the last note of its section (in file order) with an
    earlier (time, id); before the section's first note if none is earlier."""
    if order is not None:
        keys, furthest, first = order
        k = bisect_right(keys, _time_key(y))
        return furthest[k - 1] + 1 if k else first
    if head is None:
        return None
    nxt = head + 1
    return nxt + 1 if nxt < len(out) and not out[nxt].raw.strip() else nxt


def _line(raw: str) -> str:
    return raw if raw.endswith("\n") else raw + "\n"


def _new_lines(b: list[fmt.Block], o: list[fmt.Block], t: list[fmt.Block]) -> list[str]:
    """Hand-written lines (not notes, headings or blank) only the other side added."""
    known = Counter(x.raw for x in (*b, *o))
    out = []
    for x in t:
        if x.note is not None or x.heading is not None or not x.raw.strip():
            continue
        if known[x.raw] > 0:
            known[x.raw] -= 1
        else:
            out.append(x.raw)
    return out


def _carry(merged: list[fmt.Block], carried: Carried) -> list[fmt.Block]:
    """Sources a removed entry gained on the other side go to its successor: the entry that
    ``supersedes=`` it, else the first that cites all it cited."""
    out = list(merged)
    for old, (had, extra) in carried.items():
        if not extra:
            continue
        for k, x in enumerate(out):
            if x.note is None or not x.note.id:
                continue
            if x.note.meta.get("supersedes") == old or (had and had <= _source_set(x.note)):
                out[k] = _join_sources(x, extra)
                break
    return out


def _source_set(note: fmt.Note) -> frozenset[str]:
    return frozenset(s for s in note.meta.get("sources", "").split(",") if s)


def _dedupe_additions(merged: list[fmt.Block], origin: dict[str, str]) -> list[fmt.Block]:
    """Drop an entry one side added when the other side added the same consolidation."""
    added = [x for x in merged if x.note is not None and origin.get(x.note.id) in ("o", "t")]
    drop: set[str] = set()
    for x in added:
        assert x.note is not None
        sx = _source_set(x.note)
        for y in added:
            assert y.note is not None
            if origin[y.note.id] == origin[x.note.id] or y.note.id in drop or not sx:
                continue
            sy = _source_set(y.note)
            if sx < sy or (sx == sy and y.note.id < x.note.id):
                drop.add(x.note.id)
                break
    out: list[fmt.Block] = []
    by_text: dict[str, int] = {}
    for x in merged:
        if x.note is not None and x.note.id:
            if x.note.id in drop:
                continue
            text = one_line(x.note.text)
            j = by_text.get(text)
            if j is not None and origin.get(x.note.id) in ("o", "t"):
                out[j] = _join_sources(out[j], x.note.meta.get("sources", "").split(","))
                continue
            by_text.setdefault(text, len(out))
        out.append(x)
    return out


def _join_sources(kept: fmt.Block, more: list[str]) -> fmt.Block:
    assert kept.note is not None
    a = kept.note.meta.get("sources", "")
    joined = ",".join(dict.fromkeys(s for s in [*a.split(","), *more] if s))
    if joined == a:
        return kept
    note = replace(kept.note, meta={**kept.note.meta, "sources": joined})
    return replace(kept, raw=fmt.render_note(note), note=note)


def _front_matter(merged: list[fmt.Block]) -> list[fmt.Block]:
    """One line per key between the opening ``---`` lines (the greater value wins)."""
    if not merged or merged[0].raw.rstrip("\r\n") != "---":
        return merged
    end = next((i for i in range(1, len(merged)) if merged[i].raw.rstrip("\r\n") == "---"), None)
    if end is None:
        return merged
    best: dict[str, int] = {}
    for i in range(1, end):
        m = _FRONT_KEY_RE.match(merged[i].raw)
        if m:
            j = best.get(m.group(1))
            if j is None or merged[i].raw > merged[j].raw:
                best[m.group(1)] = i
    keep = [
        x
        for i, x in enumerate(merged)
        if not (0 < i < end) or not (m := _FRONT_KEY_RE.match(x.raw)) or best[m.group(1)] == i
    ]
    return keep
