"""The note format: pure functions of a string, no I/O.

A note is one list item in Markdown::

    - 14:32 O(c=0.9): User prefers concise replies <!-- id=k3v9x2m7qa source=msg-42 -->

``HH:MM`` (optional, daily logs carry it), the type prefix ``W``, ``B``, ``S`` or ``O(c=N)``,
the text, and a trailing HTML comment holding the note's metadata (``id`` always, ``source``
and any other ``key=value`` optionally). A note whose text spans several lines continues on
lines indented by two spaces, so no line of a note ever starts at column 0: a note cannot forge
a heading or another entry.

Parsing keeps every line it reads as raw text; rendering a parsed document gives back the
input byte for byte, whatever hand edits it holds.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import quote, unquote

NOTE_TYPES = ("W", "B", "O", "S")
DEFAULT_CONFIDENCE = 0.7  # of an O note or entry that states none
# Sections of a daily log, each under a "## <name>" heading
RETAIN = "Retain"  # the notes of the day
DREAMS = "Dreams"  # what REM connected
NEXT_SESSION = "Next session"  # REM's actions for the next session start
RETAIN_HEADING = f"## {RETAIN}"
DREAMS_HEADING = f"## {DREAMS}"
NEXT_SESSION_HEADING = f"## {NEXT_SESSION}"
CHANGED_ON = "Changed on "  # how REM's record of a change opens: "Changed on DATE: A → B"
CONTINUATION = "  "
ID_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base32, lower case
ID_LENGTH = 10

_TYPE = r"(?P<type>[WBS]|O\(c=(?P<conf>0(?:\.\d+)?|1(?:\.0+)?|\.\d+)\))"
_HEAD_RE = re.compile(r"^\ufeff?- (?:(?P<time>\d{2}:\d{2}) )?" + _TYPE + r":(?: |$)")
PREFIX_RE = re.compile(r"^" + _TYPE + r": ")  # the "W: " a note's displayed text opens with
_META_RE = re.compile(r" <!-- (id=[^\s]+(?: [a-z_]+=[^\s]*)*) -->[ \t]*$")
# a note line's metadata: the comment that ends the line (a "<!-- id=… -->" a note's own text
# holds earlier on the line is text, not where the metadata begins)
# (on a CRLF line too: the "\r" stays, the comment goes)
META_COMMENT_RE = re.compile(r" <!-- id=(?:(?!-->)[^\n])* -->[ \t]*(?=\r?$)", re.M)
_META_SAFE = "!$&'()*+,./:;=?@_~[]#|^`{}"


@dataclass(frozen=True)
class Note:
    """One W/B/O/S entry."""

    type: str
    text: str
    id: str = ""
    time: str | None = None
    confidence: float | None = None
    meta: Mapping[str, str] = field(default_factory=dict)

    @property
    def source(self) -> str | None:
        return self.meta.get("source")

    @property
    def prefix(self) -> str:
        if self.type == "O":
            return (
                f"O(c={format_confidence(self.confidence if self.confidence is not None else 0.5)})"
            )
        return self.type


@dataclass(frozen=True)
class Heading:
    level: int
    title: str


@dataclass(frozen=True)
class Block:
    """A span of the source: a note, a heading, or other lines kept as they were."""

    raw: str
    note: Note | None = None
    heading: Heading | None = None
    section: str | None = None  # title of the ## heading this block sits under


@dataclass(frozen=True)
class Document:
    blocks: tuple[Block, ...]

    def render(self) -> str:
        return "".join(b.raw for b in self.blocks)

    def notes(self, section: str | None = None) -> list[Note]:
        return [
            b.note
            for b in self.blocks
            if b.note is not None and (section is None or b.section == section)
        ]

    def last_section(self) -> str | None:
        heads = [b.heading for b in self.blocks if b.heading is not None and b.heading.level <= 2]
        return heads[-1].title if heads else None


def format_confidence(c: float) -> str:
    text = f"{c:.2f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def new_id() -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


def stable_id(*parts: str) -> str:
    """An id derived from content, so rebuilding a plan from the same input gives the same ids."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).digest()
    return "".join(ID_ALPHABET[b % len(ID_ALPHABET)] for b in digest[:ID_LENGTH])


HASHED_SLUG_RE = re.compile(r"^u-[0-9a-f]{10}$")


def slugify(name: str, limit: int = 64) -> str:
    """A file-name slug: ``[a-z0-9-]+``, at most ``limit`` characters (empty if the name has
    no letter or digit). Accented letters lose their accents (José Ñúñez -> jose-nunez) and
    compatibility forms become the letters they stand for (the ligature in "ﬁnance" ->
    "finance", fullwidth "ｅｔｃ" -> "etc"). A name of another script, which keeps no letter
    of ``a-z`` ("李雷", "Дмитрий"), is named by a digest of its letters: ``u-`` and ten hex
    digits, the same for the same name however it is spaced or cased, so its page is found
    again (the page's title keeps the name as written). Every bank page name (sleep's and
    the memory tool's) comes from here."""
    decomposed = unicodedata.normalize("NFKD", name)
    folded = "".join(c for c in decomposed if not unicodedata.combining(c))
    slug = re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")[:limit].strip("-")
    if slug:
        return slug
    letters = [c for c in unicodedata.normalize("NFKC", name).casefold() if c.isalnum()]
    if not letters:
        return ""
    return "u-" + hashlib.sha256("".join(letters).encode()).hexdigest()[:10]


def day_header(day: dt.date) -> str:
    """The first line of a daily log, and the blank line after it."""
    return f"# {day.isoformat()}\n\n"


def sources_of(note: Note) -> list[str]:
    """The note ids an entry cites (its ``sources=`` metadata)."""
    return [s for s in note.meta.get("sources", "").split(",") if s]


def written_on(note: Note) -> dt.date | None:
    """The day an entry was written, from its ``date=``; None without a valid one."""
    try:
        return dt.date.fromisoformat(str(note.meta.get("date") or "")[:10])
    except ValueError:
        return None


def strip_meta(text: str) -> str:
    """``text`` with the metadata comment of each note line removed (what a reader sees)."""
    return META_COMMENT_RE.sub("", text)


# invisible characters that change how text reads, kept: the zero-width non-joiner (Persian
# "می‌خواهم") and joiner (emoji sequences such as a family); every other format character
# (bidirectional overrides, tags) goes
_KEPT_FORMAT = frozenset("\u200c\u200d")
_LINE_BREAKS = str.maketrans({"\u2028": "\n", "\u2029": "\n", "\x85": "\n"})


def _kept(ch: str) -> bool:
    return ch == "\n" or ch.isprintable() or ch in _KEPT_FORMAT


def normalize_text(text: str) -> str:
    """The canonical stored form of a note's text: LF line ends, no control characters,
    every space character (a no-break space, a thin space) a plain space, no trailing
    spaces, no blank lines, no leading/trailing whitespace."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    text = text.translate(_LINE_BREAKS)
    text = "".join(
        ch if _kept(ch) else " " if unicodedata.category(ch) == "Zs" else "" for ch in text
    )
    lines = [line.rstrip() for line in text.split("\n")]
    return "\n".join(line for line in lines if line.strip()).strip()


def _encode_meta(meta: Mapping[str, str]) -> str:
    return " ".join(f"{k}={quote(v, safe=_META_SAFE)}" for k, v in meta.items())


def _decode_meta(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in text.split(" "):
        key, _, value = pair.partition("=")
        out[key] = unquote(value)
    return out


def render_note(note: Note) -> str:
    """One note as Markdown lines ending in a newline. The note must have an id: the trailing
    comment is what keeps a text that ends in a look-alike comment from forging metadata."""
    if not note.id:
        raise ValueError("a note needs an id to be rendered")
    meta = {"id": note.id, **{k: v for k, v in note.meta.items() if k != "id" and v != ""}}
    lines = normalize_text(note.text).split("\n")
    head = "- " + (f"{note.time} " if note.time else "") + f"{note.prefix}: "
    out = [head + lines[0]] + [CONTINUATION + line for line in lines[1:]]
    out[-1] += f" <!-- {_encode_meta(meta)} -->"
    return "\n".join(out) + "\n"


def _parse_entry(lines: list[str]) -> Note | None:
    m = _HEAD_RE.match(lines[0].rstrip("\r\n"))
    return None if m is None else note_of(lines, m)


def note_of(lines: Sequence[str], head: re.Match[str]) -> Note:
    """The note of an entry's ``lines`` whose first line matched the entry head (``head``, as
    ``iter_spans`` gives it)."""
    body, tail = _body(lines, head)
    meta = _decode_meta(tail.group(1)) if tail else {}
    return Note(
        type=head.group("type")[0],
        text="\n".join(body),
        id=meta.get("id", ""),
        time=head.group("time"),
        confidence=float(head.group("conf")) if head.group("conf") else None,
        meta=meta,
    )


def text_of(lines: Sequence[str], head: re.Match[str]) -> str:
    """``note_of(lines, head).text`` without decoding the metadata."""
    return "\n".join(_body(lines, head)[0])


def _body(lines: Sequence[str], head: re.Match[str]) -> tuple[list[str], re.Match[str] | None]:
    """An entry's text lines, its trailing metadata comment cut off, and that comment's match."""
    body = [lines[0].rstrip("\r\n")[head.end() :]]
    body += [line.rstrip("\r\n")[len(CONTINUATION) :] for line in lines[1:]]
    tail = _META_RE.search(body[-1])
    if tail:
        body[-1] = body[-1][: tail.start()]
    return body, tail


def blank_note(lines: Sequence[str], head: re.Match[str]) -> bool:
    """Whether the note of ``lines`` (as ``note_of`` takes them) has no text, without building
    it: one line whose head is followed by nothing but its metadata comment."""
    if len(lines) > 1:
        return not text_of(lines, head).strip()
    first = lines[0][head.end() : head.end() + 1]
    if first and first != "<" and not first.isspace():  # a word right after the head
        return False
    rest = lines[0].rstrip("\r\n")[head.end() :]
    comment = rest.find(" <!-- ")
    if comment < 0 or rest[:comment].strip():  # no comment, or words before the first one
        return not rest.strip()
    tail = _META_RE.search(rest)
    return not (rest[: tail.start()] if tail else rest).strip()


_HEADING_RE = re.compile(r"^\ufeff?(#{1,6})[ \t]+(.*?)[ \t#]*$")


def _split_lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


Span = tuple[int, int, Heading | None, "re.Match[str] | None", str | None]


def iter_spans(lines: Sequence[str]) -> Iterator[Span]:
    """The blocks of a text's ``lines`` (with their ends) before anything is parsed:
    (first line, end line, heading, head, section). ``heading`` is set for a heading line,
    ``head`` (the match of the entry head) for an entry, whose note is
    ``note_of(lines[first:end], head)``; neither for any other line. A search over a large
    backlog parses only the notes it wants (retrieval/scan.py); ``iter_blocks`` parses all."""
    section: str | None = None
    i = 0
    n = len(lines)
    in_fence = False
    head_match = _HEAD_RE.match
    while i < n:
        line = lines[i]
        bare = line.rstrip("\r\n")
        if bare.startswith("```"):
            in_fence = not in_fence
        if not in_fence:
            if bare.startswith(("#", "\ufeff#")):
                hm = _HEADING_RE.match(bare)
                if hm:
                    heading = Heading(len(hm.group(1)), hm.group(2).strip())
                    if heading.level <= 2:
                        section = heading.title
                    yield i, i + 1, heading, None, section
                    i += 1
                    continue
            elif bare.startswith(("- ", "\ufeff- ")):  # a BOM may open the file
                m = head_match(bare)
                if m is not None:
                    j = i + 1
                    while j < n and lines[j].startswith(CONTINUATION) and lines[j].strip():
                        j += 1
                    yield i, j, None, m, section
                    i = j
                    continue
        yield i, i + 1, None, None, section
        i += 1


def iter_blocks(text: str) -> Iterator[Block]:
    lines = _split_lines(text)
    for i, j, heading, head, section in iter_spans(lines):
        if heading is not None:
            yield Block(raw=lines[i], heading=heading, section=section)
        elif head is not None:
            part = lines[i:j]
            yield Block(raw="".join(part), note=note_of(part, head), section=section)
        else:
            yield Block(raw=lines[i], section=section)


def parse(text: str) -> Document:
    """Parse a daily log, MEMORY.md or bank page. ``parse(t).render() == t`` for any ``t``."""
    return Document(tuple(iter_blocks(text)))


def notes_in(text: str, section: str | None = None) -> list[Note]:
    return parse(text).notes(section)


def last_section(text: str) -> str | None:
    """Title of the last level-1/2 heading, as ``parse(text).last_section()`` gives it, found
    by scanning from the end (appends stay cheap however long the log grows)."""
    lines = _split_lines(text)
    fences_before = sum(1 for line in lines if line.startswith("```"))
    for line in reversed(lines):
        bare = line.rstrip("\r\n")
        if bare.startswith("```"):
            fences_before -= 1
            continue
        hm = _HEADING_RE.match(bare)
        if hm and len(hm.group(1)) <= 2 and fences_before % 2 == 0:
            return hm.group(2).strip()
    return None


def append_block(existing: str, note_lines: Iterable[str], heading: str = RETAIN_HEADING) -> str:
    """What to append to a file holding ``existing`` so the notes land under ``heading``.

    Returns only the suffix, so callers can append to the file without rewriting it."""
    prefix = ""
    if existing and not existing.endswith("\n"):
        prefix = "\n"
    if sum(1 for line in _split_lines(existing) if line.startswith("```")) % 2:
        prefix += "```\n"  # a hand edit left a code fence open: notes inside it are not notes
    existing += prefix
    title = heading.lstrip("#").strip()
    if last_section(existing) != title:
        sep = "" if not existing or existing.endswith("\n\n") else "\n"
        prefix += f"{sep if existing else ''}{heading}\n\n"
    return prefix + "".join(note_lines)
