"""Words that open an agent's log lines are no names, so no entity page is named after them.

Four weeks of a coding agent's notes filed entries on ``bug.md``, ``fixed.md``, ``plan.md``,
``user.md`` and ``fixed-bug-325.md``: "Bug", "Fixed" and "Plan" open many notes and were never
written in lower case, so they were taken for names; and REM's "Changed on DATE: A → Fixed …"
put "Fixed" mid-sentence, after the arrow.
"""

from __future__ import annotations

from agent_sleep.analysis import distill

LOG = [
    "Bug BUG-240: PDF invoices lose the logo when the company name has an ampersand.",
    "Fixed BUG-240 by escaping the company name in the template.",
    "Bug BUG-252: the CSV import hangs on files with Windows line endings.",
    "Fixed BUG-252 by opening the CSV with newline=''.",
    "Plan: add an index on invoices(customer_id).",
    "Plan for tomorrow: add retries with backoff to the webhook sender.",
    "User prefers short answers.",
    "User wants Neovim keybindings.",
    "Changed on 2026-11-09: Local Postgres runs on port 5432. → Moved local Postgres to 5433.",
    "Alice owns the billing service.",
    "Alice said the export can wait.",
]


def test_log_openers_are_no_names() -> None:
    known = distill.known_names(LOG)
    for word in ("Bug", "Fixed", "Plan", "User", "Moved"):
        assert word not in known
    assert "Alice" in known  # opens two notes, never in lower case: a name
    assert "Postgres" in known
    assert not any("Fixed" in n for n in distill.names("Fixed BUG-325 by rounding.", known))


def test_a_log_opener_written_mid_sentence_is_still_a_name() -> None:
    known = distill.known_names(["Our new client is Fixed Gear.", "Fixed BUG-9 today."])
    assert "Fixed" in known


def test_an_arrow_opens_a_statement() -> None:
    assert "Fixed" not in distill.names("A → Fixed the flaky test.")
