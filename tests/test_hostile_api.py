"""The Python API in an unlucky import order: a submodule named like a public function
(``agent_sleep.consolidation.flush``, ``agent_sleep.retrieval.recall``) imported first must not
replace the function."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.test_hostile_support import cli_env

_SESSION = """
import sys
import agent_sleep
from agent_sleep.consolidation.flush import should_flush  # a helper from the flush module, first
ws = sys.argv[1]
agent_sleep.micro_rest("Caroline moved to Boston", workspace=ws)
agent_sleep.get_context(workspace=ws, query="Boston")  # imports agent_sleep.retrieval.recall inside
hits = agent_sleep.recall(ws, "Boston")
from agent_sleep import flush, recall
import agent_sleep.retrieval.recall as recall_module
from agent_sleep.retrieval.recall import Fusion
print(len(hits), callable(flush) and flush.__name__, recall.__name__, Fusion.__name__)
"""


def test_public_functions_survive_their_submodules_being_imported(ws: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-c", _SESSION, str(ws)],
        capture_output=True,
        text=True,
        env=cli_env(),
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["1", "flush", "recall", "Fusion"]
