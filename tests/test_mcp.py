"""The MCP server in a real subprocess, driven by the SDK's own stdio client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from agent_sleep.core import notes
from tests.conftest import ROOT

TOOLS = {
    "memory_write",
    "memory_search",
    "memory_get",
    "memory_context",
    "memory_flush",
    "memory_sleep",
    "memory_status",
}


@asynccontextmanager
async def session(ws: Path, *args: str, errlog: Path | None = None) -> AsyncIterator[ClientSession]:
    """A real SDK client on a real server process; its stderr goes to ``errlog`` if given."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "agent_sleep", "mcp", "--workspace", str(ws), *args],
        env={"PYTHONPATH": str(ROOT), "AGENT_SLEEP_PROVIDER": "offline"},
    )
    with open(errlog or os.devnull, "w") as err:
        async with (
            stdio_client(params, errlog=err) as (read, write),
            ClientSession(read, write) as s,
        ):
            await s.initialize()
            yield s


def data(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    out: dict[str, Any] = json.loads(result.content[0].text)
    return out


def tree(ws: Path) -> dict[str, bytes]:
    """Every memory file and its bytes (the derived state folder left out)."""
    return {
        p.relative_to(ws).as_posix(): p.read_bytes()
        for p in sorted(ws.rglob("*"))
        if p.is_file() and ".agent-sleep" not in p.parts
    }


def logged_notes(ws: Path) -> list[notes.Note]:
    out: list[notes.Note] = []
    for log in sorted((ws / "memory").glob("*.md")):
        out += notes.notes_in(log.read_text())
    return out


def test_lists_the_contract_tools_with_descriptions(ws: Path) -> None:
    async def main() -> None:
        async with session(ws) as s:
            listed = (await s.list_tools()).tools
            assert {t.name for t in listed} == TOOLS
            for t in listed:
                assert t.description and len(t.description) > 60, t.name
            search = next(t for t in listed if t.name == "memory_search")
            assert {"query", "q", "k", "limit", "budget_tokens"} <= set(
                search.input_schema["properties"]
            )

    anyio.run(main)


def test_write_search_get_round_trip_with_guessed_names(ws: Path) -> None:
    async def main() -> None:
        async with session(ws) as s:
            w = data(
                await s.call_tool("memory_write", {"text": "User prefers green tea", "type": "O"})
            )
            w2 = data(
                await s.call_tool(
                    "memory_write",
                    {
                        "note": "The staging database resets on Sundays",
                        "type": "W",
                        "source": "msg-7",
                    },
                )
            )
            assert w["type"] == "O" and w["confidence"] == 0.7
            found = data(await s.call_tool("memory_search", {"q": "green tea", "limit": 3}))
            assert found["hits"][0]["ids"] == [w["id"]]
            assert found["hits"][0]["path"] == w["path"]
            assert len(found["hits"]) <= 3
            found = data(await s.call_tool("memory_search", {"query": "staging database", "k": 1}))
            assert found["hits"][0]["ids"] == [w2["id"]]
            assert "msg-7" in found["hits"][0]["sources"]
            got = data(await s.call_tool("memory_get", {"path": found["hits"][0]["path"]}))
            assert "green tea" in got["text"] and "staging database" in got["text"]
            lines = data(
                await s.call_tool("memory_get", {"file": w["path"], "start_line": 1, "end_line": 1})
            )
            assert lines["text"].startswith("# ") and lines["end_line"] == 1
            assert lines["next_line"] == 2 and not lines["truncated"]
            ctx = data(await s.call_tool("memory_context", {}))["context"]
            assert "green tea" in ctx
            status = data(await s.call_tool("memory_status", {}))
            assert status["pending_notes"] == 2

    anyio.run(main)


def test_search_says_which_hits_are_no_longer_current(ws: Path) -> None:
    from agent_sleep import Workspace

    Workspace.at(ws).ensure()
    (ws / "bank" / "entities" / "dana.md").write_text(
        "# Dana\n\n## Facts\n\n"
        "- W: Dana lives in Porto <!-- id=newhome001 -->\n\n## History\n\n"
        "- W: Dana lives in Lisbon "
        "<!-- id=oldhome001 superseded_by=newhome001 until=2026-10-01 -->\n"
    )

    async def main() -> None:
        async with session(ws) as s:
            hits = data(await s.call_tool("memory_search", {"q": "where does Dana live", "k": 5}))
            by_id = {h["ids"][0]: h for h in hits["hits"] if h["ids"]}
            old = next(h for h in hits["hits"] if "Lisbon" in h["text"])
            assert old["current"] is False and "Porto" in old["superseded_by"]
            assert old["superseded_on"] == "2026-10-01"
            assert any(h["current"] for h in by_id.values() if "Porto" in h["text"])

    anyio.run(main)


def test_search_names_a_newer_entry_that_may_replace_a_hit(ws: Path) -> None:
    """An entry sleep marked (``newer=``, consolidation/maybe_replaced.py) says what may
    replace it, and memory_status lists it."""
    from agent_sleep import Workspace

    Workspace.at(ws).ensure()
    (ws / "MEMORY.md").write_text(
        "# MEMORY\n\n## Facts\n\n"
        "- W: Choir practice is in the church hall. "
        "<!-- id=oldplace01 date=2026-09-01 newer=newplace01 -->\n"
        "- W: Choir practice happens at the library annexe. "
        "<!-- id=newplace01 date=2026-10-02 -->\n"
    )

    async def main() -> None:
        async with session(ws) as s:
            hits = data(await s.call_tool("memory_search", {"q": "where is choir practice"}))
            old = next(h for h in hits["hits"] if "church hall" in h["text"])
            assert old["current"] is True
            assert old["newer"] == "2026-10-02: Choir practice happens at the library annexe."
            new = next(h for h in hits["hits"] if "library annexe" in h["text"])
            assert "newer" not in new
            status = data(await s.call_tool("memory_status", {}))
            assert [m["id"] for m in status["memory_maybe_out_of_date"]] == ["oldplace01"]

    anyio.run(main)


def test_resources_memory_daily_log_and_bank_page(ws: Path) -> None:
    (ws / "bank" / "entities").mkdir(parents=True)
    (ws / "bank" / "entities" / "billing-service.md").write_text(
        "# Billing\n\n- W: retries 5 times\n"
    )

    async def main() -> None:
        async with session(ws) as s:
            w = data(await s.call_tool("memory_write", {"note": "Shipped the billing fix"}))
            day = await s.read_resource(f"memory://daily/{w['date']}")
            assert "Shipped the billing fix" in day.contents[0].text
            mem = await s.read_resource("memory://MEMORY.md")
            assert mem.contents[0].text.startswith("# MEMORY")
            page = await s.read_resource("memory://bank/entities/billing-service")
            assert "retries 5 times" in page.contents[0].text
            for bad in (
                "memory://daily/yesterday",
                "memory://bank/secrets/x",
                "memory://bank/entities/..%2f..%2fx",
            ):
                with pytest.raises(Exception):  # noqa: B017 - the SDK raises its own error type
                    await s.read_resource(bad)
            assert data(await s.call_tool("memory_status", {}))["exists"]

    anyio.run(main)


HOSTILE: list[tuple[str, dict[str, Any]]] = [
    ("memory_get", {"path": "../outside.md"}),
    ("memory_get", {"path": "..\\outside.md"}),
    ("memory_get", {"path": "/etc/passwd"}),
    ("memory_get", {"path": "%2e%2e/outside.md"}),
    ("memory_get", {"path": ".agent-sleep/journal.jsonl"}),
    ("memory_get", {"path": "bank/link.md"}),  # a symlink leading out of the workspace
    ("memory_get", {"path": "MEMORY.md", "start_line": 0}),
    ("memory_write", {"note": "x" * (10 * 1024 * 1024)}),
    ("memory_write", {"note": 42}),
    ("memory_write", {"note": "fine", "type": "Q"}),
    ("memory_write", {"note": "fine", "type": "W", "confidence": 0.5}),
    ("memory_write", {"note": "one", "text": "two"}),
    ("memory_write", {}),
    ("memory_search", {"query": ["a", "list"]}),
    ("memory_search", {"query": "tea", "k": -3}),
    ("memory_search", {"k": "many"}),
    ("memory_context", {"budget_tokens": "lots", "query": "x"}),
    ("memory_flush", {"context_dump": ""}),
    ("memory_sleep", {"phase": "deep"}),
    ("memory_delete_everything", {}),
]


def test_hostile_arguments_are_tool_errors_write_nothing_and_the_server_keeps_serving(
    ws: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("secret outside the workspace\n")
    (ws / "bank").mkdir(parents=True)
    (ws / "bank" / "link.md").symlink_to(outside)

    async def main() -> None:
        async with session(ws) as s:
            data(await s.call_tool("memory_write", {"note": "a first note"}))
            before = tree(ws)
            for name, args in HOSTILE:
                r = await s.call_tool(name, args)
                assert r.is_error, (name, args, r.content)
                text = r.content[0].text
                assert "secret outside" not in text and len(text) < 2000, (name, text)
            assert tree(ws) == before
            assert outside.read_text() == "secret outside the workspace\n"
            data(await s.call_tool("memory_write", {"note": "still serving"}))
            assert [n.text for n in logged_notes(ws)] == ["a first note", "still serving"]

    anyio.run(main)


def test_four_clients_writing_at_once_keep_every_note_exactly_once(ws: Path) -> None:
    per_client = 15
    answered: list[str] = []

    async def client(c: int) -> None:
        async with session(ws) as s:
            for i in range(per_client):
                w = data(await s.call_tool("memory_write", {"note": f"client {c} note {i}"}))
                answered.append(w["id"])

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            for c in range(4):
                tg.start_soon(client, c)

    anyio.run(main)
    texts = [n.text for n in logged_notes(ws)]
    wanted = [f"client {c} note {i}" for c in range(4) for i in range(per_client)]
    assert sorted(texts) == sorted(wanted)
    assert sorted(n.id for n in logged_notes(ws)) == sorted(answered)


def test_clients_writing_during_a_sleep_lose_nothing_and_every_call_is_answered(ws: Path) -> None:
    calls = {"asked": 0, "answered": 0}

    async def writer(c: int) -> None:
        async with session(ws) as s:
            for i in range(10):
                calls["asked"] += 1
                data(
                    await s.call_tool("memory_write", {"note": f"writer {c} fact {i}", "type": "W"})
                )
                calls["answered"] += 1

    async def sleeper() -> None:
        async with session(ws) as s:
            for _ in range(2):
                calls["asked"] += 1
                result = data(await s.call_tool("memory_sleep", {"phase": "both"}))
                assert result["phase"] == "both"
                calls["answered"] += 1

    async def main() -> None:
        async with session(ws) as s:
            for i in range(5):
                data(
                    await s.call_tool(
                        "memory_write", {"note": f"User likes topic {i} a lot", "type": "O"}
                    )
                )
        async with anyio.create_task_group() as tg:
            tg.start_soon(sleeper)
            for c in range(3):
                tg.start_soon(writer, c)

    anyio.run(main)
    assert calls["asked"] == calls["answered"] == 32
    texts = [n.text for n in logged_notes(ws)]
    for c in range(3):
        for i in range(10):
            assert texts.count(f"writer {c} fact {i}") == 1


def test_a_sleep_already_running_is_a_tool_error_not_a_second_sleep(ws: Path) -> None:
    import filelock

    async def main() -> None:
        async with session(ws) as s:
            data(
                await s.call_tool(
                    "memory_write", {"note": "User likes quiet mornings", "type": "O"}
                )
            )
            with filelock.FileLock(str(ws / ".agent-sleep" / "sleep-run.lock"), timeout=0):
                r = await s.call_tool("memory_sleep", {})
                assert r.is_error and "already running" in r.content[0].text
            assert data(await s.call_tool("memory_sleep", {}))["notes_in"] == 1

    anyio.run(main)


def test_start_up_and_note_tools_load_no_model(ws: Path) -> None:
    probe = f"""
import sys, anyio
from agent_sleep.core.workspace import Workspace
from agent_sleep.integrations.mcp_server import build_server
server = build_server(Workspace.at({str(ws)!r}))
async def main():
    await server.call_tool("memory_write", {{"note": "no model needed"}})
    await server.call_tool("memory_context", {{}})
    await server.call_tool("memory_status", {{}})
anyio.run(main)
heavy = ("numpy", "onnxruntime", "torch", "sentence_transformers", "anthropic")
print("LOADED:" + " ".join(m for m in heavy if m in sys.modules))
"""
    r = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.rpartition("LOADED:")[2].split() == []


def test_http_transport_on_loopback(ws: Path) -> None:
    import socket

    from mcp.client import Client

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "agent_sleep", "mcp", "--workspace", str(ws), "--http", str(port)],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:

        async def main() -> None:
            for _ in range(100):
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        break
                except OSError:
                    await anyio.sleep(0.1)
            async with Client(f"http://127.0.0.1:{port}/mcp") as c:
                r = await c.call_tool("memory_write", {"note": "over http"})
                assert not r.is_error, r.content
                assert {t.name for t in (await c.list_tools()).tools} == TOOLS

        anyio.run(main)
        listening = Path("/proc/net/tcp").read_text()
        assert f"0100007F:{port:04X}" in listening  # bound to 127.0.0.1 only
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert [n.text for n in logged_notes(ws)] == ["over http"]
