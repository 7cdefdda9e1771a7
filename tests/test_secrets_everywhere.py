"""Credentials pushed through every write path never reach the disk.

The corpus goes through ``rest`` (note and source, library and CLI), ``flush`` (offline, and the
anthropic provider whose fake model echoes credentials back), ``sleep`` (the fake model puts them
in every field it writes: MEMORY.md text, bank slugs, sections and content, dreams, actions,
confidence reasons, open questions), ``rollback``, and the index (``reindex``, ``search``).
Afterwards every byte and every file name under the workspace is searched for each secret, as
written and lower-cased.
"""

from __future__ import annotations

import json
import os
import random
import string
from pathlib import Path
from typing import Any

import pytest

from agent_sleep import flush, micro_rest
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes
from tests.test_hostile_support import NOW, api_env, cli, dated, day, model_server, note_ids

_rng = random.Random(11)


def _r(n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


_UPPER = string.ascii_uppercase + string.digits
# (how the credential appears in text, the secret part that must never be stored)
CORPUS: list[tuple[str, str]] = [
    (s, s)
    for s in (
        "sk-ant-api03-" + _r(60) + "AA",
        "sk-proj-" + _r(48),
        "AKIA" + _r(16, _UPPER),
        "ghp_" + _r(36),
        "github_pat_" + _r(22) + "_" + _r(59),
        "glpat-" + _r(20),
        "xoxb-" + _r(12, string.digits) + "-" + _r(24),
        "AIza" + _r(35),
        "sk_live_" + _r(24),
        "hf_" + _r(34),
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + _r(43),
    )
]
for _fmt in (
    "password={}",
    "DB_PASSWORD='{}'",
    '"api_key": "{}"',
    "client_secret={}",
    "Authorization: Bearer {}",
    "postgres://admin:{}@db.internal:5432/app",
):
    _v = _r(28)
    CORPUS.append((_fmt.format(_v), _v))
CORPUS.append(
    ("-----BEGIN RSA PRIVATE KEY-----\n" + _r(64) + "\n-----END RSA PRIVATE KEY-----", _r(0))
)  # the body is checked below through PEM_BODY
PEM_BODY = CORPUS[-1][0].split("\n")[1]
CORPUS[-1] = (CORPUS[-1][0], PEM_BODY)
NEEDLES = [n for _, n in CORPUS]


def assert_no_secret_on_disk(root: Path) -> int:
    """Search every file (and every name) under ``root``; returns the bytes searched."""
    searched = 0
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            for needle in NEEDLES:
                assert needle.lower() not in name.lower(), f"{needle!r} in a file name: {name}"
        for name in filenames:
            path = Path(dirpath) / name
            if path.is_symlink():
                continue
            data = path.read_bytes()
            searched += len(data)
            lower = data.lower()
            for needle in NEEDLES:
                assert needle.encode() not in data, f"{needle!r} stored in {path}"
                assert needle.lower().encode() not in lower, f"{needle!r} (lower case) in {path}"
    return searched


def _poison(text_fields: dict[str, Any], secret_text: str) -> None:
    for key, value in text_fields.items():
        if key in (
            "text",
            "content",
            "seed_content",
            "section",
            "slug",
            "link",
            "why",
            "reason",
            "item",
            "replaces",
        ) and isinstance(value, str):
            text_fields[key] = f"{value} {secret_text}" if key != "slug" else secret_text


def _everywhere(task: str, payload: dict[str, Any], honest: dict[str, Any]) -> dict[str, Any]:
    """The model puts a credential into every string it writes."""
    nid = payload.get("notes", [{}])[0].get("id", "")
    for i, (items) in enumerate(v for v in honest.values() if isinstance(v, list)):
        for j, item in enumerate(items):
            if isinstance(item, dict):
                _poison(item, CORPUS[(i + j) % len(CORPUS)][0])
    if task == "nrem":
        for k, (text, _) in enumerate(CORPUS):
            honest["memory_md_updates"].append(
                {
                    "action": "add",
                    "type": "W",
                    "confidence": 0.9,
                    "text": f"Key rotated: {text}",
                    "replaces": "",
                    "sources": [nid],
                }
            )
            honest["bank_updates"].append(
                {
                    "slug": text,
                    "kind": "entity",
                    "section": f"## {text}",
                    "content": f"Credential {k}: {text}",
                    "sources": [nid],
                }
            )
        honest["weakly_learned"].append({"text": CORPUS[0][0], "sources": [nid]})
        honest["open_questions"].append({"text": CORPUS[1][0], "sources": [nid]})
    if task == "rem":
        for text, _ in CORPUS:
            honest["aha_moments"].append({"text": f"Insight {text}", "sources": [nid]})
            honest["next_session_actions"].append({"text": f"Rotate {text}", "sources": [nid]})
            honest["new_bank_suggestions"].append(
                {"slug": text, "kind": "concept", "seed_content": text, "sources": [nid]}
            )
    if task == "flush":
        honest["notes"] = [
            {"type": "W", "confidence": 0.5, "text": f"The deploy credential is {text}"}
            for text, _ in CORPUS
        ]
    return honest


def test_secrets_never_reach_the_disk(
    ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    yesterday = day(1, 9)
    for k, (text, _) in enumerate(CORPUS):  # rest, library: note and source
        micro_rest(
            f"Apollo deploy uses {text} for the Boston cluster",
            "W",
            workspace=ws,
            when=yesterday,
            source=f"ticket-{k} {text}",
        )
    for text, _ in CORPUS[:4]:  # rest, CLI
        r = cli(*dated("rest", "-w", str(ws), "-t", "O", "-n", f"Caroline thinks {text} is old"))
        assert r.returncode == 0, r.stderr
    dump = "\n".join(
        f"User: I always keep the deploy credential {t} for the Apollo cluster." for t, _ in CORPUS
    )
    flush(dump, workspace=ws, provider="offline", now=NOW)  # flush, offline

    sleep_cycle(ws, "both", "offline", now=NOW)  # sleep, offline
    micro_rest("Melanie moved the Apollo launch to Kyoto", "W", workspace=ws, when=day(0))
    with model_server(_everywhere) as api:
        for k, v in api_env(api).items():
            monkeypatch.setenv(k, v)
        flush(dump + "\nUser: and Kyoto too.", workspace=ws, provider="anthropic", now=NOW)
        r = sleep_cycle(ws, "both", "anthropic", prune_memory=True, now=NOW)
        sent = ""
        for req in api.requests:  # what the model was shown of the notes and MEMORY.md
            content = req.body["messages"][0]["content"]
            payload = json.loads(content[content.find("{") : content.rindex("}") + 1])
            sent += json.dumps([payload.get("notes"), payload.get("memory"), payload.get("text")])
    assert r.decisions.get("memory_add", 0) >= len(CORPUS)  # the poisoned items did land
    for needle in NEEDLES:  # and the model was never shown a credential either
        assert needle not in sent, sent[max(0, sent.find(needle) - 300) : sent.find(needle) + 80]
    assert len(note_ids(ws)) >= len(CORPUS) + 4

    monkeypatch.delenv("ANTHROPIC_API_KEY")
    assert cli("reindex", "--bm25-only", "-w", str(ws)).returncode == 0
    assert cli("search", "--bm25-only", "credential", "-w", str(ws)).returncode == 0
    assert cli(*dated("status", "-w", str(ws))).returncode == 0
    searched = assert_no_secret_on_disk(ws)
    assert cli("rollback", "-w", str(ws)).returncode == 0
    assert cli(*dated("sleep", "-w", str(ws), "-p", "offline")).returncode == 0
    searched += assert_no_secret_on_disk(ws)
    assert searched > 50_000
    assert "[REDACTED:" in (ws / "MEMORY.md").read_text()


def test_hand_written_secret_stays_out_of_consolidated_memory(ws: Path) -> None:
    """A credential typed into a log by hand (no redaction on that path) is never copied into
    MEMORY.md, the bank, the journal or the model's input. The log keeps it: it is the user's
    file, and copies of that file (before-images, the index) are derived from it."""
    micro_rest("placeholder so the workspace exists", workspace=ws, when=day(0))
    log = next((ws / "memory").glob("*.md"))
    with log.open("a") as f:
        for k, (text, _) in enumerate(CORPUS):
            f.write(f"- 10:0{k % 10} W: Apollo deploy uses {text} <!-- id=hand{k:06d} -->\n")
    sleep_cycle(ws, "both", "offline", now=NOW)
    for path in [ws / "MEMORY.md", ws / ".agent-sleep/journal.jsonl", *(ws / "bank").rglob("*")]:
        if path.is_file():
            data = path.read_text()
            for needle in NEEDLES:
                assert needle not in data, f"{needle!r} copied into {path}"
    # the notes differ in their values (the placeholders), so they are no longer merged into
    # one entry (issue 11); the entries MEMORY.md takes hold the redacted form
    memory = [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text())]
    assert any(t.startswith("Apollo deploy uses") and "[REDACTED:" in t for t in memory)
