"""The ``agent-sleep`` command line.

Commands are loaded only when invoked, so ``agent-sleep rest`` imports nothing but click and
the note path. Errors end here: one ``Error: …`` line on stderr and a non-zero exit.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, NoReturn

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
    """Run the CLI; every failure becomes one ``Error:`` line on stderr (and, when the command
    was given ``--json``, one ``{"error": ..., "exit_code": ...}`` object on stdout)."""
    try:
        return cli.main(args=argv, prog_name="agent-sleep", standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.Abort:
        _fail(argv, "aborted", 130)
    except click.exceptions.NoArgsIsHelpError as e:  # bare `agent-sleep` or `agent-sleep hook`
        click.echo(e.ctx.get_help(), err=True)
        sys.exit(2)
    except click.ClickException as e:
        hint = ""
        ctx = getattr(e, "ctx", None)
        if isinstance(e, click.UsageError) and ctx is not None:
            hint = f" (see '{ctx.command_path} --help')"
        _fail(argv, e.format_message() + hint, e.exit_code)
    except AgentSleepError as e:
        _fail(argv, str(e), e.exit_code)
    except BrokenPipeError:
        sys.exit(1)
    except OSError as e:  # a path that is a file, a folder we may not read: one line, no trace
        where = f": {e.filename}" if e.filename else ""
        _fail(argv, f"{e.strerror or e}{where}", 1)


def _fail(argv: list[str] | None, message: str, exit_code: int) -> NoReturn:
    """One ``Error:`` line on stderr, the same message as JSON on stdout when the command was
    given ``--json`` (an agent parses stdout), and the exit code."""
    message = " ".join(message.split())
    click.echo(f"Error: {message}", err=True)
    if _wants_json(sys.argv[1:] if argv is None else argv):
        from agent_sleep.cli.common import emit

        emit(True, {"error": message, "exit_code": exit_code})
    sys.exit(exit_code)


def _wants_json(args: list[str]) -> bool:
    """Whether ``args`` give their command ``--json``, read as click reads them but leniently:
    a bad value, an unknown option or a missing argument does not stop the reading."""
    try:
        # the group's own options (--help, --version) take no value: the command comes first
        at = next(i for i, a in enumerate(args) if not a.startswith("-"))
        command = cli.get_command(click.Context(cli), args[at])
        if command is None:
            return False
        with command.make_context(
            args[at], args[at + 1 :], resilient_parsing=True, ignore_unknown_options=True
        ) as ctx:
            return ctx.params.get("as_json") is True
    except Exception:  # noqa: BLE001 - an answer about an error must not raise another
        return False
