"""The records of the search index: what one stored unit, part and manifest hold, and the
read-only sequences that decode a part's units file one record at a time.

A units file is ``{"hashes":[...],"units":[...]}`` with one record (a JSON list in
``Record``'s field order) per line, so a reader decodes only the records a search shows.
"""

from __future__ import annotations

import bisect
import json
import mmap
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

from agent_sleep.retrieval.bm25 import Segment
from agent_sleep.retrieval.units import Unit

if TYPE_CHECKING:
    import numpy as np

# 5: BM25 arrays and the units file's line starts in one mapped file per part (bm25-<id>.bin);
# 4: records carry a window's span; 3: parts, BM25 stored as term frequencies
VERSION = 5
TERMS = 2  # how BM25 terms are made (bm25.tokenize of Unit.indexed); a change re-tokenizes
MEANING = 2  # what is embedded (Unit.embedded); a change re-embeds
HEADER = b'{"hashes":'  # the units file: hashes, then one record per line
OPEN = b',"units":[\n'
DECODED_KEPT = 4096  # records a part keeps decoded (the oldest decoded goes first)


@dataclass(slots=True)
class Record:
    """One stored unit: what a ``Unit`` shows, without its search texts, plus ``sources``
    (its note ids, outside refs, cited ids and their refs). Stored as a JSON list, in this
    field order."""

    kind: str
    path: str
    text: str
    date: str | None
    ids: list[str]
    refs: list[str]
    cites: list[str]
    section: str | None
    time: str | None
    span: int = 0  # a window: rows back to its first note (units.WINDOW)
    sources: list[str] = field(default_factory=list)
    # the claims of its text, read when it was embedded (``analysis.claims.dump``; None: not
    # read, e.g. a chat turn, whose claims recall never asks for)
    claims: list[Any] | None = None

    @classmethod
    def of_unit(cls, u: Unit) -> Record:
        return cls(
            u.kind, u.path, u.text, u.date, list(u.ids), list(u.refs), list(u.cites),
            u.section, u.time, u.span,
        )  # fmt: skip

    @classmethod
    def of_row(cls, row: list[Any]) -> Record:
        if len(row) not in (11, 12):  # 11: written without claims
            raise ValueError("a unit record of another layout")
        return cls(*row)

    def row(self) -> list[Any]:
        out = [
            self.kind, self.path, self.text, self.date, self.ids, self.refs, self.cites,
            self.section, self.time, self.span, self.sources,
        ]  # fmt: skip
        if self.claims is not None:
            out.append(self.claims)
        return out

    def unit(self) -> Unit:
        return Unit(
            kind=self.kind,
            path=self.path,
            text=self.text,
            date=self.date,
            ids=tuple(self.ids),
            refs=tuple(self.refs),
            cites=tuple(self.cites),
            section=self.section,
            time=self.time,
            span=self.span,
        )


@dataclass(frozen=True)
class Part:
    """One written part of the index: its file id, units and source files (in row order)."""

    id: str
    units: int
    files: int


@dataclass(frozen=True)
class NewPart:
    """A part about to be written: its records, their hashes, BM25 terms and vectors, and how
    many source files it holds."""

    records: list[Record]
    hashes: list[str]
    tokens: list[str]
    vectors: np.ndarray | None
    files: int


@dataclass(frozen=True)
class ParsedPart:
    """A part as parsed by the last read (kept while its units file keeps ``stat``)."""

    stat: os.stat_result
    hashes: Hashes
    records: Sequence[Record]
    segment: Segment
    windows: np.ndarray  # bool by row: a window unit


@dataclass(frozen=True)
class Manifest:
    generation: str
    model: str | None
    units: int
    windows: tuple[int, int]  # units.WINDOW_NOTES, units.WINDOW_STRIDE when written
    split: int  # units.SPLIT when written (1 before the field)
    pending: int  # units left without a vector (zeros) for a later update to embed
    files: dict[str, list[int]]  # in row order: [mtime_ns, size, units]
    parts: tuple[Part, ...]

    @classmethod
    def parse(cls, data: Any) -> Manifest:
        """The manifest of this release's layout; ValueError for any other."""
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise ValueError("an index of another version")
        if data.get("terms") != TERMS or data.get("meaning") != MEANING:
            raise ValueError("an index of other terms or embedded texts")
        parts, files, model = data.get("parts"), data.get("files"), data.get("model")
        if not isinstance(parts, list) or not isinstance(files, dict) or not parts:
            raise ValueError("a manifest without parts")
        if not all(isinstance(p, list) and len(p) == 3 for p in parts):
            raise ValueError("a manifest part of another layout")
        if not all(isinstance(v, list) and len(v) == 3 for v in files.values()):
            raise ValueError("a manifest file entry of another layout")
        try:
            return cls(
                generation=str(data.get("generation")),
                model=model if isinstance(model, str) else None,
                units=int(data.get("units", -1)),
                pending=int(data.get("pending", 0)),
                windows=(int(data.get("windows", [0, 0])[0]), int(data.get("windows", [0, 0])[1])),
                split=int(data.get("split", 1)),
                files={str(k): [int(x) for x in v] for k, v in files.items()},
                parts=tuple(Part(str(p), int(u), int(f)) for p, u, f in parts),
            )
        except (TypeError, KeyError, IndexError) as e:  # a field missing or of another type
            raise ValueError(f"a manifest of another layout: {e}") from e


class LazySeq(Sequence[Any]):
    """A read-only sequence whose items are made on access (``_item``)."""

    def __len__(self) -> int:
        raise NotImplementedError

    def _item(self, i: int) -> Any:
        raise NotImplementedError

    @overload
    def __getitem__(self, i: int) -> Any: ...

    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self._item(j) for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self._item(i)


class Lines(LazySeq):
    """The records of a units file, one per line, decoded on access."""

    def __init__(self, raw: bytes | mmap.mmap, starts: np.ndarray) -> None:
        self._raw = raw
        self._starts = starts  # offset of each record's line, then of the closing line
        self._decoded: dict[int, Record] = {}  # a shown hit reads its record twice or more

    def __len__(self) -> int:
        return len(self._starts) - 1

    def _item(self, i: int) -> Record:
        record = self._decoded.get(i)
        if record is None:
            line = self._raw[int(self._starts[i]) : int(self._starts[i + 1]) - 1].rstrip(b",")
            record = Record.of_row(json.loads(line.decode("utf-8", "surrogateescape")))
            if len(self._decoded) >= DECODED_KEPT:
                del self._decoded[next(iter(self._decoded))]
            self._decoded[i] = record
        return record


class UnitsView(LazySeq):
    """Units built from their stored records on first access: a search touches a few hundred
    of them, and building 100k dataclasses up front would dominate a cold start."""

    def __init__(self, records: Sequence[Record]) -> None:
        self._records = records
        self._built: dict[int, Unit] = {}

    def __len__(self) -> int:
        return len(self._records)

    def _item(self, i: int) -> Unit:
        unit = self._built.get(i)
        if unit is None:
            unit = self._built[i] = self._records[i].unit()
        return unit


class SourcesView(LazySeq):
    def __init__(self, records: Sequence[Record]) -> None:
        self._records = records

    def __len__(self) -> int:
        return len(self._records)

    def _item(self, i: int) -> tuple[str, ...]:
        return tuple(self._records[i].sources)


class Chain(LazySeq):
    """The records of several parts as one sequence."""

    def __init__(self, parts: list[Sequence[Record]]) -> None:
        self._parts = parts
        self._starts = [0]
        for p in parts:
            self._starts.append(self._starts[-1] + len(p))

    def __len__(self) -> int:
        return self._starts[-1]

    def _item(self, i: int) -> Record:
        p = bisect.bisect_right(self._starts, i) - 1
        record: Record = self._parts[p][i - self._starts[p]]
        return record


class Hashes(Sequence[str]):
    """The units' hashes (of one part or several), decoded from their JSON on first use: a
    shallow search never reads them, and decoding 100k of them took 20 ms of a cold search.
    Counted without decoding (a hash is hex: two quotes each)."""

    def __init__(self, chunks: Sequence[bytes | list[str]]) -> None:
        self._chunks = list(chunks)
        self._count = sum(_quoted(c) if isinstance(c, bytes) else len(c) for c in self._chunks)
        self._list: list[str] | None = None

    @classmethod
    def concat(cls, parts: Sequence[Hashes]) -> Hashes:
        return cls([c for h in parts for c in ([h._list] if h._list is not None else h._chunks)])

    def __len__(self) -> int:
        return self._count

    def decoded(self) -> list[str]:
        if self._list is None:
            out: list[str] = []
            for chunk in self._chunks:
                out += json.loads(chunk) if isinstance(chunk, bytes) else chunk
            if len(out) != self._count:
                raise ValueError("a damaged units file: its hashes do not parse")
            self._list, self._chunks = out, []
        return self._list

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> list[str]: ...

    def __getitem__(self, i: int | slice) -> str | list[str]:
        return self.decoded()[i]

    def __iter__(self) -> Iterator[str]:
        return iter(self.decoded())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Hashes | list):
            return self.decoded() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable-equal, like a list


def _quoted(raw: bytes) -> int:
    return raw.count(b'"') // 2


def stored_lines(data: bytes | mmap.mmap, starts: np.ndarray) -> tuple[Hashes, Lines]:
    """The hashes and lazily decoded records of a units file, its line starts as written
    beside it (``starts``: where each record's line begins, then the closing line): nothing
    of the file is read but its first line. ``ValueError`` when they do not fit the file."""
    first = data.find(b"\n")
    if data[: len(HEADER)] != HEADER or first < 0 or not data[: first + 1].endswith(OPEN):
        raise ValueError("a units file of another layout")
    if data[-3:] != b"\n]}":
        raise ValueError("truncated units file")
    if len(starts) < 1 or int(starts[0]) != first + 1 or int(starts[-1]) != len(data) - 2:
        raise ValueError("line starts of another units file")
    if len(starts) > 1 and not bool((starts[1:] > starts[:-1]).all()):  # 0.1 ms at 100k
        raise ValueError("line starts out of order")
    hashes = Hashes([bytes(data[len(HEADER) : first + 1 - len(OPEN)])])
    return hashes, Lines(data, starts)


def parse_lines(data: bytes | mmap.mmap) -> tuple[Hashes, Lines]:
    """The hashes and lazily decoded records of a units file (its bytes, or a read-only
    mapping of it, which a cold search of a large index does not copy). Only the hashes are
    counted now: a search reads a few hundred records, and decoding a large log's records up
    front would cost several times the file in memory (the hashes are kept as bytes until
    first used)."""
    import numpy as np

    first = data.find(b"\n")
    if data[: len(HEADER)] != HEADER or first < 0 or not data[: first + 1].endswith(OPEN):
        raise ValueError("a units file of another layout")
    if data[-3:] != b"\n]}":
        raise ValueError("truncated units file")
    hashes = Hashes([bytes(data[len(HEADER) : first + 1 - len(OPEN)])])
    view = np.frombuffer(data, dtype=np.uint8)
    step = 1 << 24  # a byte mask of the whole file would double it in memory
    starts = np.concatenate(
        [np.flatnonzero(view[lo : lo + step] == 10) + (lo + 1) for lo in range(0, len(view), step)]
    )
    return hashes, Lines(data, starts)
