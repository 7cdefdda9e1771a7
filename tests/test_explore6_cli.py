"""Exploratory findings on the command side: what ``rollback`` undoes by default, and a folder
where the sleep lock file belongs."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.core.errors import StorageError
from agent_sleep.core.workspace import Workspace
from agent_sleep.integrations import memory_files
from agent_sleep.integrations.sleep_lock import exclusive_sleep, lock_path, sleep_running
from tests.conftest import run_cli

# -- 4. rollback's help says what it undoes -------------------------------------------------


def test_rollback_help_says_it_undoes_the_newest_memory_tool_edit_too(ws: Path) -> None:
    micro_rest("The billing service retries webhooks 5 times", "W", workspace=ws)
    sleep_run = sleep_cycle(ws, phase="both", provider="offline").run_id
    assert sleep_run
    w = Workspace.at(ws)
    with w.lock():
        edit = memory_files.commit(w, "create", {"bank/concepts/tea.md": ("write", "# Tea\n")})
    # what the help must describe: by default the newest run of either kind is undone
    r = run_cli("rollback", "--json", "-w", str(ws))
    assert r.returncode == 0, r.stderr
    assert edit in r.stdout and not (ws / "bank/concepts/tea.md").exists()
    r = run_cli("rollback", "--help")
    assert r.returncode == 0, r.stderr
    help_text = " ".join(r.stdout.split())
    assert "memory-tool edit" in help_text and "sleep run" in help_text
    assert "newest" in help_text
    listing = " ".join(run_cli("--help").stdout.split())
    assert "rollback Undo RUN_ID, or else the newest sleep run or memory-tool edit" in listing


# -- 5. a folder where the sleep lock file belongs ------------------------------------------


def test_a_folder_at_the_sleep_lock_gives_one_clear_line(ws: Path) -> None:
    w = Workspace.at(ws).ensure()
    lock_path(w).mkdir(parents=True)
    with pytest.raises(StorageError) as caught, exclusive_sleep(w):
        pass
    message = str(caught.value)
    assert "\n" not in message and "Errno" not in message
    assert str(lock_path(w)) in message and "is a folder" in message and "remove" in message
    with pytest.raises(StorageError):
        sleep_running(w)
    from agent_sleep.integrations.sleep_worker import run

    entry = run(w, "session-1", None)  # the detached worker journals it
    assert str(lock_path(w)) in str(entry["error"]) and "Errno" not in str(entry["error"])
    lock_path(w).rmdir()
    assert not sleep_running(w)  # the lock works again once the folder is gone
