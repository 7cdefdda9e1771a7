"""A new version of a named thing replaces the old one.

"CI images bumped to Node 20." then, weeks later, "CI base images are on Node 22.": both stayed
current, as did "Postgres upgraded to 16.2 over the weekend" beside "Postgres minor bump to 16.4
done in the maintenance window" (an exploratory test of five weeks of a team lead's notes): the
claims reader finds no attribute in either pair. A name with a version in both notes, the
versions apart, the two notes speaking of one thing (the name opens both, or they share another
content word), is read as an update. Two things on two versions of one language or product stay.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import currency
from agent_sleep.core import notes
from tests.currency_support import replaces


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("CI images bumped to Node 20.", "CI base images are on Node 22."),
        ("Postgres upgraded to 16.2 over the weekend; no downtime.",
         "Postgres minor bump to 16.4 done in the maintenance window."),
        ("Grafana is on v10.", "Grafana upgraded to v11 last night."),
        ("The API runs on Python 3.11.", "The API now runs on Python 3.12."),
        # a plain word after the version is no unit it is counted in ("this morning")
        ("The project targets Python 3.11.",
         "We bumped the project to Python 3.12 this morning; CI is green on it."),
        # the change is said of the named thing itself, nothing else shared
        ("We run Redis 6.2 for caching and sessions.",
         "Upgraded Redis to 7.2 in all environments."),
        ("The backend uses SQLAlchemy 1.4.", "Migration to SQLAlchemy 2.0 is merged."),
        ("We run Redis 6.2.", "Redis upgraded to 7.2."),
    ],
)  # fmt: skip
def test_a_new_version_replaces_the_old(old: str, new: str) -> None:
    v = currency.relation(new, old)
    assert v.kind == currency.SUPERSEDE, v


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The API runs on Python 3.11.", "The docs build uses Python 3.12."),  # another thing
        ("The API runs on Python 3.11.", "Bumped my laptop to Python 3.12."),
        ("The billing service runs on Java 17.", "The search service runs on Java 21."),
        ("Team uses Go 1.21 for services.", "CLI tools are built with Go 1.22."),
        ("Release 2.3 shipped on Friday.", "Release 2.4 is in QA."),  # a sequence, not a version
        ("Meeting in Room 204 on Nov 16.", "Interview in Room 310 on Nov 18."),
        ("Kafka cluster events-prod has 3 brokers.", "Kafka cluster events-dr has 5 brokers."),
        ("Postgres 16 on prod, Postgres 15 on staging.", "Postgres 16 on staging."),  # old named
        ("The app is on React 18.", "Is the app on React 19 yet?"),  # a question
        ("Postgres upgraded to 16.2.", "Postgres might move to 16.4 next quarter."),  # intention
        ("Pinned numpy to 1.24.4.", "Pinned pandas to 2.1.0."),  # a verb opens both
        ("Bumped requests to 2.31.", "Bumped urllib3 to 2.0."),
        ("We run Redis 6.2.", "We now run Redis 7.2 too, for the queue."),  # one more
        ("We run Postgres 14 for the app.", "We also run Postgres 15 for analytics."),
        ("The API runs on Python 3.11.", "Upgraded the docs build to Python 3.12."),
    ],
)  # fmt: skip
def test_no_new_version_read_where_none_is(old: str, new: str) -> None:
    assert currency._new_version(new, old) is None


def test_versions_read() -> None:
    assert currency._versions("CI base images are on Node 22 and Python 3.12.") == {
        "node": frozenset({"22"}),
        "python": frozenset({"3.12"}),
    }
    assert currency._versions("Grafana upgraded to v11 last night.") == {
        "grafana": frozenset({"11"})
    }
    # counted, dated or numbered in a sequence: no version
    assert currency._versions("Kafka has 3.5 TB; standup on Nov 16; Sprint 14; Node 4 nodes") == {}


def test_sleep_keeps_the_new_version_only(ws: Path) -> None:
    day1, day2 = dt.datetime(2026, 11, 2, 9), dt.datetime(2026, 11, 23, 9)
    micro_rest("CI images bumped to Node 20.", "W", workspace=ws, when=day1)
    micro_rest("Loki retention is 14 days.", "W", workspace=ws, when=day1)
    sleep_cycle(ws, provider="offline", now=day1.replace(hour=22))
    micro_rest("CI base images are on Node 22.", "W", workspace=ws, when=day2)
    r = sleep_cycle(ws, provider="offline", now=day2.replace(hour=22))
    current = [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text())]
    assert "CI base images are on Node 22." in current
    assert "CI images bumped to Node 20." not in current, current
    assert "Loki retention is 14 days." in current
    assert r.decisions.get("memory_supersede") == 1, r
    history = "".join(p.read_text() for p in (ws / "bank").rglob("*.md"))
    assert "CI images bumped to Node 20." in history  # kept in History, not lost


def test_a_build_named_as_replaced_replaces_whatever_else_is_shared() -> None:
    """A game studio's "Switched from Unity 2022.3.21f1 to 2022.3.45f1 to get the IL2CPP crash
    fix" shares no word with "Tidewalker is built on Unity 2022.3.21f1 LTS" besides the name
    and the build it replaces, so it was read as nothing; a build number is one thing's."""
    old = ("W", "Tidewalker is built on Unity 2022.3.21f1 LTS.")
    new = ("W", "Switched from Unity 2022.3.21f1 to 2022.3.45f1 to get the IL2CPP crash fix.")
    assert replaces(old, new)
    # a name alone named as replaced still needs a word in common
    assert not replaces(("W", "Sarah is our accountant."),
                        ("W", "Moved the meeting from Sarah's office to room 4."))  # fmt: skip
