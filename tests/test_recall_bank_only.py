"""A workspace that holds only bank pages (copied from elsewhere, or its logs not yet synced)
is still searchable."""

from __future__ import annotations

from pathlib import Path

from agent_sleep import recall

PAGE = """---
title: Maria
kind: entity
---

## Facts

- W: Maria runs the Lisbon office <!-- id=aaaabbbbcc -->
"""


def test_bank_pages_are_found_without_daily_logs(tmp_path: Path) -> None:
    page = tmp_path / "ws" / "bank" / "entities" / "maria.md"
    page.parent.mkdir(parents=True)
    page.write_text(PAGE)
    hits = recall(tmp_path / "ws", "Lisbon office", k=3)
    assert hits and "Maria runs the Lisbon office" in hits[0].text
