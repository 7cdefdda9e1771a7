"""What a user's mistakes get from the CLI: one ``Error:`` line and a non-zero exit, nothing
created where nothing should be, and notes kept as written (each case was a reported defect)."""

from __future__ import annotations

import datetime as dt
import errno
import json
import os
import re
from pathlib import Path

import pytest

from tests.conftest import run_cli


def _ws(tmp_path: Path, name: str = "ws") -> Path:
    ws = tmp_path / name
    assert run_cli("init", "-w", str(ws)).returncode == 0
    return ws


def _one_error_line(r: object) -> str:
    err = r.stderr.strip()  # type: ignore[attr-defined]
    assert r.returncode != 0, err  # type: ignore[attr-defined]
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1 and err.startswith("Error: "), err
    return err


def test_a_memory_budget_under_one_character_is_refused_and_memory_kept(tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    for i in range(4):
        run_cli(
            "rest", "-w", str(ws), "--note", f"Service {i} listens on port 80{i}0", "--type", "W"
        )
    assert run_cli("sleep", "-w", str(ws), "--provider", "offline").returncode == 0
    before = (ws / "MEMORY.md").read_text()
    assert "port" in before
    for value in ("0", "-1"):
        err = _one_error_line(
            run_cli("sleep", "-w", str(ws), "--provider", "offline", "--memory-budget", value)
        )
        assert "at least 1" in err
    err = _one_error_line(
        run_cli("status", "-w", str(ws), env={"AGENT_SLEEP_MEMORY_BUDGET": "lots"})
    )
    assert "AGENT_SLEEP_MEMORY_BUDGET" in err
    assert (ws / "MEMORY.md").read_text() == before


def test_a_run_as_of_a_day_leaves_later_logs_pending(tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    yesterday = dt.date.today() - dt.timedelta(days=1)
    earlier = dt.date.today() - dt.timedelta(days=20)
    run_cli("rest", "-w", str(ws), "--note", "The build uses Bazel", "--type", "W",
            "--when", f"{earlier}T10:00")  # fmt: skip
    run_cli("rest", "-w", str(ws), "--note", "The deploy window is Tuesday", "--type", "W",
            "--when", f"{yesterday}T10:00")  # fmt: skip
    as_of = earlier + dt.timedelta(days=1)
    status = json.loads(run_cli("status", "-w", str(ws), "--date", str(as_of), "--json").stdout)
    assert status["pending_notes"] == 1
    r = run_cli("sleep", "-w", str(ws), "--provider", "offline", "--when", f"{as_of}T22:00")
    assert r.returncode == 0, r.stderr
    memory = (ws / "MEMORY.md").read_text()
    assert "Bazel" in memory and "Tuesday" not in memory
    status = json.loads(run_cli("status", "-w", str(ws), "--json").stdout)
    assert status["pending_notes"] == 1  # the later note waits for a run of its day


def test_a_note_dated_in_the_future_is_refused(tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    later = dt.date.today() + dt.timedelta(days=30)
    err = _one_error_line(
        run_cli("rest", "-w", str(ws), "--note", "x", "--type", "W", "--when", f"{later}T10:00")
    )
    assert "future" in err
    assert not list((ws / "memory").glob("*.md"))
    tomorrow = dt.date.today() + dt.timedelta(days=1)  # another machine's clock
    ok = run_cli("rest", "-w", str(ws), "--note", "y", "--type", "W", "--when", f"{tomorrow}T01:00")
    assert ok.returncode == 0, ok.stderr


def test_an_opinion_filed_to_a_page_keeps_its_confidence(tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    run_cli("rest", "-w", str(ws), "--note", "User thinks the staging cluster is flaky",
            "--type", "O", "--confidence", "0.3")  # fmt: skip
    assert run_cli("sleep", "-w", str(ws), "--provider", "offline").returncode == 0
    filed = [
        line
        for p in [ws / "MEMORY.md", *(ws / "bank").rglob("*.md")]
        for line in p.read_text().splitlines()
        if "staging cluster is flaky" in line
    ]
    assert filed, "the opinion was not consolidated anywhere"
    for line in filed:
        assert re.search(r"O\(c=0\.3\)", line), line


def test_commands_that_read_a_workspace_refuse_a_missing_one_and_create_nothing(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "typo"
    for args in (
        ("context",),
        ("context", "--query", "redis"),
        ("search", "redis"),
        ("sleep", "--dry-run", "--provider", "offline"),
        ("rollback",),
    ):
        err = _one_error_line(run_cli(*args, "-w", str(missing)))
        assert str(missing) in err
        assert not missing.exists(), args


def test_a_workspace_that_is_a_file_gets_one_line_not_a_traceback(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("not a folder\n")
    for args in (("context",), ("context", "--json"), ("search", "x")):
        r = run_cli(*args, "-w", str(afile))
        assert "is a file, not a folder" in _one_error_line(r)
    assert afile.read_text() == "not a folder\n"


def test_out_of_range_dates_and_damaged_run_records_get_one_line(tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    for args in (("status", "--date", "0001-01-01"), ("context", "--date", "0001-01-01"),
                 ("sleep", "--when", "9999-12-31T10:00", "--dry-run")):  # fmt: skip
        assert "out of range" in _one_error_line(run_cli(*args, "-w", str(ws)))
    run_cli("rest", "-w", str(ws), "--note", "Redis listens on 6379", "--type", "W")
    assert run_cli("sleep", "-w", str(ws), "--provider", "offline").returncode == 0
    memory = (ws / "MEMORY.md").read_text()
    (meta,) = (ws / ".agent-sleep" / "runs").glob("*/meta.json")
    meta.write_text("{ damaged")
    assert "damaged" in _one_error_line(run_cli("rollback", meta.parent.name, "-w", str(ws)))
    assert (ws / "MEMORY.md").read_text() == memory


def test_a_note_quoting_a_metadata_comment_is_shown_whole(tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    text = "Deploy key <!-- id=aaaaaaaaaa --> is stored in Vault"
    assert run_cli("rest", "-w", str(ws), "--note", text, "--type", "W").returncode == 0
    shown = run_cli("context", "-w", str(ws)).stdout
    assert "is stored in Vault" in shown
    assert "xscg" not in shown and not re.search(r"<!-- id=[a-z0-9]{10} -->\s*$", shown, re.M)


def test_bare_command_prints_the_help_and_nan_is_no_half_life(tmp_path: Path) -> None:
    r = run_cli()
    assert r.returncode == 2
    assert "Commands:" in r.stderr and "rest" in r.stderr and "Traceback" not in r.stderr
    ws = _ws(tmp_path)
    for value in ("nan", "inf"):
        err = _one_error_line(run_cli("search", "x", "-w", str(ws), "--half-life", value))
        assert "finite" in err


def test_indexing_with_the_model_writes_nothing_outside_the_workspace(tmp_path: Path) -> None:
    """onnxruntime's telemetry wrote a device id under ~/.cache when its session was made."""
    ws = _ws(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    for i in range(12):  # past the first eight texts a process embeds in numpy
        run_cli(
            "rest", "-w", str(ws), "--note", f"Fact {i}: redis listens on 63{i:02d}", "--type", "W"
        )
    env = {"HOME": str(home), "XDG_CACHE_HOME": "", "ORT_DISABLE_TELEMETRY": ""}
    r = run_cli("reindex", "--full", "--json", "-w", str(ws), env=env)
    assert r.returncode == 0, r.stderr
    if json.loads(r.stdout)["embedded"] == 0:
        pytest.skip("no embedding model here: onnxruntime never ran")
    assert [p for p in home.rglob("*") if p.is_file()] == []


def test_status_reads_a_workspace_it_may_not_write(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """On a read-only folder the lock file cannot be made; status reads without it, and any
    other failure to lock is still an error."""
    from agent_sleep.consolidation.status import status
    from agent_sleep.core import workspace as wsmod
    from agent_sleep.core.errors import StorageError

    ws = _ws(tmp_path)
    run_cli("rest", "-w", str(ws), "--note", "A fact worth keeping", "--type", "W")

    def refused(code: int):  # type: ignore[no-untyped-def]
        def file_lock(path: Path):  # type: ignore[no-untyped-def]
            try:
                raise OSError(code, os.strerror(code))
            except OSError as e:
                raise StorageError(f"cannot lock {path}: {e.strerror}") from e

        return file_lock

    monkeypatch.setattr(wsmod, "file_lock", refused(errno.EROFS))
    assert status(ws)["pending_notes"] == 1
    monkeypatch.setattr(wsmod, "file_lock", refused(errno.ENOSPC))
    with pytest.raises(StorageError):
        status(ws)


def test_a_hint_quotes_a_path_with_spaces(tmp_path: Path) -> None:
    ws = tmp_path / "my memory" / "ws"
    assert run_cli("init", "-w", str(ws)).returncode == 0
    assert run_cli("git-init", "-w", str(ws)).returncode == 0
    err = _one_error_line(run_cli("sync", "-w", str(ws), "--remote", "nosuch"))
    assert f"git -C '{ws}' remote add nosuch URL" in err  # a command the user can paste
