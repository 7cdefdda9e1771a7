"""The offline consolidator's pre-compaction flush: the sentences of a context dump that state
something durable. See providers/offline.py; the write gate is applied by the caller
(consolidation/flush.py), which counts what it refuses.

Three tests decide whether a sentence states something durable:

- a statement by a person about themselves or someone else, read from its verb forms
  (:func:`_statement`): "I live in Berlin", "I'm allergic to peanuts", "I have two cats",
  "My manager is Priya", "We moved to Lisbon last week", "He uses vim". Habits and states
  (present simple, "am/is" + a predicate, "have" + a thing) and changes of state (moved,
  joined, switched…) are durable; the moment's activity ("I'm looking at the logs", "I'll
  check"), moods ("I'm not sure", "I love it") and conversation verbs ("I think", "I see") are
  not. Only the user's sentences (or a dump without speaker labels) are read this way; the
  assistant's own "I…" is never taken as a fact about the user.
- a change of a thing's value told of the thing (:func:`_change`): "the team standup moved to
  10:00", "The staging database was migrated to pg-staging-2"; read, like the statements
  above, only in the user's sentences.
- otherwise a keyword that marks durable content (:data:`_DURABLE_RE`: prefer, always,
  decided, because, remember, uses, works at, from now on…).

A note keeps what was said without the turn's label ("User: I prefer tabs" -> "I prefer
tabs") or the words that asked for it to be kept ("Remember that …", "FYI, …").

Questions, requests to the assistant and stalling ("let me check", "one sec") are never kept,
whoever says them.
"""

from __future__ import annotations

import re
from typing import Any

from agent_sleep.analysis import distill, lexical, temporal

_PREFERENCE_RE = re.compile(
    r"\b(?:prefer|prefers|preferred|like|likes|love|loves|hate|hates|dislike|dislikes|want|wants"
    r"|rather|favou?rite|enjoy|enjoys)\b",
    re.I,
)


_EXPERIENCE_RE = re.compile(
    r"\b(?:I|we|user|they)\b.{0,40}\b(?:fixed|deployed|decided|moved|went|finished|shipped"
    r"|tried|found|learned|chose|agreed|switched|migrated|released|started|met|visited)\b",
    re.I,
)


_DURABLE_RE = re.compile(
    r"\b(?:prefer\w*|always|never|decided|decision|agreed|chose|remember|important|note that"
    r"|learned|lesson|root cause|fixed|the fix|because|deadline|due|wants?|likes?|loves?|hates?"
    r"|dislikes?|requires?|must|avoid|uses|works (?:at|on)|lives in|birthday|name is|plan(?:s|ned)?"
    r"|will|goal|owner|responsible|from now on|going forward)\b",
    re.I,
)


# a turn's label, plain or as Markdown writes it: "User:", "**User:**", "**Human**:", "> _AI_:"
_ROLES = r"(user|human|assistant|ai|claude)"
_EMPHASIS = r"(?:[*_]{1,2})?"
_ROLE_RE = re.compile(rf"^\s*(?:>\s*)?{_EMPHASIS}{_ROLES}{_EMPHASIS}\s*:{_EMPHASIS}\s*", re.I)
# a bold label inside a line starts another turn ("**User:** … **Assistant:** …")
_INLINE_ROLE_RE = re.compile(rf"(?<=\S)\s+(?=\*\*(?:{_ROLES[1:-1]})(?::\*\*|\*\*:))", re.I)
# the one name a turn's speaker goes by, whatever its label ("Human:" is the user)
_SPEAKERS = {"user": "user", "human": "user", "assistant": "assistant", "ai": "assistant"}
_SPEAKERS["claude"] = "assistant"
# the assistant saying it will keep what the user said: the user's own sentence is the fact
_ECHO_RE = re.compile(
    r"^(?:(?:noted|got it|understood|sure|okay|ok|great|will do)\b[\s,.!—-]*)?"
    r"(?:I'll|I will|I'm going to|I am going to|I've|I have|let me)\s+"
    r"(?:remember|note|noted|make a note|keep (?:that|this|it) in mind|save|saved|store|stored"
    r"|write (?:that|this|it) down)\b",
    re.I,
)


_SKIP_ROLE_RE = re.compile(r"^\s*(?:system|tool|tool_result|function)\s*:", re.I)


_PEOPLE = ("user", "human")  # the speakers whose "I" is the person the memory is about

# -- sentences never kept, whoever says them -----------------------------------------------------

_REQUEST_RE = re.compile(
    r"\b(?:can|could|would|will|won't|wouldn't|do)\s+you\b|\bplease\b|\bhelp me\b"
    r"|\b(?:I'd|I would|I want|I need)\s+(?:like\s+)?you\s+to\b|^let me\b",
    re.I,
)
# what makes a request a standing instruction, worth keeping ("please always run ruff")
_STANDING_RE = re.compile(
    r"\b(?:always|never|from now on|in (?:the )?future|every time|whenever|by default"
    r"|going forward|remember|don't forget|note that)\b",
    re.I,
)
# a wrapper a person puts around what they want kept ("Remember this: the API is on 9090")
_WRAPPER_RE = re.compile(
    r"^(?:(?:please|also|and)\s+)?(?:(?:remember|note|keep in mind|don't forget|never forget)"
    r"(?:\s+(?:this|that))?\s*[:\-\u2013\u2014]\s*|(?:remember|note|keep in mind|don't forget)"
    r"\s+that\s+|(?:for the record|fyi|heads up|for future reference|just so you know)"
    r"\s*[:,\-\u2013\u2014]\s*)",
    re.I,
)
# "Remember I like…", with no "that" or colon: kept (when the sentence is) as "I like…"
_REMINDER_RE = re.compile(
    r"^(?:(?:please|also|and)\s+)?(?:remember|don't forget|keep in mind)\s*,?\s+"
    r"(?=(?:I|we|my|our)\b)",
    re.I,
)
_STALLING_RE = re.compile(
    r"\b(?:one|a|just a) (?:sec|second|moment|minute)\b|\bhold on\b|\bbrb\b"
    r"|\bgive me a (?:sec|second|moment|minute)\b",
    re.I,
)

# -- reading a statement from its verb forms -----------------------------------------------------

_CONTRACTIONS = [
    (re.compile(r"\b(i)'m\b|\b(i)m\b"), r"\1\2 am"),
    (re.compile(r"\b(i|we|you|they)'ve\b|\b(i)ve\b"), r"\1\2 have"),
    (re.compile(r"\b(i|we|he|she|you|they)'d\b"), r"\1 would"),
    (re.compile(r"\b(i|we|he|she|you|they)'ll\b"), r"\1 will"),
    (re.compile(r"\b(we|you|they)'re\b"), r"\1 are"),
    (re.compile(r"\b(he|she|it|that|there)'s\b"), r"\1 is"),
    (re.compile(r"\bcan't\b|\bcannot\b"), "can not"),
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"n't\b|\b(do|does|did)nt\b"), r"\1 not"),
]
_TOKEN_RE = re.compile(r"[a-z0-9][a-z0-9'.+#-]*[a-z0-9+#]|[a-z0-9]|[,;:!?]")
_BOUNDARY = frozenset(",;:!?")
# "I" or "he" after one of these opens a clause that is a condition or a report, not a statement
_SUBORDINATE = frozenset(
    """when whenever if unless until till before after once while whether that what where how
    why who which as than""".split()  # noqa: SIM905
)
_ADVERBS = frozenset(
    """also always never often usually sometimes still just even only mostly mainly generally
    normally typically currently now already really actually basically honestly daily
    do does did not no longer too either""".split()  # noqa: SIM905
)
_COPULA = frozenset({"am", "is", "are", "was", "were"})
_HAVE = frozenset({"have", "has"})
_PLAN = frozenset({"will", "shall", "gonna"})
_MODALS = frozenset({"can", "could", "may", "might", "must", "should", "would"})
_PREFERS = frozenset({"like", "prefer", "rather", "love", "enjoy"})


def _forms(words: str) -> frozenset[str]:
    """Each verb with its -s and -ed forms ("think" -> think, thinks, thinked…; harmless)."""
    out: set[str] = set()
    for w in words.split():
        out.update((w, w + "s", w + "es", w + "ed", w + "d"))
    return frozenset(out)


# verbs of the conversation itself, not of a fact: "I think", "I see", "I need", "I guess"
_CONVERSATION = _forms(
    """think guess see know mean hope wonder agree disagree understand believe feel suppose bet
    assume doubt wish appreciate remember forget get say tell ask expect imagine realize realise
    recall promise apologize apologise mind reckon suspect trust need want try wait check look
    hear notice care figure thank"""
) | frozenset({"thought", "saw", "knew", "meant", "felt", "got", "said", "told", "heard"})
# a change of state worth remembering when told in the past tense
_CHANGES = frozenset(
    """moved relocated switched migrated started joined left quit became married divorced
    graduated adopted bought sold retired hired promoted born met decided chose learned finished
    shipped released deployed fixed agreed become chosen""".split()  # noqa: SIM905
)
# past participles after "have" that do not end in -ed ("I've become…", "I've seen…")
_PARTICIPLES = frozenset(
    """been seen done gone taken given known written grown chosen begun become spoken eaten
    broken forgotten gotten driven""".split()  # noqa: SIM905
)
_IRREGULAR_PAST = frozenset(
    """went got left made took began became bought sold found ran saw came gave had did said
    told thought knew met grew wrote spoke quit chose built taught brought caught kept lost won
    paid sent spent felt heard held led""".split()  # noqa: SIM905
)
# a state of the moment after "I'm": "I'm not sure", "I'm done", "I'm back"
_MOMENTARY = (
    frozenset(
        """sure unsure fine ok okay done ready back here there stuck confused lost curious afraid
        busy tired sorry away off out free available late early almost about afk around aware
        interested wondering trying going gonna all good""".split()  # noqa: SIM905
    )
    | distill.FILLER
)
# the things of a conversation: "I have a question", "my point is", "I have no idea"
_CHAT_NOUNS = frozenset(
    """question questions idea point guess bad pleasure turn concern thought thoughts suggestion
    doubt feeling clue minute moment second sec meeting call problem issue look try""".split()  # noqa: SIM905
)
_NOW_RE = re.compile(
    r"\b(?:now|right now|at the moment|today|tonight|this (?:morning|afternoon|evening))\b"
)
_LASTING_RE = re.compile(r"\b(?:since|for (?:\w+ )?(?:years?|months?|decades?))\b")
# a progressive that says where someone lives, studies or works, not what they are doing now
_SITUATION: dict[str, tuple[str, ...]] = {
    "living": ("in", "at"),
    "staying": ("in", "at"),
    "studying": ("in", "at"),
    "working": ("at", "for", "as"),
}


def _dated(sentence: str) -> bool:
    """Whether ``sentence`` names a date or a day ("in May", "next week", "tomorrow"); a
    duration ("for an hour") is not one."""
    return any(e.kind != "duration" and e.kind != "age" for e in temporal.extract(sentence))


def _tokens(sentence: str) -> list[str]:
    text = sentence.lower().replace("’", "'")
    for pattern, repl in _CONTRACTIONS:
        text = pattern.sub(repl, text)
    return _TOKEN_RE.findall(text)


def _content(words: list[str]) -> list[str]:
    """The words that carry a fact: not function words, filler or conversation verbs."""
    return [
        t
        for t in lexical.tokens(" ".join(words))
        if t not in distill.FILLER and t not in distill.LIGHT and t not in _CONVERSATION
    ]


def _is_past(word: str) -> bool:
    return word in _IRREGULAR_PAST or (len(word) > 4 and word.endswith("ed"))


def _predicate(words: list[str], start: int) -> list[str]:
    """The words from ``start`` to the end of the clause (punctuation or another subject)."""
    out: list[str] = []
    for w in words[start:]:
        if w in _BOUNDARY or w in ("i", "he", "she", "we"):
            break
        out.append(w)
    return out


def _state(pred: list[str], *, told_now: bool, dated: bool) -> str | None:
    """The verdict on what follows "am/is/was": a durable state ("a vegetarian", "allergic to
    peanuts", "from Porto", "based in Berlin") or the moment's ("looking at the logs", "not
    sure", "in the office now")."""
    i = 0
    while i < len(pred) and pred[i] in _ADVERBS:
        i += 1
    rest = pred[i:]
    if not rest:
        return "transient"
    head = rest[0]
    if head.endswith("ing") and "".join(rest[1:2]) not in _SITUATION.get(head, ()):
        # the moment's activity, unless it lasts ("for ten years") or is dated ahead ("next week")
        lasting = bool(_LASTING_RE.search(" ".join(rest))) or (dated and not told_now)
        return "durable" if lasting and _content(rest[1:]) else "transient"
    if head in _MOMENTARY or told_now:
        return "transient"
    return "durable" if _content(rest) else "transient"


def _clause(words: list[str], at: int, dated: bool) -> str | None:
    """The verdict on the clause whose subject is ``words[at]`` (I, we, he, she, or "my X"):
    "durable", "transient", or None when its verbs say nothing either way."""
    i = at + 1
    if words[at] in ("my", "our"):  # "My manager is Priya", "Our cats are called Miso and Tofu"
        j = i
        while j < len(words) and j - i < 4 and words[j] not in _COPULA | _HAVE:
            if words[j] in _BOUNDARY:
                return None
            j += 1
        if j >= len(words) or j == i or words[j] not in _COPULA | _HAVE:
            # no "is"/"has": a verb of the present simple after the noun ("My son runs a
            # bakery", "Our team deploys every Thursday"), the word after a singular noun
            verb_at = _third_person_verb(words, i)
            if verb_at is None:
                verb_at = _plural_verb(words, i)
            if verb_at is None:
                return None
            j = verb_at
        if set(words[i:j]) & _CHAT_NOUNS:
            return None
        i = j
    while i < len(words) and words[i] in _ADVERBS:
        i += 1
    if i >= len(words) or words[i] in _BOUNDARY:
        return None
    verb = words[i]
    pred = _predicate(words, i + 1)
    clause = " ".join(pred)
    if verb in _COPULA:
        if pred[:1] == ["going"] and pred[1:2] == ["to"]:
            return _plan(pred[2:], dated)
        return _state(pred, told_now=bool(_NOW_RE.search(clause)), dated=dated)
    if verb in _HAVE:
        if pred[:1] == ["to"]:  # "I have to go"
            return _plan(pred[1:], dated)
        if pred[:1] == ["been"]:
            return _state(pred[1:], told_now=bool(_NOW_RE.search(clause)), dated=dated)
        if pred and (_is_past(pred[0]) or pred[0] in _PARTICIPLES):  # "I've moved…"
            return _past(pred[0], pred[1:])
        content = _content(pred)
        if not content or content[0] in _CHAT_NOUNS:
            return "transient"
        return "durable"
    if verb in _PLAN or verb == "need" and pred[:1] == ["to"]:
        return _plan(pred[1:] if verb == "need" else pred, dated)
    if verb == "would" and pred[:1] and pred[0] in _PREFERS:  # "I'd rather…", "I'd like…"
        return "durable" if _content(pred[1:]) else "transient"
    if verb in ("want", "wants") and pred[:1] == ["to"]:  # a goal: "I want to learn Rust"
        goal = pred[1:]
        return (
            "durable"
            if goal[:1] and goal[0] not in _CONVERSATION and _content(goal)
            else "transient"
        )
    if verb == "got" and pred[:1] and pred[0] in _GOT_STATES:
        return "durable"  # a change of state: "I got married in June", "I got promoted"
    if verb in _MODALS or verb in _CONVERSATION:
        return None
    if _is_past(verb):
        return _past(verb, pred)
    return "durable" if _content(pred) else "transient"


# "got" + one of these is a change of one's standing ("I got married"), not of one's mood
# ("I got bored") or the moment ("I got it")
_GOT_STATES = frozenset({
    "married", "engaged", "divorced", "promoted", "hired", "fired", "accepted", "admitted",
    "elected", "certified", "diagnosed", "licensed", "laid", "transferred",
})  # fmt: skip


def _third_person_verb(words: list[str], start: int) -> int | None:
    """Where a present-simple verb ("runs", "deploys", "approves") follows the noun that opens
    at ``start`` (one to three words, a name among them: "my daughter Mia turns 7"): the first
    word ending in "s" after a word that does not, with words after it."""
    for j in range(start + 1, min(start + 4, len(words) - 1)):
        w, before = words[j], words[j - 1]
        if w in _BOUNDARY or before in _BOUNDARY:
            return None
        if (
            len(w) > 3
            and w.endswith("s")
            and not w.endswith(("ss", "us", "is"))
            and not before.endswith("s")
            and w not in _ADVERBS
        ):
            return j
    return None


# words that follow a plural noun without being its verb ("my parents in Porto", "our kids and…")
_NOT_VERBS = frozenset(
    """in on at of for from to with by about into over under near and or but nor the a an this
    that these those my our your his her their its there here who which whose""".split()  # noqa: SIM905
)
_PLURALS = frozenset({"children", "people", "men", "women", "folks", "feet", "teeth", "staff"})


def _plural_verb(words: list[str], start: int) -> int | None:
    """Where a verb of the present simple follows a plural noun that opens at ``start`` (one to
    three words: "my parents live in Porto", "our build servers run Debian", "my two kids go to
    school"): the word after the first plural, if it is not an "-s", "-ed" or "-ing" form or a
    preposition or determiner, with words after it."""
    for j in range(start + 1, min(start + 4, len(words) - 1)):
        w, before = words[j], words[j - 1]
        if w in _BOUNDARY or before in _BOUNDARY:
            return None
        plural = before in _PLURALS or (
            len(before) > 3 and before.endswith("s") and not before.endswith(("ss", "us", "is"))
        )
        if plural:
            verb = w.isalpha() and not w.endswith(("s", "ed", "ing")) and w not in _NOT_VERBS
            return j if verb and w not in _ADVERBS else None
    return None


def _plan(pred: list[str], dated: bool) -> str:
    """A plan ("I'll…", "I'm going to…"): kept with a date, not as the next step of the moment."""
    return "durable" if _content(pred) and dated else "transient"


def _past(verb: str, pred: list[str]) -> str | None:
    if verb not in _CHANGES:
        return None
    return "durable" if _content(pred) else "transient"


# A change of a thing's value, told of the thing rather than of a person: "the team standup
# moved to 10:00", "The staging database was migrated to pg-staging-2", "Hannah switched the
# deploy target from eu-west-1 to eu-central-1". The pronoun clauses above read "We moved to
# Lisbon"; this reads a named subject, one to four words before the verb (after "was", "has
# been"…), with a new value after "to", "from" or "into". Not a change: a hedge or a report
# ("I think the standup moved…", "if the standup moved…"), a negation ("hasn't moved"), a
# plan ("will be moved": a modal stops the subject), the conversation's own drift ("the
# discussion moved to pricing") or a change to a bare "it".
_CHANGED = frozenset(
    """moved relocated switched migrated changed renamed rescheduled shifted transferred
    upgraded downgraded""".split()  # noqa: SIM905
)
_TOWARD = frozenset({"to", "from", "into"})
_CHANGE_AUX = frozenset(
    """was were has have had been is are got just finally already officially recently now
    also""".split()  # noqa: SIM905
)
_CLAUSE_START = _BOUNDARY | {"and", "but", "so"}
_NOT_SUBJECTS = frozenset(
    """i we he she they you it this that these those there things everything something nothing
    anything who which what conversation discussion topic talk chat thread focus subject
    attention mood not never no be do does did""".split()  # noqa: SIM905
)
_HEDGES = frozenset(
    """maybe perhaps probably possibly might could would should guess think thought suppose
    assume seems seemed apparently wonder heard whether unless""".split()  # noqa: SIM905
)


def _change(words: list[str], at: int) -> bool:
    """Whether the change verb ``words[at]`` states a thing's new value (see above)."""
    end = at + 1
    while end < len(words) and end - at <= 5 and words[end] not in _TOWARD:
        if words[end] in _BOUNDARY:
            return False
        end += 1  # the thing changed, when a person is the subject ("Hannah moved the standup")
    if end >= len(words) or words[end] not in _TOWARD or not _content(_predicate(words, end + 1)):
        return False
    if end == at + 2 and words[at + 1] in ("it", "this", "that", "them"):
        return False  # "Hannah changed it to 10:00": what changed is not in the sentence
    i = at - 1
    while i >= 0 and words[i] in _CHANGE_AUX:
        i -= 1
    subject: list[str] = []
    while i >= 0 and len(subject) < 4 and words[i] not in _CLAUSE_START:
        subject.append(words[i])
        i -= 1
    before = words[i] if i >= 0 else ""
    return (
        bool(_content(subject))
        and not set(subject) & (_NOT_SUBJECTS | _MODALS | _PLAN | _SUBORDINATE)
        and before not in _SUBORDINATE
    )


def _subject(word: str, prev: str) -> bool:
    """Whether ``word`` opens a clause that states something: a subject pronoun not in a
    condition or a report ("if I…", "that he…"), or "my"/"our" opening the sentence or a
    clause ("My manager is…")."""
    if word in ("i", "we", "he", "she"):
        return prev not in _SUBORDINATE
    return word in ("my", "our") and (not prev or prev in _BOUNDARY or prev in ("and", "but"))


def _statement(sentence: str) -> str | None:
    """The verdict on ``sentence``: "durable" when a clause states a lasting fact about its
    subject, "transient" when its clauses only say what is happening now, None when it has no
    such clause (see the module docstring)."""
    words = _tokens(sentence)
    dated = _dated(sentence)  # the words are lower case; "in May" is a date only in the original
    verdicts: list[str | None] = []
    for at, w in enumerate(words):
        prev = words[at - 1] if at else ""
        if _subject(w, prev):
            verdicts.append(_clause(words, at, dated))
        elif w in _CHANGED and not set(words) & _HEDGES and _change(words, at):
            verdicts.append("durable")
    if "durable" in verdicts:
        return "durable"
    return "transient" if "transient" in verdicts else None


def _never_kept(sentence: str) -> bool:
    """A question, a request to the assistant, or stalling."""
    if sentence.rstrip(" \"')]”’").endswith("?"):
        return True
    if _STALLING_RE.search(sentence):
        return True
    return bool(_REQUEST_RE.search(sentence)) and not _STANDING_RE.search(sentence)


def durable(sentence: str, speaker: str = "") -> bool:
    """Whether ``sentence`` (without a speaker label) said by ``speaker`` ("user", "assistant",
    "" when unknown) states something worth keeping."""
    if _never_kept(sentence):
        return False
    verdict = _statement(sentence)
    if verdict == "durable" and speaker in (*_PEOPLE, ""):
        return True
    if verdict == "transient":
        return False
    return bool(_DURABLE_RE.search(sentence))


def _opening(rest: str) -> str:
    """What a wrapper held, as a sentence: its first word capitalised when it is a plain word
    ("the staging DB is…" -> "The staging DB is…"), never a path or a name spelt in lower
    case ("scripts/deploy.sh is gone", "pg-staging-2 is the new host")."""
    if re.match(r"[a-z]+(?![\w/.\-])", rest):
        return rest[0].upper() + rest[1:]
    return rest


def _candidates(dump: str) -> list[tuple[str, str]]:
    """``(sentence, speaker)`` for each sentence of the dump's turns. A line without a label
    continues the last labelled turn. The label itself is never part of a sentence: "User: I
    prefer tabs" is kept as "I prefer tabs", since a "User:" in memory reads as raw chat, and
    as a name ("User") to whatever files notes by the people they are about."""
    out: list[tuple[str, str]] = []
    in_fence = False
    turn = ""
    lines = [part for line in dump.splitlines() for part in _INLINE_ROLE_RE.split(line)]
    for line in lines:
        if line.strip().startswith("```"):
            in_fence = not in_fence
            continue
        if _SKIP_ROLE_RE.match(line):
            turn = line.split(":", 1)[0].strip().lower()
            continue
        if in_fence or not line.strip():
            continue
        role = _ROLE_RE.match(line)
        if role:
            turn = _SPEAKERS[role.group(1).lower()]
        body = line[role.end() :] if role else line
        body = body.strip().lstrip("-*• ").strip()
        for sentence in lexical.sentences(body):
            sentence = distill.strip_filler(sentence)
            bare = _WRAPPER_RE.sub("", sentence, count=1)
            asked = bare != sentence and bare[:1].isalnum() and not _never_kept(bare)
            if asked:  # the person asked for it to be kept: what the wrapper held, without it
                sentence = _opening(bare)
            elif not durable(sentence, turn):
                continue
            elif (told := _REMINDER_RE.sub("", sentence, count=1)) != sentence:
                sentence = _opening(told)
            if turn == "assistant" and _ECHO_RE.search(sentence):
                continue
            out.append((sentence, turn))
    return out


def classify(text: str) -> tuple[str, float | None]:
    if _PREFERENCE_RE.search(text):
        return "O", 0.8
    if _EXPERIENCE_RE.search(text):
        return "B", None
    return "W", None


def flush(p: dict[str, Any]) -> dict[str, Any]:
    """The sentences of the dump that state something durable. The write gate is the caller's:
    it counts by reason what it refuses, as it does for a model's proposals."""
    found: list[dict[str, Any]] = []
    seen: set[str] = set()
    for sentence, _speaker in _candidates(p.get("text", "")):
        key = " ".join(lexical.tokens(sentence))
        if key in seen:
            continue
        seen.add(key)
        kind, conf = classify(sentence)
        found.append(
            {"type": kind, "confidence": conf if conf is not None else 0.8, "text": sentence}
        )
    return {"notes": found}
