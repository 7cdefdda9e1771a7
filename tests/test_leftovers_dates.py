"""``status --date`` and ``context --date`` read a day by one rule (``cli.common.day``): the
same input is taken or refused by both, a refusal being one line on stderr and exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize(
    "value",
    [
        "2024-02-29",
        "2024-02-30",
        "2024-2-9",
        "2024-02-29T10:00",
        " 2024-02-29",
        "0999-01-01",
        "20240229",
        "2024-W09-4",
        "２０２４-02-29",
    ],
)
def test_status_and_context_take_the_same_dates(ws: Path, value: str) -> None:
    assert run_cli("init", "-w", str(ws)).returncode == 0
    status = run_cli("status", "-w", str(ws), "--date", value)
    context = run_cli("context", "-w", str(ws), "--date", value)
    assert status.returncode == context.returncode in (0, 2), (status.stderr, context.stderr)
    if status.returncode == 2:
        assert status.stderr == context.stderr
        assert status.stderr.startswith("Error: --date ") and status.stderr.count("\n") == 1


@pytest.mark.parametrize("value", ["20240229", "2024-W09-4", "2024-060", "２０２４-02-29"])
def test_only_the_form_the_help_names_is_a_date(ws: Path, value: str) -> None:
    """Python's ISO reader takes the basic form and week and ordinal dates; the options say
    YYYY-MM-DD and take only that."""
    assert run_cli("init", "-w", str(ws)).returncode == 0
    for command in ("status", "context"):
        r = run_cli(command, "-w", str(ws), "--date", value)
        assert r.returncode == 2, (command, r.stdout, r.stderr)
        assert "is not a date (YYYY-MM-DD)" in r.stderr
