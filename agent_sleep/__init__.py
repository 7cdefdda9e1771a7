"""agent-sleep: plain-Markdown memory for AI agents, with sleep-time consolidation.

The public API is imported lazily, so that ``import agent_sleep`` (and the note-taking CLI
path) stays light: nothing heavy loads until a function that needs it is called.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "micro_rest": "agent_sleep.core.rest",
    "Workspace": "agent_sleep.core.workspace",
    "AgentSleepError": "agent_sleep.core.errors",
    "BadInput": "agent_sleep.core.errors",
    "redact": "agent_sleep.core.redact",
    "get_context": "agent_sleep.retrieval.context",
    "recall": "agent_sleep.retrieval.recall",
    "Hit": "agent_sleep.retrieval.recall",
    "sleep_cycle": "agent_sleep.consolidation.sleep",
    "flush": "agent_sleep.consolidation.flush",
    "should_flush": "agent_sleep.consolidation.flush",
    "rollback": "agent_sleep.consolidation.journal",
    "MemoryTool": "agent_sleep.integrations.memory_tool",  # imports anthropic when accessed
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
