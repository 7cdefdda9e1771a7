#!/usr/bin/env python3
"""micro-rest from the skill folder.

    python scripts/micro_rest.py --note "User prefers TypeScript" --type O --workspace DIR
    python scripts/micro_rest.py --flush --context-dump "$(cat session_log.txt)" --workspace DIR

The first form is ``agent-sleep rest``; with ``--flush`` it is ``agent-sleep flush``.
"""

from __future__ import annotations

import sys

import _bootstrap  # noqa: F401  (puts the skill folder on sys.path)

from agent_sleep.cli.app import main

if __name__ == "__main__":
    args = sys.argv[1:]
    command = "flush" if "--flush" in args else "rest"
    main([command, *(a for a in args if a != "--flush")])
