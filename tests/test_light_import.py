"""The note-taking path must stay light: no model SDK or ML library at import time."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

HEAVY = ("anthropic", "torch", "sentence_transformers", "transformers", "onnxruntime", "numpy")
LIGHT_MODULES = [
    "agent_sleep",
    "agent_sleep.cli.app",
    "agent_sleep.cli.notes",
    "agent_sleep.core.rest",
]


def _loaded_after(code: str) -> list[str]:
    probe = (
        f"import sys\n{code}\nprint('HEAVY:' + ' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    r = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    return r.stdout.rpartition("HEAVY:")[2].split()


def test_importing_the_cli_loads_nothing_heavy() -> None:
    assert _loaded_after("\n".join(f"import {m}" for m in LIGHT_MODULES)) == []


def test_every_registered_command_module_imports_light() -> None:
    from agent_sleep.cli.app import COMMANDS

    modules = sorted({target.partition(":")[0] for target in COMMANDS.values()})
    assert _loaded_after("\n".join(f"import {m}" for m in modules)) == []


def test_a_rest_invocation_loads_nothing_heavy(tmp_path) -> None:  # type: ignore[no-untyped-def]
    code = (
        "from agent_sleep.cli.app import main\n"
        "try:\n"
        f"    main(['rest', '--note', 'x', '--workspace', {str(tmp_path / 'ws')!r}])\n"
        "except SystemExit:\n    pass"
    )
    assert _loaded_after(code) == []
