"""User-facing errors. Each message says what went wrong and how to fix it."""

from __future__ import annotations


class AgentSleepError(Exception):
    """Base class: the CLI prints ``Error: <message>`` and exits with ``exit_code``."""

    exit_code = 1


class BadInput(AgentSleepError):
    """The caller gave something we refuse to store or act on (exit code 2)."""

    exit_code = 2


class WorkspaceError(BadInput):
    """The workspace path cannot be used (it is a file, or not writable)."""


class StorageError(AgentSleepError):
    """A write failed (disk full, read-only file system); nothing was left half-written."""
