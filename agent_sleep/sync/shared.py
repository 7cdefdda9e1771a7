"""A shared team workspace beside the agent's own.

The agent reads both: ``context`` adds the shared workspace's sections under headings marked
*Shared*, ``search`` merges the hits of both by score and marks the shared ones. Writes go to
the agent's own workspace unless the caller asks for the shared one (``rest --to-shared``).
Each workspace is consolidated by its own ``sleep``, which reads only that workspace's files,
so nothing private is ever copied into the shared one; the two folders may not contain each
other (a shared workspace inside a private one would be committed and pushed with it).
The shared workspace is usually a clone of a team remote, kept current with ``agent-sleep sync``.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agent_sleep.core.errors import BadInput
from agent_sleep.core.log import warn_once
from agent_sleep.core.workspace import Workspace, resolve_path
from agent_sleep.retrieval.context import get_context

if TYPE_CHECKING:  # recall loads numpy: only search needs it
    from agent_sleep.retrieval.recall import Fusion, Hit

SHARED_ENV = "AGENT_SLEEP_SHARED"

PathLike = str | os.PathLike[str] | Workspace | None


@dataclass(frozen=True)
class SharedHit:
    hit: Hit
    shared: bool  # True: from the shared workspace


def shared_workspace(own: PathLike, shared: PathLike = None) -> Workspace | None:
    """The shared workspace (argument, else ``$AGENT_SLEEP_SHARED``), or None when there is none.
    Refused when it is the agent's own workspace or either folder holds the other."""
    if shared is None and not os.environ.get(SHARED_ENV):
        return None
    mine = Workspace.at(own).root.resolve()
    if isinstance(shared, Workspace):
        theirs = shared.root.resolve()
    else:
        theirs = resolve_path(shared if shared is not None else os.environ[SHARED_ENV]).resolve()
    if theirs == mine or mine in theirs.parents or theirs in mine.parents:
        raise BadInput(
            f"the shared workspace {theirs} and the agent's own {mine} must be separate folders "
            "(neither inside the other): choose another with --shared or $AGENT_SLEEP_SHARED"
        )
    return Workspace(theirs)


def _to_read(own: PathLike, shared: PathLike) -> Workspace | None:
    """The shared workspace a read draws on. One that does not exist is refused when named
    with ``--shared`` (a mistyped path would read as "nothing shared"); named by
    ``$AGENT_SLEEP_SHARED``, which every command sees, it is skipped with one warning."""
    team = shared_workspace(own, shared)
    if team is None or team.root.is_dir():
        return team
    if shared is not None:
        raise BadInput(
            f"no shared workspace at {team.root}: clone the team's workspace there, or "
            f"run `agent-sleep init -w {team.root}`"
        )
    warn_once(f"${SHARED_ENV} names {team.root}, which does not exist: reading without it")
    return None


def search(
    own: PathLike,
    query: str,
    *,
    shared: PathLike = None,
    k: int | None = None,
    budget_tokens: int | None = None,
    agent: str | None = None,
    fusion: Fusion | None = None,
    today: dt.date | None = None,
) -> list[SharedHit]:
    """Hits from the agent's own workspace and the shared one, best first, each marked."""
    from agent_sleep.retrieval.recall import recall

    team = _to_read(own, shared)
    mine = [
        SharedHit(h, False)
        for h in recall(own, query, k, budget_tokens, fusion=fusion, today=today, agent=agent)
    ]
    if team is None:
        return mine
    theirs = [
        SharedHit(h, True)
        for h in recall(team, query, k, budget_tokens, fusion=fusion, today=today, agent=agent)
    ]
    both = sorted(mine + theirs, key=lambda s: (-s.hit.score, s.shared))
    if k is None and budget_tokens is None:
        from agent_sleep.retrieval.recall import DEFAULT_K

        k = DEFAULT_K  # what each side was asked for: the best of both, not of one side
    out: list[SharedHit] = []
    used = 0
    for s in both:
        if budget_tokens is not None and out and used + s.hit.tokens > budget_tokens:
            break
        out.append(s)
        used += s.hit.tokens
        if k is not None and len(out) >= k:
            break
    return out


def context(
    own: PathLike,
    *,
    shared: PathLike = None,
    max_memory_chars: int = 3000,
    load_yesterday: bool = True,
    query: str | None = None,
    budget_tokens: int | None = None,
    today: dt.date | None = None,
) -> str:
    """``get_context`` of the agent's workspace, then the shared workspace's sections, each
    heading marked ``Shared``."""
    text = get_context(
        own,
        max_memory_chars=max_memory_chars,
        load_yesterday=load_yesterday,
        query=query,
        budget_tokens=budget_tokens,
        today=today,
    )
    team = _to_read(own, shared)
    if team is None:
        return text
    extra = get_context(
        team,
        max_memory_chars=max_memory_chars,
        load_yesterday=load_yesterday,
        query=query,
        budget_tokens=budget_tokens,
        today=today,
    )
    if not extra:
        return text
    body = extra.removeprefix("# Memory\n\n")
    marked = "\n".join(
        f"## Shared: {line[3:]}" if line.startswith("## ") else line for line in body.split("\n")
    )
    return (text or "# Memory\n\n") + ("\n" if text else "") + marked
