"""``agent-sleep install claude-code``: the settings merge, and the plugin layout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, run_cli

CMD = f"{sys.executable} -m agent_sleep"
USER_SETTINGS: dict[str, Any] = {
    "permissions": {"allow": ["Bash(npm test:*)"]},
    "hooks": {
        "SessionStart": [
            {"matcher": "startup", "hooks": [{"type": "command", "command": "echo hello"}]}
        ],
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}
        ],
    },
    "model": "opus",
}


def install(*args: str, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {"HOME": str(home)} if home else None
    return run_cli("install", "claude-code", "--command", CMD, *args, "--json", env=env)


def read(path: Path) -> Any:
    return json.loads(path.read_text())


def ours(settings: dict[str, Any], event: str) -> list[str]:
    return [
        h["command"]
        for group in settings["hooks"].get(event, [])
        for h in group["hooks"]
        if " hook " in h["command"] and "agent_sleep" in h["command"]
    ]


def test_fresh_project_gets_three_hooks_and_the_mcp_server(tmp_path: Path) -> None:
    r = install("--project", str(tmp_path))
    assert r.returncode == 0, r.stderr
    settings = read(tmp_path / ".claude" / "settings.json")
    for event, name in (
        ("SessionStart", "session-start"),
        ("PreCompact", "pre-compact"),
        ("SessionEnd", "session-end"),
    ):
        assert ours(settings, event) == [f"{CMD} hook {name} --scope project"]
    server = read(tmp_path / ".mcp.json")["mcpServers"]["agent-sleep"]
    assert server == {
        "command": sys.executable,
        "args": ["-m", "agent_sleep", "mcp", "--scope", "project"],
    }
    assert json.loads(r.stdout)["backups"] == []


def test_the_merge_keeps_every_other_hook_and_setting_and_backs_up(tmp_path: Path) -> None:
    settings_path = tmp_path / ".claude" / "settings.json"
    settings_path.parent.mkdir()
    original = json.dumps(USER_SETTINGS, indent=4)
    settings_path.write_text(original)
    (tmp_path / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"github": {"command": "gh-mcp", "args": []}}})
    )
    r = install("--project", str(tmp_path))
    assert r.returncode == 0, r.stderr
    merged = read(settings_path)
    assert merged["permissions"] == USER_SETTINGS["permissions"] and merged["model"] == "opus"
    assert merged["hooks"]["PreToolUse"] == USER_SETTINGS["hooks"]["PreToolUse"]
    assert merged["hooks"]["SessionStart"][0] == USER_SETTINGS["hooks"]["SessionStart"][0]
    assert len(merged["hooks"]["SessionStart"]) == 2
    mcp = read(tmp_path / ".mcp.json")["mcpServers"]
    assert set(mcp) == {"github", "agent-sleep"}
    backups = json.loads(r.stdout)["backups"]
    assert len(backups) == 2
    settings_backup = next(b for b in backups if "settings.json.bak-" in b)
    assert Path(settings_backup).read_text() == original


def test_installing_again_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps(USER_SETTINGS))
    assert install("--project", str(tmp_path)).returncode == 0
    files = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    r = install("--project", str(tmp_path))
    assert r.returncode == 0
    assert json.loads(r.stdout)["changed"] == []
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == files


def test_an_older_install_of_ours_is_replaced_not_duplicated(tmp_path: Path) -> None:
    old = {
        "hooks": {
            "SessionStart": [
                {
                    "hooks": [
                        {"type": "command", "command": "echo keep-me"},
                        {"type": "command", "command": "agent-sleep hook session-start"},
                    ]
                }
            ]
        }
    }
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps(old))
    assert install("--project", str(tmp_path), "--shared").returncode == 0
    merged = read(tmp_path / ".claude" / "settings.json")
    commands = [h["command"] for g in merged["hooks"]["SessionStart"] for h in g["hooks"]]
    assert commands == ["echo keep-me", f"{CMD} hook session-start --scope shared"]


@pytest.mark.parametrize(
    "broken",
    [
        '{"hooks": {"SessionStart": [}',
        "[1, 2, 3]",
        '{"hooks": ["not", "an", "object"]}',
        '{"hooks": {"PreCompact": {"matcher": "auto"}}}',
    ],
)
def test_invalid_settings_are_refused_with_one_line_and_nothing_written(
    tmp_path: Path, broken: str
) -> None:
    settings_path = tmp_path / ".claude" / "settings.json"
    settings_path.parent.mkdir()
    settings_path.write_text(broken)
    r = install("--project", str(tmp_path))
    assert r.returncode == 2
    assert r.stderr.startswith("Error: ") and len(r.stderr.strip().splitlines()) == 1
    assert "nothing was written" in r.stderr
    assert settings_path.read_text() == broken
    assert sorted(p.name for p in tmp_path.rglob("*")) == [".claude", "settings.json"]


def test_invalid_mcp_json_leaves_the_settings_untouched_too(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text("{oops")
    r = install("--project", str(tmp_path))
    assert r.returncode == 2 and ".mcp.json" in r.stderr
    assert not (tmp_path / ".claude").exists()


def test_a_workspace_given_to_install_is_written_into_every_command(tmp_path: Path) -> None:
    ws = tmp_path / "team memory"
    assert install("--project", str(tmp_path), "--shared", "--workspace", str(ws)).returncode == 0
    settings = read(tmp_path / ".claude" / "settings.json")
    assert ours(settings, "SessionEnd") == [
        f"{CMD} hook session-end --scope shared --workspace '{ws}'"
    ]
    args = read(tmp_path / ".mcp.json")["mcpServers"]["agent-sleep"]["args"]
    assert args[-4:] == ["--scope", "shared", "--workspace", str(ws)]


def test_remove_takes_out_only_what_install_put_in(tmp_path: Path) -> None:
    settings_path = tmp_path / ".claude" / "settings.json"
    settings_path.parent.mkdir()
    settings_path.write_text(json.dumps(USER_SETTINGS))
    mcp = {"mcpServers": {"github": {"command": "gh-mcp", "args": []}}}
    (tmp_path / ".mcp.json").write_text(json.dumps(mcp))
    assert install("--project", str(tmp_path)).returncode == 0
    r = install("--project", str(tmp_path), "--remove")
    assert r.returncode == 0, r.stderr
    assert read(settings_path) == USER_SETTINGS
    assert read(tmp_path / ".mcp.json") == mcp
    again = install("--project", str(tmp_path), "--remove")
    assert json.loads(again.stdout)["changed"] == []
    empty = tmp_path / "empty"
    empty.mkdir()
    assert install("--project", str(empty), "--remove").returncode == 0
    assert list(empty.iterdir()) == []


def test_user_install_writes_home_settings_and_keeps_claude_json(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".claude.json").write_text(json.dumps({"numStartups": 12, "projects": {"/x": {}}}))
    r = install("--user", home=home)
    assert r.returncode == 0, r.stderr
    settings = read(home / ".claude" / "settings.json")
    assert ours(settings, "PreCompact") == [f"{CMD} hook pre-compact --scope project"]
    state = read(home / ".claude.json")
    assert state["numStartups"] == 12 and state["projects"] == {"/x": {}}
    assert state["mcpServers"]["agent-sleep"]["args"][-3:] == ["mcp", "--scope", "project"]
    both = run_cli("install", "claude-code", "--user", "--project", str(tmp_path))
    assert both.returncode == 2


def test_the_installed_hook_command_runs(tmp_path: Path) -> None:
    install("--project", str(tmp_path))
    settings = read(tmp_path / ".claude" / "settings.json")
    command = ours(settings, "SessionStart")[0]
    stdin = json.dumps(
        {
            "session_id": "s1",
            "transcript_path": "",
            "cwd": str(tmp_path),
            "hook_event_name": "SessionStart",
            "source": "startup",
        }
    )
    r = subprocess.run(
        command,
        shell=True,
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "AGENT_SLEEP_WORKSPACE": str(tmp_path / "w")},
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["hookSpecificOutput"]["hookEventName"] == "SessionStart"


def test_the_plugin_layout_runs_from_the_plugin_root(tmp_path: Path) -> None:
    plugin = read(ROOT / ".claude-plugin" / "plugin.json")
    assert plugin["name"] == "agent-sleep"
    market = read(ROOT / ".claude-plugin" / "marketplace.json")
    assert [(p["name"], p["source"]) for p in market["plugins"]] == [("agent-sleep", "./")]
    for skill in plugin["skills"]:
        assert (ROOT / skill / "SKILL.md").is_file()
    server = plugin["mcpServers"]["agent-sleep"]
    assert "${CLAUDE_PLUGIN_ROOT}/hooks/run.py" in server["args"]
    hooks = read(ROOT / "hooks" / "hooks.json")["hooks"]
    assert set(hooks) == {"SessionStart", "PreCompact", "SessionEnd"}
    command = hooks["SessionStart"][0]["hooks"][0]["command"]
    assert "${CLAUDE_PLUGIN_ROOT}" in command
    stdin = json.dumps({"session_id": "s", "cwd": str(tmp_path), "hook_event_name": "SessionStart"})
    env = {
        **os.environ,
        "CLAUDE_PLUGIN_ROOT": str(ROOT),
        "AGENT_SLEEP_WORKSPACE": str(tmp_path / "w"),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    env.pop("PYTHONPATH", None)
    r = subprocess.run(
        command.replace("python3 ", f"{sys.executable} ", 1),
        shell=True,
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["hookSpecificOutput"]["hookEventName"] == "SessionStart"


@pytest.mark.parametrize(
    ("args", "code", "package"),
    [
        (["mcp"], 1, "pip install 'agent-sleep[mcp]'"),  # the server needs the mcp extra
        (["hook", "session-start"], 0, "pip install agent-sleep"),  # a hook never blocks
    ],
)
def test_the_plugin_runner_without_its_dependencies_names_what_to_install(
    args: list[str], code: int, package: str
) -> None:
    # -S -I: no site-packages, so click (and the rest) cannot be imported
    r = subprocess.run(
        [sys.executable, "-S", "-I", str(ROOT / "hooks" / "run.py"), *args],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == code
    assert r.stderr.startswith("agent-sleep: cannot start (No module named ")
    assert r.stderr.endswith(f"); {package}\n") and r.stderr.count("\n") == 1
