"""Vectors for an index update: reused by content hash from the old index, embedded for the
rest (or left for later: ``Job.defer``), and token states for the newest notes.

Progress of a long embedding job goes to ``Job.on_progress(done, total)``, or to the
``agent_sleep`` logger (``core.log.progress``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from agent_sleep.core.log import progress
from agent_sleep.retrieval.currency import stored_claims
from agent_sleep.retrieval.embed import Embedder
from agent_sleep.retrieval.index_store import Loaded
from agent_sleep.retrieval.token_states import STATES, folder_of, model_key
from agent_sleep.retrieval.units import WINDOW

if TYPE_CHECKING:
    import numpy as np

    from agent_sleep.retrieval.index_records import Record

PROGRESS_EVERY = 256  # embeddings between progress reports
PROGRESS_MIN = 512  # no progress reports for small jobs
INDEX_STATES = 16384  # the newest notes embedded keep their token states (about 10 KB each)

Progress = Callable[[int, int], None]  # (embedded so far, to embed)


@dataclass
class Collected:
    """What ``_collect`` gathers for the files it is given, in row order."""

    records: list[Record]
    hashes: list[str]
    tokens: list[str]  # BM25 terms, space-joined
    texts: dict[int, str]  # by row, the text to embed of the units read (only with a model)
    files: dict[str, list[int]]  # [mtime_ns, size, units]
    read: int  # files read (the others were reused)


@dataclass
class Job:
    """How an update embeds: the model (None: BM25 only), who hears of progress, and the
    backlog past which embedding is left for later (``update``'s ``defer``)."""

    model: Embedder | None
    on_progress: Progress | None = None
    defer: int | None = None
    claims: bool = False  # read again the claims another release stored (``update``'s)
    claims_read: int = 0


def _rows(vecs: np.ndarray | None, lo: int, hi: int) -> np.ndarray | None:
    return None if vecs is None else vecs[lo:hi]


def _old_vectors(
    old: Loaded | None, model: str | None
) -> tuple[Sequence[str], list[tuple[int, np.ndarray]]]:
    """Hashes of the old rows, and the old parts' vectors (first row, rows) to copy from."""
    if old is None or model is None or old.model != model:
        return [], []
    return old.hashes, old.part_vectors()


def _vectors(
    got: Collected,
    old_hashes: Sequence[str],
    old_parts: list[tuple[int, np.ndarray]],
    folder: Path,
    job: Job,
    waited: bool = False,
) -> tuple[np.ndarray | None, int, int]:
    """Vectors by row: reused by hash from the old index's parts (first row, vectors), embedded
    from ``got.texts`` otherwise (a row not reused is always one whose file was read, so its
    text is there). The newest ``INDEX_STATES`` notes embedded also leave their token states
    in the token-state cache, so a deep request over new notes finds them. Also returns how
    many were embedded and how many were left for later (``job.defer``)."""
    model = job.model
    if model is None:
        return None, 0, 0
    import numpy as np

    out = np.zeros((len(got.hashes), model.dim), dtype=np.float32)
    known = {h: r for r, h in enumerate(old_hashes)} if old_parts else {}
    rows: list[int] = []
    old_rows: list[int] = []
    todo: dict[str, list[int]] = {}
    for row, h in enumerate(got.hashes):
        r = known.get(h)
        if r is None:
            todo.setdefault(h, []).append(row)
        else:
            rows.append(row)
            old_rows.append(r)
    del known
    if rows:
        new_at, old_at = np.asarray(rows), np.asarray(old_rows)
        for first, vecs in old_parts:
            mine = (old_at >= first) & (old_at < first + len(vecs))
            if mine.any():
                out[new_at[mine]] = vecs[old_at[mine] - first]
        if waited:  # rows the old index left without a vector: embedded now (files re-read)
            for row in new_at[~out[new_at].any(axis=1)].tolist():
                todo.setdefault(got.hashes[row], []).append(row)
    pending = list(todo.items())
    if job.defer is not None and len(pending) > job.defer:
        return out, 0, sum(len(rows) for _, rows in pending)
    report = job.on_progress or _log_progress
    with_states = len(pending) - INDEX_STATES  # pending items from here on keep their states
    for start in range(0, len(pending), PROGRESS_EVERY):
        part = pending[start : start + PROGRESS_EVERY]
        vecs = model.embed_documents([got.texts[rows[0]] for _, rows in part])
        if start + len(part) > with_states:
            _keep_states(got, part[max(with_states - start, 0) :], folder, model)
        for (_, rows), vec in zip(part, vecs, strict=True):
            out[rows] = vec
            found = stored_claims(got.records[rows[0]].text)
            for row in rows:
                got.records[row].claims = found
        if len(pending) >= PROGRESS_MIN:
            report(min(start + PROGRESS_EVERY, len(pending)), len(pending))
    return out, len(pending), 0


def _keep_states(
    got: Collected, part: list[tuple[str, list[int]]], folder: Path, model: Embedder
) -> None:
    """Store the token states of ``part``'s notes (windows left out), computed as a deep
    request would: from the text the unit shows. A model run of their own: states taken
    from the run that embeds the note (over its embedded text) lost 0.3 points of LoCoMo
    evidence within 1,000 tokens in a one-off trial (references/recall.md)."""
    notes = [(h, got.records[rows[0]]) for h, rows in part]
    notes = [(h, r) for h, r in notes if r.kind != WINDOW]
    if not notes:
        return
    who = model_key(model)
    states = model.embed_tokens([r.text for _, r in notes])
    fresh = {f"{who}|{h}": t for (h, _), t in zip(notes, states, strict=True)}
    STATES.write(folder_of(folder, model), fresh)


def _log_progress(done: int, total: int) -> None:
    progress(f"indexing: embedded {done}/{total} new units")
