"""One pair of notes through the offline consolidator's currency gates, for the tests of what
replaces what (`providers/offline_currency.supersedes`, with the model package's similarity)."""

from __future__ import annotations

from typing import Any

from agent_sleep.providers import offline_currency


def replaced(
    new: tuple[str, str],
    memory: list[dict[str, Any]],
    names: frozenset[str] = frozenset(),
    day: str = "2026-11-10",
) -> list[str]:
    """The ids of ``memory`` entries (each ``{"id", "type", "text", "date"}``) that the note
    ``new`` (type, text), told on ``day``, replaces."""
    out = offline_currency.supersedes(
        [(new[0], new[1], ["n1"], 0.8, day)], memory, [], names, offline_currency.similarity()
    )
    return [str(u["replaces"]) for u in out.values()]


def replaces(
    old: tuple[str, str], new: tuple[str, str], names: frozenset[str] = frozenset()
) -> bool:
    """Whether the note ``new`` (type, text) replaces one entry ``old`` written days before."""
    entry = {"id": "m1", "text": old[1], "type": old[0], "date": "2026-11-01"}
    return bool(replaced(new, [entry], names))


def rewritten(old: tuple[str, str], new: tuple[str, str]) -> str | None:
    """The text that takes the place of one entry ``old`` (type, text) when the note ``new``
    replaces it (the note itself, or the entry with its one value put right), else None."""
    entry = {"id": "m1", "text": old[1], "type": old[0], "date": "2026-11-01"}
    out = offline_currency.supersedes(
        [(new[0], new[1], ["n1"], 0.8, "2026-11-10")],
        [entry],
        [],
        frozenset(),
        offline_currency.similarity(),
    )
    return next((str(u["text"]) for u in out.values()), None)
