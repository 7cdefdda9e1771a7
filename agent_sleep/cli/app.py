"""The ``agent-sleep`` command line.

Commands are loaded only when invoked, so ``agent-sleep rest`` imports nothing but click and
the note path. Errors end here: one ``Error: …`` line on stderr and a non-zero exit.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from agent_sleep import __version__
from agent_sleep.core.errors import AgentSleepError

# command name -> "module:attribute"
COMMANDS: dict[str, str] = {
    "init": "agent_sleep.cli.notes:init_cmd",
    "rest": "agent_sleep.cli.notes:rest_cmd",
    "context": "agent_sleep.cli.recall:context_cmd",
    "search": "agent_sleep.cli.recall:search_cmd",
    "reindex": "agent_sleep.cli.recall:reindex_cmd",
    "flush": "agent_sleep.cli.sleep:flush_cmd",
    "should-flush": "agent_sleep.cli.sleep:should_flush_cmd",
    "sleep": "agent_sleep.cli.sleep:sleep_cmd",
    "status": "agent_sleep.cli.sleep:status_cmd",
    "rollback": "agent_sleep.cli.sleep:rollback_cmd",
    "sync": "agent_sleep.cli.sync:sync_cmd",
    "history": "agent_sleep.cli.sync:history_cmd",
    "git-init": "agent_sleep.cli.sync:git_init_cmd",
    "merge-driver": "agent_sleep.cli.sync:merge_driver_cmd",
    "mcp": "agent_sleep.cli.integrations:mcp_cmd",
    "hook": "agent_sleep.cli.integrations:hook_cmd",
    "install": "agent_sleep.cli.integrations:install_cmd",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        command = getattr(importlib.import_module(module), attr)
        assert isinstance(command, click.Command)
        return command


@click.group(
    cls=LazyGroup,
    context_settings={
        "help_option_names": ["-h", "--help"],
        "max_content_width": 100,
        "terminal_width": 100,
    },
    epilog="""\b
Examples:
  agent-sleep init
  agent-sleep rest --note "User prefers TypeScript" --type O --confidence 0.9
  agent-sleep rest --note "Deployed v2 to staging" --type B --source msg-1841
Run 'agent-sleep COMMAND --help' for a command's options and examples.""",
)
@click.version_option(__version__, prog_name="agent-sleep")
def cli() -> None:
    """Plain-Markdown memory for AI agents: take notes, sleep on them, recall them."""


def main(argv: list[str] | None = None) -> Any:
    """Run the CLI; every failure becomes one ``Error:`` line on stderr."""
    try:
        return cli.main(args=argv, prog_name="agent-sleep", standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.Abort:
        click.echo("Error: aborted", err=True)
        sys.exit(130)
    except click.exceptions.NoArgsIsHelpError as e:  # bare `agent-sleep` or `agent-sleep hook`
        click.echo(e.ctx.get_help(), err=True)
        sys.exit(2)
    except click.ClickException as e:
        msg = " ".join(e.format_message().split())
        hint = ""
        ctx = getattr(e, "ctx", None)
        if isinstance(e, click.UsageError) and ctx is not None:
            hint = f" (see '{ctx.command_path} --help')"
        click.echo(f"Error: {msg}{hint}", err=True)
        sys.exit(e.exit_code)
    except AgentSleepError as e:
        click.echo(f"Error: {' '.join(str(e).split())}", err=True)
        sys.exit(e.exit_code)
    except BrokenPipeError:
        sys.exit(1)
    except OSError as e:  # a path that is a file, a folder we may not read: one line, no trace
        where = f": {e.filename}" if e.filename else ""
        click.echo(f"Error: {e.strerror or e}{where}", err=True)
        sys.exit(1)
