"""Commands that plug agent-sleep into agents: ``mcp``, ``hook`` and ``install``.

Imports stay light: the MCP SDK and everything else load inside the commands.
"""

from __future__ import annotations

import click

from agent_sleep.cli.common import common_options

SCOPE_HELP = (
    "Which workspace: 'shared' (the --workspace one) or 'project' (one per project folder, "
    "inside it under projects/). Default $AGENT_SLEEP_SCOPE, else shared."
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
    import os

    from agent_sleep.core.errors import AgentSleepError
    from agent_sleep.integrations.scope import workspace_for

    ws = workspace_for(scope, os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd(), workspace)
    if importlib.util.find_spec("mcp") is None:  # the SDK is an extra
        raise AgentSleepError("the MCP server needs the mcp SDK: pip install 'agent-sleep[mcp]'")
    from agent_sleep.integrations.mcp_server import serve

    serve(ws, http_port)
