"""``agent-sleep install claude-code``: a custom --command, symlinked settings, non-standard JSON
numbers, and what --remove leaves behind."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli

MEMD = "/opt/mem/bin/memd"
EVENTS = (
    ("SessionStart", "session-start"),
    ("PreCompact", "pre-compact"),
    ("SessionEnd", "session-end"),
)


def install(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("install", "claude-code", *args, "--json")


def read(path: Path) -> Any:
    return json.loads(path.read_text())


def snapshot(root: Path) -> dict[str, bytes | str]:
    """Every file under ``root`` (bytes) and every link (its target), by relative path."""
    out: dict[str, bytes | str] = {}
    for p in sorted(root.rglob("*")):
        if p.is_symlink():
            out[str(p.relative_to(root))] = "-> " + os.readlink(p)
        elif p.is_file():
            out[str(p.relative_to(root))] = p.read_bytes()
    return out


def commands(settings: dict[str, Any]) -> dict[str, list[str]]:
    return {
        event: [h["command"] for g in groups for h in g["hooks"]]
        for event, groups in settings.get("hooks", {}).items()
    }


USER_HOOKS: dict[str, Any] = {
    "hooks": {
        "SessionStart": [
            # look a little like ours, but are not what install writes
            {"hooks": [{"type": "command", "command": "mytool hook session-start"}]},
            {"hooks": [{"type": "command", "command": f"{MEMD} hook pre-compact --scope project"}]},
        ],
        "SessionEnd": [{"hooks": [{"type": "command", "command": f"{MEMD} stats"}]}],
    }
}


def test_a_custom_command_installs_once_and_remove_takes_it_out(tmp_path: Path) -> None:
    settings_path = tmp_path / ".claude" / "settings.json"
    settings_path.parent.mkdir()
    settings_path.write_text(json.dumps(USER_HOOKS))
    first = install("--project", str(tmp_path), "--command", MEMD)
    assert first.returncode == 0, first.stderr
    installed = commands(read(settings_path))
    for event, name in EVENTS:
        assert installed[event].count(f"{MEMD} hook {name} --scope project") == 1
    before = snapshot(tmp_path)
    second = install("--project", str(tmp_path), "--command", MEMD)
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["changed"] == []
    assert snapshot(tmp_path) == before
    # a different --workspace replaces ours rather than adding a second set
    ws = tmp_path / "team memory"
    third = install("--project", str(tmp_path), "--command", MEMD, "--workspace", str(ws))
    assert third.returncode == 0, third.stderr
    for event, name in EVENTS:
        ours = [
            c for c in commands(read(settings_path))[event] if c.startswith(f"{MEMD} hook {name}")
        ]
        assert ours == [f"{MEMD} hook {name} --scope project --workspace '{ws}'"]
    # --remove without --command: everything install wrote goes, the user's hooks stay
    removed = install("--project", str(tmp_path), "--remove")
    assert removed.returncode == 0, removed.stderr
    assert read(settings_path) == USER_HOOKS
    assert not (tmp_path / ".mcp.json").exists()  # install created it for our server alone


def test_a_symlinked_settings_file_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    target = dotfiles / "settings.json"
    original = json.dumps({"model": "opus"}, indent=4)
    target.write_text(original)
    target.chmod(0o640)
    link = project / ".claude" / "settings.json"
    link.symlink_to(Path("..") / ".." / "dotfiles" / "settings.json")
    r = install("--project", str(project), "--command", MEMD)
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and os.readlink(link) == str(
        Path("..", "..", "dotfiles", "settings.json")
    )
    merged = read(target)
    assert merged["model"] == "opus"
    assert commands(merged)["PreCompact"] == [f"{MEMD} hook pre-compact --scope project"]
    assert target.stat().st_mode & 0o777 == 0o640
    # the backup is where the docs say: beside the settings file, with the old content
    backups = [Path(b) for b in json.loads(r.stdout)["backups"]]
    assert [b.parent for b in backups] == [link.parent]
    assert backups[0].read_text() == original
    # no temp file left next to the target or the link
    assert sorted(p.name for p in dotfiles.iterdir()) == ["settings.json"]
    assert sorted(p.name for p in link.parent.iterdir()) == sorted(
        ["settings.json", backups[0].name]
    )
    again = install("--project", str(project), "--command", MEMD, "--remove")
    assert again.returncode == 0, again.stderr
    assert link.is_symlink() and read(target) == {"model": "opus"}


def test_a_dangling_settings_link_is_refused(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    link = tmp_path / ".claude" / "settings.json"
    link.symlink_to(tmp_path / "nowhere" / "settings.json")
    r = install("--project", str(tmp_path), "--command", MEMD)
    assert r.returncode == 2
    assert r.stderr.startswith("Error: ") and len(r.stderr.strip().splitlines()) == 1
    assert "nothing was written" in r.stderr
    assert link.is_symlink() and not (tmp_path / "nowhere").exists()
    assert not (tmp_path / ".mcp.json").exists()


@pytest.mark.parametrize(
    "text",
    [
        '{"x": NaN}',
        '{"x": Infinity}',
        '{"x": [-Infinity]}',
        '{"x": 1e999}',
        '{"x": -1e999}',
    ],
)
@pytest.mark.parametrize("which", ["settings", "mcp"])
def test_non_standard_numbers_are_refused_and_nothing_written(
    tmp_path: Path, text: str, which: str
) -> None:
    path = tmp_path / ".claude" / "settings.json" if which == "settings" else tmp_path / ".mcp.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    before = snapshot(tmp_path)
    r = install("--project", str(tmp_path), "--command", MEMD)
    assert r.returncode == 2
    assert r.stderr.startswith("Error: ") and len(r.stderr.strip().splitlines()) == 1
    assert "nothing was written" in r.stderr and path.name in r.stderr
    assert snapshot(tmp_path) == before


def test_ordinary_numbers_survive_the_merge(tmp_path: Path) -> None:
    settings_path = tmp_path / ".claude" / "settings.json"
    settings_path.parent.mkdir()
    settings_path.write_text('{"a": 1e308, "b": 0.5, "c": 12345678901234567890123, "d": -0.0}')
    r = install("--project", str(tmp_path), "--command", MEMD)
    assert r.returncode == 0, r.stderr
    text = settings_path.read_text()
    assert "Infinity" not in text and "NaN" not in text
    merged = read(settings_path)
    assert (merged["a"], merged["b"], merged["c"]) == (1e308, 0.5, 12345678901234567890123)


def test_remove_drops_the_keys_it_emptied_and_keeps_the_files(tmp_path: Path) -> None:
    assert install("--project", str(tmp_path), "--command", MEMD).returncode == 0
    r = install("--project", str(tmp_path), "--remove")
    assert r.returncode == 0, r.stderr
    assert read(tmp_path / ".claude" / "settings.json") == {}
    assert not (tmp_path / ".mcp.json").exists()  # install created it for our server alone
    # keys that were already empty, and not emptied by us, are left as they were
    other = tmp_path / "other"
    (other / ".claude").mkdir(parents=True)
    (other / ".claude" / "settings.json").write_text('{"hooks": {"SessionStart": []}}')
    (other / ".mcp.json").write_text('{"mcpServers": {}}')
    before = snapshot(other)
    again = install("--project", str(other), "--remove")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["changed"] == []
    assert snapshot(other) == before


def test_a_workspace_that_is_a_file_is_refused(tmp_path: Path) -> None:
    afile = tmp_path / "notes.txt"
    afile.write_text("x\n")
    r = install("--project", str(tmp_path), "--workspace", str(afile))
    assert r.returncode == 2
    assert "is a file, not a folder" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / ".claude").exists() and not (tmp_path / ".mcp.json").exists()
