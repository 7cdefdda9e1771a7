"""Make ``agent_sleep`` importable when a script runs from the skill folder without install."""

from __future__ import annotations

import sys
from pathlib import Path

SKILL_ROOT = Path(__file__).resolve().parent.parent
if (SKILL_ROOT / "agent_sleep" / "__init__.py").is_file() and str(SKILL_ROOT) not in sys.path:
    sys.path.insert(0, str(SKILL_ROOT))
