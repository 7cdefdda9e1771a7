"""Options and output helpers shared by every command module."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from agent_sleep.core import args
from agent_sleep.core.errors import BadInput, WorkspaceError
from agent_sleep.core.workspace import DEFAULT_WORKSPACE, WORKSPACE_ENV, Workspace

F = TypeVar("F", bound=Callable[..., Any])


def common_options(f: F) -> F:
    """``--workspace`` and ``--json``, which every command takes."""
    f = click.option(
        "--json", "as_json", is_flag=True, help="Print machine-readable JSON on stdout."
    )(f)
    f = click.option(
        "--workspace",
        "-w",
        metavar="DIR",
        envvar=WORKSPACE_ENV,
        default=None,
        help=f"Workspace folder (default {DEFAULT_WORKSPACE}; env {WORKSPACE_ENV}).",
    )(f)
    return f


BLAS_THREADS = "OPENBLAS_NUM_THREADS"


def numpy_on_one_thread() -> None:
    """Import numpy with its OpenBLAS on one thread, unless numpy is loaded already or the
    user set ``OPENBLAS_NUM_THREADS``. A search's products are small or memory-bound: OpenBLAS
    starting a thread per core made ``import numpy`` take 100-120 ms instead of 50-55 ms, and on
    2 cores shared with other work each product waited for the second thread (a cold search
    at 100k notes: median 1.06 s against 0.24 s, references/recall.md). The variable is set
    for the import only, so the processes a command starts inherit nothing."""
    if "numpy" in sys.modules or BLAS_THREADS in os.environ:
        return
    os.environ[BLAS_THREADS] = "1"
    try:
        import numpy  # noqa: F401
    except ImportError:  # recall says what is missing
        return
    finally:
        os.environ.pop(BLAS_THREADS, None)
    from agent_sleep.retrieval.numpy_encoder import blas_loaded_on_one_thread

    blas_loaded_on_one_thread()


def plural(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless one: "1 note", "2 notes"."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def existing_workspace(workspace: str | None) -> Workspace:
    """The workspace a command that reads it (or consolidates what it holds: ``sleep``) names,
    which must already exist: a mistyped path is an error, not an empty memory (nothing is
    created)."""
    ws = Workspace.at(workspace).refuse_file()
    if not ws.exists():
        here = _enclosing_workspace() if workspace is None else None
        hint = (
            f"; {here} is one: pass --workspace {here} or set AGENT_SLEEP_WORKSPACE"
            if here is not None and here != ws.root
            else ": run `agent-sleep init` first"
        )
        raise WorkspaceError(f"no workspace at {ws.root}{hint}")
    return ws


def _enclosing_workspace() -> Path | None:
    """The workspace the current folder is in (itself or a folder above it), if any: a user
    who runs a command from inside one without naming it is told so, not only to init."""
    try:
        here = Path.cwd()
    except OSError:
        return None
    for folder in (here, *here.parents):
        if (folder / "memory").is_dir() and (folder / "MEMORY.md").is_file():
            return folder
    return None


def finite(_ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """A click callback: ``nan`` and ``inf`` pass a ``FloatRange``; they are no number here."""
    import math

    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a finite number", param=param)
    return value


def moment(value: str | None, option: str = "--when") -> dt.datetime | None:
    """An ISO date or date-time option as a local time (a date alone is its midnight), read as
    the Python API reads ``micro_rest(when="…")``."""
    return None if value is None else args.iso_moment(value, option)


_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def day(value: str | None, option: str = "--date") -> dt.date | None:
    """A ``YYYY-MM-DD`` option as a date (only that form: Python's ISO reader also takes
    ``20260105`` and week dates, which the help does not promise)."""
    if value is None:
        return None
    try:
        if not _DAY.fullmatch(value):
            raise ValueError(value)
        out = dt.date.fromisoformat(value)
    except ValueError:
        raise BadInput(f"{option} {value!r} is not a date (YYYY-MM-DD)") from None
    return args.in_range(out, option, value)


def progress_lines(as_json: bool) -> Callable[[str], None] | None:
    """Where a long command reports its progress: stderr, also with ``--json`` when stderr is
    a terminal (a person watching; stdout stays one JSON document), else nothing with
    ``--json`` (an agent reading both streams as one gets only the JSON)."""
    if as_json and not sys.stderr.isatty():
        return None
    return say


def say(message: str) -> None:
    """One line for a person on stderr (progress, a warning); stdout stays the answer."""
    click.echo(message, err=True)


def emit(as_json: bool, data: Any, text: str | None = None) -> None:
    """Print ``data`` as JSON, or ``text`` for people."""
    if as_json:
        click.echo(valid_utf8(json.dumps(data, ensure_ascii=False, indent=None, default=str)))
    elif text is not None:
        click.echo(valid_utf8(text))


def valid_utf8(text: str) -> str:
    """``text`` with the undecodable bytes of a hand-edited file (kept as surrogates so a rewrite
    preserves them) shown as U+FFFD: what we print is always valid UTF-8."""
    try:
        data = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        data = text.encode("utf-8", "replace")
    return data.decode("utf-8", "replace")
