"""How fast is a note? ``agent-sleep rest`` against ``python -c "import click"``.

Runs the two alternately in one run (so machine noise hits both alike) and prints the medians
and their ratio. Target: ratio <= 2.0.

    python bench/bench_rest.py [--runs 40]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _cli() -> list[str]:
    exe = shutil.which("agent-sleep", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "agent_sleep"]


def _time(cmd: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--runs", type=int, default=40)
    args = ap.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as ws:
        rest = [*_cli(), "rest", "--workspace", ws, "--type", "W", "--note"]
        click = [sys.executable, "-c", "import click"]
        _time([*rest, "warm-up"], env)
        _time(click, env)
        t_rest, t_click = [], []
        for i in range(args.runs):
            t_rest.append(_time([*rest, f"benchmark note {i}"], env))
            t_click.append(_time(click, env))
    m_rest, m_click = statistics.median(t_rest), statistics.median(t_click)
    print(f"command: {' '.join(_cli())} rest --note ... ({args.runs} runs, alternating)")
    print(f"median agent-sleep rest      : {m_rest * 1000:7.1f} ms")
    print(f"median python -c 'import click': {m_click * 1000:7.1f} ms")
    print(f"ratio rest / import click     : {m_rest / m_click:7.2f}  (target <= 2.0)")


if __name__ == "__main__":
    main()
