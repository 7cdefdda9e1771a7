"""What the provider path says when something goes wrong, as a user reads it on stderr.

- A connection dropped without a reply is named as such, not "server answered None".
- ``flush`` against a server that is not running says the cause once (it also said it as a
  "context window unknown" line first).
- An HTML page answered with 200 on the openai path says what it is (it said "the reply has
  no choices").
- Counts are said in good English: "1 note", "after 1 retry", "its note waits".
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_sleep.cli.sleep import _held_back
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core.errors import AgentSleepError
from agent_sleep.core.rest import micro_rest
from agent_sleep.providers.openai import OpenAIProvider
from tests.test_hostile_support import AT, NOW, cli, day, tree
from tests.test_provider_replies import HTML, RawServer, always


class Dropper:
    """Accepts each connection, reads the request and closes without a word."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.accepted = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            try:
                conn.recv(1 << 20)
            finally:
                conn.close()

    def __enter__(self) -> Dropper:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


@pytest.fixture
def dropper() -> Iterator[Dropper]:
    with Dropper() as server:
        yield server


@pytest.fixture
def served(ws: Path) -> Path:
    micro_rest("Caroline moved to Boston for the new job", "W", workspace=ws, when=day(1))
    return ws


def _closed_port() -> str:
    """The URL of a port nothing listens on."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"http://127.0.0.1:{port}/v1"


def test_openai_dropped_connection_is_named(served: Path, dropper: Dropper) -> None:
    url = f"{dropper.url}/v1"
    env = {"OPENAI_BASE_URL": "", "AGENT_SLEEP_MAX_RETRIES": "1"}
    r = cli("sleep", *AT, "--base-url", url, "--model", "m", "--context-tokens", "4096",
            "-w", str(served), env=env)  # fmt: skip
    assert r.returncode == 1, r.stderr
    assert "answered None" not in r.stderr and "1 retries" not in r.stderr
    lines = r.stderr.strip().splitlines()
    retry = [ln for ln in lines if "; retry 1 in " in ln]
    assert len(retry) == 1 and retry[0].startswith(f"could not reach {url} ("), lines
    assert any(w in retry[0] for w in ("Server disconnected", "Connection reset")), retry
    assert lines[-1].startswith(f"Error: could not reach {url} after 1 retry ("), lines
    assert dropper.accepted == 2


def test_anthropic_dropped_connection_is_named(served: Path, dropper: Dropper) -> None:
    env = {"ANTHROPIC_API_KEY": "sk-test-key", "ANTHROPIC_BASE_URL": dropper.url,
           "AGENT_SLEEP_PROVIDER": "anthropic", "AGENT_SLEEP_MAX_RETRIES": "1"}  # fmt: skip
    r = cli("sleep", *AT, "--phase", "nrem", "-w", str(served), env=env)
    assert r.returncode == 1, r.stderr
    lines = r.stderr.strip().splitlines()
    assert any(ln.startswith("could not reach the Messages API (") and "; retry 1 in " in ln
               for ln in lines), lines  # fmt: skip
    assert lines[-1].startswith("Error: could not reach the Messages API ("), lines
    # the dropped connection reads as a disconnect or a reset, as the socket closes
    assert any(w in lines[-1] for w in ("Server disconnected", "Connection reset")), lines
    assert "after 1 retry;" in lines[-1], lines
    assert dropper.accepted == 2


def test_flush_against_no_server_says_the_cause_once(served: Path) -> None:
    url = _closed_port()
    before = tree(served)
    r = cli("flush", *AT, "--base-url", url, "--context-dump",
            "We decided to use Postgres 16 for all staging databases from now on.",
            "-w", str(served), env={"OPENAI_BASE_URL": ""})  # fmt: skip
    assert r.returncode == 1, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"Error: could not reach {url} to list its models ("), lines
    assert "pass --model" not in lines[0]  # a model would not help: the server is not there
    assert tree(served) == before


def test_openai_html_page_says_what_it_is(served: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "0")
    with RawServer(always(*HTML)) as server:
        prov = OpenAIProvider("m", base_url=f"{server.url}/v1", context_tokens=4096)
        with pytest.raises(AgentSleepError) as e:
            sleep_cycle(served, "nrem", prov, now=NOW)
    assert "the reply is not a chat completion (text '<!doctype html><html><body>" in str(e.value)


def test_counts_of_one(served: Path) -> None:
    r = cli("sleep", *AT, "--provider", "offline", "-w", str(served))
    assert r.returncode == 0, r.stderr
    assert ": 1 note; " in r.stdout and "1 notes" not in r.stdout, r.stdout
    r = cli("flush", *AT, "--provider", "offline", "--context-dump",
            "User: I prefer tabs over spaces in every repository.", "-w", str(served))  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("1 note written to "), r.stdout
    assert _held_back(2, 1) == (
        "Removal cap (25% of MEMORY.md per run): 2 changes held back; its note waits for the "
        "next sleep (--prune-memory lifts the cap)."
    )
    assert "their 3 notes wait for the next sleep" in _held_back(4, 3)
