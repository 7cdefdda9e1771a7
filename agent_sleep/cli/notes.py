"""Commands of the note-taking path: ``init`` and ``rest``. Kept light on purpose."""

from __future__ import annotations

import sys

import click

from agent_sleep.cli.common import common_options, emit, moment
from agent_sleep.core.notes import DEFAULT_CONFIDENCE, NOTE_TYPES


@click.command(
    "init",
    epilog="""\b
Examples:
  agent-sleep init
  agent-sleep init --git
  agent-sleep init --workspace ./memory-ws --json""",
)
@click.option("--git", "use_git", is_flag=True, help="Keep the workspace in git (see `sync`).")
@common_options
def init_cmd(workspace: str | None, use_git: bool, as_json: bool) -> None:
    """Create the workspace layout (MEMORY.md, memory/, bank/). Safe to run again."""
    from agent_sleep.core.workspace import Workspace

    ws = Workspace.at(workspace).ensure()
    if use_git:
        from agent_sleep.sync.repo import enable

        enable(ws)
    message = f"Workspace ready at {ws.root}" + (" (kept in git)" if use_git else "")
    emit(as_json, {"workspace": str(ws.root), "git": use_git}, message)


@click.command(
    "rest",
    epilog="""\b
Types: W world fact, B biographical/experience, O opinion (with --confidence), S summary.
\b
Examples:
  agent-sleep rest --note "Redis default port is 6379" --type W
  agent-sleep rest --note "User prefers concise replies" --type O --confidence 0.9
  agent-sleep rest --note "Fixed the auth bug with a retry" --source PR-412 --json
  agent-sleep rest --note "Went to the support group" --when 2023-05-07T18:00
  agent-sleep rest --note "Staging resets on Sunday" --agent ci-bot --to-shared --shared ~/team
  echo "text with 'quotes' and \\"more\\"" | agent-sleep rest --note - --type W""",
)
@click.option(
    "--note",
    "-n",
    required=True,
    help="The note text (one fact, a few KB at most); '-' reads it from stdin.",
)
@click.option(
    "--type",
    "-t",
    "note_type",
    default="B",
    show_default=True,
    metavar="|".join(NOTE_TYPES),
    help="Note type.",
)
@click.option(
    "--confidence",
    "-c",
    type=float,
    default=None,
    help=f"Confidence 0-1, O notes only (default {DEFAULT_CONFIDENCE}).",
)
@click.option("--source", "-s", default=None, help="Provenance, e.g. an outside message id.")
@click.option(
    "--when",
    default=None,
    metavar="ISO",
    help="File the note at this local time, e.g. 2023-05-08T13:56 (importing history).",
)
@click.option(
    "--agent", default=None, help="The writing agent's name (default $AGENT_SLEEP_AGENT)."
)
@click.option("--to-shared", is_flag=True, help="Write to the shared workspace, not your own.")
@click.option(
    "--shared",
    metavar="DIR",
    envvar="AGENT_SLEEP_SHARED",
    default=None,
    help="The shared team workspace (env AGENT_SLEEP_SHARED).",
)
@common_options
def rest_cmd(
    note: str,
    note_type: str,
    confidence: float | None,
    source: str | None,
    when: str | None,
    agent: str | None,
    to_shared: bool,
    shared: str | None,
    workspace: str | None,
    as_json: bool,
) -> None:
    """Append one note to today's log (micro-rest). No model call; prints the note's id."""
    from agent_sleep.core.errors import BadInput
    from agent_sleep.core.rest import micro_rest_detail
    from agent_sleep.core.workspace import Workspace

    if note == "-":
        note = sys.stdin.read()
    target: str | Workspace | None = workspace
    if to_shared:
        from agent_sleep.sync.shared import shared_workspace

        target = shared_workspace(workspace, shared)
        if target is None:
            raise BadInput(
                "--to-shared needs the shared workspace: --shared DIR or $AGENT_SLEEP_SHARED"
            )
    r = micro_rest_detail(
        note,
        note_type,
        workspace=target,
        confidence=confidence,
        source=source,
        when=moment(when),
        agent=agent,
    )
    emit(
        as_json,
        {
            "id": r.id,
            "path": str(r.path),
            "date": r.date,
            "time": r.time,
            "type": r.type,
            "confidence": r.confidence,
            "redacted": r.redacted,
        },
        r.id,
    )
