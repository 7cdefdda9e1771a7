"""``agent_sleep.MemoryTool`` driven by the SDK's tool runner against the fake Messages API."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import anthropic
import pytest
from anthropic.lib.tools import ToolError

from agent_sleep import MemoryTool, Workspace, micro_rest, recall, rollback, sleep_cycle
from agent_sleep.core import notes
from tests.conftest import run_cli
from tests.fake_messages_api import FakeMessagesAPI, Reply

NOW = dt.datetime(2026, 3, 10, 18, 0)  # the day these tests run as of, never the clock
TODAY = NOW.date().isoformat()
MEMORY = (
    "# MEMORY\n\nLong-term memory.\n\n## Facts\n\n"
    "- W: The billing service retries webhooks 5 times <!-- id=a9c3e5g7j1 sources=d3f8h1k9xp "
    "date=2026-11-29 -->\n"
    "- O(c=0.9): User prefers small PRs <!-- id=b2d4f6h8k0 sources=z6btec3c9n -->\n"
)


def memory_call(command: str, **args: Any) -> tuple[str, dict[str, Any]]:
    return ("memory", {"command": command, **args})


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".agent-sleep" not in p.parts
    }


def seeded(ws: Path) -> Workspace:
    w = Workspace.at(ws).ensure()
    w.write_text(w.memory_md, MEMORY)
    return w


def run_model(ws: Path, *turns: Reply) -> list[dict[str, Any]]:
    """Run the SDK's tool runner over scripted model turns; the tool results it sent back."""
    with FakeMessagesAPI() as fake:
        fake.replies += [*turns, Reply(text="Done.")]
        client = anthropic.Anthropic(api_key="test-key", base_url=fake.url, max_retries=0)
        runner = client.beta.messages.tool_runner(
            model="claude-haiku-4-5",
            max_tokens=1024,
            messages=[{"role": "user", "content": "Remember what matters."}],
            tools=[MemoryTool(workspace=ws)],
        )
        final = runner.until_done()
        assert final.content[0].text == "Done."
        sent = [r.body for r in fake.requests]
    assert sent[0]["tools"] == [{"type": "memory_20250818", "name": "memory"}]
    results = []
    for body in sent[1:]:
        for block in body["messages"][-1]["content"]:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                content = block["content"]
                text = content if isinstance(content, str) else content[0]["text"]
                results.append({"error": bool(block.get("is_error")), "text": text})
    return results


def test_a_model_session_through_the_tool_runner(ws: Path, tmp_path: Path) -> None:
    seeded(ws)
    outside = tmp_path / "outside.txt"
    outside.write_text("not yours\n")
    (ws / "bank" / "concepts" / "escape.md").symlink_to(outside)
    results = run_model(
        ws,
        Reply.tools(memory_call("view", path="/memories")),
        Reply.tools(
            memory_call("view", path="/memories/MEMORY.md"),
            memory_call(
                "str_replace",
                path="/memories/MEMORY.md",
                old_str="retries webhooks 5 times",
                new_str="retries webhooks 7 times over 24 hours",
            ),
            memory_call(
                "insert",
                path="/memories/MEMORY.md",
                insert_line=8,
                insert_text="- W: Staging resets every Sunday\n",
            ),
        ),
        Reply.tools(
            memory_call(
                "create",
                path=f"/memories/memory/{TODAY}.md",
                file_text="- Met Dana about the billing launch\n- O(c=0.8): Dana likes demos\n",
            ),
            memory_call("view", path="/memories/../../etc/passwd"),
            memory_call("view", path="/memories/..\\..\\etc\\passwd"),
            memory_call("view", path="/memories/%2e%2e/%2e%2e/etc/passwd"),
            memory_call("create", path="/etc/cron.d/evil", file_text="* * * * * rm -rf /"),
            memory_call("create", path="/memories/.agent-sleep/journal.jsonl", file_text="{}"),
            memory_call("view", path="/memories/bank/concepts/escape.md"),
            memory_call(
                "str_replace", path="/memories/bank/concepts/escape.md", old_str="not", new_str="x"
            ),
            memory_call("delete", path=f"/memories/memory/{TODAY}.md"),
        ),
    )
    assert [r["error"] for r in results] == [False] * 5 + [True] * 8, results
    assert "/memories/MEMORY.md" in results[0]["text"]
    assert "<!--" not in results[1]["text"]  # the model reads entries without metadata
    assert "retries webhooks 5 times" in results[1]["text"]
    assert outside.read_text() == "not yours\n"
    entries = {n.id: n for n in notes.notes_in((ws / "MEMORY.md").read_text())}
    assert (
        entries["a9c3e5g7j1"].text == "The billing service retries webhooks 7 times over 24 hours"
    )
    assert entries["a9c3e5g7j1"].meta["sources"] == "d3f8h1k9xp"  # id and provenance kept
    assert "b2d4f6h8k0" in entries
    added = [n for n in entries.values() if n.text == "Staging resets every Sunday"]
    assert len(added) == 1 and len(added[0].id) == notes.ID_LENGTH
    logged = notes.notes_in((ws / "memory" / f"{TODAY}.md").read_text())
    assert [(n.type, n.text) for n in logged] == [
        ("B", "Met Dana about the billing launch"),
        ("O", "Dana likes demos"),
    ]
    assert all(n.id and n.time for n in logged)


def test_entries_keep_their_ids_and_typed_metadata_is_not_taken(ws: Path) -> None:
    seeded(ws)
    tool = MemoryTool(workspace=ws)
    before = (ws / "MEMORY.md").read_text()
    tool.call(
        {
            "command": "str_replace",
            "path": "/memories/MEMORY.md",
            "old_str": "User prefers small PRs",
            "new_str": "User prefers small PRs <!-- id=a9c3e5g7j1 sources=forged -->",
        }
    )
    after = notes.notes_in((ws / "MEMORY.md").read_text())
    assert [n.id for n in after] == ["a9c3e5g7j1", "b2d4f6h8k0"]
    assert after[1].meta["sources"] == "z6btec3c9n" and after[1].text == "User prefers small PRs"
    first_line = [line for line in before.splitlines() if "a9c3e5g7j1" in line]
    assert first_line[0] in (ws / "MEMORY.md").read_text()  # untouched entry byte for byte


def test_daily_logs_are_append_only(ws: Path) -> None:
    micro_rest("Deployed billing v2", "B", workspace=ws, when=NOW)
    log = ws / "memory" / f"{TODAY}.md"
    original = log.read_text()
    tool = MemoryTool(workspace=ws)
    path = f"/memories/memory/{TODAY}.md"
    for cmd in (
        {"command": "str_replace", "path": path, "old_str": "Deployed", "new_str": "Rolled back"},
        {"command": "delete", "path": path},
        {"command": "rename", "old_path": path, "new_path": "/memories/memory/2020-01-01.md"},
        {"command": "create", "path": path, "file_text": "- overwrite"},
        {"command": "delete", "path": "/memories/memory"},
        {"command": "delete", "path": "/memories/MEMORY.md"},
    ):
        with pytest.raises(ToolError):
            tool.call(cmd)
    assert log.read_text() == original
    out = tool.call(
        {
            "command": "insert",
            "path": path,
            "insert_line": 0,
            "insert_text": "- W: Redis listens on 6379",
        }
    )
    assert "at the end" in out
    assert log.read_text().startswith(original)
    assert [n.text for n in notes.notes_in(log.read_text())] == [
        "Deployed billing v2",
        "Redis listens on 6379",
    ]


def test_writes_are_redacted_capped_and_validated(ws: Path) -> None:
    seeded(ws)
    tool = MemoryTool(workspace=ws)
    key = "sk-ant-api03-" + "A" * 40
    tool.call(
        {
            "command": "create",
            "path": "/memories/bank/entities/billing-service.md",
            "file_text": f"# Billing\n\n- W: Its API key is {key}\n",
        }
    )
    page = (ws / "bank" / "entities" / "billing-service.md").read_text()
    assert key not in page and "[REDACTED:anthropic-key]" in page
    before = tree(ws)
    for cmd in (
        {"command": "create", "path": "/memories/bank/concepts/big.md", "file_text": "x" * 70_000},
        {"command": "create", "path": "/memories/bank/concepts/Bad Name.md", "file_text": "x"},
        {"command": "create", "path": "/memories/notes/deep/file.md", "file_text": "x"},
        {"command": "create", "path": "/memories/memory/2026-02-30.md", "file_text": "x"},
        {"command": "create", "path": 5, "file_text": "x"},
        {"command": "create", "path": "/memories/bank/concepts/a.md"},
        {"command": "view", "path": "/memories/MEMORY.md", "view_range": [1, "x"]},
        {
            "command": "insert",
            "path": "/memories/MEMORY.md",
            "insert_line": 999,
            "insert_text": "x",
        },
        {"command": "str_replace", "path": "/memories/MEMORY.md", "old_str": "- ", "new_str": "x"},
        {"command": "rename", "old_path": "/memories/MEMORY.md", "new_path": "/memories/M.md"},
    ):
        with pytest.raises(ToolError) as e:
            tool.call(cmd)
        assert len(str(e.value)) < 500
    assert tree(ws) == before


def test_a_symlinked_folder_is_refused(ws: Path, tmp_path: Path) -> None:
    Workspace.at(ws).ensure()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (ws / "bank" / "entities").rmdir()
    (ws / "bank" / "entities").symlink_to(elsewhere, target_is_directory=True)
    tool = MemoryTool(workspace=ws)
    for cmd in (
        {"command": "create", "path": "/memories/bank/entities/x.md", "file_text": "- W: x"},
        {"command": "view", "path": "/memories/bank/entities"},
    ):
        with pytest.raises(ToolError):
            tool.call(cmd)
    assert list(elsewhere.iterdir()) == []
    assert "elsewhere" not in tool.call({"command": "view", "path": "/memories"})


def test_view_paginates_files_and_folders(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    body = "".join(f"- W: fact {i} <!-- id=f{i:09d} -->\n" for i in range(1000))
    w.write_text(w.concepts_dir / "facts.md", "# Facts\n\n" + body)
    tool = MemoryTool(workspace=ws)
    first = tool.call({"command": "view", "path": "/memories/bank/concepts/facts.md"})
    assert "fact 397" in first and "fact 398" not in first
    assert "view_range [401, 800]" in first
    second = tool.call(
        {"command": "view", "path": "/memories/bank/concepts/facts.md", "view_range": [401, 800]}
    )
    assert second.splitlines()[1].strip().startswith("401") and "fact 398" in second
    last = tool.call(
        {"command": "view", "path": "/memories/bank/concepts/facts.md", "view_range": [990, -1]}
    )
    assert "fact 999" in last and "next page" not in last
    for day in range(250):
        w.write_text(w.day_log(dt.date(2025, 1, 1) + dt.timedelta(days=day)), "# log\n")
    listing = tool.call({"command": "view", "path": "/memories"})
    assert "entries 1-200 of 252" in listing


def test_what_the_model_writes_is_found_by_search_and_slept_on(ws: Path) -> None:
    seeded(ws)
    tool = MemoryTool(workspace=ws)
    tool.call(
        {
            "command": "create",
            "path": f"/memories/memory/{TODAY}.md",
            "file_text": "- O(c=0.9): User prefers oat milk in the afternoon coffee\n",
        }
    )
    tool.call(
        {
            "command": "create",
            "path": "/memories/kayak_trip.md",
            "file_text": "# Kayak trip\n\n- W: The kayak trip to Lake Tahoe is in August\n",
        }
    )
    hits = recall(ws, "oat milk", k=3)
    assert hits and "oat milk" in hits[0].text
    assert recall(ws, "kayak Tahoe", k=3)[0].path == "bank/concepts/kayak-trip.md"
    result = sleep_cycle(ws, phase="nrem", provider="offline", now=NOW)
    assert result.notes_in == 1 and result.run_id


def test_rollback_undoes_what_the_model_did_byte_for_byte(ws: Path) -> None:
    seeded(ws)
    micro_rest("Morning note", "B", workspace=ws, when=NOW)
    tool = MemoryTool(workspace=ws)
    tool.call(
        {
            "command": "create",
            "path": "/memories/bank/entities/dana.md",
            "file_text": "- W: Dana runs QA\n",
        }
    )
    start = tree(ws)
    steps = [
        {
            "command": "str_replace",
            "path": "/memories/MEMORY.md",
            "old_str": "5 times",
            "new_str": "9 times",
        },
        {
            "command": "insert",
            "path": f"/memories/memory/{TODAY}.md",
            "insert_line": 0,
            "insert_text": "- later",
        },
        {
            "command": "rename",
            "old_path": "/memories/bank/entities/dana.md",
            "new_path": "/memories/bank/entities/dana-qa.md",
        },
        {"command": "delete", "path": "/memories/bank/entities/dana-qa.md"},
    ]
    for step in steps:
        tool.call(step)
    assert tree(ws) != start
    runs = [
        e["run_id"]
        for e in map(json.loads, (ws / ".agent-sleep" / "journal.jsonl").read_text().splitlines())
        if e.get("event") == "memory-tool"
    ]
    assert len(runs) == 1 + len(steps)
    for run_id in reversed(runs[1:]):
        r = run_cli("rollback", run_id, "--workspace", str(ws), "--json")
        assert r.returncode == 0, r.stderr
    assert tree(ws) == start
    rollback(ws, runs[0])
    assert not (ws / "bank" / "entities" / "dana.md").exists()


def test_a_forced_rollback_of_a_model_edit_keeps_what_came_after_it(ws: Path) -> None:
    """The model's edit is undone; an entry a later sleep added to the same MEMORY.md stays
    (before, the whole before-image came back and the later entry was lost for good: its
    note counted as consolidated)."""
    seeded(ws)
    tool = MemoryTool(workspace=ws)
    tool.call(
        {"command": "str_replace", "path": "/memories/MEMORY.md", "old_str": "5", "new_str": "9"}
    )
    (edit,) = [
        e["run_id"]
        for e in map(json.loads, (ws / ".agent-sleep" / "journal.jsonl").read_text().splitlines())
        if e.get("event") == "memory-tool"
    ]
    micro_rest("Falcon CI runs on GitHub Actions.", "W", workspace=ws, when=NOW)
    sleep_cycle(ws, phase="nrem", provider="offline", now=NOW)
    assert "GitHub Actions" in (ws / "MEMORY.md").read_text()
    refused = run_cli("rollback", edit, "--workspace", str(ws))
    assert refused.returncode != 0 and "--force" in refused.stderr
    r = run_cli("rollback", edit, "--force", "--workspace", str(ws), "--json")
    assert r.returncode == 0, r.stderr
    text = (ws / "MEMORY.md").read_text()
    assert "retries webhooks 5 times" in text and "9 times" not in text
    assert "GitHub Actions" in text and "small PRs" in text
