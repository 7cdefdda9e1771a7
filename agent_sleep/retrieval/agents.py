"""Search filtered by the writing agent: a note carries ``agent=<name>`` (``--agent`` /
``$AGENT_SLEEP_AGENT``); an entry consolidated from notes belongs to the agents of its sources."""

from __future__ import annotations

import datetime as dt
import os
import re
from typing import TYPE_CHECKING

from agent_sleep.core.workspace import Workspace

if TYPE_CHECKING:
    from agent_sleep.retrieval.recall import Fusion, Hit

WIDEN = 4  # candidates asked for per hit wanted, before the filter
WIDEST = 1024  # hits asked for at most while widening (an agent outnumbered past that is cut)


def note_ids_by(ws: Workspace, agent: str) -> set[str]:
    """Ids of the daily notes ``agent`` wrote (a regex over the logs: no full parse)."""
    needle = re.compile(r"<!-- (id=\S+(?: [a-z_]+=\S*)*) -->[ \t]*$", re.M)
    wanted = f"agent={agent}"  # agent names are [A-Za-z0-9._-]: stored as they are
    out: set[str] = set()
    for log in ws.daily_logs():
        text = ws.read_text(log)
        if wanted not in text:
            continue
        for m in needle.finditer(text):
            pairs = m.group(1).split(" ")
            if wanted in pairs:
                out.add(pairs[0][3:])
    return out


def written_by(
    hits: list[Hit], ids: set[str], k: int | None, budget_tokens: int | None
) -> list[Hit]:
    """The hits that hold or cite a note of ``ids``, cut to ``k`` and ``budget_tokens``."""
    return _written_by(hits, ids, k, budget_tokens)[0]


def _written_by(
    hits: list[Hit], ids: set[str], k: int | None, budget_tokens: int | None
) -> tuple[list[Hit], bool]:
    """``written_by``, and whether it is complete: ``k`` hits, or one that did not fit."""
    out: list[Hit] = []
    used = 0
    for h in hits:
        if not ids.intersection(h.ids) and not ids.intersection(h.sources):
            continue
        if budget_tokens is not None and used + h.tokens > budget_tokens and out:
            return out, True
        out.append(h)
        used += h.tokens
        if k is not None and len(out) >= k:
            return out, True
    return out, False


def recall_by(
    agent: str,
    workspace: str | os.PathLike[str] | Workspace | None,
    query: str,
    k: int | None = None,
    budget_tokens: int | None = None,
    *,
    fusion: Fusion | None = None,
    today: dt.date | None = None,
) -> list[Hit]:
    """``recall`` keeping only what ``agent`` wrote (its notes, entries citing them): the
    ``WIDEN × k`` best hits (and budget) are filtered, then twice as many, and so on, until
    ``k`` of the agent's hits (or its budget's worth) are found, no more candidates come, or
    about ``WIDEST`` hits were asked for (each round is a deep request: its cost grows with
    what it asks)."""
    from agent_sleep.retrieval.recall import DEFAULT_K, recall

    ws = Workspace.at(workspace)
    if k is None and budget_tokens is None:
        k = DEFAULT_K
    ids = note_ids_by(ws, agent)
    if not ids:
        return []
    # other agents' notes may fill any number of the best ranks: widen until the agent's
    # answer is complete or the candidates run out (a wider request returns no more hits)
    widen = WIDEN
    seen = -1
    while True:
        wide = recall(
            ws,
            query,
            k * widen if k is not None else None,
            budget_tokens * widen if budget_tokens is not None else None,
            fusion=fusion,
            today=today,
        )
        out, complete = _written_by(wide, ids, k, budget_tokens)
        short = budget_tokens is None and k is not None and len(wide) < k * widen
        asked = k * widen if k is not None else (budget_tokens or 0) * widen // 30
        if complete or short or len(wide) <= seen or asked >= WIDEST:
            return out
        seen = len(wide)
        widen *= 2
