"""A value told twice, in two entries, then changed: both entries carry the new value.

A dental practice's replay noted Emma's mobile twice a week apart, in two wordings ("Emma
(reception) mobile is 07700 900123 - Helen wants it on the out-of-hours call list", then
"Emma's mobile is 07700 900123 if reception needs her on her day off"); each stood as an entry
of its own. "Emma's mobile is 07700 900456" then put right one of them: the other still gave
the old number as current.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.providers import offline_currency

FIRST = "Emma (reception) mobile is 07700 900123 - Helen wants it on the out-of-hours call list."
SECOND = "Emma's mobile is 07700 900123 if reception needs her on her day off."
CHANGE = "Emma's mobile is 07700 900456."


def _supersedes(new: str, memory: list[tuple[str, str, str]]) -> dict:
    entries = [
        {"id": ref, "type": kind, "text": text, "date": "2026-09-07"} for ref, kind, text in memory
    ]
    out = offline_currency.supersedes(
        [("W", new, ["n1"], 0.8, "2026-09-25")], entries, [], frozenset({"Emma", "Helen"})
    )
    return out[0]


def test_every_entry_that_holds_the_old_number_is_put_right() -> None:
    item = _supersedes(CHANGE, [("a", "W", FIRST), ("b", "W", SECOND)])
    texts = {item["replaces"]: item["text"], **item.get("copies", {})}
    assert set(texts) == {"a", "b"}
    assert all("07700 900456" in t and "900123" not in t for t in texts.values())
    assert "Helen wants it on the out-of-hours call list" in texts["a"]
    assert "day off" in texts["b"]


def test_an_event_that_used_the_old_number_is_no_copy() -> None:
    # what happened stays as it happened: the call was made on the old number
    item = _supersedes(
        CHANGE, [("a", "W", FIRST), ("c", "B", "Rang Emma on 07700 900123 about Monday's rota.")]
    )
    assert item["replaces"] == "a"
    assert "copies" not in item


def test_another_persons_entry_is_no_copy() -> None:
    item = _supersedes(
        CHANGE, [("a", "W", FIRST), ("d", "W", "Tom's mobile is 07700 900777, he covers Fridays.")]
    )
    assert item["replaces"] == "a"
    assert "copies" not in item


def test_through_sleep_no_entry_gives_the_old_number(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    others = [
        "Practice opens 8am to 6pm on weekdays.",
        "Dr Patel works Mondays, Tuesdays and Thursdays.",
        "The dental lab is Crestwood Dental Lab in Salford.",
        "Megan the hygienist works Wednesdays and Fridays.",
        "Compressor service is with Apex Air every March.",
        "Card machine provider is Dojo.",
        "Waste collection is by Initial on Tuesdays.",
        "Alarm company is Banham; the code is held by Helen.",
    ]
    days = [
        (dt.datetime(2026, 9, 7, 9, 5), [FIRST, *others[:4]]),
        (dt.datetime(2026, 9, 15, 10, 30), [SECOND, *others[4:]]),
        (dt.datetime(2026, 9, 25, 10, 0), [CHANGE]),
    ]
    for when, texts in days:
        for k, text in enumerate(texts):
            micro_rest(text, type="W", workspace=ws, when=when + dt.timedelta(minutes=k))
        sleep_cycle(ws, now=when.replace(hour=23, minute=0))
    facts = [line for line in (ws / "MEMORY.md").read_text().splitlines() if line.startswith("- ")]
    assert not [line for line in facts if "900123" in line]
    assert len([line for line in facts if "07700 900456" in line]) == 2
    history = "".join(p.read_text() for p in (ws / "bank").rglob("*.md"))
    assert history.count("07700 900123") >= 2  # both old entries kept in History
