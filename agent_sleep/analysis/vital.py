"""What a session must not miss, however short: regular expressions only, so the session
start (which shows these first) imports nothing heavier."""

from __future__ import annotations

import re

_KINDS = {
    "health": re.compile(
        r"\b(?:allerg\w*|anaphyla\w*|intoleran\w*|celiac|coeliac|diabet\w*|epilep\w*|asthma\w*|"
        r"pregnan\w*|medications?|medicines?|meds|insulin|wheelchair|deaf|blind|prescri\w*|"
        r"dosage|doses?|pills?|inhalers?|epipen|heart failure|dementia|alzheimer\w*|"
        r"parkinson\w*|seizures?|pacemaker|blood thinners?|anticoagula\w*|contraindicat\w*|"
        r"interacts? with|do not resuscitate|DNR)\b"
        # a dose: "takes levothyroxine 75 mcg every morning"
        r"|\b\d+(?:[.,]\d+)?\s?(?:mg|mcg|µg|μg)\b"
        # a drug by the ending of its name: "is on warfarin", "takes atorvastatin"
        r"|\b[a-z]{2,}(?:farin|xaban|parin|statin|pril|sartan|olol|cillin|mycin|cycline|"
        r"floxacin|prazole|dipine|triptan|azepam|zolam|oxetine|pramine|tidine|thiazide|semide|"
        r"gliptin|gliflozin)\b",
        re.I,
    ),
    "diet": re.compile(
        r"\b(?:vegetarian|vegan|pescatarian|pescetarian|flexitarian|halal|kosher|gluten|"
        r"dairy-free|lactose-free|keto|paleo|plant-based|nut-free|sugar-free|salt-free|"
        r"low[- ](?:sodium|salt|sugar|fat|carb|potassium|protein)|fluid restriction)\b"
        # a food kept out: "no grapefruit", "no more than 2 g of salt a day", "avoid alcohol"
        r"|\b(?:no|avoid\w*|limit\w*|restrict\w*|cut out)\s+"
        r"(?:(?:more|less|than|of|added|extra|too|much|any|\d[\d.]*|g|mg|grams?)\s+){0,5}"
        r"(?:grapefruit|alcohol|salt|sodium|sugar|nuts|peanuts|dairy|shellfish|pork|caffeine)\b"
        r"(?!\s+(?:is|are|was|were|sold|served|available|left|on)\b)",  # "no nuts are sold"
        re.I,
    ),
    "identity": re.compile(
        r"\b(?:pronouns?|(?:my|user's|their|his|her|\w+'s) (?:full |legal |preferred )?name is|"
        r"(?:goes|go) by)\b"
        # whom the agent works for, said in the first person: "I'm the lettings negotiator at
        # Marlow & Finch", "I work for Harbour Dental", "I run the front desk at …"
        r"|^\s*I(?:['’]m| am) (?:the |a |an )?[\w '’-]{2,40}? (?:at|for|of|with) [A-Z]"
        r"|^\s*I (?:work|volunteer|run [\w '’-]{2,30}?) (?:at|for|with) [A-Z]",
        re.I,
    ),
    # a standing rule told to the agent, as an order that opens a sentence or follows a label:
    # "Never push to main directly", "Hard rule: always run the tests first" (not "the API
    # always returns JSON", a description)
    "rule": re.compile(
        r"(?:^|[.;!?]\s+|\brules?:\s*|:\s+)(?:never|always|do not|don't|must not|mustn't)"
        r"\s+(?!been\b|be\b)[a-z]{2,}"
        # what must be done, said of anyone: "Duke has to wear a muzzle for nail trims",
        # "Patch test must be done at least 48 hours before any colour" (not a day's errand:
        # "has to leave early today")
        r"|\b(?:must|has to|have to|needs to|need to|is required to|are required to)\s+"
        r"(?!have been\b)[a-z]{2,}(?![^.;]*\b(?:today|tonight|tomorrow|this (?:week|morning|"
        r"afternoon|evening)|by (?:mon|tues|wednes|thurs|fri|satur|sun)day)\b)"
        # a limit, who alone may, how far ahead: "Holding deposits are capped at one week's
        # rent", "Only Bill and Lena are trained to use the strimmer", "at least 48 hours
        # before"
        r"|\b(?:is|are) (?:capped|limited) (?:at|to)\b|\bnot allowed\b"
        # "no walker takes more than 4 dogs at once", "never more than six in the pool"
        r"|\bno (?:[a-z]+ ){1,3}?more than \d+\b|\bnever (?:[a-z]+ ){0,3}?more than \d+\b"
        # a most allowed, a thing kept out from a time of day: "holds 120 people max", "a
        # maximum of 60", "No under-18s in the taproom after 9pm", "no dogs allowed"
        r"|\b\d+ (?:[a-z]+ )?max(?:imum)?\b|\bmax(?:imum)? (?:of )?\d+\b"
        r"|^\s*no [\w-]+(?:s|ing)(?: [a-z]+){0,4}? (?:after|before) "
        r"\d{1,2}(?::\d{2})?\s?(?:am|pm)\b"
        r"|^\s*no [\w-]+(?:s|ing)? (?:allowed|permitted)\b"
        r"|^\s*only [^.;]{1,40}? (?:may|can|are allowed|is allowed|are trained|is trained)\b"
        r"|\bat least \d+\s*(?:hours?|days?|weeks?) (?:before|ahead|in advance|notice)\b",
        re.I,
    ),
}


def kinds(text: str) -> frozenset[str]:
    """What ``text`` says that a session must not miss: ``health`` (an allergy, a condition, a
    medication), ``diet``, ``identity`` (a name, pronouns, whom the agent works for: "I'm the
    lettings negotiator at Marlow & Finch"), ``rule`` (a standing order: "Never push to main
    directly", "Duke has to wear a muzzle for nail trims", "Holding deposits are capped at one
    week's rent"); empty for anything else."""
    return frozenset(k for k, pattern in _KINDS.items() if pattern.search(text))


def vital(text: str) -> bool:
    """Whether a note says what a session must not miss, however short: health and diet (an
    allergy, a condition, a medication), a name, pronouns, a standing rule. Sleep files such a
    fact in MEMORY.md first and moves it out last."""
    return bool(kinds(text))


def terms(text: str) -> frozenset[str]:
    """The words by which ``text`` says what a session must not miss, cut to their first five
    letters ("allergic" and "allergy" are one: "aller"), lower case."""
    return frozenset(
        m.group(0).lower()[:5] for pattern in _KINDS.values() for m in pattern.finditer(text)
    )


# an opinion that says a liking or a wish ("prefers written updates", "hates phone calls"),
# which outlasts a passing impression ("the carer seemed cheerful")
_LIKING_RE = re.compile(
    r"\b(?:prefer\w*|likes?|liked|loves?|loved|enjoy\w*|hates?|hated|dislikes?|wants?|wanted|"
    r"wish\w*|favou?rite|rather|instead|always|never|should|must|please|avoid\w*|"
    r"can['’]t stand|allergic)\b",
    re.I,
)


def impression(kind: str, text: str) -> bool:
    """Whether an entry of type ``kind`` is a passing impression: an opinion (O) that says no
    liking or wish. Sleep moves such an entry out of MEMORY.md before a fact when over its
    budget, and the session start shows it after the rest."""
    return kind == "O" and not _LIKING_RE.search(text)
