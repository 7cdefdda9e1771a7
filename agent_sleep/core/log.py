"""How the library tells its user something without failing: the ``agent_sleep`` logger.

Warnings (a file skipped, vector recall unavailable) go out once each through ``logging``;
progress of long work goes out at INFO. The library never prints: one handler on this logger
writes ``warning: …`` lines and progress to whatever ``sys.stderr`` is at the time. A program
that wants them elsewhere removes it (``quiet()``) and configures logging as it likes; records
then propagate to its handlers.
"""

from __future__ import annotations

import logging
import sys

LOGGER = "agent_sleep"
log = logging.getLogger(LOGGER)
_once: set[str] = set()


def warn_once(message: str) -> None:
    """Log ``message`` as a warning the first time this process sees it."""
    if message not in _once:
        _once.add(message)
        log.warning(message)


ECHO_CHARS = 200  # of a text a user gave, echoed back in an answer or a heading


def shorten(text: str, cap: int = ECHO_CHARS) -> str:
    """``text`` if it is at most ``cap`` characters, else its head marked as cut."""
    if len(text) <= cap:
        return text
    return f"{text[:cap]}… [cut: {len(text):,} characters]"


def progress(message: str) -> None:
    """Progress of long work (indexing a backlog, a sleep over many notes)."""
    log.info(message)


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg,unused-ignore]
    """Writes to the current ``sys.stderr`` (tests and the CLI swap it)."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(_Prefixed())

    @property  # type: ignore[override,unused-ignore]
    def stream(self) -> object:
        return sys.stderr

    @stream.setter
    def stream(self, _value: object) -> None:
        pass


class _Prefixed(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        return f"warning: {text}" if record.levelno >= logging.WARNING else text


_handler = _Stderr()
log.addHandler(_handler)
log.setLevel(logging.INFO)
log.propagate = False


def quiet() -> None:
    """Stop writing to stderr and let records propagate to the program's own logging."""
    log.removeHandler(_handler)
    log.propagate = True
