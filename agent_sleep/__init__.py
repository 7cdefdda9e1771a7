"""agent-sleep: plain-Markdown memory for AI agents, with sleep-time consolidation.

The public API is imported lazily, so that ``import agent_sleep`` (and the note-taking CLI
path) stays light: nothing heavy loads until a function that needs it is called.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "micro_rest": "agent_sleep.rest",
    "Workspace": "agent_sleep.workspace",
    "AgentSleepError": "agent_sleep.errors",
    "BadInput": "agent_sleep.errors",
    "redact": "agent_sleep.redact",
    "get_context": "agent_sleep.context",
    "recall": "agent_sleep.recall",
    "Hit": "agent_sleep.recall",
    "sleep_cycle": "agent_sleep.sleep",
    "flush": "agent_sleep.flush",
    "should_flush": "agent_sleep.flush",
    "rollback": "agent_sleep.journal",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'agent_sleep' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)


class _Package(types.ModuleType):
    """Keeps ``agent_sleep.flush`` and ``agent_sleep.recall`` the functions: importing the
    submodule of the same name (``from agent_sleep.recall import rank``, or get_context with a
    query) would otherwise rebind the package attribute to the module."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _EXPORTS and isinstance(value, types.ModuleType):
            value = getattr(value, name, value)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
