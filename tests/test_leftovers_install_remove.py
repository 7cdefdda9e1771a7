"""``agent-sleep install claude-code --remove`` deletes the ``.mcp.json`` install created when
agent-sleep's server was all it held, and never a file that holds anything of the user's."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli

CMD = f"{sys.executable} -m agent_sleep"


def install(project: Path, *args: str) -> dict[str, list[str]]:
    r = run_cli(
        "install", "claude-code", "--command", CMD, "--project", str(project), "--json", *args
    )
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    return dict(json.loads(r.stdout))


def test_remove_deletes_the_mcp_json_install_created(tmp_path: Path) -> None:
    mcp = tmp_path / ".mcp.json"
    install(tmp_path)
    install(tmp_path, "--shared")  # changed once more: a backup of our own file
    out = install(tmp_path, "--remove")
    assert not mcp.exists()
    assert out["removed"] == [str(mcp)] and str(mcp) in out["changed"]
    kept = [b for b in out["backups"] if Path(b).name.startswith(".mcp.json.bak-")]
    assert len(kept) == 1 and "agent-sleep" in json.loads(Path(kept[0]).read_text())["mcpServers"]
    assert install(tmp_path, "--remove")["changed"] == []  # again: nothing to do
    install(tmp_path)  # installed again after that (the backups stay), it goes again
    assert mcp.exists()
    said = run_cli("install", "claude-code", "--project", str(tmp_path), "--remove")
    assert f"Removed: {mcp}" in said.stdout and not mcp.exists(), said.stdout


@pytest.mark.parametrize(
    "theirs",
    [
        "{}",
        '{"mcpServers": {}}\n',
        '{"mcpServers": {"github": {"command": "gh-mcp", "args": []}}}',
        '{"inputs": [], "mcpServers": {}}',
    ],
)
def test_remove_keeps_an_mcp_json_the_user_had(tmp_path: Path, theirs: str) -> None:
    mcp = tmp_path / ".mcp.json"
    mcp.write_text(theirs)
    install(tmp_path)
    out = install(tmp_path, "--remove")
    assert mcp.exists() and out["removed"] == []
    left = json.loads(mcp.read_text())
    assert "agent-sleep" not in left.get("mcpServers", {})
    assert {k: v for k, v in left.items() if v != {}} == {
        k: v for k, v in json.loads(theirs).items() if v != {}
    }


def test_remove_keeps_what_the_user_added_to_a_file_install_created(tmp_path: Path) -> None:
    mcp = tmp_path / ".mcp.json"
    install(tmp_path)
    config = json.loads(mcp.read_text())
    config["mcpServers"]["github"] = {"command": "gh-mcp", "args": []}
    mcp.write_text(json.dumps(config))
    install(tmp_path, "--remove")
    assert json.loads(mcp.read_text()) == {"mcpServers": {"github": config["mcpServers"]["github"]}}


def test_remove_keeps_a_symlinked_mcp_json(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "mcp.json"
    real.parent.mkdir()
    real.write_text('{"mcpServers": {}}')
    project = tmp_path / "project"
    project.mkdir()
    (project / ".mcp.json").symlink_to(real)
    install(project)
    for backup in project.glob(".mcp.json.bak-*"):
        backup.unlink()  # only the link itself says the file is the user's
    install(project, "--remove")
    assert (project / ".mcp.json").is_symlink() and json.loads(real.read_text()) == {}
