"""Commands of the git path: ``sync``, ``history``, ``git-init`` and the hidden merge driver."""

from __future__ import annotations

import sys
from dataclasses import asdict

import click

from agent_sleep.cli.common import common_options, emit, plural, progress_lines, say


@click.command(
    "git-init",
    epilog="""\b
Examples:
  agent-sleep git-init
  agent-sleep git-init --workspace ~/.agent_workspace
  git -C ~/.agent_workspace remote add origin git@example.com:me/memory.git""",
)
@common_options
def git_init_cmd(workspace: str | None, as_json: bool) -> None:
    """Keep an existing workspace in git (what `init --git` does): history of every run and
    note batch, merge drivers for memory files, the derived .agent-sleep/ folder ignored."""
    from agent_sleep.sync.repo import enable

    repo, created = enable(workspace)
    emit(
        as_json,
        {"workspace": str(repo.root), "created": created, "head": repo.head()},
        f"{'Git repository created' if created else 'Git already on'} at {repo.root}",
    )


@click.command(
    "sync",
    epilog="""\b
Any git remote works (a folder, ssh, https). A second machine joins with a plain
`git clone URL DIR`; its first `agent-sleep sync --workspace DIR` installs the merge drivers.
\b
Examples:
  agent-sleep sync
  agent-sleep sync --remote backup --json
  git -C ~/.agent_workspace remote add origin /srv/memory.git && agent-sleep sync""",
)
@click.option(
    "--remote",
    "-r",
    metavar="NAME",
    default=None,
    help="Git remote (default origin, else the only one).",
)
@common_options
def sync_cmd(remote: str | None, workspace: str | None, as_json: bool) -> None:
    """Commit pending notes and edits, fetch, merge memory files by entry id, push; merge and
    push again when the push is rejected. Never leaves conflict markers."""
    from agent_sleep.sync.remote import sync

    r = sync(workspace, remote, progress=progress_lines(as_json))
    if as_json:
        emit(True, asdict(r))
        return
    if r.remote is None:
        click.echo(
            "No git remote: changes committed locally only; add one with "
            "`git -C WORKSPACE remote add origin URL`."
        )
        return
    click.echo(
        f"Synced with {r.remote}/{r.branch}: {plural(len(r.committed), 'local commit')}, "
        f"{plural(len(r.updated), 'file')} updated ({len(r.merged)} merged), "
        f"pushed after {plural(r.attempts, 'attempt')}."
    )


@click.command(
    "history",
    epilog="""\b
Examples:
  agent-sleep history MEMORY.md
  agent-sleep history bank/entities/billing-service.md
  agent-sleep history a9c3e5g7j1 --json""",
)
@click.argument("target")
@click.option("--limit", "-n", type=click.IntRange(min=1), default=50, show_default=True)
@common_options
def history_cmd(target: str, limit: int, workspace: str | None, as_json: bool) -> None:
    """Show the history of one entry (by id) or one page (by path): each commit that changed
    it, the run or edit it came from, and the notes the entry cites. In a workspace not kept in
    git, an entry's versions as its files keep them: what it replaced and what replaced it,
    with dates and the notes each cites."""
    from agent_sleep.sync.history import history
    from agent_sleep.sync.repo import NotARepository

    try:
        changes = history(workspace, target, limit=limit)
    except NotARepository:
        if not _versions_from_files(workspace, target.strip(), limit, as_json):
            raise
        return
    if not changes and not _exists(workspace, target.strip()):
        from agent_sleep.core.errors import BadInput

        raise BadInput(
            f"nothing in the workspace has the id or path {target!r}, now or in its git "
            "history: give an entry's id (the id=… of a note, e.g. k3v9x2m7qa) or a file's path"
        )
    if as_json:
        emit(True, [asdict(c) for c in changes])
        return
    if not changes:
        click.echo(f"No history for {target}.")
    for c in changes:
        where = f" [{c.path}{' ' + c.lines if c.lines else ''}]" if c.path else ""
        click.echo(f"{c.commit[:10]} {c.date} {c.subject}{where}")
        for line in c.removed:
            click.echo(f"  - {line}")
        for line in c.added:
            click.echo(f"  + {line}")
        for sid in c.sources:
            click.echo(f"    from {sid}: {c.source_notes.get(sid, '(not in the logs)')}")
        if c.superseded_by:
            click.echo(f"  now superseded by {', '.join(c.superseded_by)}")


def _versions_from_files(workspace: str | None, target: str, limit: int, as_json: bool) -> bool:
    """For a workspace not kept in git: an entry's versions as its files keep them (what it
    replaced and what replaced it, with dates, and the notes each cites), and whether there
    were any (False for a page, or an id no file holds)."""
    from agent_sleep.core import notes as fmt
    from agent_sleep.core.workspace import Workspace
    from agent_sleep.retrieval.currency import chain

    ws = Workspace.at(workspace)
    versions = chain(ws, target, limit=limit)
    if not versions:
        return False
    said: dict[str, str] = {}
    for log in ws.daily_logs():
        for n in fmt.notes_in(ws.read_text(log)):
            if n.id:
                said.setdefault(n.id, n.text)
    cited: dict[str, list[str]] = {}
    for path in [ws.memory_md, *sorted(ws.bank_dir.rglob("*.md"))]:
        if path.is_file():
            for n in fmt.notes_in(ws.read_text(path)):
                if n.id:
                    cited.setdefault(n.id, [s for s in n.meta.get("sources", "").split(",") if s])
    say(
        f"({ws.root} is not kept in git: these are the versions its files keep; "
        "`agent-sleep git-init` records every edit from now on)"
    )
    sources = {v["id"]: [(s, said.get(s, "")) for s in cited.get(v["id"], [])] for v in versions}
    if as_json:
        emit(
            True,
            [
                {**v, "sources": [{"id": i, "text": t} for i, t in sources[v["id"]]]}
                for v in versions
            ],
        )
        return True
    for v in versions:
        span = v["date"] + (f" to {v['until']}" if v["until"] else " (current)")
        mark = "*" if v["id"] == target else " "
        click.echo(f"{mark} {v['id']} {span}: {v['text']}")
        for i, t in sources[v["id"]]:
            click.echo(f"    from {i}: {t or '(not in the logs)'}")
    return True


def _exists(workspace: str | None, target: str) -> bool:
    """Whether ``target`` names a file of the workspace or an id its Markdown files hold (a note
    taken since the last commit has no history yet, but it exists)."""
    from agent_sleep.core import notes as fmt
    from agent_sleep.core.workspace import Workspace

    ws = Workspace.at(workspace)
    if (ws.root / target).exists():
        return True
    pages = [ws.memory_md, *ws.daily_logs(), *sorted(ws.bank_dir.rglob("*.md"))]
    return any(
        n.id == target or target in ",".join(n.meta.values()).split(",")
        for page in pages
        if page.is_file()
        for n in fmt.notes_in(ws.read_text(page))
    )


@click.command("merge-driver", hidden=True)
@click.argument("base")
@click.argument("ours")
@click.argument("theirs")
@click.argument("path", required=False)
def merge_driver_cmd(base: str, ours: str, theirs: str, path: str | None) -> None:
    """git merge driver for memory files (what `python -m agent_sleep.sync.driver` runs)."""
    from agent_sleep.sync.driver import run

    sys.exit(run(base, ours, theirs, path or ours))


def commit_after(workspace: str | None, message: str | None = None) -> None:
    """Commit a sleep run, rollback or flush when the workspace is kept in git. The run is
    done whatever git says: a commit that fails is one warning on stderr, not an error (the
    next `agent-sleep sync` commits what is pending)."""
    from agent_sleep.core.workspace import Workspace

    if (Workspace.at(workspace).root / ".git").exists():
        from agent_sleep.sync.repo import SyncError, commit_if_tracked

        try:
            commit_if_tracked(workspace, message)
        except SyncError as e:
            say(
                f"warning: done, but not committed to git: {e} "
                "(`agent-sleep sync` commits it once git is fixed)"
            )
