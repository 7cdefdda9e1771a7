"""Helpers the offline consolidator's NREM, REM and flush share (see providers/offline.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from agent_sleep.analysis import distill, lexical
from agent_sleep.core import notes

# where the offline consolidator reports the steps of a long NREM (see :func:`reporting`)
_progress: ContextVar[Callable[[str], None] | None] = ContextVar("offline_progress", default=None)
PROGRESS_EVERY = 500  # items between two lines of a long step

# a possessive's ending: "Redis's default port" and "Redis default port" say the same
POSSESSIVE_RE = re.compile(r"(?<=\w)['’]s\b")
QUESTION_RE = re.compile(
    r"\?\s*$|\b(?:not sure|unclear|tbd|todo|open question|(?:need|needs|have|has) to"
    r" (?:find|figure) out)\b",
    re.I,
)


RECURRING = 3


@contextmanager
def reporting(progress: Callable[[str], None] | None) -> Iterator[None]:
    """Within the block, the offline consolidator tells ``progress`` how a long request goes
    (a sleep's progress callback: the provider interface has no place for one)."""
    token = _progress.set(progress)
    try:
        yield
    finally:
        _progress.reset(token)


def say(message: str) -> None:
    """One progress line, to the callback of :func:`reporting` if any."""
    report = _progress.get()
    if report is not None:
        report(message)


def slugify(name: str) -> str:
    """A bank page's name, as apply and the memory tool write it (José -> jose)."""
    return notes.slugify(name)


def excerpt(text: str, n: int = 80) -> str:
    """``text`` on one line, at most ``n`` characters: cut at a word's end (a word longer than
    half of ``n`` may be cut), and a number the cut would break ("07700 900481") left out
    whole rather than shown in part as another number."""
    text = " ".join(text.split())
    if len(text) <= n:
        return text
    cut = text[: n - 1]
    if not text[n - 1].isspace():
        space = cut.rfind(" ")
        if space > n // 2:
            cut = cut[:space]
    if text[len(cut) :].lstrip()[:1].isdigit():
        cut = _NUMBER_END_RE.sub("", cut)
    return cut.rstrip(" ,;:–—-") + "…"


_NUMBER_END_RE = re.compile(r"[\d\s().+-]*\d$")


def prunable(note: dict[str, Any], info: float) -> bool:
    """Pruned: the salience tier says so, or a chat turn / experience note is small talk.
    Notes the agent wrote on purpose (W, O) are never pruned here."""
    if note["type"] in ("W", "O"):
        return False
    return note.get("tier") == "prune" or info < distill.INFORMATIVE


def best_sentence(text: str, known: frozenset[str], must: str = "") -> str:
    """The note's most informative sentence (containing ``must``), with its speaker label."""
    label, _ = lexical.split_speaker(text)
    parts = [
        s for s in distill.analyse(text, known) if not s.caption and must.lower() in s.text.lower()
    ]
    if not parts:
        return ""
    best = max(parts, key=lambda s: s.score)
    return label + distill.strip_filler(best.text)
