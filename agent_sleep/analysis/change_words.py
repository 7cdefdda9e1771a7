"""Change language and the word lists the currency detector reads (analysis/claims.py).

General English, not any benchmark's templates: attribute classes (what is said of an owner),
copulas and generic change verbs, change and additive language, the phrases that name an old
value, modals, relative times, function words.
"""

# ruff: noqa: SIM905 (word lists read better as one string)
from __future__ import annotations

import functools
import re

from agent_sleep.analysis import lexical

CLASSES = {
    "location": "live lives lived living based reside resides resided residing home "
    "relocated relocate relocates relocating located settled city hometown address base rent "
    "rents rented renting flat apartment house",
    "employer": "work works worked employed employer job company joined join joins employs",
    "role": "role title position promoted became become becomes job-title rank serves",
    "owner": "took-over taken-over handed-over taking-over owner owns own owned maintainer "
    "maintains maintained maintain responsible lead leads led manages managed manage runs "
    "ownership handed charge assigned reassigned",
    "preference": "prefer prefers preferred preference like likes liked love loves favourite "
    "favorite rather enjoys enjoy want wants wanted",
    "version": "version upgraded upgrade downgraded downgrade bumped release",
    "schedule": "scheduled rescheduled schedule meets meeting happens starts start held takes",
    "name": "name named renamed called",
    "size": "count number total headcount size",
    "manager": "manager boss supervisor reports-to reporting-to reported-to",
}
CLASS_OF = {w: c for c, ws in CLASSES.items() for w in ws.split()}
COPULA = frozenset(
    "am is are was were be been 's has have had uses use used using runs run".split()
    + "stands stood sits".split()  # "Waiting list stands at 23 people"
)
GENERIC = frozenset(
    "be changed change switched switch migrated migrate moved replaced swapped "
    "updated set turned converted left quit resigned retired transferred shifted chang "
    "switch migrat replac swapp updat convert transferr shift turn cut doubled halved "
    "extended shortened postponed delayed pushed doubl halv extend shorten postpon delay "
    "push".split()
)
GENERIC_HEADS = GENERIC | {"mov", "be"}
CHANGE_RE = re.compile(
    r"\b(?:now|no longer|not any ?more|any ?more|from now on|going forward|these days|"
    r"moved|relocated|switched|changed|migrated|renamed|replaced|instead|quit|retired|"
    r"resigned|promoted|became|raised|lowered|increased|decreased|reduced|bumped|upgraded|"
    r"downgraded|updated|rescheduled|shifted|transferred|handed|took over|taken over|"
    r"stopped|swapped|formerly|previously|used to|went from|cut|doubled|halved|extended|"
    r"took-over|taken-over|taking-over|handed-over|hands-over|"
    r"shortened|postponed|delayed|pushed back|slipped|rose|rise|rises|rising|fell|grew|jumped|"
    r"climbed|"
    # "dropped" a thing, not someone dropped off somewhere ("Dropped Zara at ballet")
    r"dropped(?!(?:\s+[\w'’]+){0,3}?\s+(?:at|off)\b)"
    # nor things dropped somewhere ("dropped 40 parcels to the churches"; "dropped 2 points to
    # 4.1" is a change)
    r"(?!\s+\d+\s+[a-z]+\s+(?:to|at|with)\s+(?![£$€]?\d))|"
    r"(?:went|goes|going|go) (?:up|down)|revised|upped|pushed to|pushed out|"
    # "brought the AQA entries deadline forward", "pushed the launch back"
    r"brought(?:\s+[\w'’-]+){0,5}?\s+forward|pushed(?:\s+[\w'’-]+){1,5}?\s+back|"
    r"moved up|rebooked|renegotiated|"
    # (not what is done again and again: "an enhanced DBS check, renewed every three years")
    r"rerouted|repointed|reconfigured|scaled|adjusted|"
    r"(?:renewed|rotated)(?!\s+(?:every|each|annually|yearly|monthly|weekly)\b)|resized|"
    r"reassigned|corrected|correction|changed (?:his|her|their|its|my) mind|"
    # a change back to an earlier value: "is back to 100", "reverted to 100", "in Berlin again"
    r"reverted|restored|rolled back|(?:is|are|was|were|went|goes|moved|switched|changed) back|"
    r"again)\b",
    re.I,
)
_TWINS: dict[re.Pattern[str], re.Pattern[str] | None] = {}


@functools.lru_cache(maxsize=1 << 18)
def found(rx: re.Pattern[str], text: str) -> bool:
    """``bool(rx.search(text))`` for a case-insensitive pattern, faster: on ASCII text the
    pattern's case-sensitive twin searches the lowered text (for ASCII, IGNORECASE and
    ``lower()`` agree character for character, so the answer is the same; a pattern that
    writes an upper-case letter has no twin). The claim reader asks several such patterns of
    every clause, and a sleep's currency asks them of each text once per pair it is in:
    cached."""
    if rx not in _TWINS:
        literal = re.sub(r"\\.", "", rx.pattern)  # escapes such as \W or \B are no letters
        upper = any("A" <= ch <= "Z" for ch in literal)
        twin = None if upper or not rx.flags & re.I else re.compile(rx.pattern, rx.flags & ~re.I)
        _TWINS[rx] = twin
    twin = _TWINS[rx]
    if twin is not None and text.isascii():
        return twin.search(text.lower()) is not None
    return rx.search(text) is not None


def may_hold(text: str, word: str) -> bool:
    """False only when a case-insensitive pattern that spells ``word`` (lower case) cannot
    match: ASCII text without it in any case. A cheap test before a substitution."""
    return not text.isascii() or word in text.lower()


@functools.lru_cache(maxsize=1 << 16)
def change_word(word: str) -> bool:
    """Whether one word (as given) is change language: ``CHANGE_RE`` over the whole word,
    cached, since the claim reader asks it of nearly every word of every clause."""
    return CHANGE_RE.fullmatch(word) is not None


OLD_VALUE_RE = re.compile(
    # (not "instead of using Dext", an act; not "left for Rosa", what remains)
    # ("no longer stays at the Steigenberger": where, after the verb's preposition)
    r"\b(?:instead of(?!\s+\w+ing\b)|rather than|no longer(?: \w+)?(?: (?:at|with|through|via))?|"
    r"formerly|previously|used to(?: \w+)?(?: (?:at|with|through|via))?|"
    r"left(?!\s+(?:for|over|to|in|on|at|with|behind|out|off)\b)|"
    r"quit)\s+"
    r"((?:the |a |an )?[\w.:$£€%/'@-]+(?: [\w.:$£€%/'@-]+)?)"
    r"|\bfrom\s+((?:the |a |an )?[\w.:$£€%/'@-]+(?: [\w.:$£€%/'@-]+)?)\s+(?:to|into|over to)\b"
    # "10:15 (was 9:30)", "Mountain Time (it was Pacific)"
    r"|\((?:(?:it|that|this|they) )?(?:was|were|previously|formerly|before|old)\s*:?\s+"
    r"([^)]+)\)"
    # "replaced Jenkins with …", not "replaced the bath waste trap" (a part swapped for its like)
    r"|\b(?:replacing|replaced)\s+((?:the |a |an )?[\w.:$£€%/'@-]+(?: [\w.:$£€%/'@-]+)?)"
    r"(?=\s+(?:with|by|for)\b|[,;.]?\s*$)",
    re.I,
)
# a correction's ", not A" closing a clause names the value it corrects: "the staging database
# is on port 5433, not 5432."; "Bob likes tea, not coffee" (what follows is not negated)
_NOT_WORD = r"(?:[\w.:$£€%/'@-]|(?<=\d),(?=\d{3}\b))+?"  # "£4,260" is one word
NOT_TAIL_RE = re.compile(
    rf",\s*(?:and |but )?not\s+((?:the |a |an )?{_NOT_WORD}(?: {_NOT_WORD})?)"
    # an aside on where the wrong one came from: "…, not 8:00 as I noted on Monday"
    r"(?:\s+(?:as|like)\s+(?:I|we|it|was|previously|before|earlier)\b[^.;!?]*)?[.;!)]?\s*$",
    re.I,
)
# the old value named as what was replaced, wherever the clause's subject is: "swapped A for B",
# "replaced A with B", "A was dropped", "A -> B" (with OLD_VALUE_RE: "from A to B", "instead of
# A", "(was A)")
REPLACED_RE = re.compile(
    r"\b(?:swapped|switched|traded|exchanged|replaced|ditched|dropped)\s+(?:out\s+)?"
    r"(?:the |our |my |a |an )?([\w.:$%/'@+-]+(?: [\w.:$%/'@+-]+)?)\s+(?:for|with)\b"
    r"|\b(?:moved|migrated|switched)\s+(?:off|away from)\s+(?:the |our |my )?([\w.:$%/'@+-]+)"
    r"|([\w.:$%/'@+-]+)\s+(?:is|are|was|were|has been|have been|got)\s+(?:now\s+)?"
    r"(?:dropped|retired|replaced|"
    r"removed|deprecated|decommissioned|sunset|shut down|turned off)\b"
    r"|([\w.:$%/'@+-]+)\s*(?:->|→|=>)\s*[\w$€£]",
    re.I,
)
# what a number is counted in: no subject of its own ("14 days" of a trial, of log retention)
UNITS = frozenset(
    "second minute hour day week month year time percent per unit item piece".split()
    # what a clock time is read in: "at 02:00 UTC" says when, not of what
    + "am pm utc gmt est edt cst cdt mst mdt pst pdt cet cest eet eest bst ist jst aest".split()
)
FROM_RE = re.compile(r"\bfrom\s+((?:the |a |an )?[\w.:$%/'@-]+)", re.I)
# an intention or a possibility is not a fact that replaces another ("I won't quit")
MODAL_RE = re.compile(
    r"\b(?:will|won't|would|wouldn't|can't|cannot|could|should|might|must|gonna|"
    # not the month: "14 May", "May 3", "in May", "since May"
    r"(?<!\d )(?<!\d)(?<!\bin )(?<!\bof )(?<!\bby )(?<!since )(?<!until )(?<!\bfrom )"
    r"(?<!early )(?<!\blate )(?<!\bmid-)(?<!\bmid )may(?! \d)|"
    # "going to" a place is a trip ("we're going to Bad Sassendorf, 14-17 May"), not an intention
    r"going to(?!\s+(?:(?-i:[A-Z])|the\b|a\b|an\b))|"
    r"want to|wants to|wanting to|wanted to|plan to|plans to|hope to|hoping to|if)\b"
    r"|\?\s*$",
    re.I,
)
# words that say a thing only might be, or is not settled yet ("may" not the month)
HEDGE_RE = re.compile(
    r"\b(?:might|(?<!\d )(?<!\bin )may(?! \d)|could|would|should|maybe|perhaps|possibly|"
    r"probably|likely|tentatively|hopefully|to be confirmed|tbc|tbd|pending|not yet|"
    r"not confirmed|unconfirmed|plan(?:s|ning)? to|wants? to|hopes? to)\b",
    re.I,
)
# an aside after a spaced dash gives a reason ("- Bayliss can't do the 24th", "— the refurb
# will take all term"): its "can't" or "will" is no intention of what the note says before it,
# unless it hedges that ("- if they can do the 24th", "- tbc")
_ASIDE_RE = re.compile(r"\s+[-–—]\s+")
_CONDITION_RE = re.compile(r"\b(?:if|unless|once|depending)\b|\?", re.I)


def intended(text: str) -> bool:
    """Whether ``text`` says what is meant or may be (:data:`MODAL_RE`), read before an aside
    after a spaced dash, and in the aside only where it hedges."""
    main, *aside = _ASIDE_RE.split(text, maxsplit=1)
    return found(MODAL_RE, main) or bool(
        aside and (HEDGE_RE.search(aside[0]) or _CONDITION_RE.search(aside[0]))
    )


CONTRACTION_RE = re.compile(r"\b(I|we|you|they|he|she|it|that)['’](m|re|ve|s|ll|d)\b", re.I)
EXPANDED = {"m": "am", "re": "are", "ve": "have", "s": "is", "ll": "will", "d": "would"}
# a sentence-initial time phrase that is not change language ("Last week, I built …")
TIME_LEAD_RE = re.compile(
    r"^(?:(?:last|this|next) (?:week|weekend|month|year|night|morning|time)|yesterday|"
    r"earlier today|a while ago|the other day|on \w+day"
    # the day a change starts: "From Monday (2026-11-16) the class …", "As of March, …"
    # (not a span: "From Monday to Friday the shop …")
    r"|(?:from|starting|as of|beginning|effective)\s+(?:(?:next|this)\s+)?"
    r"(?:\w+day|week|month|tomorrow|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
    r"(?:\s+\d{1,2}(?:st|nd|rd|th)?)?)(?:\s*\([^)]*\))?"
    r"(?!\s*(?:to|through|thru|until|till|and|or|-|–)\b))[,]?\s+",
    re.I,
)
# a sentence-initial phrase of why or on whose word, up to its comma: "On Dr. Feld's advice,",
# "After the review,", "Following the audit,", "Because of the clash," (not the subject)
REASON_LEAD_RE = re.compile(
    r"^(?:on|at|after|following|because of|due to|per|according to|under|with|given)\s+"
    r"[^,;:]{1,48},\s+(?=\S)",
    re.I,
)
ADDITIVE_RE = re.compile(
    # "too" ends what it adds to ("Mike is coming too."), not "too dark" (more than enough)
    r"\b(?:also|too(?=\s*(?:[.,;:!?)\-—–]|$|\s+(?:and|but|so|now|then)\b))|as well|another|"
    r"in addition|additionally|besides|plus|as another|"
    r"an? second|other than|along with|on top of)\b",  # "a second cat", not "second author"
    re.I,
)
NEGATION_RE = re.compile(
    r"\b(?:not|never|no longer|n't|don't|doesn't|didn't|isn't|aren't|wasn't|stopped|quit)\b|n't\b",
    re.I,
)
# a sentence-initial time adverbial ("These days", "From now on", "As of May,") is change
# language, not the subject; the change itself stays visible through CHANGE_RE on the clause
LEADING_RE = re.compile(
    r"^(?:(?:these days|nowadays|from now on|going forward|since then|as of (?:now|today|"
    r"this \w+|\w+(?: \d+)?)|starting (?:today|now|this \w+|\w+)|now)"
    r",?\s+)",
    re.I,
)
# a decision or a change made is a fact even with "will" in it ("decided the fiscal year will
# end on 31 December going forward", "failed over to eu-central-1 and will stay there")
DECIDED_RE = re.compile(
    r"\b(?:decided|agreed|confirmed|going forward|from now on)\b|\b\w+ed\b.*\band will\b",
    re.I,
)
# what will be done in another's place is settled: "Fiona Grant will run the cake stall instead
# of Mark Ellis", "T-shirts will go at £22 instead of £20" (not "might … instead", nor from a day
# to come: "From Monday the Zumba class will be 9 to 10 instead of 8 to 9" is a plan until then)
SETTLED_INSTEAD_RE = re.compile(
    r"^(?!.*\bfrom\s+(?:next\b|tomorrow\b|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|the\s+\d|"
    r"\d))(?=.*\b(?:will|['’]ll)\s+(?!probably\b|maybe\b|perhaps\b|likely\b)[^.;?]*\binstead of\b)",
    re.I,
)
# "status page -> Instatus": an arrow is a move
ARROW_RE = re.compile(r"\s*(?:->|→|=>)\s*")
# "10:15 (was 9:30)": the parenthesis names the old value, a change
WAS_RE = re.compile(r"\((?:was|previously|formerly|before|old)\b", re.I)
# "reports to": one verb, the manager relation (joined with a hyphen like "took-over")
REPORTS_TO_RE = re.compile(r"\b(reports|reporting|reported) to\b", re.I)
# "Standup: 10:15", "Payments client timeout: 45 seconds": a label and its value
LABEL_RE = re.compile(r"^([A-Za-z][\w'’ .-]{0,60}?):\s+(?=\S)")
# shortened words of one meaning ("prod cluster" is the production cluster)
SHORT = {"prod": "production", "repo": "repository", "db": "database", "config": "configuration",
         "env": "environment", "docs": "documentation", "doc": "documentation"}  # fmt: skip
# a trailing reason or occasion ("… after the reorg", "… because of a clash") says why or
# when, not what: it is left out of the claim when what stays still names a value
ASIDE_RE = re.compile(
    # ("marks are due to Sue Bramley" says who gets them: after "be", "due to" is no reason)
    r"(?<!\bis)(?<!\bare)(?<!\bwas)(?<!\bwere)(?<!\bbe)"
    r",?\s+(?:because|due to|thanks to|following|as part of|after (?:the|a|an|our|my|his|her|"
    r"their|some)\b)\b.*$",
    re.I,
)
RESOLVED_RE = re.compile(r"\s*\((?:week of |weekend of )?\d{4}(?:-\d{2}){0,2}\)")
TOKEN_RE = re.compile(
    r"[$€£]?[A-Za-z0-9µμ][\w$€£%.:/'’+@-]*[\w%+]|[$€£]?[A-Za-z0-9%]"
)  # "µL" is one word
CLAUSE_RE = re.compile(
    r"\s*(?:;|,?\s+and\s+(?=(?:now\s+|also\s+)?[a-z]+(?:s|ed)\b)|,\s+but\s+"
    # ", so the wedding is pushed back …": what follows is a clause of its own
    r"|,\s+so\s+(?=(?:the|our|my|his|her|their|we|i|it|they)\b|[A-Z])"
    # ", they deliver in 3 days": a subject of its own opens a clause (claims._clauses keeps
    # "Dana, she asked …" one: the name is who "she" is)
    r"|,\s+(?=(?:they|she|he|we)\s+[a-z]))\s*"
)
SUBJECT_WORDS = {"i": "user", "we": "user", "me": "user", "user": "user", "my": "user"}
RELATIVE = frozenset(
    "today yesterday tomorrow tonight recently lately week month year last next this ago "
    "morning afternoon evening weekend earlier later soon since after before".split()
)
WEEKDAYS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays "
    "thursdays fridays saturdays sundays noon midnight".split()
)
STOP = lexical.STOPWORDS | frozenset(
    "the a an its his her their our your my to in at of for on with by over from into "
    "onto per via as than then that which who whom whose everything anything something "
    "nothing everyone anyone someone".split()
)


PAST = frozenset(
    "was were had did went saw met took made got came gave found thought told left bought "
    "ate ran wrote read spent won lost began drove flew felt heard kept knew paid sent "
    "sold stood taught threw understood wore built brought caught chose drew fell fought "
    "forgot grew held hung laid lent meant rode rose said sang sat shot showed shut slept "
    "spoke stole swam tore woke".split()
)
VERB_BASE = frozenset(
    "live work prefer like love own lead manage run use enjoy move took-over handed-over "
    "stepped speak speaks drink eat hate reports-to reported-to reporting-to include cover "
    "require cost need come".split()
)
ADVERBS = frozenset(
    "now no not never still also just recently finally already actually really indeed".split()
)


BASE_VERBS = frozenset(
    "get make give help keep take go come need want seem look feel boost are were have "
    "include cover require cost stay remain sit live run use".split()
)
PRONOUNS = frozenset("i we you they he she it this that there".split())
NEWNESS = frozenset("new current latest".split())
NEW_OF_RE = re.compile(r"\bnew (\w+)(?: (\w+))?", re.I)
DETERMINERS = frozenset("the its his her their our my your".split())
BOUNDARY = frozenset("to from with by for on in at into onto over as".split())

# "takes place" is one verb: "happens" (else "place" reads as what is said of the owner)
TAKE_PLACE_RE = re.compile(r"\b(take|takes|took|taken|taking) place\b", re.I)
_HAPPENS = {"take": "happen", "takes": "happens", "took": "happened", "taken": "happened",
            "taking": "happening"}  # fmt: skip


def happens(m: re.Match[str]) -> str:
    return _HAPPENS[m.group(1).lower()]
