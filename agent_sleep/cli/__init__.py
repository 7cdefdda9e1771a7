"""The ``agent-sleep`` command line: one click group whose commands load on demand."""

from agent_sleep.cli.app import main

__all__ = ["main"]
