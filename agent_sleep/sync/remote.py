"""``sync``: commit what is pending, fetch, merge, push; again when the push is rejected.

The merge is computed without touching the working tree: the three trees are read with
``git ls-tree``, files both sides changed are merged by ``agent_sleep.sync.merge`` in this
process, and the result is written as a commit with ``git commit-tree``. Only then, under the
workspace lock, are the changed files replaced one by one (atomic renames) and the branch
moved. A sync killed at any point leaves every file whole: either the old or the merged
version; the next sync commits what it finds and merges again, and merging twice is harmless.
"""

from __future__ import annotations

import os
import random
import shlex
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from agent_sleep.core.errors import BadInput
from agent_sleep.core.workspace import ENCODING, ERRORS, STATE_DIRNAME, Workspace
from agent_sleep.sync.merge import kind_of, merge_text
from agent_sleep.sync.repo import (
    DEFAULT_BRANCH,
    Repo,
    SyncError,
    UnknownRemote,
    commit_pending,
    git_lock,
    install,
    last_line,
    open_repo,
)

MAX_ATTEMPTS = 8
# what a push says when the remote moved on or another push held the branch: merge and retry
_RACES = (
    "[rejected]",
    "non-fast-forward",
    "fetch first",
    "stale info",
    "cannot lock ref",
    "failed to update ref",
    "failed to lock",
    "incorrect old value",
)

Entry = tuple[str, str]  # (mode, blob id)


@dataclass
class SyncResult:
    remote: str | None
    branch: str
    committed: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)  # files merged from both sides
    updated: list[str] = field(default_factory=list)  # files changed in the working tree
    pushed: bool = False
    attempts: int = 0
    installed: list[str] = field(default_factory=list)
    head: str | None = None


def pick_remote(repo: Repo, name: str | None) -> str | None:
    """The remote to sync with: ``name``, else origin, else the only one (None: no remote)."""
    remotes = repo.git("remote").stdout.split()
    q = shlex.quote(str(repo.root))
    if name is not None:
        if not name.strip():
            raise BadInput(f"the remote name is empty: give one of {', '.join(remotes) or 'none'}")
        if name not in remotes:
            raise UnknownRemote(
                f"no git remote named {name!r} (have: {', '.join(remotes) or 'none'}): "
                f"add it with `git -C {q} remote add {shlex.quote(name)} URL`"
            )
        return name
    if not remotes:
        return None
    if "origin" in remotes or len(remotes) == 1:
        return "origin" if "origin" in remotes else remotes[0]
    raise SyncError(
        f"{len(remotes)} git remotes and none is named origin ({', '.join(sorted(remotes))}): "
        "choose one with `agent-sleep sync --remote NAME`"
    )


def adopt_branch(repo: Repo, remote: str, branch: str) -> str:
    """A clone with no commit yet (``git clone`` of a remote whose HEAD names a branch it does
    not have: a bare repository made with another default branch) joins the branch the remote
    does have, rather than pushing a second, unrelated one. Returns the branch to sync."""
    if repo.head() is not None:
        return branch
    p = repo.git("ls-remote", "--heads", remote, check=False)
    if p.returncode != 0:
        return branch  # the fetch says why
    heads = [line.split("\t")[-1].removeprefix("refs/heads/") for line in p.stdout.splitlines()]
    if not heads or branch in heads:
        return branch
    if DEFAULT_BRANCH not in heads and len(heads) > 1:
        raise SyncError(
            f"{remote} has no branch {branch!r} but several others ({', '.join(sorted(heads))}): "
            f"choose one with `git -C {shlex.quote(str(repo.root))} switch NAME`"
        )
    name = DEFAULT_BRANCH if DEFAULT_BRANCH in heads else heads[0]
    repo.git("symbolic-ref", "HEAD", f"refs/heads/{name}")
    # so that a plain `git pull` of this clone follows the same branch
    repo.git("config", f"branch.{name}.remote", remote)
    repo.git("config", f"branch.{name}.merge", f"refs/heads/{name}")
    return name


def _tree(repo: Repo, rev: str | None) -> dict[str, Entry]:
    if rev is None:
        return {}
    out = repo.git("ls-tree", "-r", "-z", "--full-tree", rev).stdout
    tree: dict[str, Entry] = {}
    for item in out.split("\0"):
        if not item:
            continue
        meta, _, path = item.partition("\t")
        mode, _kind, sha = meta.split(" ")
        tree[path] = (mode, sha)
    return tree


def _trivial(base: Entry | None, ours: Entry | None, theirs: Entry | None) -> bool:
    """True when one side's version is the answer (no content merge needed)."""
    return ours is None or theirs is None or ours in (theirs, base) or theirs == base


def _pick(path: str, base: Entry | None, ours: Entry | None, theirs: Entry | None) -> Entry | None:
    if ours == theirs or theirs == base:
        return ours
    if ours == base:
        return theirs
    if ours is None or theirs is None:
        return ours or theirs  # deleted on one side, changed on the other: keep the change
    return ours  # not a memory file: this side's version wins, the other stays in history


def _content_merges(
    repo: Repo, jobs: list[tuple[str, Entry | None, Entry, Entry]]
) -> dict[str, Entry]:
    """Memory files both sides changed, merged here: blobs read and written in one batch each."""
    shas = {e[1] for _, b, o, t in jobs for e in (b, o, t) if e is not None}
    blobs = repo.cat_files(sorted(shas))

    def text(e: Entry | None) -> str:
        raw = blobs.get(e[1]) if e is not None else b""
        return (raw or b"").decode(ENCODING, ERRORS)

    merged = [
        merge_text(p, text(b), text(o), text(t)).encode(ENCODING, ERRORS) for p, b, o, t in jobs
    ]
    ids = repo.write_blobs(merged)
    return {p: (o[0], sha) for (p, _b, o, _t), sha in zip(jobs, ids, strict=True)}


def _trusted(path: str, ours: Entry | None, theirs: Entry | None) -> Entry | None:
    """The other side's entry, unless it would touch what a merge must not: the derived
    folder, a symlink or submodule in place of a file, or a daily log or MEMORY.md deleted
    (raw logs are never deleted; an emptied memory is a hand edit, not a deletion)."""
    if path.startswith(f"{STATE_DIRNAME}/") or path.startswith(".git/"):
        return ours
    if theirs is not None and theirs[0] not in ("100644", "100755") and theirs != ours:
        return ours
    if theirs is None and (kind_of(path) == "log" or path == "MEMORY.md"):
        return ours
    return theirs


def merge_commit(repo: Repo, ours: str | None, theirs: str) -> tuple[str, list[str]]:
    """The commit that merges ``theirs`` into ``ours`` (possibly ``theirs`` itself, a
    fast-forward), and the files merged from both sides."""
    if ours is None:
        return theirs, []
    p = repo.git("merge-base", ours, theirs, check=False)
    base = p.stdout.strip() or None
    if base == theirs:
        return ours, []
    tb, to, tt = _tree(repo, base), _tree(repo, ours), _tree(repo, theirs)
    result: dict[str, Entry] = {}
    jobs: list[tuple[str, Entry | None, Entry, Entry]] = []
    for path in sorted({*to, *tt}):
        b, o, t = tb.get(path), to.get(path), _trusted(path, to.get(path), tt.get(path))
        if not _trivial(b, o, t) and path.endswith(".md"):
            assert o is not None and t is not None
            jobs.append((path, b, o, t))
            continue
        entry = _pick(path, b, o, t)
        if entry is not None:
            result[path] = entry
    result.update(_content_merges(repo, jobs))
    if base == ours and result == tt:
        return theirs, []  # a fast-forward
    both = [p for p, *_ in jobs]
    fd, index = tempfile.mkstemp(prefix="agent-sleep-index-")
    os.close(fd)
    os.unlink(index)
    env = {"GIT_INDEX_FILE": index}
    try:
        lines = "".join(f"{m} {s}\t{path}\n" for path, (m, s) in result.items())
        repo.git("update-index", "--index-info", input=lines, env=env)
        tree = repo.git("write-tree", env=env).stdout.strip()
    finally:
        if os.path.exists(index):
            os.unlink(index)
    message = (
        f"sync: merge {len(both)} file{'' if len(both) == 1 else 's'} from both sides\n"
        if both
        else "sync: merge both sides (no file changed on both)\n"
    )
    commit = repo.git(
        *repo.identity(), "commit-tree", tree, "-p", ours, "-p", theirs, "-F", "-", input=message
    ).stdout.strip()
    return commit, both


def _check_out(repo: Repo, old: str | None, new: str, branch: str) -> list[str]:
    """Bring the working tree from ``old`` to ``new`` file by file, then move the branch.
    Call with the workspace lock held, right after committing what was pending."""
    before, after = _tree(repo, old), _tree(repo, new)
    changed = sorted(p for p in {*before, *after} if before.get(p) != after.get(p))
    ws = repo.ws
    blobs = repo.cat_files(sorted({after[p][1] for p in changed if p in after}))
    for path in changed:
        target = ws.confine(path)
        entry = after.get(path)
        if entry is None:
            if target.is_file() or target.is_symlink():
                target.unlink()
            continue
        if entry[0] not in ("100644", "100755"):
            continue  # a symlink or submodule from the other side is never written here
        ws.write_text(target, (blobs.get(entry[1]) or b"").decode(ENCODING, ERRORS))
    ref = f"refs/heads/{branch}"
    repo.git("update-ref", ref, new, *([old] if old else []))
    repo.git("read-tree", new)
    repo.git("update-index", "-q", "--refresh", check=False)
    return changed


def _fetch(repo: Repo, remote: str, branch: str) -> str | None:
    ref = f"refs/remotes/{remote}/{branch}"
    p = repo.git("fetch", "-q", "--no-tags", remote, f"+refs/heads/{branch}:{ref}", check=False)
    if p.returncode != 0:
        if "couldn't find remote ref" in p.stderr:
            return None  # an empty remote: the first push creates the branch
        raise SyncError(f"cannot fetch from {remote}: {last_line(p.stderr)}")
    return repo.git("rev-parse", "--verify", "-q", ref).stdout.strip() or None


def _push(repo: Repo, remote: str, branch: str) -> bool:
    """True when pushed; False when rejected because the remote moved on (or another push was
    updating the branch at that moment)."""
    p = repo.git("push", "--porcelain", remote, f"HEAD:refs/heads/{branch}", check=False)
    if p.returncode == 0:
        return True
    out = p.stdout + p.stderr
    if any(m in out for m in _RACES):
        return False
    reason = next((line for line in p.stdout.splitlines() if line.startswith("!")), "")
    reason = reason.split("\t")[-1] if reason else last_line(p.stderr)
    raise SyncError(
        f"push to {remote} was refused ({reason}); "
        "your commits are kept locally: fix the remote and run `agent-sleep sync` again"
    )


def sync(
    workspace: str | os.PathLike[str] | Workspace | None = None,
    remote: str | None = None,
    *,
    attempts: int = MAX_ATTEMPTS,
    progress: Callable[[str], None] | None = None,
) -> SyncResult:
    """Commit pending changes, then fetch, merge and push until the push goes through."""
    repo = open_repo(workspace)
    with git_lock(repo.ws):
        chosen = pick_remote(repo, remote)  # a remote that does not exist: refused, nothing done
        installed = install(repo)
        branch = repo.branch()
        if chosen is not None:
            branch = adopt_branch(repo, chosen, branch)
        result = SyncResult(remote=None, branch=branch, installed=installed)
        files = [f for f in installed if f.startswith(".")]
        done = commit_pending(repo, f"sync: set up {', '.join(files)}" if files else None)
        if done:
            result.committed.append(done)
        result.remote = chosen
        if result.remote is None:
            result.head = repo.head()
            return result
        for attempt in range(1, max(1, attempts) + 1):
            result.attempts = attempt
            _round(repo, result.remote, branch, result)
            if _push(repo, result.remote, branch):
                result.pushed = True
                break
            if progress:
                progress(f"push to {result.remote} rejected (attempt {attempt}); merging again")
            time.sleep(min(2.0, 0.05 * 2**attempt) * random.uniform(0.5, 1.5))
        else:
            raise SyncError(
                f"the push to {result.remote} was rejected {attempts} times (others keep pushing); "
                "your commits are kept locally: run `agent-sleep sync` again"
            )
        result.head = repo.head()
    return result


def _round(repo: Repo, remote: str, branch: str, result: SyncResult) -> None:
    theirs = _fetch(repo, remote, branch)
    if theirs is None:
        return
    with repo.ws.lock():
        # what was written while we fetched goes into this merge too
        done = commit_pending(repo, locked=True)
        if done:
            result.committed.append(done)
        ours = repo.head()
        new, both = merge_commit(repo, ours, theirs)
        if new != ours:
            result.updated += _check_out(repo, ours, new, branch)
            result.merged += both
