"""What a note says that is worth keeping: a small information-density model for plain text.

Consolidation must not copy chat into memory. This module tells small talk (greetings, thanks,
reactions, compliments, questions without content, sign-offs) from statements that carry
durable information, sentence by sentence, with lexical features only:

- content words: tokens that are neither function words nor conversational filler
  (``wow``, ``awesome``, ``thanks``, ``glad``, ``totally``…);
- facts: proper nouns (not a name used to address someone: "Thanks, Mel!"), numbers and
  temporal expressions;
- a first-person statement ("I", "my", "we", "our"), which is how people state facts about
  themselves;
- penalties for a question and for a reaction to the other person ("That's…", "Sounds…",
  "You're…").

:func:`sentence_score` combines them; a sentence scoring :data:`INFORMATIVE` or more is
informative. :func:`condense` keeps a note's informative sentences (the best ones first, within
a word budget, in their original order), always keeps a sentence holding a date, time, duration
or age, strips leading interjections and vocatives, and keeps the speaker label so the result
stands alone. :func:`names` finds proper nouns for bank pages. No model, no network: numpy-free
regular expressions, fast enough for thousands of notes per second.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from agent_sleep.analysis import lexical, temporal
from agent_sleep.core.redact import PLACEHOLDER_RE

INFORMATIVE = 3.0  # a sentence scoring this much carries information
STRONG = 9.0  # a clear fact: content plus a name, number or date, usually first person
W_FACT, W_FIRST_PERSON, W_QUESTION, W_REACTION, W_CAPTION = 2.0, 2.0, 3.0, 2.0, 0.5
MAX_CONTENT = 8  # content words counted per sentence, so one long ramble does not dominate

# Conversational filler: interjections, thanks, praise and reactions, hedges, sign-offs. Words
# that carry no fact on their own in any conversation.
FILLER = frozenset(
    """wow woah whoa oh ooh ohh aww aw ah ahh haha hahaha hehe lol lmao omg yay yikes hey hi
    hello hiya bye goodbye cya thanks thank thx ty congrats congratulations cheers cool great
    awesome amazing nice neat sweet lovely wonderful fantastic fabulous incredible terrific
    gorgeous beautiful brilliant superb super glad happy proud sorry hope hoping hoped wish
    wishing luck cute fun funny totally absolutely definitely agree agreed exactly indeed yeah
    yep yup yes nope nah okay ok alright right sounds sound seems seem looks look looking talk
    talking chat chatting catch soon later care keep stuff thing things something anything
    everything kinda sorta pretty truly mean means meant lot lots bit good bad best better
    inspiring rewarding exciting excited blast appreciate appreciated means guess bet tell
    telling know knew dear buddy pal friend ya gotta wanna hear heard glad thrilled stoked
    touched honored impressive impressed wonderful special true""".split()  # noqa: SIM905
)
# Light verbs and vague words: they fill a sentence without saying what happened.
LIGHT = frozenset(
    """see seeing saw seen wait waiting make makes making made take takes taking took go goes
    going went come comes coming came feel feels feeling felt find try trying tried need needs
    want wants wanted wanna think thinking thought do doing done happen happens happened put
    give gives gave giving way ways kind sort time times day days moment moments""".split()  # noqa: SIM905
)
# Capitalised words that are never names on their own.
NOT_NAMES = (
    frozenset(
        w.lower()
        for w in """I The A An It This That These Those We You He She They My Our Your His Her Their
    But And Or So If When What Why How Where Who Which Not Maybe Also Just Really Here There Let
    Do Did Does Is Are Was Were Have Has Had Can Could Would Should Will May Might Must Me Mine
    Today Tomorrow Yesterday Tonight Monday Tuesday Wednesday Thursday Friday Saturday Sunday
    January February March April June July August September October November December Mon Tue
    Tues Wed Thu Thurs Fri Sat Sun Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec Mr Mrs Ms
    Dr St Mom Dad Mum Ma Pa Bro Sis Guys Everyone Anyone Someone Nobody Please Sorry Same Both
    All Any Some Each Every No None One Two Three Now Then Still Even Yet Though Although Since
    Because As At By For From In Into Of On Onto To With Without About After Before During
    Until Over Under Like Unlike Ok Okay""".split()  # noqa: SIM905
    )
    | FILLER
    | lexical.STOPWORDS
)

_CAPTION_RE = re.compile(
    r"\s*\[(?:shares (?:a |an )?(?:photo|image|picture)s?|photo):\s*(.*?)\]\s*$", re.I
)
_PHOTO_OF_RE = re.compile(r"^(?:a |an )?(?:photo|picture|image|close up|closeup)s? of\s+", re.I)
# a word of any alphabet: "José Ñúñez" is one name, not "Jos"; combining accents (text written
# decomposed) stay in the word
_WORD_RE = re.compile(r"[^\W\d_](?:[^\W\d_]|[\u0300-\u036f'’-])*")
# "I" and "my" state facts about the writer; "we all…" is more often a platitude, so plural
# pronouns earn nothing by themselves.
_FIRST_PERSON_RE = re.compile(r"\bI\b|\b(?:my|me|mine)\b", re.I)
_REACTION_RE = re.compile(
    r"^(?:"
    r"(?:that|this|it|which)(?:'s|’s| is| was| sounds| looks| seems)"
    r"|sounds|looks|seems|what an?"
    r"|(?:how|so) (?:cool|nice|great|awesome|sweet|lovely|fun|amazing|exciting|glad|happy|proud)"
    r"|you(?:'re|’re|'ve|’ve|'ll|’ll|'d|’d| are| were| have| did| must| should| will| would"
    r"| can| deserve| rock)?"
    r"|your|good (?:luck|job|for you)|keep (?:it|up)|take care|see you"
    r"|talk (?:to you|soon|later)|catch you|have (?:a|fun)|enjoy|let's|let us|let me"
    r"|can't wait|cannot wait|don't forget|remember to|hopefully|gotta|here's|here is|check"
    r")\b",
    re.I,
)
_CLAUSE_RE = re.compile(r"\s+[-–—]+\s+|(?<=\w)—(?=\w)|;\s+")  # "Wed–Sun" is one span
_CLAUSE_START_RE = re.compile(
    r"(?i:it|it's|it’s|we|we're|we’re|they|they're|they’re|she|he|you|that's|that’s"
    r"|this|there|my|our|his|her|their)\b|[A-Z]"
)
_THANKS_RE = re.compile(r"^\W*(?:thanks|thank you|thank u|thx|ty)\b", re.I)
_RESOLVED_RE = re.compile(r" \((?:week of |weekend of )?\d{4}(?:-\d{2}){0,2}\)")
_TERMINAL_RE = re.compile(r"[.!?…][\"'”’)\]]*$")
_YOU_RE = re.compile(r"\b(?:you|your|yours|yourself|you're|you’re|you've|you’ve)\b", re.I)
_LEADING_FILLER_RE = re.compile(
    r"^(?:(?:oh|ooh|wow|whoa|yeah|yes|yep|yup|hey|hi|hello|well|haha|hahaha|lol|ok|okay|sure"
    r"|totally|aww|aw|omg|ah|um|hmm|thanks|thank you|so|anyway|btw|by the way|also|and|but|right)"
    r"\b[,!.:;\s-]*)+",
    re.I,
)
# A name used to address someone: after a comma or a greeting, before punctuation ("Thanks,
# Mel!", "Hey Caroline"), or opening a sentence before a comma ("Yeah Mel, I…", "Mel, I…").
_VOCATIVE_RE = re.compile(
    r"(?:,\s*|^|\b(?i:hey|hi|hello|thanks|thank you|bye|dear|congrats)\s+)([A-Z][a-z]+)"
    r"(?=\s*[!?.,]|\s*$)"
    r"|^\W*(?:(?i:yeah|yes|yep|yup|oh|wow|hey|hi|hello|thanks|ok|okay|aww|aw|haha|sure|well"
    r"|congrats|omg|ah|right|totally|great|awesome|cool)\W+)?([A-Z][a-z]+)(?=\s*[,!])"
)


@dataclass(frozen=True)
class Sentence:
    text: str
    score: float
    temporal: bool
    caption: bool = False


def split_caption(text: str) -> tuple[str, str]:
    """``(text without the photo caption, the caption)``; an imported chat turn may end with
    ``[shares a photo: …]``."""
    m = _CAPTION_RE.search(text)
    if not m:
        return text, ""
    return text[: m.start()].rstrip(), _PHOTO_OF_RE.sub("", m.group(1).strip())


def strip_filler(sentence: str) -> str:
    """Drop leading interjections and a vocative ("Yeah, Mel, I went…" -> "I went…")."""
    out = _LEADING_FILLER_RE.sub("", sentence)
    m = re.match(r"^([A-Z][a-z]+)\s*[,!]\s*", out)
    if m and m.group(1).lower() not in NOT_NAMES and out[m.end() :][:1].isalpha():
        out = out[m.end() :]
    if out and out != sentence:
        out = out[0].upper() + out[1:]
    return out or sentence


def _vocatives(sentence: str) -> set[str]:
    return {m.group(1) or m.group(2) for m in _VOCATIVE_RE.finditer(sentence)}


def names(text: str, known: Iterable[str] | None = None) -> list[str]:
    """Proper nouns in ``text`` (speaker label, vocatives and contractions excluded).

    A capitalised word counts when it is not at a sentence start, or when ``known`` (words seen
    capitalised mid-sentence elsewhere) holds it. Runs of capitalised words make one name
    ("New York", "Olive & Thyme"); a possessive ``'s`` is dropped ("Oliver's" -> "Oliver");
    the letters of a code are none ("PAY" of "PAY-1049": :func:`_code_letters`)."""
    known_set = frozenset(known or ())
    _, body = lexical.split_speaker(text)
    body, _caption = split_caption(_unredacted(body))
    out: list[str] = []
    for sentence in lexical.sentences(body):
        vocative = _vocatives(sentence)
        run: list[str] = []
        run_end = -1
        opener = ""  # the word before, when it opened the sentence and was left out
        for m in _WORD_RE.finditer(sentence):
            word = _name_word(m.group(0))
            good = bool(word) and word not in vocative and not _code_letters(sentence, m)
            # the letters of a code or a model written with its number: "KS3", "Di2", "GEO1010"
            good = good and not (
                m.group(0)[-1].isalpha() and sentence[m.end() : m.end() + 1].isdigit()
            )
            before, opener = opener, ""
            if good and _at_start(sentence, m.start()) and word not in known_set:
                good, opener = False, word
            elif before and good and word.lower() in ORG_WORDS and not run:
                run = [before]  # "Tyrell Systems has 200 seats": the company, not "Systems"
            between = sentence[run_end : m.start()]
            if good and run and between in (" ", " & "):  # "Olive & Thyme": one name
                run.append(f"& {word}" if between == " & " else word)
            else:
                if run and " ".join(run) not in out:
                    out.append(" ".join(run))
                run = [word] if good else []
            run_end = m.end()
        if run and " ".join(run) not in out:
            out.append(" ".join(run))
    return out


# the word a company's name ends with: after a sentence's first word it makes that word part of
# the name ("Acme Corp is on the Growth plan", "Tyrell Systems has 200 seats")
ORG_WORDS = frozenset(
    """corp corporation inc ltd llc gmbh co company systems labs health logistics group
    technologies tech partners bank capital media industries solutions software networks
    analytics foods motors airlines university college hospital clinic foundation institute
    studios games energy pharma holdings ventures consulting services""".split()  # noqa: SIM905
)


def _unredacted(text: str) -> str:
    """``text`` with each redaction placeholder blanked out: "[REDACTED:…]" is never a name."""
    return (
        PLACEHOLDER_RE.sub(lambda m: "#" * len(m.group(0)), text) if "[REDACTED:" in text else text
    )


def _code_letters(sentence: str, m: re.Match[str]) -> bool:
    """Whether the word ``m`` found in ``sentence`` is the capital letters of a code, joined to
    its number by a hyphen: a ticket ("PAY-1049", "BUG-240", "ABC-DEF-12"; "GPT-4" is one too,
    "Windows-11" is not). They name a tracker's project, not what the note is about: "Dave
    reviewed ticket PAY-1049" filed a run's notes on ``bank/entities/pay.md``, the one word
    every ticket shared, rather than on Dave's."""
    word = m.group(0)
    return (
        word.endswith("-")
        and word.replace("-", "").isupper()
        and sentence[m.end() : m.end() + 1].isdigit()
    )


def _name_word(word: str) -> str:
    """The word as a name, or "" (not capitalised, a function word, a contraction)."""
    if not word[:1].isupper():
        return ""
    w = re.sub(r"['’]s$", "", word).strip("-'’")
    if not w or "'" in w or "’" in w or len(w) < 2:
        return ""
    if w.lower() in NOT_NAMES or w.lower() in TITLES or w.lower() in _VALUES:
        return ""
    return w


def _at_start(sentence: str, at: int) -> bool:
    before = sentence[:at].rstrip(" \"'([“‘")
    if _TITLE_END_RE.search(before):
        return False  # "Emailed Prof. Okafor": the title's period ends no sentence
    return not before or before[-1] in ".!?:;-–—→↔>\n"  # "A → Fixed …": a statement opens


# values a program prints, no names ("Got a NaN loss again")
_VALUES = frozenset(["nan", "null", "nil", "none", "undefined", "true", "false", "inf"])
# a title before a name: never a name of its own ("Prof" of "Prof. Okafor")
TITLES = frozenset(["dr", "mr", "mrs", "ms", "mx", "prof", "sir", "dame", "fr", "rev"])
_TITLE_END_RE = re.compile(rf"(?<![\w.])(?:{'|'.join(t.capitalize() for t in TITLES)})\.?$")


# words that open an agent's log lines, a label or an act: "Bug BUG-240: …", "Plan for
# tomorrow: …", "Fixed BUG-325 by …", "User prefers …" open many notes and may never be written
# in lower case in a run's notes, yet name nothing (known_names does not take them as names
# for opening sentences; written capitalised mid-sentence, they still are); so do times of day
# and order words ("Evening carer visit is at 6pm", "Evening carer Dave is great with Mum":
# "Evening" had been read as a name, and the morning visit's time then retired the evening's)
# labels a note opens with ("Plan: …", "Question: …"): what kind of note it is, no speaker
NOTE_LABELS = frozenset(
    """plan plans bug bugs issue issues todo task tasks note notes idea ideas question questions
    decision decisions update updates status summary context goal goals result results finding
    findings lesson lessons reminder action actions next fix fixes blocker blockers risk risks
    agenda draft error errors warning remember fyi heads""".split()  # noqa: SIM905
)
LOG_OPENERS = NOTE_LABELS | frozenset(
    """meeting standup retro review feedback user users team session
    incident outage hotfix release deploy deployment test tests build followup
    fixed added removed implemented reviewed tested deployed merged shipped released wrote
    drafted ran reran investigated debugged refactored migrated moved switched updated upgraded
    bumped created deleted renamed started finished completed met emailed sent asked told
    discussed agreed decided learned noticed found tried checked confirmed scheduled booked paid
    cancelled canceled postponed rescheduled opened closed filed pinged replied synced installed
    configured enabled disabled reverted profiled benchmarked documented prototyped demoed
    presented wants prefers likes needs uses said says correction corrected follow paired
    raised lowered increased decreased reduced remember replaced logging reminded kicked wrapped
    cleaned rewrote split bought ordered picked dropped got changed pinned unpinned swapped
    moving waiting working weekly monthly daily deploys incidents
    morning evening afternoon night nightly lunchtime weekend weekday today tomorrow tonight
    yesterday first second last next new old main primary current""".split()  # noqa: SIM905
)


def known_names(texts: Iterable[str]) -> frozenset[str]:
    """The names of a corpus: words seen capitalised somewhere other than a sentence start,
    plus words that open two sentences or more and never appear in lower case ("Alice owns…",
    "Alice said…"; "Take" is not a name because "take" occurs too, nor a word that opens log
    lines, :data:`LOG_OPENERS`)."""
    mid: set[str] = set()
    openers: dict[str, int] = {}
    lower: set[str] = set()
    for text in texts:
        _, body = lexical.split_speaker(text)
        body, _caption = split_caption(_unredacted(body))
        lower.update(w for w in _WORD_RE.findall(body) if w[:1].islower())
        for sentence in lexical.sentences(body):
            for m in _WORD_RE.finditer(sentence):
                w = _name_word(m.group(0))
                if not w or _code_letters(sentence, m):
                    continue
                if _at_start(sentence, m.start()):
                    openers[w] = openers.get(w, 0) + 1
                else:
                    mid.add(w)
    lowered = {w.lower() for w in lower}
    mid.update(
        w
        for w, c in openers.items()
        if c >= 2 and w.lower() not in lowered and w.lower() not in LOG_OPENERS
    )
    return frozenset(mid)


def sentence_score(sentence: str, known: Iterable[str] | None = None) -> float:
    """How much durable information one sentence carries (see the module docstring)."""
    clean = sentence
    for v in _vocatives(sentence):
        clean = clean.replace(v, "")
    content = [
        t for t in lexical.tokens(clean) if t not in FILLER and t not in LIGHT and not t.isdigit()
    ]
    # a date resolved in code ("this week (week of 2023-08-21)") is one fact, not four
    plain = _RESOLVED_RE.sub("", sentence)
    facts = len(names(plain, known)) + lexical.numbers(plain) + len(temporal.extract(plain))
    s = min(len(content), MAX_CONTENT) + W_FACT * facts
    if _FIRST_PERSON_RE.search(clean):
        s += W_FIRST_PERSON
    if sentence.rstrip().endswith("?"):
        s -= W_QUESTION
    if _REACTION_RE.match(strip_filler(sentence)) or _THANKS_RE.match(sentence):
        s -= W_REACTION
    if len(_YOU_RE.findall(clean)) > len(_FIRST_PERSON_RE.findall(clean)):
        s -= W_REACTION  # about the listener, not a fact the speaker states
    return s


def clauses(sentence: str) -> list[str]:
    """A sentence cut at dashes and semicolons, the places chat joins two statements ("I ran a
    race last Saturday - it was so rewarding!"). A cut is made only where the next piece starts
    a clause of its own (a pronoun or a capital), not before "which…" or a list ("- running,
    reading -"). Each piece but the last ends with a full stop so a piece kept alone still
    reads as a sentence."""
    pieces: list[str] = []
    start = 0
    for m in _CLAUSE_RE.finditer(sentence):
        rest = sentence[m.end() :]
        if _CLAUSE_START_RE.match(rest):
            pieces.append(sentence[start : m.start()].strip())
            start = m.end()
    pieces.append(sentence[start:].strip())
    parts = [p for p in pieces if p]
    if len(parts) <= 1:
        return [sentence]
    parts = [parts[0]] + [p[0].upper() + p[1:] for p in parts[1:]]
    out = [p if _TERMINAL_RE.search(p) else p + "." for p in parts[:-1]]
    return [*out, parts[-1]]


def analyse(text: str, known: Iterable[str] | None = None) -> list[Sentence]:
    """The sentences (cut into clauses) of a note, speaker label excluded, each scored; a photo
    caption last."""
    return list(_analysed(text, frozenset(known or ())))


@functools.lru_cache(maxsize=1 << 14)
def _analysed(text: str, known: frozenset[str]) -> tuple[Sentence, ...]:
    """:func:`analyse`, cached: a sleep reads each note several times (its information, its
    condensed text, its open question, its intention) with the same names."""
    _, body = lexical.split_speaker(text)
    body, caption = split_caption(body)
    out = [
        Sentence(c, sentence_score(c, known), temporal.has_temporal(c))
        for s in lexical.sentences(body)
        for c in clauses(s)
    ]
    if caption:
        score = W_CAPTION * min(len(lexical.tokens(caption)), MAX_CONTENT)
        out.append(Sentence(f"[photo: {caption}]", score, False, caption=True))
    return tuple(out)


def information(text: str, known: Iterable[str] | None = None) -> float:
    """A note's information: its best sentence's score (0 when it has none). A photo caption
    does not count: a note is worth keeping for what its writer said."""
    return max((s.score for s in analyse(text, known) if not s.caption), default=0.0)


def small_talk(text: str, known: Iterable[str] | None = None) -> bool:
    """True when no sentence of the note is informative: greetings, thanks, reactions."""
    return information(text, known) < INFORMATIVE


def condense(text: str, max_words: int, known: Iterable[str] | None = None) -> str:
    """The note's informative sentences, best first within ``max_words``, in original order.

    Sentences holding a date, time, duration or age (or a relative time) are always kept, and
    kept verbatim; the speaker label stays. The best sentence is kept even when longer than
    the budget; a photo caption only when it fits. A note without any informative sentence
    keeps its best one, so a cited note never becomes empty."""
    label, _ = lexical.split_speaker(text)
    parts = analyse(text, known)
    if not parts:
        return text
    chosen: set[int] = {i for i, s in enumerate(parts) if s.temporal}
    words = sum(len(parts[i].text.split()) for i in chosen)
    # what the writer said first, best first; a photo caption only if room is left
    ranked = sorted(range(len(parts)), key=lambda i: (parts[i].caption, -parts[i].score, i))
    for i in ranked:
        if i in chosen or parts[i].score < INFORMATIVE:
            continue
        n = len(strip_filler(parts[i].text).split())
        best = i == ranked[0] and not parts[i].caption
        if (words or parts[i].caption) and words + n > max_words and not best:
            continue
        chosen.add(i)
        words += n
    if not chosen:
        chosen.add(ranked[0])
    # strip_filler only removes leading interjections and a vocative, never a temporal word
    kept = [parts[i] for i in sorted(chosen)]
    return label + " ".join(s.text if s.caption else strip_filler(s.text) for s in kept)
