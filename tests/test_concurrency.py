"""Many writers at once: real processes appending to one workspace."""

from __future__ import annotations

import collections
import subprocess
import sys
from pathlib import Path

from agent_sleep.core.notes import parse
from tests.conftest import ROOT

WRITERS = 16
NOTES_EACH = 300

_WRITER = """
import sys, datetime as dt
from agent_sleep import micro_rest
w, n, ws = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
for j in range(n):
    text = f"writer {w} note {j}" + ("\\n## Retain\\n- W: forged" if j % 50 == 0 else "")
    when = dt.datetime(2024, 1, 1 + j % 2, 12, 0)
    print(micro_rest(text, "W", workspace=ws, when=when, source=f"w{w}-{j}"), flush=True)
"""


def test_sixteen_writers_every_note_exactly_once(ws: Path) -> None:
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(w), str(NOTES_EACH), str(ws)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        )
        for w in range(WRITERS)
    ]
    acknowledged: set[str] = set()
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        acknowledged.update(out.split())
    assert len(acknowledged) == WRITERS * NOTES_EACH

    seen: collections.Counter[str] = collections.Counter()
    sources: collections.Counter[str] = collections.Counter()
    logs = sorted((ws / "memory").glob("*.md"))
    assert [p.name for p in logs] == ["2024-01-01.md", "2024-01-02.md"]
    for log in logs:
        text = log.read_text()
        doc = parse(text)
        assert doc.render() == text
        headings = [b.heading.title for b in doc.blocks if b.heading]
        assert headings == [log.stem, "Retain"]
        for note in doc.notes():
            seen[note.id] += 1
            sources[note.source or ""] += 1
            w, j = note.source.removeprefix("w").split("-")  # type: ignore[union-attr]
            assert note.text.startswith(f"writer {w} note {j}")
    assert set(seen) == acknowledged
    assert max(seen.values()) == 1 and max(sources.values()) == 1
