"""Two machines each record a change of one fact; sync merges both entries, each replacing the
same old one (a fork). The next sleep keeps the later change current and files the other in
History as replaced by it, so a still later change replaces the one that stands."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from agent_sleep.consolidation.supersede import forks
from agent_sleep.core import notes as fmt
from agent_sleep.core.workspace import Workspace
from tests.test_sync_support import bare_remote, check_files, cli, first_clone, join

FILLER = ("Deploys happen on Fridays", "The team uses Slack for chat", "Staging is in eu-west-1")


def rest(ws: Path, text: str, when: str) -> None:
    r = cli("rest", "-w", str(ws), "--note", text, "--type", "W", "--when", when)
    assert r.returncode == 0, r.stderr


def sleep(ws: Path, when: str, *extra: str) -> dict:
    r = cli("sleep", "-w", str(ws), "--when", when, "--json", *extra)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def entries(ws: Path, word: str) -> list[fmt.Note]:
    return [n for n in fmt.notes_in((ws / "MEMORY.md").read_text()) if word in n.text]


def history(ws: Path, word: str) -> dict[str, fmt.Note]:
    out = {}
    for page in (ws / "bank").rglob("*.md"):
        for n in fmt.notes_in(page.read_text()):
            if word in n.text and n.meta.get("superseded_by"):
                out[n.text] = n
    return out


def two_clones(tmp_path: Path, fact: str) -> tuple[Path, Path]:
    """Clones one and two of one remote, both holding ``fact`` (and the filler) as slept on
    2026-03-01 on clone one."""
    remote = bare_remote(tmp_path)
    one = first_clone(tmp_path, remote, "one")
    for text in (fact, *FILLER):
        rest(one, text, "2026-03-01T10:00")
    sleep(one, "2026-03-01T22:00")
    assert cli("sync", "-w", str(one)).returncode == 0
    return one, join(tmp_path, remote, "two")


def forked(tmp_path: Path) -> tuple[Path, Path]:
    """Clones one and two, synced, each having recorded a move of the API on 2026-03-03 (two
    at 11:00, after one at 10:00), and one holding both entries after the last sync."""
    one, two = two_clones(tmp_path, "The API runs on port 5000")
    rest(one, "We moved the API to port 8080", "2026-03-03T10:00")
    sleep(one, "2026-03-03T22:00")
    rest(two, "We moved the API to port 9090", "2026-03-03T11:00")
    sleep(two, "2026-03-03T22:00")
    for ws in (one, two, one):
        assert cli("sync", "-w", str(ws)).returncode == 0
    return one, two


def test_after_sync_the_next_sleep_keeps_the_later_change(tmp_path: Path) -> None:
    one, _two = forked(tmp_path)
    both = entries(one, "API")
    assert sorted(n.text for n in both) == [
        "We moved the API to port 8080",
        "We moved the API to port 9090",
    ]  # what sync leaves: the fork
    assert len({n.meta["supersedes"] for n in both}) == 1
    before = {p: p.read_bytes() for p in (one / "MEMORY.md", *(one / "bank").rglob("*.md"))}

    out = sleep(one, "2026-03-04T09:00")  # no note is pending: the run settles the fork alone
    assert out["decisions"].get("memory_reconciled") == 1 and out["run_id"]
    (stands,) = entries(one, "API")
    assert stands.text == "We moved the API to port 9090"
    gone = history(one, "API")["We moved the API to port 8080"]
    assert gone.meta["superseded_by"] == stands.id and gone.meta["until"] == "2026-03-03"
    check_files(one)

    again = sleep(one, "2026-03-04T09:05")  # settled: nothing to do
    assert again["run_id"] is None and not again["decisions"].get("memory_reconciled")

    r = cli("rollback", "-w", str(one), out["run_id"])
    assert r.returncode == 0, r.stderr
    for path, raw in before.items():
        assert path.read_bytes() == raw, path


def test_a_later_change_replaces_the_entry_that_stands(tmp_path: Path) -> None:
    one, _two = forked(tmp_path)
    rest(one, "We moved the API to port 7000", "2026-03-06T10:00")
    for hour in ("22", "23"):  # a run's removal cap may leave the new note for the next run
        sleep(one, f"2026-03-06T{hour}:00")
    (stands,) = entries(one, "API")
    assert stands.text == "We moved the API to port 7000"
    old = history(one, "API")
    chain = {t: n.meta["superseded_by"] for t, n in old.items()}
    ids = {t: n.id for t, n in old.items()}
    assert chain["We moved the API to port 8080"] == ids["We moved the API to port 9090"]
    assert chain["We moved the API to port 9090"] == stands.id
    assert stands.meta["supersedes"] == ids["We moved the API to port 9090"]


def test_forks_rank_by_the_source_notes_time_then_id(tmp_path: Path) -> None:
    ws = Workspace.at(tmp_path / "w")
    ws.ensure()
    log = ws.day_log(dt.date(2026, 3, 3))
    log.write_text(
        "# 2026-03-03\n\n## Retain\n\n"
        "- 09:00 W: early <!-- id=n1 -->\n- 18:00 W: late <!-- id=n2 -->\n"
        "- 12:00 W: noon <!-- id=n3 -->\n"
    )

    def entry(eid: str, source: str, old: str = "old1", day: str = "2026-03-03") -> fmt.Note:
        meta = {"id": eid, "sources": source, "date": day, "supersedes": old}
        return fmt.Note("W", f"text {eid}", id=eid, meta=meta)

    a, b, c = entry("zz", "n1"), entry("aa", "n2"), entry("mm", "n3")
    assert forks(ws, [a, b, c]) == {"zz": b, "mm": b}  # 18:00 stands, whatever the ids
    later_day = entry("bb", "n1", day="2026-03-04")  # a later day wins over a later time
    assert forks(ws, [b, later_day]) == {"aa": later_day}
    assert forks(ws, [a, entry("q", "n2", old="old2")]) == {}  # different entries replaced
    d, e = entry("d1", "missing"), entry("d2", "missing")  # no time found: the greater id
    assert forks(ws, [e, d]) == {"d1": e}


def test_a_hand_edit_of_an_entry_another_machine_replaced_settles_at_the_next_sleep(
    tmp_path: Path,
) -> None:
    """One machine fixes an entry's words by hand while the other's sleep replaces it. Sync
    keeps the person's edit in MEMORY.md (merge rule 4) while the archive holds the same id as
    replaced: the old value stood current beside its replacement, sleep after sleep (an
    exploratory test of two machines). The next sleep files the edited words as replaced."""
    one, two = two_clones(tmp_path, "Falcon deploys to Heroku.")
    memory = two / "MEMORY.md"
    memory.write_text(memory.read_text().replace("to Heroku.", "to Heroku (app falcon-prod)."))
    rest(one, "Falcon no longer deploys to Heroku; we moved it to Fly.io.", "2026-03-02T10:00")
    sleep(one, "2026-03-02T22:00")
    for ws in (two, one, two):
        assert cli("sync", "-w", str(ws)).returncode == 0
    edited = entries(one, "falcon-prod")
    assert edited and edited[0].id in {n.id for n in history(one, "Heroku").values()}  # the race

    before = {p: p.read_bytes() for p in (one / "MEMORY.md", *(one / "bank").rglob("*.md"))}
    out = sleep(one, "2026-03-03T09:00")
    assert out["decisions"].get("memory_reconciled") == 1
    assert [n.text for n in entries(one, "Falcon")] == [
        "Falcon no longer deploys to Heroku; we moved it to Fly.io."
    ]
    kept = history(one, "Heroku")
    assert list(kept) == ["Falcon deploys to Heroku (app falcon-prod)."]  # the person's words
    check_files(one)
    r = cli("rollback", "-w", str(one), out["run_id"])
    assert r.returncode == 0, r.stderr
    for path, raw in before.items():
        assert path.read_bytes() == raw, path
