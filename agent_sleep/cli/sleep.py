"""Commands of the sleep path: flush, should-flush, sleep, status, rollback."""

from __future__ import annotations

import datetime as dt
import os
import sys
from dataclasses import asdict
from typing import TYPE_CHECKING

import click

from agent_sleep.cli.common import (
    common_options,
    day,
    emit,
    existing_workspace,
    moment,
    plural,
    progress_lines,
    say,
)
from agent_sleep.core.errors import BadInput

if TYPE_CHECKING:
    from agent_sleep.consolidation.flush import FlushResult
    from agent_sleep.providers.base import Provider

ARGV_LIMIT = 128 * 1024  # one argv string on Linux (MAX_ARG_STRLEN)

provider_option = click.option(
    "--provider",
    "-p",
    type=click.Choice(["anthropic", "openai", "offline"]),
    envvar="AGENT_SLEEP_PROVIDER",
    default=None,
    help="Model provider (env AGENT_SLEEP_PROVIDER; default openai when --base-url is given, "
    "anthropic when ANTHROPIC_API_KEY is set, else offline).",
)
model_option = click.option(
    "--model",
    "-m",
    default=None,
    help="Model id (env AGENT_SLEEP_MODEL; openai: default the server's only model).",
)
base_url_option = click.option(
    "--base-url",
    default=None,
    metavar="URL",
    help="OpenAI-compatible server for --provider openai, e.g. http://localhost:11434/v1 "
    "(default $OPENAI_BASE_URL).",
)
context_tokens_option = click.option(
    "--context-tokens",
    type=click.IntRange(min=512),
    default=None,
    metavar="N",
    help="The model's context window: work is split into calls that fit (default what the "
    "server reports, else 8192; anthropic 200000).",
)


ANTHROPIC_KEYS = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN")  # what the SDK authenticates with


def _provider(
    provider: str | None, model: str | None, base_url: str | None, context_tokens: int | None
) -> Provider:
    """The provider the options name. One that cannot be called as configured (anthropic with
    no API key) is bad input: refused before the command prints a progress line or writes."""
    from agent_sleep.providers.base import get_provider

    prov = get_provider(provider, model, base_url=base_url, context_tokens=context_tokens)
    if prov.name == "anthropic" and not any(os.environ.get(k) for k in ANTHROPIC_KEYS):
        raise BadInput("no API key: set ANTHROPIC_API_KEY, or use --provider offline")
    return prov


@click.command(
    "flush",
    epilog="""\b
One argv string is capped at 128 KiB on Linux: pass big dumps as a file or on stdin.
A dump is at most 2,000,000 characters; flush a longer one in parts.
\b
Examples:
  agent-sleep flush --context-file session_log.txt
  cat session_log.txt | agent-sleep flush --context-dump -
  agent-sleep flush --context-dump "User prefers tabs. We decided to ship on Friday."
  agent-sleep flush --context-file old_session.txt --when 2026-01-05T18:00
  agent-sleep flush --provider openai --base-url http://localhost:11434/v1 -m qwen3:4b \\
      --context-file session_log.txt
  python scripts/micro_rest.py --flush --context-dump "$(cat log)" --workspace DIR""",
)
@click.option("--context-dump", "dump", metavar="TEXT|-", help="The context text, or - for stdin.")
@click.option(
    "--context-file", "path", type=click.Path(dir_okay=False), help="Read the context from a file."
)
@click.option(
    "--when",
    default=None,
    metavar="ISO",
    help="Flush as of this local time, e.g. 2026-01-05T18:00 (an old session: its notes go to "
    "that day's log, and 'yesterday' in the dump means the day before).",
)
@provider_option
@model_option
@base_url_option
@context_tokens_option
@common_options
def flush_cmd(
    dump: str | None,
    path: str | None,
    when: str | None,
    provider: str | None,
    model: str | None,
    base_url: str | None,
    context_tokens: int | None,
    workspace: str | None,
    as_json: bool,
) -> None:
    """Extract durable notes from a context dump into today's log (pre-compaction flush).

    Write-gated: keeps what is reusable, not derivable from code or config, not ephemeral.
    Flushing the same dump twice writes nothing."""
    from agent_sleep.consolidation.flush import flush

    if (dump is None) == (path is None):
        raise BadInput(
            "give exactly one of --context-file PATH, --context-dump TEXT or --context-dump - "
            "(stdin); dumps over 128 KiB must use the file or stdin form, since one argv string "
            "is capped at 128 KiB on Linux"
        )
    prov = _provider(provider, model, base_url, context_tokens)
    if path is not None:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as e:
            raise BadInput(f"cannot read --context-file {path}: {e.strerror}") from e
    elif dump == "-":
        text = sys.stdin.read()
    else:
        text = dump or ""
        if len(text.encode("utf-8", "surrogatepass")) > ARGV_LIMIT - 4096:
            say(
                "warning: this dump is close to the 128 KiB argv limit; use --context-file PATH "
                "or --context-dump - (stdin) for bigger ones"
            )
    r = flush(text, workspace=workspace, provider=prov, model=model, now=moment(when))
    if r.already_flushed:
        message = f"This dump was already flushed ({r.dump_hash}); nothing written."
    else:
        message = f"{plural(len(r.written), 'note')} written to {r.path}" + _flush_dropped(r)
    if r.written:
        from agent_sleep.cli.sync import commit_after

        commit_after(workspace, f"flush: {plural(len(r.written), 'note')} from dump {r.dump_hash}")
    emit(as_json, asdict(r), message)


def _flush_dropped(r: FlushResult) -> str:
    """What a flush did not write, in parentheses: the write gate's rejections and the notes
    past the cap for the dump ("" when none)."""
    capped = r.rejected.get("item_cap", 0)
    gated = sum(r.rejected.values()) - capped
    parts = [f"{gated} rejected by the write gate"] if gated else []
    if capped:
        parts.append(f"{capped} past the cap of {plural(r.max_notes, 'note')} for this dump")
    return f" ({'; '.join(parts)})" if parts else ""


@click.command(
    "should-flush",
    epilog="""\b
Examples:
  agent-sleep should-flush --tokens 170000 --context-window 200000
  agent-sleep should-flush -q --tokens "$T" --context-window 200000 && echo flush now""",
)
@click.option("--tokens", type=int, required=True, help="Tokens used by the session so far.")
@click.option("--context-window", type=int, required=True, help="The model's context window.")
@click.option(
    "--reserve",
    type=int,
    default=None,
    help="Reserve tokens [default: 20000, at most a quarter of the window].",
)
@click.option(
    "--soft-threshold",
    type=int,
    default=None,
    help="Soft threshold tokens [default: 4000, at most a sixteenth of the window].",
)
@click.option("--quiet", "-q", is_flag=True, help="Print nothing; exit 0 to flush, 1 not yet.")
@common_options
def should_flush_cmd(
    tokens: int,
    context_window: int,
    reserve: int | None,
    soft_threshold: int | None,
    quiet: bool,
    workspace: str | None,
    as_json: bool,
) -> None:
    """Say whether to flush now: tokens > context window - reserve - soft threshold."""
    from agent_sleep.consolidation.flush import flush_threshold, should_flush

    answer = should_flush(tokens, context_window, reserve, soft_threshold)
    if quiet:
        sys.exit(0 if answer else 1)
    threshold = flush_threshold(context_window, reserve, soft_threshold)
    emit(
        as_json,
        {"flush": answer, "tokens": tokens, "threshold": threshold},
        "yes" if answer else "no",
    )


@click.command(
    "sleep",
    epilog="""\b
Examples:
  agent-sleep sleep
  agent-sleep sleep --phase nrem --dry-run
  agent-sleep sleep --since 2026-01-01 --provider offline
  agent-sleep sleep --when 2026-01-05T22:00
  agent-sleep sleep --prune-memory --memory-budget 6000 --json
  agent-sleep sleep --provider openai --base-url http://localhost:8080/v1 --context-tokens 4096
  python scripts/sleep_cycle.py --workspace DIR --phase both""",
)
@click.option(
    "--phase",
    type=click.Choice(["nrem", "rem", "both"]),
    default="both",
    show_default=True,
    help="NREM consolidation, REM synthesis, or both in order.",
)
@click.option("--prune-memory", is_flag=True, help="Allow removing more than 25% of MEMORY.md.")
@click.option("--dry-run", is_flag=True, help="Print the diff; write nothing.")
@click.option("--since", metavar="YYYY-MM-DD", default=None, help="Include older logs (backlog).")
@click.option(
    "--when",
    default=None,
    metavar="ISO",
    help="Run as of this local time, e.g. 2026-01-05T22:00 (catching up on old logs: the "
    "look-back window ends that day and REM writes to its log).",
)
@click.option(
    "--memory-budget",
    type=int,
    default=None,
    help="MEMORY.md size budget in characters (env AGENT_SLEEP_MEMORY_BUDGET, default 8000).",
)
@provider_option
@model_option
@base_url_option
@context_tokens_option
@common_options
def sleep_cmd(
    phase: str,
    prune_memory: bool,
    dry_run: bool,
    since: str | None,
    when: str | None,
    memory_budget: int | None,
    provider: str | None,
    model: str | None,
    base_url: str | None,
    context_tokens: int | None,
    workspace: str | None,
    as_json: bool,
) -> None:
    """Consolidate pending notes: NREM into MEMORY.md and bank/, REM into dreams and
    next-session actions. Running it again over the same notes changes nothing, except that
    it applies what an earlier run held back: a run changes at most 25% of MEMORY.md's entries
    (--prune-memory lifts this cap), and the notes of the other changes stay pending."""
    from agent_sleep.consolidation.sleep import sleep_cycle
    from agent_sleep.core.memory import memory_budget as budget_of

    # the options first (a provider with no server, a bad budget or date), then the workspace,
    # which must exist: a mistyped path (a cron job) is an error, not a new, empty workspace
    at = moment(when)
    prov = _provider(provider, model, base_url, context_tokens)
    budget_of(memory_budget)
    _since_not_after(since, when, at)
    existing_workspace(workspace)
    r = sleep_cycle(
        workspace,
        phase,
        prov,
        dry_run=dry_run,
        prune_memory=prune_memory,
        since=since,
        model=model,
        memory_budget_chars=memory_budget,
        progress=progress_lines(as_json),
        now=at,
    )
    if r.run_id and not dry_run:
        from agent_sleep.cli.sync import commit_after

        commit_after(workspace)
    if as_json:
        emit(True, asdict(r))
        return
    if dry_run:
        click.echo(r.diff or "No changes.", nl=not r.diff)
        return
    if not r.notes_in:
        click.echo("Nothing to consolidate.")
        return
    decisions = ", ".join(f"{k} {v}" for k, v in r.decisions.items()) or "no changes"
    dropped = ", ".join(f"{k} {v}" for k, v in r.dropped.items())
    click.echo(
        f"Run {r.run_id}: {plural(r.notes_in, 'note')}; {decisions}"
        + (f"; dropped {dropped}" if dropped else "")
    )
    for path in r.files_changed:
        click.echo(f"  {path}")
    held = r.dropped.get("removal_cap", 0)
    if held:
        click.echo(_held_back(held, r.deferred))


def _since_not_after(since: str | None, when: str | None, at: dt.datetime | None) -> None:
    """Refuse a ``--since`` that is no date, or later than the day the run is as of (``--when``,
    else today): the logs read run from the one to the other, so it would read none and say
    "Nothing to consolidate", which hides the mistyped date."""
    from agent_sleep.consolidation.snapshot import parse_since

    if since is None:
        return
    run_day = at.date() if at is not None else dt.date.today()
    if parse_since(since, run_day) <= run_day:
        return
    as_of = f"--when {when}" if when is not None else f"today ({run_day})"
    raise BadInput(
        f"--since {since} is after {as_of}: no log would be read; give a --since on or "
        f"before {run_day}"
    )


def _held_back(changes: int, notes: int) -> str:
    """One line on what the removal cap kept from MEMORY.md this run."""
    what = f"Removal cap (25% of MEMORY.md per run): {plural(changes, 'change')} held back"
    if notes:
        what += (
            "; its note waits for the next sleep"
            if notes == 1
            else f"; their {notes} notes wait for the next sleep"
        )
    return what + " (--prune-memory lifts the cap)."


@click.command(
    "status",
    epilog="""\b
Examples:
  agent-sleep status
  agent-sleep status --date 2026-01-05
  agent-sleep status --json""",
)
@click.option("--memory-budget", type=int, default=None, help="MEMORY.md budget to report against.")
@click.option(
    "--date",
    "as_of",
    metavar="YYYY-MM-DD",
    default=None,
    help="Report as of this day (the look-back window for pending notes ends there).",
)
@common_options
def status_cmd(
    memory_budget: int | None, as_of: str | None, workspace: str | None, as_json: bool
) -> None:
    """Show pending notes, MEMORY.md size against its budget, recent sleep runs and
    memory-tool edits (each a run that rollback undoes)."""
    from agent_sleep.consolidation.status import render, status

    when = day(as_of)  # the options first, then the workspace, which must exist: a mistyped
    # path is an error, as for context, search and sleep, not "no workspace yet"
    s = status(existing_workspace(workspace), memory_budget_chars=memory_budget, today=when)
    emit(as_json, s, render(s))


@click.command(
    "rollback",
    epilog="""\b
Examples:
  agent-sleep rollback
  agent-sleep rollback 20260105T221500Z-3f2a
  agent-sleep rollback --force --json""",
)
@click.argument("run_id", required=False)
@click.option(
    "--force",
    is_flag=True,
    help="Also undo the run in files changed after it (a later run, an edit, a sync merge): "
    "only the run's own entries are undone there, the later changes are kept.",
)
@common_options
def rollback_cmd(run_id: str | None, force: bool, workspace: str | None, as_json: bool) -> None:
    """Undo RUN_ID, or else the newest sleep run or memory-tool edit not yet rolled back.

    Every file it changed is restored byte for byte (a memory-tool edit is a run too: the
    newest change of either kind is the one undone by default)."""
    from agent_sleep.consolidation.journal import rollback
    from agent_sleep.sync.merge import merge_text

    r = rollback(workspace, run_id, force=force, merge=merge_text)
    from agent_sleep.cli.sync import commit_after

    commit_after(workspace)
    emit(
        as_json,
        r,
        f"Rolled back {r['run_id']}: restored {', '.join(r['files_restored']) or 'nothing'}",
    )
