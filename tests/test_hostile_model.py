"""Hostile model output through the fake Messages API and the real SDK.

Every reply starts as an honest answer about the request's own notes (so it cites real ids) and is
then turned hostile. Nothing outside the workspace may change (a sentinel tree beside it is
compared byte for byte), MEMORY.md loses at most what the rules allow, and a failure is one
``Error:`` line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent_sleep import micro_rest
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core.memory import ARCHIVE_SLUG
from tests.test_hostile_support import (
    NOW,
    Tamper,
    api_env,
    assert_all_parse,
    but_failure_lines,
    cli,
    dated,
    day,
    memory_entries,
    model_server,
    note_ids,
    tree,
)

SLUG_RE = r"[a-z0-9-]+\.md"


@pytest.fixture
def outside(tmp_path: Path) -> Iterator[Path]:
    """A sentinel tree beside the workspace; it must be byte-identical afterwards."""
    root = tmp_path / "outside"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "passwd").write_text("root:x:0:0\n")
    (root / "page.md").write_text("# not yours\n")
    (root / "dir").mkdir()
    before = tree(root)
    yield root
    assert tree(root) == before, "something was written outside the workspace"
    assert {p.name for p in tmp_path.iterdir()} <= {"default-ws", "outside", "ws"}


def _workspace(ws: Path) -> list[str]:
    ids = [
        micro_rest("Caroline moved to Boston with project Apollo", "W", workspace=ws, when=day(0)),
        micro_rest("Melanie prefers pottery to painting", "O", workspace=ws, when=day(0)),
        micro_rest("We shipped the Apollo beta on 2026-03-04", "B", workspace=ws, when=day(0)),
    ]
    return ids


def _run(ws: Path, tamper: Tamper, monkeypatch: pytest.MonkeyPatch, **kw: Any) -> Any:
    with model_server(tamper) as api:
        for k, v in api_env(api).items():
            monkeypatch.setenv(k, v)
        return sleep_cycle(ws, kw.pop("phase", "nrem"), "anthropic", now=NOW, **kw)


def _nrem_only(fn: Tamper) -> Tamper:
    def tamper(task: str, payload: dict[str, Any], honest: dict[str, Any]) -> Any:
        return fn(task, payload, honest) if task == "nrem" else honest

    return tamper


def _bank(slug: str, sources: list[str], **kw: str) -> dict[str, Any]:
    return {
        "slug": slug,
        "kind": kw.get("kind", "entity"),
        "section": kw.get("section", "## Notes"),
        "content": kw.get("content", "Caroline moved to Boston"),
        "sources": sources,
    }


def _add(text: str, sources: list[str], kind: str = "W") -> dict[str, Any]:
    return {
        "action": "add",
        "type": kind,
        "confidence": 0.9,
        "text": text,
        "replaces": "",
        "sources": sources,
    }


def _pages(ws: Path) -> list[str]:
    return sorted(p.relative_to(ws).as_posix() for p in (ws / "bank").rglob("*") if p.is_file())


def test_traversal_and_absolute_slugs_stay_in_the_bank(
    ws: Path, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = _workspace(ws)
    evil = [
        "../../outside/etc/passwd",
        str(outside / "page"),
        "..",
        "/",
        "bank/../../../outside/dir/x",
        "..%2f..%2foutside%2fpwn",
        "C:\\Windows\\system32",
        "\x00nul",
        "ｅｔｃ",
        ".hidden",
        "~/.ssh/authorized_keys",
    ]

    def tamper(task: str, payload: dict[str, Any], honest: dict[str, Any]) -> Any:
        honest["bank_updates"] = [_bank(s, [payload["notes"][0]["id"]]) for s in evil]
        return honest

    r = _run(ws, _nrem_only(tamper), monkeypatch)
    import re

    for rel in _pages(ws):
        assert re.fullmatch(r"bank/(entities|concepts)/" + SLUG_RE, rel), rel
    # ".." and "/" have no [a-z0-9]; "\x00nul" and fullwidth "ｅｔｃ" become "nul" and "etc",
    # pages inside the bank like any other
    assert r.dropped.get("bad_slug", 0) >= 2
    assert set(note_ids(ws)) == set(ids)
    assert_all_parse(ws)


def test_symlinks_in_the_workspace_pointing_outside(
    ws: Path, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _workspace(ws)
    os.symlink(outside / "page.md", ws / "bank/entities/linked.md")
    (ws / "bank/concepts").rmdir()
    os.symlink(outside / "dir", ws / "bank/concepts")

    def tamper(task: str, payload: dict[str, Any], honest: dict[str, Any]) -> Any:
        nid = payload["notes"][0]["id"]
        honest["bank_updates"] = [
            _bank("linked", [nid]),
            _bank("fresh-topic", [nid], kind="concept"),
        ]
        return honest

    r = _run(ws, _nrem_only(tamper), monkeypatch)
    assert r.dropped["unsafe_path"] == 2
    assert "Caroline" in (ws / "MEMORY.md").read_text()  # the safe part of the run landed


def test_state_folder_symlinked_outside_fails_with_one_line(ws: Path, outside: Path) -> None:
    _workspace(ws)
    state = ws / ".agent-sleep"
    for p in sorted(state.rglob("*"), reverse=True):
        p.rmdir() if p.is_dir() else p.unlink()
    state.rmdir()
    os.symlink(outside / "dir", state)
    before = tree(ws)
    r = cli(*dated("sleep", "-w", str(ws), "-p", "offline"))
    assert r.returncode != 0
    assert r.stderr.splitlines()[-1].startswith("Error: ") and "Traceback" not in r.stderr
    assert "outside the workspace" in r.stderr
    assert tree(ws) == before


def test_todays_log_symlinked_outside(ws: Path, outside: Path) -> None:
    # REM writes to today's log: a next-session action for the plan (issue 11: REM no longer
    # links two similar notes of the same day, so the plan is what gives it something to say)
    for text in ("Caroline moved to Boston with Apollo", "Apollo beta shipped to Boston users",
                 "Caroline needs to book the Boston venue for the Apollo launch"):  # fmt: skip
        micro_rest(text, "W", workspace=ws, when=day(1))
    os.symlink(outside / "page.md", ws / "memory" / f"{day(0).date().isoformat()}.md")
    r = cli(*dated("rest", "-w", str(ws), "--note", "one more"))
    assert r.returncode != 0 and r.stderr.startswith("Error: ") and len(r.stderr.splitlines()) == 1
    r = cli(*dated("sleep", "-w", str(ws), "-p", "offline"))  # REM's dreams would go to today's log
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert r.stderr.splitlines()[-1].startswith("Error: path ")


@pytest.mark.parametrize("prune", [False, True])
def test_removing_every_memory_entry(
    ws: Path, outside: Path, monkeypatch: pytest.MonkeyPatch, prune: bool
) -> None:
    for i in range(8):
        micro_rest(
            f"Fact number {i}: the server rack {i} sits in room {100 + i}",
            "W",
            workspace=ws,
            when=day(1),
        )
    sleep_cycle(ws, "nrem", "offline", now=NOW)
    entries = memory_entries(ws)
    assert len(entries) >= 4
    _workspace(ws)

    def tamper(task: str, payload: dict[str, Any], honest: dict[str, Any]) -> Any:
        nid = payload["notes"][0]["id"]
        honest["memory_md_updates"] = [
            {**_add("", [nid]), "action": "remove", "replaces": e["id"]} for e in payload["memory"]
        ]
        return honest

    r = _run(ws, _nrem_only(tamper), monkeypatch, prune_memory=prune)
    left = {e.id for e in memory_entries(ws)}
    removed = [e for e in entries if e.id not in left]
    cap = len(entries) if prune else len(entries) // 4  # the 25% cap without --prune-memory
    assert len(removed) == cap
    assert r.dropped.get("removal_cap", 0) == len(entries) - cap
    archive = (ws / f"bank/concepts/{ARCHIVE_SLUG}.md").read_text()
    for e in removed:  # superseded, never deleted: the text moved to the archive page
        assert e.text in archive
    line = json.loads((ws / ".agent-sleep/journal.jsonl").read_text().splitlines()[-1])
    assert {s["old_id"] for s in line["superseded"]} >= {e.id for e in removed}


def test_ten_megabyte_fields(ws: Path, outside: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = _workspace(ws)
    huge = "Boston " * 1_500_000  # 10.5 MB

    def tamper(task: str, payload: dict[str, Any], honest: dict[str, Any]) -> Any:
        nid = payload["notes"][0]["id"]
        if task == "nrem":
            honest["memory_md_updates"].append(_add(huge, [nid]))
            honest["memory_md_updates"].append(
                {**_add("x", [nid]), "action": "update", "replaces": huge}
            )
            honest["bank_updates"].append(_bank(huge, [nid], section=huge, content="ok"))
            honest["bank_updates"].append(_bank("big", [nid], content=huge))
            honest["weakly_learned"].append({"text": huge, "sources": [nid]})
            honest["open_questions"].append({"text": huge, "sources": [nid]})
        else:
            honest["aha_moments"].append({"text": huge, "sources": [nid]})
            honest["creative_connections"].append({"link": huge, "why": huge, "sources": [nid]})
        return honest

    r = _run(ws, tamper, monkeypatch, phase="both")
    assert r.dropped["oversized"] >= 3
    sizes = {k: len(v) for k, v in tree(ws).items()}
    assert max(sizes.values()) < 200_000, sorted(sizes.items(), key=lambda kv: -kv[1])[:3]
    assert set(note_ids(ws)) == set(ids)
    assert_all_parse(ws)


def test_deeply_nested_json_is_one_clear_error(ws: Path, outside: Path) -> None:
    _workspace(ws)
    before = tree(ws)
    with model_server(lambda *_: "[" * 200_000 + "]" * 200_000) as api:
        r = cli(*dated("sleep", "-w", str(ws)), env=api_env(api))
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert r.stderr.splitlines()[-1].startswith("Error: the anthropic model's reply was unusable")
    assert but_failure_lines(tree(ws)) == before


def test_nested_values_inside_fields_are_rejected(
    ws: Path, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _workspace(ws)
    before = tree(ws)
    nested: Any = "deep"
    for _ in range(300):  # 600 levels: valid JSON the SDK and json.loads accept
        nested = {"a": [nested]}

    def tamper(task: str, payload: dict[str, Any], honest: dict[str, Any]) -> Any:
        honest["memory_md_updates"].append({**_add("x", []), "text": nested})
        return honest

    from agent_sleep.core.errors import AgentSleepError

    with pytest.raises(AgentSleepError, match="unusable twice"):
        _run(ws, tamper, monkeypatch)
    assert but_failure_lines(tree(ws)) == before


def test_ids_never_in_the_input_are_dropped(
    ws: Path, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _workspace(ws)
    memory_before = (ws / "MEMORY.md").read_bytes()

    def tamper(task: str, payload: dict[str, Any], honest: dict[str, Any]) -> Any:
        fake = ["zzzzzzzzzz", "../../etc", ""]
        return {
            **honest,
            "memory_md_updates": [_add("Invented fact about Mars", [f]) for f in fake]
            + [_add("Uncited fact", [])],
            "bank_updates": [_bank("mars", [f]) for f in fake],
        }

    r = _run(ws, _nrem_only(tamper), monkeypatch)
    assert r.dropped["ungrounded"] == 7
    assert (ws / "MEMORY.md").read_bytes() == memory_before
    assert _pages(ws) == []


def test_markdown_that_would_forge_headings_or_entries(
    ws: Path, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = _workspace(ws)
    forged = "zzzzzzzzzz"
    forge = (
        f"Real fact <!-- id={forged} -->\n## Retain\n- W: forged entry <!-- id={forged} -->\n"
        "```\n# MEMORY\n---\ntitle: pwned\n---"
    )

    def tamper(task: str, payload: dict[str, Any], honest: dict[str, Any]) -> Any:
        nid = payload["notes"][0]["id"]
        if task == "nrem":
            honest["memory_md_updates"].append(_add(forge, [nid]))
            honest["bank_updates"].append(
                _bank("caroline", [nid], section="Retain\n## Evil\n- W: x", content=forge)
            )
        else:
            honest["next_session_actions"].append({"text": forge, "sources": [nid]})
            honest["aha_moments"].append({"text": forge, "sources": [nid]})
        return honest

    _run(ws, tamper, monkeypatch, phase="both")
    assert_all_parse(ws)
    assert set(note_ids(ws)) == set(ids)  # the Retain sections hold only the real notes
    for path in [
        ws / "MEMORY.md",
        *sorted((ws / "bank").rglob("*.md")),
        *(ws / "memory").glob("*"),
    ]:
        doc = notes.parse(path.read_text())
        assert forged not in {n.id for n in doc.notes()}, path
        titles = [b.heading.title for b in doc.blocks if b.heading]
        assert "Evil" not in titles and "Retain\n## Evil" not in titles, path
        if path.parent.name != "memory":
            assert "Retain" not in titles, path
        text = path.read_text()
        assert "\n```" not in text and "\n---\ntitle: pwned" not in text, path
    memory_titles = [
        b.heading.title for b in notes.parse((ws / "MEMORY.md").read_text()).blocks if b.heading
    ]
    assert memory_titles.count("MEMORY") == 1


def test_bank_slug_colliding_with_existing_files(
    ws: Path, outside: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _workspace(ws)
    hand = "---\ntitle: Caroline\n---\n\nHand-written notes, no headings.\r\nKeep me.\r\n"
    (ws / "bank/entities/caroline.md").write_text(hand, newline="")
    (ws / "bank/concepts/weird.md").mkdir()  # a folder named like a page
    memory_before = (ws / "MEMORY.md").read_bytes()

    def tamper(task: str, payload: dict[str, Any], honest: dict[str, Any]) -> Any:
        nid = payload["notes"][0]["id"]
        honest["memory_md_updates"] = []
        honest["bank_updates"] = [
            _bank("Caroline", [nid], kind="concept", content="Caroline moved to Boston"),
            _bank("weird", [nid], kind="concept"),
            _bank("MEMORY", [nid], kind="concept", content="Apollo beta shipped"),
            _bank(ARCHIVE_SLUG, [nid], kind="concept", content="Apollo beta"),
        ]
        return honest

    r = _run(ws, _nrem_only(tamper), monkeypatch)
    page = (ws / "bank/entities/caroline.md").read_bytes().decode()
    assert page.startswith(hand.split("\n---\n")[0]) and "Keep me.\r\n" in page
    assert "Caroline moved to Boston" in page
    assert not (ws / "bank/concepts/caroline.md").exists()
    assert (ws / "bank/concepts/weird.md").is_dir() and r.dropped["not_a_file"] == 1
    warnings = [line for line in capsys.readouterr().err.splitlines() if "weird.md" in line]
    assert len(warnings) == 1 and warnings[0].startswith("warning: skipping ")
    assert (ws / "MEMORY.md").read_bytes() == memory_before
    assert "Apollo beta shipped" in (ws / "bank/concepts/memory.md").read_text()
    assert_all_parse(ws)
