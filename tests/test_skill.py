"""SKILL.md follows the Agent Skills format."""

from __future__ import annotations

import re

import frontmatter

from tests.conftest import ROOT

ALLOWED = {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}


def test_frontmatter_is_valid() -> None:
    post = frontmatter.load(ROOT / "SKILL.md")
    meta = post.metadata
    assert set(meta) <= ALLOWED, set(meta) - ALLOWED
    name = meta["name"]
    assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", name) and len(name) <= 64
    assert name == "agent-sleep"  # the skill folder's name and the distribution's
    desc = meta["description"]
    assert isinstance(desc, str) and 0 < len(desc) <= 1024
    assert "<" not in desc and ">" not in desc
    assert "Use it" in desc  # says when to use it
    assert len(post.content.splitlines()) < 500


def test_body_links_resolve_one_level_deep() -> None:
    body = (ROOT / "SKILL.md").read_text()
    links = re.findall(r"\]\((references/[^)]+)\)", body)
    assert links
    for link in links:
        assert (ROOT / link).is_file(), link
        assert link.count("/") == 1


def test_literal_commands_point_at_real_scripts() -> None:
    body = (ROOT / "SKILL.md").read_text()
    for script in set(re.findall(r"python (scripts/\w+\.py)", body)):
        assert (ROOT / script).is_file(), script


def test_the_should_flush_example_says_flush_now() -> None:
    """The skill's example is commented "exit 0 = flush now": run as written, it must say so."""
    import shlex
    import subprocess
    import sys

    lines = (ROOT / "SKILL.md").read_text().splitlines()
    line = next(x for x in lines if x.startswith("agent-sleep should-flush"))
    argv = shlex.split(line.split("#")[0])[1:]
    r = subprocess.run(
        [sys.executable, "-m", "agent_sleep", *argv], capture_output=True, text=True, check=False
    )
    assert r.returncode == 0, (line, r.stdout, r.stderr)
