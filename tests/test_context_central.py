"""A trimmed MEMORY.md keeps what the memory is about, however old, beside what is newest.

By date alone, the first facts learned were cut first: after five weeks a research assistant's
session-start block no longer said that Lena is a PhD student or who her advisor is, and a
wedding planner's no longer gave the couple, the date or the venue, while a month of passing
details stayed (exploratory tests). Now each section shows, in turn, its most central entries
(those naming what most entries name) and its newest.
"""

from __future__ import annotations

from agent_sleep.retrieval.context import memory_section

PLACES = [
    "Oslo",
    "Lisbon",
    "Quito",
    "Hanoi",
    "Dakar",
    "Lima",
    "Riga",
    "Tunis",
    "Minsk",
    "Sofia",
    "Male",
    "Apia",
    "Suva",
    "Doha",
    "Baku",
    "Accra",
    "Bern",
    "Kyiv",
    "Rome",
    "Vaduz",
    "Nuuk",
    "Lome",
    "Niamey",
    "Praia",
    "Malabo",
    "Honiara",
    "Funafuti",
    "Majuro",
    "Palikir",
]


def _entry(text: str, day: str, k: int) -> str:
    return f"- W: {text} <!-- id=e{k:08d} sources=n{k:08d} date={day} -->"


def _memory(first: list[str], details: list[str], last: str, opinions: list[str]) -> str:
    lines = [_entry(t, "2026-10-01", k) for k, t in enumerate(first)]
    lines += [_entry(t, f"2026-10-{10 + k % 20:02d}", 100 + k) for k, t in enumerate(details)]
    lines.append(_entry(last, "2026-11-30", 999))
    liked = [_entry(t, f"2026-11-{10 + k:02d}", 500 + k) for k, t in enumerate(opinions)]
    return (
        "# MEMORY\n\n## Facts\n\n"
        + "\n".join(lines)
        + "\n\n## Preferences\n\n"
        + "\n".join(liked).replace("- W:", "- O:")
        + "\n"
    )


FIRST = [
    "Lena is a third-year PhD student; her thesis is on question answering.",
    "Lena's advisor is Prof. Okafor.",
]
LIKES = [f"Lena thinks chapter {k} of the draft reads well; Prof. Okafor agrees." for k in range(6)]
DETAILS = [f"The conference hotel in {p} quoted a rate for the workshop week." for p in PLACES]
NEWEST = "The defence of Lena's thesis is on March 3, 2027."


def test_the_first_facts_about_the_user_survive_the_trim() -> None:
    text = _memory(FIRST, DETAILS, NEWEST, LIKES)
    section = memory_section(text, 1000)
    assert "older entries" in section  # trimmed: not all of it fits
    assert FIRST[1] in section and FIRST[0] in section  # by date alone: both cut
    assert NEWEST in section  # what changed last is still shown
    assert LIKES[-1] in section  # and each section has its turn
    shown_details = [d for d in DETAILS if d in section]
    assert len(shown_details) < len(DETAILS)  # passing details go first


def test_without_names_the_trim_keeps_the_newest() -> None:
    """Where no name ties entries together, the order is the dates' alone."""
    plain = [f"component c{k} is owned by team t{k}." for k in range(40)]
    lines = [_entry(t, f"2026-10-{1 + k % 28:02d}", k) for k, t in enumerate(plain)]
    section = memory_section("# MEMORY\n\n## Facts\n\n" + "\n".join(lines) + "\n", 600)
    shown = [k for k in range(40) if f"component c{k} " in section]
    days = {k: 1 + k % 28 for k in range(40)}
    cut = [k for k in range(40) if k not in shown]
    assert shown and cut and min(days[k] for k in shown) >= max(days[k] for k in cut)
