"""What a session must not miss reaches the session start however old it is.

MEMORY.md over ``max_memory_chars`` was trimmed to each section's newest entries, so after six
weeks of notes the session-start block showed last week's flight and pizza but not "Maya is
allergic to penicillin" or "Maya is vegetarian", written on the first day (an exploratory
test). Now such entries (an allergy, a diet, a name: ``analysis.vital``) are taken first.
"""

from __future__ import annotations

from pathlib import Path

from agent_sleep import get_context
from agent_sleep.retrieval.context import memory_section

VITAL = ["Maya is allergic to penicillin.", "Maya is vegetarian.", "Her preferred name is Mo."]


def _memory(extra: int) -> str:
    lines = ["# MEMORY", "", "## Facts", ""]
    lines += [f"- W: {t} <!-- id=vital0000{k} -->" for k, t in enumerate(VITAL)]
    lines += [
        f"- B: Event {k}: the team met about rollout step {k} of the billing plan. "
        f"<!-- id=event{k:05d} -->"
        for k in range(extra)
    ]
    return "\n".join(lines) + "\n"


def test_vital_entries_are_shown_before_newer_ones() -> None:
    text = _memory(60)
    shown = memory_section(text, 1200)
    assert len(shown) <= 1200 + 200  # the entries within the budget, and the one-line notice
    for fact in VITAL:
        assert fact in shown, shown
    assert "Event 59:" in shown  # the newest still come next
    assert "Event 0:" not in shown and "not shown" in shown


def test_all_fits_nothing_changes() -> None:
    text = _memory(3)
    shown = memory_section(text, 100_000)
    assert [ln for ln in shown.splitlines() if ln.startswith("- ")] == [
        *(f"- W: {t}" for t in VITAL),
        *(
            f"- B: Event {k}: the team met about rollout step {k} of the billing plan."
            for k in range(3)
        ),
    ]


def test_session_start_shows_them(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "MEMORY.md").write_text(_memory(80))
    block = get_context(ws, max_memory_chars=1500)
    for fact in VITAL:
        assert fact in block


def test_a_name_told_in_passing_reaches_memory_md(tmp_path: Path) -> None:
    # a B note with the user's name and pronouns went only to a bank page, so the session start
    # never showed it (an exploratory test); an allergy or a diet told in passing likewise
    import datetime as dt

    from agent_sleep import micro_rest, sleep_cycle

    ws = tmp_path / "ws"
    when = dt.datetime(2026, 10, 26, 9, 5)
    micro_rest("First session with Jordan Reyes. He leads the platform team. Pronouns he/him.",
               "B", workspace=ws, when=when)  # fmt: skip
    micro_rest("Deploys run on Jenkins.", "W", workspace=ws, when=when)
    sleep_cycle(ws, provider="offline", now=when.replace(hour=22))
    memory = (ws / "MEMORY.md").read_text()
    assert "Pronouns he/him" in memory and "Jordan Reyes" in memory
    assert "Pronouns he/him" in get_context(ws, today=when.date())


def test_a_standing_rule_is_vital_a_description_is_not() -> None:
    """A rule told to the agent ("Never push to main directly") was moved out of MEMORY.md at
    its budget for newer routine facts, and so out of every session start (an exploratory
    test of four weeks of a coding agent's notes)."""
    from agent_sleep.analysis import vital

    for rule in ["Never push to main directly; always open a pull request.",
                 "Hard rule: always run the tests first.", "Do not deploy on Fridays.",
                 "Jordan: never use emoji in commit messages."]:  # fmt: skip
        assert vital.kinds(rule) == {"rule"}, rule
    for text in ["The API always returns JSON.", "We never got the invoice.",
                 "I always have coffee at 9.", "Never been to Rome."]:  # fmt: skip
        assert not vital.vital(text), text


def test_sleep_keeps_a_standing_rule_at_the_budget(ws: Path) -> None:
    import datetime as dt

    from agent_sleep import micro_rest, sleep_cycle

    rule = "Never push to main directly; always open a pull request."
    micro_rest(rule, "W", workspace=ws, when=dt.datetime(2026, 11, 2, 9))
    sleep_cycle(ws, provider="offline", now=dt.datetime(2026, 11, 2, 18))
    facts = [f"Service s{k} is written in Go and owned by team t{k}." for k in range(12)]
    for day in range(3, 7):
        for k in range(3):
            text = facts[(day - 3) * 3 + k]
            micro_rest(text, "W", workspace=ws, when=dt.datetime(2026, 11, day, 9, k))
        sleep_cycle(ws, provider="offline", now=dt.datetime(2026, 11, day, 18),
                    memory_budget_chars=700)  # fmt: skip
    memory = (ws / "MEMORY.md").read_text()
    assert rule in memory
    assert "memory_evicted" in (ws / ".agent-sleep" / "journal.jsonl").read_text()  # room made


def test_a_daily_medication_is_vital() -> None:
    """ "Inês takes levothyroxine 75 mcg every morning" was the first entry the budget moved out
    of MEMORY.md, and so out of the session start (six weeks of a personal assistant's notes):
    no word of the health list named it. A dose does."""
    from agent_sleep.analysis import vital

    for text in ["Inês takes levothyroxine 75 mcg every morning before breakfast.",
                 "Takes 500mg metformin with dinner.", "New prescription: sertraline.",
                 "Keep her EpiPen in the school bag."]:  # fmt: skip
        assert vital.kinds(text) == {"health"}, text
    for text in ["The upload limit is 20 MB.", "The kids' tablets are in the drawer."]:
        assert not vital.vital(text), text


def test_a_condition_and_a_food_kept_out_are_vital() -> None:
    """ "Dad is on a low-sodium diet: no more than 2 g of salt a day" was trimmed from the
    session start while trivia stayed (five weeks of a carer's notes): no word of the lists
    named a salt limit, a food to avoid, a drug interaction or heart failure."""
    from agent_sleep.analysis import vital

    for text, kind in [
        ("Dad is on a low-sodium diet: no more than 2 g of salt a day.", "diet"),
        ("Limit salt to 6 g a day.", "diet"),
        ("Avoid alcohol while on metronidazole.", "diet"),
        ("Walter has heart failure.", "health"),
        ("Grapefruit interacts with his atorvastatin.", "health"),
    ]:
        assert kind in vital.kinds(text), text
    for text in ["Salt is 2% of flour weight in the levain.",
                 "We had no time to limit the scope of the sugar project.",
                 "No more than 20 croissants on Mondays."]:  # fmt: skip
        assert not vital.vital(text), text
