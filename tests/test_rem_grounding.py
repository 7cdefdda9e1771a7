"""REM's dreams and next-session actions take their numbers and names from what REM was shown.

NREM's items were checked against the notes they cite (``unsupported_value``); REM's were not,
so a model's "Follow up: migrate the payments API to Go 1.22 by Friday", citing a note about
the CI runner, went into today's log and came back at the next session start as a planned
action. Now a dream or an action with a number or a name nothing REM was shown says is dropped.
REM links what it was shown, so a value of any entry or note shown (not only those cited) and
the run's own date are allowed.
"""

from __future__ import annotations

from pathlib import Path

from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core.rest import micro_rest
from tests.fake_messages_api import QueueProvider
from tests.test_hostile_support import NOW, TODAY, day


def _rem(actions: list[dict[str, object]], dreams: list[dict[str, object]]) -> dict[str, object]:
    return {
        "aha_moments": dreams,
        "creative_connections": [],
        "confidence_updates": [],
        "new_bank_suggestions": [],
        "next_session_actions": actions,
    }


def test_a_dream_or_action_with_a_made_up_value_is_dropped(ws: Path) -> None:
    ci = micro_rest("The CI runner moved to the m7 pool.", "W", workspace=ws, when=day(0))
    db = micro_rest("Postgres 16.4 is on prod since Tuesday.", "W", workspace=ws, when=day(0))
    reply = _rem(
        actions=[
            {"text": "Migrate the payments API to Go 1.22", "sources": [ci]},  # made up
            {"text": "Check the m7 pool runs Postgres 16.4 jobs", "sources": [ci]},  # shown
            {"text": f"Review the CI runner change of {TODAY.isoformat()}", "sources": [ci]},
        ],
        dreams=[{"text": "Kubernetes 1.31 and the m7 pool both changed", "sources": [ci, db]}],
    )
    r = sleep_cycle(ws, "rem", QueueProvider().enqueue(reply), now=NOW)
    log = (ws / f"memory/{TODAY.isoformat()}.md").read_text()
    assert "Go 1.22" not in log and "Kubernetes 1.31" not in log
    assert "Check the m7 pool runs Postgres 16.4 jobs" in log
    assert f"Review the CI runner change of {TODAY.isoformat()}" in log
    assert r.dropped.get("unsupported_value") == 2, r.dropped
