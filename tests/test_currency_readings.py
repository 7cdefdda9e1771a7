"""Readings of a note that had kept a replaced fact current.

Found by four weeks of a coding agent's notes, each pair stayed current side by side:

- "We moved our metrics to Grafana Cloud." after "Metrics are shipped to Datadog.": the word
  that opens the older note is capitalised, and was read as a name apart from the user's own
  ("our metrics"), so the two were taken for two owners;
- "The v2.0 deadline slipped two weeks, to December 18." after "The v2.0 release deadline is
  December 4.": "two weeks" was read as what slipped, not by how much;
- "Decision: the public API will be GraphQL." was read as a speaker's intention ("Decision" as
  who speaks, "will" as a plan), so no later decision could replace it.
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import currency
from agent_sleep.analysis.claims import claims


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Metrics are shipped to Datadog.", "We moved our metrics to Grafana Cloud."),
        ("Invoices are sent from Xero.", "We moved our invoices to QuickBooks."),
        ("The v2.0 release deadline is December 4.",
         "The v2.0 deadline slipped two weeks, to December 18."),
        ("The launch date is May 3.", "The launch date slipped a few days, to May 7."),
        ("Decision: the public API will be GraphQL.",
         "Decision: the public API will be REST, not GraphQL."),
    ],
)  # fmt: skip
def test_replaced(old: str, new: str) -> None:
    assert currency.relation(new, old).kind == currency.SUPERSEDE


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Maria owns the billing service.", "Dev owns the search service."),
        ("Metrics are shipped to Datadog.", "Logs are shipped to Loki."),
        ("The v2.0 release deadline is December 4.", "The v3.0 deadline is March 2."),
        ("Decision: the public API will be GraphQL.", "Decision: the admin API will be REST."),
    ],
)  # fmt: skip
def test_not_replaced(old: str, new: str) -> None:
    assert currency.relation(new, old).kind != currency.SUPERSEDE


def test_an_amount_of_time_is_not_what_changed() -> None:
    (c,) = claims("The v2.0 deadline slipped two weeks, to December 18.")
    assert c.owner == {"deadline"}
    assert "week" not in c.owner | c.qualifiers


def test_a_decision_label_is_no_speaker_and_no_intention() -> None:
    (c,) = claims("Decision: the public API will be GraphQL.")
    assert c.speaker == ""
    assert not c.modal
    (plan,) = claims("The public API will be GraphQL.")
    assert plan.modal  # without the label, "will" is still an intention
