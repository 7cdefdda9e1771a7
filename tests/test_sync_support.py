"""Helpers for the git tests: a bare remote, clones with their own identity, checks."""

from __future__ import annotations

import collections
import os
import subprocess
from pathlib import Path

from agent_sleep.core import notes as fmt
from tests.conftest import ROOT, run_cli

MARKERS = ("<<<<<<<", ">>>>>>>", "|||||||")


def git(cwd: Path, *args: str, check: bool = True) -> str:
    p = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {p.stderr}")
    return p.stdout


def identity(clone: Path, name: str) -> None:
    """Tests set the identity in each repository's own config, never the global one."""
    git(clone, "config", "user.name", name)
    git(clone, "config", "user.email", f"{name}@example.com")


def bare_remote(tmp: Path) -> Path:
    remote = tmp / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    return remote


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, env={"AGENT_SLEEP_PROVIDER": "offline", **(env or {})})


def first_clone(tmp: Path, remote: Path, name: str = "c0") -> Path:
    ws = tmp / name
    r = cli("init", "--git", "-w", str(ws))
    assert r.returncode == 0, r.stderr
    identity(ws, name)
    git(ws, "remote", "add", "origin", str(remote))
    r = cli("sync", "-w", str(ws))
    assert r.returncode == 0, r.stderr
    return ws


def join(tmp: Path, remote: Path, name: str) -> Path:
    ws = tmp / name
    git(tmp, "clone", "-q", str(remote), str(ws))
    identity(ws, name)
    r = cli("sync", "-w", str(ws))
    assert r.returncode == 0, r.stderr
    return ws


def note_counts(ws: Path) -> collections.Counter[str]:
    seen: collections.Counter[str] = collections.Counter()
    for log in sorted((ws / "memory").glob("*.md")):
        for n in fmt.notes_in(log.read_text()):
            seen[n.id] += 1
    return seen


def memory_files(ws: Path) -> list[Path]:
    return [
        ws / "MEMORY.md",
        *sorted((ws / "memory").glob("*.md")),
        *sorted((ws / "bank").rglob("*.md")),
    ]


def check_files(ws: Path) -> None:
    """No conflict markers, every note line parses, no id twice in MEMORY.md or a page."""
    for path in memory_files(ws):
        if not path.exists():
            continue
        text = path.read_text()
        for marker in MARKERS:
            assert marker not in text, f"{path}: conflict marker"
        doc = fmt.parse(text)
        assert doc.render() == text
        for b in doc.blocks:
            if b.raw.startswith("- ") and "<!-- id=" in b.raw:
                assert b.note is not None and b.note.id, f"{path}: unparsed note {b.raw!r}"
        if path.parent.name != "memory":
            ids = [n.id for n in doc.notes() if n.id]
            assert len(ids) == len(set(ids)), f"{path}: an entry twice"
            texts = [" ".join(n.text.split()).casefold() for n in doc.notes() if n.id]
            assert len(texts) == len(set(texts)), f"{path}: the same entry text twice"


def tree(ws: Path) -> dict[str, bytes]:
    out = {}
    for root, dirs, files in os.walk(ws):
        dirs[:] = [d for d in dirs if d not in (".git", ".agent-sleep")]
        for f in files:
            p = Path(root, f)
            out[str(p.relative_to(ws))] = p.read_bytes()
    return out


__all__ = ["ROOT"]
