"""The workspace as a git repository: set-up, batched commits named after what they hold.

Everything goes through the user's own ``git`` binary. Commits are made under the workspace
lock (so a note being appended is never half in a commit) and under ``.agent-sleep/git.lock``
(one agent-sleep git operation at a time per clone). A commit holds everything pending: the
notes since the last commit (one commit per batch, not per note), the sleep runs, rollbacks and
flushes the journal recorded since then (named in the message), and hand edits, named as such.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from agent_sleep.core.errors import AgentSleepError
from agent_sleep.core.workspace import STATE_DIRNAME, Workspace
from agent_sleep.sync.driver import DRIVER_NAME, driver_command

IGNORE_LINES = (f"/{STATE_DIRNAME}/", ".*.tmp", "*.agent-sleep-merge")
ATTRIBUTE_LINES = (f"*.md merge={DRIVER_NAME}",)
STATE_FILE = "git.json"
DEFAULT_BRANCH = "main"
FALLBACK_IDENTITY = ("-c", "user.name=agent-sleep", "-c", "user.email=agent-sleep@localhost")


class SyncError(AgentSleepError):
    """A git operation failed; the message says what to do. Nothing local was lost."""


class NotARepository(SyncError):
    exit_code = 2


class UnknownRemote(SyncError):
    """``--remote NAME`` names no remote of the repository: bad input (exit 2), not a failed
    git operation."""

    exit_code = 2


@dataclass(frozen=True)
class Repo:
    ws: Workspace

    @property
    def root(self) -> Path:
        return self.ws.root

    def git(
        self,
        *args: str,
        input: str | None = None,
        check: bool = True,
        env: dict[str, str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        """Run ``git -C ROOT ARGS``; a failure raises ``SyncError`` with git's last line."""
        data = None if input is None else input.encode("utf-8", "surrogateescape")
        p = self.git_bytes(*args, input=data, check=check, env=env)
        return subprocess.CompletedProcess(
            p.args,
            p.returncode,
            p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"),
        )

    def git_bytes(
        self,
        *args: str,
        input: bytes | None = None,
        check: bool = True,
        env: dict[str, str] | None = None,
    ) -> subprocess.CompletedProcess[bytes]:
        exe = shutil.which("git")
        if exe is None:
            raise SyncError("git is not installed: install git to use history and sync")
        full_env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C", **(env or {})}
        for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
            if not env or name not in env:
                full_env.pop(name, None)
        proc = subprocess.run(
            [exe, "-C", str(self.root), *args], input=input, capture_output=True, env=full_env
        )
        if check and proc.returncode != 0:
            raise SyncError(f"git {args[0]} failed: {last_line(proc.stderr)}")
        return proc

    def cat_files(self, names: Sequence[str]) -> dict[str, bytes | None]:
        """The contents of many objects (``<rev>:<path>``, ``:<path>`` or blob ids) read by one
        ``git cat-file --batch``; None for a name that does not exist."""
        if not names:
            return {}
        data = self.git_bytes(
            "cat-file", "--batch", input="".join(f"{n}\n" for n in names).encode()
        ).stdout
        out: dict[str, bytes | None] = {}
        pos = 0
        for name in names:
            end = data.index(b"\n", pos)
            header = data[pos:end].split(b" ")
            pos = end + 1
            if len(header) < 3 or header[-1] == b"missing":
                out[name] = None
                continue
            size = int(header[2])
            out[name] = data[pos : pos + size]
            pos += size + 1
        return out

    def write_blobs(self, contents: Sequence[bytes]) -> list[str]:
        """Store many blobs with one ``git hash-object``; their ids, in order."""
        if not contents:
            return []
        with tempfile.TemporaryDirectory(prefix="agent-sleep-blobs-") as tmp:
            paths = []
            for k, data in enumerate(contents):
                path = os.path.join(tmp, str(k))
                with open(path, "wb") as f:
                    f.write(data)
                paths.append(path)
            out = self.git_bytes(
                "hash-object",
                "-w",
                "--no-filters",
                "--stdin-paths",
                input="\n".join(paths).encode(),
            ).stdout.decode()
        return out.split()

    def is_repo(self) -> bool:
        return (self.root / ".git").exists()

    def head(self) -> str | None:
        p = self.git("rev-parse", "--verify", "-q", "HEAD", check=False)
        return p.stdout.strip() or None

    def branch(self) -> str:
        p = self.git("symbolic-ref", "--short", "-q", "HEAD", check=False)
        name = p.stdout.strip()
        if not name:
            raise SyncError(f"{self.root} is not on a branch (detached HEAD): {self._reattach()}")
        return name

    def _reattach(self) -> str:
        """How to get back on a branch from a detached HEAD without leaving behind the commits
        made there (a sleep run commits wherever HEAD is)."""
        q = shlex.quote(str(self.root))
        if self.operation() == "rebase":
            return (
                f"a git rebase is in progress: finish it (`git -C {q} rebase --continue`) or "
                f"undo it (`git -C {q} rebase --abort`), then run `agent-sleep sync` again"
            )
        heads = self.git("for-each-ref", "--format=%(refname:short)", "refs/heads/").stdout.split()
        name = DEFAULT_BRANCH if DEFAULT_BRANCH in heads or not heads else heads[0]
        if name not in heads:
            return f"run `git -C {q} switch -c {name}`"
        tip = self.git("rev-parse", "-q", "--verify", f"refs/heads/{name}").stdout.strip()
        head = self.head()
        behind = self.git("merge-base", "--is-ancestor", "HEAD", tip, check=False).returncode
        if tip == head or behind == 0:  # nothing was committed here that the branch lacks
            return f"run `git -C {q} switch {name}`"
        ahead = self.git("merge-base", "--is-ancestor", tip, "HEAD", check=False).returncode == 0
        if ahead:  # commits made while detached, on top of the branch: keep them on it
            return f"run `git -C {q} switch -C {name}` (keeps the commits made since)"
        return (
            f"run `git -C {q} switch {name} && git -C {q} merge {head}` "
            "(merges the commits made while detached)"
        )

    def operation(self) -> str | None:
        """The git operation in progress in this clone (merge, rebase, ...), if any."""
        p = self.git("rev-parse", "--absolute-git-dir", check=False)
        git_dir = Path(p.stdout.strip()) if p.returncode == 0 else self.root / ".git"
        if (git_dir / "rebase-merge").is_dir() or (git_dir / "rebase-apply").is_dir():
            return "rebase"
        for name, op in (
            ("MERGE_HEAD", "merge"),
            ("CHERRY_PICK_HEAD", "cherry-pick"),
            ("REVERT_HEAD", "revert"),
        ):
            if (git_dir / name).is_file():
                return op
        return None

    def check_resolved(self) -> None:
        """Refuse to commit while git holds unresolved conflicts: ``git add -A`` would commit
        the conflict markers and a sync would push them to every clone."""
        out = self.git("ls-files", "-u", "-z").stdout
        paths = sorted({item.partition("\t")[2] for item in out.split("\0") if item})
        if not paths:
            return
        q = shlex.quote(str(self.root))
        op = self.operation()
        shown = ", ".join(paths[:3]) + (" …" if len(paths) > 3 else "")
        how = (
            f"resolve them and commit, or undo the {op} with `git -C {q} {op} --abort`"
            if op
            else f"resolve them (`git -C {q} status` lists them)"
        )
        raise SyncError(
            f"unresolved git conflicts in {shown}"
            + (f" (a git {op} is in progress)" if op else "")
            + f": {how}; nothing was committed"
        )

    def identity(self) -> tuple[str, ...]:
        """``-c user.*`` options when git has no identity configured (CI machines)."""
        p = self.git("config", "user.email", check=False)
        return () if p.stdout.strip() else FALLBACK_IDENTITY


def last_line(text: str | bytes) -> str:
    """git's reason for a failure: its first ``fatal:`` or ``error:`` line (the lines after it
    are advice, such as "Please make sure you have the correct access rights"), else its last
    line."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in lines:
        for prefix in ("fatal:", "error:"):
            if line.startswith(prefix) and line[len(prefix) :].strip():
                return line[len(prefix) :].strip()
    return lines[-1] if lines else "no message"


def open_repo(workspace: str | os.PathLike[str] | Workspace | None) -> Repo:
    repo = Repo(Workspace.at(workspace))
    if not repo.is_repo():
        raise NotARepository(
            f"{repo.root} is not kept in git: run "
            f"`agent-sleep git-init --workspace {shlex.quote(str(repo.root))}`"
        )
    return repo


@contextlib.contextmanager
def git_lock(ws: Workspace) -> Iterator[None]:
    """One agent-sleep git operation at a time in this clone (released if the process dies)."""
    ws.state_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(ws.state_dir / "git.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _ensure_lines(path: Path, wanted: Sequence[str], ws: Workspace) -> bool:
    text = ws.read_text(path)
    have = {line.strip() for line in text.splitlines()}
    missing = [line for line in wanted if line not in have]
    if not missing:
        return False
    sep = "" if not text or text.endswith("\n") else "\n"
    ws.write_text(path, text + sep + "\n".join(missing) + "\n")
    return True


def install(repo: Repo) -> list[str]:
    """What a clone needs and git does not clone: the merge driver in the repository's config;
    plus the ignore and attribute lines, the workspace layout. Returns what it added."""
    added = []
    want = driver_command()
    p = repo.git("config", "--local", f"merge.{DRIVER_NAME}.driver", check=False)
    if p.stdout.strip() != want:
        repo.git("config", "--local", f"merge.{DRIVER_NAME}.name", "agent-sleep memory merge")
        repo.git("config", "--local", f"merge.{DRIVER_NAME}.driver", want)
        added.append("merge driver")
    repo.ws.ensure()
    if _ensure_lines(repo.root / ".gitignore", IGNORE_LINES, repo.ws):
        added.append(".gitignore")
    if _ensure_lines(repo.root / ".gitattributes", ATTRIBUTE_LINES, repo.ws):
        added.append(".gitattributes")
    return added


def enable(workspace: str | os.PathLike[str] | Workspace | None) -> tuple[Repo, bool]:
    """Make the workspace a git repository (idempotent); True when it was not one before."""
    ws = Workspace.at(workspace).ensure()
    repo = Repo(ws)
    created = not repo.is_repo()
    if created:
        repo.git("init", "-q")
        repo.git("symbolic-ref", "HEAD", f"refs/heads/{DEFAULT_BRANCH}")
    with git_lock(ws):
        install(repo)
        commit_pending(repo, "init: agent-sleep workspace" if created else None)
    return repo, created


# -- commits --------------------------------------------------------------------------------


def _load_state(ws: Workspace) -> dict[str, int]:
    try:
        data = json.loads(ws.read_text(ws.state_dir / STATE_FILE) or "{}")
    except json.JSONDecodeError:
        data = {}
    return {k: int(v) for k, v in data.items() if isinstance(v, int)}


def _journal_since(ws: Workspace, seen: int) -> tuple[list[dict[str, object]], int]:
    lines = ws.read_text(ws.state_dir / "journal.jsonl").splitlines()
    out = []
    for line in lines[seen:]:
        with contextlib.suppress(json.JSONDecodeError):
            out.append(json.loads(line))
    return out, len(lines)


def _run_name(entry: dict[str, object]) -> str | None:
    """What a journal line did to the files, for a commit message; None for a line that names
    no change of its own: a hook's line (the SessionEnd worker's sleep journals itself as a
    ``sleep`` line, a flush's notes are counted from the logs), a failed run (it wrote nothing)."""
    event, run_id = entry.get("event"), entry.get("run_id")
    if event == "rollback":
        return f"rollback of run {run_id}" if run_id else "rollback of a run"
    if event == "memory-tool":
        files = entry.get("files_changed")
        what = ", ".join(map(str, files[:3])) if isinstance(files, list) else ""
        return f"memory-tool edit {run_id or ''}".rstrip() + (f" ({what})" if what else "")
    if event != "sleep":
        return None
    decisions = entry.get("decisions")
    done = ", ".join(
        f"{k} {v}" for k, v in (decisions.items() if isinstance(decisions, dict) else ()) if v
    )
    notes_in = entry.get("notes_in")
    parts = [str(entry["phase"])] if entry.get("phase") else []
    parts += [f"{notes_in} notes in"] if isinstance(notes_in, int) else []
    inner = "; ".join(x for x in (", ".join(parts), done) if x)
    return (f"sleep run {run_id}" if run_id else "sleep run") + (f" ({inner})" if inner else "")


def _staged(repo: Repo) -> list[tuple[str, str]]:
    out = repo.git("diff", "--cached", "--name-status", "--no-renames", "-z").stdout
    parts = out.split("\0")
    return [(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]


_ID_RE = re.compile(r"<!-- id=(\S+)")


def _new_note_count(repo: Repo, paths: list[str], had_head: bool) -> int:
    names = [f":{p}" for p in paths] + ([f"HEAD:{p}" for p in paths] if had_head else [])
    blobs = repo.cat_files(names)
    count = 0
    for p in paths:
        now = set(_ID_RE.findall((blobs.get(f":{p}") or b"").decode("utf-8", "replace")))
        old = set(_ID_RE.findall((blobs.get(f"HEAD:{p}") or b"").decode("utf-8", "replace")))
        count += len(now - old)
    return count


def describe(repo: Repo, runs: list[dict[str, object]], extra: str | None = None) -> str:
    """The commit message for what is staged: runs first, then notes, then hand edits."""
    had_head = repo.head() is not None
    staged = _staged(repo)
    logs = [p for s, p in staged if p.startswith("memory/") and s != "D"]
    notes = _new_note_count(repo, logs, had_head) if logs else 0
    edited = [p for s, p in staged if not p.startswith("memory/")]
    named = [name for name in map(_run_name, runs) if name]
    lines = list(named)
    if extra:
        lines.insert(0, extra)
    if notes:
        lines.append(
            f"notes: {notes} new in {', '.join(sorted(logs)[:3])}" + (" …" if len(logs) > 3 else "")
        )
    if edited and not named and not extra:
        lines.append(
            "edit: hand edits to "
            + ", ".join(sorted(edited)[:5])
            + (" …" if len(edited) > 5 else "")
        )
    if not lines:
        lines.append("edit: " + ", ".join(sorted(p for _, p in staged)[:5]))
    subject = lines[0] if len(lines) == 1 else f"{lines[0]} (+{len(lines) - 1} more)"
    return subject + ("\n\n" + "\n".join(lines) if len(lines) > 1 else "") + "\n"


# where processes cannot be listed (no /proc), a lock younger than this may be a live git's
STALE_LOCK_S = 600.0
LIVE_GIT_WAIT_S = 10.0  # how long a sync waits for a git running in the clone to end


def clear_stale_locks(repo: Repo) -> None:
    """Lock files a killed git left behind. Only called while holding ``git_lock``, when no
    agent-sleep git process can be running in this clone; a git the user runs there (a
    ``git commit`` waiting for its editor holds ``index.lock``) keeps its locks: while one
    runs, nothing is removed, and git's own "File exists" error says why a step failed.
    Without a process list, only locks older than ``STALE_LOCK_S`` go."""
    git_dir = repo.root / ".git"
    locks = [git_dir / name for name in ("index.lock", "HEAD.lock", "packed-refs.lock")]
    for sub in ("refs/heads", "refs/remotes"):
        locks += (git_dir / sub).rglob("*.lock") if (git_dir / sub).is_dir() else []
    present = [lock for lock in locks if lock.exists()]
    if not present:
        return
    deadline = time.monotonic() + LIVE_GIT_WAIT_S
    running = live_git(repo.root)
    while running is not None and running > 0 and time.monotonic() < deadline:
        time.sleep(0.1)  # a git of a killed sync finishing, or the user's quick command
        running = live_git(repo.root)
    if running is not None and running > 0:
        return
    for lock in present:
        with contextlib.suppress(FileNotFoundError):
            if running == -1 and _age(lock) < STALE_LOCK_S:
                continue
            lock.unlink()


def _age(path: Path) -> float:
    try:
        return time.time() - path.stat().st_mtime
    except FileNotFoundError:
        return 0.0


def live_git(root: Path) -> int | None:
    """The pid of a git process working in this clone (its working folder inside ``root``),
    None if there is none, -1 where processes cannot be listed (no ``/proc``)."""
    proc = Path("/proc")
    if not (proc / "self" / "cwd").exists():
        return -1
    real = os.path.realpath(root)
    me = str(os.getpid())
    try:
        entries = [e.name for e in os.scandir(proc) if e.name.isdigit() and e.name != me]
    except OSError:
        return -1
    for pid in entries:
        try:
            if not (proc / pid / "comm").read_text().startswith("git"):
                continue
            cwd = os.readlink(proc / pid / "cwd")  # a zombie or another user's: OSError
        except OSError:
            continue
        if cwd == real or cwd.startswith(real.rstrip(os.sep) + os.sep):
            return int(pid)
    return None


def stage(repo: Repo) -> None:
    """``git add -A`` of the workspace, never the derived folder nor temporary files, whatever
    .gitignore says (the other side may have emptied it): the ignore lines are kept in the
    clone's own ``info/exclude`` too, which no merge changes. A derived folder committed anyway
    leaves the index; its files stay on disk."""
    p = repo.git("rev-parse", "--git-path", "info/exclude")
    exclude = Path(p.stdout.strip())
    exclude = exclude if exclude.is_absolute() else repo.root / exclude
    try:
        text = exclude.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        text = ""
    have = {line.strip() for line in text.splitlines()}
    missing = [line for line in IGNORE_LINES if line not in have]
    if missing:
        exclude.parent.mkdir(parents=True, exist_ok=True)
        sep = "" if not text or text.endswith("\n") else "\n"
        with open(exclude, "a", encoding="utf-8") as f:
            f.write(sep + "\n".join(missing) + "\n")
    repo.git("add", "-A", "--", ".")
    if repo.git("ls-files", "-z", "--", f":(top){STATE_DIRNAME}").stdout.strip("\0"):
        repo.git("rm", "-r", "-q", "--cached", "--ignore-unmatch", "--", f":(top){STATE_DIRNAME}")


def commit_pending(repo: Repo, message: str | None = None, *, locked: bool = False) -> str | None:
    """Commit everything pending in one commit; the new commit's id, or None if nothing was.
    Call while holding ``git_lock``; ``locked``: the caller holds the workspace lock too."""
    ws = repo.ws
    clear_stale_locks(repo)
    with contextlib.nullcontext() if locked else ws.lock():
        repo.check_resolved()
        stage(repo)
        state = _load_state(ws)
        runs, seen = _journal_since(ws, state.get("journal_lines", 0))
        if not repo.git("diff", "--cached", "--quiet", check=False).returncode:
            state["journal_lines"] = seen
            ws.write_text(ws.state_dir / STATE_FILE, json.dumps(state) + "\n")
            return None
        if repo.head() is None:  # the first commit of a workspace, whatever it holds
            message = "init: agent-sleep workspace"
        text = describe(repo, runs, message)
        repo.git(*repo.identity(), "commit", "-q", "--no-verify", "-F", "-", input=text)
        state["journal_lines"] = seen
        ws.write_text(ws.state_dir / STATE_FILE, json.dumps(state) + "\n")
    return repo.head()


def commit_if_tracked(
    workspace: str | os.PathLike[str] | Workspace | None, message: str | None = None
) -> str | None:
    """After a sleep run, rollback or flush: commit it when the workspace is kept in git."""
    repo = Repo(Workspace.at(workspace))
    if not repo.is_repo():
        return None
    with git_lock(repo.ws):
        return commit_pending(repo, message)
