"""Agents sharing memory: notes name their writer, search filters by it, a shared team
workspace is read beside the agent's own, and nothing private ever reaches the shared one."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
from pathlib import Path

import pytest

from agent_sleep.core import notes as fmt
from agent_sleep.core.errors import BadInput
from agent_sleep.core.rest import micro_rest
from agent_sleep.retrieval.recall import Fusion, recall
from agent_sleep.sync.shared import context, search, shared_workspace
from tests.test_sync_support import bare_remote, cli, first_clone, git, identity, join

BM25 = Fusion(vector_weight=0.0, text_weight=1.0)
DAY = dt.datetime(2026, 11, 30, 10, 0)
SLEEP_ON_DAY = ("sleep", "--when", "2026-11-30T18:00")  # the commands run as of DAY, not the clock
CONTEXT_ON_DAY = ("context", "--date", "2026-11-30")


def test_notes_name_their_agent_and_old_notes_are_untouched(ws: Path) -> None:
    old = "# 2026-11-30\n\n## Retain\n\n- 09:00 W: written before agents <!-- id=a000000000 -->\n"
    (ws / "memory").mkdir(parents=True)
    (ws / "memory" / "2026-11-30.md").write_text(old)
    r = cli(
        "rest",
        "-w",
        str(ws),
        "-n",
        "from the laptop",
        "--agent",
        "laptop",
        "--when",
        "2026-11-30T10:00",
    )
    assert r.returncode == 0
    cli(
        "rest",
        "-w",
        str(ws),
        "-n",
        "from CI",
        "--when",
        "2026-11-30T11:00",
        env={"AGENT_SLEEP_AGENT": "ci-bot"},
    )
    text = (ws / "memory" / "2026-11-30.md").read_text()
    assert text.startswith(old)  # the old note is byte for byte what it was
    agents = {n.text: n.meta.get("agent") for n in fmt.notes_in(text)}
    assert agents == {
        "written before agents": None,
        "from the laptop": "laptop",
        "from CI": "ci-bot",
    }
    assert fmt.parse(text).render() == text
    bad = cli("rest", "-w", str(ws), "-n", "x", "--agent", "no spaces <here>")
    assert bad.returncode == 2 and bad.stderr.startswith("Error: ") and bad.stderr.count("\n") == 1
    assert "no spaces" not in (ws / "memory" / "2026-11-30.md").read_text()


def test_search_filters_by_agent_notes_and_the_entries_citing_them(ws: Path) -> None:
    laptop = micro_rest(
        "The laptop build uses Python 3.11", "W", workspace=ws, when=DAY, agent="laptop"
    )
    micro_rest("The CI build uses Python 3.12", "W", workspace=ws, when=DAY, agent="ci")
    hits = recall(ws, "build Python", fusion=BM25, agent="ci")
    assert len(hits) == 1 and hits[0].text.endswith("The CI build uses Python 3.12")
    assert len(recall(ws, "build Python", fusion=BM25)) == 2
    entry = f"- W: Laptop builds pin the Python version <!-- id=e000000000 sources={laptop} -->\n"
    (ws / "MEMORY.md").write_text((ws / "MEMORY.md").read_text() + "\n## Facts\n\n" + entry)
    cited = recall(ws, "Python version build", k=10, fusion=BM25, agent="laptop")
    assert {h.path for h in cited} == {"MEMORY.md", "memory/2026-11-30.md"}
    assert all("3.12" not in h.text for h in cited)
    assert "MEMORY.md" not in {
        h.path for h in recall(ws, "Python version", fusion=BM25, agent="ci")
    }
    r = cli("search", "-w", str(ws), "--bm25-only", "--agent", "ci", "--json", "build")
    texts = [h["text"] for h in json.loads(r.stdout)]
    assert texts and all("3.12" in t for t in texts)


def test_context_and_search_draw_on_both_and_mark_the_shared(tmp_path: Path) -> None:
    own, team = tmp_path / "own", tmp_path / "team"
    micro_rest("My editor is configured with tabs", "O", workspace=own, when=DAY)
    micro_rest("The team deploys staging on Tuesday", "W", workspace=team, when=DAY)
    found = search(own, "staging tabs deploys editor", shared=team, k=4, fusion=BM25)
    assert {(s.hit.text.split(": ", 1)[1], s.shared) for s in found} == {
        ("My editor is configured with tabs", False),
        ("The team deploys staging on Tuesday", True),
    }
    text = context(own, shared=team, today=DAY.date())
    assert "## Shared: Today's log" in text and "The team deploys staging" in text
    assert text.index("My editor") < text.index("## Shared:")
    r = cli("search", "-w", str(own), "--shared", str(team), "--bm25-only", "staging")
    assert "[shared] memory/2026-11-30.md" in r.stdout
    assert (
        "## Shared:"
        in cli(*CONTEXT_ON_DAY, "-w", str(own), env={"AGENT_SLEEP_SHARED": str(team)}).stdout
    )


def test_writes_go_to_the_own_workspace_unless_asked(tmp_path: Path) -> None:
    own, team = tmp_path / "own", tmp_path / "team"
    env = {"AGENT_SLEEP_SHARED": str(team)}
    cli("rest", "-w", str(own), "-n", "mine alone", env=env)
    cli("rest", "-w", str(own), "-n", "for the team", "--to-shared", "--agent", "a1", env=env)
    mine = "".join(p.read_text() for p in (own / "memory").glob("*.md"))
    theirs = "".join(p.read_text() for p in (team / "memory").glob("*.md"))
    assert "mine alone" in mine and "for the team" not in mine
    assert "for the team" in theirs and "mine alone" not in theirs and "agent=a1" in theirs
    r = cli("rest", "-w", str(own), "-n", "x", "--to-shared")
    assert r.returncode == 2 and "--shared DIR" in r.stderr


def test_a_shared_workspace_inside_the_own_one_is_refused(tmp_path: Path) -> None:
    own = tmp_path / "own"
    for bad in (own, own / "team", tmp_path):
        with pytest.raises(BadInput):
            shared_workspace(own, bad)
    assert shared_workspace(own, tmp_path / "team") is not None


PRIVATE = [
    "zqxprivate one: my home address is 12 Hidden Lane",
    "zqxprivate two: the user prefers tabs over spaces",
    "zqxprivate three: the user prefers tabs over spaces",  # repeated: sleep promotes it
    "zqxprivate four: deploys on Tuesday need the staging key",  # overlaps a shared topic
]


def _everything(folder: Path) -> bytes:
    """Every byte of every file under ``folder``, git's history included (uncompressed)."""
    out = []
    for root, _dirs, files in os.walk(folder):
        for f in files:
            out.append(Path(root, f).read_bytes())
    if (folder / ".git").exists() or folder.suffix == ".git":
        log = subprocess.run(
            ["git", "-C", str(folder), "log", "--all", "-p", "--format=%H %s%n%b"],
            capture_output=True,
            check=True,
        )
        out.append(log.stdout)
    return b"\n".join(out)


@pytest.mark.slow
def test_nothing_private_reaches_the_shared_workspace(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path)
    team = first_clone(tmp_path, remote, "team")  # the shared workspace, kept in git
    other = join(tmp_path, remote, "other-agent")
    own = tmp_path / "own"
    assert cli("init", "--git", "-w", str(own)).returncode == 0
    identity(own, "me")
    env = {"AGENT_SLEEP_SHARED": str(team), "AGENT_SLEEP_AGENT": "me"}
    private_ids = []
    for i, text in enumerate(PRIVATE):
        r = cli(
            "rest", "-w", str(own), "-n", text, "-t", "O", "--when", f"2026-11-30T1{i}:00", env=env
        )
        private_ids.append(r.stdout.strip())
    for text in ("The team deploys staging on Tuesday", "The user prefers tabs over spaces"):
        r = cli(
            "rest", "-w", str(own), "-n", text, "--to-shared", "--when", "2026-11-30T12:00", env=env
        )
        assert r.returncode == 0
    micro_rest("Deploys on Tuesday need a review first", "W", workspace=other, when=DAY, agent="b")

    # everything an agent does with both workspaces in reach
    for ws in (own, team, own):
        assert cli(*SLEEP_ON_DAY, "-w", str(ws), env=env).returncode == 0
    assert (
        cli(*CONTEXT_ON_DAY, "-w", str(own), "--query", "deploys Tuesday tabs", env=env).returncode
        == 0
    )
    assert cli("search", "-w", str(own), "--bm25-only", "tabs staging", env=env).returncode == 0
    assert cli("sync", "-w", str(other)).returncode == 0
    assert cli("sync", "-w", str(team), env=env).returncode == 0
    assert cli(*SLEEP_ON_DAY, "-w", str(team), env=env).returncode == 0
    assert cli("sync", "-w", str(team), env=env).returncode == 0
    assert cli("sync", "-w", str(own), env=env).returncode == 0  # own has no remote: local only

    mine = _everything(own)
    assert all(text.encode() in mine for text in PRIVATE)  # the probe can see what it looks for
    assert b"zqxprivate" in _everything(own / ".agent-sleep")
    for folder in (team, remote, other):
        data = _everything(folder)
        assert b"zqxprivate" not in data, folder
        assert not any(i.encode() in data for i in private_ids), folder
    shared_log = (team / "memory" / "2026-11-30.md").read_text()
    assert "The team deploys staging on Tuesday" in shared_log  # what was meant to be shared is
    assert git(team, "status", "--porcelain") == ""


def test_a_shared_workspace_that_does_not_exist_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command naming a missing shared folder (``--shared`` or ``$AGENT_SLEEP_SHARED``) is
    refused: a typo is not "nothing shared". The Python API, which reads the variable
    without being asked, skips it with a warning."""
    own = tmp_path / "own"
    micro_rest("Deploys go out on Tuesdays.", "W", workspace=own)
    missing = tmp_path / "team-memroy"
    r = cli("search", "deploys", "-w", str(own), "--bm25-only", "--shared", str(missing))
    assert r.returncode == 2 and "no shared workspace" in r.stderr
    r = cli("context", "-w", str(own), "--shared", str(missing))
    assert r.returncode == 2 and "no shared workspace" in r.stderr
    r = cli("search", "deploys", "-w", str(own), "--bm25-only",
            env={"AGENT_SLEEP_SHARED": str(missing)})  # fmt: skip
    assert r.returncode == 2 and str(missing) in r.stderr
    monkeypatch.setenv("AGENT_SLEEP_SHARED", str(missing))
    hits = search(own, "deploys", fusion=BM25)
    assert [h.hit.text for h in hits] == ["W: Deploys go out on Tuesdays."]
    assert "Tuesdays" in context(own)
    assert not missing.exists()


def test_without_k_the_best_of_both_sides_not_as_many_as_one_side_had(tmp_path: Path) -> None:
    """One private hit used to cap the merged answer at one, hiding the team's notes."""
    own, team = tmp_path / "own", tmp_path / "team"
    micro_rest("The VPN password rotates monthly", "W", workspace=own, when=DAY)
    micro_rest("Staging resets on Sunday", "W", workspace=team, when=DAY)
    micro_rest("Staging database lives in eu-west-1", "W", workspace=team, when=DAY)
    found = search(own, "vpn staging", shared=team, fusion=BM25)
    assert len(found) == 3 and sum(s.shared for s in found) == 2
