"""Every test gets its own workspace and no API key: nothing reaches the network or ``~``."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_SLEEP_WORKSPACE", str(tmp_path / "default-ws"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    monkeypatch.delenv("AGENT_SLEEP_PROVIDER", raising=False)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)  # set when run inside Claude Code


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return tmp_path / "ws"


@pytest.fixture
def openai_stand_in(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """The OpenAI-compatible stand-in on 127.0.0.1 (``tests.fake_openai_api``) as the server,
    no key, no retries, no model or extra body from the environment."""
    from tests.fake_openai_api import FakeOpenAIAPI

    with FakeOpenAIAPI() as server:
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "0")
        monkeypatch.delenv("AGENT_SLEEP_MODEL", raising=False)
        monkeypatch.delenv("AGENT_SLEEP_EXTRA_BODY", raising=False)
        yield server


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


# -- a process that file permissions apply to (tests of read-only workspaces) --------------

PR_CAPBSET_DROP = 24
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER = 1, 2, 3


def _drop_root_powers() -> None:
    """In the child before exec: take away what lets root ignore file permissions. Dropped
    from the bounding set, the capabilities are gone from the program root then runs."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


@contextlib.contextmanager
def permissions_enforced(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``run_cli`` as a process file permissions apply to: as is, or as root without the
    capabilities that bypass them (skipped where they cannot be dropped)."""
    if os.geteuid() != 0:
        yield
        return
    with monkeypatch.context() as m:
        m.setattr(
            subprocess, "run", functools.partial(subprocess.run, preexec_fn=_drop_root_powers)
        )
        try:
            probe = run_cli("--version")
        except subprocess.SubprocessError as e:
            pytest.skip(f"running as root and cannot drop CAP_DAC_OVERRIDE here ({e})")
        assert probe.returncode == 0, probe.stderr
        yield
