#!/usr/bin/env python3
"""sleep from the skill folder.

    python scripts/sleep_cycle.py --workspace DIR --phase both

The same as ``agent-sleep sleep`` with the same options.
"""

from __future__ import annotations

import sys

import _bootstrap  # noqa: F401  (puts the skill folder on sys.path)

from agent_sleep.cli.app import main

if __name__ == "__main__":
    main(["sleep", *sys.argv[1:]])
