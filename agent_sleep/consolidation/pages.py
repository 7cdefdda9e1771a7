"""One name, one entity page: the page a run files an entity's entries on when the name is
written short on one day and in full on another.

Notes say "Jordan" most days and "Jordan Reyes" on others; a model (or the offline
consolidator) names the page after the name as the entry writes it, and one person got two
pages, half of what is known on each. An entity slug with no page of its own goes to the page
that already holds that name (:meth:`Names.resolve`):

- a first name or a surname alone (``jordan``, ``whitfield``) goes to the one full-name page
  whose first or last word it is (``jordan-reyes``, ``dana-whitfield``);
- a full name goes to the single-word page of its first or last name when that page is the
  only one of the name (or already writes this full name) and none of its entries writes
  another full name with it ("Jordan Lee" on ``jordan``). The existing page keeps what is
  known, rather than a new full-name page splitting it (no file is moved or rewritten whole);
  the entries filed there write the full name, so a later "Jordan Lee" finds the page taken
  and gets a page of its own, while "Jordan Reyes" keeps coming back to it;
- a single word with no full-name page, which the entries write in just one full name, goes
  where that full name would by the rule above, when that is a page the name has. The words
  of the entity pages' names, and the slug's own word, are names where they open a sentence:
  "Hannah Cole is the tech lead" names only "Cole" otherwise (a sentence's first word is no
  name until the notes show it is one) and opened ``cole.md`` beside ``hannah.md``; now it
  goes to ``hannah.md``. Otherwise (no such page, or an ambiguous one) the slug keeps its
  own page, as asked.

A name followed by an acronym ("Kestrel DPA", "Orion CFO") is a thing of that name's, not a
person's full name: it goes to the page the name has by the rules above (``kestrel.md``, or the
one ``kestrel-logistics.md``), where one account's notes had been spread over three pages; with
no such page it keeps its own. Such a name is never read as a full name that makes another one
ambiguous.

Within a run, a first name or a surname goes to a full name the same answer files under when
neither page exists yet: the full name is the better title, and later short names find it.

A concept is one page whatever the number its name is written in: a concept slug with no page
of its own goes to the one concept page of its other number (:func:`same_concept`), so
"services" files on ``service.md`` and "invoice" on ``invoices.md``, where runs that picked
the word as it stood in their notes had made both. Entity slugs are left alone: "Adams" and
"Adam", "Williams" and "William" are names of different people.

Nothing merges when it is ambiguous (two full-name pages with the word, or pages of both the
first and the last name), for a slug that is no name (a word with a digit, a function word,
a word the entries write in lower case or never capitalised), or across kinds (only entity
pages are looked at, and only for an entity's slug). An existing page of the exact slug
always wins, in either folder, as before; no page is renamed, moved or merged after the fact.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from pathlib import Path

from agent_sleep.analysis import distill
from agent_sleep.core import notes as fmt

MAX_NAME_WORDS = 4  # "maria-de-la-cruz"; a longer slug is a title, not a name
_SLUG_WORD = re.compile(r"[a-z]{2,}")
_WORD = re.compile(r"[^\W\d_]+")


def name_words(slug: str) -> tuple[str, ...] | None:
    """The words of ``slug`` when it can be a name: letters only, two at least in each word,
    no function word ("the", "team" is still a word it cannot tell); None otherwise (a digest
    slug ``u-…`` is none either: one letter before the hyphen)."""
    words = tuple(slug.split("-"))
    if len(words) > MAX_NAME_WORDS:
        return None
    if all(_SLUG_WORD.fullmatch(w) and w not in distill.NOT_NAMES for w in words):
        return words
    return None


def written_as_name(words: Iterable[str], texts: Iterable[str]) -> bool:
    """Every one of ``words`` (slug words) is written capitalised in ``texts`` and none in
    lower case: "Jordan fixed the test" names Jordan; "the team shipped" names no team."""
    upper: set[str] = set()
    lower: set[str] = set()
    for text in texts:
        for token in _WORD.findall(text):
            key = token.lower() if token.isascii() else fmt.slugify(token)
            (upper if token[0].isupper() else lower).add(key)
    return all(w in upper and w not in lower for w in words)


def _within(part: Sequence[str], whole: Sequence[str]) -> bool:
    n = len(part)
    return any(tuple(whole[i : i + n]) == tuple(part) for i in range(len(whole) - n + 1))


def full_names(
    word: str, texts: Sequence[str], name_slugs: AbstractSet[str] = frozenset()
) -> list[tuple[str, ...]]:
    """The full names ``texts`` write with ``word`` first or last, as slug words ("Jordan
    Reyes" -> ``("jordan", "reyes")``). A capitalised word whose slug is one of ``name_slugs``
    is a name wherever it stands, a sentence's first word too ("Hannah Cole is…" writes Hannah
    Cole when ``hannah`` is one; without that, only "Cole" is read as a name there)."""
    known = distill.known_names(texts) | {
        token for text in texts for token in _WORD.findall(text)
        if token[0].isupper() and fmt.slugify(token) in name_slugs
    }  # fmt: skip
    out = []
    for text in texts:
        for name in distill.names(text, known):
            if acronym(name.split()[-1]):
                continue  # "Kestrel DPA" is Kestrel's document, not a person's full name
            parts = tuple(fmt.slugify(p) for p in name.split())
            if len(parts) >= 2 and word in (parts[0], parts[-1]):
                out.append(parts)
    return out


def acronym(word: str) -> bool:
    """Whether ``word`` is written as an acronym: "DPA", "QBR", "CFO" (not "I", not "Ng")."""
    return len(word) >= 2 and word.isalpha() and word.isupper()


def written_as_acronym(word: str, texts: Iterable[str]) -> bool:
    """Whether ``texts`` write the slug word ``word`` as an acronym only ("DPA", never "Dpa")."""
    forms = {t for text in texts for t in _WORD.findall(text) if t.lower() == word}
    return bool(forms) and all(acronym(t) for t in forms)


def names_another(word: str, full: Sequence[str], texts: Sequence[str]) -> bool:
    """Whether ``texts`` write a full name with ``word`` first or last that is not ``full``
    ("Jordan Lee" beside a page of Jordan Reyes)."""
    return any(not _within(full, parts) for parts in full_names(word, texts))


def _ends_with(slug: str, word: str) -> bool:
    words = slug.split("-")
    return len(words) >= 2 and word in (words[0], words[-1])


class Names:
    """The entity pages a run may file on, by the words of their names: the folder's pages
    (read once, when first needed), the pages the run creates, and the full names it plans."""

    def __init__(self, folder: Path, usable: Callable[[Path], bool]) -> None:
        self.folder, self.usable = folder, usable
        self._slugs: set[str] | None = None

    def slugs(self) -> set[str]:
        if self._slugs is None:
            self._slugs = set()
            try:
                listing = sorted(os.listdir(self.folder))
            except OSError:  # no folder yet, or not a folder
                listing = []
            for name in listing:
                slug = name.removesuffix(".md")
                if slug != name and name_words(slug) and self.usable(self.folder / name):
                    self._slugs.add(slug)
        return self._slugs

    def add(self, slug: str) -> None:
        """A page the run creates."""
        if name_words(slug):
            self.slugs().add(slug)

    def plan(self, slug: str) -> None:
        """A full name an answer files under: a first name alone in it goes there."""
        words = name_words(slug)
        if words and len(words) >= 2:
            self.slugs().add(slug)

    def resolve(
        self, slug: str, texts: Sequence[str], page_texts: Callable[[str], list[str]]
    ) -> str:
        """The entity page for ``slug``, which has no page of its own: the page of the same
        name (module docstring), or ``slug`` itself. ``texts`` are the entries to file and the
        notes they cite (what shows the slug is a name); ``page_texts(slug)`` the entries of
        an existing page."""
        words = name_words(slug)
        # a longer name needs its first word written as a name only: the others may be words
        # the notes write in lower case too ("Crestwood Dental Lab", "our dental lab")
        if words is None or not written_as_name(words[:1], texts):
            return slug
        slugs = self.slugs()
        if len(words) == 1:
            [word] = words
            full = sorted(s for s in slugs if _ends_with(s, word))
            if len(full) == 1 and not names_another(word, full[0].split("-"), texts):
                return full[0]
            whole = None if full else self._whole_name(word, texts)
            if whole is not None:
                page = self.resolve(whole, texts, page_texts)
                if page != whole:  # a page the full name has; else the slug's own, as asked
                    return page
            return slug
        if len(words) == 2 and written_as_acronym(words[1], texts):
            # a thing of one name's, written as an acronym ("Kestrel DPA", "Orion CFO"): on
            # the page that name has, when it has one
            planned = slug in slugs  # the run's own plan for it is no page the name has
            slugs.discard(slug)
            try:
                page = words[0] if words[0] in slugs else self.resolve(words[0], texts, page_texts)
            finally:
                if planned:
                    slugs.add(slug)
            return page if page in slugs else slug
        short = [w for w in dict.fromkeys((words[0], words[-1])) if w in slugs]
        if len(short) != 1:
            return slug
        [word] = short
        on_page = full_names(word, page_texts(word))
        if any(not _within(words, parts) for parts in [*on_page, *full_names(word, texts)]):
            return slug  # the page (or the entry) writes another full name with the word
        # a page that writes this full name already is this one's, whatever pages others have
        if not on_page and any(s != slug and _ends_with(s, word) for s in slugs):
            return slug  # another full name of the word has a page: which one it is is unclear
        return word

    def _whole_name(self, word: str, texts: Sequence[str]) -> str | None:
        """The one full name ``texts`` write ``word`` in, first or last, as a slug; None when
        they write none, or several. The words of the entity pages, and ``word`` itself, are
        read as names where they open a sentence: "Hannah Cole is the tech lead" gave the name
        "Cole" alone (a sentence's first word is a name only when the run's notes show it is
        one), and ``cole.md`` opened beside ``hannah.md``; read whole, the full name goes to the
        page of its first name."""
        pages = {w for s in self.slugs() for w in s.split("-")} | {word}
        found = {"-".join(parts) for parts in full_names(word, texts, pages)}
        found = {s for s in found if name_words(s)}
        return found.pop() if len(found) == 1 else None


_SIBILANT = ("s", "x", "z", "ch", "sh")  # whose plural takes "es": "box" -> "boxes"


def other_number(slug: str) -> list[str]:
    """The slugs of ``slug`` with its last word in the other grammatical number, by the regular
    English endings; those it makes of a word that has no other number ("news" -> "new") name
    no page, or a page of another concept only by chance, and :func:`same_concept` takes only
    one that exists::

        "invoice" -> ["invoices"]              "invoices" -> ["invoice"]
        "policy" -> ["policies"]               "policies" -> ["policy"]
        "pull-request" -> ["pull-requests"]    "boxes" -> ["box", "boxe"]
        "status" -> ["statuses"]               "api" -> []  (shorter than four letters)
    """
    *head, last = slug.split("-")
    if not re.fullmatch(r"[a-z]{4,}", last):
        return []
    forms: list[str] = []
    if last.endswith("ies"):
        forms.append(last[:-3] + "y")
    elif last.endswith("es") and last[:-2].endswith(_SIBILANT):
        forms.append(last[:-2])
    if last.endswith("s") and not last.endswith(("ss", "us", "is")):
        forms.append(last[:-1])
    elif last.endswith("y") and last[-2] not in "aeiou":
        forms.append(last[:-1] + "ies")
    elif last.endswith(_SIBILANT):
        forms.append(last + "es")
    else:
        forms.append(last + "s")
    return ["-".join([*head, form]) for form in forms]


def same_concept(slug: str, exists: Callable[[str], bool]) -> str:
    """The concept page for ``slug``, which has no page of its own: the one concept page of its
    other number (``exists(slug)``: a concept page of that slug exists, or the run writes
    it), or ``slug`` itself."""
    found = [s for s in other_number(slug) if exists(s)]
    return found[0] if len(found) == 1 else slug
