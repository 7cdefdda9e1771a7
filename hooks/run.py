#!/usr/bin/env python3
"""Run ``agent-sleep ARGS`` from the plugin folder (``${CLAUDE_PLUGIN_ROOT}``), installed or not.

The plugin's hooks and MCP server start here. When ``agent_sleep`` cannot be imported (its
dependencies are missing), a hook prints one line on stderr and exits 0, so it never breaks the
session; ``mcp`` exits 1 with the same line, naming the ``mcp`` extra the server needs.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if (ROOT / "agent_sleep" / "__init__.py").is_file() and str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

if __name__ == "__main__":
    args = sys.argv[1:]
    try:
        from agent_sleep.cli.app import main
    except ImportError as e:
        package = "'agent-sleep[mcp]'" if args[:1] == ["mcp"] else "agent-sleep"
        sys.stderr.write(f"agent-sleep: cannot start ({e}); pip install {package}\n")
        sys.exit(0 if args[:1] == ["hook"] else 1)
    main(args)
