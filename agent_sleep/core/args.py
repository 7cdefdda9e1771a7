"""Argument checks for the public Python API: a value of the wrong type is refused with one
``BadInput`` line naming the parameter, what was given and what is wanted, instead of an
``AttributeError`` or ``TypeError`` from deep inside. Standard library only (the note-taking
path imports this)."""

from __future__ import annotations

import datetime as dt
import numbers
import os
from typing import Any

from agent_sleep.core.errors import BadInput


def _given(value: Any) -> str:
    """What a caller passed, for a message: its type, and a short string's value."""
    if value is None:
        return "None"
    name = type(value).__name__
    if isinstance(value, str):
        return f"{name} {value[:40]!r}"
    return name


def _refuse(name: str, wanted: str, value: Any, hint: str = "") -> BadInput:
    return BadInput(f"{name} must be {wanted}, not {_given(value)}{hint}")


def text(**values: Any) -> None:
    """Each value is a ``str``."""
    for name, value in values.items():
        if not isinstance(value, str):
            hint = ": decode it first" if isinstance(value, (bytes, bytearray)) else ""
            raise _refuse(name, "a str", value, hint)


def text_or_none(**values: Any) -> None:
    """Each value is a ``str`` or None."""
    text(**{k: v for k, v in values.items() if v is not None})


def _whole(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise _refuse(name, "an int", value)


def integer_or_none(**values: Any) -> None:
    """Each value is a whole number (not a bool) or None; its range is the caller's to check."""
    for name, value in values.items():
        if value is not None:
            _whole(name, value)


def count(**values: Any) -> None:
    """Each value is a whole number (not a bool), 0 or more."""
    for name, value in values.items():
        _whole(name, value)
        if value < 0:
            raise BadInput(f"{name} must not be negative, not {value}")


def count_or_none(**values: Any) -> None:
    """Each value is a whole number (not a bool), 0 or more, or None."""
    count(**{k: v for k, v in values.items() if v is not None})


def positive_or_none(**values: Any) -> None:
    """Each value is a whole number (not a bool), 1 or more, or None: a budget (the CLI's
    options take the same range)."""
    for name, value in values.items():
        if value is not None:
            _whole(name, value)
            if value < 1:
                raise BadInput(f"{name} must be at least 1, not {value}")


def flag(**values: Any) -> None:
    """Each value is True or False (a string such as "false" would count as true)."""
    for name, value in values.items():
        if not isinstance(value, bool):
            raise _refuse(name, "True or False", value)


def callable_or_none(**values: Any) -> None:
    for name, value in values.items():
        if value is not None and not callable(value):
            raise _refuse(name, "a function or None", value)


def instance_or_none(**values: tuple[Any, type]) -> None:
    """Each ``name=(value, cls)``: the value is an instance of ``cls`` or None."""
    for name, (value, cls) in values.items():
        if value is not None and not isinstance(value, cls):
            raise _refuse(name, f"a {cls.__name__} or None", value)


FIRST_YEAR, LAST_YEAR = 1000, 9998  # room for the look-back windows on either side


def iso_moment(value: str, name: str = "when") -> dt.datetime:
    """An ISO date or date-time as a local time (a date alone is its midnight), years
    ``FIRST_YEAR`` to ``LAST_YEAR``: what the CLI's ``--when`` takes, and ``micro_rest``'s
    ``when`` as a string, read by this one parser."""
    try:
        out = dt.datetime.fromisoformat(value)
    except ValueError:
        raise BadInput(f"{name} {value!r} is not an ISO date or date-time") from None
    in_range(out.date(), name, value)
    return out


def in_range(day: dt.date, name: str, value: str) -> dt.date:
    if not FIRST_YEAR <= day.year <= LAST_YEAR:
        raise BadInput(f"{name} {value!r} is out of range (years {FIRST_YEAR} to {LAST_YEAR})")
    return day


def moment_or_none(**values: Any) -> None:
    """Each value is a ``datetime.datetime`` (local time) or None; a date or an ISO string is
    refused with the call that makes one."""
    for name, value in values.items():
        if value is None or isinstance(value, dt.datetime):
            continue
        if isinstance(value, str):
            hint = f": pass datetime.datetime.fromisoformat({value[:40]!r})"
        elif isinstance(value, dt.date):
            hint = ": pass datetime.datetime.combine(day, datetime.time(hour, minute))"
        else:
            hint = ""
        raise _refuse(name, "a datetime.datetime", value, hint)


def day_or_none(**values: Any) -> None:
    """Each value is a ``datetime.date`` (not a datetime: it names a day) or None."""
    for name, value in values.items():
        if value is None or (isinstance(value, dt.date) and not isinstance(value, dt.datetime)):
            continue
        if isinstance(value, str):
            hint = f": pass datetime.date.fromisoformat({value[:40]!r})"
        elif isinstance(value, dt.datetime):
            hint = ": pass its .date()"
        else:
            hint = ""
        raise _refuse(name, "a datetime.date", value, hint)


def confidence(value: Any) -> None:
    """A confidence is a number from 0 to 1 or None; a bool is not one."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, numbers.Real)):
        raise _refuse("confidence", "a number from 0 to 1", value)


def provider(value: Any) -> None:
    """A provider's name, a provider object (it has ``complete``), or None (the default)."""
    if value is None or isinstance(value, str) or callable(getattr(value, "complete", None)):
        return
    raise _refuse("provider", "a provider name (str), a provider object or None", value)


def path_or_none(name: str, value: Any) -> None:
    """A folder given as a ``str`` or ``os.PathLike`` (of text, not bytes), or None."""
    if value is None or isinstance(value, str):
        return
    if isinstance(value, os.PathLike) and isinstance(os.fspath(value), str):
        return
    raise _refuse(name, "a path (str or os.PathLike), a Workspace or None", value)
