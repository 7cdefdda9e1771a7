"""What a session must not miss, however short: a regular expression only, so the session
start (which shows these first) imports nothing heavier."""

from __future__ import annotations

import re

_VITAL_RE = re.compile(
    r"\b(?:allerg\w*|anaphyla\w*|intoleran\w*|celiac|coeliac|diabet\w*|epilep\w*|asthma\w*|"
    r"vegetarian|vegan|halal|kosher|gluten|pregnan\w*|medication|insulin|wheelchair|deaf|blind|"
    r"pronouns?|(?:my|user's|their|his|her|\w+'s) (?:full |legal |preferred )?name is|"
    r"(?:goes|go) by)\b",
    re.I,
)


def vital(text: str) -> bool:
    """Whether a note says what a session must not miss, however short: health and diet (an
    allergy, a condition, a medication), a name, pronouns. Sleep files such a fact in MEMORY.md
    first and moves it out last."""
    return _VITAL_RE.search(text) is not None
