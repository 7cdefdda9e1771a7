"""Commands that plug agent-sleep into agents: ``mcp``, ``hook`` and ``install``.

Imports stay light: the MCP SDK and everything else load inside the commands.
"""

from __future__ import annotations

import click

from agent_sleep.cli.common import common_options

SCOPE_HELP = (
    "Which workspace: 'shared' (the --workspace one) or 'project' (one per project folder, "
    "inside it under projects/: $CLAUDE_PROJECT_DIR, else the git top-level of the working "
    "folder, else that folder). Default $AGENT_SLEEP_SCOPE, else shared."
)


def scope_option(f):  # type: ignore[no-untyped-def]
    return click.option(
        "--scope",
        type=click.Choice(["shared", "project"]),
        default=None,
        help=SCOPE_HELP,
    )(f)


@click.command(
    "mcp",
    epilog="""\b
Examples:
  agent-sleep mcp
  agent-sleep mcp --workspace ~/team-memory
  agent-sleep mcp --scope project
  agent-sleep mcp --http 8765        (streamable HTTP on http://127.0.0.1:8765/mcp)""",
)
@click.option(
    "--http",
    "http_port",
    type=click.IntRange(1, 65535),
    default=None,
    metavar="PORT",
    help="Serve streamable HTTP on 127.0.0.1:PORT instead of stdio.",
)
@scope_option
@common_options
def mcp_cmd(http_port: int | None, scope: str | None, workspace: str | None, as_json: bool) -> None:
    """Serve the workspace as an MCP server: tools memory_write, memory_search, memory_get,
    memory_context, memory_flush, memory_sleep, memory_status; resources MEMORY.md, daily logs
    and bank pages."""
    import importlib.util

    from agent_sleep.core.errors import AgentSleepError
    from agent_sleep.integrations.scope import workspace_for

    ws = workspace_for(scope, None, workspace)
    if importlib.util.find_spec("mcp") is None:  # the SDK is an extra
        raise AgentSleepError("the MCP server needs the mcp SDK: pip install 'agent-sleep[mcp]'")
    from agent_sleep.integrations.mcp_server import serve

    serve(ws, http_port)


@click.command(
    "hook",
    epilog="""\b
Claude Code runs these with its hook JSON on stdin (agent-sleep install claude-code sets them up):
  agent-sleep hook session-start --scope project   prints the memory block as additionalContext
  agent-sleep hook pre-compact --scope project     flushes the transcript since the last flush
  agent-sleep hook session-end --scope project     starts a detached sleep and returns
\b
Example:
  echo '{"session_id":"s1","cwd":"'$PWD'","hook_event_name":"SessionStart","source":"startup"}' \\
    | agent-sleep hook session-start""",
)
@click.argument("event", type=click.Choice(["session-start", "pre-compact", "session-end"]))
@scope_option
@common_options
def hook_cmd(event: str, scope: str | None, workspace: str | None, as_json: bool) -> None:
    """Run a Claude Code hook. Always exits 0: a problem is one line on stderr and its reason
    goes to the journal, so a hook never breaks the session."""
    import sys

    from agent_sleep.core.workspace import Workspace
    from agent_sleep.integrations.claude_code import run_hook
    from agent_sleep.integrations.scope import workspace_for

    def ws_for(cwd: str) -> Workspace:
        return workspace_for(scope, cwd, workspace)

    raw = (
        sys.stdin.buffer.read(1 << 21).decode("utf-8", "replace") if not sys.stdin.isatty() else ""
    )
    result = run_hook(event, raw, ws_for)
    if result.stdout:
        click.echo(result.stdout)
    if result.warning:
        click.echo(result.warning, err=True)


@click.command(
    "install",
    epilog="""\b
Examples:
  agent-sleep install claude-code              this project: .claude/settings.json, .mcp.json
  agent-sleep install claude-code --project ~/src/app
  agent-sleep install claude-code --user       every project: ~/.claude/settings.json
  agent-sleep install claude-code --user --shared   one workspace for all projects
  agent-sleep install claude-code --remove     take them out again""",
)
@click.argument("target", type=click.Choice(["claude-code"]))
@click.option(
    "--project", "project", metavar="DIR", default=None, help="Project folder (default .)."
)
@click.option("--user", is_flag=True, help="Install for the user, in ~/.claude/settings.json.")
@click.option(
    "--shared",
    is_flag=True,
    help="One workspace for every project (the --workspace one) instead of one per project.",
)
@click.option(
    "--command",
    "command",
    default=None,
    help="How Claude Code starts agent-sleep (default: agent-sleep on PATH, else this Python).",
)
@click.option(
    "--workspace",
    "-w",
    metavar="DIR",
    default=None,
    help="Workspace the hooks and server use (written into the commands; default: the "
    "one in $AGENT_SLEEP_WORKSPACE, else ~/.agent_workspace, when they run).",
)
@click.option("--remove", is_flag=True, help="Take agent-sleep's hooks and server out again.")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON on stdout.")
def install_cmd(
    target: str,
    project: str | None,
    user: bool,
    shared: bool,
    command: str | None,
    workspace: str | None,
    remove: bool,
    as_json: bool,
) -> None:
    """Merge agent-sleep's hooks (SessionStart, PreCompact, SessionEnd) and MCP server into
    Claude Code's settings, keeping every other hook. Safe to run again; the old files are
    backed up."""
    from dataclasses import asdict

    from agent_sleep.cli.common import emit
    from agent_sleep.integrations.install import install_claude_code

    r = install_claude_code(
        project,
        user=user,
        scope="shared" if shared else "project",
        command=command,
        workspace=workspace,
        remove=remove,
    )
    lines = [f"Claude Code settings: {r.settings}", f"MCP server: {r.mcp}", f"Workspace: {r.scope}"]
    lines.append("Changed: " + ", ".join(r.changed) if r.changed else "Nothing to change.")
    lines += [f"Removed: {p} (it held only agent-sleep's server)" for p in r.removed]
    lines += [f"Backup: {b}" for b in r.backups]
    emit(as_json, asdict(r), "\n".join(lines))
