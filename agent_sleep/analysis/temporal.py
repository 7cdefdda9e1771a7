"""Temporal anchors: resolve relative times against a log's date, and find temporal expressions.

Daily logs are dated, so "yesterday" written in the log of 2023-05-08 means 2023-05-07. Before any
model (offline or remote) sees a note, :func:`resolve` keeps the writer's words and appends the
date they mean: ``"yesterday"`` -> ``"yesterday (2023-05-07)"``. Resolution is deterministic and
idempotent (an expression already followed by a parenthesised date is left alone).

An amount of days, weeks, months or years is counted back ("3 days ago", "a couple of weeks
ago") or ahead ("in 2 weeks", "two weeks from now", "a month from today"). "A couple" is two.
"A few" is vaguer: it resolves to the range two to four would give, earliest first, so no
precise day is invented ("a few days ago" in the log of 2023-05-08 is "a few days ago
(2023-05-04 to 2023-05-06)"). "Several" and "some" are vaguer still and are kept as written.

A bare weekday ("on Friday") is resolved only when its sentence says which way it points
(:func:`_bare_weekday`): "I won the tournament on Friday" in the log of Sunday 2022-07-10 is
the Friday before (2022-07-08); "the boxes will arrive Thursday" in Monday's log the Thursday
after. A weekday of a habit ("every Friday", "on Fridays", "the weekly sync is on Monday"), a
move to a weekday ("practice moved to Saturday", which is a schedule, not a day), the day a
schedule moved from ("moved the class from Monday"), a weekday that names the log's own day, or
a sentence that reads both ways is kept as written. "From Monday the class will be 9 to 10" is
the Monday after: the day a change starts.

:func:`extract` lists the temporal expressions of a text (dates, times, durations, ages,
relative expressions) for the preservation metric of the consolidation benchmark.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass

_NUM_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
# as written short ("Tue–Sat", "Nov 16"); "may" is the month itself
SHORT_WEEKDAYS = (*(d[:3] for d in WEEKDAYS), "tues", "thur", "thurs")
SHORT_MONTHS = (*(m[:3] for m in MONTHS if m != "may"), "sept")
# Month names count only capitalised, so the verb "may" is not a date.
MONTH_RE = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?(?![A-Za-z])"
)  # not the start of a longer word ("Maria", "Junior")
# a day of a month in words, no year: "18 October", "18th of October", "October 18th"
DAY_OF_MONTH = (
    rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH_RE}"
    rf"|\b{MONTH_RE}\s+\d{{1,2}}(?:st|nd|rd|th)?\b"
)
_NUM_RE = r"(?:\d{1,3}|" + "|".join(_NUM_WORDS) + r")"
# an amount said vaguely (see the module docstring): "a couple of" is two, "a few" two to four
_VAGUE_RE = r"(?:a )?couple(?: of)?|a few"
_AMOUNT_RE = rf"(?:{_VAGUE_RE}|{_NUM_RE})"
_FEW = (2, 4)
_UNITS = "day|week|month|year"
_UNIT_RE = rf"(?:{_UNITS})s?"
# An expression already resolved is followed by " (2023-05-07)" or " (week of …)" etc.
# (or the writer already said the date in brackets: "next Monday (Nov 9)", "Friday (the 13th)")
_RESOLVED_AFTER = re.compile(
    r"^ \((?:\d|week of|weekend of|the \d|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)"
    r"[a-z]*\.? ?\d)",
    re.I,
)


def day_name(word: str) -> bool:
    """Whether ``word`` is a month or a weekday, in full or short, a weekday said plural too
    ("Oct", "Wed", "Fridays"); punctuation after it aside."""
    low = word.strip().lower().rstrip(".,;:")
    return (
        low in MONTHS
        or low in SHORT_MONTHS
        or low.removesuffix("s") in WEEKDAYS
        or low in SHORT_WEEKDAYS
    )


def _shift_months(day: dt.date, months: int) -> dt.date:
    y, m = divmod(day.month - 1 + months, 12)
    year, month = day.year + y, m + 1
    for d in (day.day, 30, 29, 28):
        try:
            return dt.date(year, month, d)
        except ValueError:
            continue
    raise ValueError("unreachable")


def _monday(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


def _num(word: str) -> int:
    w = word.lower()
    if "couple" in w:
        return 2
    return int(w) if w.isdigit() else _NUM_WORDS[w]


def _shifted(day: dt.date, unit: str, n: int) -> str:
    """``day`` moved by ``n`` units, as precise as the unit: a day for days and weeks, a
    month for months, a year for years."""
    if unit == "day":
        return (day + dt.timedelta(days=n)).isoformat()
    if unit == "week":
        return (day + dt.timedelta(weeks=n)).isoformat()
    if unit == "month":
        return _shift_months(day, n).strftime("%Y-%m")
    return str(day.year + n)


def _ago(m: re.Match[str], day: dt.date, sign: int) -> str:
    """The date "3 days ago" (``sign`` -1) or "in 3 days" (1) means; for "a few days ago",
    the range it may mean, earliest first: "2023-05-04 to 2023-05-06"."""
    unit = m.group("unit").lower().rstrip("s")
    if m.group("n").lower() == "a few":
        near, far = (_shifted(day, unit, k * sign) for k in _FEW)
        return f"{far} to {near}" if sign < 0 else f"{near} to {far}"
    return _shifted(day, unit, _num(m.group("n")) * sign)


def _weekday(m: re.Match[str], day: dt.date) -> str:
    which = m.group("which").lower()
    target = WEEKDAYS.index(m.group("wd").lower())
    if which == "last":
        back = (day.weekday() - target) % 7 or 7
        return (day - dt.timedelta(days=back)).isoformat()
    if which == "next":
        ahead = (target - day.weekday()) % 7 or 7
        return (day + dt.timedelta(days=ahead)).isoformat()
    return (_monday(day) + dt.timedelta(days=target)).isoformat()  # "this"


def _weekend(m: re.Match[str], day: dt.date) -> str:
    which = m.group("which").lower()
    saturday = _monday(day) + dt.timedelta(days=5)
    if which == "last":
        saturday -= dt.timedelta(weeks=1)
    elif which == "next":
        saturday += dt.timedelta(weeks=1)
    return f"weekend of {saturday.isoformat()}"


def _week(m: re.Match[str], day: dt.date) -> str:
    delta = {"last": -1, "this": 0, "next": 1}[m.group("which").lower()]
    return f"week of {(_monday(day) + dt.timedelta(weeks=delta)).isoformat()}"


def _month(m: re.Match[str], day: dt.date) -> str:
    delta = {"last": -1, "this": 0, "next": 1}[m.group("which").lower()]
    return _shift_months(day.replace(day=1), delta).strftime("%Y-%m")


def _year(m: re.Match[str], day: dt.date) -> str:
    delta = {"last": -1, "this": 0, "next": 1}[m.group("which").lower()]
    return str(day.year + delta)


# The tense of a sentence, read from its words: a past form, or a time to come. A "-ed" word
# counts as past unless a form of "be" or "get" comes before it ("is scheduled for Friday").
_PAST_RE = re.compile(
    r"\b(?:was|were|did|had|went|came|met|got|saw|left|took|made|gave|found|bought|"
    r"ran|began|flew|drove|won|lost|sent|spent|paid|heard|felt|kept|brought|thought|wrote|"
    r"broke|fell|sold|built|caught|chose|ate|drank|sang|swam|slept|woke|wore|rode|became|"
    r"forgot|taught|threw|stood|sat|led|hit|quit|ago|yesterday)\b",
    re.I,
)
_ED_RE = re.compile(r"\b(?P<before>\w+(?:['’]\w+)?)?\s*\b(?P<word>[a-z]{3,}ed)\b", re.I)
_NOT_PAST_BEFORE = frozenset(["am", "is", "are", "be", "been", "being", "get", "gets", "will"])
# a past act of saying or planning tells nothing of when what it is about happens ("mentioned
# his kids have a parade Friday", "booked a table for Friday")
_SAID_RE = re.compile(
    r"\b(?:said|told|mentioned|noted|confirmed|announced|reminded|asked|agreed|decided|"
    r"planned|promised|scheduled|booked|emailed|texted|messaged|warned|explained|suggested|"
    r"proposed|reported|wrote|heard|learned|learnt|reserved|arranged|organized|organised)\b",
    re.I,
)
_BE_ENDINGS = ("'s", "'re", "'m", "’s", "’re", "’m")
_FUTURE_RE = re.compile(
    r"(?:\b(?:will|shall|gonna|going to|plan(?:s|ning)? to|ready to|due|tomorrow|next|"
    r"upcoming)\b"
    r"|['’]ll\b|\b(?:am|is|are|['’]re|['’]m|['’]s) \w+ing\b"
    r"|\b(?:scheduled|planned|booked|slated|set) for\b)",
    re.I,
)
# a habit or a schedule, not a day: every / each Friday, Fridays, weekly, a move to a day
_HABIT_RE = re.compile(
    r"\b(?:every|each|weekly|usually|always|often|normally|(?:mon|tues|wednes|thurs|fri|satur|"
    r"sun)days|weekdays|weekends|from now on|in future|going forward|henceforth)\b",
    re.I,
)
# what recurs: "every Saturday", "on Thursdays", "a standing slot", "twice a week", "weekly"
ROUTINE_RE = re.compile(
    r"\b(?:every|each) (?:other |second |\w+day|day|week|month|morning|evening|night|fortnight)"
    # "the first Friday of the month", "last Tuesday of each month"
    r"|\b(?:first|second|third|fourth|last) (?:mon|tues|wednes|thurs|fri|satur|sun)day of "
    r"(?:the|each|every) month\b"
    r"|\b(?:weekly|daily|nightly|fortnightly|monthly|standing|(?:mon|tues|wednes|thurs|fri|"
    r"satur|sun)days|weekdays|weekends|(?:once|twice|\w+ times) a (?:day|week|month))\b"
    # what recurs on a weekday, named by it: "the Striders' Tuesday runs", "Saturday visits"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day "
    r"(?!(?:is|was|has|does|goes|gets)\b)[a-z]{3,}s\b",
    re.I,
)
_BARE_WEEKDAY_RE = re.compile(
    rf"(?<![\w-])(?P<prep>(?i:on|by|until|till|before|after|to|from|for|since) )?"
    rf"(?P<wd>{'|'.join(w.title() for w in WEEKDAYS)}|{'|'.join(WEEKDAYS)})"
    r"(?P<part> (?:morning|afternoon|evening|night))?(?![\w-])(?!['’](?!s\b))"
)
_SENTENCE_END_RE = re.compile(r"[.!?;]\s|\n")


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` holding ``text[start:end]``."""
    begin = max((m.end() for m in _SENTENCE_END_RE.finditer(text, 0, start)), default=0)
    stop = _SENTENCE_END_RE.search(text, end)
    return text[begin : stop.start() + 1 if stop else len(text)]


def tense(sentence: str) -> int:
    """-1 when ``sentence`` speaks of the past, 1 of a time to come, 0 when it does not say
    or says both (a past act of saying or planning, "mentioned", "booked", says neither)."""
    told = _SAID_RE.sub(" ", sentence)
    past = bool(_PAST_RE.search(told)) or any(
        not (b in _NOT_PAST_BEFORE or b.endswith(_BE_ENDINGS))
        for b in ((m.group("before") or "").lower() for m in _ED_RE.finditer(told))
    )
    future = bool(_FUTURE_RE.search(sentence))
    return 0 if past == future else -1 if past else 1


# a weekday that names what recurs on it, in a change of its schedule ("shifted Sofia's
# Saturday ballet class to 11:30"): a lower-case word after it that is no word of a clause
# ("Leo's Sunday practice went well" is last Sunday's)
_RESCHEDULED_RE = re.compile(
    r"\b(?:shift|mov|reschedul|chang|push|switch|swap|bump|cancel|postpon)\w*\b|\binstead of\b",
    re.I,
)
# (past a word of when: "the Friday late clinic will finish at 6:30pm instead of 7pm")
_NAMED_BY_DAY_RE = re.compile(r" (?:(?:late|early) )?([a-z]{3,})\b")
_NOT_NOUNS = frozenset(
    """and but the for with was were will would are has had have not she him her his they them
    you your our their its that this then than when what who too also all any both each just
    only once again already still soon late early off out over into onto from around about
    before after until till since while who's she's he's it's""".split()  # noqa: SIM905
)


# weekdays joined into a list or a span name days that recur, not one date
_WEEKDAY_NAMES = "|".join((*WEEKDAYS, *SHORT_WEEKDAYS))
_JOIN = r"\s*(?:/|&|-|–|—|,)\s*|\s+(?:and|or|to|through|thru)\s+"
_WEEKDAY_JOINED_AFTER_RE = re.compile(rf"(?:{_JOIN})(?:{_WEEKDAY_NAMES})\b", re.I)
_WEEKDAY_JOINED_BEFORE_RE = re.compile(rf"\b(?:{_WEEKDAY_NAMES})(?:{_JOIN})$", re.I)
# a weekday before a plural time of day or occasion names a slot that recurs, a habit: "will do
# Saturday nights from 3 October" ("See you Saturday night" is one night, and is resolved)
_RECURRING_SLOT_RE = re.compile(
    r" (?:mornings|afternoons|evenings|nights|overnights|lunchtimes|shifts|sessions|classes"
    r"|lessons|slots|rotas|walks|visits|rounds"
    # a group named by its day: "joining the Wednesday team", "the Saturday crew"
    r"|team|crew|squad|gang"
    # one whose work is of every such day: "Kieran Doyle will be Saturday supervisor"
    r"|supervisor|manager|lead|leader|cover|staff|boy|girl|person|volunteers?|helpers?|"
    r"drivers?|opener|closer|keyholder|"
    # what is of every such day: "Saturday market range is sourdough, rye …"
    r"markets?|stalls?|range|menu|hours|opening|club|clinic|surgery)\b"
    # "the Saturday bar rota", "the Saturday shed rota": a rota is of every such day
    r"| (?:[a-z]+ )?rota\b",
    re.I,
)
# "until Monday" after a verb of holding something off points ahead, whatever the tense: "Held
# the docs deploy until Monday" in Friday's log is the Monday after ("I was off sick until
# Monday" is a past state that ended, the Monday before). Read in the clause "until" ends.
_HELD_OFF_RE = re.compile(
    r"\b(?:h[eo]ld(?:s|ing)?|froze|frozen|put(?:s|ting)? (?:\w+ ){0,3}?(?:off|back)"
    r"|(?:paus|postpon|delay|defer|push|park|block|extend|suspend|shelv|lock|mov|bump|freez)"
    r"(?:e|es|ed|ing|s|red|ring)?)\b",
    re.I,
)
_CLAUSE_BREAK_RE = re.compile(
    r"[,:;()—–]|\b(?:because|since|as|so|but|when|while|though|although|after|then)\b", re.I
)


def _bare_weekday(text: str, m: re.Match[str], day: dt.date) -> str | None:
    """The date a weekday with no "last" / "next" / "this" means, seen from ``day``: the one
    before when its sentence speaks of the past, the one after when of a time to come; None
    (kept as written) for a habit, a move to a day, the log's own weekday, or no clear tense."""
    prep = (m.group("prep") or "").strip().lower()
    if prep == "to":  # "moved to Saturday": a new schedule, not a date
        return None
    if prep == "from" and tense(_sentence(text, m.start(), m.end())) <= 0:
        return None  # "moved from Monday": the old schedule; "from Monday it will be…" is a day

    before = text[: m.start("wd")]
    if re.search(r"\bthat\s+$", before, re.I):
        return None  # "Dev will cover the stall that Saturday": the day said before it
    if re.search(
        r"\b(?:last|next|this|every|each|first|second|third|fourth|final)\s+$", before, re.I
    ):
        return None  # "the first Tuesday" of each month: a habit
    if not m.group("prep") and _DAY_IS_RE.search(before):
        return None  # "Jake's college day is now Thursday": the day of the week it falls on
    if re.search(r"\b[A-Z][a-z]+\s+$", before) and not m.group("prep"):
        return None  # a day's name ("Black Friday", "Good Friday"), not a weekday
    after = text[m.end() : m.end() + 16]
    if re.match(r",? *(?:\d|\(|(?:the )?\d|" + MONTH_RE + ")", after):  # "Friday, March 13"
        return None
    if not m.group("prep") and re.match(r" (?!I\b)[A-Z][a-z]", after):
        return None  # a word of a name ("Sunday Social meets at …", "Sunday Parish Communion")
    if _WEEKDAY_JOINED_AFTER_RE.match(text, m.end()) or _WEEKDAY_JOINED_BEFORE_RE.search(before):
        return None  # "the Tuesday/Friday milk run", "Monday and Wednesday": a schedule
    if _RECURRING_SLOT_RE.match(text, m.end()):
        return None  # "Saturday nights", "Tuesday morning shifts": a habit
    sentence = _sentence(text, m.start(), m.end())
    named = _NAMED_BY_DAY_RE.match(text, m.end())
    if (
        not m.group("prep")
        and not m.group("part")
        and named
        and named.group(1) not in _NOT_NOUNS
        and _RESCHEDULED_RE.search(sentence)
    ):
        return None  # "shifted Sofia's Saturday ballet class": the class of every Saturday
    if _HABIT_RE.search(sentence):
        return None
    if not m.group("prep") and CALENDAR_DATE_RE.search(sentence):
        return None  # "publication for 18 October (Sunday edition)": the date says when
    target = WEEKDAYS.index(m.group("wd").lower())
    if target == day.weekday():
        return None  # "on Friday" in Friday's log: today, or a week away
    begin = max((e.end() for e in _SENTENCE_END_RE.finditer(text, 0, m.start())), default=0)
    deadline = prep in ("by", "until", "till") and not _PAST_RE.search(sentence)
    if prep in ("until", "till") and not deadline:
        clause = _CLAUSE_BREAK_RE.split(text[begin : m.start()])[-1]
        deadline = bool(_HELD_OFF_RE.search(clause))  # "Held the deploy until Monday"
    ahead = text[begin : m.start("wd")]
    if deadline or _SCHEDULED_ON_RE.search(ahead) or _WISHED_ON_RE.search(ahead):
        way = 1
    else:
        way = tense(_PERFECT_RE.sub(" is ", sentence))
    if prep == "for" and way < 0:
        return None  # "raised the limit for Friday": a day ahead, whatever the verb
    if way < 0:
        return (day - dt.timedelta(days=(day.weekday() - target) % 7)).isoformat()
    if way > 0 and _NEXT_WEEK_RE.search(text, begin, m.start()):
        # "Next week: EHO visit on Thursday, Hartley dinner on Saturday": both in that week
        return (_monday(day) + dt.timedelta(weeks=1, days=target)).isoformat()
    if way > 0:
        return (day + dt.timedelta(days=(target - day.weekday()) % 7)).isoformat()
    return None


# two or more ordinals joined: "the first and third Saturday", "1st, 2nd and 4th": days of a
# month, no list of things (read by lists and currency)
ORDINAL = r"(?:first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)"
ORDINALS_JOINED_RE = re.compile(
    rf"\b{ORDINAL}(?:,\s*{ORDINAL})*,?\s+(?:and|or|&)\s+{ORDINAL}\b", re.I
)
_NEXT_WEEK_RE = re.compile(r"\bnext week\b(?!['’])", re.I)
# a verb of a timetable governing the day says it is to come, whatever else the sentence says:
# "Ordered 12 rolls, arriving Monday", "phased release starts Monday", "opens on Monday"
# ("started Monday" is past and is read by tense)
_SCHEDULED_ON_RE = re.compile(
    r"\b(?:arrives|arriving|starts|starting|begins|beginning|opens|opening|lands|landing"
    r"|launches|launching|ships|shipping|resumes|resuming|returns|returning|kicks off"
    r"|kicking off|goes live|going live"
    # the first or next of what is told of: "Moved our rose order over to Aalsmeer Direct,
    # first delivery Thursday"
    r"|(?:first|next)\s+[a-z]+(?:\s+(?:is|will\s+be|due))?)\s+(?:on\s+)?$",
    re.I,
)
# a wish for something done on a day is for a day to come: "Owen wants the crash cooled on
# Monday" ("cooled" is no past act here)
_WISHED_ON_RE = re.compile(
    r"\b(?:wants?|needs?|would like|['’]d like)\s+(?:\S+\s+){0,5}?[a-z]+ed\s+(?:on\s+|by\s+)?$",
    re.I,
)
# a present perfect speaks of now, and English gives it no day of the past ("we've switched
# from Greenfields, first Hillside drop Wednesday"): its participle is not read as past
_PERFECT_RE = re.compile(r"(?:\s+|(?<=\w))(?:have|has|['’]ve)\s+(?=(?:\w+\s+)?\w+ed\b)", re.I)
# a day of the calendar written out: "18 October", "October 18th", "2026-10-18"
CALENDAR_DATE_RE = re.compile(rf"{DAY_OF_MONTH}|\b\d{{4}}-\d{{2}}-\d{{2}}\b", re.I)
# the weekday a thing's day is: "bin day is Tuesday", "his college day is now Thursday"
_DAY_IS_RE = re.compile(
    r"\b(?!(?:the|that|this|a|one|which|what|each|every|any)\b)[a-z]+ day (?:is|are) "
    r"(?:now |still |always )?$",
    re.I,
)


def _fixed(days: int) -> object:
    return lambda m, day: (day + dt.timedelta(days=days)).isoformat()


_RULES: list[tuple[re.Pattern[str], object]] = [
    # before "today": "a week from today" is the week's end, not today ("from now on" is no date)
    (
        re.compile(
            rf"\b(?P<n>{_AMOUNT_RE}) (?P<unit>{_UNIT_RE}) from (?:now|today)\b(?! on\b)", re.I
        ),
        lambda m, day: _ago(m, day, 1),
    ),
    (re.compile(r"\bthe day before yesterday\b", re.I), _fixed(-2)),
    (re.compile(r"\bthe day after tomorrow\b", re.I), _fixed(2)),
    (re.compile(r"\byesterday\b", re.I), _fixed(-1)),
    # (not "Glasgow is the last night of the tour": the tour's last, no day before)
    (re.compile(r"(?<!\bthe )\blast night\b", re.I), _fixed(-1)),
    (re.compile(r"\btomorrow\b", re.I), _fixed(1)),
    (re.compile(r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b", re.I), _fixed(0)),
    (
        re.compile(rf"\b(?P<n>{_AMOUNT_RE}) (?P<unit>{_UNIT_RE}) ago\b", re.I),
        lambda m, day: _ago(m, day, -1),
    ),
    (
        re.compile(rf"\bin (?P<n>{_AMOUNT_RE}) (?P<unit>{_UNIT_RE})\b", re.I),
        lambda m, day: _ago(m, day, 1),
    ),
    (
        # (not "paid on the last Friday of the month": every month's; nor "Gemma's last
        # Saturday is tomorrow", her final one, nor "the last Saturday of term"; "her last
        # Saturday" may be either, and is read as the Saturday before)
        re.compile(
            rf"(?<!['’]s )(?<!\bthe )"
            rf"\b(?P<which>last|next|this) (?P<wd>{'|'.join(WEEKDAYS)})\b"
            r"(?!\s+of\s+(?:the|each|every)\s+month)",
            re.I,
        ),
        _weekday,
    ),
    # "over the next week", "for the last month": a span from the day, no calendar week
    (re.compile(r"(?<!\bthe )\b(?P<which>last|next|this) weekend\b", re.I), _weekend),
    (re.compile(r"(?<!\bthe )\b(?P<which>last|next|this) week\b", re.I), _week),
    (re.compile(r"(?<!\bthe )\b(?P<which>last|next|this) month\b", re.I), _month),
    (re.compile(r"(?<!\bthe )\b(?P<which>last|next|this) year\b", re.I), _year),
]


# a count of things right before "in N days": "three customer meetings ", "40 parcels "
_TALLY_BEFORE_RE = re.compile(rf"\b(?:{_NUM_RE}|\d[\d,]*) (?:[\w-]+ ){{0,2}}[\w-]+s $", re.I)


def resolve(text: str, day: dt.date) -> str:
    """``text`` with each relative time followed by the date it means, seen from ``day``."""
    spans: list[tuple[int, int, str]] = []
    for pattern, fn in _RULES:
        for m in pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e, _ in spans):
                continue
            # after a possessive: "this afternoon's (2026-11-08) upgrade", not "afternoon
            # (2026-11-08)'s"
            end = m.end() + (2 if text[m.end() : m.end() + 2] in ("'s", "’s") else 0)
            if _RESOLVED_AFTER.match(text[end:]):
                continue
            if m.group(0).lower().startswith("in ") and _TALLY_BEFORE_RE.search(text, 0, m.start()):
                continue  # "three customer meetings in two days": how long it took, no date
            value = fn(m, day)  # type: ignore[operator]
            spans.append((m.start(), end, f" ({value})"))
    for m in _BARE_WEEKDAY_RE.finditer(text):
        if any(s < m.end() and m.start() < e for s, e, _ in spans):
            continue
        end = m.end() + (2 if text[m.end() : m.end() + 2] in ("'s", "’s") else 0)
        if _RESOLVED_AFTER.match(text[end:]):
            continue
        value = _bare_weekday(text, m, day)
        if value is not None:
            spans.append((m.start(), end, f" ({value})"))
    for _start, end, add in sorted(spans, reverse=True):
        text = text[:end] + add + text[end:]
    return text


@dataclass(frozen=True)
class Expression:
    kind: str  # date, time, duration, age, relative
    text: str


_EXTRACT: list[tuple[str, re.Pattern[str]]] = [
    ("date", re.compile(r"\b\d{4}-\d{2}-\d{2}\b")),
    ("date", re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{MONTH_RE}(?:,? \d{{4}})?")),
    ("date", re.compile(rf"\b{MONTH_RE} \d{{1,2}}(?:st|nd|rd|th)?\b(?:,? \d{{4}})?")),
    ("date", re.compile(rf"\b(?:{'|'.join(m.title() for m in MONTHS)})(?:,? \d{{4}})?\b")),
    ("date", re.compile(r"\b(?:in|since|of|by|from|until) (?:19|20)\d{2}\b(?!-\d)", re.I)),
    ("time", re.compile(r"\b\d{1,2}(?::\d{2})? ?(?:am|pm|a\.m\.|p\.m\.)(?!\w)", re.I)),
    ("time", re.compile(r"\b(?:[01]?\d|2[0-3]):[0-5]\d\b")),
    ("age", re.compile(rf"\b{_NUM_RE}[- ]years?[- ]old\b", re.I)),
    ("age", re.compile(r"\b(?:aged?|turned|turning) \d{1,3}\b", re.I)),
    (
        "duration",
        re.compile(
            rf"\b(?:{_NUM_RE}|several|a few|a couple of) (?:minute|hour|{_UNITS})s?\b"
            r"(?! ago| old)",
            re.I,
        ),
    ),
    (
        "relative",
        re.compile(r"\b(?:yesterday|tomorrow|today|tonight|(?<!\bthe )last night)\b", re.I),
    ),
    (
        "relative",
        re.compile(
            rf"\b(?:last|next|this) (?:week(?:end)?|month|year|{'|'.join(WEEKDAYS)})\b", re.I
        ),
    ),
    (
        "relative",
        re.compile(
            rf"\b(?:{_AMOUNT_RE}|several) {_UNIT_RE} (?:ago|from (?:now|today)(?! on\b))\b", re.I
        ),
    ),
    ("relative", re.compile(rf"\b(?:on |every )?(?:{'|'.join(WEEKDAYS)})s?\b", re.I)),
]


def extract(text: str) -> list[Expression]:
    """The temporal expressions in ``text``, longest first where they overlap, in text order."""
    return list(_extracted(text))


@functools.lru_cache(maxsize=1 << 14)
def _extracted(text: str) -> tuple[Expression, ...]:
    """:func:`extract`, cached: sleep asks it of each sentence of a note several times."""
    found: list[tuple[int, int, str]] = []
    for kind, pattern in _EXTRACT:
        for m in pattern.finditer(text):
            found.append((m.start(), m.end(), kind))
    found.sort(key=lambda t: (t[0], -(t[1] - t[0])))
    out: list[Expression] = []
    last_end = -1
    for start, end, kind in found:
        if start < last_end:
            continue
        out.append(Expression(kind, text[start:end]))
        last_end = end
    return tuple(out)


def has_temporal(text: str) -> bool:
    return bool(extract(text))
