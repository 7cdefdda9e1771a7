"""A change told as one to come, and when it starts: what sleep reads of a plan.

"Standup moves to 10:15 starting next Monday (2026-11-16)" is a plan until that Monday
(:mod:`agent_sleep.consolidation.due` reads it as done once its day has come); "Sunday Parish
Communion moves to 10:15am from 20 September" is one until the 20th. A change told in the words
of one to come that is in force already is no plan: "Sunday Parish Communion moves to 10:15am"
(no day), "Choir will practise on Fridays instead of Thursdays, from this week", "Harvest supper
tickets will be £9.25 now". The offline consolidator's currency step reads those as told done
(:func:`read_now`), so they replace the value they change on the night they are slept.
"""

from __future__ import annotations

import datetime as dt
import re

from agent_sleep.analysis import change_words as cw
from agent_sleep.analysis import currency, lexical, temporal

# a day a change starts on, as sleep resolved it: "starting next Monday (2026-11-16)", "from
# December (2026-12)", "as of next week (week of 2026-11-16)", "effective tomorrow (…)"
_STARTS_RE = re.compile(
    r"\b(?:starting|from|as of|beginning|effective|begins|starts)\b[^().;!?]{0,40}?"
    r"\((?:week of |weekend of )?(\d{4}-\d{2}(?:-\d{2})?)\)",
    re.I,
)
# a day a change starts on, as written: "from 20 September", "starting Sunday 4 October",
# "as of October 1st" (sleep writes no date after a day of a month said without its year)
_STARTS_ON_RE = re.compile(
    r"\s*,?\s*\b(?:starting|from|as of|beginning|effective|begins|starts)\s+(?:on\s+)?"
    r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?"
    rf"(?:(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m>{temporal.MONTH_RE})"
    rf"|(?P<m2>{temporal.MONTH_RE})\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\b)"
    r"(?:,?\s+(?P<y>\d{4}))?(?!\s*(?:to|until|till|through|-|–)\b)",
    re.I,
)
# a change said as one to come, and the same change said as done
_TO_COME_RE = re.compile(
    r"\b(?:will |(?:is|are|am)\s+(?:going to\s+|set to\s+)?|['’](?:s|re|ll)\s+(?:going to\s+)?)?"
    r"(?P<stem>mov|chang|switch|shift)(?:e|es|ing)?\b"
    r"|\b(?:will |(?:is|are)\s+going to\s+)?(?P<become>becom)(?:e|es|ing)\b"
    # a price to come: "goes up to £95 a month", "will go down to £40"
    r"|\b(?:will |(?:is|are)\s+going to\s+)?(?P<go>go|goes|going)(?= (?:up|down) to\b)"
    # "will be" with the value it will be, or with the one it replaces: "will be £950",
    # "will be 9 to 10 instead of 8 to 9" (not "will be closed", which says no value)
    r"|(?P<be>\bwill be|['’]ll be)\b(?= (?:at |in |on |to )?[£$€]?\d"
    r"| [^.;!?]*\b(?:instead of|rather than|up from|down from)\b)"
    # "will" before another verb, with what it replaces: "will meet at Mytholm Bridge instead"
    r"|(?P<will>\bwill|['’]ll) (?=[a-z]+ [^.;!?]*\b(?:instead|rather than)\b)",
    re.I,
)
_DONE = {"mov": "moved", "chang": "changed", "switch": "switched", "shift": "shifted"}
# a change told in the present, as a timetable tells it: "Communion moves to 10:15am"
# (a verb before where or when it goes, not a noun: "the one we use for small flat moves")
_MOVES_RE = re.compile(
    r"\b(?:(?:moves|changes|switches|shifts)(?=\s+(?:to|from|back|forward|up|down|over|again|"
    r"into|onto|across|in|on|at|over)\b)|becomes)\b",
    re.I,
)
# what is to come, said so: "will", "'ll", "going to", "next week", "tomorrow", "soon" (in
# any case: "Next week the standup moves …"; "may" in lower case only, "May" is a month)
_AHEAD_RE = re.compile(
    r"\b(?i:will|won['’]t|going to|shall|next|soon|later|tomorrow|upcoming|plan(?:s|ned)?|hope|"
    r"might)\b|\bmay\b|['’]ll\b"
)
# a day sleep wrote beside a relative time: "on Monday (2026-11-16)", "(week of 2026-11-16)"
_RESOLVED_DAY_RE = re.compile(r"\((?:week of |weekend of )?(\d{4}-\d{2}-\d{2})\)")
# a change in force as it is told: "now" (not "now that"), "from this week", "from today",
# "with immediate effect"
_NOW_RE = re.compile(
    r"\bnow\b(?!\s+that\b)|\bfrom\s+(?:today|tonight|now on|this\s+(?:week|month|term|season))\b"
    r"|\bwith immediate effect\b|\bas of (?:today|now)\b",
    re.I,
)
# a change in force told first: "From today (2026-09-09) e-bike hire is £40 a day"
_NOW_LEAD_RE = re.compile(
    r"^\s*(?:from|starting|as of|effective|beginning)\s+(?:today|tonight|now(?:\s+on)?|"
    r"this\s+(?:week|month|term|season))(?:\s*\([^)]*\))?,?\s+(?=\w)",
    re.I,
)
# what is meant, not what is: "will", "'ll"; then the verb it goes with
_WILL_RE = re.compile(r"\b(?:will|['’]ll)\s+(?P<be>be\s+)?", re.I)


def start(text: str, written: dt.date | None = None) -> dt.date | None:
    """The day the change ``text`` tells starts, as sleep resolved it ("starting next Monday
    (2026-11-16)"), or, given the day it was ``written``, a day of a month it names without a
    year ("from 20 September": the one nearest that day); None without either."""
    m = _STARTS_RE.search(text)
    if m is not None:
        value = m.group(1)
        try:
            return dt.date.fromisoformat(value if len(value) == 10 else value + "-01")
        except ValueError:
            return None
    return _start_on(text, written)[0] if written is not None else None


def _start_on(text: str, written: dt.date) -> tuple[dt.date | None, re.Match[str] | None]:
    """The day of a month a change starts on as written ("from 20 September"), in the year
    that puts it nearest ``written`` unless said, and its match."""
    m = _STARTS_ON_RE.search(text)
    if m is None:
        return None, None
    day = int(m.group("d") or m.group("d2"))
    month = _month((m.group("m") or m.group("m2")).rstrip("."))
    near = [written.year - 1, written.year, written.year + 1]
    years = [int(m.group("y"))] if m.group("y") else near
    found = []
    for y in years:
        try:
            found.append(dt.date(y, month, day))
        except ValueError:
            continue  # no such day (30 February)
    if not found:
        return None, None
    return min(found, key=lambda d: abs((d - written).days)), m


def _month(name: str) -> int:
    short = name[:3].lower()
    return next(i for i, full in enumerate(temporal.MONTHS, 1) if full.startswith(short))


def without_start(text: str, written: dt.date) -> str:
    """``text`` without the day of a month its change starts on as written ("… moved to
    10:15am from 20 September." -> "… moved to 10:15am."): read, that day is no value of the
    thing changed."""
    _day, m = _start_on(text, written)
    if m is None:
        return text
    stop = "." if m.group(0).endswith(".") else ""  # a month's name takes its full stop ("Sept.")
    out = text[: m.start()] + stop + text[m.end() :]
    if m.start() == 0:  # "From 1 October the membership went up …" -> "The membership went up …"
        out = out.lstrip(" ,")
        out = out[:1].upper() + out[1:]
    return out


def as_done(text: str) -> str | None:
    """``text`` with its change said as done ("Standup moves to 10:15 …" -> "Standup moved to
    10:15 …"), or None when it says no change to come in those words or speaks of the past."""
    m = _TO_COME_RE.search(text)
    if m is None:
        return None
    if temporal.tense(text) < 0 and not m.group("go"):
        return None  # "moved to 10:15 starting Monday": read as a change when it was slept
        # ("From 1 October the membership goes up to £95" says what is to come all the same)
    if m.group("will"):  # "Sunday Social will meet at …" -> "Sunday Social meets at …"
        return text[: m.start()].rstrip() + " " + _present(text[m.end() :])
    if m.group("be"):
        done = "is now"  # "it'll be £950" -> "it is now £950"
    elif m.group("go"):
        done = "went"  # "goes up to £95" -> "went up to £95"
    else:
        done = "became" if m.group("become") else _DONE[m.group("stem").lower()]
    if m.group(0)[:1].isupper():
        done = done.capitalize()
    elif m.group(0)[:1] in "'’":  # "We're moving" -> "We moved"
        done = " " + done
    return text[: m.start()] + done + text[m.end() :]


# who told it, before what was told: "Martin confirmed the exec vote: subs rise to £52 …",
# "Sarah confirmed that the hall is ours on Fridays"
_TOLD_BY_RE = re.compile(
    r"^\s*[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?\s+(?:has\s+|have\s+)?"
    r"(?:confirmed|said|says|told (?:me|us)|announced|reported|reports|emailed(?: (?:me|us))?|"
    r"approved|agreed|decided|voted(?: for| through)?|signed off|"
    r"let (?:me|us) know)(?:\s+that\s+|[^:;.!?]{0,40}:\s+)(?=\S)"
)


_CLAUSE_VERB_RE = re.compile(
    r"\b(?:is|are|was|were|has|have|will|rises?|goes|go|moves?|starts?|runs?|costs?)\b|['’](?:s|re)\b",
    re.I,
)
# why a change came, before it: "Studio 2 floor is being relaid, so …"
_WHY_SO_RE = re.compile(r"^[^.;:!?]{8,160}?,\s+so\s+(?!that\b|far\b|much\b|many\b)")
# a pronoun of what the reason named: "…, so Mavis Green is taking his place"
_WHOSE_RE = re.compile(r"\b(?:his|her|their|its|him|them|it|they|he|she)\b", re.I)


def read_now(text: str, day: str) -> str:
    """:func:`_read_now` of what was told, less who told it ("Martin confirmed the exec vote:
    subs rise to £52 per term from 1 October" reads "Subs rise to £52 per term …")."""
    told = _TOLD_BY_RE.match(text)
    if told is not None and _CLAUSE_VERB_RE.search(text, told.end()):  # (a clause of its own:
        # not "Harbor Coffee signed off on the new rate: 80 euros per hour")
        rest = text[told.end() :]
        text = rest[:1].upper() + rest[1:]
    why = _WHY_SO_RE.match(text)
    if why is not None:
        rest = text[why.end() :]
        why_said = text[: why.end()]
        if (
            cw.found(cw.CHANGE_RE, rest)
            and not cw.found(cw.CHANGE_RE, why_said)
            and not _WHOSE_RE.search(rest)
        ):
            text = rest[:1].upper() + rest[1:]  # "Studio 2 floor is being relaid, so Pilates
            # has moved to Room 4": the change, not why it came (which names the room left)
    return _read_now(text, day)


def readings(text: str, day: str) -> list[str]:
    """What currency reads of a note (:func:`read_now`), in turn: as told, then, where a
    reason follows the change after a dash, without it ("Hartley storage has moved to Unit 22
    - Unit 14's roof is leaking": the reason names the unit left). The reason is read first,
    for it may name whose the change is ("Boiler repair is now 6 October - Warmflow's engineer
    is off sick" is Warmflow's booked repair)."""
    read = read_now(text, day)
    lead = _LEAD_RE.match(read)
    if (
        lead is not None
        and len(lead.group(1).split()) >= 3
        and (temporal.tense(lead.group(1)) < 0 or lexical.SOURCE_LEAD_RE.match(read))
        and cw.found(cw.CHANGE_RE, read[lead.end() :])
        and not cw.intended(read)
    ):
        # what happened, then the change it brought: "Licence variation came through: last
        # orders now 11:15pm" reads "Last orders now 11:15pm" too
        rest = read[lead.end() :]
        return [read, rest[:1].upper() + rest[1:]]
    aside = _REASON_AFTER_RE.search(read)
    if aside is None:
        return [read]
    main, reason = read[: aside.start()], read[aside.end() :]
    if (
        len(main.split()) >= 4  # not a label: "Correction - our flight is TP1337"
        and cw.found(cw.CHANGE_RE, main)
        and not cw.found(cw.CHANGE_RE, reason)
        and not re.search(r"\bnew\b", reason, re.I)
        and not temporal.CALENDAR_DATE_RE.search(reason)
        and not cw.intended(read)  # "… - if they can do the 24th": a hedge, kept
    ):
        return [read, main.rstrip(" ,;") + "."]
    return [read]


# what happened, told before a colon: "Licence variation came through: …", "Letter from
# Copyline: …"
_LEAD_RE = re.compile(r"^([^:;.!?]{8,80}):\s+(?=\S)")

# a reason after what changed, set apart by a dash: "… moved to Unit 22 - Unit 14's roof is
# leaking"
_REASON_AFTER_RE = re.compile(r"\s[-–—]\s+(?=\S)")


def _read_now(text: str, day: str) -> str:
    """What currency reads of a note told on ``day`` (ISO) that tells a change in the words of
    one to come but in force already: the change said as done. "Sunday Parish Communion moves
    to 10:15am" (a timetable's present, no day to come) reads "… moved to 10:15am"; "Choir will
    practise on Fridays … instead of Thursdays, from this week" reads "Choir practise on
    Fridays …", "tickets will be £9.25 now" "tickets is now £9.25 now"; one that says first
    from when it holds, without it ("From today (2026-09-09) e-bike hire is £40 a day" reads
    "E-bike hire is £40 a day"). A change from a day after ``day`` is a plan
    (:mod:`agent_sleep.consolidation.due`), and a note that says what is to come otherwise
    ("next week", a day still to come beside it, "will" with no word of now) is read as
    written."""
    try:
        written = dt.date.fromisoformat(day[:10])
    except ValueError:
        return text
    when = start(text, written)
    if when is not None and when > written:
        return text  # a plan: read on its day
    if any(said > written.isoformat() for said in _RESOLVED_DAY_RE.findall(text)):
        return text  # a day still to come said beside it: "moves to 10:15 on Monday (…)"
    if "?" in text:
        return text
    lead = _NOW_LEAD_RE.match(text)
    if lead is not None and not _AHEAD_RE.search(text):
        rest = text[lead.end() :]
        return rest[:1].upper() + rest[1:]  # "E-bike hire is £40 a day"
    if _MOVES_RE.search(text) and not _AHEAD_RE.search(text):
        done = as_done(text)
        return text if done is None else without_start(done, written)
    will = list(_WILL_RE.finditer(text))
    if len(will) == 1 and (_NOW_RE.search(text) or when is not None):
        m = will[0]
        after = text[m.end() :]
        rest = text[: m.start()] + ("is now " + after if m.group("be") else _present(after))
        if not _AHEAD_RE.search(rest):
            return without_start(rest, written)
    if when is not None and not cw.found(cw.CHANGE_RE, text):
        return start_as_now(text, written)  # "Scouts start at 7.15pm from this week"
    return text


# a phrase of when a change holds from, no verb: "from this week", "as of 1 October" (not
# "from today": a note of the day says now already)
_TAKES_UP_RE = re.compile(
    r"\b(?:takes?|took|taking|taken) over\b|\b(?:starts?|started|joins?|joined|begins?) as\b",
    re.I,
)
_FROM_SAID_RE = re.compile(r"\s*,?\s*(?:from|as of|effective|with effect from)\s+", re.I)


def start_as_now(text: str, written: dt.date) -> str:
    """``text`` with the day its change started on, passed, said as "now" ("Scouts start at
    7.15pm from this week (week of 2026-09-14) - …" -> "Scouts start at 7.15pm now - …"): a
    change told with no other word of one."""
    m = _STARTS_RE.search(text)
    if m is None:
        m = _start_on(text, written)[1]
    if m is None or not _FROM_SAID_RE.match(m.group(0)) or _TAKES_UP_RE.search(text):
        return text  # "Fiona Reid starts today (…)": a verb, no phrase to say as "now"; one
        # taking a role up tells the change already ("Tom Reilly takes over as head nurse
        # from today")
    out = (text[: m.start()].rstrip() + " now " + text[m.end() :].lstrip()).strip()
    if text.rstrip().endswith(".") and not out.endswith("."):
        out += "."  # a month's name took the full stop ("… from 1 October.")
    return out[:1].upper() + out[1:]


def _present(text: str) -> str:
    """``text`` with the verb it opens with said in the present, as of one ("meet at …" ->
    "meets at …", "practise on …" -> "practises on …", "have" -> "has")."""
    m = re.match(r"[a-z]+", text)
    if m is None:
        return text
    verb = m.group(0)
    if verb == "have":
        said = "has"
    elif re.search(r"(?:s|sh|ch|x|z|o)$", verb):
        said = verb + "es"
    elif re.search(r"[^aeiou]y$", verb):
        said = verb[:-1] + "ies"
    else:
        said = verb + "s"
    return said + text[m.end() :]


def told_whole(entry: str, plan: str) -> bool:
    """Whether an entry a plan would put right in place says nothing the plan does not
    ("Sunday Parish Communion is at 9:45am" for "… moves to 10:15am from 20 September"): one
    sentence, every content word of it said in the plan, so the plan can stand for it whole."""
    if len(lexical.sentences(entry)) != 1:
        return False
    told = {currency.lemma(w) for w in currency._content(plan)}
    return {currency.lemma(w) for w in currency._content(entry)} <= told


def as_said(placed: str, read: str, said: str) -> str:
    """``placed`` (an entry put right with what currency read of a note, :func:`read_now`) with
    each sentence of the reading put back as the note said it: an entry keeps the user's
    words ("From now on we use Prospero …", not "We use Prospero …")."""
    if read == said:
        return placed
    if placed == read:
        return said
    ours, theirs = _pieces(read), _pieces(said)
    if len(ours) != len(theirs):
        return placed
    for mine, told in zip(ours, theirs, strict=True):
        if mine != told and mine in placed:
            placed = placed.replace(mine, told)
    return placed


def _pieces(text: str) -> list[str]:
    """The sentences of ``text``, and their parts between ";", longest first: what a put-right
    may take of a note whole."""
    out = []
    for sentence in lexical.sentences(text):
        out.append(sentence)
        parts = re.split(r";\s+", sentence)
        out += parts if len(parts) > 1 else []
    return out
