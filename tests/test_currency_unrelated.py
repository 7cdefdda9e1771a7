"""A note about something else replaces nothing, even when it uses change language.

Four weeks of a coding agent's notes (an exploratory test) filed true facts in History for
notes that share no subject with them:

- "We dropped LaunchDarkly; feature flags are in a self-hosted Unleash now." replaced "The
  user's name is Dana Whitfield": both read as "be" claims of the user, one with change
  language. A claim that names an attribute ("name") is changed only by one that says
  something of it (or gives a value of its fine kind: "slipped to July 3" for "scheduled for
  June 12").
- "Dana switched editors: they use Neovim now, so give Neovim keybindings rather than VS Code
  ones" replaced "Dana prefers squash merges" (both read as preferences of Dana, with change
  language), and "Dana uses VS Code" stayed current. "rather than VS Code" names the value
  replaced, as "instead of" does, so the entry that holds it is the one replaced.
- "We bumped the project to Python 3.12 this morning; CI is green on it." replaced "CI runs on
  Jenkins" as said alike: the clause that says a change must share a word with the old note.
- "We finished migrating CI off Jenkins; everything runs on GitHub Actions now." replaced "We run
  Redis 6.2" through the learned last word: two notes that share only a verb any two notes
  share ("run", "want") and who they are about say nothing of one thing.
- "Plan: write release notes for v2.0" replaced "The v2.0 release deadline is December 4", and
  a bug report replaced "Cron jobs run in UTC", and "Drafted the v2.0 release notes" replaced
  "The v2.0 release deadline is December 4", through the learned last word. A note labelled as
  a plan, a to-do or a bug, or a line of a work log ("Implemented …", "Drafted …"), is no fact
  that replaces one.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import currency, update_model
from agent_sleep.core import notes


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user's name is Dana Whitfield; their pronouns are they/them.",
         "We dropped LaunchDarkly; feature flags are in a self-hosted Unleash now."),
        ("CI runs on Jenkins at jenkins.acme.internal.",
         "We bumped the project to Python 3.12 this morning; CI is green on it."),
        ("We run Redis 6.2 for caching and sessions.",
         "We finished migrating CI off Jenkins; everything runs on GitHub Actions now."),
    ],
)  # fmt: skip
def test_another_thing_said_with_change_language_replaces_nothing(
    old: str, new: str, similar: object
) -> None:
    names = frozenset({"Dana"})
    v = currency.relation(new, old, names, similar)  # type: ignore[arg-type]
    v = update_model.last_word(new, old, v, similar, names)  # type: ignore[arg-type]
    assert v.kind != currency.SUPERSEDE, v


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Feature flags live in LaunchDarkly.",
         "We dropped LaunchDarkly; feature flags are in a self-hosted Unleash now."),
        ("Dana uses VS Code as their editor.",
         "Dana switched editors: they use Neovim now, so give Neovim keybindings rather than "
         "VS Code ones."),
        ("The mobile app launch is scheduled for June 12.", "The launch slipped to July 3."),
        ("The API base URL is https://a.example/v1.",
         "Switched the API base URL to https://b.example/v2."),
        ("CloudWatch log retention is set to 30 days.",
         "Dropped log retention to 14 days to save on storage."),
        ("Release branch for the current cycle is release/2.7.",
         "Cut release/2.8 this morning; that's the release branch hotfixes target."),
    ],
)  # fmt: skip
def test_the_update_itself_still_replaces(old: str, new: str, similar: object) -> None:
    v = currency.relation(new, old, frozenset({"Dana"}), similar)  # type: ignore[arg-type]
    assert v.kind == currency.SUPERSEDE, v


@pytest.mark.parametrize(
    "new",
    [
        "Plan: write release notes for v2.0 with Omar.",
        "Bug BUG-260: the v2.0 release deadline page shows the wrong timezone.",
        "TODO: move the v2.0 release deadline into the roadmap doc.",
        "Drafted the v2.0 release notes; Omar will review them.",  # a work log's line
        "Implemented the v2.0 release deadline banner behind a feature flag.",
    ],
)
def test_a_labelled_plan_or_a_work_log_line_gets_no_learned_last_word(new: str) -> None:
    old = "The v2.0 release deadline is December 4."
    rules = currency.Verdict(currency.OTHER, "another owner")
    assert update_model.last_word(new, old, rules, lambda a, b: 1.0) == rules


def _opinions_slept(ws: Path, day: int, *texts: str) -> list[str]:
    """``texts`` written as opinions on November ``day`` and slept on: MEMORY.md's entries."""
    for text in texts:
        micro_rest(text, "O", workspace=ws, when=dt.datetime(2026, 11, day, 9), confidence=0.9)
    sleep_cycle(ws, provider="offline", now=dt.datetime(2026, 11, day, 18))
    return [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text())]


def test_the_entry_whose_value_is_named_is_the_one_replaced(ws: Path) -> None:
    said = [
        (2, "Dana uses VS Code as their editor."),
        (6, "Dana prefers squash merges for pull requests."),
        (11, "Dana switched editors: they use Neovim now, so give Neovim keybindings rather "
             "than VS Code ones."),
    ]  # fmt: skip
    for day, text in said:
        current = _opinions_slept(ws, day, text)
    assert said[1][1] in current and said[2][1] in current, current
    assert said[0][1] not in current, current
    # ", not squash" names the merge style: the explanation Dana wants stays
    explain = "Dana wants an explanation of the plan before any code change."
    rebase = "Dana changed their mind on merging: they want rebase merges now, not squash."
    _opinions_slept(ws, 12, explain)
    current = _opinions_slept(ws, 18, rebase)
    assert explain in current and rebase in current, current
    assert said[1][1] not in current, current


def test_a_plain_word_corrected_names_the_value_replaced(ws: Path, similar: object) -> None:
    """ ", not the morning" names the value replaced when it is a plain word: before, the clause
    rules read "prefers customer meetings in the afternoon, not the morning" as the same
    preference as "… in the morning", and the note replaced "prefers account summaries as
    bullet points" instead (an exploratory test of an account manager's notes)."""
    morning = "Priya prefers customer meetings in the morning."
    afternoon = "Priya now prefers customer meetings in the afternoon, not the morning."
    v = currency.relation(afternoon, morning, frozenset(), similar)  # type: ignore[arg-type]
    assert v.kind == currency.SUPERSEDE and v.why == "the old value named", v
    unrelated = "Dana's standup is in the morning."
    assert currency.relation(afternoon, unrelated).kind != currency.SUPERSEDE
    bullets = "Priya prefers account summaries as bullet points."
    _opinions_slept(ws, 2, bullets, morning)
    current = _opinions_slept(ws, 26, afternoon)
    assert bullets in current and afternoon in current, current
    assert morning not in current, current
