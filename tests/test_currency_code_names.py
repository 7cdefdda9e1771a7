"""Notes about services named the way code names things ("orders-api", "invoice_svc").

Five weeks of a coding agent's notes about two look-alike services (an exploratory test)
retired 15 true facts. A service's name, written in lower case and joined, was read as a thing
two notes share rather than whose they are, so "Run orders-api tests with make test-orders"
retired "orders-api CI runs on GitHub Actions" ("on-call" and "fine-tuning", joined by a
hyphen with no part that names a piece of software, are still things two notes share).
Beside it: a plan ("Plan for next week: upgrade … to Python 3.12") retired the version in use
five days early; "… is on Python 3.12 now, same as orders-api" retired orders-api's own
version; a follow-up work-log line ("Updated the docker-compose file … for the port move")
retired the new port; and "./scripts/deploy.sh is deprecated" did not replace "Deploys are
done with ./scripts/deploy.sh".
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import update_model
from agent_sleep.core import notes

DAY1 = dt.datetime(2026, 11, 2, 9, 0)
DAY2 = dt.datetime(2026, 11, 20, 9, 0)
CONTEXT = [
    "Ruff enforces a line length of 100 across the repo.",
    "Both services share the Redis cache at redis-main-1.",
    "Hannah Cole is the tech lead for the commerce platform.",
]


def _kept(ws: Path) -> str:
    return (ws / "MEMORY.md").read_text() + "".join(
        p.read_text() for p in (ws / "bank").rglob("*.md")
    )


def _current(ws: Path) -> list[str]:
    return [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text())]


def _two_days(ws: Path, olds: list[str], news: list[tuple[str, str]]) -> None:
    for text in [*CONTEXT, *olds]:
        micro_rest(text, "W", workspace=ws, when=DAY1)
    sleep_cycle(ws, provider="offline", now=DAY1.replace(hour=22))
    for k, (kind, text) in enumerate(news):
        micro_rest(text, kind, workspace=ws, when=DAY2 + dt.timedelta(minutes=10 * k))
    sleep_cycle(ws, provider="offline", now=DAY2.replace(hour=22))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("orders-api CI runs on GitHub Actions",
         ("W", "Run orders-api tests with make test-orders")),
        ("invoice-svc exposes gRPC on port 50051 for internal callers",
         ("W", "tox -e invoice is deprecated; invoice-svc tests now run with make test-invoice")),
        ("orders-api's Postgres is pg-main-2",
         ("B", "Rebased the orders-api feature branch on main and resolved conflicts")),
        ("invoice-svc has the invoice.pdf_v2 feature flag enabled everywhere",
         ("W", "invoice-svc alerts are posted to #invoice-alerts")),
        ("orders-api runs on Python 3.12 now",
         ("W", "invoice-svc is on Python 3.12 now, same as orders-api")),
        ("orders-api runs on Python 3.11",
         ("B", "Plan for next week (week of 2026-11-23): upgrade orders-api to Python 3.12")),
        # one more, not another: "as well", "still"
        ("invoice-svc staging lives at https://invoice.staging.example.internal",
         ("W", "invoice-svc has 2 staging replicas as well")),
        ("Schema migrations are managed with Alembic, one folder per service",
         ("W", "Hannah Cole still owns invoice-svc and reviews all its schema migrations")),
        # an address is no new port; a Python version is no new release
        ("orders-api listens on port 8081 locally and in staging",
         ("W", "orders-api staging is at https://orders.staging.example.internal")),
        ("invoice-svc is at release v1.4.0", ("W", "invoice-svc upgraded to Python 3.11")),
    ],
)  # fmt: skip
def test_another_thing_said_of_the_same_service_replaces_nothing(
    ws: Path, old: str, new: tuple[str, str]
) -> None:
    _two_days(ws, [old], [new])
    kept = _kept(ws)
    assert old in kept
    assert "superseded_by=" not in kept, kept


def test_a_follow_up_of_a_change_keeps_the_new_value(ws: Path) -> None:
    _two_days(
        ws,
        ["invoice-svc listens on port 8082"],
        [
            ("W", "invoice-svc moved to port 8092 because 8082 clashed with the metrics sidecar"),
            (
                "B",
                "Updated the docker-compose file and the invoice-svc k8s service for the port move",
            ),
        ],
    )
    current = _current(ws)
    assert any("8092" in t for t in current), current
    assert "invoice-svc listens on port 8082" not in current


def test_an_upgrade_replaces_the_version_not_another_fact_of_the_service(ws: Path) -> None:
    _two_days(
        ws,
        ["invoice-svc is still on Python 3.10", "invoice-svc is a Flask 3.0 app"],
        [("W", "invoice-svc upgraded to Python 3.11")],
    )
    current = _current(ws)
    assert "invoice-svc is a Flask 3.0 app" in current
    assert "invoice-svc is still on Python 3.10" not in current
    assert "invoice-svc upgraded to Python 3.11" in current


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Deploys are done with ./scripts/deploy.sh <service> <env>",
         "./scripts/deploy.sh is deprecated; deploy with make deploy SERVICE=<name> ENV=<env>"),
        ("Builds use tools/build_all.py",
         "tools/build_all.py is now retired; run ./scripts/build.sh"),
    ],
)  # fmt: skip
def test_a_path_said_to_be_deprecated_is_the_value_replaced(old: str, new: str) -> None:
    from agent_sleep.analysis import currency

    verdict = currency.relation(new, old)
    assert verdict.kind == currency.SUPERSEDE
    assert verdict.why == "the old value named"


@pytest.mark.parametrize("word", ["orders-api", "invoice_svc", "search.worker", "payments-gateway"])
def test_a_joined_lower_case_name_is_a_code_name(word: str) -> None:
    assert update_model._code_name(word)


def test_a_small_number_named_as_replaced_counts_the_same_thing() -> None:
    from agent_sleep.analysis import currency

    verdict = currency.relation(
        "Bumped orders-api staging replicas from 2 to 3",
        "Ran the invoice-svc load test against staging; 2 failures due to expired fixtures",
    )
    assert verdict.why != "the old value named"
    verdict = currency.relation(
        "Bumped required reviews from 1 to 2 on the default branch",
        "Default branch protection requires 1 approving review.",
    )
    assert verdict.kind == currency.SUPERSEDE and verdict.why == "the old value named"


@pytest.mark.parametrize(
    "word", ["postgres", "on", "api2", "test-2", "Orders-API", "on-call", "fine-tuning"]
)
def test_other_words_are_not(word: str) -> None:
    assert not update_model._code_name(word)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a switch thrown the other way
        ("The billing.async_invoices feature flag is off in production for orders-api",
         "Turned on billing.async_invoices in production for orders-api"),
        ("checkout.fast_path is enabled for all users",
         "Disabled checkout.fast_path after the incident"),
        # a host of one series, a release of one service
        ("invoice-svc's Postgres database lives on pg-main-1",
         "invoice-svc's Postgres is pg-main-3"),
        ("invoice-svc is now at v1.5.0 in production", "invoice-svc v1.6.0 is out"),
    ],
)  # fmt: skip
def test_a_value_of_the_same_thing_replaces_it(ws: Path, old: str, new: str) -> None:
    _two_days(ws, [old], [("W", new)])
    current = _current(ws)
    assert new in current
    assert old not in current


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The billing.async_invoices feature flag is off in production for orders-api",
         "Turned on billing.async_invoices in staging for orders-api"),
        ("checkout.fast_path is enabled for all users", "Disabled search.fuzzy after the incident"),
        ("orders-api is at v2.8.1 after the rounding hotfix", "invoice-svc v1.6.0 is out"),
    ],
)  # fmt: skip
def test_another_switch_or_another_service_replaces_nothing(ws: Path, old: str, new: str) -> None:
    _two_days(ws, [old], [("W", new)])
    assert old in _current(ws)


def test_a_new_version_outranks_the_plan_it_fulfils(ws: Path) -> None:
    """The plan reads as like the new note as the version it replaces, or more: the rules'
    reading ("a new version") ranks above the learned model's."""
    for text in [*CONTEXT, "orders-api runs on Python 3.11"]:
        micro_rest(text, "W", workspace=ws, when=DAY1)
    sleep_cycle(ws, provider="offline", now=DAY1.replace(hour=22))
    later = DAY1 + dt.timedelta(days=3)
    micro_rest(
        "Plan for next week: upgrade orders-api to Python 3.12", "B", workspace=ws, when=later
    )
    sleep_cycle(ws, provider="offline", now=later.replace(hour=22))
    micro_rest("orders-api runs on Python 3.12 now", "W", workspace=ws, when=DAY2)
    sleep_cycle(ws, provider="offline", now=DAY2.replace(hour=22))
    current = _current(ws)
    assert "orders-api runs on Python 3.12 now" in current
    assert "orders-api runs on Python 3.11" not in current
