"""The note rules of a merge, by id: what each note of either side becomes.

- kept by both sides, or added on either side: it stays;
- in the ancestor, gone on one side, unchanged on the other: it stays gone (superseded,
  archived, rolled back);
- gone on one side, edited on the other: the edited one stays (nothing is lost);
- edited on both sides: fields merge three-way (type and confidence, time, text, each metadata
  key; ``sources`` and ``evidence`` as the union of their ids); two different new texts keep
  both, the second under a derived id with ``was=<id>``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import replace

from agent_sleep.core import notes as fmt

LIST_KEYS = ("sources", "evidence")
_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"


def derived_id(*parts: str) -> str:
    """A note id derived from content (the same merge gives the same id on every machine)."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).digest()
    return "".join(_ALPHABET[b % 32] for b in digest[: fmt.ID_LENGTH])


def note_blocks(blocks: Sequence[fmt.Block]) -> dict[str, fmt.Block]:
    """The first block of each note id."""
    out: dict[str, fmt.Block] = {}
    for x in blocks:
        if x.note is not None and x.note.id:
            out.setdefault(x.note.id, x)
    return out


Carried = dict[str, tuple[frozenset[str], list[str]]]


def decide(
    b: list[fmt.Block], o: list[fmt.Block], t: list[fmt.Block]
) -> tuple[dict[str, list[fmt.Block]], Carried]:
    """What each note id becomes: its blocks in the result (empty: dropped); and, for an entry
    one side removed while the other only reinforced it (same text, new metadata), the sources
    it had and the ones the reinforcement added, for its successor to take over."""
    base, ours, theirs = note_blocks(b), note_blocks(o), note_blocks(t)
    out: dict[str, list[fmt.Block]] = {}
    carried: Carried = {}
    for i in dict.fromkeys([*ours, *theirs]):
        x, y, z = base.get(i), ours.get(i), theirs.get(i)
        if y is not None and z is not None:
            if y.raw == z.raw or z.raw == (x.raw if x else None):
                blocks = [y]
            elif y.raw == (x.raw if x else None):
                blocks = [z]
            else:
                blocks = _merge_note(x, y, z)
            moved = z.section if y.section == (x.section if x else y.section) else y.section
            out[i] = [replace(blocks[0], section=moved), *blocks[1:]]
            continue
        side = y if y is not None else z
        assert side is not None and side.note is not None
        if x is None:
            out[i] = [side]  # added on one side
        elif side.raw == x.raw:
            out[i] = []  # removed on the other side, unchanged here: stays removed
        elif x.note is not None and _same_text(x.note, side.note):
            out[i] = []  # only reinforced here: the removal (a supersede) wins
            had = _ids_of(x.note)
            carried[i] = (frozenset(had), [s for s in _ids_of(side.note) if s not in had])
        else:
            out[i] = [side]  # edited here: the edit is kept
    return out, carried


def _ids_of(note: fmt.Note) -> list[str]:
    return [s for s in note.meta.get("sources", "").split(",") if s]


def _same_text(a: fmt.Note, b: fmt.Note) -> bool:
    return " ".join(a.text.split()) == " ".join(b.text.split())


def _merge_note(base: fmt.Block | None, ours: fmt.Block, theirs: fmt.Block) -> list[fmt.Block]:
    assert ours.note is not None and theirs.note is not None
    x, y, z = (base.note if base else None), ours.note, theirs.note

    def pick(field: str) -> object:
        vx = getattr(x, field) if x else None
        vy, vz = getattr(y, field), getattr(z, field)
        if vy == vz or vz == vx:
            return vy
        if vy == vx:
            return vz
        return None  # a real conflict: the caller decides

    kind = pick("prefix")
    if kind is None:  # both changed type or confidence: the more confident O wins, then ours
        kind = max((y, z), key=lambda n: (n.type == "O", n.confidence or 0.0)).prefix
    time = pick("time")
    if time is None:
        time = min(y.time or "", z.time or "") or None
    meta = _merge_meta(x.meta if x else {}, y.meta, z.meta)
    typ = str(kind)[0]
    conf = y.confidence if str(kind) == y.prefix else z.confidence
    text = pick("text")
    first = replace(
        y,
        type=typ,
        confidence=conf if typ == "O" else None,
        time=time if isinstance(time, str) else None,
        text=y.text if text is None else str(text),
        meta=meta,
    )
    out = [_as_block(ours, first)]
    if text is None:  # two new texts for one entry: keep both
        other_id = derived_id("merge", y.id, z.text)
        second = replace(z, id=other_id, meta={**z.meta, "id": other_id, "was": y.id})
        out.append(_as_block(theirs, second))
    return out


def _merge_meta(
    base: Mapping[str, str], ours: Mapping[str, str], theirs: Mapping[str, str]
) -> dict[str, str]:
    out: dict[str, str] = {}
    for k in dict.fromkeys([*ours, *theirs]):
        vx, vy, vz = base.get(k), ours.get(k), theirs.get(k)
        if k in LIST_KEYS:
            gone = set((vx or "").split(",")) - set((vy or "").split(",")) - {""}
            gone &= set((vx or "").split(",")) - set((vz or "").split(","))
            ids = [s for v in (vy, vz) for s in (v or "").split(",") if s and s not in gone]
            value = ",".join(dict.fromkeys(ids))
        elif vy == vz or vz == vx:
            value = vy or ""
        elif vy == vx:
            value = vz or ""
        else:
            value = max(vy or "", vz or "")
        if value:
            out[k] = value
    return out


def _as_block(template: fmt.Block, note: fmt.Note) -> fmt.Block:
    return replace(template, raw=fmt.render_note(note), note=note)


def apply_decisions(
    merged: list[fmt.Block], decisions: dict[str, list[fmt.Block]]
) -> list[fmt.Block]:
    """Each note of ``merged`` replaced by what the rules made of it, once: where it sits in
    the section the rules chose (the section a side moved it to), else where it first comes."""
    spots: dict[str, int] = {}
    for k, x in enumerate(merged):
        if x.note is None or not x.note.id:
            continue
        chosen = decisions.get(x.note.id)
        want = chosen[0].section if chosen else None
        j = spots.get(x.note.id)
        if j is None or (merged[j].section != want and x.section == want):
            spots[x.note.id] = k
    out: list[fmt.Block] = []
    for k, x in enumerate(merged):
        if x.note is None or not x.note.id:
            out.append(x)
        elif spots.get(x.note.id) == k:
            out += [terminated(replace(y, section=x.section)) for y in decisions.get(x.note.id, [])]
    return out


def terminated(block: fmt.Block) -> fmt.Block:
    """A note that ended a file without a newline gets one when something may follow it."""
    return block if block.raw.endswith("\n") else replace(block, raw=block.raw + "\n")
