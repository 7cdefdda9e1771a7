"""Batches that fit a small context window: split, bounded per batch, one plan, resumable."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_sleep.consolidation import batches, bounded
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import schema as jsonschema
from agent_sleep.core.errors import BadInput
from agent_sleep.core.rest import micro_rest
from agent_sleep.providers import prompts
from agent_sleep.providers.base import get_provider
from agent_sleep.providers.openai import OpenAIProvider
from agent_sleep.providers.replies import schema_instruction
from tests.conftest import ROOT, run_cli
from tests.fake_openai_api import FakeOpenAIAPI, Recorded, Reply, honest
from tests.test_hostile_support import (
    NOW,
    api_env,
    assert_all_parse,
    dated,
    day,
    model_server,
    note_ids,
    tree,
)

NAMES = ("Caroline", "Melanie", "Jonas")
FACTS = (
    "{n} started a pottery class at the community centre on 2023-05-0{i}.",
    "{n} said the museum trip with the kids took about three hours.",
    "{n} moved the team standup to 9am every Tuesday after the vote.",
    "{n} has been reading a novel about lighthouse keepers since last week.",
)


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIAPI]:
    with FakeOpenAIAPI(models=[{"id": "tiny", "meta": {"n_ctx": 4096}}]) as server:
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "0")
        monkeypatch.delenv("AGENT_SLEEP_MODEL", raising=False)
        yield server


def _interleaved(ws: Path) -> dict[str, str]:
    """Twelve notes, three subjects taken in turn: id -> the name the note is about."""
    out = {}
    when = day(0, 9)
    for i, fact in enumerate(FACTS):
        for name in NAMES:
            nid = micro_rest(fact.format(n=name, i=i + 1), "W", workspace=ws, when=when)
            out[nid] = name
    return out


def _prompt_fits(rec: Recorded, context: int) -> None:
    """What a request holds, estimated, fits the window with room for its answer."""
    prompt = (len(rec.system) / 3.3) + (len(rec.user) / 2.2)
    assert prompt + rec.body["max_tokens"] <= context * 1.05, (prompt, rec.body["max_tokens"])


def test_small_window_splits_by_subject_into_one_plan(ws: Path, api: FakeOpenAIAPI) -> None:
    about = _interleaved(ws)
    r = sleep_cycle(ws, "nrem", "openai", now=NOW)
    reqs = api.completions()
    assert len(reqs) == 3 and r.tokens["batches"] == 3 and r.tokens["calls"] == 3
    seen: list[str] = []
    for rec in reqs:
        ids = [n["id"] for n in rec.payload["notes"]]
        assert len({about[i] for i in ids}) == 1, "a batch mixes subjects"
        sources = rec.schema["properties"]["memory_md_updates"]["items"]["properties"]["sources"]
        assert sources["items"]["enum"] == ids  # only this batch's notes can be cited
        assert rec.schema["properties"]["memory_md_updates"]["maxItems"] >= 1
        _prompt_fits(rec, 4096)
        seen += ids
    assert sorted(seen) == sorted(about)  # every note in exactly one batch
    lines = (ws / ".agent-sleep/journal.jsonl").read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["tokens"]["batches"] == 3
    text = (ws / "MEMORY.md").read_text()
    assert all(f"{n} started a pottery class" in text for n in NAMES)
    assert r.pending_left == 0
    again = sleep_cycle(ws, "nrem", "openai", now=NOW)
    assert again.notes_in == 0 and len(api.completions()) == 3


def test_memory_entries_shown_are_the_related_ones(ws: Path, api: FakeOpenAIAPI) -> None:
    when = day(1, 9)
    for i in range(40):
        micro_rest(
            f"Project item {i}: the staging cluster number {i} runs kernel 6.{i}.", "W",
            workspace=ws, when=when,
        )  # fmt: skip
    micro_rest("Caroline keeps bees in her garden in Leeds.", "W", workspace=ws, when=when)
    prov = OpenAIProvider(context_tokens=8192)
    sleep_cycle(ws, "nrem", prov, since=when.date(), now=NOW)
    memory_entries = (ws / "MEMORY.md").read_text().count("<!-- id=")
    assert memory_entries >= 41
    honey = "Caroline sold honey from her bees at the Leeds market."
    micro_rest(honey, "W", workspace=ws, when=NOW)
    before = len(api.completions())
    sleep_cycle(ws, "nrem", OpenAIProvider(context_tokens=3072), now=NOW)
    rec = api.completions()[before]
    shown = [e["text"] for e in rec.payload["memory"]]
    assert 0 < len(shown) < memory_entries, "all of MEMORY.md was sent to a 3k window"
    assert any("bees" in t for t in shown)
    _prompt_fits(rec, 3072)
    micro_rest("Caroline bought a second hive.", "W", workspace=ws, when=NOW)
    with pytest.raises(BadInput, match="--context-tokens 1024 is too small"):
        sleep_cycle(ws, "nrem", OpenAIProvider(context_tokens=1024), now=NOW)


def test_bounded_schema_is_a_subset_and_its_largest_answer_fits() -> None:
    notes = [{"id": f"n{i:09d}", "text": "x"} for i in range(8)]
    memory = [{"id": f"m{i:09d}", "text": "y"} for i in range(3)]
    payload = {"task": "nrem", "notes": notes, "memory": memory}
    for answer_tokens in (768, 1536, 3072):
        b = bounded.bounded(prompts.NREM_SCHEMA, "nrem", payload, answer_tokens)
        worst = bounded.item_chars(b)
        assert worst <= answer_tokens * bounded.OUTPUT_CHARS, (answer_tokens, worst)
        item = b["properties"]["memory_md_updates"]["items"]["properties"]
        assert item["replaces"]["enum"] == ["", *[m["id"] for m in memory]]
        assert set(item["sources"]["items"]["enum"]) == {x["id"] for x in notes + memory}
    good = honest({"task": "nrem", "notes": notes[:2]})
    assert not jsonschema.errors(good, prompts.NREM_SCHEMA)
    rem = bounded.bounded(prompts.REM_SCHEMA, "rem", {"task": "rem", "notes": notes}, 1536)
    assert rem["properties"]["confidence_updates"]["maxItems"] == 0  # no entries to update


def test_split_unit_fits_and_keeps_everything() -> None:
    win = batches.Window(context_tokens=4096, answer_tokens=1536, batch_notes=24)
    notes = [
        {"id": f"n{i:09d}", "text": f"{NAMES[i % 3]} wrote note {i} about the harbour, at length."}
        for i in range(60)
    ]
    questions = [{"text": "Where is the harbour?", "sources": ["n000000001"]}]
    payload = {"task": "rem", "today": "2026-01-01", "notes": notes, "open_questions": questions}
    parts = batches.split(payload, prompts.REM_SYSTEM, win, prompts.REM_SCHEMA)
    assert len(parts) > 1
    assert sorted(n["id"] for p in parts for n in p["notes"]) == sorted(n["id"] for n in notes)
    fixed = len(prompts.REM_SYSTEM + schema_instruction(prompts.REM_SCHEMA)) / 3.3
    for p in parts:
        assert fixed + len(prompts.render(p)) / 2.2 + win.answer_tokens <= win.context_tokens
        ids = {n["id"] for n in p["notes"]}
        assert p["open_questions"] == (questions if "n000000001" in ids else [])
    one = batches.Window(context_tokens=200_000, answer_tokens=16000, batch_notes=None)
    assert batches.split(payload, prompts.REM_SYSTEM, one, prompts.REM_SCHEMA) == [payload]
    huge = {**notes[0], "text": "word " * 20_000}
    parts = batches.split({**payload, "notes": [huge]}, prompts.REM_SYSTEM, win, prompts.REM_SCHEMA)
    assert len(parts) == 1 and parts[0]["notes"][0]["text"].endswith(" […]")


def test_merge_concatenates_lists_and_adds_counts() -> None:
    a = {**honest({"task": "nrem", "notes": [{"id": "a", "text": "A"}]}), "pruned_count": 2}
    b = {**honest({"task": "nrem", "notes": [{"id": "b", "text": "B"}]}), "pruned_count": 1}
    m = batches.merge(prompts.NREM_SCHEMA, [a, b])
    assert [u["sources"] for u in m["memory_md_updates"]] == [["a"], ["b"]]
    assert m["pruned_count"] == 3 and not jsonschema.errors(m, prompts.NREM_SCHEMA)


def test_one_failing_batch_writes_nothing(ws: Path, api: FakeOpenAIAPI) -> None:
    _interleaved(ws)
    before = tree(ws)
    api.replies += [Reply.json(honest({"task": "nrem"})), Reply("nope"), Reply("still nope")]
    with pytest.raises(Exception, match="unusable twice"):
        sleep_cycle(ws, "nrem", "openai", now=NOW)
    after = tree(ws)
    assert {k: v for k, v in after.items() if not k.startswith(".agent-sleep/")} == {
        k: v for k, v in before.items() if not k.startswith(".agent-sleep/")
    }
    # one journal line: the run failed, and what its three calls (the batch that answered and
    # the two replies of the one that did not) cost
    [line] = [json.loads(x) for x in (ws / ".agent-sleep/journal.jsonl").read_text().splitlines()]
    assert line["event"] == "sleep-failed" and line["tokens"]["calls"] == 3, line


def test_flush_of_a_big_dump_goes_in_parts(ws: Path, api: FakeOpenAIAPI) -> None:
    lines = [
        f"User: {NAMES[i % 3]} decided the harbour project phase {i} ships in May."
        for i in range(120)
    ]
    prov = get_provider("openai", context_tokens=2048)
    from agent_sleep.consolidation.flush import flush

    r = flush("\n".join(lines), workspace=ws, provider=prov, now=NOW)
    reqs = api.completions()
    assert len(reqs) > 2
    assert all(rec.payload["text"].strip() for rec in reqs)
    assert "".join(rec.payload["text"] for rec in reqs).count("User:") == 120
    assert len(r.written) >= len(reqs)  # notes from every part, merged into one write


def test_anthropic_batches_a_large_backlog(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _interleaved(ws)
    with model_server() as api:
        for k, v in api_env(api).items():
            monkeypatch.setenv(k, v)
        r = sleep_cycle(ws, "nrem", get_provider("anthropic", context_tokens=4096), now=NOW)
        assert len(api.requests) == r.tokens["batches"] > 1
        schema = api.requests[0].body["output_config"]["format"]["schema"]
        assert "maxLength" not in json.dumps(schema)  # the Messages API is sent the plain schema
    assert len((ws / ".agent-sleep/journal.jsonl").read_text().splitlines()) == 1


def test_killed_between_batches_leaves_files_whole_and_next_run_completes(
    ws: Path, api: FakeOpenAIAPI
) -> None:
    _interleaved(ws)
    before = {k: v for k, v in tree(ws).items() if not k.startswith(".agent-sleep/")}
    second = threading.Event()

    def slow_second(rec: Recorded) -> None:
        if len(api.completions()) == 2:
            second.set()
            time.sleep(30)  # the run is killed while it waits here

    api.on_request = slow_second
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AGENT_SLEEP_"))}
    proc = subprocess.Popen(
        [sys.executable, "-m", "agent_sleep", *dated("sleep", "--phase", "nrem", "-w", str(ws)),
         "--provider", "openai", "--base-url", api.url],
        env={**env, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert second.wait(60), proc.stderr.read().decode() if proc.stderr else ""
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream:
                stream.close()
    after = {k: v for k, v in tree(ws).items() if not k.startswith(".agent-sleep/")}
    assert after == before  # every file whole: nothing written before all batches answered
    assert not (ws / ".agent-sleep/journal.jsonl").exists()
    api.on_request = None
    n = len(api.completions())
    p = run_cli(
        *dated("sleep", "--phase", "nrem", "-w", str(ws)), "--provider", "openai",
        "--base-url", api.url, "--json", env={"OPENAI_BASE_URL": ""},
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["tokens"]["batches"] == 3
    assert len(api.completions()) - n == 2  # the first batch's answer was kept and reused
    assert len(note_ids(ws)) == 12  # every note still in the logs
    assert all(f"{n} started a pottery class" in (ws / "MEMORY.md").read_text() for n in NAMES)
    assert_all_parse(ws)
