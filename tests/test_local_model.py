"""A real llama.cpp server (xllamacpp, SmolLM2-135M-Instruct) behind ``--provider openai``.

One server for the session, in a subprocess on 127.0.0.1 with one thread, always stopped. A
real flush and a real sleep run through the CLI: every call answered schema-valid (or
repaired), every written item cites notes it was shown, nothing outside the workspace
changes, and a second run changes nothing. A 135M model writes poor memories; these tests
prove the contract, not the prose.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_sleep.analysis import lexical
from agent_sleep.consolidation.flush import GROUNDED_SHARE
from agent_sleep.core import notes as fmt
from agent_sleep.core.rest import micro_rest
from tests.llama_server import LlamaServer, missing
from tests.test_hostile_support import assert_all_parse, cli, dated, day, note_ids, tree

pytestmark = pytest.mark.slow

ENV = {"AGENT_SLEEP_TIMEOUT": "600", "AGENT_SLEEP_MAX_RETRIES": "1"}
SOURCES_RE = re.compile(r"sources=([0-9a-z,]+)")


@pytest.fixture(scope="session")
def llama(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    why = missing()
    if why:
        pytest.skip(why)
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with LlamaServer(log=log) as server:
        yield server


@pytest.fixture
def outside(tmp_path: Path) -> Iterator[Path]:
    root = tmp_path / "outside"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "passwd").write_text("root:x:0:0\n")
    (root / "page.md").write_text("# not yours\n")
    before = tree(root)
    yield root
    assert tree(root) == before, "something was written outside the workspace"


def _run(llama: LlamaServer, *args: str) -> dict:
    args = (*dated(*args), "--provider", "openai", "--base-url", llama.url, "--json")
    p = cli(*args, env=ENV, timeout=1500)
    assert p.returncode == 0, p.stderr[-2000:]
    out = json.loads(p.stdout)
    assert isinstance(out, dict)
    return out


def _state(ws: Path) -> dict[str, bytes]:
    return {k: v for k, v in tree(ws).items() if k != ".agent-sleep/lock"}


def test_real_sleep(llama: LlamaServer, ws: Path, outside: Path) -> None:
    when = day(1)
    for text, kind in [
        ("Caroline went to an LGBTQ support group yesterday and found it powerful.", "B"),
        ("Caroline is researching adoption agencies because she wants to adopt a child.", "W"),
        ("Caroline moved to Boston four years ago, after her 18th birthday.", "W"),
        ("Melanie ran a charity race for mental health last Saturday.", "B"),
        ("Melanie has three kids and paints lake landscapes on weekends.", "W"),
        ("Melanie prefers pottery to painting since her class in May 2023.", "O"),
    ]:
        micro_rest(text, kind, workspace=ws, when=when)
    ids = set(note_ids(ws))
    r = _run(llama, "sleep", "-w", str(ws))
    t = r["tokens"]
    assert r["notes_in"] == 6 and r["run_id"] and r["pending_left"] == 0
    assert t["calls"] == t["batches"] + t["repairs"] and t["input"] > 0 and t["output"] > 0
    line = json.loads((ws / ".agent-sleep/journal.jsonl").read_text().splitlines()[-1])
    assert line["tokens"] == t and line["provider"] == "openai" and line["seconds"] > 0
    # every written item cites notes (or entries) it was shown
    written = [ws / "MEMORY.md", *sorted((ws / "bank").rglob("*.md"))]
    known = ids | {n.id for p in written for n in fmt.notes_in(p.read_text())}
    for path in [*written, *sorted((ws / "memory").glob("*.md"))]:
        for m in SOURCES_RE.finditer(path.read_text()):
            assert set(m.group(1).split(",")) <= known, (path, m.group(0))
    for page in (ws / "bank").rglob("*"):
        assert page.resolve().is_relative_to(ws.resolve())
        assert re.fullmatch(r"[a-z0-9-]+\.md", page.name) or page.is_dir()
    assert set(note_ids(ws)) == ids  # never lose a note
    assert_all_parse(ws)
    before = _state(ws)
    again = _run(llama, "sleep", "-w", str(ws))
    assert again["notes_in"] == 0 and again["tokens"]["calls"] == 0
    assert _state(ws) == before


def test_real_flush(llama: LlamaServer, ws: Path, outside: Path, tmp_path: Path) -> None:
    dump = tmp_path / "session.txt"
    dump.write_text(
        "User: Please remember that I prefer tabs over spaces in every Python project.\n"
        "Assistant: Noted. The dev server is listening on port 5173.\n"
        "User: We decided to ship the Apollo beta on Friday 2026-03-06.\n"
        "User: My sister Ana is allergic to peanuts, keep that in mind for the party.\n"
    )
    r = _run(llama, "flush", "--context-file", str(dump), "-w", str(ws))
    assert not r["already_flushed"]
    # the model's reply was valid and used: each item written, a duplicate, or refused by the
    # write gate (a 135M model mostly repeats itself; the gate is what keeps that out)
    assert len(r["written"]) + r["duplicates"] + sum(r["rejected"].values()) >= 1
    dump_tokens = set(lexical.tokens(dump.read_text()))
    log = Path(r["path"]).read_text() if Path(r["path"]).exists() else ""
    written = [n for n in fmt.notes_in(log) if n.id in r["written"]]
    assert len(written) == len(r["written"])
    for note in written:  # grounded in the dump, stamped with it
        toks = lexical.tokens(note.text)
        assert sum(t in dump_tokens for t in toks) >= GROUNDED_SHARE * len(toks), note.text
        assert note.meta.get("source") == f"flush:{r['dump_hash']}"
    assert_all_parse(ws)
    before = _state(ws)
    again = _run(llama, "flush", "--context-file", str(dump), "-w", str(ws))
    assert again["already_flushed"] and again["written"] == []
    assert _state(ws) == before
