"""LoCoMo loading and import, shared by the benchmarks.

Each conversation goes into its own workspace through ``micro_rest``: every turn becomes a B
note ``Speaker: text [shares a photo: caption]`` filed in the log of its session's date, with
the turn's ``dia_id`` as its source. The dataset's generated summaries and observations are
never used. The data stays where it is; pass its path.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from agent_sleep.analysis import temporal
from agent_sleep.core.rest import micro_rest

DEFAULT_PATH = Path(__file__).resolve().parent.parent.parent / "shared/data/locomo/locomo-dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_EVIDENCE_RE = re.compile(r"D\d+:\d+")
_SESSION_KEY = re.compile(r"^session_(\d+)$")


@dataclass(frozen=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    when: dt.datetime
    session: int

    @property
    def note(self) -> str:
        return f"{self.speaker}: {self.text}"


@dataclass(frozen=True)
class Question:
    question: str
    answer: str
    category: int
    evidence: tuple[str, ...]  # valid ids only; may be empty


def load(path: str | Path = DEFAULT_PATH) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    assert isinstance(data, list)
    return data


def parse_session_date(text: str) -> dt.datetime:
    """``"1:56 pm on 8 May, 2023"`` -> 2023-05-08 13:56."""
    return dt.datetime.strptime(" ".join(text.replace(",", "").split()), "%I:%M %p on %d %B %Y")


def turns(sample: dict) -> Iterator[Turn]:
    conv = sample["conversation"]
    sessions = sorted((int(m.group(1)), key) for key in conv if (m := _SESSION_KEY.match(key)))
    for number, key in sessions:
        when = parse_session_date(conv[f"{key}_date_time"])
        for t in conv[key]:
            text = t.get("text", "")
            if t.get("blip_caption"):
                text = f"{text} [shares a photo: {t['blip_caption']}]"
            yield Turn(t["dia_id"], t["speaker"], text.strip(), when, number)


def questions(sample: dict, categories: tuple[int, ...] = (1, 2, 3, 4)) -> list[Question]:
    real = {t.dia_id for t in turns(sample)}
    out = []
    for qa in sample["qa"]:
        if qa.get("category") not in categories:
            continue
        ids: list[str] = []
        for ev in qa.get("evidence", []):
            ids += [e for e in _EVIDENCE_RE.findall(str(ev)) if e in real]
        out.append(
            Question(
                qa["question"], str(qa.get("answer", "")), qa["category"], tuple(dict.fromkeys(ids))
            )
        )
    return out


def import_conversation(sample: dict, workspace: str | Path) -> dict[str, str]:
    """Write every turn through micro_rest; returns dia_id -> note id."""
    ids: dict[str, str] = {}
    for t in turns(sample):
        if not t.text:
            continue
        ids[t.dia_id] = micro_rest(t.note, "B", workspace=workspace, when=t.when, source=t.dia_id)
    return ids


_RESOLVED = re.compile(r"^ \(((?:week of |weekend of )?[\d-]+)\)")


def survives(expr: temporal.Expression, raw: str, day: dt.date, consolidated: str) -> bool:
    """The paper's preservation test: the temporal expression is in the consolidated text
    verbatim, or the date it resolves to (in the log of ``day``) is."""
    low = consolidated.lower()
    if expr.text.lower() in low:
        return True
    resolved = temporal.resolve(raw, day)
    at = resolved.lower().find(expr.text.lower())
    if at >= 0:
        m = _RESOLVED.match(resolved[at + len(expr.text) :])
        if m and m.group(1).lower() in low:
            return True
    return False
