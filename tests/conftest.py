"""Every test gets its own workspace and no API key: nothing reaches the network or ``~``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_SLEEP_WORKSPACE", str(tmp_path / "default-ws"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    monkeypatch.delenv("AGENT_SLEEP_PROVIDER", raising=False)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return tmp_path / "ws"


@pytest.fixture(scope="module")
def similar() -> object:
    """The bundled model's similarity function, as the offline currency reader uses it."""
    from agent_sleep.providers.offline_currency import similarity

    fn = similarity()
    assert fn is not None  # the model ships with the package
    return fn


def run_cli(
    *args: str, input: str | None = None, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m agent_sleep ARGS`` in a real process."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "agent_sleep", *args],
        input=input,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=full_env,
        timeout=120,
    )
