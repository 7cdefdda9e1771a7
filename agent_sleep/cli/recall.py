"""Commands of the recall path: ``context``, ``search`` and ``reindex``.

``context`` without ``--query`` must start as fast as ``rest``: everything heavier than the note
format is imported inside the commands that need it.
"""

from __future__ import annotations

import click

from agent_sleep.cli.common import (
    common_options,
    day,
    emit,
    existing_workspace,
    finite,
    numpy_on_one_thread,
    say,
)


@click.command(
    "context",
    epilog="""\b
Examples:
  agent-sleep context
  agent-sleep context --max-memory-chars 6000 --no-yesterday
  agent-sleep context --query "deploy to staging" --budget-tokens 800
  agent-sleep context --shared ~/team-memory
  agent-sleep context --date 2026-01-05""",
)
@click.option(
    "--max-memory-chars",
    type=click.IntRange(min=0),
    default=3000,
    show_default=True,
    help="Trim MEMORY.md to this many characters, at entry boundaries.",
)
@click.option(
    "--yesterday/--no-yesterday", default=True, show_default=True, help="Include yesterday's log."
)
@click.option("--query", "-q", default=None, help="Add the memories most relevant to this query.")
@click.option(
    "--budget-tokens",
    type=click.IntRange(min=1),
    default=None,
    help="Token budget of the relevant memories (default: 6 results).",
)
@click.option(
    "--shared",
    metavar="DIR",
    envvar="AGENT_SLEEP_SHARED",
    default=None,
    help="Also draw on this shared team workspace (env AGENT_SLEEP_SHARED); marked Shared.",
)
@click.option(
    "--date",
    "as_of",
    metavar="YYYY-MM-DD",
    default=None,
    help="The context as of this day: its log and the day before's (default today).",
)
@common_options
def context_cmd(
    max_memory_chars: int,
    yesterday: bool,
    query: str | None,
    budget_tokens: int | None,
    shared: str | None,
    as_of: str | None,
    workspace: str | None,
    as_json: bool,
) -> None:
    """Print the memory block for a system prompt: MEMORY.md, today's and yesterday's logs,
    next-session actions, and with --query the relevant memories."""
    existing_workspace(workspace)
    if query:
        numpy_on_one_thread()
    from agent_sleep.sync.shared import context

    text = context(
        workspace,
        shared=shared,
        max_memory_chars=max_memory_chars,
        load_yesterday=yesterday,
        query=query,
        budget_tokens=budget_tokens,
        today=day(as_of),
    )
    emit(as_json, {"context": text}, text.rstrip("\n"))


@click.command(
    "search",
    epilog="""\b
Examples:
  agent-sleep search "redis port"
  agent-sleep search "what did the user decide about the API" -k 10
  agent-sleep search "deploy" --budget-tokens 500 --json
  agent-sleep search "what has the user been reading" --budget-tokens 4000 --quick
  agent-sleep search "staging" --agent ci-bot --shared ~/team-memory
  agent-sleep search "where does the user live" --history""",
)
@click.argument("query")
@click.option("-k", "k", type=click.IntRange(min=1), default=None, help="At most this many hits.")
@click.option(
    "--budget-tokens",
    type=click.IntRange(min=1),
    default=None,
    help="Fill this many tokens (≈ words × 1.3) with the best hits.",
)
@click.option(
    "--half-life",
    type=click.FloatRange(min=0, min_open=True),
    callback=finite,
    default=None,
    metavar="DAYS",
    help="Favour recent notes: scores halve every DAYS days (MEMORY.md never decays).",
)
@click.option("--bm25-only", is_flag=True, help="Keyword search only; do not load the model.")
@click.option(
    "--quick",
    is_flag=True,
    help="Skip the feedback and rerank steps that deep requests (20+ hits) take.",
)
@click.option(
    "--agent", default=None, help="Only what this agent wrote (notes, entries citing them)."
)
@click.option(
    "--shared",
    metavar="DIR",
    envvar="AGENT_SLEEP_SHARED",
    default=None,
    help="Also draw on this shared team workspace (env AGENT_SLEEP_SHARED); marked Shared.",
)
@click.option(
    "--history",
    is_flag=True,
    help="Show each hit's versions: what it replaced and what replaced it, with dates.",
)
@common_options
def search_cmd(
    query: str,
    k: int | None,
    budget_tokens: int | None,
    half_life: float | None,
    bm25_only: bool,
    quick: bool,
    agent: str | None,
    shared: str | None,
    history: bool,
    workspace: str | None,
    as_json: bool,
) -> None:
    """Hybrid search (BM25 + MiniLM vectors) over MEMORY.md, bank pages and daily notes.

    A superseded entry (or a note only it cited) is labelled with the date and what replaced
    it; --history prints each hit's chain of versions. Scores rank the hits against each
    other only: when no hit shares a word with the query (or the code it names) nor reads
    like it, a line on stderr says so (in --json, every hit's "match" is "weak")."""
    if not query.strip():  # as the MCP tool: an empty query finds nothing, so say so
        raise click.BadParameter("give some words to search for", param_hint="QUERY")
    existing_workspace(workspace)
    if agent is not None:  # a name no note can carry would only ever find nothing
        from agent_sleep.core.rest import writing_agent

        writing_agent(agent)
    numpy_on_one_thread()
    from dataclasses import asdict, replace

    from agent_sleep.retrieval.recall import Fusion, nothing_close
    from agent_sleep.sync.shared import search

    fusion = Fusion(half_life_days=half_life)
    if bm25_only:
        fusion = replace(fusion, vector_weight=0.0, text_weight=1.0)
    if quick:
        fusion = replace(fusion, feedback_weight=0.0, rerank_weight=0.0)
    found = search(
        workspace,
        query,
        shared=shared,
        k=k,
        budget_tokens=budget_tokens,
        agent=agent,
        fusion=fusion,
    )
    lines = []
    for s in found:
        h = s.hit
        when = " ".join(x for x in (h.date, h.time) if x)
        mark = "[shared] " if s.shared else ""
        lines.append(f"{h.score:.3f}  {mark}{h.path}{'  ' + when if when else ''}")
        lines.append("  " + h.text.replace("\n", "\n  "))
        if not h.current:
            lines.append(f"  [superseded {h.superseded_on or ''}: now {h.superseded_by or '?'}]")
        elif h.newer:
            lines.append(f"  [may be out of date, said on {h.newer}]")
        if history:
            lines += _history_lines(workspace, h.ids)
    data = [{**asdict(s.hit), "shared": s.shared} for s in found]
    if history:
        for d, s in zip(data, found, strict=True):
            d["history"] = _chains(workspace, s.hit.ids)
    # the scores are relative (the best hit scores high however far it is): when no hit is
    # close, a person (or an agent reading the text) is told first, the hits still shown;
    # JSON carries each hit's match, and stdout stays one JSON document
    why = None if as_json else nothing_close(query, [s.hit for s in found])
    if why:
        say(f"({why})")
    emit(as_json, data, "\n".join(lines) if lines else "(no matches)")


def _chains(workspace: str | None, ids: tuple[str, ...]) -> list[list[dict[str, str]]]:
    from agent_sleep.core.workspace import Workspace
    from agent_sleep.retrieval.currency import chain

    ws = Workspace.at(workspace)
    return [c for c in (chain(ws, i) for i in ids) if len(c) > 1]


def _history_lines(workspace: str | None, ids: tuple[str, ...]) -> list[str]:
    out = []
    for versions in _chains(workspace, ids):
        steps = [f"{v['text']} ({v['date']}{' to ' + v['until'] if v['until'] else ''})"
                 for v in versions]  # fmt: skip
        out.append("  history: " + " -> ".join(steps))
    return out


@click.command(
    "reindex",
    epilog="""\b
Examples:
  agent-sleep reindex
  agent-sleep reindex --full --json""",
)
@click.option("--full", is_flag=True, help="Rebuild from scratch instead of updating.")
@click.option("--bm25-only", is_flag=True, help="Skip embeddings (no model load).")
@common_options
def reindex_cmd(full: bool, bm25_only: bool, workspace: str | None, as_json: bool) -> None:
    """Bring the search index (.agent-sleep/index/) up to date with the Markdown files.

    After an upgrade it also reads again what each note claims where an older release stored
    it (searches would otherwise read it at query time), keeping every vector."""
    numpy_on_one_thread()
    from agent_sleep.retrieval.index import update

    ws = existing_workspace(workspace)
    r = update(ws, vectors=not bm25_only, full=full, claims=True)
    data = {
        "units": r.units,
        "embedded": r.embedded,
        "claims_read": r.claims_read,
        "files_read": r.files_read,
        "model": r.model,
        "seconds": round(r.seconds, 3),
        "index": str(r.path),
    }
    text = (
        f"{r.units} units indexed ({r.files_read} files read, {r.embedded} embedded, "
        f"model {r.model or 'none: BM25 only'}) in {r.seconds:.2f} s"
    )
    if r.claims_read:  # stored by another release: a search would read them at query time
        text += f"; claims read again for {r.claims_read} units"
    emit(as_json, data, text)
