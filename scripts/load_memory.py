#!/usr/bin/env python3
"""Session-start memory from the skill folder.

    from scripts.load_memory import get_context
    system_addendum = get_context(workspace="~/.agent_workspace", max_memory_chars=3000,
                                  load_yesterday=True)

Run as a script it prints the same block: ``python scripts/load_memory.py --workspace DIR``
(the options of ``agent-sleep context``).
"""

from __future__ import annotations

import sys

try:  # imported as scripts.load_memory: the skill folder is already importable
    from scripts import _bootstrap  # noqa: F401
except ImportError:  # run as scripts/load_memory.py: scripts/ itself is on sys.path
    import _bootstrap  # noqa: F401

from agent_sleep.retrieval.context import get_context

__all__ = ["get_context"]

if __name__ == "__main__":
    from agent_sleep.cli.app import main

    main(["context", *sys.argv[1:]])
