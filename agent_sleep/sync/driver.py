"""The git merge driver: ``python -m agent_sleep.sync.driver %O %A %B %P``.

git calls it for every workspace Markdown file both sides changed (``.gitattributes`` maps
``*.md`` to the ``agent-sleep`` driver; ``git config merge.agent-sleep.driver`` names this
module). It writes the merge of ancestor ``%O``, ours ``%A`` and theirs ``%B`` into ``%A`` and
exits 0: a plain ``git pull`` merges memory files exactly as ``agent-sleep sync`` does. On any
failure it leaves ``%A`` as it was and exits 1, so git reports a conflict without markers.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from agent_sleep.core.workspace import ENCODING, ERRORS
from agent_sleep.sync.merge import merge_text

DRIVER_NAME = "agent-sleep"
log = logging.getLogger(__name__)


def driver_command(python: str | None = None) -> str:
    """The shell command git runs, with the interpreter that runs agent-sleep now."""
    import shlex

    exe = python or sys.executable
    return f"{shlex.quote(exe)} -m agent_sleep.sync.driver %O %A %B %P"


def _read(path: str) -> str:
    return Path(path).read_bytes().decode(ENCODING, ERRORS)


def run(base: str, ours: str, theirs: str, name: str) -> int:
    """Merge the three files git gives; 0 when ``ours`` now holds the merge."""
    try:
        merged = merge_text(name, _read(base), _read(ours), _read(theirs))
        data = merged.encode(ENCODING, ERRORS)
        tmp = ours + ".agent-sleep-merge"
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, ours)
    except Exception as e:  # any failure must leave git's own conflict handling in charge
        log.error("agent-sleep merge of %s failed: %s", name, e)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 3:
        logging.basicConfig(format="%(message)s")
        log.error("usage: python -m agent_sleep.sync.driver BASE OURS THEIRS [PATH]")
        return 2
    logging.basicConfig(format="%(message)s")
    return run(args[0], args[1], args[2], args[3] if len(args) > 3 else args[1])


if __name__ == "__main__":
    sys.exit(main())
