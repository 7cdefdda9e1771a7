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
    out: list[Hit] = []
    used = 0
    for h in hits:
        if not ids.intersection(h.ids) and not ids.intersection(h.sources):
            continue
        if budget_tokens is not None and used + h.tokens > budget_tokens and out:
            break
        out.append(h)
        used += h.tokens
        if k is not None and len(out) >= k:
            break
    return out


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
    """``recall`` keeping only what ``agent`` wrote (its notes, entries citing them)."""
    from agent_sleep.retrieval.recall import DEFAULT_K, recall

    ws = Workspace.at(workspace)
    if k is None and budget_tokens is None:
        k = DEFAULT_K
    wide = recall(
        ws,
        query,
        k * WIDEN if k is not None else None,
        budget_tokens * WIDEN if budget_tokens is not None else None,
        fusion=fusion,
        today=today,
    )
    return written_by(wide, note_ids_by(ws, agent), k, budget_tokens)
