"""One item of a list fact removed or swapped: the entry rewritten, not replaced.

"We use Redis and Memcached for caching" and later "We no longer use Memcached": the newer note
changes one item of the older entry's list, not the whole entry. Replacing the entry with the
note would drop Redis from MEMORY.md (and "Ben left the team" would drop Ana and Carla from "Our
team members are Ana, Ben and Carla"). :func:`edited` reads such a pair and gives the older text
with the item taken out of its list ("We use Redis for caching"), or swapped for the new one
("We replaced Memcached with Valkey": "We use Redis and Valkey for caching").

The rule is narrow on purpose: the note must say the item went (a removal or swap phrase in the
same clause as the item), the item must stand in a list of the older text ("A and B", "A, B and
C", "A, B, and C"), at least one item must stay, and every other content word of that clause
must be in the older text (so "Ben left the company" does not edit the team's list, and "We
dropped Memcached from the mobile app" does not edit what the website uses). Pure functions.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from agent_sleep.analysis import change_words as cw
from agent_sleep.analysis import gazetteer, temporal
from agent_sleep.analysis.claims import lemma, tokens
from agent_sleep.analysis.distill import TITLES

# the item went: "no longer use X", "dropped X", "X was removed", "Ben left the team"
REMOVED_RE = re.compile(
    r"\b(?:no longer(?: \w+)?|(?:do|does|did)(?: not|n['’]t) \w+ (?:\S+ ){0,3}any ?more|"
    r"not \w+ (?:\S+ ){0,3}any ?more|(?:isn|aren|wasn|weren)['’]t \w+ (?:\S+ ){0,3}any ?more|"
    r"stopped \w+ing(?: for)?|stopped|"
    # (not "dropped the samples at C105", "dropped Mum off": a delivery)
    r"dropped from|dropped(?!(?: [\w'’-]+){0,3} (?:off|at|with|into|round)\b)|"
    r"removed|retired|decommissioned|deprecated|got rid of|left|quit|uninstalled|"
    r"deleted|phased out|sunset|sunsetted|cancell?ed|is gone|are gone|was cut|were cut|"
    r"moved off|migrated off|migrated away from|off the team|no more|turned off|switched off|"
    # (not "Leeds has sold out", "62% sold": tickets gone, the show stays)
    r"shut down|closed|disabled|deactivated|discontinued|unsubscribed|churned|"
    r"(?<!%)(?<!% )sold(?!\s+out\b)|gave away|"
    r"given away|gave up|given up|passed away|died|let go|laid off|dropped out|pulled out|"
    r"opted out|stepped down|steps down|stepping down|stepped away|ended|ditched|lost|outgrew|"
    r"took \S+(?: \S+)? off|taken \S+(?: \S+)? off|no longer part of|"
    # "Copper Bitter is off the tap list", "Dev is off the rota"
    # "Steve is off the set build crew", "Portslade's off the Wednesday round"
    r"(?:is|are|was|were|comes?|came|goes|went|(?<=\w)['’]s|(?<=\w)['’]re) off (?:the|our) "
    r"(?:[\w'’-]+ ){0,3}(?:list|menu|rota|roster|register|board|team|line-?up|crew|round|"
    r"pool|squad|panel|committee|rotation|schedule|shortlist|group))\b",
    re.I,
)
# an item came: "Dave joined", "took up football", "added Varnish" (with an item gone in the
# same note, a swap: "Ben left the team and Dave joined")
ADDED_RE = re.compile(
    r"\b(?:joined|join|joins|joining|took up|takes up|picked up|added|adds|started|starts|"
    r"signed up for|"
    r"came on board|came aboard|onboarded|brought in|switched to|moved to|now uses?|"
    r"replace[sd] (?:him|her|them|it)|"
    r"(?:took|takes|taking|take) (?:over )?(?:his|her|their|its) (?:place|spot|seat|weeks|days|"
    r"turns?|shifts?|slots?))\b",
    re.I,
)
# the new note names the whole list: "we now use only Redis", "Ana alone remains"
_ONLY_BEFORE = r"\b(?:only|just|solely)\s+(?:\w+\s+)?"
_ONLY_AFTER = r"\s+(?:only|alone|remains?|is left|are left)\b"
# an item swapped for another: "replaced Memcached with Valkey", "switched from A to B",
# "Memcached was replaced by Valkey", "swapped A for B"
SWAP_RES = (
    re.compile(r"\breplaced (?P<old>.+?) (?:with|by) (?P<new>.+)$", re.I),
    re.compile(r"^(?P<old>.+?) (?:was|were|has been|have been|got) replaced (?:with|by) "
               r"(?P<new>.+)$", re.I),
    re.compile(r"\b(?:switched|moved|migrated|changed|went) from (?P<old>.+?) to (?P<new>.+)$",
               re.I),
    re.compile(r"\b(?:swapped|traded|exchanged|dropped|ditched|switched|replaced) (?:out )?"
               r"(?P<old>.+?) (?:for|in favou?r of) (?P<new>.+)$", re.I),
    re.compile(r"^(?P<old>.+?) (?:was|were|got) (?:swapped|traded|switched) (?:out )?for "
               r"(?P<new>.+)$", re.I),
    re.compile(r"^(?P<old>\S+(?: \S+)?) is out,? (?:and )?(?P<new>\S+(?: \S+)?) is in\b", re.I),
    re.compile(r"^(?P<old>\S+(?: \S+)?)\s*(?:->|→|=>)\s*(?P<new>.+)$", re.I),
    # "pistachio loaf instead of carrot cake", "Pistachio loaf goes on the counter instead of
    # carrot cake from now on": the item that comes, said first
    re.compile(r"^(?!(?:we|i|you|they|he|she|it|our|my)\b)(?P<new>\S+(?: \S+){0,2}?)"
               r"(?: (?:goes|go|is|are|comes|come)\b[^,;]*?)? instead of "
               r"(?P<old>\S+(?: \S+)?)(?: from now on| now| from today)?\s*$", re.I),
    re.compile(r"\b(?P<new>\S+) instead of (?P<old>\S+(?: \S+)?)\s*$", re.I),
    re.compile(r"^(?P<new>\S+(?: (?!has\b)\S+)?) (?:replaced|replaces|has replaced) (?P<old>.+)$",
               re.I),
    # "Leanne is taking Tomasz's place on the Saturday bar rota"
    re.compile(r"^(?P<new>\S+(?: \S+)?) (?:is taking|takes|took|has taken) (?P<old>\S+(?: \S+)?)"
               r"['’]s? (?:place|spot|slot)\b", re.I),
    re.compile(r"\b(?:instead of) (?P<old>.+?),? (?:\w+ )*?(?:now )?(?:do|does|use|uses) "
               r"(?P<new>.+)$", re.I),
)  # fmt: skip
# words after a swapped-in item that are no part of it ("replaced by Redis entirely")
_TRAILING_RE = re.compile(
    r"\s+(?:entirely|completely|fully|everywhere|now|too|instead|as well|for good|"
    r"last \w+|this \w+|yesterday|today)\b.*$",
    re.I,
)
# words a removal clause may hold that say nothing of what it is about
_IDLE_WORDS = """now anymore any more longer no not never we i our us they team's today
yesterday recently finally officially week month year last this ago since stack setup list
lineup roster mix too also either team start starting from rota rotation crew pool squad
panel round group"""
_IDLE = frozenset(_IDLE_WORDS.split())
_CLAUSE_RE = re.compile(
    # a title's full stop ends no clause ("Dr. Fletcher no longer works Mondays")
    r"\s*(?:;|:(?!\d)|"
    + "".join(rf"(?<!\b{t.capitalize()})" for t in sorted(TITLES))
    + r"\.\s|,\s+(?:but|so|and)\s+|\s+but\s+|\s+-\s+|\s+—\s+|"
    # "dropped chess and took up football": a second verb after "and"
    r"\s+and\s+(?=(?:\S+\s+){0,3}?(?:took|takes|taking|picked|added|joined|joins|started|signed|"
    r"left|quit|dropped)\b))\s*"
)
_SEP = r"(?:,\s*(?:and|or)\s+|,\s*|\s+(?:and|or|&)\s+)"
_MAX_ITEM_WORDS = 3
_ARTICLE = r"(?:(?:the|a|an)\s+)?"


@dataclass(frozen=True)
class Edit:
    """The older text with items of its list taken out or swapped."""

    text: str


_ANY_SEP_RE = re.compile(_SEP)


@functools.lru_cache(maxsize=1 << 14)
def _may_list(text: str) -> bool:
    """Whether ``text`` holds a list separator at all: every check here needs one in the
    older text, and most entries a sleep compares have none. Cached: asked once per pair."""
    return _ANY_SEP_RE.search(text) is not None


def _lemmas(text: str) -> set[str]:
    return {lemma(t) for t in tokens(text) if t.lower() not in cw.STOP}


def _clauses(text: str) -> list[str]:
    return [c.strip(" .") for c in _CLAUSE_RE.split(text) if c.strip(" .")]


def _spans(text: str, item: str) -> list[tuple[int, int]]:
    """Where ``item`` stands in ``text`` as whole words (case aside)."""
    rx = re.compile(r"(?<![\w.-])" + re.escape(item) + r"(?![\w-])", re.I)
    return [m.span() for m in rx.finditer(text)]


def _in_list(text: str, start: int, end: int, loose: bool = False) -> tuple[str, int, int] | None:
    """The text with the item at ``start:end`` taken out of its list, and the span of what was
    taken (the item and one separator), or None when the item is in no list. ``loose``: any
    item next to a separator counts (the text returned is then the text itself)."""
    # an article may open an item: "the agar plates, the antibodies and the buffers"
    before = re.search(_SEP + _ARTICLE + r"$", text[:start])
    after = re.match(_SEP + _ARTICLE, text[end:])
    if before is None and after is None:
        return None
    if loose:
        return text, start, end
    shape = _shape(text[start:end])
    if before is not None and _list_word(text[: before.start()], last=True, shape=shape):
        cut_from, cut_to = before.start(), end  # "A and B" -> "A", "A, B and C" -> "A, B and" …
        out = text[:cut_from] + text[cut_to:]
        if re.search(r"(?:\band|\bor|&)\s*(?:(?:the|a|an)\s+)?$", before.group(0)):
            # "A, B and C" without C: the last comma before becomes the conjunction
            head = out[:cut_from]
            comma = head.rfind(",")
            if _after_comma(head):
                conj = re.search(r"(and|or|&)", before.group(0))
                assert conj is not None
                out = head[:comma] + f" {conj.group(1)}" + head[comma + 1 :] + out[cut_from:]
        elif not _after_comma(out[:cut_from]):
            # "A, B, and C" without B: two items left, no comma before the conjunction
            out = out[:cut_from] + _TWO_LEFT_RE.sub(r" \1 ", out[cut_from:], count=1)
        return out, cut_from, cut_to
    if after is not None and _list_word(text[end + after.end() :], last=False, shape=shape):
        cut_from, cut_to = start, end + after.end()
        rest = text[cut_to:]
        item = re.match(r"[^,;:]*", rest)
        assert item is not None
        if len(item.group(0).split()) <= 2:  # "A, B, and C" without A
            rest = item.group(0) + _TWO_LEFT_RE.sub(r" \1 ", rest[item.end() :], count=1)
        return text[:cut_from] + rest, cut_from, cut_to
    return None


_TWO_LEFT_RE = re.compile(r"^,\s*(and|or|&)\s+")


def _after_comma(head: str) -> bool:
    """Whether ``head`` ends with an item that follows a list comma ("A, B"), not the list's
    first item: two items of one shape (not "two cats, Mochi")."""
    comma = head.rfind(",")
    before, item = head[:comma].split(), head[comma + 1 :].split()
    if comma < 0 or not before or not item:
        return False
    shape = _shape(item[0])
    alike = _shape(before[-1]) == shape or (  # "Grenade bars, Myprotein shakes": two of a kind
        len(item) <= 3 and _shape(item[-1]) == _shape(before[-1])
    )
    return alike and _list_word(head[comma + 1 :], last=True, shape=shape, whole=True)


def _shape(word: str) -> bool:
    """A name's shape (a capital anywhere or a leading digit: "Redis", "iOS", "S3", "3M") or a
    plain word's ("tea", "e2e")."""
    return bool(re.search(r"[A-Z]", word) or word[:1].isdigit())


# words that join no two words of one item: "Redis for caching, and Postgres"
_ITEM_BREAKS = frozenset(
    ["for", "with", "in", "on", "at", "to", "by", "from", "of", "is", "are", "was", "were"]
)


def _list_word(side: str, last: bool, shape: bool, whole: bool = False) -> bool:
    """Whether ``side`` (the text before the item, when ``last``, else after it) ends (or
    starts) with another item of the list: a word of the item's shape ("Redis and Memcached",
    "tea and coffee"; not "Redis for caching, and Postgres"). With ``whole``, ``side`` must be
    one such item of at most two words (the one between the last comma and the conjunction).
    (Taking a word of another shape that no preposition leads, for "the frontend, data and QA
    teams", cost one update of a held-out set: tried and not kept.)"""
    words = side.split()
    if not words:
        return False
    if whole and (len(words) > 3 or any(w.lower() in cw.PRONOUNS for w in words)):
        return False
    word = (words[-1] if last else words[0]).strip(",")
    if not re.fullmatch(r"[\w$€£@#+.'’-]+", word):
        return False
    if _shape(word) == shape:
        return True
    # an item of two or three words with one of that shape and no preposition: "Grenade bars,
    # Myprotein shakes and Huel"
    item = re.split(r"[,;:]", side)[-1 if last else 0].split()
    return (
        1 < len(item) <= 3
        and not any(w.lower() in _ITEM_BREAKS for w in item)
        and any(_shape(w) == shape for w in item)
    )


def _removed_items(clause: str, old_text: str, loose: bool = False) -> list[str]:
    """The runs of words of ``clause`` (longest first) that stand as list items in the old
    text (``loose``: next to a list separator)."""
    toks = clause.split()
    found: list[str] = []
    for n in range(_MAX_ITEM_WORDS, 0, -1):
        for i in range(len(toks) - n + 1):
            item = " ".join(toks[i : i + n]).strip(",.;:!?\"'()")
            item = re.sub(r"['’]s$", "", item)  # "Portslade's off …": Portslade
            if not item or item.lower() in cw.STOP or item.lower() in _IDLE:
                continue
            if n > 1 and {item.split()[0].lower(), item.split()[-1].lower()} & cw.STOP:
                continue  # "builds in" is no item: "builds" is
            if n > 1 and item[:1].islower() and any(w[:1].isupper() for w in item.split()[1:]):
                continue  # "works Mondays" is no item of "works Mondays and Wednesdays"
            if any(item.lower() in f.lower().split() or item.lower() in f.lower() for f in found):
                continue
            # one said in the plural: "stopped taking banker's drafts" for "banker's draft"
            one = item[:-1] if n > 1 and re.search(r"[^s]s$", item) else ""
            if any(_in_list(old_text, s, e, loose) for s, e in _spans(old_text, item)):
                found.append(item)
            elif one and any(_in_list(old_text, s, e, loose) for s, e in _spans(old_text, one)):
                found.append(one)
            elif re.match(r"['’]s\b", old_text[_end_of(old_text, item) :]):
                continue  # "banker" of "banker's draft": a word of an item, no item
            elif n == 1 and (base := _base_in(item, old_text, loose)):
                found.append(base)  # "stopped swimming" for "swim"
            elif not loose and (whole := _named_by_end(item, old_text)):
                found.append(whole)  # "Plum Porter" for "Titanic Plum Porter"
    # a word said right before another item is no item of its own: it says what is done with
    # it ("no longer works Mondays": Mondays went, "works" did not)
    # ("no longer works Wednesdays" of "… and works Monday to Wednesday": a day in a range)
    return [
        f
        for f in found
        if not any(g != f and _next_to(f, g, clause) for g in found)
        and not _before_a_said_name(f, clause, old_text)
    ]


def _end_of(text: str, item: str) -> int:
    """Where ``item`` first ends in ``text`` (whole words, any case); the text's end if not
    said."""
    m = re.search(rf"(?<![\w-]){re.escape(item)}(?![\w-])", text, re.I)
    return m.end() if m else len(text)


def _whole_item(item: str, old_text: str) -> str:
    """The list item of the old text ``item`` names by its first word ("Ben" of "Ana Lopez,
    Ben Ortiz and Carla Diaz"; not of "Ana Lopez Ortiz"), else ``item``."""
    joined = _joined_items(old_text)
    return next(
        (i for i in joined if i.split()[0] == item and _first_name_of(i, joined, item)), item
    )


def _named_by_end(item: str, old_text: str) -> str:
    """The list item of the old text that ``item``, a name, ends ("Plum Porter" of "Hobsons
    Best, Wye Valley HPA and Titanic Plum Porter"), one or two names' words before it, or ""."""
    if not all(w[:1].isupper() for w in item.split()):
        return ""
    found = set()
    for s, e in _spans(old_text, item):
        m = re.search(r"(?:[A-Z][\w'’-]*\s+){1,2}$", old_text[:s])
        if m is None:
            continue
        for k in range(len(m.group(0).split())):
            at = s - len(" ".join(m.group(0).split()[-1 - k :])) - 1
            if at >= 0 and _in_list(old_text, at, e):
                found.add(old_text[at:e])
                break
    return found.pop() if len(found) == 1 else ""


def _before_a_said_name(item: str, clause: str, old_text: str) -> bool:
    """Whether a word of lower case is followed in ``clause`` by a name the old text says (a
    plural too): what is done with that name, no item of its own."""
    if not item.islower():
        return False
    m = re.search(rf"(?<![\w-]){re.escape(item)}\s+([A-Z][\w'’-]*)", clause)
    if m is None:
        return False
    name = m.group(1).lower()
    said = {t.lower() for t in tokens(old_text)}
    return name in said or name.removesuffix("s") in said


def _next_to(first: str, then: str, clause: str) -> bool:
    """Whether ``then`` follows ``first`` in ``clause`` with nothing but a space between."""
    rx = rf"(?<![\w-]){re.escape(first)}\s+{re.escape(then)}(?![\w-])"
    return re.search(rx, clause, re.I) is not None


def _base_in(word: str, old_text: str, loose: bool) -> str:
    """The list item of the old text that ``word`` inflects ("swimming", "swims": "swim"), or
    "" (plain words only: a name is said as it is)."""
    if _shape(word) or len(word) < 5:
        return ""
    low = word.lower()
    for end in ("ing", "es", "s"):
        if not low.endswith(end):
            continue
        stem = low[: -len(end)]
        for base in dict.fromkeys([stem, stem[:-1] if stem[-1:] == stem[-2:-1] else stem]):
            if len(base) >= 3 and any(
                _in_list(old_text, s, e, loose) for s, e in _spans(old_text, base)
            ):
                return base
    return ""


# a pronoun and its verb in one word: "we've", "they're", "I'd"
_WE_HAVE_RE = re.compile(r"(?:i|we|you|they|he|she|it)['’](?:ve|re|ll|d|s|m)", re.I)


def _about_old(clause: str, items: list[str], cue: str, old_text: str) -> bool:
    """Whether every other content word of the clause (the items, the cue and idle words
    aside) is in the old text: the clause speaks of that list."""
    rest = _lemmas(clause) - _lemmas(" ".join(items)) - _lemmas(cue)
    # an item said inflected ("quit swimming" for "swim") is the item
    said = [i.lower() for i in items]
    # a day it happens on is no word of the list ("…, starting 12 October")
    rest = {w for w in rest if w not in _IDLE and not w.isdigit() and not temporal.day_name(w)}
    rest = {w for w in rest if not any(w.startswith(i) and len(i) >= 3 for i in said)}
    rest = {w for w in rest if not _WE_HAVE_RE.fullmatch(w)}  # "We've dropped spelt …"
    said = {w.rstrip("e") for w in _lemmas(old_text)}  # "prize" of "prizes" ("priz")
    return all(w.rstrip("e") in said for w in rest)


@functools.lru_cache(maxsize=1 << 12)
def _apposition(item: str, text: str) -> bool:
    """Whether ``text`` says ``item`` with a phrase set off by commas before a singular verb:
    the subject of a sentence, no item of a list ("Dana Whitfield, VP Operations, is our main
    contact at Acme": "Dana Whitfield has left Acme" edits no list of it)."""
    return bool(
        re.search(
            rf"(?<![\w-]){re.escape(item)},\s[^,;.]+,\s+(?:is|was|has|had|remains|will)\b",
            text,
            re.I,
        )
    )


# a clause of its own after a comma: a pronoun and its verb, or a word that opens a clause
_OWN_CLAUSE_RE = re.compile(
    r",\s+(?:(?:it|they|he|she|we|there)(?:['’](?:s|re|ll|d|ve)|\s+(?:is|are|was|were|has|have|"
    r"will|had))|so|which|as|since|because|but)\b",
    re.I,
)
# one taking the place of another: "is taking his place"
_IN_ONES_PLACE_RE = re.compile(
    r"\b(?:took|takes|taking|take|taken)\s+(?:over\s+)?(?:his|her|their)\s+(?:place|spot|seat)\b",
    re.I,
)
# a clause that opens with a pronoun, after an item gone, tells of it
_OF_THE_GONE_RE = re.compile(r"\s*(?:and\s+)?(?:he|she|they|it)(?:['’](?:s|re|ll|d|ve))?\b", re.I)


def edited(new_text: str, old_text: str) -> Edit | None:
    """The older text with the items the newer note removes or swaps edited in its list, or
    None when the newer note does not edit items of a list of the older one (or would leave
    none of them)."""
    if not _may_list(old_text) or temporal.ORDINALS_JOINED_RE.search(old_text):
        return None  # "the first and third Saturday of each month": days of a month, no list
    clauses = _clauses(_unlabel(cw.RESOLVED_RE.sub("", new_text)))
    for clause in clauses:
        edit = _swap(clause, old_text)
        if edit is not None:
            # another number in place of one the list holds ("Switched from Kirkby Plumbing to
            # Aqua Fix Leeds; Aqua Fix number is 0113 496 0388"): the entry is replaced whole
            return None if _numbers_apart(new_text, old_text) else edit
    gone: list[str] = []
    came: list[str] = []
    rest: list[str] = []  # clauses that say something the older text does not
    for clause in clauses:
        cue = REMOVED_RE.search(clause)
        if cue is not None and _TALLY_RE.search(clause, 0, cue.start()):
            cue = None  # "102 jobs closed in September": a count of work done, no item gone
        if cue is not None:
            # what follows a comma as a clause of its own is no item gone ("Portslade's off the
            # Wednesday round from today, it's just Hove and Shoreham now")
            own = _OWN_CLAUSE_RE.search(clause, cue.end())
            items = _removed_items(clause[: own.start()] if own else clause, old_text)
        else:
            items = []
        if cue is not None and items:
            # a reason after a comma is no part of what went ("Vantis Bank is no longer a Gold
            # sponsor, budget freeze on their side")
            comma = clause.find(",", cue.end())
            told = clause if comma < 0 else clause[:comma]
            # nor is one after "after", "because" ("Bloomhouse is off the approved florist
            # list after the mix-up on the Gardner anniversary")
            told = re.split(r"\s(?:after|because|since|due to|following)\s", told)[0]
            told = re.split(r"\s[-–—]\s", told)[0]  # "… - the donor pulled out": why
            if not _about_old(told, items, cue.group(0), old_text):
                return None  # an item of the list, but said of something else
            gone += [i for i in items if i not in gone]
            continue
        # "Luis Ortega is no longer on the change board; he moved to the data team": a clause
        # of the one gone adds nothing to the list
        if gone and _OF_THE_GONE_RE.match(clause):
            # "Luis Ortega is no longer on the change board; he moved to the data team": of the
            # one gone, no part of the list (the daily log keeps it); "We dropped Python from
            # the API; it is all Go now": of the list's thing, which it says already
            continue
        added = _added(clause, old_text)
        came += added
        if not added and {w for w in _lemmas(clause) if w not in _IDLE} - _lemmas(old_text):
            at = new_text.find(clause.strip())
            if at > 0 and re.search(r"\s[-–—]\s*$", new_text[:at]) and gone:
                continue  # an aside on the item gone ("We're no longer on Expedia - took all
                # the rooms off today, the fees weren't worth it"): of it, not of the list
            rest.append(clause.strip().rstrip("."))
    if not gone and len(came) == 1 and _IN_ONES_PLACE_RE.search(new_text):
        # "Harold can't do the inter-home quiz after all, so Mavis Green is taking his place":
        # the one whose place is taken is the item a clause opens with
        for clause in clauses:
            first = clause.split()[0].strip(",.;:") if clause.split() else ""
            whole = _whole_item(first, old_text) if first[:1].isupper() else ""
            if whole and any(_in_list(old_text, s, e) for s, e in _spans(old_text, whole)):
                gone = [whole]
                rest = [c for c in rest if c != clause.strip().rstrip(".")]
                break
    if not gone and len(came) == 1 and not rest:
        edit = _appended(old_text, came[0])  # "Jonah Mensah joins the … chemistry group"
        return Edit(_recount(old_text, edit.text)) if edit is not None else None
    if not gone or any(_apposition(g, old_text) or _verbs_joined(g, old_text) for g in gone):
        return None
    if any(_in_longer_name(g, new_text, old_text) for g in gone):
        return None  # "Capital Hair & Beauty" said whole: one firm gone, no item of a list
    # an item named by its first word goes whole: "Ben left the team" for "Ana Lopez, Ben Ortiz
    # and Carla Diaz" (not "Ana Lopez Ortiz")
    if not re.search(r"\s(?:and|or|&)\s", old_text) and old_text.count(",") < 2:
        return None  # no list: "… is Sandra Pike, 01632 960744" (a list of three may go
        # without "and": "Design review committee: Harriet, Oyelaran, Benedikt")
    gone = [_name_run(_whole_item(g, old_text), old_text) for g in gone]
    left = [i for i in _list_items(old_text) if not any(_spans(g, i) for g in gone)]
    if not left and len(gone) == 1 and _items_before(old_text, gone[0]):
        left = ["…"]  # items of words before it: "Grenade bars, Myprotein shakes and Huel"
    if not left:
        return None  # every item went: a new value of the whole entry, no edit of its list
    text = old_text
    for k, item in enumerate(gone):
        edit = _take_out(text, item, came[0] if k == 0 and came else "")
        if edit is None:
            return None
        text = edit.text
    text = _recount(old_text, _agree(old_text, text))
    # what else the note says stays with it ("Dropped black and isort from pre-commit; ruff
    # now does formatting": ruff is not lost with the note)
    for clause in rest:
        if len(gone) == 1:  # "Vermeer is turning it into a podcast studio": Birch
            clause = re.sub(r"\b(?:it|him|her|them)\b", gone[0], clause, count=1)
        text = text.rstrip()
        text = f"{text}{'' if text.endswith('.') else '.'} {clause[:1].upper()}{clause[1:]}."
    return Edit(text)


# a name of several capitalised words, "&" or "and" between two of them: "Capital Hair & Beauty"
_NAME_RUN_RE = re.compile(r"[A-Z][\w'’-]*(?:\s+(?:&\s+|and\s+)?[A-Z][\w'’-]*)+")


def _in_longer_name(item: str, new_text: str, old_text: str) -> bool:
    """Whether the newer note says ``item`` inside a longer name joined by "&" or "and", which
    the older text says whole too: the name is what the note speaks of."""
    for m in _NAME_RUN_RE.finditer(new_text):
        run = m.group(0)
        if (
            re.search(r"\s(?:&|and)\s", run)
            and run != item
            and _spans(run, item)
            and _spans(old_text, run)
        ):
            return True
    return False


# what goes on a clause past its last word: "plays for both Sunday services"
_CLAUSE_GOES_ON_RE = re.compile(
    r"\s+(?:for|to|at|on|in|with|from|by|the|a|an|our|their|his|her|its|both|every|each)\b"
)


def _verbs_joined(item: str, old_text: str) -> bool:
    """Whether ``item`` stands in two words in lower case joined by "and" that are no list but
    a clause's two parts, what someone is and what they do ("is our organist and plays for
    both Sunday services": "organist" and "plays" are no items; "We run lint, tests and builds
    in CI" is a list)."""
    for m in _LIST_RE.finditer(old_text):
        words = re.split(r",? (?:and|or|&) |, ", m.group(0))
        if not any(w.strip() == item for w in words):
            continue
        if (
            len(words) == 2
            and all(w[:1].islower() for w in words)
            and _CLAUSE_GOES_ON_RE.match(old_text, m.end())
            and re.search(r"\b(?:is|are|was|were)\s+(?:our|the|a|an|their|his|her)\s+$",
                          old_text[: m.start()])
        ):  # fmt: skip
            return True
    return False


def _appended(old_text: str, item: str) -> Edit | None:
    """The older text with ``item`` added last to its one list joined by "and" ("Wednesday
    Year 12 chemistry group with Priya: Ella, Ravi and Noor", then "Jonah Mensah joins the …
    group": "…: Ella, Ravi, Noor and Jonah Mensah"), or None: the item is of the list's items'
    shape and not in it yet."""
    listed = _joined_items(old_text)
    if len(listed) < 2 or _shape(item) != _shape(listed[0]) or _spans(old_text, item):
        return None
    found = [m for m in _LIST_RE.finditer(old_text) if re.search(r" (?:and|&) ", m.group(0))]
    if len(found) != 1:
        return None
    m = found[0]
    last = list(re.finditer(r",? (?:and|&) ", m.group(0)))[-1]
    # the last item's aside stays with it: "Fiona Reyes (treasurer) and Jae-won Park"
    aside = re.match(r"\s*\([^()]*\)", old_text[m.end() :])
    said = aside.group(0) if aside else ""
    joined = (
        f"{m.group(0)[: last.start()]}, {m.group(0)[last.end() :]}{said}{last.group(0).lstrip(',')}"
    )
    return Edit(old_text[: m.start()] + joined + item + old_text[m.end() + len(said) :])


# a count of things right before what was done with them: "102 jobs closed", "40 sold"
# ("Cold room 2 no longer holds buffers": a number after a word names the thing, no count)
_TALLY_RE = re.compile(r"(?<![A-Za-z] )\b\d[\d,]*\s+(?:[\w'’-]+\s+){0,2}$")
# a label whose value says the item went: "Memcached: removed", "Ben: left the team"
_LABEL_GONE_RE = re.compile(r"^\s*(?P<item>[^:;,.\n]{1,40}?)\s*:\s+(?P<rest>.+)$", re.S)


def _unlabel(text: str) -> str:
    """A note told as a label whose value says its item went ("Memcached: removed", "Ben:
    gone") read as a clause ("Memcached removed"); any other text as it is."""
    m = _LABEL_GONE_RE.match(text)
    if m is None:
        return text
    rest = re.sub(r"^gone\b", "is gone", m.group("rest"), flags=re.I)
    if REMOVED_RE.match(rest) is None:
        return text
    return f"{m.group('item')} {rest}"


# an item said to come besides those there: "… as well", "… too"
_ALSO_RE = re.compile(r"\s+(?:as well|too)\b(?=\s*(?:[,.;]|$))", re.I)


def _added(clause: str, old_text: str) -> list[str]:
    """The item a clause says came ("Dave joined", "took up football"), when the clause says
    nothing else the older text does not (the item of the list's shape, not in it yet)."""
    cue = ADDED_RE.search(clause)
    if cue is None:
        # "We now cover Perivale as well" for "We cover Ealing, Greenford and Northolt": the
        # item said before "as well", every other word of the clause the list's own
        also = _ALSO_RE.search(clause)
        item = _item_run(clause[: also.start()], old_text, last=True) if also else ""
        if not item or not _about_old(clause, [item], also.group(0), old_text):
            return []
        kind = gazetteer.kind(item)
        if kind is not None and any(gazetteer.kind(i) != kind for i in _list_items(old_text)):
            return []
        return [item]
    after = _item_run(clause[cue.end() :], old_text)
    before = _item_run(clause[: cue.start()], old_text, last=True)
    # who takes a place is said before it: "Rosa Kemp is taking his weeks from October"
    took = re.match(r"(?:took|takes|taking|take|replace)", cue.group(0), re.I)
    item = (before or after) if took else (after or before)
    if not item or not _about_old(clause, [item], cue.group(0), old_text):
        return []
    # a name of a kind the list's items are not ("he moved to Lisbon" for a team of people)
    kind = gazetteer.kind(item)
    if kind is not None and any(gazetteer.kind(i) != kind for i in _list_items(old_text)):
        return []
    if _digits(item) and not any(map(_digits, _list_items(old_text))):
        return []  # "Palletways collection moved to 17:15" adds no time to a list of carriers
    return [item]


def _digits(text: str) -> bool:
    return any(ch.isdigit() for ch in text)


def _item_run(side: str, old_text: str, last: bool = False) -> str:
    """The first (or, with ``last``, the last) run of up to three words of one name's shape
    in ``side`` that the older text does not hold (a plain word when no name is)."""
    runs: list[list[str]] = [[]]
    for raw in side.split():
        w = raw.strip(",.;:!?\"'()")
        fresh = bool(w) and w.lower() not in cw.STOP and w.lower() not in _IDLE
        fresh = fresh and not _spans(old_text, w)
        if not fresh:
            runs.append([])
        elif runs[-1] and _shape(w) and _shape(runs[-1][-1]) and len(runs[-1]) < _MAX_ITEM_WORDS:
            runs[-1].append(w)
        else:
            runs.append([w])
    named = [r for r in runs if r and _shape(r[0])]
    plain = [r for r in runs if r and not _shape(r[0])]
    pick = named or plain[:1]
    if not pick:
        return ""
    return " ".join(pick[-1] if last else pick[0])


def _name_run(item: str, text: str) -> str:
    """``item`` with the capitalised words that follow it in ``text`` (once said there): a name
    said short is the whole name ("Kindle" of "a Kindle Paperwhite")."""
    spans = _spans(text, item)
    if len(spans) != 1 or not item[:1].isupper():
        return item
    more = re.match(r"(?:\s+(?!(?:And|Or)\b)[A-Z][\w'’-]*)+", text[spans[0][1] :])
    return item + more.group(0) if more else item


def _items_before(text: str, item: str) -> bool:
    """Whether ``text`` lists items before ``item`` in its sentence, commas between them and a
    conjunction right before it ("Front desk sells Grenade bars, Myprotein shakes and Huel")."""
    spans = _spans(text, item)
    if len(spans) != 1:
        return False
    start = spans[0][0]
    begun = max((m.end() for m in re.finditer(r"[.;:!?]\s", text[:start])), default=0)
    before = text[begun:start]
    return bool(re.search(r",\s*[^,]+\s(?:and|or|&)\s+$", before))


def _list_items(text: str) -> list[str]:
    """The words of ``text`` that stand in a list ("Ana, Ben and Carla": the three names)."""
    out = []
    for m in re.finditer(r"[\w$€£@#+'’-]+(?:\.\w+)*", text):
        word = m.group(0)
        if word.lower() not in cw.STOP and _in_list(text, m.start(), m.end()):
            out.append(word)
    return out


_WORD = r"[\w$€£@#+'’-]+(?:\.\w+)*"
_ITEM = rf"(?:[A-Z0-9][\w$€£@#+'’-]*(?:\.\w+)*(?: [A-Z]{_WORD})?|{_WORD})"
_LIST_RE = re.compile(rf"(?:{_ITEM}, )*{_ITEM},? (?:and|or|&) {_ITEM}")


_ASIDE_RE = re.compile(r"\s*\([^()]*\)")
# a title before a name, which would end a list item at its full stop
_TITLE_RE = re.compile(rf"\b(?:{'|'.join(t.capitalize() for t in TITLES)})\.? (?=[A-Z])")
_HOW_OFTEN = frozenset(
    ["usually", "often", "always", "never", "sometimes", "rarely", "mostly", "mainly"]
    + ["generally", "typically", "normally", "also", "then", "still"]
)


# the end of a firm's name: "Bloom & Co", "Hughes and Sons", "Moss & Partners"
_FIRM_RE = re.compile(
    r"\s+(?:&|and)\s+(?:Co|Company|Son|Sons|Daughters|Partners|Associates)\b\.?(?!\w)"
)


# two names joined by "&" and nothing else: a firm's name, no list
_TWO_NAMES_AMP_RE = re.compile(
    r"[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)? & [A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?"
)


def _joined_items(text: str) -> list[str]:
    """The items of the lists of ``text`` joined by a conjunction, all of one shape ("Ana,
    Ben and Carla", "piano, swim and chess"; not the clauses of "Wise, IBAN ending 7731")."""
    out: list[str] = []
    text = _ASIDE_RE.sub("", text)  # "Acme Outdoor (website redesign), Lumen Studio (…) and …"
    text = _TITLE_RE.sub("", text)  # "Prof. Okafor, Dr. Marcus Feld and Dr. Priya Raman"
    text = _FIRM_RE.sub("", text)  # "Bloom & Co" is one firm
    for m in _LIST_RE.finditer(text):
        if _TWO_NAMES_AMP_RE.fullmatch(m.group(0)):
            continue  # "Hall & Woodhouse", "Marks & Spencer": one firm's name
        items = [i.strip() for i in re.split(r",? (?:and|or|&) |, ", m.group(0)) if i.strip()]
        items = [re.sub(r"^(?:both|either) ", "", i, flags=re.I) for i in items]
        # "6 euros, red or white": a number's unit is no item of the list after it
        if re.search(r"\d\s*$", text[: m.start()]) and "," in m.group(0):
            items = items[1:]
        if len(items) < 2:
            continue
        if any(i.lower() in cw.STOP or i.lower() in cw.PRONOUNS for i in items):
            continue
        if any(i.lower() in cw.ADVERBS or i.lower() in _HOW_OFTEN for i in items):
            continue  # "$16 an hour and usually does Friday nights": two clauses, no list
        if len({_shape(i) for i in items}) == 1:
            out += items
    return out


# what a list of things left out opens with: "no meat or fish", "neither tea nor coffee"
_NONE_OF_RE = re.compile(r"\b(?:no|not|neither|never|without)\s+$", re.I)


def none_named(new_text: str, old_text: str) -> bool:
    """Whether the older text is a list of three things or more, by name, and the newer note
    names none of them ("Retail stock is ordered from Brookfield Wholesale" for "On the
    retail shelf we stock Olaplex, Kevin Murphy and Moroccanoil"): no new list, nor one item of
    it changed."""
    items = [i for i in _joined_items(old_text) if i[:1].isupper()]
    if len(items) < 3:
        return False
    said = new_text.lower()
    return not any(w.lower() in said for i in items for w in i.split() if len(w) > 2)


def about_one_item(new_text: str, old_text: str) -> bool:
    """Whether the newer note speaks of some items of a list of the older text, not of the
    list ("Ben is the team lead now", "The kids had a piano recital" for "Kids do piano, swim
    and chess"): it names some of the items but not all, lists nothing itself and does not
    say it is the whole of it ("only Redis"). Such a note never replaces the entry whole."""
    if not _may_list(old_text):
        return False
    listed = _joined_items(old_text)
    # a list of the new note's own, of the same shape ("The committee is Okafor, Feld and
    # Ibarra"), is the whole of it; not "leaving for industry and steps down"
    if len(listed) < 2 or any(_shape(i) == _shape(listed[0]) for i in _joined_items(new_text)):
        return False
    first = min((sp for i in listed for sp in _spans(old_text, i)), default=None)
    if first is not None and _NONE_OF_RE.search(old_text[: first[0]]):
        return False  # "vegetarian: no meat or fish" lists what is left out: a rule, no items
    named = [i for i in listed if _spans(new_text, i) or _first_name_of(i, listed, new_text)]
    if any(
        re.search(
            _ONLY_BEFORE + re.escape(i) + r"\b|\b" + re.escape(i) + _ONLY_AFTER, new_text, re.I
        )
        for i in named
    ):
        return False
    return 0 < len(named) < len(listed)


def _first_name_of(item: str, listed: list[str], text: str) -> bool:
    """Whether ``text`` names ``item``, a name of two or more words, by its first word alone
    ("Acme" for "Acme Outdoor", "Lumen" for "Lumen Studio"), no other item starting with it."""
    words = item.split()
    if len(words) < 2 or not all(_shape(w) for w in words) or words[0].lower() in cw.STOP:
        return False
    if sum(1 for i in listed if i.split()[0] == words[0]) > 1:
        return False
    return re.search(r"(?<![\w.-])" + re.escape(words[0]) + r"(?![\w-])", text) is not None


_COUNT_WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
# the count of a list said before it: "four meeting rooms: Orchid, Fern, Maple and Birch"
_COUNT_BEFORE_RE = re.compile(
    rf"\b(?P<n>{'|'.join(_COUNT_WORDS)}|\d{{1,2}})\s+(?:[\w'’-]+\s+){{0,2}}[\w'’-]+\s*:", re.I
)


def _recount(old_text: str, text: str) -> str:
    """``text`` (the older text with its list edited) with the count said before the list
    made the count of its items: "four meeting rooms: Orchid, Fern, Maple and Birch" less
    Birch is "three meeting rooms: …"."""
    m = _COUNT_BEFORE_RE.search(text)
    before, after = len(_joined_items(old_text)), len(_joined_items(text))
    if m is None or before == after or after < 2:
        return text
    said = m.group("n")
    number = int(said) if said.isdigit() else _COUNT_WORDS.index(said.lower()) + 2
    if number != before or after > len(_COUNT_WORDS) + 1:
        return text
    word = str(after) if said.isdigit() else _COUNT_WORDS[after - 2]
    word = word.capitalize() if said[:1].isupper() else word
    return text[: m.start("n")] + word + text[m.end("n") :]


def _agree(old_text: str, text: str) -> str:
    """One item left where a list was the subject: "Ana and Ben are the admins" -> "Ana is
    the admins"; "Both Ana and Ben have prod access" -> "Ana has prod access"."""
    if not re.match(r"(?:both\s+)?\S+(?:\s\S+)?(?:,\s*\S+)*,?\s+(?:and|&)\s+", old_text, re.I):
        return text
    m = re.match(r"(?:both\s+)?(\S+(?:\s\S+)?)\s+(are|have|were|do|live|work)\b", text, re.I)
    if m is None or re.search(r"\s(?:and|&)\s|,", m.group(1)):
        return text
    verb = {"are": "is", "have": "has", "were": "was", "do": "does", "live": "lives",
            "work": "works"}[m.group(2).lower()]  # fmt: skip
    return f"{m.group(1)} {verb}{text[m.end() :]}"


def _take_out(old_text: str, item: str, new: str = "") -> Edit | None:
    for s, e in _spans(old_text, item):
        cut = _in_list(old_text, s, e)
        if cut is None:
            continue
        text = old_text[:s] + new + old_text[e:] if new else cut[0]
        return Edit(_tidy(text))
    return None


def _numbers_apart(new_text: str, old_text: str) -> bool:
    """Whether each text says a number the other does not."""
    new = {t for t in tokens(new_text) if any(ch.isdigit() for ch in t)}
    old = {t for t in tokens(old_text) if any(ch.isdigit() for ch in t)}
    return bool(new - old) and bool(old - new)


def _swap(clause: str, old_text: str) -> Edit | None:
    for rx in SWAP_RES:
        m = rx.search(clause)
        if m is None:
            continue
        # "has replaced Tomasz on the Saturday bar rota": what follows says where
        old_item = re.split(r"\s+(?:in|on|at|across|since|as of|from now)\b|,", m.group("old"))[0]
        old_item = old_item.strip(" ,.")
        new_item = re.split(r"\s+(?:for|in|on|at|across|since|as of|from now)\b|,", m.group("new"))
        new_item_text = _TRAILING_RE.sub("", new_item[0]).strip(" ,.")
        if m.start("new") == 0 and new_item_text[:1].isupper() and old_item[:1].islower():
            new_item_text = new_item_text[:1].lower() + new_item_text[1:]  # a sentence's capital
        old_item = re.sub(r"^(?:the|our|my|a|an)\s+", "", old_item, flags=re.I)
        # "replaced Safari support with Edge support": the items are Safari and Edge
        while len(old_item.split()) > 1 and old_item.split()[-1] == new_item_text.split()[-1]:
            old_item, new_item_text = old_item.rsplit(" ", 1)[0], new_item_text.rsplit(" ", 1)[0]
        if not old_item or not new_item_text or len(new_item_text.split()) > _MAX_ITEM_WORDS:
            continue
        if len(old_item.split()) > _MAX_ITEM_WORDS:
            continue
        if not any(_in_list(old_text, s, e) for s, e in _spans(old_text, old_item)):
            continue
        rest = clause[: m.start()] + " " + clause[m.end() :]
        if not _about_old(rest, [], "", old_text):
            return None
        if _spans(old_text, new_item_text):  # replaced by an item already listed: it went
            if not any(_spans(new_item_text, i) for i in _list_items(old_text)):
                return None
            return _take_out(old_text, old_item)
        return _take_out(old_text, old_item, new_item_text)
    return None


def _tidy(text: str) -> str:
    return re.sub(r"\s+([,.;:])", r"\1", re.sub(r"\s{2,}", " ", text)).strip()


def partial(new_text: str, old_text: str) -> bool:
    """Whether the newer note says one item of a list of the older text went, and names no
    value the older one lacks: the entry is not replaced whole (that would drop the other
    items), even where :func:`edited` cannot rewrite it ("Ben left the company" for "Our team
    members are Ana, Ben and Carla"; "The CI no longer runs e2e tests" for "The CI runs lint,
    unit tests and e2e tests")."""
    if not _may_list(old_text) or not REMOVED_RE.search(new_text):
        return False
    if any(rx.search(new_text) for rx in SWAP_RES):
        return False
    low = old_text.lower()
    if any(t.lower() not in low for t in tokens(new_text) if _shape(t)):
        return False
    for clause in _clauses(new_text):
        if REMOVED_RE.search(clause) and _removed_items(clause, old_text, loose=True):
            return True
    return False
